"""Database writes off the event loop (issue 12): each table's events are committed on the
database's threads, in order, before anyone is told; a slow commit at one table holds up
neither the event loop nor another table."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

from fastapi.testclient import TestClient
from server_fixtures import (
    AppFactory,
    act,
    bearer,
    connect,
    create_table,
    hello,
    join,
    next_message,
    passive_action,
    state_where,
)

from italian_poker.server.store import EventWrite, Store


def test_a_slow_commit_at_one_table_holds_up_no_other_table(make_app: AppFactory) -> None:
    app = make_app(database_threads=2)
    with TestClient(app) as client:
        slow = create_table(client, seats=3)
        fast = create_table(client, seats=3)
        server = app.state.server
        slow_id = server.here(slow["invite"]).id
        entered, release, left = threading.Event(), threading.Event(), threading.Event()
        store: Store = server.store
        commit_events = store.commit_events

        def slow_commit(events: Sequence[EventWrite]) -> None:
            if any(event.table_id == slow_id for event in events):
                entered.set()
                release.wait(60)
                left.set()
            commit_events(events)

        store.commit_events = slow_commit  # type: ignore[method-assign]
        with ThreadPoolExecutor(1) as other:
            waiting = other.submit(join, client, slow["invite"], "Bruno")
            assert entered.wait(30)
            # The loop answers meanwhile: the slow table's lobby, and a seat at another table,
            # while the slow commit still waits.
            assert client.get(f"/api/tables/{slow['invite']}").status_code == 200
            assert join(client, fast["invite"], "Carla")["seat"] == 1
            assert not left.is_set()
            assert not waiting.done()  # the seat is not given before it is written
            release.set()
            assert waiting.result(5)["seat"] == 1
        lobby = client.get(f"/api/tables/{slow['invite']}").json()
        assert lobby["seats"][1]["nickname"] == "Bruno"


def test_a_commit_that_fails_leaves_the_table_as_its_log_has_it(make_app: AppFactory) -> None:
    app = make_app(database_threads=2)
    with TestClient(app, raise_server_exceptions=False) as client:
        table = create_table(client, seats=3)
        server = app.state.server
        store: Store = server.store

        def failing(_events: Sequence[EventWrite]) -> None:
            raise OSError("disk full")

        commit_events = store.commit_events
        store.commit_events = failing  # type: ignore[method-assign]
        refused = client.post(f"/api/tables/{table['invite']}/seats", json={"nickname": "Bruno"})
        assert refused.status_code == 503
        assert refused.json() == {
            "error": "not_saved",
            "message": "the server could not save this, so nothing changed: try again",
        }
        store.commit_events = commit_events  # type: ignore[method-assign]
        lobby = client.get(f"/api/tables/{table['invite']}").json()
        assert lobby["seats"][1]["nickname"] is None
        assert join(client, table["invite"], "Bruno")["seat"] == 1


def test_an_action_that_cannot_be_saved_is_refused_and_the_connection_stays(
    make_app: AppFactory,
) -> None:
    """Before, the commit's exception ended the WebSocket; now the player is told nothing
    changed, and the same action goes through once the database writes again."""
    app = make_app(database_threads=2)
    with TestClient(app) as client:
        table = create_table(client, seats=2)
        host = bearer(table["host_token"])
        client.post(f"/api/tables/{table['invite']}/bots", json={}, headers=host)
        store: Store = app.state.server.store
        with connect(client, table["invite"], table["player_token"]) as ws:
            state = hello(ws, table["player_token"])
            client.post(f"/api/tables/{table['invite']}/start", headers=host)
            state = state_where(ws, lambda m: m["state"]["to_act"] == m["state"]["you"])
            commit_events = store.commit_events

            def failing(_events: Sequence[EventWrite]) -> None:
                raise OSError("disk full")

            store.commit_events = failing  # type: ignore[method-assign]
            act(ws, state, passive_action(state))
            error = next_message(ws, "error")
            assert error["code"] == "not_saved"
            store.commit_events = commit_events  # type: ignore[method-assign]
            # The table is where it was (its state was sent again before the error): the
            # same action on the same state now goes through.
            assert app.state.server.here(table["invite"]).state.seq == state["seq"]
            act(ws, state, passive_action(state))
            assert state_where(ws, lambda m: m["seq"] > state["seq"])["hand"] == state["hand"]
