"""The server's garbage collector (server/collector.py, issue 12): long-lived objects are
frozen after start-up and as events are committed, so that no collection scans every table
at once, and every collection is timed."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from server_fixtures import (
    AppFactory,
    bearer,
    connect,
    create_table,
    hello,
    play_until,
    state_where,
)

from italian_poker.server import collector as collector_module
from italian_poker.server.collector import Collector, PauseTimer


class Ticks:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def collector() -> Iterator[Collector]:
    made = Collector(interval=1.0, clock=Ticks())
    yield made
    made.stop()


def _in_scanned_generations(obj: object) -> bool:
    return any(o is obj for o in gc.get_objects())


def test_start_freezes_what_is_alive_and_stop_unfreezes(collector: Collector) -> None:
    long_lived = [[index] for index in range(100)]
    assert _in_scanned_generations(long_lived)
    collector.start()
    assert not _in_scanned_generations(long_lived)  # no collection scans it any more
    assert collector.stats().frozen >= len(long_lived)
    assert collector.stats().freezes == 1
    collector.stop()
    assert gc.get_freeze_count() == 0
    assert _in_scanned_generations(long_lived)


def test_the_youngest_generation_waits_for_more_objects_while_it_runs(
    collector: Collector,
) -> None:
    before = gc.get_threshold()
    collector.start()
    young, middle, old = gc.get_threshold()
    assert young == max(before[0], collector_module.YOUNG_THRESHOLD)
    assert (middle, old) == before[1:]
    collector.stop()
    assert gc.get_threshold() == before


def test_a_deal_that_ends_freezes_at_most_once_an_interval(collector: Collector) -> None:
    clock = collector.clock
    assert isinstance(clock, Ticks)
    collector.start()
    kept = [[1], [2]]
    collector.freeze_soon()  # the start-up froze under a second ago
    assert collector.stats().freezes == 1
    assert _in_scanned_generations(kept)
    clock.now += 1.0
    collector.freeze_soon()
    assert collector.stats().freezes == 2
    assert not _in_scanned_generations(kept)
    collector.freeze_soon()
    assert collector.stats().freezes == 2


def test_a_freeze_never_walks_the_frozen_objects(
    collector: Collector, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Counting the permanent generation walks every frozen object (30-50 ms a freeze at 600
    busy tables, unseen by the collection timer): a freeze does not count them, only
    :meth:`Collector.stats` and the stop do."""
    counted: list[int] = []
    real = gc.get_freeze_count

    def counting() -> int:
        counted.append(1)
        return real()

    monkeypatch.setattr(gc, "get_freeze_count", counting)
    collector.start()
    clock = collector.clock
    assert isinstance(clock, Ticks)
    for _ in range(3):
        clock.now += 1.0
        collector.freeze_soon()
    assert counted == []  # four freezes (the start's and three more), no count
    stats = collector.stats()
    assert stats.freezes == 4 and stats.frozen > 0 and len(counted) == 1
    collector.stop()
    assert len(counted) == 2  # the count at the stop, kept for stats() afterwards
    assert collector.stats().frozen > 0 and len(counted) == 2


def test_cyclic_garbage_is_collected_before_a_freeze(collector: Collector) -> None:
    class Node:
        other: object = None

    first, second = Node(), Node()
    first.other, second.other = second, first
    count = sum(1 for o in gc.get_objects() if type(o) is Node)
    del first, second
    collector.start()
    assert sum(1 for o in gc.get_objects() if type(o) is Node) == count - 2
    assert collector.stats().frozen > 0


def test_every_collection_is_timed(collector: Collector) -> None:
    collector.start()
    before = collector.stats()
    gc.collect(0)
    gc.collect()
    after = collector.stats()
    assert after.collections >= before.collections + 2
    assert after.longest_pause > 0
    assert after.total_pause >= after.longest_pause
    collector.stop()
    gc.collect()
    assert collector.stats().collections == after.collections  # no longer timed


