"""A bot's randomness as a :class:`Chance`: drawn live, or enumerated into exact odds.

A bot whose every random choice goes through a :class:`Chance` (``happens``, ``integer``,
``pick``, ``sample``) is a :class:`KnownPolicy`: its ``decide(view, chance)`` is its whole
decision. In play the chance is :class:`Draws`, which consumes a :class:`random.Random` exactly
as ``rng.random() < rate``, ``rng.randint``, ``rng.choice`` and ``rng.sample`` would, so a seed
gives the same game as before. :func:`action_distribution` runs the same ``decide`` once for
every path through its random choices and returns each action with its exact probability: what
the AIVAT action terms of :mod:`~italian_poker.analysis.evaluation` need.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar, runtime_checkable

from italian_poker.engine.actions import Action
from italian_poker.engine.observer import SeatView

T = TypeVar("T")

MAX_PATHS = 20_000
"""The most paths :func:`action_distribution` follows before it gives up."""


class Chance(Protocol):
    """Where a bot's random choices come from."""

    def happens(self, rate: float) -> bool:
        """True with probability ``rate``."""
        ...

    def integer(self, low: int, high: int) -> int:
        """An integer from ``low`` to ``high`` inclusive, each equally likely."""
        ...

    def pick(self, items: Sequence[T]) -> T:
        """One of ``items``, each equally likely."""
        ...

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """``k`` distinct items in a random order, every ordering equally likely."""
        ...


@runtime_checkable
class KnownPolicy(Protocol):
    """A policy whose randomness all comes from the :class:`Chance` it is given."""

    def decide(self, view: SeatView, chance: Chance) -> Action:
        """The action for ``view``, its random choices drawn from ``chance``."""
        ...


@dataclass(slots=True)
class Draws:
    """Live chance: draws from ``rng`` as the plain :class:`random.Random` calls would."""

    rng: random.Random

    def happens(self, rate: float) -> bool:
        return self.rng.random() < rate

    def integer(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)

    def pick(self, items: Sequence[T]) -> T:
        return self.rng.choice(items)

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        return self.rng.sample(items, k)


class TooManyPathsError(ValueError):
    """A decision with more random paths than :data:`MAX_PATHS`."""


@dataclass(slots=True)
class _Path:
    """One run of ``decide``: the option taken at each random choice, forced for the first
    ``len(forced)`` choices and the first option after; each choice's option count and the
    probability of the options taken are noted."""

    forced: list[int]
    taken: list[int] = field(default_factory=list)
    options: list[int] = field(default_factory=list)
    probability: float = 1.0

    def _choose(self, weights: Sequence[float]) -> int:
        depth = len(self.taken)
        index = self.forced[depth] if depth < len(self.forced) else 0
        self.taken.append(index)
        self.options.append(len(weights))
        self.probability *= weights[index]
        return index

    def happens(self, rate: float) -> bool:
        if rate >= 1.0 or rate <= 0.0:
            return rate >= 1.0  # no branch: rng.random() < rate is certain either way
        return self._choose((rate, 1.0 - rate)) == 0

    def integer(self, low: int, high: int) -> int:
        width = high - low + 1
        return low + self._choose([1.0 / width] * width)

    def pick(self, items: Sequence[T]) -> T:
        return items[self._choose([1.0 / len(items)] * len(items))]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        orders = list(itertools.permutations(range(len(items)), k))
        order = orders[self._choose([1.0 / len(orders)] * len(orders))]
        return [items[i] for i in order]


def action_distribution(policy: KnownPolicy, view: SeatView) -> tuple[tuple[Action, float], ...]:
    """Every action ``policy`` may take at ``view`` with its exact probability (summing to
    1), most likely first; raises :class:`TooManyPathsError` past :data:`MAX_PATHS` paths."""
    odds: dict[Action, float] = {}
    pending: list[list[int]] = [[]]
    paths = 0
    while pending:
        forced = pending.pop()
        paths += 1
        if paths > MAX_PATHS:
            raise TooManyPathsError(f"more than {MAX_PATHS} random paths in one decision")
        path = _Path(forced)
        action = policy.decide(view, path)
        odds[action] = odds.get(action, 0.0) + path.probability
        for depth in range(len(forced), len(path.taken)):
            for other in range(1, path.options[depth]):
                pending.append([*path.taken[:depth], other])
    return tuple(sorted(odds.items(), key=lambda item: -item[1]))


__all__ = [
    "MAX_PATHS",
    "Chance",
    "Draws",
    "KnownPolicy",
    "TooManyPathsError",
    "action_distribution",
]
