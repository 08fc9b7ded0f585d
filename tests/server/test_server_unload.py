"""Bounded memory: a table nobody is at is unloaded and rebuilt from its log, exactly
(mid-deal and mid-turn included: the turn keeps the time it had left), a process keeps at
most ``max_live_tables`` live (the least recently used idle table leaves first; with none
idle a new table is a 503 ``busy``), and a table nobody has joined or played for
``expire_days`` is expired by the sweep: its game deleted, its links a 410, its ledger and
histories kept for the days its host chose (registry.py, store.py).

The tests move a fake clock and call the sweep themselves (``sweep_seconds=None``)."""

from __future__ import annotations

import functools
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from server_fixtures import (
    AppFactory,
    FakeClock,
    bearer,
    connect,
    create_table,
    hello,
    join,
    wait_until,
)
from sqlalchemy import func, select

from italian_poker.engine.history import loads
from italian_poker.server.models import TableEventRow
from italian_poker.server.registry import Server
from italian_poker.server.rows import DAY
from italian_poker.server.table_runtime import TableRuntime
from italian_poker.table.defaults import default_action

IDLE = 60.0
EXPIRE_DAYS = 30.0
TURN = 30
SLACK = 2.0
HELLO = 6.0
"""Past the hello timeout (5 s): a table asked for that long ago may be unloaded."""
"""Seconds of real time a test may take between two readings of the clock."""


def server_of(client: TestClient) -> Server:
    """The application's :class:`Server`."""
    app = client.app
    assert isinstance(app, FastAPI)
    server: Server = app.state.server
    return server


def unloading(make_app: AppFactory, clock: FakeClock, **changes: Any) -> FastAPI:
    """An app on the fake clock whose sweep the test runs, with long grace periods."""
    settings: dict[str, Any] = {
        "clock": clock,
        "sleep": clock.sleep,
        "sweep_seconds": None,
        "idle_unload_seconds": IDLE,
        "expire_days": EXPIRE_DAYS,
        # No seat is sat out by its grace period while the test moves the clock (unloading
        # stops the grace periods; a restored table starts them again).
        "reconnect_grace_seconds": 100 * IDLE,
    }
    return make_app(**(settings | changes))


def sweep(client: TestClient) -> None:
    """One sweep of the server, as its periodic task runs it."""
    client.portal.call(server_of(client).sweep)  # type: ignore[union-attr]


def live(client: TestClient, invite: str) -> TableRuntime:
    """The live table of ``invite``."""
    runtime = server_of(client).here(invite)
    assert runtime is not None, "the table is not live"
    return runtime


def two_players(client: TestClient, **body: Any) -> tuple[dict[str, Any], str]:
    """Anna (the host, seat 0) and Bruno (seat 1) at a started table; the table and
    Bruno's token."""
    table = create_table(client, **body)
    other = join(client, table["invite"], "Bruno")
    started = client.post(
        f"/api/tables/{table['invite']}/start", headers=bearer(table["host_token"])
    )
    assert started.status_code == 200, started.text
    runtime = live(client, table["invite"])
    wait_until(lambda: runtime.state.actor_slot() is not None, "the first deal")
    return table, other["player_token"]


def move(client: TestClient, runtime: TableRuntime) -> None:
    """The seat to act plays the table's default action (check, pass, stand pat...)."""
    state = runtime.state
    actor = state.actor_slot()
    assert actor is not None
    action = default_action(state.legal_actions())
    play = functools.partial(runtime.play.act, actor, state.hand, state.seq, action)
    client.portal.call(play)  # type: ignore[union-attr]


def next_deal(client: TestClient, runtime: TableRuntime) -> None:
    """Play default actions until the next deal is dealt."""
    hand = runtime.state.hand
    while True:
        wait_until(
            lambda: runtime.state.hand != hand or runtime.state.actor_slot() is not None,
            "a seat to act, or the next deal",
        )
        if runtime.state.hand != hand:
            return
        move(client, runtime)


def picture(runtime: TableRuntime) -> dict[str, Any]:
    """What the table is: every seat's view, the legal actions, the stacks and banks, the
    pot, the log."""
    state = runtime.state
    seats = range(len(state.slots))
    return {
        "seq": state.seq,
        "status": state.status,
        "hand": state.hand,
        "in_deal": state.in_deal,
        "actor": state.actor_slot(),
        "legal": state.legal_actions(),
        "views": [state.view(seat) for seat in seats],
        "stacks": [None if state.slots[s] is None else state.stack(s) for s in seats],
        "banks": [None if state.slots[s] is None else state.bank(s) for s in seats],
        "slots": list(state.slots),
        "pot": state.pot(),
        "log": [(said.seq, said.line.as_json()) for said in state.log],
        "tokens": dict(runtime.tokens),
    }


