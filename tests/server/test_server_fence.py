"""The store's fencing (issue 12's table leases): a commit with a fencing token raises the
table's fence in the same transaction, and one with a token smaller than a token that has
written is refused with nothing written (on SQLite and, when configured, PostgreSQL). No
Redis here: the tokens are given as a lease would give them (``test_server_lease.py``)."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine, select
from test_server_store import new_table, seat_rows, statements, status_of

from italian_poker.server.fencing import FENCE_MAX, StaleOwner
from italian_poker.server.ledger import LedgerEntry
from italian_poker.server.models import LedgerRow, TableEventRow
from italian_poker.server.seats import Slot
from italian_poker.server.store import EventWrite, Store

pytestmark = pytest.mark.every_database

ACTION = {"seat": 0, "kind": "check", "amount": None, "cards": [], "split": False}
ANNA = Slot("Anna", None)


@pytest.fixture
def store(engine: Engine) -> Store:
    return Store(engine)


def event(
    table_id: int,
    seq: int,
    slots: tuple[Slot | None, ...] = (ANNA,),
    status: str = "playing",
    ledger: tuple[LedgerEntry, ...] = (),
) -> EventWrite:
    return EventWrite(table_id, seq, "action", ACTION, ledger, slots, {0: "a" * 64}, status)


def seqs(engine: Engine, table_id: int) -> list[int]:
    with engine.connect() as connection:
        rows = connection.execute(
            select(TableEventRow.seq)
            .where(TableEventRow.table_id == table_id)
            .order_by(TableEventRow.seq)
        ).scalars()
        return list(rows)


def ledger_rows(engine: Engine) -> int:
    with engine.connect() as connection:
        return len(connection.execute(select(LedgerRow.id)).all())


def test_a_new_table_has_fence_0_and_an_unknown_one_none(store: Store) -> None:
    table = new_table(store)
    assert store.fence(table) == 0
    with pytest.raises(KeyError):
        store.fence(table + 1)


def test_a_stale_owner_is_refused_and_nothing_of_its_batch_is_written(
    engine: Engine, store: Store
) -> None:
    first, second = new_table(store, "one"), new_table(store, "two")
    store.commit_events([event(first, 1), event(second, 1)], fence=1)
    store.commit_events([event(first, 2)], fence=2)  # the new owner of table one writes
    assert (store.fence(first), store.fence(second)) == (2, 1)
    # The old owner, resumed, writes a batch for both tables: seats, status and ledger rows.
    bruno = Slot("Bruno", None)
    result = (LedgerEntry("Anna", 1, "result", 5, hand=1),)
    stale = [
        event(first, 3, (ANNA, bruno), "paused", result),
        event(second, 2, (ANNA, bruno), "paused", result),
    ]
    with pytest.raises(StaleOwner) as refused:
        store.commit_events(stale, fence=1)
    assert (refused.value.table_id, refused.value.fence, refused.value.current) == (first, 1, 2)
    assert str(refused.value) == f"table {first}: fencing token 1 is stale, token 2 has written"
    assert seqs(engine, first) == [1, 2] and seqs(engine, second) == [1]
    assert ledger_rows(engine) == 0
    for table in (first, second):
        assert seat_rows(engine, table) == {0: ("Anna", None, False, "a" * 64)}
        assert status_of(engine, table) == "playing"
    assert (store.fence(first), store.fence(second)) == (2, 1)  # table two's not raised
    # The owner with token 2 goes on; the same token writes as often as it likes.
    store.commit_events([event(first, 3), event(second, 2)], fence=2)
    store.commit_events([event(first, 4)], fence=2)
    assert seqs(engine, first) == [1, 2, 3, 4] and seqs(engine, second) == [1, 2]


def test_the_fence_is_raised_first_in_the_events_transaction(engine: Engine, store: Store) -> None:
    table = new_table(store)
    store.commit_events([event(table, 1)])
    sent = statements(engine)
    store.commit_events([event(table, 2)], fence=3)
    assert sent == ["UPDATE tables", "INSERT table_events"]
    assert store.fence(table) == 3


def test_without_a_fence_nothing_changes(engine: Engine, store: Store) -> None:
    """``fence=None``, as the server's writer commits: no fence read or written, the fast
    path of one INSERT kept, and the fence a lease wrote left as it is."""
    table = new_table(store)
    store.commit_events([event(table, 1)], fence=5)
    sent = statements(engine)
    store.commit_events([event(table, 2)])
    store.commit_event(
        table, 3, "action", ACTION, ledger=(), slots=(ANNA,), tokens={0: "a" * 64}, status="playing"
    )
    assert sent == ["INSERT table_events", "INSERT table_events"]
    assert store.fence(table) == 5
    assert seqs(engine, table) == [1, 2, 3]


def test_each_table_of_a_batch_may_have_its_own_token(engine: Engine, store: Store) -> None:
    first, second = new_table(store, "one"), new_table(store, "two")
    store.commit_events([event(first, 1), event(second, 1)], fence={first: 4, second: 9})
    assert (store.fence(first), store.fence(second)) == (4, 9)
    with pytest.raises(StaleOwner):
        store.commit_events([event(first, 2), event(second, 2)], fence={first: 4, second: 8})
    assert seqs(engine, first) == [1] and seqs(engine, second) == [1]
    with pytest.raises(ValueError, match=r"no fencing token for table\(s\)"):
        store.commit_events([event(first, 2), event(second, 2)], fence={first: 4})
    assert seqs(engine, first) == [1]


def test_a_batch_raises_every_tables_fence_in_one_statement(engine: Engine, store: Store) -> None:
    """One round trip for the fences of a whole batch (the writer batches the events of
    tables that queued up): an UPDATE a table made the fenced commit cost half again as much
    CPU as an unfenced one at 200 busy tables."""
    tables = [new_table(store, f"t{n}") for n in range(5)]
    store.commit_events([event(table, 1) for table in tables], fence=1)
    sent = statements(engine)
    tokens = {table: 2 + n for n, table in enumerate(tables)}
    store.commit_events([event(table, 2) for table in tables], fence=tokens)
    assert sent == ["UPDATE tables", "INSERT table_events"]
    assert [store.fence(table) for table in tables] == [2, 3, 4, 5, 6]
    with pytest.raises(StaleOwner) as refused:
        store.commit_events([event(table, 3) for table in tables], fence=tokens | {tables[3]: 4})
    assert (refused.value.table_id, refused.value.fence, refused.value.current) == (tables[3], 4, 5)
    assert [store.fence(table) for table in tables] == [2, 3, 4, 5, 6]
    assert [seqs(engine, table) for table in tables] == [[1, 2]] * 5


def test_claim_raises_the_fence_before_any_write(engine: Engine, store: Store) -> None:
    """A new owner claims the table before it reads the log: the old owner can then write
    nothing, not even an event whose seq is still free."""
    table = new_table(store)
    store.commit_events([event(table, 1)], fence=1)
    store.claim(table, 2)
    assert store.fence(table) == 2
    with pytest.raises(StaleOwner):
        store.commit_events([event(table, 2)], fence=1)
    with pytest.raises(StaleOwner):
        store.claim(table, 1)
    store.claim(table, 2)  # again: no harm
    assert seqs(engine, table) == [1]
    with pytest.raises(KeyError):
        store.claim(table + 1, 1)


def test_bad_tokens_are_refused_before_anything_is_sent(engine: Engine, store: Store) -> None:
    table = new_table(store)
    sent = statements(engine)
    with pytest.raises(ValueError, match="not in 0"):
        store.commit_events([event(table, 1)], fence=-1)
    with pytest.raises(ValueError, match="not in 0"):
        store.commit_events([event(table, 1)], fence=FENCE_MAX + 1)
    with pytest.raises(TypeError, match="is an int"):
        store.commit_events([event(table, 1)], fence=True)
    assert sent == []
    store.commit_events([event(table, 1)], fence=FENCE_MAX)
    assert store.fence(table) == FENCE_MAX


def test_a_failed_fenced_commit_reads_the_seats_again(engine: Engine, store: Store) -> None:
    """After a refusal the store has forgotten what it wrote, as after any failed commit,
    and the next commit brings the seats in line from what the database holds."""
    table = new_table(store)
    store.commit_events([event(table, 1)], fence=2)
    bruno = Slot("Bruno", None)
    with pytest.raises(StaleOwner):
        store.commit_events([event(table, 2, (ANNA, bruno))], fence=1)
    store.commit_events([event(table, 2, (ANNA, bruno))], fence=2)
    assert seat_rows(engine, table)[1] == ("Bruno", None, False, None)
