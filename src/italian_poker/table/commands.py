"""What a table is told to do: the commands of the table machine, as frozen records.

Every front end turns what happens at its table (a person's click or key, a bot's choice, a
turn clock running out, a host's adjustment) into one of these and hands it to
:meth:`~italian_poker.table.machine.TableMachine.handle`. A player is named by a stable id
(an ``int`` that is never given to another person), never by name.
"""

from __future__ import annotations

from dataclasses import dataclass

from italian_poker.engine.actions import Action
from italian_poker.engine.card_source import CardSource
from italian_poker.engine.cards import Card
from italian_poker.table.chip_requests import ChipCaps


@dataclass(frozen=True, slots=True)
class TakeSeat:
    """``player`` sits down as ``name`` with ``chips`` in seat number ``seat`` (0 to
    ``Rules.players`` - 1; default: the lowest free seat). Table order is the order of the
    seat numbers."""

    player: int
    name: str
    chips: int
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Leave:
    """``player`` leaves the table, taking their chips."""

    player: int


@dataclass(frozen=True, slots=True)
class SitOut:
    """``player`` keeps the seat but is dealt out until :class:`SitIn`."""

    player: int


@dataclass(frozen=True, slots=True)
class SitIn:
    """``player`` is dealt in again from the next deal."""

    player: int


@dataclass(frozen=True, slots=True)
class SetChips:
    """``player`` has exactly ``chips`` (a host's adjustment)."""

    player: int
    chips: int


@dataclass(frozen=True, slots=True)
class AddChips:
    """``player`` adds ``chips`` (more than none) to the stack: a rebuy."""

    player: int
    chips: int


@dataclass(frozen=True, slots=True)
class ReEnter:
    """``player``, busted out of a sit and go, sits down again as ``name`` with the starting
    chips in seat number ``seat`` (default: the lowest free seat) while the re-entry window is
    open; during a deal, the seat is taken once it is over. The change a host's approval of a
    re-entry request (:class:`AskChips`) makes, never handed to the machine itself."""

    player: int
    name: str
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class StartDeal:
    """Begin the next deal (first the 5.5 make-up questions after a parol). Its cards come
    from ``source`` (:mod:`~italian_poker.engine.card_source`: recorded cards for a replay,
    say), else ``deck`` stacks the deck for the players dealt in (a scenario, a test), else
    ``seed`` shuffles this deal reproducibly (default: the table's seed advanced by the deal
    number, or a secure shuffle). ``now`` is the time it starts, in seconds (a match timed
    in minutes needs it: the machine reads no clock, so a replay of the commands is exact)."""

    deck: tuple[Card, ...] | None = None
    seed: int | None = None
    source: CardSource | None = None
    now: float | None = None


@dataclass(frozen=True, slots=True)
class DealCards:
    """The cards due (``TableMachine.cards_due``) of a deal whose source is
    :data:`~italian_poker.engine.card_source.CHANCE`: ``cards``, in the order they are dealt,
    as a game tree's chance node picks them (3.1, 4.1 to 4.3)."""

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Act:
    """``player``, to act, plays ``action`` (a make-up answer, 5.5, included)."""

    player: int
    action: Action


@dataclass(frozen=True, slots=True)
class AnswerMakeUp:
    """5.5: ``player``, asked after a parol, pays the make-up to play (``make_up``) or sits
    this deal out."""

    player: int
    make_up: bool


@dataclass(frozen=True, slots=True)
class TimeOut:
    """``player``'s time to act ran out: the table plays the default action for them."""

    player: int


@dataclass(frozen=True, slots=True)
class BotAct:
    """A policy playing for ``player`` chose ``action``: played if legal, else the default
    action is played and the refusal reported."""

    player: int
    action: Action


@dataclass(frozen=True, slots=True)
class AskSeat:
    """A newcomer ``player`` asks to sit down as ``name`` with ``chips`` (in seat number
    ``seat``, default: the lowest free): seated at once at an open table, else waiting for
    the host's :class:`AnswerSeat` (:mod:`~italian_poker.table.admission`)."""

    player: int
    name: str
    chips: int
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class AnswerSeat:
    """The host (``by`` None) or the co-host (``by``: their id) admits the waiting newcomer
    ``player`` (``admit``: in seat number ``seat``, default: the one asked for if still free,
    else the lowest free) or refuses them."""

    player: int
    admit: bool
    by: int | None = None
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class LockSeats:
    """The host (or co-host ``by``) locks the table (``locked``: newcomers wait for an
    answer) or opens it."""

    locked: bool
    by: int | None = None


@dataclass(frozen=True, slots=True)
class NameCoHost:
    """The host names ``player`` (seated) the co-host, or nobody (None)."""

    player: int | None


@dataclass(frozen=True, slots=True)
class SetChipCaps:
    """The host (or co-host ``by``) sets the caps on chip requests
    (:class:`~italian_poker.table.chip_requests.ChipCaps`)."""

    caps: ChipCaps
    by: int | None = None


@dataclass(frozen=True, slots=True)
class AskChips:
    """``player`` (seated, or busted and keeping the seat) asks the host for ``chips``: a
    rebuy or a top-up, or in a sit and go a re-entry with the starting chips
    (:mod:`~italian_poker.table.chip_requests`)."""

    player: int
    chips: int


@dataclass(frozen=True, slots=True)
class AnswerChips:
    """The host (``by`` None) or the co-host approves chip request ``request``
    (``approve``: the chips are added between deals) or refuses it."""

    request: int
    approve: bool
    by: int | None = None


SeatingCommand = TakeSeat | Leave | SitOut | SitIn | SetChips | AddChips
"""The commands that change who sits where and with what: while a deal is under way they wait
and take effect once it is over."""

PlayCommand = Act | AnswerMakeUp | TimeOut | BotAct
"""The commands of the player to act."""

HostCommand = AskSeat | AnswerSeat | LockSeats | NameCoHost | SetChipCaps | AskChips | AnswerChips
"""The commands of seat admission and chip requests (:mod:`~italian_poker.table.admission`,
:mod:`~italian_poker.table.chip_requests`)."""

Command = SeatingCommand | StartDeal | DealCards | PlayCommand | HostCommand
"""Everything a :class:`~italian_poker.table.machine.TableMachine` handles."""

__all__ = [
    "Act",
    "AddChips",
    "AnswerChips",
    "AnswerMakeUp",
    "AnswerSeat",
    "AskChips",
    "AskSeat",
    "BotAct",
    "Command",
    "DealCards",
    "HostCommand",
    "Leave",
    "LockSeats",
    "NameCoHost",
    "PlayCommand",
    "ReEnter",
    "SeatingCommand",
    "SetChipCaps",
    "SetChips",
    "SitIn",
    "SitOut",
    "StartDeal",
    "TakeSeat",
    "TimeOut",
]
