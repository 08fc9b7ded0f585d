"""Several server processes on one PostgreSQL and one Redis, run in this process: each
server an application of its own (its own event loop, as TestClient runs it), so that the
owner, the replicas and the bus between them are the real ones. What only separate
processes can show (SIGKILL, SIGSTOP) is in tests/server/test_server_cluster.py."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import redis
from fastapi.testclient import TestClient
from server_fixtures import (
    bearer,
    bot_factory,
    connect,
    create_table,
    fresh_postgres_url,
    hello,
    join,
    next_message,
    play_until,
    state_where,
)
from sqlalchemy import text

from italian_poker.server.app import create_app
from italian_poker.server.database import make_engine
from italian_poker.server.registry import Server
from italian_poker.server.settings import ServerSettings
from italian_poker.table.statistics import statistics_of

BUS_SECRET = "the-secret-these-servers-share"


class Servers:
    """``start(node, **changes)``: a running server named ``node`` on the shared database
    and Redis; ``stop(client)`` stops one as a shutdown would (its leases released)."""

    def __init__(self, settings: ServerSettings) -> None:
        self.settings = settings
        self.running: dict[int, ExitStack] = {}

    def start(self, node: str, **changes: Any) -> TestClient:
        app = create_app(replace(self.settings, node=node, **changes), bot_factory)
        stack = ExitStack()
        client = stack.enter_context(TestClient(app))
        self.running[id(client)] = stack
        return client

    def stop(self, client: TestClient) -> None:
        self.running.pop(id(client)).close()


@pytest.fixture
def postgres_url() -> str:
    """A fresh PostgreSQL database (several processes need a database server)."""
    return fresh_postgres_url()


@pytest.fixture
def servers(postgres_url: str, redis_socket: Path) -> Iterator[Servers]:
    """Servers on the shared database and Redis (emptied first), all stopped at the end."""
    with redis.Redis(unix_socket_path=str(redis_socket)) as client:
        client.flushall()
    shared = ServerSettings(
        database_url=postgres_url,
        redis_url=f"unix://{redis_socket}",
        bus_secret=BUS_SECRET,
        lease_seconds=3.0,
        bot_delay_seconds=0.0,
        next_deal_seconds=0.0,
        reconnect_grace_seconds=30.0,
        default_turn_seconds=None,
        seed=11,
        collector_interval=None,
    )
    made = Servers(shared)
    try:
        yield made
    finally:
        for stack in list(made.running.values()):
            stack.close()


def server_of(client: TestClient) -> Server:
    server: Server = client.app.state.server  # type: ignore[attr-defined]
    return server


def owner_of(redis_socket: Path, table_id: int) -> str | None:
    with redis.Redis(unix_socket_path=str(redis_socket), decode_responses=True) as client:
        value = client.get(f"italian-poker:table:{{{table_id}}}:owner")
    return None if value is None else str(value).partition(":")[2]


def wait_until(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the condition did not come true in time"
        time.sleep(0.02)


def events_of(url: str, table_id: int) -> list[int]:
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                text("SELECT seq FROM table_events WHERE table_id = :t ORDER BY seq"),
                {"t": table_id},
            )
            return [int(seq) for (seq,) in rows]
    finally:
        engine.dispose()


def test_a_player_on_another_process_plays_with_the_owner(servers: Servers) -> None:
    one, two = servers.start("one"), servers.start("two")
    table = create_table(one)
    invite = table["invite"]
    bruno = join(two, invite, "Bruno")  # a seat asked of a replica: the owner writes it
    runtime = server_of(one).here(invite)
    assert runtime is not None and runtime.owning
    with (
        connect(one, invite, table["player_token"]) as anna_ws,
        connect(two, invite, bruno["player_token"]) as bruno_ws,
    ):
        anna = hello(anna_ws, table["player_token"])
        bruno_state = hello(bruno_ws, bruno["player_token"])
        assert bruno_state["state"]["you"] == 1
        response = two.post(f"/api/tables/{invite}/start", headers=bearer(table["host_token"]))
        assert response.status_code == 200, response.text
        states = play_until(
            {0: anna_ws, 1: bruno_ws}, {0: anna, 1: bruno_state}, lambda m: (m["hand"] or 0) >= 3
        )
    assert states[0]["seq"] == states[1]["seq"]
    replica = server_of(two).here(invite)
    assert replica is not None and not replica.owning
    assert replica.state.seq == runtime.state.seq
    # Each built its own player's view from the same state: the same public part.
    assert [s["stack"] for s in states[0]["state"]["seats"]] == [
        s["stack"] for s in states[1]["state"]["seats"]
    ]


def test_who_is_connected_on_either_process_is_shown_on_both(servers: Servers) -> None:
    one, two = servers.start("one"), servers.start("two")
    table = create_table(one)
    invite = table["invite"]
    bruno = join(one, invite, "Bruno")
    with connect(one, invite, table["player_token"]) as anna_ws:
        hello(anna_ws, table["player_token"])
        with connect(two, invite, bruno["player_token"]) as bruno_ws:
            hello(bruno_ws, bruno["player_token"])

            def both(m: dict[str, Any]) -> bool:
                return {s["seat"] for s in m["state"]["seats"] if s.get("connected")} == {0, 1}

            state_where(anna_ws, both)
            state_where(bruno_ws, both)


def test_a_host_command_and_a_kick_through_a_replica(servers: Servers) -> None:
    one, two = servers.start("one"), servers.start("two")
    table = create_table(one)
    invite = table["invite"]
    bruno = join(one, invite, "Bruno")
    host = bearer(table["host_token"])
    with connect(two, invite, bruno["player_token"]) as bruno_ws:
        hello(bruno_ws, bruno["player_token"])
        assert two.post(f"/api/tables/{invite}/bots", headers=host, json={}).status_code == 201
        assert two.post(f"/api/tables/{invite}/start", headers=host).status_code == 200
        assert two.post(f"/api/tables/{invite}/pause", headers=host).status_code == 200
        assert server_of(one).here(invite).state.status.value == "paused"  # type: ignore[union-attr]
        assert two.delete(f"/api/tables/{invite}/seats/1", headers=host).status_code == 200
        kicked = next_message(bruno_ws, "error")
        assert kicked["code"] == "kicked"
    # The owner refuses through the replica as it would itself: same code, same status.
    again = two.post(f"/api/tables/{invite}/pause", headers=host)
    assert again.status_code == 409 and again.json()["error"] == "illegal"


def test_a_change_asked_while_no_process_answers_is_a_503(
    servers: Servers, redis_socket: Path
) -> None:
    one = servers.start("one")
    table = create_table(one)
    invite = table["invite"]
    table_id = server_of(one).here(invite).id  # type: ignore[union-attr]
    servers.stop(one)  # leaves: gives the lease up
    with redis.Redis(unix_socket_path=str(redis_socket)) as client:  # a process that hangs
        client.set(f"italian-poker:table:{{{table_id}}}:owner", "99:ghost", px=60_000)
    two = servers.start("two")
    response = two.post(f"/api/tables/{invite}/seats", json={"nickname": "Bruno"})
    assert response.status_code == 503, response.text
    assert response.json()["error"] == "no_owner"


def test_a_process_that_leaves_hands_its_tables_over(
    servers: Servers, redis_socket: Path, postgres_url: str
) -> None:
    one, two = servers.start("one"), servers.start("two")
    table = create_table(one)
    invite = table["invite"]
    bruno = join(one, invite, "Bruno")
    table_id = server_of(one).here(invite).id  # type: ignore[union-attr]
    with connect(two, invite, bruno["player_token"]) as bruno_ws:
        bruno_state = hello(bruno_ws, bruno["player_token"])
        assert one.post(f"/api/tables/{invite}/start", headers=bearer(table["host_token"]))
        servers.stop(one)  # a graceful stop releases the lease at once
        wait_until(lambda: owner_of(redis_socket, table_id) == "two", 3.0)
        with connect(two, invite, table["player_token"]) as anna_ws:
            anna = hello(anna_ws, table["player_token"])
            start_hand = anna["hand"] or 0
            bruno_state = state_where(bruno_ws, lambda m: m["seq"] >= anna["seq"])
            play_until(
                {0: anna_ws, 1: bruno_ws},
                {0: anna, 1: bruno_state},
                lambda m: (m["hand"] or 0) >= start_hand + 2,
            )
    seqs = events_of(postgres_url, table_id)
    assert seqs == list(range(1, len(seqs) + 1))


def test_an_owner_that_lost_its_lease_cannot_write_and_follows_the_new_owner(
    servers: Servers, redis_socket: Path, postgres_url: str
) -> None:
    one = servers.start(
        "one", lease_seconds=60.0
    )  # it will not notice by renewing, only by writing
    two = servers.start("two")
    table = create_table(one)
    invite = table["invite"]
    bruno = join(one, invite, "Bruno")
    table_id = server_of(one).here(invite).id  # type: ignore[union-attr]
    host = bearer(table["host_token"])
    with connect(two, invite, bruno["player_token"]) as bruno_ws:
        hello(bruno_ws, bruno["player_token"])
        with redis.Redis(unix_socket_path=str(redis_socket)) as client:  # "one" was paused
            client.delete(f"italian-poker:table:{{{table_id}}}:owner")
        wait_until(lambda: owner_of(redis_socket, table_id) == "two")
        written = events_of(postgres_url, table_id)
        # "one" still believes it owns the table: its write is refused by the fence ...
        refused = one.post(f"/api/tables/{invite}/start", headers=host)
        assert refused.status_code == 503 and refused.json()["error"] == "moved"
        assert events_of(postgres_url, table_id) == written
        runtime = server_of(one).here(invite)
        assert runtime is not None and not runtime.owning
        # ... and it goes on as a replica: the same request now reaches the owner.
        assert one.post(f"/api/tables/{invite}/start", headers=host).status_code == 200
        state_where(bruno_ws, lambda m: m["state"]["table"]["status"] == "playing")
    seqs = events_of(postgres_url, table_id)
    assert seqs == list(range(1, len(seqs) + 1)) and len(seqs) > len(written)


def test_a_groups_statistics_count_tables_owned_by_other_processes(servers: Servers) -> None:
    """``POST /api/stats`` on one process counts a table another owns, read as a replica
    (``Server.find``) caught up with the owner's log: its deals and its seats' tokens."""
    one, two = servers.start("one"), servers.start("two")
    here = create_table(one, name="Qui")
    there = create_table(two, name="Là")
    keys = [
        {"invite": here["invite"], "token": here["player_token"]},
        {"invite": there["invite"], "token": there["player_token"]},
    ]
    before = one.post("/api/stats", json={"tables": keys})
    assert before.status_code == 200, before.text
    assert [t["deals"] for t in before.json()["tables"]] == [0, 0]
    replica = server_of(one).here(there["invite"])
    assert replica is not None and not replica.owning
    # Bruno sits down at the other process's table after the replica was read, and a deal
    # is played there.
    bruno = join(two, there["invite"], "Bruno")
    host = bearer(there["host_token"])
    assert two.post(f"/api/tables/{there['invite']}/start", headers=host).status_code == 200
    with (
        connect(two, there["invite"], there["player_token"]) as anna_ws,
        connect(two, there["invite"], bruno["player_token"]) as bruno_ws,
    ):
        states = {
            0: hello(anna_ws, there["player_token"]),
            1: hello(bruno_ws, bruno["player_token"]),
        }
        play_until({0: anna_ws, 1: bruno_ws}, states, lambda m: (m["hand"] or 0) >= 3)
    owner = server_of(two).here(there["invite"])
    assert owner is not None and owner.owning
    keys.append({"invite": there["invite"], "token": bruno["player_token"]})
    refused = one.post("/api/stats", json={"tables": keys})
    assert refused.status_code == 422  # the same table twice
    answer = one.post("/api/stats", json={"tables": [keys[0], keys[2]]})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    finished = owner.histories.finished_histories()
    assert [(t["counted"], t["name"], t["deals"]) for t in data["tables"]] == [
        (True, "Qui", 0),
        (True, "Là", len(finished)),
    ]
    assert len(finished) >= 2
    assert {k: data[k] for k in ("players", "totals")} == statistics_of(finished).to_dict()