def test_slow_collections_kept_are_the_newest_few(monkeypatch: pytest.MonkeyPatch) -> None:
    """A server runs for weeks: the slow collections it keeps are bounded, newest last."""
    monkeypatch.setattr(collector_module, "SLOW_KEPT", 3)
    timer = PauseTimer(slow=0.0)
    timer.start()
    try:
        for _ in range(5):
            gc.collect()
    finally:
        timer.stop()
    assert timer.collections >= 5
    assert len(timer.slow_pauses) == 3
    ended = [at for _, _, at, _ in timer.slow_pauses]
    assert ended == sorted(ended)


def test_the_server_freezes_after_start_up_and_after_deals(make_app: AppFactory) -> None:
    app = make_app(collector_interval=0.0)
    assert gc.get_freeze_count() == 0
    with TestClient(app) as client:
        server = app.state.server
        assert gc.get_freeze_count() > 0
        freezes = server.collector.stats().freezes
        table = create_table(client, seats=2)
        host = bearer(table["host_token"])
        bot = client.post(f"/api/tables/{table['invite']}/bots", json={}, headers=host)
        assert bot.status_code == 201, bot.text
        with connect(client, table["invite"], table["player_token"]) as ws:
            state = hello(ws, table["player_token"])
            started = client.post(f"/api/tables/{table['invite']}/start", headers=host)
            assert started.status_code == 200, started.text
            play_until({0: ws}, {0: state}, lambda m: (m["hand"] or 0) >= 3)
        assert server.collector.stats().freezes > freezes
    assert gc.get_freeze_count() == 0  # unfrozen when the server stopped


def test_the_server_freezes_while_a_deal_goes_on(make_app: AppFactory) -> None:
    """Events freeze too, not only the end of a deal: at a server whose many tables have just
    started, no deal ends for seconds, and one of Python's own full collections used to
    scan all they made (200-250 ms at 600 tables)."""
    app = make_app(collector_interval=0.0)
    with TestClient(app) as client:
        server = app.state.server
        table = create_table(client, seats=2)
        host = bearer(table["host_token"])
        client.post(f"/api/tables/{table['invite']}/bots", json={}, headers=host)
        with connect(client, table["invite"], table["player_token"]) as ws:
            hello(ws, table["player_token"])
            freezes = server.collector.stats().freezes
            client.post(f"/api/tables/{table['invite']}/start", headers=host)
            # The deal waits for the player: it has not ended, and yet its events froze.
            state = state_where(ws, lambda m: m["hand"] is not None and m["state"]["legal"])
            assert state["state"]["result"] is None
            assert server.collector.stats().freezes > freezes


def test_finished_deals_leave_no_cycles_of_the_projects_objects(make_app: AppFactory) -> None:
    """Frozen objects in a reference cycle are never freed while the server runs: the
    tables, matches, deals and their records make no cycles, so that freezing them in the
    middle of a deal leaks nothing once they are dropped."""
    app = make_app(collector_interval=0.0, rate_per_second=1e6, rate_burst=10**6)
    with TestClient(app) as client:
        table = create_table(client, seats=2, stack=10_000)
        host = bearer(table["host_token"])
        client.post(f"/api/tables/{table['invite']}/bots", json={}, headers=host)
        with connect(client, table["invite"], table["player_token"]) as ws:
            state = hello(ws, table["player_token"])
            client.post(f"/api/tables/{table['invite']}/start", headers=host)
            play_until({0: ws}, {0: state}, lambda m: (m["hand"] or 0) >= 8)
        gc.unfreeze()
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            gc.collect()
            ours = sorted({type(o).__qualname__ for o in gc.garbage if _ours(type(o).__module__)})
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
    assert ours == []


def _ours(module: object) -> bool:
    return isinstance(module, str) and module.startswith("italian_poker")


def test_without_an_interval_the_server_leaves_the_collector_alone(
    make_app: AppFactory,
) -> None:
    app = make_app()
    with TestClient(app):
        assert app.state.server.collector is None
        assert gc.get_freeze_count() == 0
