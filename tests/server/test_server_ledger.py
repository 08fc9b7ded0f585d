"""The ledger's summary per person (server/ledger.py): buy-ins and the host's additions are
bought in, cash-outs and what the host took off are cashed out, the stacks are the table's,
and with the chips in the pot (a deal under way, or a pot carried after everyone passed,
3.5, or said parol, 5.4(a)) the nets come to exactly zero, whatever was played. The CSV
holds the rows' values."""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from italian_poker.analysis.bots import make_bot
from italian_poker.engine.actions import Action, ActionKind
from italian_poker.engine.errors import ItalianPokerError
from italian_poker.engine.match import MatchPhase
from italian_poker.engine.policy import Policy
from italian_poker.engine.rules import preset
from italian_poker.server.event_kinds import EventKind
from italian_poker.server.event_payloads import action_payload, bot_payload
from italian_poker.server.ledger import (
    CSV_COLUMNS,
    SETTLE_COLUMNS,
    Holding,
    LedgerEntry,
    Summary,
    ledger_csv,
    settle_csv,
    summarise,
)
from italian_poker.server.table_state import TableState, TableStatus
from italian_poker.table.settle_up import Transfer


@dataclass(frozen=True)
class Row:
    """A stored row (player None: written before migration 0003)."""

    nickname: str
    player: int | None
    kind: str
    amount: int
    hand: int | None = None
    created: str = "2026-12-03T10:00:00+00:00"


def _line(summary: Summary, nickname: str) -> Any:
    return next(p for p in summary.people if p.nickname == nickname)


def test_a_line_per_person_with_the_host_adjustments_as_buy_ins_and_buy_outs() -> None:
    rows = [
        Row("Anna", 1, "buy_in", 200),
        Row("Bruno", 2, "buy_in", 200),
        Row("Carla", 3, "buy_in", 200),
        Row("Anna", 1, "adjust", 100),  # the host adds 100: bought in
        Row("Bruno", 2, "adjust", -50),  # the host takes 50 off: cashed out
        Row("Anna", 1, "result", -40, 1),
        Row("Bruno", 2, "result", 70, 1),
        Row("Carla", 3, "result", -30, 1),
        Row("Carla", 3, "cash_out", 170, 1),
    ]
    seated = [Holding(1, "Anna", 260), Holding(2, "Bruno", 220)]
    summary = summarise(rows, seated, 0)
    assert [p.nickname for p in summary.people] == ["Anna", "Bruno", "Carla"]
    anna, bruno, carla = summary.people
    assert (anna.bought_in, anna.cashed_out, anna.stack, anna.net) == (300, 0, 260, -40)
    assert (bruno.bought_in, bruno.cashed_out, bruno.stack, bruno.net) == (200, 50, 220, 70)
    assert (carla.bought_in, carla.cashed_out, carla.stack, carla.net) == (200, 170, 0, -30)
    assert (anna.seated, bruno.seated, carla.seated) == (True, True, False)
    totals = summary.totals
    assert (totals.bought_in, totals.cashed_out, totals.stack, totals.net) == (700, 220, 480, 0)
    # Settling up: Bruno is up 70, Anna down 40 and Carla (gone, with her chips) down 30.
    assert summary.settle_up == (Transfer(anna, bruno, 40), Transfer(carla, bruno, 30))


def test_the_pot_is_a_line_of_its_own_that_brings_the_nets_to_zero() -> None:
    rows = [Row("Anna", 1, "buy_in", 100), Row("Bruno", 2, "buy_in", 100)]
    summary = summarise(rows, [Holding(1, "Anna", 95), Holding(2, "Bruno", 80)], 25)
    assert [p.net for p in summary.people] == [-5, -20]
    assert summary.in_pot == 25 and summary.totals.stack == 200 and summary.totals.net == 0
    assert summary.settle_up is None  # settled once the pot is won


def test_settling_up_counts_the_chips_in_front_of_each_person_as_theirs() -> None:
    rows = [
        Row("Anna", 1, "buy_in", 100),
        Row("Bruno", 2, "buy_in", 100),
        Row("Carla", 3, "buy_in", 100),
        Row("Dario", 4, "buy_in", 100),
        Row("Dario", 4, "cash_out", 60, 2),
    ]
    seated = [Holding(1, "Anna", 130), Holding(2, "Bruno", 70), Holding(3, "Carla", 140)]
    summary = summarise(rows, seated, 0)
    anna, bruno, carla, dario = summary.people
    # Opposite nets pay each other: Bruno's -30 to Anna, Dario's -40 to Carla.
    assert summary.settle_up == (Transfer(bruno, anna, 30), Transfer(dario, carla, 40))
    assert (
        summarise(rows[:4], [Holding(p, n, 100) for p, n in enumerate(NAMES[:4], 1)], 0).settle_up
        == ()
    )


