"""The table machine: one table's seats, stacks and deals as one pure state machine.

Every front end drives a table by handing :class:`TableMachine` typed commands
(:mod:`italian_poker.table.commands`) and passing on the typed events it returns
(:mod:`italian_poker.table.machine_events`), each addressed to its audience. Players are
named by a stable id, never by name. The machine owns the seats, the stacks, sitting out,
who can be dealt in (``Rules.chips_to_be_dealt_in``), the changes that wait for the end of
a deal, and the deal itself, played through the engine's :class:`~italian_poker.engine.match.Match`.

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
from italian_poker.engine.deal import Deal, Operation
from italian_poker.engine.errors import (
    ActionNotAvailableError,
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
from italian_poker.table.commands import (
    Act,
    AddChips,
    AnswerMakeUp,
    BotAct,
    Command,
    Leave,
    SeatingCommand,
    SetChips,
    SitIn,
    SitOut,
    StartDeal,
    TakeSeat,
    TimeOut,
)
from italian_poker.table.defaults import DefaultReason, default_action, forced_action
from italian_poker.table.events import chips_added, round_bet_before
from italian_poker.table.machine_events import (
    ActionTaken,
    ChangeDropped,
    ChangeWaits,
    ChipsChanged,
    DealAnnounced,
    DealFinished,
    DealStarted,
    Defaulted,
    MakeUpAnswered,
    MakeUpAsked,
    NoDeal,
    SatIn,
    SatOut,
    SeatLeft,
    SeatTaken,
    TableEvent,
    observed,
)
from italian_poker.table.seating import (
    Departure,
    Planned,
    SeatState,
    UnknownPlayerError,
    apply_to_plan,
    check_seating,
    insert,
    planned_seat,
    position,
    rebuying,
    seat_in,
)


class MalformedCommandError(MalformedActionError):
    """Something handed to the table that is not one of its commands."""


_SEATING = (TakeSeat, Leave, SitOut, SitIn, SetChips, AddChips)
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
    """

    def __init__(
        self,
        rules: Rules,
        seats: Sequence[TakeSeat] = (),
        *,
        dealer: int | None = None,
        seed: int | None = None,
        audiences: bool = True,
    ) -> None:
        if not isinstance(rules, Rules):
            raise RulesError(f"a table is played under Rules, not {rules!r}")
        self.rules = rules
        self.seed = seed
        self.audiences = audiences
        self._dealer = dealer
        self._match: Match | None = None
        self._lobby: dict[int, Planned] = {}
        """The seats taken before the match has two players to begin with."""
        self._numbers: dict[int, int] = {}
        """The seat number of each player seated in the match."""
        self._waiting: list[SeatingCommand] = []
        self._departed: list[Departure] = []
        self._brought = 0
        self._seen = 0
        """Operations of the current deal already reported."""
        for command in seats:
            self._check_seating(command)
            insert(self._lobby, command.player, planned_seat(command, self._lobby))
            self._brought += command.chips
        if dealer is not None and dealer not in self._lobby:
            raise UnknownPlayerError(f"the dealer {dealer!r} does not take a seat")
        self._open_match()

    # --- reading --------------------------------------------------------------------------

    @property
    def match(self) -> Match | None:
        """The engine's match (None until two players have sat down); read it, never change
        it."""
        return self._match

    @property
    def phase(self) -> MatchPhase:
        """Where the table stands (``OVER`` while too few players can be dealt in)."""
        return MatchPhase.OVER if self._match is None else self._match.phase

    @property
    def seats(self) -> tuple[SeatState, ...]:
        """The seats as they stand, in table order."""
        match = self._match
        if match is None:
            return self._seat_states(self._lobby)
        dealt = set(match.deal_seats) if match.phase is MatchPhase.IN_DEAL else set()
        return tuple(
            SeatState(
                self._numbers[s.player_id],
                s.player_id,
                s.name,
                s.stack,
                s.sitting_out,
                s.name in dealt,
            )
            for s in match.seats
        )

    @property
    def seats_to_come(self) -> tuple[SeatState, ...]:
        """The seats as they will be once the :attr:`waiting` changes are made."""
        return self._seat_states(self._plan())

    @staticmethod
    def _seat_states(plan: dict[int, Planned]) -> tuple[SeatState, ...]:
        return tuple(
            SeatState(p.seat, player, p.name, p.chips, p.sitting_out, False)
            for player, p in plan.items()
        )

    @property
    def departed(self) -> tuple[Departure, ...]:
        """The players who left, with the chips they took, in the order they left."""
        return tuple(self._departed)

    @property
    def waiting(self) -> tuple[SeatingCommand, ...]:
        """The seating changes that take effect once the deal under way is over."""
        return tuple(self._waiting)

    @property
    def completed(self) -> tuple[CompletedDeal, ...]:
        """Every finished deal, in order."""
        return () if self._match is None else tuple(self._match.completed)

    def chips_to_play(self, player: int) -> int:
        """The chips ``player`` needs to be dealt in the next deal: the antes, and while a
        parol pot is carried what 5.5 asks of them (``Match.chips_to_play``)."""
        match = self._match
        if match is None:
            return self.rules.chips_to_be_dealt_in
        return match.chips_to_play(self.name_of(player))

    @property
    def chips_brought(self) -> int:
        """Every chip brought to the table: seats taken, chips set and added."""
        return self._brought

    @property
    def chips_at_table(self) -> int:
        """The chips in the stacks and the pot (carried chips included)."""
        match = self._match
        if match is None:
            return sum(p.chips for p in self._lobby.values())
        stacks = sum(s.stack for s in match.seats)
        if match.phase is MatchPhase.IN_DEAL and match.deal is not None:
            return stacks + match.deal.pot
        return stacks + match.carried

    @property
    def to_act(self) -> int | None:
        """The id of the player to act (a decision in the deal or a 5.5 question), or None."""
        match = self._match
        name = None if match is None else match.actor
        return None if name is None else self._id_of(name)

    @property
    def dealer(self) -> int | None:
        """The id of the player with the button (who deals next, between deals); None before
        two players have sat down."""
        match = self._match
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
        match = self._match
        if match is None or match.deal is None:
            return ()
        return match.deal.start.player_ids

    def legal_actions(self) -> tuple[LegalAction, ...]:
        """What the player to act may do."""
        return () if self._match is None else self._match.legal_actions()

    def view(self, player: int) -> SeatView:
        """What ``player`` may know of the current (or last) deal (a player asked the 5.5
        question sees it as their turn); :class:`SeatError` if they were not dealt in."""
        match = self._match
        deal = None if match is None else match.deal
        if match is None or deal is None or player not in deal.start.player_ids:
            raise SeatError(f"player {player!r} is not in the current deal")
        return match.view(deal.start.names[deal.start.player_ids.index(player)])

    def public_view(self) -> PublicView | None:
        """What a spectator sees of the current (or last) deal; None before the first."""
        deal = None if self._match is None else self._match.deal
        return None if deal is None else observe(deal, PUBLIC)

    def name_of(self, player: int) -> str:
        """The name ``player`` sits under."""
        return seat_in(player, self._current_plan()).name

    # --- checking -------------------------------------------------------------------------

    def verify(self, command: Command) -> None:
        """Raise what :meth:`handle` would raise for ``command``; nothing changes."""
        if isinstance(command, _SEATING):
            self._check_seating(command)
        elif isinstance(command, StartDeal):
            self._check_start(command)
        elif isinstance(command, Act):
            self._match_or_raise().verify(command.action, self._turn(command.player))
        elif isinstance(command, AnswerMakeUp):
            self._match_or_raise().verify(self._answer(command), self._turn(command.player))
        elif isinstance(command, TimeOut | BotAct):
            self._turn(command.player)
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
        if isinstance(command, Act):
            return self._play(command.player, self._turn(command.player), command.action)
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
        if isinstance(command, StartDeal):
            self._check_start(command, trial=False)
            match = self._match_or_raise()
            before = len(match.completed)
            self._start(match, command)
            return self._after_start(before, self._seat_records())
        if isinstance(command, _SEATING):
            self._check_seating(command)
            if self.phase in _DEALING:
                if isinstance(command, Leave) and command.player not in self._current_plan():
                    return self._leave_before_seated(command.player)
                self._waiting.append(command)
                return [ChangeWaits(command)]
            return self._seat(command)
        raise MalformedCommandError(f"not a table command: {command!r}")

    def _start(self, match: Match, command: StartDeal) -> None:
        """Every deal of this table begins here."""
        match.start_deal(command.source, deck=command.deck, seed=command.seed)

    # --- seating --------------------------------------------------------------------------

    def _current_plan(self) -> dict[int, Planned]:
        """The seats as they stand, by player id."""
        match = self._match
        if match is None:
            return {
                p: Planned(s.seat, s.name, s.chips, s.sitting_out) for p, s in self._lobby.items()
            }
        numbers = self._numbers
        return {
            s.player_id: Planned(numbers[s.player_id], s.name, s.stack, s.sitting_out)
            for s in match.seats
        }

    def _plan(self) -> dict[int, Planned]:
        """The seats as they will be once the waiting changes are made."""
        plan = self._current_plan()
        for command in self._waiting:
            apply_to_plan(plan, command)
        return plan

    def _check_seating(self, command: SeatingCommand) -> None:
        """Refuse a seating change that the seats, once the waiting changes are made, do not
        allow."""
        check_seating(command, self._plan(), self.rules.players)

    def _seat(self, command: SeatingCommand) -> list[TableEvent]:
        """Make a (checked) seating change between deals."""
        match = self._match
        player = command.player
        if isinstance(command, TakeSeat):
            self._brought += command.chips
            planned = planned_seat(command, self._current_plan())
            if match is None:
                insert(self._lobby, player, planned)
                self._open_match()
            else:
                self._join(match, player, command.name, command.chips, planned.seat)
            return [SeatTaken(player, command.name, command.chips)]
        name = self.name_of(player)
        if isinstance(command, Leave):
            if match is None:
                chips = self._lobby.pop(player).chips
            else:
                chips = match.leave(name)
                del self._numbers[player]
                self._button_to_first_seat(match)
            self._departed.append(Departure(player, name, chips, False))
            return [SeatLeft(player, name, chips)]
        if isinstance(command, SitOut | SitIn):
            out = isinstance(command, SitOut)
            if match is None:
                self._lobby[player].sitting_out = out
            elif out:
                match.sit_out(name)
            else:
                match.sit_in(name)
            return [SatOut(player) if out else SatIn(player)]
        before = self._current_plan()[player].chips
        chips = command.chips if isinstance(command, SetChips) else before + command.chips
        if match is None:
            self._lobby[player].chips = chips
        else:
            match.set_stack(name, chips)
        self._brought += chips - before
        return [ChipsChanged(player, chips, chips - before)]

    def _join(self, match: Match, player: int, name: str, chips: int, seat: int) -> None:
        """Seat ``player`` in the match, in seat number ``seat``."""
        at = position(seat, [self._numbers[s.player_id] for s in match.seats])
        match.join(name, chips, player_id=player, position=at)
        self._numbers[player] = seat
        self._button_to_first_seat(match)

    def _button_to_first_seat(self, match: Match) -> None:
        """Until the first deal, the button is on the first seat in table order (unless a
        ``dealer`` was named)."""
        if self._dealer is None and match.deal is None and not match.completed and match.seats:
            match.dealer_name = match.seats[0].name

    def _leave_before_seated(self, player: int) -> list[TableEvent]:
        """A player who sat down during the deal under way leaves at once: their waiting
        changes are dropped and they take the chips they brought."""
        plan = self._plan()
        seat = seat_in(player, plan)
        self._waiting = [c for c in self._waiting if c.player != player]
        self._brought += seat.chips
        self._departed.append(Departure(player, seat.name, seat.chips, False))
        return [SeatLeft(player, seat.name, seat.chips)]

    def _open_match(self) -> None:
        """Begin the match once two players have sat down."""
        if self._match is not None or len(self._lobby) < 2:
            return
        players = list(self._lobby)
        dealer = players.index(self._dealer) if self._dealer in self._lobby else 0
        seats = [(p.name, p.chips, player) for player, p in self._lobby.items()]
        match = Match(self.rules, seats, dealer=dealer, seed=self.seed)
        for p in self._lobby.values():
            if p.sitting_out:
                match.sit_out(p.name)
        self._numbers = {player: p.seat for player, p in self._lobby.items()}
        self._match = match
        self._lobby = {}

    # --- dealing --------------------------------------------------------------------------

    def _match_or_raise(self) -> Match:
        if self._match is None:
            raise SeatError(
                f"fewer than {self.rules.min_players} players can be dealt in: the table waits "
                "for players to sit down"
            )
        return self._match

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
            self._start(copy.deepcopy(match), command)

    def _turn(self, player: int) -> str:
        """The name of ``player``, who must be the one to act."""
        match = self._match
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
        match = self._match
        assert match is not None
        return match.seat(name).player_id

    def _seat_records(self) -> dict[int, Seat]:
        """The match's seats by player id, in table order (each record outlives its seat)."""
        match = self._match
        return {} if match is None else {s.player_id: s for s in match.seats}

    def _ids(self) -> dict[int, str]:
        """The seated players' names by id."""
        match = self._match
        return {} if match is None else {s.player_id: s.name for s in match.seats}

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
        match = self._match
        assert match is not None
        before = len(match.completed)
        seated = self._seat_records()
        if match.phase is MatchPhase.MAKE_UP:
            recorded = match.verify(action, name)
            match.apply(action, name)
            events: list[TableEvent] = [MakeUpAnswered(player, recorded, default, refused)]
            return events + self._after_start(before, seated)
        deal = match.deal
        assert deal is not None
        seat = match.deal_seats.index(name)
        bet_before = round_bet_before(deal, seat, action.kind)
        match.apply(action, name)
        record = deal.actions[-1]
        operations = tuple(deal.operations[self._seen :])
        self._seen = len(deal.operations)
        added = chips_added(record.action.amount, bet_before)
        events = [ActionTaken(player, seat, record, operations, default, refused, added)]
        if default is not None:
            events.append(Defaulted(player, default))
        events.extend(self._observed(deal, operations))
        if len(match.completed) > before:
            events.append(DealFinished(match.completed[-1]))
            events.extend(self._between(seated))
            return events
        return events + self._forced()

    def _forced(self) -> list[TableEvent]:
        """The action of the player to act when the rules leave them no choice
        (:func:`forced_action`), played at once; none when they have a choice."""
        match = self._match
        assert match is not None
        actor = match.actor
        if match.phase is not MatchPhase.IN_DEAL or actor is None:
            return []
        action = forced_action(match.legal_actions())
        if action is None:
            return []
        return self._play(self._id_of(actor), actor, action)

    def _observed(self, deal: Deal, operations: tuple[Operation, ...]) -> list[TableEvent]:
        """``operations`` for each audience (none at a table nobody watches)."""
        return list(observed(deal, operations)) if self.audiences else []

    def _after_start(self, completed_before: int, seated: dict[int, Seat]) -> list[TableEvent]:
        """The events of a deal start (after the 5.5 answers): a question, the deal, or none."""
        match = self._match
        assert match is not None
        if match.phase is MatchPhase.MAKE_UP:
            actor, amount = match.actor, match.make_up_due
            assert actor is not None and amount is not None
            return [MakeUpAsked(self._id_of(actor), amount)]
        if match.phase is not MatchPhase.IN_DEAL:
            events: list[TableEvent] = [NoDeal(match.carried)]
            return events + self._between(seated)
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

    def _between(self, seated: dict[int, Seat]) -> list[TableEvent]:
        """Once a deal is over: the players who busted leave, but for those whose chips
        change while they wait (a rebuy), who keep their seat; then the waiting changes are
        made in order (those that no longer apply are dropped)."""
        match = self._match
        assert match is not None
        events: list[TableEvent] = []
        now = self._ids()
        gone = [player for player in seated if player not in now]
        if gone:
            taken = dict(match.departed[-len(gone) :])
            kept = rebuying(self._waiting)
            for player in gone:
                name = seated[player].name
                number = self._numbers.pop(player)
                if player in kept:
                    # The seat is kept: back in its place, with the chips it had.
                    chips = taken[name]
                    self._join(match, player, name, max(chips, 1), number)
                    match.set_stack(name, chips)  # a seat is joined with a chip at least
                    if seated[player].sitting_out:
                        match.sit_out(name)
                    continue
                departure = Departure(player, name, taken[name], True)
                self._departed.append(departure)
                events.append(SeatLeft(player, name, departure.chips, busted=True))
        waiting, self._waiting = self._waiting, []
        for command in waiting:
            try:
                self._check_seating(command)
            except SeatError as error:
                events.append(ChangeDropped(command, str(error)))
                continue
            events.extend(self._seat(command))
        return events


__all__ = ["MalformedCommandError", "TableMachine"]
