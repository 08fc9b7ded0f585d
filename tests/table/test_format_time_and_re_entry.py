"""Time limits and re-entries played by the table machine (table/format_play.py): the time
comes in with each deal start (``StartDeal.now``), so a replay of the commands is exact; a
fixed match in minutes plays the deal under way to its end and starts none after its time;
a level of minutes rises at the first deal that starts once its minutes are over (000 Art.
1: the antes are agreed before play, here level by level); a busted player of a sit and go
asks to re-enter with the starting chips and re-enters when the host approves, while the
window is open, and is out after it."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from italian_poker.engine.errors import MalformedActionError
from italian_poker.engine.match import MatchPhase
from italian_poker.engine.rules import Rules, preset
from italian_poker.table.chip_requests import (
    ChipCaps,
    NotBustedError,
    PastLevelError,
    ReEntryChipsError,
    TooManyRequestsError,
)
from italian_poker.table.commands import (
    AnswerChips,
    AskChips,
    BotAct,
    ReEnter,
    SetChipCaps,
    StartDeal,
    TakeSeat,
)
from italian_poker.table.defaults import default_action
from italian_poker.table.formats import (
    ClockNeededError,
    FormatError,
    Level,
    MatchFinishedError,
    MatchFormat,
    ReEntryClosedError,
    Schedule,
    parse_schedule,
)
from italian_poker.table.machine import TableMachine
from italian_poker.table.machine_events import (
    ChipsAsked,
    DealStarted,
    LevelChanged,
    MatchFinished,
    ReEntered,
    SeatLeft,
    SeatTaken,
    TableEvent,
)


def seats(players: int, chips: int) -> list[TakeSeat]:
    return [TakeSeat(i, f"P{i}", chips) for i in range(players)]


def play_out(machine: TableMachine, rng: random.Random | None = None) -> list[TableEvent]:
    """Play the deal under way to its end: the default action, or now and then a random one."""
    events: list[TableEvent] = []
    while machine.to_act is not None:
        legal = machine.legal_actions()
        action = default_action(legal)
        if rng is not None and rng.random() < 0.6:
            action = default_action([rng.choice(legal)])
        events += machine.handle(BotAct(machine.to_act, action))
    return events


def deal(
    machine: TableMachine, now: float | None = None, rng: random.Random | None = None
) -> list[TableEvent]:
    events = machine.handle(StartDeal(now=now))
    return events + play_out(machine, rng)


def snapshot(machine: TableMachine) -> object:
    return (machine.seats, machine.waiting, machine.level, machine.standings, machine.completed)


# --- formats in minutes ------------------------------------------------------------------------


def test_minutes_are_written_and_validated() -> None:
    schedule = parse_schedule("1x5m, 2/2/20x3, 4x10m")
    assert [(lv.ante, lv.deals, lv.minutes) for lv in schedule.levels] == [
        (1, 0, 5),
        (2, 3, 0),
        (4, 0, 10),
    ]
    assert schedule.timed and not parse_schedule("1x3").timed
    with pytest.raises(FormatError, match="at least one minute"):
        parse_schedule("1x0m")
    with pytest.raises(FormatError, match="not both"):
        Level(1, 1, 10, 3, 5)
    with pytest.raises(FormatError, match="deals or of minutes, not both"):
        MatchFormat.fixed(10, minutes=30)
    with pytest.raises(FormatError, match="at least one minute"):
        MatchFormat.fixed(minutes=0)
    fmt = MatchFormat.fixed(minutes=30, schedule=schedule)
    assert fmt.timed and MatchFormat.from_dict(fmt.to_dict()) == fmt


def test_a_timed_match_needs_the_time_of_each_deal_start_and_it_runs_forward() -> None:
    machine = TableMachine(
        Rules(), seats(2, 50), seed=1, match_format=MatchFormat.fixed(minutes=10)
    )
    before = snapshot(machine)
    with pytest.raises(ClockNeededError, match="timed in minutes"):
        machine.handle(StartDeal())
    assert snapshot(machine) == before
    deal(machine, now=100.0)
    before = snapshot(machine)
    with pytest.raises(ClockNeededError, match="time runs forward"):
        machine.handle(StartDeal(now=99.0))
    assert not machine.can(StartDeal(now=99.0))
    assert snapshot(machine) == before


def test_a_fixed_match_in_minutes_plays_the_deal_under_way_then_starts_no_more() -> None:
    machine = TableMachine(
        Rules(), seats(3, 50), seed=3, match_format=MatchFormat.fixed(minutes=10)
    )
    rng = random.Random(3)
    deal(machine, now=1000.0, rng=rng)
    events = machine.handle(StartDeal(now=1599.0))  # within the ten minutes: dealt
    assert any(isinstance(e, DealStarted) for e in events)
    # The time runs out during the deal: it is played to its end.
    play_out(machine, rng)
    assert not machine.finished and len(machine.completed) == 2
    now = 1600.0
    while machine.match is not None and machine.match.carried:  # played for first
        deal(machine, now=now, rng=rng)
        now += 1
    played = len(machine.completed)
    events = machine.handle(StartDeal(now=now))
    assert [type(e) for e in events] == [MatchFinished]
    assert machine.finished and len(machine.completed) == played
    assert events[0].standings == machine.standings
    assert sum(s.chips for s in machine.standings) == 150
    with pytest.raises(MatchFinishedError):
        machine.handle(StartDeal(now=now + 100))


def test_a_level_of_minutes_rises_at_the_first_deal_that_starts_after_them() -> None:
    schedule = parse_schedule("1x5m,3x2,5x5m")
    machine = TableMachine(
        Rules(), seats(3, 400), seed=4, match_format=MatchFormat.fixed(50, schedule)
    )
    status = machine.level
    assert status is not None and status.at_time is None and status.at_deal is None
    deal(machine, now=0.0)
    status = machine.level
    assert status is not None and (status.number, status.at_time) == (1, 300.0)
    assert not any(isinstance(e, LevelChanged) for e in deal(machine, now=299.0))
    events = machine.handle(StartDeal(now=300.0))
    assert isinstance(events[0], LevelChanged) and events[0].status.number == 2
    started = next(e for e in events if isinstance(e, DealStarted))
    assert started.start.rules.ante == 3
    status = machine.level
    # A level of deals that begins with the third deal lasts two: the fifth is the next's.
    assert status is not None and (status.at_deal, status.at_time) == (5, None)
    play_out(machine)
    events = deal(machine, now=301.0)  # the fourth deal ends the level of two deals
    assert any(isinstance(e, LevelChanged) and e.status.number == 3 for e in events)
    status = machine.level
    assert status is not None and status.following is None and status.at_time is None
    events = deal(machine, now=10_000.0)
    assert next(e for e in events if isinstance(e, DealStarted)).start.rules.ante == 5


# --- re-entry ---------------------------------------------------------------------------------


def bust_someone(machine: TableMachine, rng: random.Random) -> SeatLeft:
    for _ in range(300):
        events = deal(machine, rng=rng)
        out = [e for e in events if isinstance(e, SeatLeft) and e.busted]
        if out:
            return out[0]
    raise AssertionError("nobody busted")


def re_enter(machine: TableMachine, player: int, chips: int = 12) -> list[TableEvent]:
    """The busted ``player`` asks to re-enter and the host approves: the approval's events."""
    (asked,) = machine.handle(AskChips(player, chips))
    assert isinstance(asked, ChipsAsked) and asked.request.kind == "re_entry"
    return machine.handle(AnswerChips(asked.request.number, True))[1:]


