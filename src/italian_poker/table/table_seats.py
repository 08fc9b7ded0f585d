"""The seats of a table machine: who sits in which numbered seat, with how many chips, the
changes that wait for the end of a deal, who left, and the match once two players sit down."""

from __future__ import annotations

from collections.abc import Sequence

from italian_poker.engine.errors import SeatError
from italian_poker.engine.match import Match, MatchPhase, Seat
from italian_poker.engine.rules import Rules
from italian_poker.table.commands import (
    Leave,
    SeatingCommand,
    SetChips,
    SitIn,
    SitOut,
    TakeSeat,
)
from italian_poker.table.machine_events import (
    ChangeDropped,
    ChipsChanged,
    SatIn,
    SatOut,
    SeatLeft,
    SeatTaken,
    TableEvent,
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


class TableSeats:
    """The seats of a table under ``rules``: before the match (fewer than two players), the
    ``lobby``; then the ``match``'s seats, each with its seat number (``numbers``). The
    ``waiting`` changes take effect once the deal under way is over; ``departed`` lists who
    left and ``brought`` counts every chip brought to the table. ``dealer`` names the first
    dealer (default: the first seat) and ``seed`` the match's shuffles."""

    def __init__(
        self, rules: Rules, seats: Sequence[TakeSeat], dealer: int | None, seed: int | None
    ) -> None:
        self.rules = rules
        self.seed = seed
        self._dealer = dealer
        self.match: Match | None = None
        self.lobby: dict[int, Planned] = {}
        self.numbers: dict[int, int] = {}
        self.waiting: list[SeatingCommand] = []
        self.departed: list[Departure] = []
        self.brought = 0
        self.bought: dict[int, int] = {}
        """The chips each player brought, in the order they first came."""
        self.busted_seats: dict[int, int] = {}
        """The seat number each player who busted had (a rebuy brings them back to it)."""
        for command in seats:
            check_seating(command, self.lobby, rules.players)  # nothing waits yet: the plan
            insert(self.lobby, command.player, planned_seat(command, self.lobby))
            self._bring(command.player, command.chips)
        if dealer is not None and dealer not in self.lobby:
            raise UnknownPlayerError(f"the dealer {dealer!r} does not take a seat")
        self.open_match()

    def records(self) -> dict[int, Seat]:
        """The match's seats by player id, in table order (each record outlives its seat)."""
        match = self.match
        return {} if match is None else {s.player_id: s for s in match.seats}

    def states(self, plan: dict[int, Planned] | None = None) -> tuple[SeatState, ...]:
        """The seats as they stand (``plan``: as planned), in table order."""
        match = self.match
        if plan is None and match is not None:
            dealt = set(match.deal_seats) if match.phase is MatchPhase.IN_DEAL else set()
            return tuple(
                SeatState(
                    self.numbers[s.player_id],
                    s.player_id,
                    s.name,
                    s.stack,
                    s.sitting_out,
                    s.name in dealt,
                )
                for s in match.seats
            )
        return tuple(
            SeatState(p.seat, player, p.name, p.chips, p.sitting_out, False)
            for player, p in (self.lobby if plan is None else plan).items()
        )

    def current(self) -> dict[int, Planned]:
        """The seats as they stand, by player id."""
        match = self.match
        if match is None:
            return {
                p: Planned(s.seat, s.name, s.chips, s.sitting_out) for p, s in self.lobby.items()
            }
        numbers = self.numbers
        return {
            s.player_id: Planned(numbers[s.player_id], s.name, s.stack, s.sitting_out)
            for s in match.seats
        }

    def plan(self) -> dict[int, Planned]:
        """The seats as they will be once the waiting changes are made."""
        plan = self.current()
        for command in self.waiting:
            apply_to_plan(plan, command)
        return plan

    def check(self, command: SeatingCommand) -> None:
        """Refuse a seating change that the seats, once the waiting changes are made, do not
        allow."""
        check_seating(command, self.plan(), self.rules.players)

    def change(self, command: SeatingCommand) -> list[TableEvent]:
        """Make a (checked) seating change between deals."""
        match = self.match
        player = command.player
        if isinstance(command, TakeSeat):
            self._bring(player, command.chips)
            planned = planned_seat(command, self.current())
            if match is None:
                insert(self.lobby, player, planned)
                self.open_match()
            else:
                self.join(match, player, command.name, command.chips, planned.seat)
            return [SeatTaken(player, command.name, command.chips)]
        name = seat_in(player, self.current()).name
        if isinstance(command, Leave):
            if match is None:
                chips = self.lobby.pop(player).chips
            else:
                chips = match.leave(name)
                del self.numbers[player]
                self._button_to_first_seat(match)
            self.departed.append(Departure(player, name, chips, False))
            return [SeatLeft(player, name, chips)]
        if isinstance(command, SitOut | SitIn):
            out = isinstance(command, SitOut)
            if match is None:
                self.lobby[player].sitting_out = out
            elif out:
                match.sit_out(name)
            else:
                match.sit_in(name)
            return [SatOut(player) if out else SatIn(player)]
        before = self.current()[player].chips
        chips = command.chips if isinstance(command, SetChips) else before + command.chips
        if match is None:
            self.lobby[player].chips = chips
        else:
            match.set_stack(name, chips)
        self._bring(player, chips - before)
        return [ChipsChanged(player, chips, chips - before)]

    def _bring(self, player: int, chips: int) -> None:
        """``player`` brings ``chips`` to the table (fewer than none: a host takes some)."""
        self.brought += chips
        self.bought[player] = self.bought.get(player, 0) + chips

    def join(self, match: Match, player: int, name: str, chips: int, seat: int) -> None:
        """Seat ``player`` in the match, in seat number ``seat``."""
        at = position(seat, [self.numbers[s.player_id] for s in match.seats])
        match.join(name, chips, player_id=player, position=at)
        self.numbers[player] = seat
        self._button_to_first_seat(match)

    def _button_to_first_seat(self, match: Match) -> None:
        """Until the first deal, the button is on the first seat in table order (unless a
        ``dealer`` was named)."""
        if self._dealer is None and match.deal is None and not match.completed and match.seats:
            match.dealer_name = match.seats[0].name

    def bust_short(self) -> list[TableEvent]:
        """Between deals, under new rules: the players with fewer chips than it now takes to
        be dealt in are out, as busted players are (a sit and go's rising ante)."""
        match = self.match
        assert match is not None
        limit = self.rules.chips_to_be_dealt_in
        events: list[TableEvent] = []
        for seat in [s for s in match.seats if s.stack < limit]:
            chips = match.leave(seat.name)
            self.busted_seats[seat.player_id] = self.numbers.pop(seat.player_id)
            self.departed.append(Departure(seat.player_id, seat.name, chips, True))
            events.append(SeatLeft(seat.player_id, seat.name, chips, busted=True))
        return events

    def leave_before_seated(self, player: int) -> list[TableEvent]:
        """A player who sat down during the deal under way leaves at once: their waiting
        changes are dropped and they take the chips they brought."""
        plan = self.plan()
        seat = seat_in(player, plan)
        self.waiting = [c for c in self.waiting if c.player != player]
        self._bring(player, seat.chips)
        self.departed.append(Departure(player, seat.name, seat.chips, False))
        return [SeatLeft(player, seat.name, seat.chips)]

    def open_match(self) -> None:
        """Begin the match once two players have sat down."""
        if self.match is not None or len(self.lobby) < 2:
            return
        players = list(self.lobby)
        dealer = players.index(self._dealer) if self._dealer in self.lobby else 0
        seats = [(p.name, p.chips, player) for player, p in self.lobby.items()]
        match = Match(self.rules, seats, dealer=dealer, seed=self.seed)
        for p in self.lobby.values():
            if p.sitting_out:
                match.sit_out(p.name)
        self.numbers = {player: p.seat for player, p in self.lobby.items()}
        self.match = match
        self.lobby = {}

    def between(self, seated: dict[int, Seat]) -> list[TableEvent]:
        """Once a deal is over: the players who busted leave, but for those whose chips
        change while they wait (a rebuy), who keep their seat; then the waiting changes are
        made in order (those that no longer apply are dropped)."""
        match = self.match
        assert match is not None
        events: list[TableEvent] = []
        now = {s.player_id for s in match.seats}
        gone = [player for player in seated if player not in now]
        if gone:
            taken = dict(match.departed[-len(gone) :])
            kept = rebuying(self.waiting)
            for player in gone:
                name = seated[player].name
                number = self.numbers.pop(player)
                if player in kept:
                    # The seat is kept: back in its place, with the chips it had.
                    chips = taken[name]
                    self.join(match, player, name, max(chips, 1), number)
                    match.set_stack(name, chips)  # a seat is joined with a chip at least
                    if seated[player].sitting_out:
                        match.sit_out(name)
                    continue
                self.busted_seats[player] = number
                departure = Departure(player, name, taken[name], True)
                self.departed.append(departure)
                events.append(SeatLeft(player, name, departure.chips, busted=True))
        waiting, self.waiting = self.waiting, []
        for command in waiting:
            try:
                self.check(command)
            except SeatError as error:
                events.append(ChangeDropped(command, str(error)))
                continue
            events.extend(self.change(command))
        return events
