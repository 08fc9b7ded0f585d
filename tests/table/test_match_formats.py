"""Match formats (table/formats.py) played by the table machine: the schedule's validation and
presets, the ante rising by the schedule between deals (000 Art. 1: antes and limits are
agreed before play, here level by level), chips conserved over random schedules, a sit and
go played to one winner with places and prizes, and a fixed-length match stopping after its
deals with the standings."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from italian_poker.engine.match import MatchPhase
from italian_poker.engine.rules import Rules, preset
from italian_poker.table.commands import AddChips, BotAct, SetChips, StartDeal, TakeSeat
from italian_poker.table.defaults import default_action
from italian_poker.table.formats import (
    CASH,
    SCHEDULES,
    FormatError,
    FormatKind,
    FormatSeatError,
    Level,
    MatchFinishedError,
    MatchFormat,
    Schedule,
    parse_schedule,
)
from italian_poker.table.machine import TableMachine
from italian_poker.table.machine_events import (
    DealFinished,
    LevelChanged,
    MatchFinished,
    SeatLeft,
    TableEvent,
)

STEEP = Schedule("steep", (Level(1, 1, 10, 2), Level(4, 4, 40, 2), Level(10, 10, 100, 1)))


def seats(players: int, chips: int) -> list[TakeSeat]:
    return [TakeSeat(i, f"P{i}", chips) for i in range(players)]


def play_deal(machine: TableMachine, rng: random.Random | None = None) -> list[TableEvent]:
    """Start a deal and play it out: the default action for everyone, or (``rng``) a random
    legal action now and then."""
    events = machine.handle(StartDeal())
    while machine.to_act is not None:
        legal = machine.legal_actions()
        action = default_action(legal)
        if rng is not None and rng.random() < 0.5:
            choice = rng.choice(legal)
            action = default_action([choice])
        events += machine.handle(BotAct(machine.to_act, action))
    return events


def departed_chips(machine: TableMachine) -> int:
    return sum(d.chips for d in machine.departed)


# --- validation ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Level(-1, 1, 10, 3), "ante cannot be negative"),
        (lambda: Level(1, 0, 10, 3), "bets run from 1 chip"),
        (lambda: Level(1, 5, 4, 3), "bets run from 1 chip"),
        (lambda: Level(1, 1, 10, 0), "at least one deal"),
        (lambda: Level(1, 1, 10, 2.5), "whole number"),
        (lambda: Schedule("empty", ()), "one level or more"),
        (lambda: MatchFormat(FormatKind.FIXED), "number of deals"),
        (lambda: MatchFormat.fixed(0), "at least one deal"),
        (lambda: MatchFormat(schedule=STEEP), "cash game keeps its antes"),
        (lambda: MatchFormat(FormatKind.SIT_AND_GO), "needs a schedule"),
        (lambda: MatchFormat.sit_and_go(0, STEEP), "starting chips are 1 or more"),
        (lambda: MatchFormat.sit_and_go(50, STEEP, prize_pool=100), "adding up to 100"),
        (lambda: MatchFormat.sit_and_go(50, STEEP, shares=(60, 30)), "adding up to 100"),
        (lambda: MatchFormat.fixed(5).__class__("league"), "a format is one of"),
        (lambda: parse_schedule("1x4,banana"), "ANTExDEALS"),
        (lambda: parse_schedule("1x4,2xfour"), "whole numbers"),
        (lambda: parse_schedule("1x4,2x0"), "at least one deal"),
    ],
)
def test_a_format_or_schedule_that_cannot_be_played_is_refused(make: object, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        make()  # type: ignore[operator]


def test_a_level_the_rules_refuse_is_refused_when_the_table_is_made() -> None:
    # A blind is a bet equal to the pot: it needs an ante (000 Art. 2).
    schedule = Schedule("free", (Level(1, 1, 10, 2), Level(0, 1, 10, 2)))
    with pytest.raises(FormatError, match="needs an ante"):
        TableMachine(Rules(), seats(3, 50), match_format=MatchFormat.fixed(5, schedule))


def test_schedules_are_presets_or_written_out() -> None:
    assert parse_schedule("turbo") is SCHEDULES["turbo"]
    custom = parse_schedule("1x4, 2x4, 3/5/20x2")
    assert custom.levels == (Level(1, 1, 10, 4), Level(2, 2, 20, 4), Level(3, 5, 20, 2))
    assert [custom.level_index(d) for d in (1, 4, 5, 8, 9, 10, 11, 50)] == [0, 0, 1, 1, 2, 2, 2, 2]
    assert [custom.first_deal(i) for i in range(3)] == [1, 5, 9]


def test_a_level_sets_the_ante_and_the_limits_of_each_betting_structure() -> None:
    level = Level(3, 3, 30, 5)
    spread = level.rules(Rules())
    assert (spread.ante, spread.min_bet, spread.max_bet) == (3, 3, 30)
    fixed = level.rules(Rules(structure="fixed-limit"))
    assert (fixed.ante, fixed.small_bet, fixed.big_bet) == (3, 3, 30)
    pot = level.rules(Rules(structure="pot-limit"))
    assert (pot.ante, pot.min_bet) == (3, 3)


def test_prizes_share_the_pool_with_the_odd_chips_to_first_place() -> None:
    fmt = MatchFormat.sit_and_go(50, STEEP, prize_pool=101, shares=(50, 30, 20))
    assert fmt.prizes() == (51, 30, 20)
    assert CASH.prizes() == ()


# --- the schedule in play ----------------------------------------------------------------------


def test_the_ante_rises_between_deals_at_the_schedules_deal_numbers() -> None:
    machine = TableMachine(Rules(), seats(3, 500), seed=3, match_format=MatchFormat.fixed(6, STEEP))
    status = machine.level
    assert status is not None and (status.number, status.of, status.at_deal) == (1, 3, 3)
    antes: list[int] = []
    changes: list[tuple[int, int]] = []
    for _ in range(6):
        events = play_deal(machine)
        antes.append(machine.completed[-1].start.rules.ante)
        changes += [
            (len(machine.completed), e.status.level.ante)
            for e in events
            if isinstance(e, LevelChanged)
        ]
    assert antes == [1, 1, 4, 4, 10, 10]
    assert changes == [(2, 4), (4, 10)]  # reported at the end of the deal before the level
    status = machine.level
    assert status is not None and status.following is None and status.at_deal is None
    assert machine.rules.max_bet == 100 and machine.base_rules == Rules()


@settings(max_examples=15, deadline=None)
@given(
    levels=st.lists(st.tuples(st.integers(1, 6), st.integers(1, 3)), min_size=1, max_size=4),
    players=st.integers(2, 5),
    seed=st.integers(0, 10_000),
    sit_and_go=st.booleans(),
)
def test_chips_are_conserved_and_each_deal_is_played_at_its_level(
    levels: list[tuple[int, int]], players: int, seed: int, sit_and_go: bool
) -> None:
    schedule = Schedule("random", tuple(Level(a, a, 5 * a, d) for a, d in levels))
    fmt = MatchFormat.sit_and_go(40, schedule) if sit_and_go else MatchFormat.fixed(12, schedule)
    rules = preset("standard", players=players)
    machine = TableMachine(rules, seats(players, 40), seed=seed, match_format=fmt)
    rng = random.Random(seed)
    for _ in range(12):
        if machine.finished or machine.phase is MatchPhase.OVER:
            break
        play_deal(machine, rng)
        assert machine.chips_at_table + departed_chips(machine) == machine.chips_brought
    for deal in machine.completed:
        expected = schedule.levels[schedule.level_index(deal.number)].ante
        assert deal.start.rules.ante == expected
    if machine.finished:
        with pytest.raises(MatchFinishedError):
            machine.handle(StartDeal())


# --- a sit and go ---------------------------------------------------------------------------


def test_a_sit_and_go_is_played_to_one_winner_with_places_and_prizes() -> None:
    fmt = MatchFormat.sit_and_go(20, STEEP, prize_pool=1000, shares=(60, 30, 10))
    machine = TableMachine(preset("standard", players=4), seats(4, 20), seed=7, match_format=fmt)
    rng = random.Random(7)
    finished: list[MatchFinished] = []
    busted: list[int] = []
    for _ in range(200):
        if machine.finished:
            break
        events = play_deal(machine, rng)
        busted += [e.player for e in events if isinstance(e, SeatLeft) and e.busted]
        finished += [e for e in events if isinstance(e, MatchFinished)]
    assert machine.finished and len(finished) == 1
    standings = finished[0].standings
    assert standings == machine.standings
    assert [s.place for s in standings] == [1, 2, 3, 4]
    assert [s.prize for s in standings] == [600, 300, 100, 0]
    winner = standings[0]
    assert not winner.out and [s.out for s in standings[1:]] == [True, True, True]
    assert [s.player for s in machine.seats] == [winner.player]
    assert sorted(s.player for s in standings[1:]) == sorted(busted)
    assert busted[-1] in {s.player for s in standings[1:2]} | {
        s.player for s in standings[1:] if s.chips == standings[1].chips
    }
    assert machine.chips_at_table + departed_chips(machine) == 80
    with pytest.raises(MatchFinishedError, match="the match is over"):
        machine.handle(StartDeal())
    assert not machine.can(StartDeal())


def test_a_sit_and_go_refuses_other_stacks_rebuys_and_latecomers() -> None:
    fmt = MatchFormat.sit_and_go(30, STEEP)
    with pytest.raises(FormatSeatError, match="starts with 30 chips"):
        TableMachine(Rules(), [TakeSeat(0, "A", 30), TakeSeat(1, "B", 40)], match_format=fmt)
    machine = TableMachine(Rules(), seats(3, 30), seed=1, match_format=fmt)
    for command in (SetChips(0, 50), AddChips(0, 5), TakeSeat(3, "Late", 40)):
        with pytest.raises(FormatSeatError):
            machine.handle(command)
    assert machine.handle(TakeSeat(3, "D", 30))  # before the first deal: welcome
    machine.handle(StartDeal())
    with pytest.raises(FormatSeatError, match="has begun"):
        machine.verify(TakeSeat(4, "E", 30))
    assert [s.chips for s in machine.seats_to_come] == [s.chips for s in machine.seats]


def test_a_rise_that_leaves_a_player_without_the_ante_puts_them_out() -> None:
    schedule = Schedule("jump", (Level(1, 1, 10, 1), Level(25, 25, 100, 1)))
    machine = TableMachine(
        Rules(), seats(3, 30), seed=2, match_format=MatchFormat.sit_and_go(30, schedule)
    )
    events = play_deal(machine)
    assert any(isinstance(e, LevelChanged) for e in events)
    out = [e for e in events if isinstance(e, SeatLeft) and e.busted]
    assert all(e.chips < 25 for e in out)
    assert all(s.chips >= 25 for s in machine.seats)


# --- a fixed-length match -----------------------------------------------------------------------


def test_a_fixed_length_match_stops_after_its_deals_with_the_standings() -> None:
    machine = TableMachine(Rules(), seats(3, 100), seed=5, match_format=MatchFormat.fixed(3))
    assert machine.level is None and machine.deals_left == 3
    ends: list[MatchFinished] = []
    for deals in range(1, 4):
        events = play_deal(machine)
        ends += [e for e in events if isinstance(e, MatchFinished)]
        assert machine.deals_left == 3 - deals
        assert isinstance(next(e for e in events if isinstance(e, DealFinished)), DealFinished)
    assert len(ends) == 1 and machine.finished
    standings = ends[0].standings
    assert [s.place for s in standings] == [1, 2, 3]
    assert [s.net for s in standings] == sorted((s.net for s in standings), reverse=True)
    assert sum(s.net for s in standings) == -machine.completed[-1].result.carried
    assert {s.player: s.chips for s in standings} == {s.player: s.chips for s in machine.seats}
    with pytest.raises(MatchFinishedError):
        machine.verify(StartDeal())
    assert len(machine.completed) == 3


def test_a_cash_table_never_finishes() -> None:
    machine = TableMachine(Rules(), seats(3, 100), seed=5)
    assert machine.match_format is CASH and machine.level is None and machine.deals_left is None
    for _ in range(3):
        assert not any(isinstance(e, LevelChanged | MatchFinished) for e in play_deal(machine))
    assert not machine.finished and machine.can(StartDeal())