def test_a_busted_player_re_enters_with_the_starting_chips_while_the_window_is_open() -> None:
    fmt = MatchFormat(
        "sit-and-go", schedule=parse_schedule("1x50"), starting_chips=12, re_entry_deals=200
    )
    machine = TableMachine(preset("standard", players=4), seats(4, 12), seed=5, match_format=fmt)
    left = bust_someone(machine, random.Random(5))
    brought = machine.chips_brought
    events = re_enter(machine, left.player)
    assert isinstance(events[0], ReEntered) and (events[0].chips, events[0].count) == (12, 1)
    assert any(isinstance(e, SeatTaken) and e.player == left.player for e in events)
    assert next(s.chips for s in machine.seats if s.player == left.player) == 12
    assert machine.chips_brought == brought + 12
    standing = next(s for s in machine.standings if s.player == left.player)
    assert (standing.re_entries, standing.bought, standing.out) == (1, 24, False)
    # Seated again: no second request until they bust again.
    with pytest.raises(NotBustedError, match="only a busted player asks"):
        machine.handle(AskChips(left.player, 12))


def test_a_re_entry_is_asked_for_exactly_the_starting_chips_and_the_caps_bound_it() -> None:
    fmt = MatchFormat(
        "sit-and-go", schedule=parse_schedule("1x50"), starting_chips=12, re_entry_deals=200
    )
    machine = TableMachine(preset("standard", players=4), seats(4, 12), seed=2, match_format=fmt)
    machine.handle(SetChipCaps(ChipCaps(times=1)))
    left = bust_someone(machine, random.Random(2))
    before = snapshot(machine)
    with pytest.raises(ReEntryChipsError, match="ask for 12 chips, not 20"):
        machine.handle(AskChips(left.player, 20))
    seated = next(s.player for s in machine.seats)
    with pytest.raises(NotBustedError, match="only a busted player asks"):
        machine.handle(AskChips(seated, 12))
    assert snapshot(machine) == before and not machine.chip_desk.pending
    re_enter(machine, left.player)
    rng = random.Random(3)
    while left.player in {s.player for s in machine.seats}:
        deal(machine, rng=rng)
    assert machine.re_entry_open
    with pytest.raises(TooManyRequestsError):
        machine.handle(AskChips(left.player, 12))


