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

import copy
from collections.abc import Sequence

from italian_poker.engine.actions import Action, ActionKind, LegalAction
from italian_poker.engine.card_source import CardsDue
from italian_poker.engine.cards import Card
from italian_poker.engine.deal import Deal, Operation
from italian_poker.engine.errors import (
    ActionNotAvailableError,
    CardsNotAvailableError,
    DealOverError,
    DealStartError,
    IllegalActionError,
    MalformedActionError,
    NotYourTurnError,
    RulesError,
    SeatError,
)
from italian_poker.engine.match import CompletedDeal, Match, MatchPhase, Seat
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
from italian_poker.table.defaults import DefaultReason, default_action, forced_action
from italian_poker.table.events import ROUND_TOTAL_KINDS
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
    ActionTaken,
    CardsDealt,
    ChangeWaits,
    DealAnnounced,
    DealFinished,
    DealStarted,
    Defaulted,
    MakeUpAnswered,
    MakeUpAsked,
    NoDeal,
    TableEvent,
    observed,
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
_DEALING = (MatchPhase.IN_DEAL, MatchPhase.MAKE_UP)
_IN_DEAL = MatchPhase.IN_DEAL
_MAKE_UP = MatchPhase.MAKE_UP


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
        self._seen = 0
        """Operations of the current deal already reported."""

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
        match = self._seats.match
        if match is None:
            return None
        deal = match.deal
        if match.phase is _IN_DEAL and deal is not None:
            seat = deal.actor
            return None if seat is None else deal.start.player_ids[seat]
        name = match.actor
        return None if name is None else self._id_of(name)

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
            self._id_of(match.dealer_name)
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
        match = self._seats.match
        if match is None:
            return ()
        deal = match.deal
        if match.phase is _IN_DEAL and deal is not None:
            return deal.legal_actions()
        return match.legal_actions()

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
            self._check_start(command)
        elif isinstance(command, Act):
            self._match_or_raise().verify(command.action, self._turn(command.player))
        elif isinstance(command, AnswerMakeUp):
            self._match_or_raise().verify(self._answer(command), self._turn(command.player))
        elif isinstance(command, TimeOut | BotAct):
            self._turn(command.player)
        elif isinstance(command, _HOST):
            self._desk.check(command, self._check_change, self._moment())
        elif isinstance(command, DealCards):
            self._due_deal().verify_cards(command.cards)
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
            events = self._act(command)
        elif isinstance(command, ReEnter):
            raise MalformedCommandError(
                "a busted player asks to re-enter (AskChips): the host approves it"
            )
        else:
            events = self._handle(command) if self._cash else self._format_handle(command)
        after = self._desk.after(events)
        return events + after if after else events

    def _act(self, command: Act) -> list[TableEvent]:
        """An :class:`Act`: the seat to act read from the deal at once."""
        match = self._seats.match
        deal = None if match is None else match.deal
        if match is not None and match.phase is _IN_DEAL and deal is not None:
            seat = deal.actor
            if seat is not None and deal.start.player_ids[seat] == command.player:
                return self._play(command.player, deal.start.names[seat], command.action)
        return self._play(command.player, self._turn(command.player), command.action)

    def _format_handle(self, command: Command) -> list[TableEvent]:
        """:meth:`handle` at a table with a match format: the level before a deal, the
        standings after."""
        self._format.check(command)
        match = self._seats.match
        completed = 0 if match is None else len(match.completed)
        if isinstance(command, StartDeal):
            self._check_start(command)
            first = self._format.before_deal(command)
            if self._format.finished or self.phase is not MatchPhase.BETWEEN_DEALS:
                return first
            return first + self._format.after(self._handle(command), completed)
        return self._format.after(self._handle(command), completed)

    def _handle(self, command: Command) -> list[TableEvent]:
        """:meth:`handle`, the match format aside."""
        if isinstance(command, Act):
            return self._act(command)
        if isinstance(command, BotAct):
            name = self._turn(command.player)
            try:
                return self._play(command.player, name, command.action)
            except IllegalActionError as error:  # refused, nothing changed
                fallback = default_action(self.legal_actions())
                reason = f"{command.action}: {error}"
                return self._play(command.player, name, fallback, DefaultReason.ILLEGAL, reason)
        if isinstance(command, TimeOut):
            name = self._turn(command.player)
            fallback = default_action(self.legal_actions())
            return self._play(command.player, name, fallback, DefaultReason.TIMEOUT)
        if isinstance(command, AnswerMakeUp):
            name = self._turn(command.player)
            return self._play(command.player, name, self._answer(command))
        if isinstance(command, DealCards):
            return self._deal_cards(command.cards)
        if isinstance(command, StartDeal):
            self._check_start(command, trial=False)
            match = self._match_or_raise()
            before = len(match.completed)
            _start(match, command)
            return self._after_start(before, self._seats.records())
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

    # --- dealing --------------------------------------------------------------------------

    def _match_or_raise(self) -> Match:
        if self._seats.match is None:
            raise SeatError(
                f"fewer than {self.rules.min_players} players can be dealt in: the table waits "
                "for players to sit down"
            )
        return self._seats.match

    def _check_start(self, command: StartDeal, *, trial: bool = True) -> None:
        """Refuse a start the match would refuse; with a stacked deck (and ``trial``), by
        starting a copy."""
        match = self._match_or_raise()
        if match.phase in _DEALING:
            raise SeatError("a deal is already under way")
        if match.phase is MatchPhase.OVER:
            raise SeatError(
                f"fewer than {self.rules.min_players} players can be dealt in: the match waits "
                "for players to join, sit in or make up"
            )
        if command.seed is not None and type(command.seed) is not int:
            raise DealStartError(f"a seed is a whole number, not {command.seed!r}")
        if trial and command.deck is not None:
            _start(copy.deepcopy(match), command)

    def _due_deal(self) -> Deal:
        """The deal under way, which waits for cards; :class:`CardsNotAvailableError` if none
        does."""
        match = self._seats.match
        deal = None if match is None else match.deal
        if match is None or deal is None or match.phase is not _IN_DEAL or not deal.cards_due():
            raise CardsNotAvailableError("no cards are due now")
        return deal

    def _deal_cards(self, cards: tuple[Card, ...]) -> list[TableEvent]:
        """Deal ``cards``, the cards due; raises and changes nothing if they are not."""
        match = self._seats.match
        deal = self._due_deal()
        assert match is not None
        seats_before = match.seats  # the end of a deal makes a new list
        match.deal_cards(cards)
        operations = tuple(deal.operations[self._seen :])
        self._seen = len(deal.operations)
        events: list[TableEvent] = [CardsDealt(operations), *self._observed(deal, operations)]
        return events + self._after_play(match, deal, seats_before)

    def _turn(self, player: int) -> str:
        """The name of ``player``, who must be the one to act."""
        match = self._seats.match
        deal = None if match is None else match.deal
        if match is not None and match.phase is _IN_DEAL and deal is not None:
            seat = deal.actor
            if seat is not None and deal.start.player_ids[seat] == player:
                return deal.start.names[seat]
        actor = None if match is None else match.actor
        if actor is None:
            raise DealOverError("nobody is to act now: start the next deal")
        acting = self._id_of(actor)
        if player != acting:
            raise NotYourTurnError(f"it is {actor}'s turn, not player {player!r}'s")
        return actor

    def _answer(self, command: AnswerMakeUp) -> Action:
        if self.phase is not MatchPhase.MAKE_UP:
            raise ActionNotAvailableError("nobody is asked to make up now (5.5)")
        return Action(ActionKind.MAKE_UP if command.make_up else ActionKind.SIT_OUT)

    def _id_of(self, name: str) -> int:
        match = self._seats.match
        assert match is not None
        return match.seat(name).player_id

    def _play(
        self,
        player: int,
        name: str,
        action: Action,
        default: DefaultReason | None = None,
        refused: str | None = None,
    ) -> list[TableEvent]:
        """Apply ``action`` for ``player`` (``name``), to act; raises and changes nothing when
        it is illegal."""
        match = self._seats.match
        assert match is not None
        if match.phase is _MAKE_UP:
            before = len(match.completed)
            seated = self._seats.records()
            recorded = match.verify(action, name)
            match.apply(action, name)
            events: list[TableEvent] = [MakeUpAnswered(player, recorded, default, refused)]
            return events + self._after_start(before, seated)
        deal = match.deal
        assert deal is not None
        seats_before = match.seats  # the end of a deal makes a new list
        seat = deal.actor
        assert seat is not None
        bet_before = deal.round_bet[seat] if action.kind in ROUND_TOTAL_KINDS else None
        match.apply(action)  # the player to act: checked by the caller (_turn)
        record = deal.actions[-1]
        log, seen = deal.operations, self._seen
        operations = (record,) if len(log) == seen + 1 else tuple(log[seen:])
        self._seen = len(log)
        amount = record.action.amount
        added = None if amount is None or bet_before is None else amount - bet_before
        events = [ActionTaken(player, seat, record, operations, default, refused, added)]
        if default is not None:
            events.append(Defaulted(player, default))
        if self.audiences:
            events.extend(observed(deal, operations))
        if deal.result is None and (deal.actor is None or len(deal.legal_actions()) != 1):
            return events  # nothing follows at once (the common case, read without a call)
        events.extend(self._after_play(match, deal, seats_before))
        return events

    def _after_play(self, match: Match, deal: Deal, seats_before: list[Seat]) -> list[TableEvent]:
        """After a step of ``deal``: its end (and the changes between deals), else the action
        the rules force next (:meth:`_forced`)."""
        if deal.result is not None:
            events: list[TableEvent] = [DealFinished(match.completed[-1])]
            events.extend(self._seats.between({s.player_id: s for s in seats_before}))
            return events
        return self._forced()

    def _forced(self) -> list[TableEvent]:
        """The action of the player to act when the rules leave them no choice
        (:func:`forced_action`), played at once; none when they have a choice."""
        match = self._seats.match
        assert match is not None
        deal = match.deal
        if match.phase is not _IN_DEAL or deal is None or deal.actor is None:
            return []
        legal = deal.legal_actions()
        action = forced_action(legal) if len(legal) == 1 else None
        if action is None:
            return []
        seat = deal.actor
        return self._play(deal.start.player_ids[seat], deal.names[seat], action)

    def _observed(self, deal: Deal, operations: tuple[Operation, ...]) -> list[TableEvent]:
        """``operations`` for each audience (none at a table nobody watches)."""
        return list(observed(deal, operations)) if self.audiences else []

    def _after_start(self, completed_before: int, seated: dict[int, Seat]) -> list[TableEvent]:
        """The events of a deal start (after the 5.5 answers): a question, the deal, or none."""
        match = self._seats.match
        assert match is not None
        if match.phase is MatchPhase.MAKE_UP:
            actor, amount = match.actor, match.make_up_due
            assert actor is not None and amount is not None
            return [MakeUpAsked(self._id_of(actor), amount)]
        if match.phase is not MatchPhase.IN_DEAL:
            events: list[TableEvent] = [NoDeal(match.carried)]
            return events + self._seats.between(seated)
        deal = match.deal
        assert deal is not None
        operations = tuple(deal.operations)
        self._seen = len(operations)
        start = deal.start
        return [
            DealStarted(completed_before + 1, start, operations),
            DealAnnounced(
                completed_before + 1,
                start.player_ids,
                start.stacks,
                start.dealer,
                start.carried,
                deal.requirement.min_pair,
            ),
            *self._observed(deal, operations),
        ]


def _start(match: Match, command: StartDeal) -> None:
    """Every deal of a table begins here."""
    match.start_deal(command.source, deck=command.deck, seed=command.seed)


__all__ = ["MalformedCommandError", "TableMachine"]