def test_the_settle_up_csv_is_a_table_of_its_own() -> None:
    rows = [Row("=Anna", 1, "buy_in", 100), Row("Bruno, jr", 2, "buy_in", 100)]
    summary = summarise(rows, [Holding(1, "=Anna", 75), Holding(2, "Bruno, jr", 125)], 0)
    assert summary.settle_up is not None
    text = settle_csv(summary.settle_up)
    assert text == 'payer,payee,amount\r\n\'=Anna,"Bruno, jr",25\r\n'
    assert tuple(next(csv.reader(io.StringIO(text)))) == SETTLE_COLUMNS
    assert settle_csv(()) == "payer,payee,amount\r\n"


def test_people_are_told_apart_by_player_not_by_nickname() -> None:
    """A newcomer who takes a departed player's nickname has a line of their own."""
    rows = [
        Row("Bruno", 2, "buy_in", 200),
        Row("Bruno", 2, "cash_out", 150),
        Row("Bruno", 5, "buy_in", 200),
    ]
    summary = summarise(rows, [Holding(5, "Bruno", 200)], 0)
    assert [(p.player, p.cashed_out, p.stack, p.net) for p in summary.people] == [
        (2, 150, 0, -50),
        (5, 0, 200, 0),
    ]


def test_rows_without_a_player_count_for_who_used_the_nickname() -> None:
    """Rows written before migration 0003: the seated person with that nickname owns them,
    else the last one whose rows name it, else a line of the nickname alone."""
    rows = [
        Row("Anna", None, "buy_in", 200),
        Row("Dino", None, "buy_in", 200),
        Row("Dino", None, "cash_out", 260),
        Row("Ezio", None, "buy_in", 200),
        Row("Anna", 1, "result", 60, 1),
        Row("Ezio", 4, "cash_out", 140, 1),
    ]
    summary = summarise(rows, [Holding(1, "Anna", 260)], 0)
    assert [(p.player, p.nickname, p.net) for p in summary.people] == [
        (1, "Anna", 60),
        (None, "Dino", 60),
        (4, "Ezio", -60),
    ]


def test_a_row_of_an_unknown_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown ledger row kind 'bonus'"):
        summarise([Row("Anna", 1, "bonus", 5)], [], 0)


def test_the_csv_holds_the_rows_values_in_order() -> None:
    rows = [
        Row("Anna", 1, "buy_in", 200),
        Row("Bruno, jr", None, "result", -35, 4, "2026-12-03T10:01:02.345678"),
        Row("=HYPERLINK(1)", 7, "cash_out", 0, None),
    ]
    text = ledger_csv(rows)
    assert text.startswith("created,nickname,player,kind,amount,hand\r\n")
    read = list(csv.reader(io.StringIO(text)))
    assert tuple(read[0]) == CSV_COLUMNS
    assert read[1:] == [
        ["2026-12-03T10:00:00+00:00", "Anna", "1", "buy_in", "200", ""],
        ["2026-12-03T10:01:02.345678", "Bruno, jr", "", "result", "-35", "4"],
        # A nickname a spreadsheet would run as a formula is written as text.
        ["2026-12-03T10:00:00+00:00", "'=HYPERLINK(1)", "7", "cash_out", "0", ""],
    ]


# --- whatever is played, the nets and the pot come to zero -------------------------------

NAMES = ("Anna", "Bruno", "Carla", "Dino", "Ezio")
SEATS = 4

Step = tuple[Any, ...]

steps = st.lists(
    st.one_of(
        st.tuples(st.just("seat"), st.integers(0, SEATS - 1), st.integers(0, len(NAMES) - 1)),
        st.tuples(st.just("unseat"), st.integers(0, SEATS - 1)),
        st.tuples(st.just("stack"), st.integers(0, SEATS - 1), st.integers(1, 120)),
        st.tuples(st.just("sit_out"), st.integers(0, SEATS - 1)),
        st.tuples(st.just("sit_in"), st.integers(0, SEATS - 1)),
        st.tuples(st.just("chip_ask"), st.integers(0, SEATS - 1), st.integers(1, 80)),
        st.tuples(st.just("chip_answer"), st.booleans()),
        st.tuples(st.just("play"), st.integers(1, 60)),
        st.tuples(st.just("play"), st.integers(1, 60)),
        st.tuples(st.just("play"), st.integers(1, 60)),
    ),
    min_size=1,
    max_size=20,
)


