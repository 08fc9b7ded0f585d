"""What a table reports: each decision as a player may know it, each finished deal, and a
session's summary.

Every front end reads these and the narration (:mod:`italian_poker.table.narration`) puts
them into words: the terminal game (``play.session`` builds them) and the online server
alike. Frozen records, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from italian_poker.engine.actions import ActionKind
from italian_poker.engine.cards import Card
from italian_poker.engine.deal import Deal, Outcome
from italian_poker.engine.deck import HAND_SIZE
from italian_poker.engine.hand_rank import HandRank, evaluate
from italian_poker.engine.observer import PublicView, SeatView
from italian_poker.engine.opening import OpeningRequirement
from italian_poker.table.formats import Standing


class OverReason(StrEnum):
    """Why a session cannot go on."""

    HUMAN_BUSTED = "human-busted"
    TABLE_WON = "table-won"
    MATCH_OVER = "match-over"
    MATCH_FINISHED = "match-finished"
    """The match format says the match is over (a sit and go won, a fixed length played)."""


@dataclass(frozen=True, slots=True)
class Event:
    """One decision as the human may know it: a bot's draw shows how many cards it changed,
    its discards only when they lie face up (003). ``bot_error`` is set when a bot chose an
    illegal action and the session played a safe one instead."""

    player: str
    kind: ActionKind
    amount: int | None = None
    cards_changed: int | None = None
    discards: tuple[Card, ...] = ()
    split: bool = False
    bot_error: str | None = None
    added: int | None = None
    """The chips a call, an opening, a bet or a raise added (``amount`` is the new round
    total); None when not known, or for any other action."""


ROUND_TOTAL_KINDS = frozenset({ActionKind.CALL, ActionKind.OPEN, ActionKind.BET, ActionKind.RAISE})
"""The actions whose amount is the player's new total for the betting round."""


def round_bet_before(deal: Deal, seat: int, kind: ActionKind) -> int | None:
    """What ``seat`` has in the betting round under way, read before it acts with ``kind``:
    the chips an action of :data:`ROUND_TOTAL_KINDS` adds are its amount less this; None
    for any other action."""
    return deal.round_bet[seat] if kind in ROUND_TOTAL_KINDS else None


def chips_added(amount: int | None, before: int | None) -> int | None:
    """The chips an action added: its round total ``amount`` less the bet ``before`` it
    (:func:`round_bet_before`); None when either is unknown."""
    return None if amount is None or before is None else amount - before


@dataclass(frozen=True, slots=True)
class FinishedDeal:
    """A completed deal as a table reports it. ``view`` is the human's final view or, when
    the human was not dealt in (or for a public log), the observer's :class:`PublicView`,
    which has no hidden card; ``next_requirement`` is what the next deal needs to open."""

    number: int
    view: SeatView | PublicView
    human_in_deal: bool
    next_requirement: OpeningRequirement
    history_path: Path | None = None
    save_error: str | None = None

    @property
    def outcome(self) -> Outcome:
        """How the deal ended."""
        assert self.view.result is not None
        return self.view.result.outcome


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """One player's session: chips at the start and now, pots won, and whether they left."""

    name: str
    start: int
    end: int
    pots_won: int
    left: bool

    @property
    def change(self) -> int:
        """Chips won (positive) or lost (negative)."""
        return self.end - self.start


@dataclass(frozen=True, slots=True)
class BiggestPot:
    """The largest pot won in the session."""

    amount: int
    winners: tuple[str, ...]
    number: int


@dataclass(frozen=True, slots=True)
class SessionSummary:
    """The session at the moment it is summarised."""

    human: str
    deals: int
    won: int
    passed: int
    parol: int
    players: tuple[PlayerSummary, ...]
    biggest_pot: BiggestPot | None
    histories: Path | None
    over: OverReason | None
    abandoned: bool = False
    """Whether a deal was left unfinished (it is not counted)."""
    error: str | None = None
    """Set when the game stopped on an unexpected error (the exception, in a few words):
    the summary is the session as it stood then, and the command exits non-zero."""
    standings: tuple[Standing, ...] = field(default=(), repr=False)
    """The standings of a fixed-length match or a sit and go (none in a cash game; left out
    of the summary's repr, which records a cash game's session as it always has)."""


def hand_rank(view: SeatView) -> HandRank | None:
    """The rank of the hand of ``view``'s seat, or None while it does not have five cards
    (before the deal, or waiting for the fourth card of a draw of four, 4.2)."""
    if len(view.hand) != HAND_SIZE:
        return None
    return evaluate(view.hand, players=view.players, tiebreak=view.rules.tiebreak)
