"""The cards a table's events took, as its log records them, and the card source that deals
them again when the log is replayed (a restart, a replica following the log).

Each ``deal`` or ``action`` event that made the deal take cards records them under
``taken``: one entry per operation (engine/operations.py), ``["deal", hands]`` (3.1, the
hands by seat), ``["draw", seat, cards]`` (4.1) or ``["fourth", seat, card]`` (4.2). Replaying
the event, the table gives those entries to the deal's
:class:`~italian_poker.engine.card_source.RecordedSource` first, so the event deals exactly
what it dealt; once the log ends the deal goes on with the live source.

Logs written before (version 1) recorded the whole deck order of a deal (``deck``, on the
event that began it) and the order of each reshuffle (``reshuffles``, on the action that made
it). :func:`recorded` reads both versions: a version 1 deck and its reshuffles are served as a
:class:`~italian_poker.engine.card_source.StackedSource` serves them, which deals the cards the
deal took then.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from italian_poker.engine.card_source import (
    CardOperation,
    CardSource,
    RecordedSource,
    StackedSource,
)
from italian_poker.engine.cards import Card, parse_card
from italian_poker.engine.errors import CardSourceError
from italian_poker.engine.operations import CardsDrawn, FourthCardDealt, HandsDealt

TAKEN = "taken"
"""The payload key of the cards an event took (version 2)."""


def card_entries(operations: Sequence[object]) -> list[list[Any]]:
    """The ``taken`` entries of ``operations`` (those that took cards), JSON-ready."""
    entries: list[list[Any]] = []
    for op in operations:
        if isinstance(op, HandsDealt):
            entries.append(["deal", [[str(c) for c in hand] for hand in op.hands]])
        elif isinstance(op, CardsDrawn):
            entries.append(["draw", op.seat, [str(c) for c in op.cards]])
        elif isinstance(op, FourthCardDealt):
            entries.append(["fourth", op.seat, str(op.card)])
    return entries


def _operations(entries: object) -> list[CardOperation]:
    """The operations of recorded ``taken`` entries; raises :class:`CardSourceError` on an
    entry that is not one."""
    if not isinstance(entries, list):
        raise CardSourceError(f"recorded cards are a list of entries, not {entries!r}")
    ops: list[CardOperation] = []
    for entry in entries:
        match entry:
            case ["deal", list(hands)]:
                ops.append(HandsDealt(tuple(tuple(parse_card(c) for c in hand) for hand in hands)))
            case ["draw", int(seat), list(cards)]:
                ops.append(CardsDrawn(seat, tuple(parse_card(c) for c in cards)))
            case ["fourth", int(seat), str(card)]:
                ops.append(FourthCardDealt(seat, parse_card(card)))
            case _:
                raise CardSourceError(f"not a recorded card entry: {entry!r}")
    return ops


@dataclass(frozen=True, slots=True)
class Recorded:
    """What one event recorded of the cards (either version): the operations it took
    (version 2), or a version 1 deck that begins a deal and reshuffle orders."""

    operations: tuple[CardOperation, ...] = ()
    deck: tuple[Card, ...] | None = None
    reshuffled: tuple[Card, ...] = ()

    @property
    def empty(self) -> bool:
        return not self.operations and self.deck is None and not self.reshuffled


def recorded(payload: dict[str, Any]) -> Recorded:
    """The cards ``payload`` recorded, read from either version of the log."""
    if TAKEN in payload:
        return Recorded(tuple(_operations(payload[TAKEN])))
    deck = payload.get("deck")
    reshuffles = payload.get("reshuffles") or ()
    return Recorded(
        (),
        tuple(parse_card(c) for c in deck) if deck else None,
        tuple(parse_card(c) for order in reshuffles for c in order),
    )


class DealCards:
    """The card source of a table's deal under way: recorded cards first (those the log's
    events took, given as they are replayed), then the live source. A version 1 deck sits
    between the two, as its deal then dealt it."""

    __slots__ = ("live", "source", "stacked")

    def __init__(self, live: CardSource) -> None:
        self.live = live
        self.stacked: StackedSource | None = None
        self.source = RecordedSource(then=live)

    def give(self, cards: Recorded) -> None:
        """What an event recorded, before it is replayed."""
        if cards.deck is not None:
            self.stacked = StackedSource(cards.deck, then=self.live)
            self.source.then = self.stacked
        if cards.reshuffled:
            if self.stacked is None:
                raise CardSourceError("a recorded reshuffle (version 1) without its deck")
            self.stacked.extend(cards.reshuffled)
        self.source.extend(cards.operations)
