"""A table machine's match format as it is played: the schedule's level in force, who went
out and when, the standings, and the end of the match (:mod:`italian_poker.table.formats`)."""

from __future__ import annotations

from italian_poker.engine.match import Match, MatchPhase
from italian_poker.engine.rules import Rules
from italian_poker.table.commands import AddChips, Command, SetChips, StartDeal, TakeSeat
from italian_poker.table.formats import (
    CASH,
    FormatKind,
    FormatSeatError,
    LevelStatus,
    MatchFinishedError,
    MatchFormat,
    Standing,
)
from italian_poker.table.machine_events import (
    ChipsChanged,
    LevelChanged,
    MatchFinished,
    SeatLeft,
    SeatTaken,
    TableEvent,
)
from italian_poker.table.table_seats import TableSeats

_DEALING = (MatchPhase.IN_DEAL, MatchPhase.MAKE_UP)


class FormatPlay:
    """The ``match_format`` of a table whose seats are ``seats``, played from ``base_rules``
    (the rules the table was made with: a schedule changes their ante and bets)."""

    def __init__(self, match_format: MatchFormat, base_rules: Rules, seats: TableSeats) -> None:
        self.match_format = match_format
        self.base_rules = base_rules
        self.seats = seats
        self._level = 0
        self._finished: tuple[Standing, ...] | None = None
        self._bought: dict[int, int] = {}
        """The chips each player brought to the table (a format's standings)."""
        self._out: list[tuple[int, int, str, int]] = []
        """Who went out (busted or left): the deals completed then, id, name, chips."""

    @staticmethod
    def first_rules(match_format: MatchFormat, rules: Rules) -> Rules:
        """The rules of the first deal: every level of the schedule is checked now, not when
        it comes."""
        schedule = match_format.schedule
        if schedule is None:
            return rules
        for level in schedule.levels:
            level.rules(rules)
        return schedule.levels[0].rules(rules)

    @property
    def cash(self) -> bool:
        """Whether the table is a cash game (nothing to check, nothing to add)."""
        return self.match_format is CASH

    def seated(self, commands: tuple[TakeSeat, ...] | list[TakeSeat]) -> None:
        """The seats the table was made with."""
        for command in commands:
            if self.match_format.kind is FormatKind.SIT_AND_GO:
                self.check(command)
            self._bought[command.player] = command.chips

    def _completed(self) -> int:
        match = self.seats.match
        return 0 if match is None else len(match.completed)

    @property
    def finished(self) -> bool:
        """Whether the match format says the match is over (never, in a cash game)."""
        return self._finished is not None

    @property
    def level(self) -> LevelStatus | None:
        """The schedule's level in force (for the current or next deal), the following one
        and when it comes; None without a schedule."""
        schedule = self.match_format.schedule
        if schedule is None:
            return None
        index = self._level
        following = index + 1 < len(schedule.levels)
        return LevelStatus(
            index + 1,
            len(schedule.levels),
            schedule.levels[index],
            schedule.levels[index + 1] if following else None,
            schedule.first_deal(index + 1) if following else None,
        )

    @property
    def deals_left(self) -> int | None:
        """The deals still to play of a fixed-length match (None for the other formats)."""
        deals = self.match_format.deals
        return None if deals is None else max(deals - self._completed(), 0)

    @property
    def standings(self) -> tuple[Standing, ...]:
        """The final standings once :attr:`finished`, else as the stacks stand: a sit and go
        ranks the players still in by chips, then those out in the reverse of the order they
        went out (those out in the same deal: more chips first); the other formats rank
        everyone by chips won (chips less chips brought), then by chips. Ties keep table
        order."""
        if self._finished is not None:
            return self._finished
        seated = [(s.player, s.name, s.chips) for s in self.seats.states()]
        order = {player: k for k, (player, _, _) in enumerate(seated)}
        bought = self._bought
        if self.match_format.kind is FormatKind.SIT_AND_GO:
            in_play = sorted(seated, key=lambda p: -p[2])
            out = sorted(enumerate(self._out), key=lambda o: (-o[1][0], -o[1][3], o[0]))
            ranked = [(p, n, c, False) for p, n, c in in_play] + [
                (p, n, c, True) for _, (_, p, n, c) in out
            ]
        else:
            everyone = [(p, n, c, False) for p, n, c in seated] + [
                (p, n, c, True) for _, p, n, c in self._out if p not in order
            ]
            ranked = sorted(everyone, key=lambda p: (bought.get(p[0], 0) - p[2], -p[2]))
        prizes = self.match_format.prizes()
        return tuple(
            Standing(
                place,
                player,
                name,
                chips,
                bought.get(player, 0),
                out,
                prizes[place - 1] if place <= len(prizes) else 0,
            )
            for place, (player, name, chips, out) in enumerate(ranked, start=1)
        )

    def check(self, command: Command) -> None:
        """Refuse what the match format does not allow."""
        if isinstance(command, StartDeal) and self._finished is not None:
            raise MatchFinishedError("the match is over: see the standings")
        if self.match_format.kind is not FormatKind.SIT_AND_GO:
            return
        chips = self.match_format.starting_chips
        if isinstance(command, SetChips | AddChips):
            raise FormatSeatError("a sit and go has no rebuys: stacks change only in play")
        if isinstance(command, TakeSeat):
            if self._finished is not None or self._started():
                raise FormatSeatError("the sit and go has begun: no more players sit down")
            if command.chips != chips:
                raise FormatSeatError(
                    f"every player of this sit and go starts with {chips} chips, "
                    f"not {command.chips!r}"
                )

    def _started(self) -> bool:
        """Whether a deal has begun."""
        match = self.seats.match
        return match is not None and (match.deal is not None or bool(match.completed))

    def after(self, events: list[TableEvent], completed: int) -> list[TableEvent]:
        """What the match format adds to ``events``: a new level once a deal is over, the
        players that leaves without the ante out (a sit and go), and the end of the match."""
        for event in events:
            if isinstance(event, SeatTaken):
                self._bought[event.player] = self._bought.get(event.player, 0) + event.chips
                self._out = [o for o in self._out if o[1] != event.player]
            elif isinstance(event, ChipsChanged):
                self._bought[event.player] = self._bought.get(event.player, 0) + event.change
            elif isinstance(event, SeatLeft):
                self._out.append((self._completed(), event.player, event.name, event.chips))
        match = self.seats.match
        if match is None or self._finished is not None:
            return events
        if len(match.completed) > completed:
            events.extend(self._next_level(match))
        fmt = self.match_format
        if fmt.kind is FormatKind.FIXED:
            over = len(match.completed) >= (fmt.deals or 0)
        else:
            over = self._started() and len(match.seats) < self.seats.rules.min_players
        if over and match.phase not in _DEALING:
            self._finished = self.standings
            events.append(MatchFinished(self._finished))
        return events

    def _next_level(self, match: Match) -> list[TableEvent]:
        """Between deals: the level of the next deal in force, and reported if it is new."""
        schedule = self.match_format.schedule
        if schedule is None or match.phase in _DEALING:
            return []
        index = schedule.level_index(len(match.completed) + 1)
        if index == self._level:
            return []
        self._level = index
        rules = schedule.levels[index].rules(self.base_rules)
        self.seats.rules = rules
        match.set_rules(rules)
        status = self.level
        assert status is not None
        events: list[TableEvent] = [LevelChanged(status)]
        if self.match_format.kind is FormatKind.SIT_AND_GO:
            busted = self.seats.bust_short()
            for event in busted:
                assert isinstance(event, SeatLeft)
                self._out.append((len(match.completed), event.player, event.name, event.chips))
            events.extend(busted)
        return events