@pytest.mark.every_database
def test_a_table_unloaded_mid_turn_comes_back_exactly_and_play_goes_on(
    make_app: AppFactory,
) -> None:
    clock = FakeClock()
    with TestClient(unloading(make_app, clock)) as client:
        table, _ = two_players(client, turn_seconds=TURN, time_bank_seconds=60)
        invite = table["invite"]
        runtime = live(client, invite)
        for _ in range(2):
            move(client, runtime)
        assert runtime.state.in_deal
        actor = runtime.state.actor_slot()
        assert actor is not None
        clock.offset += 12  # the player to act has thought 12 s of their 30
        before = picture(runtime)
        left = runtime.turn_clock.left(actor)
        assert left == pytest.approx(TURN + 60 - 12, abs=SLACK)
        sweep(client)
        assert server_of(client).here(invite) is runtime  # 12 s: not idle long enough
        clock.offset += IDLE
        # The turn timer does not keep a table: it waits for a person.
        assert server_of(client).idle(runtime)
        # Nobody has been at it for IDLE seconds: unloaded, its timer kept with 12 + IDLE
        # seconds run.
        sweep(client)
        assert server_of(client).here(invite) is None
        assert not runtime.tasks
        clock.offset += 3 * 3600  # three hours unloaded: not counted
        assert client.get(f"/api/tables/{invite}").status_code == 200
        restored = live(client, invite)
        assert restored is not runtime
        assert picture(restored) == before
        assert restored.turn_clock.left(actor) == pytest.approx(left - IDLE, abs=SLACK)
        seq, hand = restored.state.seq, restored.state.hand
        next_deal(client, restored)
        assert restored.state.hand == hand + 1
        assert restored.state.seq > seq + 1
        with connect(client, invite, table["player_token"]) as ws:
            state = hello(ws, table["player_token"])
        assert state["seq"] == restored.state.seq


def test_a_table_unloaded_without_a_timer_and_one_unloaded_twice_come_back_exactly(
    make_app: AppFactory,
) -> None:
    clock = FakeClock()
    with TestClient(unloading(make_app, clock)) as client:
        table, token = two_players(client, turn_seconds=None)
        invite = table["invite"]
        runtime = live(client, invite)
        move(client, runtime)
        for _ in range(2):
            before = picture(runtime)
            clock.offset += IDLE + 1
            sweep(client)
            assert server_of(client).here(invite) is None
            with connect(client, invite, token) as ws:  # a connection brings it back
                assert hello(ws, token)["seq"] == before["seq"]
            runtime = live(client, invite)
            assert picture(runtime) == before
            move(client, runtime)


def test_a_connected_table_or_one_whose_bots_play_stays_live(make_app: AppFactory) -> None:
    clock = FakeClock()
    with TestClient(unloading(make_app, clock, bot_delay_seconds=100 * IDLE)) as client:
        table = create_table(client)
        invite = table["invite"]
        with connect(client, invite, table["player_token"]) as ws:
            hello(ws, table["player_token"])
            clock.offset += 10 * IDLE
            sweep(client)
            assert server_of(client).here(invite) is not None
        bots = create_table(client)
        for _ in range(2):
            added = client.post(
                f"/api/tables/{bots['invite']}/bots",
                json={"level": "random"},
                headers=bearer(bots["host_token"]),
            )
            assert added.status_code == 201, added.text
        started = client.post(
            f"/api/tables/{bots['invite']}/start", headers=bearer(bots["host_token"])
        )
        assert started.status_code == 200, started.text
        runtime = live(client, bots["invite"])
        wait_until(lambda: runtime.scheduler.running(), "a bot's move pending")
        clock.offset += IDLE + 1
        sweep(client)
        assert server_of(client).here(bots["invite"]) is runtime


def test_at_the_cap_the_least_recently_used_idle_table_leaves_and_busy_tables_refuse(
    make_app: AppFactory,
) -> None:
    clock = FakeClock()
    app = unloading(make_app, clock, max_live_tables=3)
    with TestClient(app) as client:
        server = server_of(client)
        first, second, third = (create_table(client) for _ in range(3))
        clock.offset += HELLO
        assert client.get(f"/api/tables/{first['invite']}").status_code == 200  # used again
        clock.offset += HELLO
        fourth = create_table(client)
        clock.offset += HELLO
        assert server.here(second["invite"]) is None  # the least recently used
        assert {r.id for r in server.tables.values()} == {
            live(client, t["invite"]).id for t in (first, third, fourth)
        }
        tables = (first, third, fourth)
        sockets = [connect(client, t["invite"], t["player_token"]) for t in tables]
        for ws, t in zip(sockets, tables, strict=True):
            ws.__enter__()
            hello(ws, t["player_token"])
        refused = client.post("/api/tables", json={"name": "Full", "host_nickname": "Anna"})
        assert refused.status_code == 503
        assert refused.json()["error"] == "busy"
        # Nor is the second table brought back while every live one is in use.
        assert client.get(f"/api/tables/{second['invite']}").status_code == 503
        assert len(server.tables) == 3
        sockets[0].__exit__(None, None, None)
        clock.offset += HELLO
        wait_until(lambda: server.idle(live(client, first["invite"])), "the first idle")
        assert client.get(f"/api/tables/{second['invite']}").status_code == 200
        assert server.here(first["invite"]) is None
        for ws in sockets[1:]:
            ws.__exit__(None, None, None)
    # A restarted server rebuilds the tables last used, as many as it may keep live.
    with TestClient(unloading(make_app, clock, max_live_tables=2)) as client:
        server = server_of(client)
        assert len(server.tables) == 2
        assert server.here(first["invite"]) is None
        clock.offset += HELLO
        assert client.get(f"/api/tables/{first['invite']}").status_code == 200
        assert len(server.tables) == 2


