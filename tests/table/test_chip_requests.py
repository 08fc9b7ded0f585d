"""Chip requests and seat admission at the table machine (table/chip_requests.py,
table/admission.py, table/host_desk.py): every refusal with its own error and nothing changed,
approved chips added only between deals, rebuys of busted players, the co-host's powers, and
a property test over random sessions (chips conserved, the settle-up settling every net)."""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from italian_poker.engine.errors import SeatError
from italian_poker.engine.match import MatchPhase
from italian_poker.engine.rules import preset
from italian_poker.table.admission import NotHostError, SeatAskPendingError, UnknownSeatAskError
from italian_poker.table.chip_requests import (
    BadCapsError,
    ChipCaps,
    ChipsAboveMaximumError,
    ChipsBelowMinimumError,
    NotBustedError,
    PastLevelError,
    RequestDuringDealError,
    RequestKind,
    RequestPendingError,
    TooManyRequestsError,
    UnknownRequestError,
)
from italian_poker.table.commands import (
    AddChips,
    AnswerChips,
    AnswerSeat,
    AskChips,
    AskSeat,
    Command,
    Leave,
    LockSeats,
    NameCoHost,
    SetChipCaps,
    StartDeal,
    TakeSeat,
    TimeOut,
)
from italian_poker.table.formats import Level, MatchFormat, Schedule
from italian_poker.table.machine import TableMachine
from italian_poker.table.machine_events import (
    ChangeDropped,
    ChangeWaits,
    ChipsAnswered,
    ChipsAsked,
    ChipsChanged,
    CoHostNamed,
    SeatAnswered,
    SeatAsked,
    SeatLeft,
    SeatTaken,
    TableEvent,
)
from italian_poker.table.seating import AlreadySeatedError, UnknownPlayerError
from italian_poker.table.settle_up import settle_up

STANDARD = preset("standard")
NAMES = ("Ada", "Bea", "Cid", "Dan", "Eva", "Fio")


def table(players: int = 3, chips: int = 100, **kw: object) -> TableMachine:
    seats = [TakeSeat(i, NAMES[i], chips) for i in range(players)]
    return TableMachine(STANDARD, seats, seed=1, **kw)  # type: ignore[arg-type]


def snapshot(machine: TableMachine) -> bytes:
    machine.legal_actions()
    return pickle.dumps(machine)


def refused(machine: TableMachine, command: Command, error: type[Exception]) -> None:
    """``command`` is refused with ``error`` by verify and handle, and nothing changes."""
    before = snapshot(machine)
    assert not machine.can(command)
    with pytest.raises(error):
        machine.verify(command)
    with pytest.raises(error):
        machine.handle(command)
    assert snapshot(machine) == before


def play_out(machine: TableMachine) -> list[TableEvent]:
    events: list[TableEvent] = []
    while machine.to_act is not None:
        events.extend(machine.handle(TimeOut(machine.to_act)))
    return events


def chips_of(machine: TableMachine, player: int) -> int:
    return next(s.chips for s in machine.seats if s.player == player)


# --- chip requests ----------------------------------------------------------------------------


def test_an_approved_top_up_adds_the_chips_and_counts_as_bought() -> None:
    machine = table()
    (asked,) = machine.handle(AskChips(1, 50))
    assert isinstance(asked, ChipsAsked)
    assert asked.request.kind is RequestKind.TOP_UP
    assert chips_of(machine, 1) == 100  # nothing until the host answers
    events = machine.handle(AnswerChips(asked.request.number, True))
    assert isinstance(events[0], ChipsAnswered) and events[0].approved
    assert ChipsChanged(1, 150, 50) in events
    assert machine.bought(1) == 150
    assert machine.chip_desk.approved == {1: 1}
    assert not machine.chip_desk.pending


def test_a_refused_request_changes_no_stack() -> None:
    machine = table()
    machine.handle(AskChips(1, 50))
    (asked,) = machine.chip_desk.pending.values()
    assert machine.handle(AnswerChips(1, False)) == [ChipsAnswered(asked, False)]
    assert chips_of(machine, 1) == 100
    assert machine.chip_desk.approved == {}


@pytest.mark.parametrize(
    ("caps", "chips", "error"),
    [
        (ChipCaps(minimum=20), 10, ChipsBelowMinimumError),
        (ChipCaps(), 0, ChipsBelowMinimumError),
        (ChipCaps(), "5", ChipsBelowMinimumError),
        (ChipCaps(maximum=100), 101, ChipsAboveMaximumError),
    ],
)
def test_a_request_outside_the_caps_is_refused(
    caps: ChipCaps, chips: object, error: type[Exception]
) -> None:
    machine = table()
    machine.handle(SetChipCaps(caps))
    refused(machine, AskChips(1, chips), error)  # type: ignore[arg-type]


