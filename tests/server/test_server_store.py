"""The store's event commits: the event log, the ledger, and the seats and status rows kept in
step with the table, written only when they change (on SQLite and, when configured,
PostgreSQL)."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import Engine, event, select
from sqlalchemy.exc import IntegrityError

from italian_poker.server.ledger import LedgerEntry
from italian_poker.server.models import LedgerRow, SeatRow, TableEventRow, TableRow
from italian_poker.server.seats import Slot
from italian_poker.server.store import EventWrite, NewTable, Store

pytestmark = pytest.mark.every_database

ACTION = {"seat": 0, "kind": "check", "amount": None, "cards": [], "split": False}


@pytest.fixture
def store(engine: Engine) -> Store:
    return Store(engine)


def new_table(store: Store, name: str = "t") -> int:
    return store.create_table(name.rjust(64, "0"), NewTable(name, {}, {}, "h" * 64))


def commit(
    store: Store,
    table_id: int,
    seq: int,
    slots: list[Slot | None],
    tokens: dict[int, str],
    status: str = "lobby",
    ledger: tuple[LedgerEntry, ...] = (),
) -> None:
    store.commit_event(
        table_id,
        seq,
        "action",
        ACTION,
        ledger=ledger,
        slots=slots,
        tokens=tokens,
        status=status,
    )


def seat_rows(engine: Engine, table_id: int) -> dict[int, tuple[str, str | None, bool, str | None]]:
    with engine.connect() as connection:
        rows = connection.execute(
            select(
                SeatRow.seat,
                SeatRow.nickname,
                SeatRow.bot_level,
                SeatRow.sitting_out,
                SeatRow.player_token_hash,
            ).where(SeatRow.table_id == table_id)
        ).all()
    return {r[0]: (r[1], r[2], bool(r[3]), r[4]) for r in rows}


def status_of(engine: Engine, table_id: int) -> str:
    with engine.connect() as connection:
        return connection.execute(
            select(TableRow.status).where(TableRow.id == table_id)
        ).scalar_one()


def statements(engine: Engine) -> list[str]:
    """Verb and table of each SQL statement sent through ``engine`` from now on (the list
    fills as they run): ``INSERT table_events``, ``UPDATE tables``, ``SELECT ...``."""
    sent: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        words = statement.split()
        verb = words[0].upper()
        sent.append(f"{verb} {words[1 if verb == 'UPDATE' else 2]}")

    event.listen(engine, "before_cursor_execute", record)
    return sent


def test_seats_rows_follow_every_change_of_the_slots(engine: Engine, store: Store) -> None:
    table = new_table(store)
    anna = Slot("Anna", None)
    commit(store, table, 1, [anna, None, None, None], {0: "a" * 64})
    assert seat_rows(engine, table) == {0: ("Anna", None, False, "a" * 64)}
    bot = Slot("Bot 1", "simple")
    commit(store, table, 2, [anna, None, bot, None], {0: "a" * 64})
    assert seat_rows(engine, table)[2] == ("Bot 1", "simple", False, None)
    anna.sitting_out = True
    commit(store, table, 3, [anna, None, bot, None], {0: "a" * 64}, status="playing")
    assert seat_rows(engine, table)[0] == ("Anna", None, True, "a" * 64)
    assert status_of(engine, table) == "playing"
    # The bot leaves and Bruno takes its seat; Anna's token is voided (a kick).
    bruno = Slot("Bruno", None)
    commit(store, table, 4, [anna, None, bruno, None], {2: "b" * 64}, status="paused")
    assert seat_rows(engine, table) == {
        0: ("Anna", None, True, None),
        2: ("Bruno", None, False, "b" * 64),
    }
    commit(store, table, 5, [None, None, bruno, None], {2: "b" * 64}, status="paused")
    assert seat_rows(engine, table) == {2: ("Bruno", None, False, "b" * 64)}
    assert status_of(engine, table) == "paused"
    stored = Store(engine).load(table)
    assert [seq for seq, _, _ in stored.events] == [1, 2, 3, 4, 5]
    assert stored.tokens == {2: "b" * 64}


def test_an_action_that_changes_no_seat_writes_only_the_event(engine: Engine, store: Store) -> None:
    table = new_table(store)
    slots: list[Slot | None] = [Slot("Anna", None), Slot("Bot", "simple")]
    commit(store, table, 1, slots, {0: "a" * 64}, status="playing")
    sent = statements(engine)
    for seq in range(2, 6):
        commit(store, table, seq, slots, {0: "a" * 64}, status="playing")
    assert sent == ["INSERT table_events"] * 4
    sent.clear()
    commit(store, table, 6, slots, {0: "a" * 64}, status="paused")
    assert sent == ["INSERT table_events", "UPDATE tables"]


def test_a_deal_result_writes_its_ledger_rows(engine: Engine, store: Store) -> None:
    table = new_table(store)
    slots: list[Slot | None] = [Slot("Anna", None), Slot("Bot", "simple")]
    result = (
        LedgerEntry("Anna", 1, "result", 40, hand=1),
        LedgerEntry("Bot", 2, "result", -40, 1),
    )
    commit(store, table, 1, slots, {}, status="playing", ledger=result)
    rows = [
        (r["nickname"], r["player"], r["kind"], r["amount"], r["hand"]) for r in store.ledger(table)
    ]
    assert rows == [("Anna", 1, "result", 40, 1), ("Bot", 2, "result", -40, 1)]
    with engine.connect() as connection:
        assert connection.execute(select(LedgerRow.id)).all() != []


def test_a_failed_commit_leaves_nothing_and_the_next_one_reads_the_rows(
    engine: Engine, store: Store
) -> None:
    table = new_table(store)
    anna = Slot("Anna", None)
    commit(store, table, 1, [anna], {0: "a" * 64})
    # Event 1 again: refused by the log's (table, seq) key, with a new seat that must not count.
    bruno = Slot("Bruno", None)
    with pytest.raises(IntegrityError):
        commit(store, table, 1, [anna, bruno], {0: "a" * 64, 1: "b" * 64}, status="playing")
    assert seat_rows(engine, table) == {0: ("Anna", None, False, "a" * 64)}
    assert status_of(engine, table) == "lobby"
    commit(store, table, 2, [anna, bruno], {0: "a" * 64, 1: "b" * 64}, status="playing")
    assert seat_rows(engine, table) == {
        0: ("Anna", None, False, "a" * 64),
        1: ("Bruno", None, False, "b" * 64),
    }
    assert status_of(engine, table) == "playing"
    with engine.connect() as connection:
        seqs = connection.execute(
            select(TableEventRow.seq).where(TableEventRow.table_id == table)
        ).scalars()
        assert list(seqs) == [1, 2]


def test_a_second_store_on_the_same_database_starts_from_the_rows(engine: Engine) -> None:
    first = Store(engine)
    table = new_table(first)
    slots: list[Slot | None] = [Slot("Anna", None), None, Slot("Bot", "strong", 100)]
    commit(first, table, 1, slots, {0: "a" * 64}, status="playing")
    # A restarted server: its store knows nothing until it loads the table or commits.
    second = Store(engine)
    slots[0] = None
    commit(second, table, 2, slots, {}, status="playing")
    assert seat_rows(engine, table) == {2: ("Bot", "strong", False, None)}


def test_an_event_that_changes_only_the_log_reads_back_as_any_other(
    engine: Engine, store: Store
) -> None:
    """On SQLite an event that changes nothing but the log is written as the driver's SQL
    (server/store.py's ``_EventInsert``): its row reads back as one written with the seats'
    rows does."""
    table = new_table(store)
    payload = {"seat": 0, "cards": ["Ah", "Td"], "said": 'Dàrio "d" ♥', "bank": 12.5, "n": None}
    anna = (Slot("Anna", None),)
    for seq in (1, 2):  # the first writes the seats' rows too, the second only the log
        store.commit_events(
            [EventWrite(table, seq, "action", payload, (), anna, {0: "a" * 64}, "playing")]
        )
    with engine.connect() as connection:
        rows = connection.execute(
            select(TableEventRow.kind, TableEventRow.payload, TableEventRow.created)
            .where(TableEventRow.table_id == table)
            .order_by(TableEventRow.seq)
        ).all()
    assert [(kind, stored) for kind, stored, _ in rows] == [("action", payload)] * 2
    first, second = (created for _, _, created in rows)
    assert type(first) is type(second) and first.tzinfo == second.tzinfo
    assert first <= second
    assert Store(engine).load(table).events == ((1, "action", payload), (2, "action", payload))