def test_a_re_entry_is_refused_from_the_level_the_host_names() -> None:
    fmt = MatchFormat(
        "sit-and-go", schedule=parse_schedule("1x1,2x50"), starting_chips=12, re_entry_levels=2
    )
    machine = TableMachine(preset("standard", players=5), seats(5, 12), seed=0, match_format=fmt)
    machine.handle(SetChipCaps(ChipCaps(until_level=2)))
    left = bust_someone(machine, random.Random(0))
    assert machine.level is not None and machine.level.number == 2 and machine.re_entry_open
    with pytest.raises(PastLevelError, match="level 2"):
        machine.handle(AskChips(left.player, 12))


def test_a_re_entry_is_never_handed_to_the_machine_directly() -> None:
    fmt = MatchFormat(
        "sit-and-go", schedule=parse_schedule("1x50"), starting_chips=12, re_entry_deals=200
    )
    machine = TableMachine(preset("standard", players=4), seats(4, 12), seed=5, match_format=fmt)
    left = bust_someone(machine, random.Random(5))
    before = snapshot(machine)
    with pytest.raises(MalformedActionError, match="asks to re-enter"):
        machine.handle(ReEnter(left.player, left.name))
    assert not machine.can(ReEnter(left.player, left.name))
    assert snapshot(machine) == before


def test_a_re_entry_during_a_deal_takes_the_seat_once_it_is_over() -> None:
    fmt = MatchFormat(
        "sit-and-go", schedule=parse_schedule("1x50"), starting_chips=12, re_entry_levels=1
    )
    machine = TableMachine(preset("standard", players=4), seats(4, 12), seed=6, match_format=fmt)
    left = bust_someone(machine, random.Random(6))
    if machine.finished:
        pytest.skip("the match ended with the bust")
    machine.handle(StartDeal())
    events = re_enter(machine, left.player)
    assert isinstance(events[0], ReEntered) and not any(isinstance(e, SeatTaken) for e in events)
    events = play_out(machine)
    assert any(isinstance(e, SeatTaken) and e.player == left.player for e in events)


@pytest.mark.parametrize(
    ("fmt", "message"),
    [
        (MatchFormat.sit_and_go(12, parse_schedule("1x50")), "no re-entry"),
        (
            MatchFormat(
                "sit-and-go", schedule=parse_schedule("1x50"), starting_chips=12, re_entry_deals=1
            ),
            "open for the first 1 deals",
        ),
        (
            MatchFormat(
                "sit-and-go",
                schedule=parse_schedule("1x1,1x50"),
                starting_chips=12,
                re_entry_levels=1,
            ),
            "open until level 1",
        ),
    ],
)
def test_a_re_entry_after_the_window_or_without_one_is_refused(
    fmt: MatchFormat, message: str
) -> None:
    machine = TableMachine(preset("standard", players=4), seats(4, 12), seed=7, match_format=fmt)
    left = bust_someone(machine, random.Random(7))
    if len(machine.completed) < 2:
        deal(machine)  # the windows above close after the first deal
    before = snapshot(machine)
    with pytest.raises(ReEntryClosedError, match=message):
        machine.handle(AskChips(left.player, 12))
    assert not machine.can(AskChips(left.player, 12))
    assert snapshot(machine) == before


