"""The table machine: one table's seats, stacks and deals as one pure state machine.

Every front end drives a table by handing :class:`TableMachine` typed commands
(:mod:`italian_poker.table.commands`) and passing on the typed events it returns
(:mod:`italian_poker.table.machine_events`), each addressed to its audience. Players are
named by a stable id, never by name. The machine owns the seats, the stacks, sitting out,
who can be dealt in (``Rules.chips_to_be_dealt_in``), the changes that wait for the end of
a deal, and the deal itself, played through the engine's :class:`~italian_poker.engine.match.Match`.
The host's desk (:mod:`~italian_poker.table.host_desk`) adds seat admission at a locked table,
the co-host and chip requests within the host's caps, whose approved chips come between deals
(in a sit and go, a busted player's request to re-enter within the format's window).

Like the engine, it refuses an illegal command with a specific
:class:`~italian_poker.engine.errors.ItalianPokerError` and changes nothing:
:meth:`TableMachine.verify` raises what :meth:`TableMachine.handle` would, and
:meth:`TableMachine.can` says whether it would accept. No I/O, no clock, no randomness of
its own (the match's seed, or a secure shuffle).
"""

from __future__ import annotations

from collections.abc import Sequence

from italian_poker.engine.actions import LegalAction
from italian_poker.engine.card_source import CardsDue
from italian_poker.engine.errors import (
    IllegalActionError,
    MalformedActionError,
    RulesError,
    SeatError,
)
from italian_poker.engine.match import CompletedDeal, Match, MatchPhase
from italian_poker.engine.observer import PUBLIC, PublicView, SeatView, observe
from italian_poker.engine.rules import Rules
from italian_poker.table.admission import Admission
from italian_poker.table.chip_requests import ChipDesk
from italian_poker.table.commands import (
    Act,
    AddChips,
    AnswerChips,
    AnswerMakeUp,
    AnswerSeat,
    AskChips,
    AskSeat,
    BotAct,
    Command,
    DealCards,
    Leave,
    LockSeats,
    NameCoHost,
    ReEnter,
    SeatingCommand,
    SetChipCaps,
    SetChips,
    SitIn,
    SitOut,
    StartDeal,
    TakeSeat,
    TimeOut,
)
from italian_poker.table.deal_play import DealPlay
from italian_poker.table.format_play import FormatPlay
from italian_poker.table.formats import (
    CASH,
    FormatKind,
    LevelStatus,
    MatchFormat,
    Standing,
)
from italian_poker.table.host_desk import HostDesk, Moment
from italian_poker.table.machine_events import (
    ChangeWaits,
    TableEvent,
)
from italian_poker.table.seating import (
    Departure,
    SeatState,
    seat_in,
)
from italian_poker.table.table_seats import TableSeats


class MalformedCommandError(MalformedActionError):
    """Something handed to the table that is not one of its commands."""


_SEATING = (TakeSeat, Leave, SitOut, SitIn, SetChips, AddChips)
_HOST = (AskSeat, AnswerSeat, LockSeats, NameCoHost, SetChipCaps, AskChips, AnswerChips)
_PLAY = (Act, AnswerMakeUp, TimeOut, BotAct)
_DEALING = (MatchPhase.IN_DEAL, MatchPhase.MAKE_UP)


