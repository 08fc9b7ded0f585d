"""A sampled lower bound on the uniform random policy's NashConv in the full heads-up game.

The exact NashConv of a policy needs a best response, a walk of the whole tree: impossible for
the full game (five cards each from 24, the draw, two betting rounds). But for two players,
zero-sum, ``NashConv(U) = sum_p (max_s v_p(s, U) - v_p(U))`` and ``sum_p v_p(U) = 0``, so any
fixed responder ``R`` gives ``NashConv(U) >= v_0(R, U) + v_1(U, R)``. :func:`uniform_bound`
estimates the right-hand side on sampled episodes of ``python_italian_poker`` (chance sampled
from its own outcomes, the uniform player choosing among its legal action ids), with the
responder :func:`aggressor` in each seat in turn, and gives its standard error.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import pyspiel

from italian_poker.ai.encoding import AMOUNT_BASES, AMOUNT_SLOTS, DRAW_BASE, SIMPLE_KINDS
from italian_poker.ai.openspiel_game import GAME_NAME
from italian_poker.engine.actions import ActionKind

_PREFERRED = (
    *(
        AMOUNT_BASES[kind] + slot
        for kind in (ActionKind.RAISE, ActionKind.BET, ActionKind.OPEN)
        for slot in reversed(range(AMOUNT_SLOTS))
    ),
    SIMPLE_KINDS.index(ActionKind.CALL),
    SIMPLE_KINDS.index(ActionKind.CHECK),
    DRAW_BASE,
    SIMPLE_KINDS.index(ActionKind.SHOW),
)
"""The responder's choices, best first: the largest raise, bet or open, a call, a check,
standing pat, showing."""


def aggressor(legal: list[int]) -> int:
    """The responder: the first of :data:`_PREFERRED` that is legal, else the lowest id."""
    allowed = set(legal)
    for action in _PREFERRED:
        if action in allowed:
            return action
    return min(legal)


@dataclass(frozen=True, slots=True)
class UniformBound:
    """The estimate: per seat, the responder's mean chips against the uniform policy, their
    sum (a lower bound on NashConv, in expectation) and its standard error."""

    episodes: int
    per_seat: tuple[float, float]
    bound: float
    stderr: float


def uniform_bound(
    episodes: int, *, seed: int = 0, params: dict[str, int | str] | None = None
) -> UniformBound:
    """Play ``episodes`` episodes of the heads-up game per seat, the responder in that seat
    and the uniform policy in the other (``params``: more game parameters)."""
    game = pyspiel.load_game(GAME_NAME, {**(params or {}), "players": 2})
    rng = random.Random(seed)
    means: list[float] = []
    variance = 0.0
    for seat in (0, 1):
        wins = [_episode(game, seat, rng) for _ in range(episodes)]
        mean = sum(wins) / episodes
        means.append(mean)
        variance += sum((w - mean) ** 2 for w in wins) / (episodes - 1) / episodes
    return UniformBound(episodes, (means[0], means[1]), sum(means), math.sqrt(variance))


def _episode(game: pyspiel.Game, seat: int, rng: random.Random) -> float:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        elif state.current_player() == seat:
            state.apply_action(aggressor(state.legal_actions()))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return float(state.returns()[seat])