class Table:
    """A table's state and the ledger rows its events wrote."""

    def __init__(self, name: str, stack: int, **changes: Any) -> None:
        options = {"preset": name, "seats": SEATS, "stack": stack, "turn_seconds": None}
        self.state = TableState("T", preset(name, players=SEATS, **changes), options)
        self.rows: list[LedgerEntry] = []

    def apply(self, kind: EventKind, payload: dict[str, Any]) -> bool:
        """Apply the event if allowed now (a refused event changes nothing)."""
        try:
            effects = self.state.apply(self.state.seq + 1, kind, payload)
        except ItalianPokerError:
            return False
        self.rows.extend(effects.ledger)
        return True

    def summary(self) -> Summary:
        state = self.state
        seated = [
            Holding(slot.player, slot.nickname, state.stack(i))
            for i, slot in enumerate(state.slots)
            if slot is not None
        ]
        return summarise(self.rows, seated, state.pot())

    def check(self) -> Summary:
        """The ledger agrees with the table: the nets and the pot are zero, the stacks and
        the pot are every chip at the table; between deals each person is up or down by
        their deals' results."""
        summary = self.summary()
        state = self.state
        match = state.match
        if match is None:
            in_pot = 0
        elif match.phase is MatchPhase.IN_DEAL and match.deal is not None:
            in_pot = match.deal.pot  # the antes, bets and chips carried in
        else:
            in_pot = match.carried  # 3.5, 5.4(a): what the next deal finds in the pot
        assert summary.in_pot == in_pot
        assert summary.totals.net == 0, summary
        assert summary.totals.stack == state.chips()
        if not state.in_deal:
            results: dict[int, int] = defaultdict(int)
            for row in self.rows:
                if row.kind == "result":
                    results[row.player] += row.amount
            for person in summary.people:
                assert person.player is not None
                assert person.net == results[person.player], (person, results)
        _check_settle_up(summary)
        return summary


def _check_settle_up(summary: Summary) -> None:
    """No settle-up while the pot holds chips; else transfers that bring every net to zero,
    from people who are down to people who are up."""
    transfers = summary.settle_up
    if summary.in_pot:
        assert transfers is None
        return
    assert transfers is not None
    left = {person: person.net for person in summary.people}
    for transfer in transfers:
        assert transfer.payer.net < 0 < transfer.payee.net and transfer.amount > 0
        left[transfer.payer] += transfer.amount
        left[transfer.payee] -= transfer.amount
    assert set(left.values()) <= {0}
    assert len(transfers) <= max(0, sum(1 for net in left if net.net) - 1)


def _play(table: Table, moves: int, bot: Policy, seed: int) -> None:
    """Deal and act (the bot's choice, for every seat) ``moves`` times, or until no deal."""
    state = table.state
    if state.status is TableStatus.LOBBY and not table.apply(EventKind.START, {}):
        return
    for move in range(moves):
        actor = state.actor_slot()
        if actor is None:
            if not table.apply(EventKind.DEAL, {"seed": seed + move}):
                return
        else:
            view = state.view(actor)
            assert view is not None
            assert table.apply(EventKind.ACTION, bot_payload(actor, bot.act(view)))
        table.check()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(["standard", "001", "002", "003", "fantini"]),
    stack=st.integers(10, 80),
    players=st.integers(2, SEATS),
    plan=steps,
    seed=st.integers(0, 2**32),
)
def test_the_nets_and_the_pot_come_to_zero_whatever_is_played(
    name: str, stack: int, players: int, plan: list[Step], seed: int
) -> None:
    """``players`` sit down, then seats are taken and left, stacks set, players sit out and
    in, ask for chips (rebuys and top-ups, approved or refused: server/home_desk.py), and
    deals are played (a random bot's moves for everyone), in any order."""
    table = Table(name, stack)
    for seat in range(players):
        table.apply(EventKind.SEAT, {"seat": seat, "nickname": NAMES[seat], "bot": None})
    bot = make_bot("random", seed=seed)
    for step in plan:
        kind = step[0]
        if kind == "seat":
            table.apply(EventKind.SEAT, {"seat": step[1], "nickname": NAMES[step[2]], "bot": None})
        elif kind == "unseat":
            table.apply(EventKind.UNSEAT, {"seat": step[1]})
        elif kind == "stack":
            table.apply(EventKind.STACK, {"seat": step[1], "amount": step[2]})
        elif kind in ("sit_out", "sit_in"):
            if table.state.slots[step[1]] is not None:
                table.apply(EventKind(kind), {"seat": step[1]})
        elif kind == "chip_ask":
            table.apply(EventKind.CHIP_ASK, {"seat": step[1], "chips": step[2]})
        elif kind == "chip_answer":
            pending = list(table.state.machine.chip_desk.pending)
            if pending:
                table.apply(EventKind.CHIP_ANSWER, {"request": pending[0], "approve": step[1]})
        else:
            _play(table, step[1], bot, seed)
        table.check()