def finished_deal(client: TestClient, keep_days: int | None) -> tuple[dict[str, Any], int]:
    """A table (its host's ``keep_days``) with a finished deal, the next under way; the
    table and its id."""
    body: dict[str, Any] = {"watch": True}
    if keep_days is not None:
        body["keep_days"] = keep_days
    table, _ = two_players(client, **body)
    runtime = live(client, table["invite"])
    next_deal(client, runtime)
    return table, runtime.id


def count_events(server: Server, table_id: int) -> int:
    """The table's events in the database."""
    with server.engine.connect() as connection:
        found = connection.execute(
            select(func.count()).where(TableEventRow.table_id == table_id)
        ).scalar_one()
    return int(found)


@pytest.mark.every_database
def test_an_abandoned_table_expires_its_ledger_and_histories_kept_as_its_host_chose(
    make_app: AppFactory,
) -> None:
    clock = FakeClock()
    app = unloading(make_app, clock, keep_days=10, reconnect_grace_seconds=30.0)
    with TestClient(app) as client:
        server = server_of(client)
        kept, kept_id = finished_deal(client, 7)
        dropped, dropped_id = finished_deal(client, 0)
        default, default_id = finished_deal(client, None)
        # An hour later nobody came back: the seats sat out, the deals played out by
        # themselves; the tables are idle, then unloaded (not yet expired).
        clock.offset += 3600
        runtimes = list(server.tables.values())
        wait_until(lambda: clock.settled() and all(server.idle(r) for r in runtimes), "idle tables")
        match = next(r for r in runtimes if r.id == kept_id).state.match
        assert match is not None
        hands = [deal.number for deal in match.completed]
        sweep(client)
        assert not server.tables
        ledger = server.store.ledger(kept_id)
        assert ledger and hands
        clock.offset += EXPIRE_DAYS * DAY - 2 * 3600
        sweep(client)
        assert count_events(server, kept_id) > 0
        clock.offset += 3600 + 1
        sweep(client)
        for table in (kept, dropped, default):
            invite = table["invite"]
            answer = client.get(f"/api/tables/{invite}")
            assert answer.status_code == 410
            assert answer.json()["error"] == "expired"
            assert client.get(f"/t/{invite}").status_code == 410
            with connect(client, invite, table["player_token"]) as ws:
                assert ws.receive_json()["code"] == "expired"
            assert client.get(f"/w/{table['watch']}").status_code == 410
        stats = client.post(
            "/api/stats",
            json={"tables": [{"invite": kept["invite"], "token": kept["player_token"]}]},
        )
        assert stats.status_code == 200, stats.text
        assert stats.json()["tables"][0]["error"] == "expired"
        for table_id in (kept_id, dropped_id, default_id):
            assert count_events(server, table_id) == 0
        assert not server.tables
        assert server.store.ledger(kept_id) == ledger
        assert server.store.ledger(dropped_id) == []
        assert server.store.ledger(default_id) != []
        histories = server.store.lifetimes.archived_histories(kept_id)
        assert [n for n, _ in histories] == hands
        assert [loads(text).number for _, text in histories] == hands
        assert server.store.lifetimes.archived_histories(dropped_id) == []
        clock.offset += 7 * DAY + 1
        sweep(client)  # the host's 7 days are over; the server's 10 are not
        assert server.store.ledger(kept_id) == []
        assert server.store.lifetimes.archived_histories(kept_id) == []
        assert server.store.ledger(default_id) != []
        clock.offset += 3 * DAY
        sweep(client)
        assert server.store.ledger(default_id) == []
        assert client.get(f"/api/tables/{kept['invite']}").status_code == 410


def test_a_table_in_use_does_not_expire(make_app: AppFactory) -> None:
    clock = FakeClock()
    with TestClient(unloading(make_app, clock)) as client:
        table = create_table(client)
        invite = table["invite"]
        clock.offset += EXPIRE_DAYS * DAY - 60
        assert client.get(f"/api/tables/{invite}").status_code == 200
        clock.offset += IDLE + 1
        sweep(client)  # unloaded: last used a minute ago
        assert server_of(client).here(invite) is None
        clock.offset += 3600
        sweep(client)
        assert client.get(f"/api/tables/{invite}").status_code == 200


def test_many_tables_never_exceed_the_cap(make_app: AppFactory) -> None:
    clock = FakeClock()
    cap, made = 20, 300
    with TestClient(unloading(make_app, clock, max_live_tables=cap)) as client:
        server = server_of(client)
        invites = []
        for _ in range(made):
            invites.append(create_table(client)["invite"])
            clock.offset += HELLO  # a table just asked for stays live while its host connects
            assert len(server.tables) <= cap
        assert len(server.tables) == cap
        clock.offset += HELLO
        assert client.get(f"/api/tables/{invites[0]}").status_code == 200
        assert len(server.tables) == cap
