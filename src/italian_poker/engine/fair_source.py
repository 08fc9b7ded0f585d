"""A provably fair deck as a card source (docs/fairness.md).

A deal dealt fairly goes in three steps:

1. :meth:`SealedDeck.new` draws a secret seed and publishes its :attr:`~SealedDeck.commitment`
   (before anyone gives a value);
2. each seat gives a value (:func:`~italian_poker.engine.fair_shuffle.new_value`, or a text it
   types: :func:`~italian_poker.engine.fair_shuffle.text_value`);
3. :meth:`SealedDeck.source` gives the :class:`FairSource` the deal takes its cards from: the
   stripped deck in canonical order, Fisher-Yates from the stream of the seed, the deal
   number and the values. The deal (3.1) takes the first five cards per player, one at a time
   from the dealer's left; each draw (4.1) and late fourth card (4.2) takes the next cards
   of the stack that the rules allow (a player's own reshuffled discards wait); each
   reshuffle (4.3) shuffles the discards, in canonical order, from the same stream and puts
   them under the stack.

:class:`FairDeck` is what a hand history keeps: the deal number, the commitment, the values
and, once revealed, the seed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from italian_poker.engine.card_source import CardsDue, Why
from italian_poker.engine.cards import Card
from italian_poker.engine.errors import CardSourceError
from italian_poker.engine.fair_shuffle import (
    SCHEME,
    VALUE_SIZE,
    FairStream,
    canonical_order,
    check_seed,
    check_values,
    commitment,
    fisher_yates,
    new_seed,
)

__all__ = [
    "FairDeck",
    "FairSource",
    "Reveal",
    "SealedDeck",
    "reproducible_seed",
    "reproducible_value",
]

_REPRODUCIBLE_SEED = b"italian-poker fair deck v1 reproducible seed"
_REPRODUCIBLE_VALUE = b"italian-poker fair deck v1 reproducible value"


class Reveal(StrEnum):
    """When a table reveals its fair decks' seeds (docs/fairness.md)."""

    CLOSE = "close"
    """All together when the table closes: nothing leaks while it plays on (the default)."""
    DEAL = "deal"
    """In each deal's history as the deal ends: folded hands and the undealt cards with it."""


@dataclass(frozen=True, slots=True)
class FairDeck:
    """What a hand history records of a fair deck: the ``deal`` number in the stream, the
    ``commitment`` published before the values, the players' ``values`` in seat order and the
    ``seed`` once revealed (``None`` until then)."""

    deal: int
    commitment: bytes
    values: tuple[bytes, ...]
    seed: bytes | None = None
    scheme: str = SCHEME

    def without_seed(self) -> FairDeck:
        """This record before the reveal."""
        return replace(self, seed=None)


@dataclass(frozen=True, slots=True)
class SealedDeck:
    """A deal's secret seed and its number, before the players' values: publish
    :attr:`commitment`, gather the values, then deal from :meth:`source`."""

    deal: int
    seed: bytes

    def __post_init__(self) -> None:
        check_seed(self.seed)
        if type(self.deal) is not int or self.deal < 0:
            raise CardSourceError(f"a deal number is a whole number, not {self.deal!r}")

    @classmethod
    def new(cls, deal: int, seed: bytes | None = None) -> SealedDeck:
        """Deal ``deal``'s deck sealed with ``seed`` (default: a fresh secret one)."""
        return cls(deal, new_seed() if seed is None else seed)

    @property
    def commitment(self) -> bytes:
        """SHA-256 of the label and the seed, published before the values are given."""
        return commitment(self.seed)

    def source(self, values: Sequence[bytes]) -> FairSource:
        """The card source of this deal once every seat has given its value."""
        return FairSource(self.seed, self.deal, values)

    def __repr__(self) -> str:
        return f"SealedDeck({self.deal}, commitment={self.commitment.hex()})"


class FairSource:
    """Cards from the fair deck of ``seed``, ``deal`` and ``values`` (see the module
    docstring). One source serves one deal."""

    __slots__ = ("_stack", "_stream", "deal", "seed", "values")

    deals_from_candidates = True
    """The deal (3.1) is the first cards of a shuffle of the candidates (no check needed)."""

    def __init__(self, seed: bytes, deal: int, values: Sequence[bytes]) -> None:
        self.seed = check_seed(seed)
        self.deal = deal
        self.values = check_values(values)
        self._stream = FairStream(seed, deal, self.values)
        self._stack: list[Card] | None = None

    @property
    def commitment(self) -> bytes:
        """The commitment to the seed."""
        return commitment(self.seed)

    @property
    def stack(self) -> tuple[Card, ...]:
        """The cards not served yet, in the order they come (empty before the first take)."""
        return () if self._stack is None else tuple(self._stack)

    def record(self, *, reveal: bool) -> FairDeck:
        """What a hand history keeps: with the seed when ``reveal``."""
        return FairDeck(self.deal, self.commitment, self.values, self.seed if reveal else None)

    def take(self, due: CardsDue) -> tuple[Card, ...]:
        stack = self._stack
        if stack is None:
            stack = self._stack = fisher_yates(canonical_order(due.candidates), self._stream)
        elif due.why is Why.DEAL:
            raise CardSourceError("a fair deck deals one deal: seal a new one for the next")
        if due.shuffled_in:
            stack += fisher_yates(canonical_order(due.shuffled_in), self._stream)
        count = due.number
        if due.why is Why.DEAL:
            served = stack[:count]
            del stack[:count]
        else:
            allowed = set(due.candidates)
            picked = [i for i, card in enumerate(stack) if card in allowed][:count]
            served = [stack[i] for i in picked]
            for i in reversed(picked):
                del stack[i]
        if len(served) != count:
            raise CardSourceError(
                f"the fair deck holds {len(served)} of the {count} cards due ({due.why.value})"
            )
        return tuple(served)

    def __repr__(self) -> str:
        return f"FairSource(deal {self.deal}, commitment={self.commitment.hex()})"


def reproducible_seed(seed: int, deal: int) -> bytes:
    """A seed reproducible from a whole-number ``seed`` (``--seed``) for deal ``deal``:
    ``SHA-256(label || "<seed>:<deal>")``. Not secret: a game played from it is fair only
    for whoever does not know ``seed``."""
    return hashlib.sha256(_REPRODUCIBLE_SEED + f"{seed}:{deal}".encode()).digest()


def reproducible_value(seed: int, deal: int, seat: int) -> bytes:
    """A seat's value reproducible from ``seed`` (``--seed``), 16 bytes."""
    text = f"{seed}:{deal}:{seat}".encode()
    return hashlib.sha256(_REPRODUCIBLE_VALUE + text).digest()[:VALUE_SIZE]
