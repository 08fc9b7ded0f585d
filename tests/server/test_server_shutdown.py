"""A server's shutdown waits for what runs in the background at most a bounded time, and
says what did not stop (server/shutdown.py). CI once hung 25 minutes in a server's
shutdown: a task that does not end when cancelled must not hold the process for ever."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Awaitable, Iterator
from pathlib import Path
from typing import cast

import pytest
from fastapi.testclient import TestClient
from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from server_fixtures import bot_factory, create_table

from italian_poker.server import shutdown
from italian_poker.server.app import create_app
from italian_poker.server.bus import Bus
from italian_poker.server.bus_seal import Seals
from italian_poker.server.cluster import Cluster
from italian_poker.server.database import make_engine
from italian_poker.server.registry import Server
from italian_poker.server.settings import ServerSettings
from italian_poker.server.shutdown import Overran, cancel_and_wait, join_threads, within
from italian_poker.server.store import Store

LIMIT = 0.2


@pytest.fixture(autouse=True)
def quick_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutdown, "STOP_SECONDS", LIMIT)


async def stubborn(released: threading.Event) -> None:
    """A task that swallows its cancellation and waits on (the defect shutdown survives),
    until ``released`` (looked at every few hundredths of a second)."""
    while not released.is_set():
        try:
            await asyncio.sleep(0.02)
        except asyncio.CancelledError:
            continue


async def failing() -> None:
    raise ValueError("already broken")


async def test_cancel_and_wait_gives_up_on_a_task_that_will_not_stop(
    caplog: pytest.LogCaptureFixture,
) -> None:
    loop = asyncio.get_running_loop()
    released = threading.Event()
    held = loop.create_task(stubborn(released), name="held")
    polite = loop.create_task(asyncio.sleep(60), name="polite")
    broken = loop.create_task(failing(), name="broken")
    await asyncio.sleep(0)
    began = time.monotonic()
    with caplog.at_level(logging.WARNING, logger=shutdown.__name__):
        await cancel_and_wait([held, polite, broken], "the test")
    assert time.monotonic() - began < LIMIT + 1.0
    assert polite.cancelled() and broken.done() and not held.done()
    [record] = caplog.records
    assert "the test: task held did not stop" in record.getMessage()
    assert "in stubborn" in record.getMessage()  # where it was waiting
    released.set()
    await held


async def test_within_returns_the_result_or_raises_overran(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def answer() -> int:
        await asyncio.sleep(0)
        return 42

    assert await within(answer(), "a quick step") == 42
    with (
        caplog.at_level(logging.WARNING, logger=shutdown.__name__),
        pytest.raises(Overran, match=r"a slow step did not finish within 0\.2 s"),
    ):
        await within(asyncio.sleep(60), "a slow step")
    assert "a slow step did not finish" in caplog.records[0].getMessage()


def test_join_threads_gives_up_on_a_thread_that_does_not_end(
    caplog: pytest.LogCaptureFixture,
) -> None:
    release = threading.Event()
    busy = threading.Thread(target=release.wait, name="busy", daemon=True)
    never_started = threading.Thread(target=release.wait, name="never")
    busy.start()
    try:
        with caplog.at_level(logging.WARNING, logger=shutdown.__name__):
            join_threads([busy, never_started], "the writer")
        assert busy.is_alive()
        assert [r.getMessage() for r in caplog.records] == [
            "the writer: thread busy did not end within 0.2 s; going on without it"
        ]
    finally:
        release.set()
        busy.join()


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = ServerSettings(
        database_url=f"sqlite:///{tmp_path / 'server.sqlite3'}",
        bot_delay_seconds=0.0,
        next_deal_seconds=0.0,
        default_turn_seconds=None,
        seed=5,
        collector_interval=None,
    )
    yield TestClient(create_app(settings, bot_factory))


def test_a_server_stops_although_a_tables_task_ignores_its_cancellation(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    """Before server/shutdown.py the shutdown (the application's lifespan) awaited every
    task of a table to its end: one that ignored the cancellation held it for ever. Now it
    goes on after saying which task did not stop; the task is released then, so that the
    event loop itself can end (it waits for every task left, as ``asyncio.run`` does)."""
    client.__enter__()
    invite = create_table(client)["invite"]
    server: Server = client.app.state.server  # type: ignore[attr-defined]
    runtime = server.here(invite)
    assert runtime is not None
    released = threading.Event()

    async def spawn() -> None:
        runtime._spawn(stubborn(released))

    client.portal.call(spawn)  # type: ignore[union-attr]
    stopped = threading.Thread(target=client.__exit__, args=(None, None, None), daemon=True)
    with caplog.at_level(logging.WARNING, logger=shutdown.__name__):
        stopped.start()
        try:
            deadline = time.monotonic() + 10
            while not any("in stubborn" in r.getMessage() for r in caplog.records):
                assert time.monotonic() < deadline, "the shutdown waits for the task for ever"
                time.sleep(0.02)
        finally:
            released.set()
        stopped.join(30)
    assert not stopped.is_alive(), "the server's shutdown hung"
    [record] = caplog.records
    assert record.getMessage().startswith(f"table {runtime.id}: task ")
    assert server.writer.stopped  # the shutdown went on past the table


async def lost_cancellation() -> None:
    """Wait, and lose a cancellation on the way (as a library awaited may)."""
    try:
        await asyncio.sleep(10)
    except asyncio.CancelledError:
        await asyncio.sleep(0.05)


async def finishes(coroutine: Awaitable[None], seconds: float = 3.0) -> bool:
    """Whether ``coroutine`` ends within ``seconds`` (left running otherwise)."""
    task = asyncio.ensure_future(coroutine)
    done, _ = await asyncio.wait([task], timeout=seconds)
    return task in done


async def test_the_tick_ends_on_a_pause_although_its_cancellation_was_lost(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """CI's hang (stop 34): the cluster's tick lost the pause's cancellation inside a step
    and went on ticking, so the shutdown that awaited it never ended."""
    settings = ServerSettings(
        database_url="postgresql://nobody@/nowhere",
        redis_url="redis://localhost:1/0",
        bus_secret="a-secret-of-16-characters-or-more",
    )
    cluster = Cluster(settings, Store(make_engine("sqlite://")))

    ticking = asyncio.Event()

    async def tick(server: object, *, first: bool = False, renew: bool = True) -> None:
        ticking.set()
        await lost_cancellation()

    monkeypatch.setattr(cluster, "tick", tick)
    cluster._loop = asyncio.ensure_future(cluster._run(cast(Server, None)))
    await asyncio.wait_for(ticking.wait(), 30)  # within a tick now
    with caplog.at_level(logging.WARNING, logger=shutdown.__name__):
        assert await finishes(cluster.pause()), "the pause waits for the tick for ever"
    assert cluster._loop is None
    assert not [r for r in caplog.records if r.name == shutdown.__name__]  # ended by the flag


async def test_the_buss_reader_ends_on_stop_although_its_cancellation_was_lost(
    caplog: pytest.LogCaptureFixture,
) -> None:
    class Subscription:
        """A subscription whose read loses a cancellation."""

        async def get_message(self, timeout: float) -> None:
            await lost_cancellation()

        async def aclose(self) -> None:
            return None

    seals = Seals("a-secret-of-16-characters-or-more", "here")
    bus = Bus(Redis.from_url("redis://localhost:1/0"), "here", seals)
    bus._pubsub = cast(PubSub, Subscription())
    bus._tasks = [asyncio.ensure_future(bus._read()), asyncio.ensure_future(bus._publish())]
    await asyncio.sleep(0.05)
    with caplog.at_level(logging.WARNING, logger=shutdown.__name__):
        assert await finishes(bus.stop()), "the bus's stop waits for its reader for ever"
    assert all(task.done() for task in bus._tasks)
    assert not [r for r in caplog.records if r.name == shutdown.__name__]


async def test_within_cancels_its_step_when_the_caller_is_cancelled() -> None:
    step = asyncio.ensure_future(asyncio.sleep(60))
    caller = asyncio.ensure_future(within(step, "a step", seconds=30))
    await asyncio.sleep(0.01)
    caller.cancel()
    with pytest.raises(asyncio.CancelledError):
        await caller
    await asyncio.sleep(0)
    assert step.cancelled()