class TableMachine:
    """One table: ``rules``, the ``seats`` taken so far (in table order), the player id of the
    first ``dealer`` (default: the first seat) and a ``seed`` for reproducible shuffles.
    A table nobody watches (a simulation) is made with ``audiences=False``: it reports no
    :class:`~italian_poker.table.machine_events.Observed` event.

    :meth:`handle` takes a command and returns the events it caused; while a deal is under
    way, seating commands wait (:class:`~italian_poker.table.machine_events.ChangeWaits`) and
    take effect, in the order given, once it is over (a player who busts in it keeps the seat
    when one of them sets or adds to their chips: a rebuy). Read the table with :attr:`seats`,
    :attr:`to_act`, :meth:`legal_actions`, :meth:`view` and :meth:`public_view`; :attr:`match`
    is the engine's match, to read only (every change is a command).

    ``match_format`` (:mod:`italian_poker.table.formats`; default: a cash game) says how long
    the match lasts and how its antes rise: the machine plays each deal at the schedule's
    level (:attr:`level`), reports a :class:`LevelChanged` when the next deal is played at a
    new one and, once the format says the match is over, a :class:`MatchFinished` with the
    :attr:`standings`; from then on a :class:`StartDeal` raises
    :class:`~italian_poker.table.formats.MatchFinishedError`.
    """

    def __init__(
        self,
        rules: Rules,
        seats: Sequence[TakeSeat] = (),
        *,
        dealer: int | None = None,
        seed: int | None = None,
        audiences: bool = True,
        match_format: MatchFormat = CASH,
    ) -> None:
        if not isinstance(rules, Rules):
            raise RulesError(f"a table is played under Rules, not {rules!r}")
        if not isinstance(match_format, MatchFormat):
            raise RulesError(f"a table's format is a MatchFormat, not {match_format!r}")
        self.base_rules = rules
        """The rules the table was made with (a schedule changes the ante and bets of them)."""
        self.seed = seed
        self.audiences = audiences
        self._seats = TableSeats(
            rules=FormatPlay.first_rules(match_format, rules), seats=seats, dealer=dealer, seed=seed
        )
        self._format = FormatPlay(match_format, rules, self._seats)
        self._cash = self._format.cash
        self._format.seated(list(seats))
        self._desk = HostDesk(self._seats)
        self._deals = DealPlay(self._seats, audiences)

    # --- reading --------------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The rules of the current (or next) deal: the table's, at the schedule's level."""
        return self._seats.rules

    @property
    def match(self) -> Match | None:
        """The engine's match (None until two players have sat down); read it, never change
        it."""
        return self._seats.match

    @property
    def phase(self) -> MatchPhase:
        """Where the table stands (``OVER`` while too few players can be dealt in)."""
        return MatchPhase.OVER if self._seats.match is None else self._seats.match.phase

    @property
    def seats(self) -> tuple[SeatState, ...]:
        """The seats as they stand, in table order."""
        return self._seats.states()

    @property
    def seats_to_come(self) -> tuple[SeatState, ...]:
        """The seats as they will be once the :attr:`waiting` changes are made."""
        return self._seats.states(self._seats.plan())

    @property
    def departed(self) -> tuple[Departure, ...]:
        """The players who left, with the chips they took, in the order they left."""
        return tuple(self._seats.departed)

    @property
    def waiting(self) -> tuple[SeatingCommand, ...]:
        """The seating changes that take effect once the deal under way is over."""
        return tuple(self._seats.waiting)

    @property
    def completed(self) -> tuple[CompletedDeal, ...]:
        """Every finished deal, in order."""
        return () if self._seats.match is None else tuple(self._seats.match.completed)

    def chips_to_play(self, player: int) -> int:
        """The chips ``player`` needs to be dealt in the next deal: the antes, and while a
        parol pot is carried what 5.5 asks of them (``Match.chips_to_play``)."""
        match = self._seats.match
        if match is None:
            return self.rules.chips_to_be_dealt_in
        return match.chips_to_play(self.name_of(player))

    @property
    def chips_brought(self) -> int:
        """Every chip brought to the table: seats taken, chips set and added."""
        return self._seats.brought

    @property
    def chips_at_table(self) -> int:
        """The chips in the stacks and the pot (carried chips included)."""
        match = self._seats.match
        if match is None:
            return sum(p.chips for p in self._seats.lobby.values())
        stacks = sum(s.stack for s in match.seats)
        if match.phase is MatchPhase.IN_DEAL and match.deal is not None:
            return stacks + match.deal.pot
        return stacks + match.carried

    @property
    def to_act(self) -> int | None:
        """The id of the player to act (a decision in the deal or a 5.5 question), or None."""
        return self._deals.to_act()

    @property
    def cards_due(self) -> CardsDue | None:
        """The cards the deal under way waits for (a deal whose source is
        :data:`~italian_poker.engine.card_source.CHANCE`: :class:`DealCards` gives them), or
        None."""
        match = self._seats.match
        return None if match is None else match.cards_due()

    @property
    def dealer(self) -> int | None:
        """The id of the player with the button (who deals next, between deals); None before
        two players have sat down."""
        match = self._seats.match
        if match is None or not match.seats:
            return None
        return (
            self._deals.id_of(match.dealer_name)
            if any(s.name == match.dealer_name for s in match.seats)
            else None
        )

    @property
    def deal_players(self) -> tuple[int, ...]:
        """The ids of the players dealt into the current (or last) deal, in seat order."""
        match = self._seats.match
        if match is None or match.deal is None:
            return ()
        return match.deal.start.player_ids

    def legal_actions(self) -> tuple[LegalAction, ...]:
        """What the player to act may do."""
        return self._deals.legal_actions()

    def view(self, player: int) -> SeatView:
        """What ``player`` may know of the current (or last) deal (a player asked the 5.5
        question sees it as their turn); :class:`SeatError` if they were not dealt in."""
        match = self._seats.match
        deal = None if match is None else match.deal
        if match is None or deal is None or player not in deal.start.player_ids:
            raise SeatError(f"player {player!r} is not in the current deal")
        return match.view(deal.start.names[deal.start.player_ids.index(player)])

    def public_view(self) -> PublicView | None:
        """What a spectator sees of the current (or last) deal; None before the first."""
        deal = None if self._seats.match is None else self._seats.match.deal
        return None if deal is None else observe(deal, PUBLIC)

    def name_of(self, player: int) -> str:
        """The name ``player`` sits under."""
        return seat_in(player, self._seats.current()).name

    # --- the match format -----------------------------------------------------------------

    @property
    def match_format(self) -> MatchFormat:
        """How long the match lasts and how its ante rises (:mod:`~italian_poker.table.formats`)."""
        return self._format.match_format

    @property
    def finished(self) -> bool:
        """Whether the match format says the match is over (never, in a cash game)."""
        return self._format.finished

    @property
    def level(self) -> LevelStatus | None:
        """The schedule's level in force, the next and when it comes (None: no schedule)."""
        return self._format.level

    @property
    def deals_left(self) -> int | None:
        """The deals still to play of a fixed-length match (None for the other formats)."""
        return self._format.deals_left

    @property
    def standings(self) -> tuple[Standing, ...]:
        """The final standings once :attr:`finished`, else as the stacks stand."""
        return self._format.standings

    @property
    def ends_at(self) -> float | None:
        """The time from which no deal starts, of a fixed match in minutes once its first
        deal has started (the times the deals start with); else None."""
        return self._format.ends_at

    @property
    def re_entry_open(self) -> bool:
        """Whether a busted player may ask to re-enter now (a sit and go's re-entry
        window)."""
        return self._format.re_entry_open()

    # --- admission and chip requests ---------------------------------------------------------

    @property
    def admission(self) -> Admission:
        """Whether the table is locked, its co-host and the newcomers waiting for a seat
        (:mod:`~italian_poker.table.admission`); read it, never change it."""
        return self._desk.admission

    @property
    def chip_desk(self) -> ChipDesk:
        """The caps on chip requests, those waiting and how many each player has had
        approved (:mod:`~italian_poker.table.chip_requests`); read it, never change it."""
        return self._desk.chips

    def bought(self, player: int) -> int:
        """The chips ``player`` brought to the table: seats taken, chips set and added."""
        return self._seats.bought.get(player, 0)

    def nets(self) -> dict[int, int]:
        """Each player's chips won (negative: lost): the chips in front of them and those
        they took away, less those they brought; in the order they first came. The nets
        sum to zero between deals while no pot is carried."""
        held = {s.player: s.chips for s in self.seats}
        for departure in self._seats.departed:
            held[departure.player] = held.get(departure.player, 0) + departure.chips
        return {p: held.get(p, 0) - b for p, b in self._seats.bought.items()}

    def _moment(self) -> Moment:
        """Where the table stands for a chip request."""
        level = self.level
        sit_and_go = self.match_format.kind is FormatKind.SIT_AND_GO
        return Moment(
            None if level is None else level.number,
            self.phase in _DEALING,
            self.match_format.starting_chips if sit_and_go else None,
        )

    # --- checking -------------------------------------------------------------------------

    def verify(self, command: Command) -> None:
        """Raise what :meth:`handle` would raise for ``command``; nothing changes."""
        if not self._format.cash:
            self._format.check(command)
        if isinstance(command, _SEATING):
            self._seats.check(command)
        elif isinstance(command, StartDeal):
            self._deals.check_start(command)
        elif isinstance(command, _PLAY):
            self._deals.verify(command)
        elif isinstance(command, _HOST):
            self._desk.check(command, self._check_change, self._moment())
        elif isinstance(command, DealCards):
            self._deals.due_deal().verify_cards(command.cards)
        else:
            raise MalformedCommandError(f"not a table command: {command!r}")

    def can(self, command: Command) -> bool:
        """Whether :meth:`handle` would accept ``command``; nothing changes."""
        try:
            self.verify(command)
        except (IllegalActionError, SeatError):
            return False
        return True

    # --- handling -------------------------------------------------------------------------

    def handle(self, command: Command) -> list[TableEvent]:
        """Carry out ``command`` and return what happened, in order; an illegal command raises
        as :meth:`verify` does and changes nothing."""
        if type(command) is Act and self._cash:  # the common command, first
            events = self._deals.act(command)
        elif isinstance(command, ReEnter):
            raise MalformedCommandError(
                "a busted player asks to re-enter (AskChips): the host approves it"
            )
        else:
            events = self._handle(command) if self._cash else self._format_handle(command)
        after = self._desk.after(events)
        return events + after if after else events

    def _format_handle(self, command: Command) -> list[TableEvent]:
        """:meth:`handle` at a table with a match format: the level before a deal, the
        standings after."""
        self._format.check(command)
        match = self._seats.match
        completed = 0 if match is None else len(match.completed)
        if isinstance(command, StartDeal):
            self._deals.check_start(command)
            first = self._format.before_deal(command)
            if self._format.finished or self.phase is not MatchPhase.BETWEEN_DEALS:
                return first
            return first + self._format.after(self._handle(command), completed)
        return self._format.after(self._handle(command), completed)

    def _handle(self, command: Command) -> list[TableEvent]:
        """:meth:`handle`, the match format aside."""
        if isinstance(command, _PLAY):
            return self._deals.play_command(command)
        if isinstance(command, DealCards):
            return self._deals.deal_cards(command.cards)
        if isinstance(command, StartDeal):
            return self._deals.start(command)
        if isinstance(command, _HOST):
            desk = self._desk
            return desk.handle(command, self._check_change, self._change, self._moment())
        if isinstance(command, _SEATING):
            return self._seat(command)
        raise MalformedCommandError(f"not a table command: {command!r}")

    def _check_change(self, command: SeatingCommand | ReEnter) -> None:
        """Refuse a change the desk makes as :meth:`_change` would: a re-entry outside the
        format's window, or a seating command :meth:`verify` refuses."""
        if isinstance(command, ReEnter):
            self._format.check_re_entry(command)
            self._seats.check(self._format.re_entry_seat(command))
        else:
            self.verify(command)

    def _change(self, command: SeatingCommand | ReEnter) -> list[TableEvent]:
        """Carry out a (checked) change the desk makes: an approved re-entry (reported, the
        seat taken now between deals, else once the deal is over) or a seating command."""
        if isinstance(command, ReEnter):
            take, entered = self._format.re_enter(command)
            return [entered, *self._seat(take)]
        return self._seat(command)

    def _seat(self, command: SeatingCommand) -> list[TableEvent]:
        """Carry out a seating change: now between deals, else once the deal is over."""
        self._seats.check(command)
        if self.phase in _DEALING:
            if isinstance(command, Leave) and command.player not in self._seats.current():
                return self._seats.leave_before_seated(command.player)
            self._seats.waiting.append(command)
            return [ChangeWaits(command)]
        return self._seats.change(command)


__all__ = ["MalformedCommandError", "TableMachine"]
