"""The event writer (server/writer.py, issue 12): events are committed off the event loop,
several tables' events in one transaction when they queue up (a group commit), and a batch
that fails is committed event by event so that only the table at fault is told."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from sqlalchemy import Engine, func, select

from italian_poker.server import writer as writer_module
from italian_poker.server.database import make_engine
from italian_poker.server.models import TableEventRow
from italian_poker.server.seats import Slot
from italian_poker.server.store import EventWrite, NewTable, Store
from italian_poker.server.writer import EventWriter

pytestmark = pytest.mark.every_database

ACTION = {"seat": 0, "kind": "check", "amount": None, "cards": [], "split": False}


def _tables(store: Store, count: int) -> list[int]:
    return [
        store.create_table(str(n).rjust(64, "0"), NewTable(f"t{n}", {}, {}, "h" * 64))
        for n in range(count)
    ]


def _event(table_id: int, seq: int = 1) -> EventWrite:
    slots = (Slot("Anna", None, player=1),)
    return EventWrite(table_id, seq, "action", ACTION, (), slots, {0: "t" * 64}, "playing")


def _events_of(engine: Engine, table_id: int) -> list[int]:
    with engine.connect() as connection:
        rows = connection.execute(
            select(TableEventRow.seq)
            .where(TableEventRow.table_id == table_id)
            .order_by(TableEventRow.seq)
        )
        return [row[0] for row in rows]


class HeldStore(Store):
    """A store whose first commit waits until the test lets it go."""

    def __init__(self, engine: Engine) -> None:
        super().__init__(engine)
        self.entered, self.release = threading.Event(), threading.Event()
        self.batches: list[int] = []

    def commit_events(self, events: Any, fence: Any = None) -> None:
        if not self.entered.is_set():
            self.entered.set()
            self.release.wait(10)
        self.batches.append(len(events))
        super().commit_events(events, fence)


def _held(engine: Engine, tables: int) -> tuple[HeldStore, list[int], EventWriter]:
    """A held store with ``tables`` tables, and a writer of one thread on it."""
    store = HeldStore(engine)
    made = _tables(store, tables)
    writer = EventWriter(store, threads=1)
    writer.start()
    return store, made, writer


def test_events_that_queue_up_are_committed_together(engine: Engine) -> None:
    store, tables, writer = _held(engine, 21)

    async def play() -> None:
        first = asyncio.ensure_future(writer.write(_event(tables[0])))
        await asyncio.get_running_loop().run_in_executor(None, store.entered.wait, 5)
        rest = [asyncio.ensure_future(writer.write(_event(t))) for t in tables[1:]]
        await asyncio.sleep(0.05)
        assert not first.done() and not any(r.done() for r in rest)  # nothing durable yet
        store.release.set()
        await asyncio.gather(first, *rest)

    asyncio.run(play())
    writer.stop()
    assert store.batches == [1, 20]
    assert (writer.commits, writer.events) == (2, 21)
    assert all(_events_of(engine, t) == [1] for t in tables)


def test_slow_commits_are_timed_and_kept(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """The writer times its transactions (for the benchmark): a held one is the longest and
    is kept with its events; the fast ones are not kept."""
    monkeypatch.setattr(writer_module, "SLOW_COMMIT", 0.04)
    store, tables, writer = _held(engine, 3)

    async def play() -> None:
        first = asyncio.ensure_future(writer.write(_event(tables[0])))
        await asyncio.get_running_loop().run_in_executor(None, store.entered.wait, 5)
        rest = [asyncio.ensure_future(writer.write(_event(t))) for t in tables[1:]]
        await asyncio.sleep(0.1)
        store.release.set()
        await asyncio.gather(first, *rest)

    asyncio.run(play())
    writer.stop()
    assert writer.longest_commit >= 0.1
    assert [(events, seconds >= 0.1) for seconds, _, events in writer.slow_commits] == [(1, True)]


def test_a_failing_event_fails_its_own_table_only(engine: Engine) -> None:
    store, tables, writer = _held(engine, 4)

    async def play() -> list[Any]:
        first = asyncio.ensure_future(writer.write(_event(tables[0])))
        await asyncio.get_running_loop().run_in_executor(None, store.entered.wait, 5)
        # Table 0 has its seq 1 already: that event cannot be written again (a duplicate).
        again = [writer.write(_event(tables[0]))]
        others = [writer.write(_event(t)) for t in tables[1:]]
        gathered = asyncio.gather(*again, *others, return_exceptions=True)
        await asyncio.sleep(0.05)
        store.release.set()
        await first
        return list(await gathered)

    results = asyncio.run(play())
    writer.stop()
    assert isinstance(results[0], Exception)
    assert results[1:] == [None, None, None]
    assert all(_events_of(engine, t) == [1] for t in tables)


def test_stop_commits_what_is_queued(engine: Engine) -> None:
    store = Store(engine)
    tables = _tables(store, 5)
    writer = EventWriter(store, threads=2)
    writer.start()

    async def play() -> None:
        await asyncio.gather(*(writer.write(_event(t)) for t in tables))

    asyncio.run(play())
    writer.stop()
    with engine.connect() as connection:
        assert connection.execute(select(func.count()).select_from(TableEventRow)).scalar() == 5


def test_a_writer_needs_a_thread() -> None:
    with pytest.raises(ValueError, match="a thread"):
        EventWriter(Store(make_engine("sqlite://")), threads=0)


def test_the_first_write_starts_the_writer_and_none_is_taken_once_it_stopped(
    engine: Engine,
) -> None:
    store = Store(engine)
    table = _tables(store, 1)[0]
    writer = EventWriter(store, threads=1)
    asyncio.run(writer.write(_event(table)))
    writer.stop()
    with pytest.raises(RuntimeError, match="stopped"):
        asyncio.run(writer.write(_event(table, 2)))
    assert _events_of(engine, table) == [1]
