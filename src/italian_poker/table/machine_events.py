"""What the table machine reports: typed events, each addressed to its audience.

:meth:`~italian_poker.table.machine.TableMachine.handle` returns these in the order things
happened. Each event says who may receive it (:attr:`audience`): everyone at the table
(players and spectators), one player, or the host alone (the table's own log and hand
histories, which hold every card). A front end sends each viewer the events whose audience
:meth:`Audience.reaches` them and nothing else: the observer
(:func:`~italian_poker.engine.observer.observe_operations`) has already decided what each
audience may know.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from italian_poker.engine.actions import Action
from italian_poker.engine.cards import Rank
from italian_poker.engine.deal import ActionRecord, Deal, DealStart, Operation
from italian_poker.engine.match import CompletedDeal
from italian_poker.engine.observer import PUBLIC, ObservedOperation, observe_operations
from italian_poker.table.chip_requests import ChipCaps, ChipRequest
from italian_poker.table.commands import SeatingCommand
from italian_poker.table.defaults import DefaultReason
from italian_poker.table.formats import LevelStatus, Standing


@dataclass(frozen=True, slots=True)
class Audience:
    """Who may receive an event: everyone (no ``player``, not ``host``) but the players
    ``besides`` (who receive their own version of it), one ``player``, or the ``host`` alone."""

    player: int | None = None
    host: bool = False
    besides: tuple[int, ...] = ()

    def reaches(self, player: int | None) -> bool:
        """Whether the event goes to ``player`` (None: a spectator). The host receives every
        event; a viewer never receives a host event."""
        if self.host:
            return False
        if self.player is not None:
            return self.player == player
        return player is None or player not in self.besides


EVERYONE: Final = Audience()
"""Every player and spectator."""
HOST: Final = Audience(host=True)
"""The host alone: the events that hold every card."""


def only(player: int) -> Audience:
    """The audience of one player."""
    return Audience(player)


# --- seating (everyone) ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatTaken:
    """``player`` sat down as ``name`` with ``chips``."""

    player: int
    name: str
    chips: int
    audience: Audience = EVERYONE


@dataclass(frozen=True, slots=True)
class SeatLeft:
    """``player`` left with ``chips``: by choice, or ``busted`` (fewer chips than it takes to
    be dealt in at the end of a deal)."""

    player: int
    name: str
    chips: int
    busted: bool = False
    audience: Audience = EVERYONE


@dataclass(frozen=True, slots=True)
class ReEntered:
    """``player``, busted out of a sit and go, re-entered as ``name`` with ``chips`` (the
    starting chips), their re-entry number ``count`` (1 for the first); the seat is theirs
    once a :class:`SeatTaken` follows (at once between deals, else when the deal ends)."""

    player: int
    name: str
    chips: int
    count: int
    audience: Audience = EVERYONE


@dataclass(frozen=True, slots=True)
class SatOut:
    """``player`` is dealt out until they sit in."""

    player: int
    audience: Audience = EVERYONE


@dataclass(frozen=True, slots=True)
class SatIn:
    """``player`` is dealt in again from the next deal."""

    player: int
    audience: Audience = EVERYONE


@dataclass(frozen=True, slots=True)
class ChipsChanged:
    """``player`` now has ``chips``, ``change`` more than before (negative: fewer)."""

    player: int
    chips: int
    change: int
    audience: Audience = EVERYONE


@dataclass(frozen=True, slots=True)
class ChangeWaits:
    """A seating change came while a deal is under way: it takes effect once the deal is over."""

    command: SeatingCommand
    audience: Audience = EVERYONE


@dataclass(frozen=True, slots=True)
class ChangeDropped:
    """A waiting seating change no longer applies once the deal is over (``reason``: the
    player busted, say)."""

    command: SeatingCommand
    reason: str
    audience: Audience = EVERYONE


# --- admission and chip requests (everyone) -------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatsLocked:
    """The table is ``locked`` (newcomers wait for the host's answer) or open."""

    locked: bool
    audience: Audience = EVERYONE


@dataclass(frozen=True, slots=True)
class CoHostNamed:
    """``player`` is the co-host now (None: nobody)."""

    player: int | None
    audience: Audience = EVERYONE


@dataclass(frozen=True, slots=True)
class SeatAsked:
    """Newcomer ``player`` asks to sit down as ``name`` with ``chips``: the host answers."""

    player: int
    name: str
    chips: int
    audience: Audience = EVERYONE


@dataclass(frozen=True, slots=True)
class SeatAnswered:
    """The host (``by`` None) or the co-host admitted newcomer ``player`` (``name``) or
    refused them; an admitted newcomer sits down (at once, or when the deal is over)."""

    player: int
    name: str
    admitted: bool
    by: int | None = None
    audience: Audience = EVERYONE


@dataclass(frozen=True, slots=True)
class ChipCapsSet:
    """The caps on chip requests are ``caps`` now."""

    caps: ChipCaps
    audience: Audience = EVERYONE


@dataclass(frozen=True, slots=True)
class ChipsAsked:
    """``request`` (its number, player, chips and kind) waits for the host's answer."""

    request: ChipRequest
    audience: Audience = EVERYONE


@dataclass(frozen=True, slots=True)
class ChipsAnswered:
    """The host (``by`` None) or the co-host approved ``request`` (``approved``: the chips
    are added between deals) or refused it; ``dropped`` requests closed on their own (the
    player left)."""

    request: ChipRequest
    approved: bool
    by: int | None = None
    dropped: bool = False
    audience: Audience = EVERYONE


# --- deals ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DealStarted:
    """A deal began: ``start`` (with the deck) and ``operations`` (the antes and every hand,
    3.1). The host's."""

    number: int
    start: DealStart
    operations: tuple[Operation, ...]
    audience: Audience = HOST


@dataclass(frozen=True, slots=True)
class DealAnnounced:
    """A deal began, as everyone knows it: the ``players`` dealt in (in seat order), their
    ``stacks`` before the antes, the ``dealer``'s seat, the chips ``carried`` in the pot and the
    pair that opens (3.3, 3.5)."""

    number: int
    players: tuple[int, ...]
    stacks: tuple[int, ...]
    dealer: int
    carried: int
    min_pair: Rank
    audience: Audience = EVERYONE


@dataclass(frozen=True, slots=True)
class Observed:
    """What a command did to the deal, as its audience saw it (the observer's
    :func:`~italian_poker.engine.observer.observe_operations`): each player dealt in receives
    their own seat's log, everyone else the public log."""

    operations: tuple[ObservedOperation, ...]
    audience: Audience = EVERYONE


@dataclass(frozen=True, slots=True)
class MakeUpAsked:
    """5.5: ``player`` decides whether to pay ``amount`` to play the deal after a parol."""

    player: int
    amount: int
    audience: Audience = EVERYONE


@dataclass(frozen=True, slots=True)
class MakeUpAnswered:
    """5.5: ``player`` made up (``action`` ``MAKE_UP`` with the amount) or sat out;
    ``default`` says why the table answered for them, ``refused`` names a policy's illegal
    answer."""

    player: int
    action: Action
    default: DefaultReason | None = None
    refused: str | None = None
    audience: Audience = EVERYONE


@dataclass(frozen=True, slots=True)
class ActionTaken:
    """``player`` (seat ``seat`` of the deal) acted: ``record`` as the engine recorded it and
    the ``operations`` it made (cards served included). ``default`` says why the table played
    the action, ``refused`` names a policy's illegal choice; ``added`` is what a call, an
    opening, a bet or a raise added to the round bet. The host's."""

    player: int
    seat: int
    record: ActionRecord
    operations: tuple[Operation, ...]
    default: DefaultReason | None = None
    refused: str | None = None
    added: int | None = None
    audience: Audience = HOST

    @property
    def action(self) -> Action:
        """The action, amounts filled in."""
        return self.record.action


@dataclass(frozen=True, slots=True)
class CardsDealt:
    """The cards due were dealt (a :class:`~italian_poker.table.commands.DealCards`):
    ``operations``, the cards each player took. The host's."""

    operations: tuple[Operation, ...]
    audience: Audience = HOST


@dataclass(frozen=True, slots=True)
class Defaulted:
    """The table played the default action for ``player``: ``reason`` (time ran out, or the
    policy chose an illegal action)."""

    player: int
    reason: DefaultReason
    audience: Audience = EVERYONE


@dataclass(frozen=True, slots=True)
class DealFinished:
    """A deal ended: everything the match recorded (the deck included). The host's."""

    completed: CompletedDeal
    audience: Audience = HOST


@dataclass(frozen=True, slots=True)
class NoDeal:
    """5.5: the make-up answers left too few players to deal in; the pot waits."""

    carried: int
    audience: Audience = EVERYONE


# --- the match format (everyone) ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LevelChanged:
    """The schedule's next level is in force from the next deal: ``status`` says which,
    with the level after it and when it comes."""

    status: LevelStatus
    audience: Audience = EVERYONE


@dataclass(frozen=True, slots=True)
class MatchFinished:
    """The match format says the match is over: the ``standings``, first place first (a sit
    and go: the winner, then the others in the reverse of the order they went out)."""

    standings: tuple[Standing, ...]
    audience: Audience = EVERYONE


def observed(deal: Deal, operations: tuple[Operation, ...]) -> tuple[Observed, ...]:
    """``operations`` of ``deal`` as everyone not dealt in saw them, and as each player dealt
    in did (:func:`~italian_poker.engine.observer.observe_operations`)."""
    rules = deal.rules
    players = deal.start.player_ids
    public = Observed(observe_operations(operations, PUBLIC, rules), Audience(besides=players))
    return (
        public,
        *(
            Observed(observe_operations(operations, seat, rules), only(player))
            for seat, player in enumerate(players)
        ),
    )


TableEvent = (
    SeatTaken
    | SeatLeft
    | ReEntered
    | SatOut
    | SatIn
    | ChipsChanged
    | ChangeWaits
    | ChangeDropped
    | DealStarted
    | DealAnnounced
    | Observed
    | MakeUpAsked
    | MakeUpAnswered
    | ActionTaken
    | CardsDealt
    | Defaulted
    | DealFinished
    | NoDeal
    | LevelChanged
    | MatchFinished
    | SeatsLocked
    | CoHostNamed
    | SeatAsked
    | SeatAnswered
    | ChipCapsSet
    | ChipsAsked
    | ChipsAnswered
)
"""Everything a :class:`~italian_poker.table.machine.TableMachine` reports."""

__all__ = [
    "EVERYONE",
    "HOST",
    "ActionTaken",
    "Audience",
    "CardsDealt",
    "ChangeDropped",
    "ChangeWaits",
    "ChipCapsSet",
    "ChipsAnswered",
    "ChipsAsked",
    "ChipsChanged",
    "CoHostNamed",
    "DealAnnounced",
    "DealFinished",
    "DealStarted",
    "Defaulted",
    "LevelChanged",
    "MakeUpAnswered",
    "MakeUpAsked",
    "MatchFinished",
    "NoDeal",
    "Observed",
    "ReEntered",
    "SatIn",
    "SatOut",
    "SeatAnswered",
    "SeatAsked",
    "SeatLeft",
    "SeatTaken",
    "SeatsLocked",
    "TableEvent",
    "observed",
    "only",
]
