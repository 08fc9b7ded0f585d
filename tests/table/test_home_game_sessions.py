"""A property over random home-game sessions at the table machine: a sit and go with a short
schedule whose busted players ask to re-enter (the host approves or refuses, within the
re-entry window), and a cash game with rebuys and top-ups, both at a locked table whose
newcomers ask for a seat. Chips are conserved through every change (the stacks, the pot and
the pot carried, with the chips taken away, are the chips brought in), each deal is played
at its level's ante (000 Art. 1: agreed before play, here level by level), and between deals
the settle-up's transfers settle every net exactly (table/settle_up.py)."""

from __future__ import annotations

import pickle
import random

from hypothesis import HealthCheck, given, settings, target
from hypothesis import strategies as st

from italian_poker.engine.errors import ItalianPokerError
from italian_poker.engine.match import MatchPhase
from italian_poker.engine.rules import preset
from italian_poker.table.chip_requests import ChipCaps, ReEntryChipsError
from italian_poker.table.commands import (
    AnswerChips,
    AnswerSeat,
    AskChips,
    AskSeat,
    BotAct,
    Command,
    LockSeats,
    SetChipCaps,
    StartDeal,
    TakeSeat,
)
from italian_poker.table.defaults import default_action
from italian_poker.table.formats import (
    CASH,
    FormatKind,
    MatchFinishedError,
    MatchFormat,
    ReEntryClosedError,
    parse_schedule,
)
from italian_poker.table.machine import TableMachine
from italian_poker.table.machine_events import (
    ChipsAnswered,
    DealStarted,
    LevelChanged,
    ReEntered,
    SeatLeft,
    TableEvent,
)
from italian_poker.table.settle_up import settle_up

SCHEDULE = parse_schedule("1x3,2x3,4x3,6x50")
STARTING = 6
SIT_AND_GO = MatchFormat(
    FormatKind.SIT_AND_GO, schedule=SCHEDULE, starting_chips=STARTING, re_entry_levels=3
)
OPS = ("deal", "deal", "ask", "ask", "answer", "answer", "seat_ask", "seat_answer")


def snapshot(machine: TableMachine) -> bytes:
    machine.legal_actions()
    return pickle.dumps(machine)