def _passing(state: TableState) -> dict[str, Any]:
    """Pass, or say parol, when allowed; else the cheapest move."""
    actor = state.actor_slot()
    assert actor is not None
    legal = {option.kind: option for option in state.legal_actions()}
    for kind in (ActionKind.PASS, ActionKind.PAROL, ActionKind.CHECK, ActionKind.DECLINE):
        if kind in legal:
            return action_payload(actor, Action(kind), False)
    kind, option = next(iter(legal.items()))
    return action_payload(actor, Action(kind, option.min_amount), False)


@pytest.mark.parametrize("name", ["standard", "001"])
def test_a_carried_pot_is_the_pot_line_between_deals(name: str) -> None:
    """Everyone passes (3.5): the pot stays for the next deal, in no one's stack, and is
    the ledger's pot line; everyone is down by the antes they put in it."""
    table = Table(name, 100)
    for seat in range(3):
        table.apply(EventKind.SEAT, {"seat": seat, "nickname": NAMES[seat], "bot": None})
    assert table.apply(EventKind.START, {}) and table.apply(EventKind.DEAL, {"seed": 3})
    antes = table.state.pot()
    assert antes > 0
    table.check()
    while table.state.in_deal:
        assert table.apply(EventKind.ACTION, _passing(table.state))
    match = table.state.match
    assert match is not None and match.phase is MatchPhase.BETWEEN_DEALS
    assert match.carried == antes
    summary = table.check()
    assert summary.in_pot == antes
    assert sum(person.net for person in summary.people) == -antes


def test_a_player_let_go_for_want_of_an_ante_keeps_the_chips_left() -> None:
    """000 Art. 1: a player who cannot pay an ante leaves the match at the end of the deal,
    taking their chips: the seat keeps them (the player is out until the host gives them
    chips) and the player cashes them out on leaving."""
    # 003's antes (an ante and the dealer's: 2 chips to be dealt in), dealt heads-up here.
    table = Table("003", 100, min_players=2)
    for seat in range(3):
        table.apply(EventKind.SEAT, {"seat": seat, "nickname": NAMES[seat], "bot": None})
    assert table.apply(EventKind.STACK, {"seat": 2, "amount": 1})
    assert table.apply(EventKind.START, {}) and table.apply(EventKind.DEAL, {"seed": 5})
    state = table.state
    assert state.deal_slots == [0, 1] and state.stack(2) == 1
    while state.in_deal:
        assert table.apply(EventKind.ACTION, _passing(state))
    assert state.busted(2) and not state.busted(0)
    assert state.stack(2) == 1 and table.check().totals.net == 0
    assert table.apply(EventKind.UNSEAT, {"seat": 2})
    assert table.rows[-1] == LedgerEntry("Carla", 3, "cash_out", 1, 1)
    assert table.check().totals.net == 0


def test_a_newcomer_during_a_deal_has_the_buy_in_on_the_seat() -> None:
    table = Table("standard", 100)
    for seat in range(2):
        table.apply(EventKind.SEAT, {"seat": seat, "nickname": NAMES[seat], "bot": None})
    assert table.apply(EventKind.START, {}) and table.apply(EventKind.DEAL, {"seed": 5})
    assert table.apply(EventKind.SEAT, {"seat": 2, "nickname": "Carla", "bot": None})
    state = table.state
    assert state.in_deal and state.stack(2) == 100 and state.chips() == 300
    assert table.check().totals.net == 0
