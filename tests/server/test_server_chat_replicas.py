"""The chat with several server processes on one PostgreSQL and one Redis (issue 12's
servers, run in this process as in tests/server/test_server_replicas.py): a message written on any
process reaches the table's players on every process, the rate limit is the person's
wherever they write from and whichever process owns the table, the host removes messages
through any process, the chat goes on when the table changes owner, and a message while no
process owns the table is refused (``chat_not_sent``), stored nowhere."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import redis
from server_fixtures import bearer, connect, create_table, join, next_message
from starlette.testclient import WebSocketTestSession
from test_server_chat import chat, chat_with, say_hello
from test_server_replicas import (
    Servers,
    postgres_url,
    server_of,
    servers,
    wait_until,
)

__all__ = ["postgres_url", "servers"]  # the fixtures, from the replicas' tests


def removed(ws: WebSocketTestSession) -> list[int]:
    return list(next_message(ws, "chat_removed")["ids"])


def test_a_message_on_any_process_reaches_every_player(servers: Servers) -> None:
    one, two, three = servers.start("one"), servers.start("two"), servers.start("three")
    table = create_table(one)
    invite = table["invite"]
    host = bearer(table["host_token"])
    bruno = join(two, invite, "Bruno")
    owner = server_of(one).here(invite)
    assert owner is not None and owner.owning
    with (
        connect(one, invite, "") as anna_ws,
        connect(two, invite, "") as bruno_ws,
        connect(one, invite, "") as bruno_on_one,
    ):
        say_hello(anna_ws, table["player_token"])
        bruno_log, _ = say_hello(bruno_ws, bruno["player_token"])
        say_hello(bruno_on_one, bruno["player_token"])
        replica = server_of(two).here(invite)
        assert replica is not None and not replica.owning
        # Written on the replica: stored by the owner, sent to both processes' players.
        chat(bruno_ws, "ciao da due")
        first = chat_with(anna_ws, "ciao da due")
        assert chat_with(bruno_ws, "ciao da due") == first == chat_with(bruno_on_one, "ciao da due")
        assert (first["id"], first["player"], first["seat"]) == (1, bruno_log["you"], 1)
        # Written on the owner: sent to the replica's player over the bus.
        chat(anna_ws, "ciao da uno")
        assert chat_with(bruno_ws, "ciao da uno") == chat_with(anna_ws, "ciao da uno")
        # A refusal of the rules comes from the process the player is on, with its code.
        chat(bruno_ws, "x" * 201)
        assert next_message(bruno_ws, "error")["code"] == "chat_too_long"
        # The rate limit is the person's, wherever they write from: 5 at once in all.
        for n, ws in enumerate((bruno_ws, bruno_on_one, bruno_ws, bruno_on_one)):
            chat(ws, f"burst {n}")
            chat_with(anna_ws, f"burst {n}")
        chat(bruno_ws, "one too many")
        limited = next_message(bruno_ws, "error")
        assert limited["code"] == "chat_rate_limited" and "wait 2 s" in limited["message"]
        chat(bruno_on_one, "one too many")
        assert next_message(bruno_on_one, "error")["code"] == "chat_rate_limited"
        # The host removes through the replica; everyone's page is told.
        answer = two.delete(f"/api/tables/{invite}/chat/{first['id']}", headers=host)
        assert answer.status_code == 200 and answer.json() == {"ids": [first["id"]]}
        assert removed(anna_ws) == removed(bruno_ws) == [first["id"]]
        answer = three.delete(f"/api/tables/{invite}/players/{first['player']}/chat", headers=host)
        assert answer.status_code == 200 and len(answer.json()["ids"]) == 4
        assert removed(anna_ws) == removed(bruno_ws) == answer.json()["ids"]
        unknown = two.delete(f"/api/tables/{invite}/chat/999", headers=host)
        assert unknown.status_code == 404 and unknown.json()["error"] == "no_message"
        # A player arriving on a third process is sent what is left.
        with connect(three, invite, "") as late:
            log, _ = say_hello(late, bruno["player_token"])
            assert [m["text"] for m in log["messages"]] == ["ciao da uno"]


def test_the_chat_goes_on_when_the_table_changes_owner(servers: Servers) -> None:
    one, two = servers.start("one"), servers.start("two")
    table = create_table(one)
    invite = table["invite"]
    bruno = join(one, invite, "Bruno")
    with connect(two, invite, "") as bruno_ws:
        say_hello(bruno_ws, bruno["player_token"])
        chat(bruno_ws, "before")
        chat_with(bruno_ws, "before")
        servers.stop(one)  # leaves: the other process takes the table
        runtime = server_of(two).here(invite)
        assert runtime is not None
        wait_until(lambda: runtime.owning)
        chat(bruno_ws, "after")  # the owner now: sent to its own players, stored
        assert chat_with(bruno_ws, "after")["id"] == 2
        with connect(two, invite, "") as anna_ws:
            log, _ = say_hello(anna_ws, table["player_token"])
            assert [m["text"] for m in log["messages"]] == ["before", "after"]
            chat(anna_ws, "both here")
            assert chat_with(bruno_ws, "both here") == chat_with(anna_ws, "both here")


def test_the_rate_limit_goes_on_when_the_table_changes_owner(servers: Servers) -> None:
    """The buckets are in Redis: the new owner does not give anyone a full one."""
    slow = {"chat_interval_seconds": 600.0}  # no token comes back during the test
    one, two = servers.start("one", **slow), servers.start("two", **slow)
    table = create_table(one)
    invite = table["invite"]
    bruno = join(one, invite, "Bruno")
    with connect(two, invite, "") as bruno_ws:
        say_hello(bruno_ws, bruno["player_token"])
        for n in range(5):  # the whole burst, through the first owner
            chat(bruno_ws, f"burst {n}")
            chat_with(bruno_ws, f"burst {n}")
        servers.stop(one)  # leaves: the other process takes the table
        runtime = server_of(two).here(invite)
        assert runtime is not None
        wait_until(lambda: runtime.owning)
        chat(bruno_ws, "one too many")
        limited = next_message(bruno_ws, "error")
        assert limited["code"] == "chat_rate_limited", limited
    assert stored_texts(two, invite) == [f"burst {n}" for n in range(5)]


def test_a_message_while_no_process_owns_the_table_is_not_sent(
    servers: Servers, redis_socket: Path
) -> None:
    one = servers.start("one")
    table = create_table(one)
    invite = table["invite"]
    bruno = join(one, invite, "Bruno")
    runtime = server_of(one).here(invite)
    assert runtime is not None
    table_id = runtime.id
    servers.stop(one)  # leaves: gives the lease up
    with redis.Redis(unix_socket_path=str(redis_socket)) as client:  # a process that hangs
        client.set(f"italian-poker:table:{{{table_id}}}:owner", "99:ghost", px=60_000)
    two = servers.start("two")
    with connect(two, invite, "") as bruno_ws:
        log, _ = say_hello(bruno_ws, bruno["player_token"])
        assert log["messages"] == []
        chat(bruno_ws, "anyone?")
        refused = next_message(bruno_ws, "error")
        assert refused["code"] == "chat_not_sent" and "try again" in refused["message"]
        bruno_ws.send_json({"type": "ping"})  # the connection goes on
        assert next_message(bruno_ws, "pong") == {"type": "pong"}
    assert stored_texts(two, invite) == []


def stored_texts(client: Any, invite: str) -> list[str]:
    runtime = server_of(client).here(invite)
    assert runtime is not None
    return [m.text for m in runtime.store.chat.messages(runtime.id, 50)]
