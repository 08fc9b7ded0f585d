"""Operations: every change a deal makes, in order, as frozen records.

A :class:`~italian_poker.engine.deal.Deal` appends to ``deal.operations`` each thing that
happens, as PokerKit's operations do: the antes and make-ups paid (Art. 1, 5.5), the five
cards dealt to each player (3.1), each player action (an
:class:`~italian_poker.engine.deal.ActionRecord`), the cards served at the draw (4.1) and the
late fourth card of a draw of four (4.2), each reshuffle of the discards (4.3), the antes
handed back after an all-pass deal under 003, each pot awarded (a
:class:`~italian_poker.engine.showdown.PotAward`) and, last, the
:class:`~italian_poker.engine.deal.DealResult`. Hand histories are written from this log;
:func:`~italian_poker.engine.observer.observe_operations` gives the log as one viewer may see
it.

Only the records defined here are new; an action, an award and the result are logged as the
records the deal already makes.
"""

from __future__ import annotations

from dataclasses import dataclass

from italian_poker.engine.cards import Card


@dataclass(frozen=True, slots=True)
class AntesPaid:
    """Art. 1: what each seat put in the pot before the deal: ``antes`` (the dealer's extra
    ante of 003 included) and ``makeups`` (5.5), by seat."""

    antes: tuple[int, ...]
    makeups: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandsDealt:
    """3.1: the five cards of each seat (by seat, in the order each seat received them),
    dealt one at a time from the dealer's left."""

    hands: tuple[tuple[Card, ...], ...]


@dataclass(frozen=True, slots=True)
class CardsDrawn:
    """4.1: the cards served to ``seat`` at the draw for those it discarded (three of them
    for a draw of four, whose fourth comes as :class:`FourthCardDealt`)."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class FourthCardDealt:
    """4.2: the fourth card of a draw of four, served after everyone else has drawn."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Reshuffled:
    """4.3: the discards shuffled in under the stock when it ran out, in the order they were
    thrown (the cards then served from them are the card source's choice)."""

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class AntesReturned:
    """3.5 under 003's *piatto di parole*: the antes handed back, by seat."""

    amounts: tuple[int, ...]


__all__ = [
    "AntesPaid",
    "AntesReturned",
    "CardsDrawn",
    "FourthCardDealt",
    "HandsDealt",
    "Reshuffled",
]