def test_a_player_has_at_most_the_requests_the_host_allows() -> None:
    machine = table()
    machine.handle(SetChipCaps(ChipCaps(times=1)))
    machine.handle(AskChips(1, 50))
    refused(machine, AskChips(1, 50), RequestPendingError)
    machine.handle(AnswerChips(1, True))
    refused(machine, AskChips(1, 50), TooManyRequestsError)
    machine.handle(AskChips(2, 50))  # another player's are their own
    machine.handle(AnswerChips(2, False))
    machine.handle(AskChips(2, 50))  # a refused request does not count


def test_requests_close_when_the_named_level_begins() -> None:
    """'Until level 2': requests are refused from the first deal of level 2 on."""
    schedule = Schedule("two", (Level(1, 1, 10, 1), Level(2, 2, 20, 5)))
    machine = table(match_format=MatchFormat.fixed(4, schedule))
    machine.handle(SetChipCaps(ChipCaps(until_level=2)))
    machine.handle(AskChips(1, 10))
    machine.handle(AnswerChips(1, True))
    machine.handle(StartDeal())
    play_out(machine)
    assert machine.level is not None and machine.level.number == 2
    refused(machine, AskChips(2, 10), PastLevelError)


def test_a_table_that_takes_no_request_during_a_deal_says_to_wait() -> None:
    machine = table()
    machine.handle(SetChipCaps(ChipCaps(during_deal=False)))
    machine.handle(StartDeal())
    refused(machine, AskChips(1, 10), RequestDuringDealError)
    play_out(machine)
    machine.handle(AskChips(1, 10))


def test_chips_approved_during_a_deal_wait_for_its_end() -> None:
    machine = table()
    machine.handle(StartDeal())
    machine.handle(AskChips(1, 40))
    events = machine.handle(AnswerChips(1, True))
    assert ChangeWaits(AddChips(1, 40)) in events
    assert machine.phase is MatchPhase.IN_DEAL
    before = chips_of(machine, 1)
    finished = play_out(machine)
    assert any(isinstance(e, ChipsChanged) and e.player == 1 for e in finished)
    assert machine.bought(1) == 140
    assert chips_of(machine, 1) >= 40 and before >= 0


def test_a_sit_and_go_takes_no_request_from_a_player_in_play() -> None:
    machine = TableMachine(
        STANDARD,
        [TakeSeat(i, NAMES[i], 100) for i in range(3)],
        match_format=MatchFormat.sit_and_go(100),
    )
    refused(machine, AskChips(1, 10), NotBustedError)
    refused(machine, AskChips(1, 100), NotBustedError)


def test_a_stranger_cannot_ask_for_chips_and_an_unknown_request_has_no_answer() -> None:
    machine = table()
    refused(machine, AskChips(9, 10), UnknownPlayerError)
    refused(machine, AnswerChips(1, True), UnknownRequestError)
    machine.handle(AskChips(1, 10))
    machine.handle(AnswerChips(1, False))
    refused(machine, AnswerChips(1, True), UnknownRequestError)


def test_bad_caps_are_refused() -> None:
    for caps in ({"minimum": 0}, {"maximum": 5, "minimum": 10}, {"times": 0}, {"during_deal": 1}):
        with pytest.raises(BadCapsError):
            ChipCaps(**caps)  # type: ignore[arg-type]


def test_a_busted_player_rebuys_into_the_seat_they_kept() -> None:
    """A player left without the chips to be dealt in busts (000 Art. 1); their request is
    a rebuy and, approved, seats them again in their seat number."""
    machine = TableMachine(
        STANDARD, [TakeSeat(0, "Ada", 100), TakeSeat(1, "Bea", 1), TakeSeat(2, "Cid", 100)]
    )
    machine.handle(StartDeal())  # Bea's one chip is her ante
    left = [e for e in play_out(machine) if isinstance(e, SeatLeft)]
    assert left == [SeatLeft(1, "Bea", 0, busted=True)]
    (asked,) = machine.handle(AskChips(1, 60))
    assert isinstance(asked, ChipsAsked) and asked.request.kind is RequestKind.REBUY
    events = machine.handle(AnswerChips(asked.request.number, True))
    taken = [e for e in events if isinstance(e, SeatTaken)]
    assert taken == [SeatTaken(1, "Bea", 60)]
    assert next(s.seat for s in machine.seats if s.player == 1) == 1


def test_a_player_who_leaves_has_their_requests_closed() -> None:
    machine = table()
    machine.handle(AskChips(1, 10))
    events = machine.handle(Leave(1))
    assert any(isinstance(e, ChipsAnswered) and e.dropped for e in events)
    assert not machine.chip_desk.pending


# --- seat admission and the co-host -----------------------------------------------------------


def test_an_open_table_seats_a_newcomer_at_once() -> None:
    machine = table()
    assert machine.handle(AskSeat(7, "Gia", 100)) == [SeatTaken(7, "Gia", 100)]


def test_a_locked_table_seats_a_newcomer_the_host_admits() -> None:
    machine = table()
    machine.handle(LockSeats(True))
    assert machine.handle(AskSeat(7, "Gia", 100)) == [SeatAsked(7, "Gia", 100)]
    assert 7 not in {s.player for s in machine.seats}
    refused(machine, AskSeat(7, "Gia", 100), SeatAskPendingError)
    refused(machine, AskSeat(8, "Gia", 100), SeatAskPendingError)
    refused(machine, AskSeat(8, "Ada", 100), AlreadySeatedError)
    events = machine.handle(AnswerSeat(7, True))
    assert events == [SeatAnswered(7, "Gia", True), SeatTaken(7, "Gia", 100)]
    refused(machine, AnswerSeat(7, True), UnknownSeatAskError)