class Session:
    """One random session: the machine, and what the test counts on its own."""

    def __init__(self, fmt: MatchFormat, seed: int, players: int, locked: bool) -> None:
        self.fmt = fmt
        self.sit_and_go = fmt.kind is FormatKind.SIT_AND_GO
        chips = STARTING if self.sit_and_go else 40
        seats = [TakeSeat(i, f"P{i}", chips) for i in range(players)]
        self.machine = TableMachine(
            preset("standard", players=6), seats, seed=seed, match_format=fmt
        )
        self.machine.handle(SetChipCaps(ChipCaps(times=2, until_level=3)))
        if locked:
            self.machine.handle(LockSeats(True))
        self.rng = random.Random(seed)
        self.level = 1
        self.level_deals = 0
        self.re_entries = 0
        self.newcomer = 100

    def busted(self) -> list[int]:
        """The players whose last departure was a bust and who have no seat."""
        seated = {s.player for s in self.machine.seats_to_come}
        last = {d.player: d.busted for d in self.machine.departed}
        return [p for p, busted in last.items() if busted and p not in seated]

    def command(self, op: str, pick: int, flag: bool) -> Command | None:
        """The command ``op`` makes, ``pick`` and ``flag`` choosing among what it may be."""
        machine = self.machine
        if op == "ask":
            busted = self.busted()
            if self.sit_and_go:
                if not busted:
                    return None
                chips = STARTING if pick % 4 else STARTING + 1 + pick % 5
                return AskChips(busted[pick % len(busted)], chips)
            ids = [s.player for s in machine.seats] + busted
            return AskChips(ids[pick % len(ids)], 5 + pick % 40) if ids else None
        if op == "answer":
            pending = list(machine.chip_desk.pending)
            approve = flag or pick % 3 > 0
            return AnswerChips(pending[pick % len(pending)], approve) if pending else None
        if op == "seat_ask":
            self.newcomer += 1
            chips = STARTING if self.sit_and_go else 10 + pick % 50
            return AskSeat(self.newcomer, f"N{self.newcomer}", chips)
        if op == "seat_answer":
            waiting = list(machine.admission.pending)
            return AnswerSeat(waiting[pick % len(waiting)], flag) if waiting else None
        return None

    def deal(self) -> list[TableEvent]:
        """A deal started and played to its end (random legal actions), its events."""
        machine = self.machine
        events = machine.handle(StartDeal())
        while machine.to_act is not None:
            legal = machine.legal_actions()
            action = default_action([self.rng.choice(legal)] if self.rng.random() < 0.6 else legal)
            events += machine.handle(BotAct(machine.to_act, action))
        return events

    def check_levels(self, events: list[TableEvent]) -> None:
        """Each deal at its level's ante; each level of deals over after its deals."""
        for event in events:
            if isinstance(event, LevelChanged):
                assert self.level_deals == SCHEDULE.levels[self.level - 1].deals
                self.level += 1
                self.level_deals = 0
                assert event.status.number == self.level
            elif isinstance(event, DealStarted):
                ante = SCHEDULE.levels[self.level - 1].ante if self.sit_and_go else 1
                assert event.start.rules.ante == ante
                self.level_deals += 1

    def check_chips(self) -> None:
        """Chips conserved; between deals with no pot carried, the settle-up settles every
        net exactly."""
        machine = self.machine
        taken = sum(d.chips for d in machine.departed)
        assert machine.chips_at_table + taken == machine.chips_brought
        assert sum(machine.bought(p) for p in machine.nets()) == machine.chips_brought
        match = machine.match
        if machine.phase is MatchPhase.IN_DEAL or match is None or match.carried:
            return
        nets = machine.nets()
        assert sum(nets.values()) == 0
        owed = dict(nets)
        for transfer in settle_up(nets):
            assert transfer.amount > 0
            owed[transfer.payer] += transfer.amount
            owed[transfer.payee] -= transfer.amount
        assert not any(owed.values())


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    sit_and_go=st.booleans(),
    seed=st.integers(0, 2**32),
    players=st.integers(3, 5),
    locked=st.booleans(),
    steps=st.lists(
        st.tuples(st.sampled_from(OPS), st.integers(0, 1000), st.booleans()),
        min_size=5,
        max_size=80,
    ),
)
def test_chips_are_conserved_each_deal_plays_its_level_and_the_settle_up_settles(
    sit_and_go: bool,
    seed: int,
    players: int,
    locked: bool,
    steps: list[tuple[str, int, bool]],
) -> None:
    session = Session(SIT_AND_GO if sit_and_go else CASH, seed, players, locked)
    machine = session.machine
    brought = machine.chips_brought
    for op, pick, flag in steps:
        if machine.finished:
            break
        if op == "deal":
            if machine.phase is not MatchPhase.BETWEEN_DEALS:
                continue
            events = session.deal()
        else:
            command = session.command(op, pick, flag)
            if command is None:
                continue
            before = snapshot(machine)
            try:
                events = machine.handle(command)
            except ItalianPokerError as error:
                assert snapshot(machine) == before  # a refusal changes nothing
                if sit_and_go and isinstance(command, AskChips):
                    # A busted player's request: the window and the amount decide first.
                    if not machine.re_entry_open:
                        assert isinstance(error, ReEntryClosedError | MatchFinishedError)
                    elif command.chips != STARTING:
                        assert isinstance(error, ReEntryChipsError)
                continue
        session.check_levels(events)
        for event in events:
            if isinstance(event, ReEntered):
                assert sit_and_go and event.chips == STARTING
                session.re_entries += 1
            elif isinstance(event, ChipsAnswered) and event.approved and sit_and_go:
                assert event.request.kind == "re_entry"
            elif isinstance(event, SeatLeft) and event.busted and sit_and_go:
                assert event.chips < machine.rules.chips_to_be_dealt_in
        session.check_chips()
        assert machine.chips_brought >= brought
        brought = machine.chips_brought
    if sit_and_go:
        assert sum(s.re_entries for s in machine.standings) == session.re_entries
        target(session.re_entries)
