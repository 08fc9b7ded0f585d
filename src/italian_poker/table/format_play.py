"""A table machine's match format as it is played: the schedule's level in force, who went
out and when, who re-entered, the standings, and the end of the match
(:mod:`italian_poker.table.formats`).

Time comes in as data: each :class:`StartDeal` of a match timed in minutes carries ``now``,
and a level of minutes, or the length of a fixed match in minutes, is over at the first deal
that starts at or after its end. The deal under way when the time runs out is played to its
end, and a pot it carries to the next deal is played for first; a level rises, or the match
ends, only between deals."""

from __future__ import annotations

from italian_poker.engine.match import Match, MatchPhase
from italian_poker.engine.rules import Rules
from italian_poker.table.commands import (
    AddChips,
    Command,
    ReEnter,
    SetChips,
    StartDeal,
    TakeSeat,
)
from italian_poker.table.formats import (
    CASH,
    ClockNeededError,
    FormatKind,
    FormatSeatError,
    LevelStatus,
    MatchFinishedError,
    MatchFormat,
    ReEntryClosedError,
    Standing,
)
from italian_poker.table.machine_events import (
    ChipsChanged,
    LevelChanged,
    MatchFinished,
    ReEntered,
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
        self._level_deal = 0
        """The deals completed when the level in force began."""
        self._level_at: float | None = None
        """The time the level in force began (a level of minutes, from its first deal)."""
        self._began_at: float | None = None
        """The time the first deal started (a timed match)."""
        self._last_now: float | None = None
        self._busted: set[int] = set()
        """The players out of the match for want of chips (who may re-enter)."""
        self._re_entries: dict[int, int] = {}
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
        level = schedule.levels[index]
        following = index + 1 < len(schedule.levels)
        at_deal = at_time = None
        if following and level.timed:
            at_time = None if self._level_at is None else self._level_at + 60 * level.minutes
        elif following:
            at_deal = self._level_deal + level.deals + 1
        return LevelStatus(
            index + 1,
            len(schedule.levels),
            level,
            schedule.levels[index + 1] if following else None,
            at_deal,
            at_time,
        )

    @property
    def ends_at(self) -> float | None:
        """The time from which no deal starts, of a fixed match in minutes once its first
        deal has started; else None."""
        minutes = self.match_format.minutes
        if minutes is None or self._began_at is None:
            return None
        return self._began_at + 60 * minutes

    @property
    def re_entries(self) -> dict[int, int]:
        """How many times each player re-entered (those who did)."""
        return dict(self._re_entries)

    def re_entry_open(self) -> bool:
        """Whether a busted player may re-enter now: the window of a sit and go is open."""
        fmt = self.match_format
        if not fmt.re_entry or self._finished is not None:
            return False
        if fmt.re_entry_levels:
            return self._level + 1 <= fmt.re_entry_levels
        return self._completed() < fmt.re_entry_deals

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
                self._re_entries.get(player, 0),
            )
            for place, (player, name, chips, out) in enumerate(ranked, start=1)
        )

    def check(self, command: Command) -> None:
        """Refuse what the match format does not allow."""
        if isinstance(command, StartDeal):
            if self._finished is not None:
                raise MatchFinishedError("the match is over: see the standings")
            self._check_time(command.now)
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

    def _check_time(self, now: float | None) -> None:
        """A timed match's deal starts at a time, never before the last one's."""
        if now is None:
            if self.match_format.timed:
                raise ClockNeededError(
                    "this match is timed in minutes: each deal starts with the time (now)"
                )
            return
        if isinstance(now, bool) or not isinstance(now, int | float) or now != now:
            raise ClockNeededError(f"a deal's time is a number of seconds, not {now!r}")
        if self._last_now is not None and now < self._last_now:
            raise ClockNeededError(
                f"time runs forward: a deal cannot start at {now} after one at {self._last_now}"
            )

    def check_re_entry(self, command: ReEnter) -> None:
        """Only a player busted out of a sit and go re-enters, while the window is open."""
        fmt = self.match_format
        if self._finished is not None:
            raise MatchFinishedError("the match is over: see the standings")
        if not fmt.re_entry:
            raise ReEntryClosedError("this match has no re-entry: a busted player is out")
        if command.player not in self._busted:
            raise FormatSeatError(
                f"player {command.player!r} has not busted out: only a busted player re-enters"
            )
        if not self.re_entry_open():
            window = (
                f"until level {fmt.re_entry_levels}"
                if fmt.re_entry_levels
                else f"for the first {fmt.re_entry_deals} deals"
            )
            raise ReEntryClosedError(f"re-entry is closed: it was open {window}")

    def re_entry_seat(self, command: ReEnter) -> TakeSeat:
        """The seat a re-entry takes: the starting chips."""
        chips = self.match_format.starting_chips
        assert chips is not None
        return TakeSeat(command.player, command.name, chips, command.seat)

    def re_enter(self, command: ReEnter) -> tuple[TakeSeat, ReEntered]:
        """The seat a (checked) re-entry takes, and the event that reports it."""
        take = self.re_entry_seat(command)
        count = self._re_entries.get(command.player, 0) + 1
        self._re_entries[command.player] = count
        self._busted.discard(command.player)
        return take, ReEntered(command.player, command.name, take.chips, count)

    def before_deal(self, command: StartDeal) -> list[TableEvent]:
        """What the time of a (checked) deal start changes first: a level of minutes that is
        over rises, a fixed match whose minutes are over ends (then no deal starts)."""
        now = command.now
        match = self.seats.match
        if now is None or match is None:
            return []
        self._last_now = now
        if self._began_at is None:
            self._began_at = now
        events: list[TableEvent] = []
        schedule = self.match_format.schedule
        if schedule is not None:
            level = schedule.levels[self._level]
            if level.timed and self._level_at is None:
                self._level_at = now
            elif (
                level.timed
                and self._level_at is not None
                and now - self._level_at >= 60 * level.minutes
                and self._level + 1 < len(schedule.levels)
            ):
                events.extend(self._raise_level(match, now))
        ends_at = self.ends_at
        # A pot carried from the last deal (everyone passed, a parol) is played for first.
        over = ends_at is not None and bool(match.completed) and now >= ends_at
        over = over and not match.carried
        if self.match_format.kind is FormatKind.SIT_AND_GO and self._started():
            over = len(match.seats) < self.seats.rules.min_players
        if over:
            self._finished = self.standings
            events.append(MatchFinished(self._finished))
        return events

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
                if event.busted:
                    self._busted.add(event.player)
        match = self.seats.match
        if match is None or self._finished is not None:
            return events
        if len(match.completed) > completed:
            events.extend(self._next_level(match))
        fmt = self.match_format
        if fmt.kind is FormatKind.FIXED:
            over = fmt.deals is not None and len(match.completed) >= fmt.deals
        else:
            over = self._started() and len(match.seats) < self.seats.rules.min_players
        if over and match.phase not in _DEALING:
            self._finished = self.standings
            events.append(MatchFinished(self._finished))
        return events

    def _next_level(self, match: Match) -> list[TableEvent]:
        """Between deals: the next level in force once the level of deals is over, and
        reported."""
        schedule = self.match_format.schedule
        if schedule is None or match.phase in _DEALING:
            return []
        level = schedule.levels[self._level]
        if (
            level.timed
            or self._level + 1 >= len(schedule.levels)
            or len(match.completed) - self._level_deal < level.deals
        ):
            return []
        return self._raise_level(match, None)

    def _raise_level(self, match: Match, now: float | None) -> list[TableEvent]:
        """The next level in force from the next deal (``now``: the time it starts, if
        known), reported; in a sit and go, those short of the new ante are out."""
        schedule = self.match_format.schedule
        assert schedule is not None
        self._level += 1
        self._level_deal = len(match.completed)
        self._level_at = now
        rules = schedule.levels[self._level].rules(self.base_rules)
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
                self._busted.add(event.player)
            events.extend(busted)
        return events