def test_a_refused_newcomer_does_not_sit_down() -> None:
    machine = table()
    machine.handle(LockSeats(True))
    machine.handle(AskSeat(7, "Gia", 100))
    assert machine.handle(AnswerSeat(7, False)) == [SeatAnswered(7, "Gia", False)]
    assert 7 not in {s.player for s in machine.seats}


def test_the_co_host_answers_as_the_host_and_nobody_else_does() -> None:
    machine = table()
    refused(machine, NameCoHost(9), UnknownPlayerError)
    refused(machine, LockSeats(True, by=1), NotHostError)
    assert machine.handle(NameCoHost(1)) == [CoHostNamed(1)]
    machine.handle(LockSeats(True, by=1))
    machine.handle(AskSeat(7, "Gia", 100))
    refused(machine, AnswerSeat(7, True, by=2), NotHostError)
    machine.handle(AnswerSeat(7, True, by=1))
    machine.handle(AskChips(2, 10))
    refused(machine, AnswerChips(1, True, by=2), NotHostError)
    refused(machine, SetChipCaps(ChipCaps(), by=2), NotHostError)
    machine.handle(AnswerChips(1, True, by=1))
    events = machine.handle(Leave(1))
    assert CoHostNamed(None) in events
    refused(machine, LockSeats(False, by=1), NotHostError)


def test_every_request_refusal_is_a_seat_error() -> None:
    for error in (ChipsBelowMinimumError, PastLevelError, NotHostError, UnknownSeatAskError):
        assert issubclass(error, SeatError)


# --- a property over random sessions ----------------------------------------------------------


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.integers(10, 60))
def test_chips_are_conserved_and_the_settle_up_settles_every_net(seed: int, steps: int) -> None:
    """Random requests, approvals, refusals, newcomers and deals: the chips at the table and
    those taken away are the buy-ins plus the approved chips; between deals with no pot
    carried, the settle-up's transfers bring every player's net to zero exactly."""
    rng = random.Random(seed)
    machine = TableMachine(
        STANDARD, [TakeSeat(i, NAMES[i], rng.randint(5, 60)) for i in range(3)], seed=seed
    )
    machine.handle(SetChipCaps(ChipCaps(minimum=5, maximum=80, times=rng.randint(1, 4))))
    if rng.random() < 0.5:
        machine.handle(LockSeats(True))
    buy_ins = sum(machine.bought(p) for p in range(3))
    approved = 0
    newcomer = 10
    asks: dict[int, int] = {}
    for _ in range(steps):
        roll = rng.random()
        ids = [s.player for s in machine.seats] + [d.player for d in machine.departed]
        command: Command
        if roll < 0.3 and ids:
            command = AskChips(rng.choice(ids), rng.randint(1, 100))
        elif roll < 0.5 and machine.chip_desk.pending:
            command = AnswerChips(rng.choice(list(machine.chip_desk.pending)), rng.random() < 0.7)
        elif roll < 0.55:
            command = AskSeat(newcomer, f"N{newcomer}", rng.randint(5, 60))
            asks[newcomer] = command.chips
            newcomer += 1
        elif roll < 0.6 and machine.admission.pending:
            command = AnswerSeat(rng.choice(list(machine.admission.pending)), rng.random() < 0.7)
        elif machine.to_act is not None:
            command = TimeOut(machine.to_act)
        else:
            command = StartDeal()
        before = snapshot(machine)
        try:
            events = machine.handle(command)
        except SeatError:
            assert snapshot(machine) == before
            continue
        if isinstance(command, AskSeat) and not isinstance(events[0], SeatAsked):
            buy_ins += command.chips  # seated now, or once the deal is over
        for event in events:
            if isinstance(event, SeatAnswered) and event.admitted:
                assert isinstance(command, AnswerSeat)
                buy_ins += asks[command.player]
            elif isinstance(event, ChipsAnswered) and event.approved:
                approved += event.request.chips
            elif isinstance(event, ChangeDropped) and isinstance(event.command, AddChips):
                approved -= event.command.chips
        taken = sum(d.chips for d in machine.departed)
        waiting = sum(c.chips for c in machine.waiting if isinstance(c, AddChips | TakeSeat))
        assert machine.chips_at_table + taken + waiting == buy_ins + approved
        assert machine.chips_at_table + taken == machine.chips_brought
        match = machine.match
        if machine.phase is MatchPhase.IN_DEAL or match is None or match.carried:
            continue
        nets = machine.nets()
        assert sum(nets.values()) == 0
        owed = dict(nets)
        for transfer in settle_up(nets):
            owed[transfer.payer] += transfer.amount
            owed[transfer.payee] -= transfer.amount
        assert not any(owed.values())