def test_a_cash_game_or_a_fixed_match_has_no_re_entry_and_no_window() -> None:
    machine = TableMachine(Rules(), seats(2, 50))
    with pytest.raises(MalformedActionError):
        machine.handle(ReEnter(0, "P0"))
    with pytest.raises(FormatError, match="only a sit and go has re-entries"):
        MatchFormat("fixed", deals=5, re_entry_deals=3)
    with pytest.raises(FormatError, match="not both"):
        MatchFormat(
            "sit-and-go",
            schedule=parse_schedule("1x5"),
            starting_chips=9,
            re_entry_deals=3,
            re_entry_levels=1,
        )


# --- random sessions ----------------------------------------------------------------------------


@settings(max_examples=12, deadline=None)
@given(
    levels=st.lists(
        st.tuples(st.integers(1, 4), st.integers(1, 3), st.booleans()), min_size=2, max_size=4
    ),
    players=st.integers(3, 5),
    seed=st.integers(0, 10_000),
    window=st.integers(1, 30),
    gaps=st.lists(st.floats(0, 200), min_size=40, max_size=40),
)
def test_sessions_with_re_entries_and_level_changes_conserve_chips_and_play_each_level(
    levels: list[tuple[int, int, bool]],
    players: int,
    seed: int,
    window: int,
    gaps: list[float],
) -> None:
    schedule = Schedule(
        "random",
        tuple(
            Level(a, a, 5 * a, 0, n) if timed else Level(a, a, 5 * a, n) for a, n, timed in levels
        ),
    )
    fmt = MatchFormat("sit-and-go", schedule=schedule, starting_chips=15, re_entry_deals=window)
    machine = TableMachine(
        preset("standard", players=players), seats(players, 15), seed=seed, match_format=fmt
    )
    rng = random.Random(seed)
    now = 0.0
    level = 0
    level_deals = 0
    level_began: float | None = None
    out: set[tuple[int, str]] = set()
    re_entries = 0
    for gap in gaps:
        if machine.finished or machine.phase is MatchPhase.OVER:
            break
        for player, name in sorted(out):
            if machine.can(AskChips(player, 15)):
                re_enter(machine, player, 15)
                out.discard((player, name))
                re_entries += 1
        now += gap
        events = machine.handle(StartDeal(now=now))
        events += play_out(machine, rng)
        for event in events:
            if isinstance(event, LevelChanged):
                current = schedule.levels[level]
                if current.timed:
                    assert level_began is not None and now - level_began >= 60 * current.minutes
                else:
                    assert level_deals == current.deals
                level += 1
                assert event.status.number == level + 1
                level_deals, level_began = 0, None
            elif isinstance(event, DealStarted):
                assert event.start.rules.ante == schedule.levels[level].ante
                level_deals += 1
                if level_began is None:
                    level_began = now
            elif isinstance(event, SeatLeft) and event.busted:
                out.add((event.player, event.name))
        departed = sum(d.chips for d in machine.departed)
        assert machine.chips_at_table + departed == machine.chips_brought
        assert machine.chips_brought == 15 * (players + re_entries)
    assert sum(s.re_entries for s in machine.standings) == re_entries
    assert sum(s.bought for s in machine.standings) == 15 * (players + re_entries)


def test_a_pot_carried_when_the_minutes_run_out_is_played_for_before_the_match_ends() -> None:
    machine = TableMachine(
        Rules(), seats(3, 400), seed=8, match_format=MatchFormat.fixed(minutes=1)
    )
    machine.handle(StartDeal(now=0.0))
    play_out(machine)  # the default action passes and checks: everyone passes (3.5)
    assert machine.match is not None and machine.match.carried > 0
    events = machine.handle(StartDeal(now=120.0))  # time is up, but a pot is carried
    assert not machine.finished and any(isinstance(e, DealStarted) for e in events)
    rng, now = random.Random(8), 120.0
    play_out(machine, rng)
    while machine.match.carried:
        now += 10
        deal(machine, now=now, rng=rng)
    events = machine.handle(StartDeal(now=now + 10))
    assert [type(e) for e in events] == [MatchFinished] and machine.finished
    assert sum(s.net for s in machine.standings) == 0
