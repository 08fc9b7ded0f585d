"""The table's chat over the WebSocket and the host's REST routes (issue 13): every
connection at the table is sent each message; a refused message (too long, empty, an
invisible character, too fast) is stored nowhere; the host removes one message or all of a
person's, and nobody else can; a kicked player writes no more; the chat is never in the
event log, the public log or a hand history; it outlasts a restart."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_fixtures import (
    AppFactory,
    bearer,
    connect,
    create_table,
    join,
    next_message,
    next_state,
    play_until,
    receive_json,
)
from sqlalchemy import Engine, func, select, text
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from italian_poker.server.database import make_engine
from italian_poker.server.models import ChatMessageRow
from italian_poker.server.registry import Server
from italian_poker.server.store import NewTable, Store
from italian_poker.server.table_runtime import Refusal

MARKER = "zebra-parol-42"
"""A chat text found nowhere else, to look for in the log and the histories."""


def say_hello(ws: WebSocketTestSession, token: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Say hello: the chat's newest messages (sent first), then the first state."""
    ws.send_json({"type": "hello", "token": token})
    log = receive_json(ws)
    assert log["type"] == "chat_log", log
    return log, next_state(ws)


def chat(ws: WebSocketTestSession, words: Any) -> None:
    ws.send_json({"type": "chat", "text": words})


def chat_with(ws: WebSocketTestSession, words: str) -> dict[str, Any]:
    """The next chat message with these words (the connection's own come back too)."""
    while True:
        message = next_message(ws, "chat")["message"]
        if message["text"] == words:
            return dict(message)


def server_of(client: TestClient) -> Server:
    server: Server = client.app.state.server  # type: ignore[attr-defined]
    return server


def stored(database_url: str) -> list[tuple[int, int, str, str]]:
    """Every chat row: id, player, nickname, text."""
    engine = make_engine(database_url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                select(
                    ChatMessageRow.id,
                    ChatMessageRow.player,
                    ChatMessageRow.nickname,
                    ChatMessageRow.text,
                ).order_by(ChatMessageRow.id)
            ).all()
    finally:
        engine.dispose()
    return [(int(a), int(b), str(c), str(d)) for a, b, c, d in rows]


def test_a_message_reaches_every_connection_at_the_table(client: TestClient) -> None:
    table = create_table(client)
    invite = table["invite"]
    bruno = join(client, invite, "Bruno")
    with (
        connect(client, invite, "") as anna_ws,
        connect(client, invite, "") as bruno_ws,
        connect(client, invite, "") as bruno_tab,
    ):
        anna_log, _ = say_hello(anna_ws, table["player_token"])
        bruno_log, bruno_state = say_hello(bruno_ws, bruno["player_token"])
        say_hello(bruno_tab, bruno["player_token"])
        assert anna_log == {"type": "chat_log", "you": 1, "max_length": 200, "messages": []}
        assert bruno_log["you"] == 2  # the seq of the event that seated Bruno
        chat(bruno_ws, "  Ciao a tutti 👋  ")
        sent = [next_message(ws, "chat") for ws in (anna_ws, bruno_ws, bruno_tab)]
        assert sent[0] == sent[1] == sent[2]
        message = sent[0]["message"]
        assert {k: v for k, v in message.items() if k != "created"} == {
            "id": 1,
            "player": 2,
            "seat": 1,
            "nickname": "Bruno",
            "text": "Ciao a tutti 👋",
        }
        assert message["created"].endswith("+00:00")
        # A chat is no change of the table: the state is what it was.
        anna_ws.send_json({"type": "hello"})
        again = next_message(anna_ws, "chat_log")
        assert again["messages"] == [message]
        assert next_state(anna_ws)["seq"] == bruno_state["seq"]


@pytest.mark.parametrize(
    ("words", "code"),
    [
        ("x" * 201, "chat_too_long"),
        ("   ", "chat_empty"),
        ("", "chat_empty"),
        ("one\ntwo", "chat_bad_character"),
        ("evil\u202eeulav", "chat_bad_character"),
        ("\u200b", "chat_bad_character"),
        ("\u0301oops", "chat_bad_character"),
        (42, "bad_message"),
        (None, "bad_message"),
    ],
)
def test_a_refused_message_is_stored_nowhere(
    client: TestClient, database_url: str, words: Any, code: str
) -> None:
    table = create_table(client)
    invite = table["invite"]
    with connect(client, invite, "") as ws:
        say_hello(ws, table["player_token"])
        chat(ws, words)
        refused = next_message(ws, "error")
        assert refused["code"] == code and refused["message"]
        if isinstance(words, str) and words.strip():
            assert words not in refused["message"]  # never an echo of what was sent
        ws.send_json({"type": "ping"})
        assert next_message(ws, "pong") == {"type": "pong"}  # the connection goes on
        chat(ws, "fine")
        assert next_message(ws, "chat")["message"]["id"] == 1
    assert [row[3] for row in stored(database_url)] == ["fine"]


def test_the_longest_message_is_configured(make_app: AppFactory) -> None:
    with TestClient(make_app(chat_max_length=10)) as client:
        table = create_table(client)
        with connect(client, table["invite"], "") as ws:
            log, _ = say_hello(ws, table["player_token"])
            assert log["max_length"] == 10
            chat(ws, "x" * 11)
            refused = next_message(ws, "error")
            assert refused["code"] == "chat_too_long"
            assert refused["message"].startswith("a message is 1 to 10 characters")
            chat(ws, "x" * 10)
            assert next_message(ws, "chat")["message"]["text"] == "x" * 10


def test_each_person_has_a_rate_limit_of_their_own(make_app: AppFactory) -> None:
    """Bursts of 5, then one every 2 s: for the person, across their connections; another
    person is not held back; the WebSocket's own limit is another matter."""
    now = [1_000.0]
    with TestClient(make_app(clock=lambda: now[0])) as client:
        table = create_table(client)
        invite = table["invite"]
        bruno = join(client, invite, "Bruno")
        with (
            connect(client, invite, "") as anna_ws,
            connect(client, invite, "") as bruno_ws,
            connect(client, invite, "") as bruno_tab,
        ):
            say_hello(anna_ws, table["player_token"])
            say_hello(bruno_ws, bruno["player_token"])
            say_hello(bruno_tab, bruno["player_token"])
            for n in range(3):
                chat(bruno_ws, f"one {n}")
                chat_with(bruno_ws, f"one {n}")
            for n in range(2):
                chat(bruno_tab, f"two {n}")
                chat_with(bruno_tab, f"two {n}")
            chat(bruno_tab, "too fast")
            refused = next_message(bruno_tab, "error")
            assert refused == {
                "type": "error",
                "code": "chat_rate_limited",
                "message": "you are writing too fast: wait 2 s, then send it again",
            }
            chat(bruno_ws, "too fast too")
            assert next_message(bruno_ws, "error")["code"] == "chat_rate_limited"
            chat(anna_ws, "I may")
            chat_with(anna_ws, "I may")
            now[0] += 2.0
            chat(bruno_ws, "now")
            chat_with(bruno_ws, "now")
            chat(bruno_ws, "and again")
            assert next_message(bruno_ws, "error")["code"] == "chat_rate_limited"
            texts = [m["text"] for m in _log_of(anna_ws)]
    assert "too fast" not in texts and texts[-2:] == ["I may", "now"]


def _log_of(ws: WebSocketTestSession) -> list[dict[str, Any]]:
    ws.send_json({"type": "hello"})
    return list(next_message(ws, "chat_log")["messages"])


def test_the_host_removes_a_message_or_all_of_a_persons(
    client: TestClient, database_url: str
) -> None:
    table = create_table(client)
    invite = table["invite"]
    host = bearer(table["host_token"])
    bruno = join(client, invite, "Bruno")
    carla = join(client, invite, "Carla")
    with (
        connect(client, invite, "") as anna_ws,
        connect(client, invite, "") as bruno_ws,
        connect(client, invite, "") as carla_ws,
    ):
        say_hello(anna_ws, table["player_token"])
        say_hello(bruno_ws, bruno["player_token"])
        say_hello(carla_ws, carla["player_token"])
        for ws, words in ((bruno_ws, "b1"), (carla_ws, "c1"), (bruno_ws, "b2"), (bruno_ws, "b3")):
            chat(ws, words)
            for reader in (anna_ws, bruno_ws, carla_ws):
                next_message(reader, "chat")
        base = f"/api/tables/{invite}"
        # Nobody but the host: a player's token, no token, another scheme.
        for headers in (bearer(bruno["player_token"]), {}, {"Authorization": "Basic x"}):
            refused = client.delete(f"{base}/chat/1", headers=headers)
            assert refused.status_code == 403 and refused.json()["error"] == "forbidden"
            refused = client.delete(f"{base}/players/2/chat", headers=headers)
            assert refused.status_code == 403
        assert len(stored(database_url)) == 4
        # One message.
        removed = client.delete(f"{base}/chat/1", headers=host)
        assert removed.status_code == 200 and removed.json() == {"ids": [1]}
        for reader in (anna_ws, bruno_ws, carla_ws):
            assert next_message(reader, "chat_removed") == {"type": "chat_removed", "ids": [1]}
        again = client.delete(f"{base}/chat/1", headers=host)
        assert again.status_code == 404 and again.json()["error"] == "no_message"
        # All of Bruno's (player 2): the rest of his, not Carla's.
        removed = client.delete(f"{base}/players/2/chat", headers=host)
        assert removed.status_code == 200 and removed.json() == {"ids": [3, 4]}
        for reader in (anna_ws, bruno_ws, carla_ws):
            assert next_message(reader, "chat_removed")["ids"] == [3, 4]
        assert [m["text"] for m in _log_of(bruno_ws)] == ["c1"]
        # A person seated who wrote nothing (now) has nothing to remove; an unknown one is 404.
        assert client.delete(f"{base}/players/2/chat", headers=host).json() == {"ids": []}
        unknown = client.delete(f"{base}/players/99/chat", headers=host)
        assert unknown.status_code == 404 and unknown.json()["error"] == "no_player"
        for bad in ("0", "abc", "+1", "１"):
            for path in (f"{base}/chat/{bad}", f"{base}/players/{bad}/chat"):
                answer = client.delete(path, headers=host)
                assert answer.status_code == 422, (path, answer.text)
                assert answer.json()["error"] == "bad_request"
        nowhere = client.delete("/api/tables/" + "x" * 24 + "/chat/2", headers=host)
        assert nowhere.status_code == 404 and nowhere.json()["error"] == "no_table"
    assert [row[3] for row in stored(database_url)] == ["c1"]


def test_a_kicked_player_writes_no_more_and_their_messages_stay_theirs(
    client: TestClient,
) -> None:
    table = create_table(client)
    invite = table["invite"]
    host = bearer(table["host_token"])
    bruno = join(client, invite, "Bruno")
    added = client.post(f"/api/tables/{invite}/bots", headers=host, json={"level": "simple"})
    assert added.status_code == 201 and added.json()["seat"] == 2
    with connect(client, invite, "") as anna_ws:
        say_hello(anna_ws, table["player_token"])
        with connect(client, invite, "") as bruno_ws:
            say_hello(bruno_ws, bruno["player_token"])
            chat(bruno_ws, "before")
            next_message(anna_ws, "chat")
            kicked = client.delete(f"/api/tables/{invite}/seats/1", headers=host)
            assert kicked.status_code == 200
            assert next_message(bruno_ws, "error")["code"] == "kicked"
            with pytest.raises(WebSocketDisconnect):
                while True:
                    receive_json(bruno_ws)
        with connect(client, invite, "") as again:
            again.send_json({"type": "hello", "token": bruno["player_token"]})
            assert next_message(again, "error")["code"] == "unauthorized"
        runtime = server_of(client).here(invite)
        assert runtime is not None
        # The owner refuses a seat whose token is gone, a bot's seat, an empty one, and a
        # person who no longer holds the seat (a message forwarded late by another process).
        for seat, player in ((1, 2), (2, None), (5, None)):
            with pytest.raises(Refusal) as refused:
                client.portal.call(runtime.play.chat, seat, "hello?", player)  # type: ignore[union-attr]
            assert refused.value.code == "chat_not_seated" and refused.value.status == 403
        carla = join(client, invite, "Zoe")  # seat 1 again, another person (Carla is the bot)
        assert carla["seat"] == 1
        with pytest.raises(Refusal):
            client.portal.call(runtime.play.chat, 1, "as Bruno", 2)  # type: ignore[union-attr]
        with connect(client, invite, "") as carla_ws:
            log, _ = say_hello(carla_ws, carla["player_token"])
            (before,) = log["messages"]
            assert (before["player"], before["nickname"], before["seat"]) == (2, "Bruno", None)
            assert log["you"] != 2
            chat(carla_ws, "Carla here")
            mine = next_message(carla_ws, "chat")["message"]
            assert (mine["player"], mine["seat"]) == (log["you"], 1)
        # Bruno has left, yet what he wrote can be removed.
        removed = client.delete(f"/api/tables/{invite}/players/2/chat", headers=host)
        assert removed.json() == {"ids": [before["id"]]}


def test_the_chat_is_never_in_the_event_log_the_public_log_or_a_history(
    client: TestClient, engine: Engine
) -> None:
    table = create_table(client)
    invite = table["invite"]
    bruno = join(client, invite, "Bruno")
    texts: list[str] = []
    with connect(client, invite, "") as anna_ws, connect(client, invite, "") as bruno_ws:
        _, anna = say_hello(anna_ws, table["player_token"])
        _, bruno_state = say_hello(bruno_ws, bruno["player_token"])
        start = client.post(f"/api/tables/{invite}/start", headers=bearer(table["host_token"]))
        assert start.status_code == 200
        spoken = [0]

        def talk_and_stop(message: dict[str, Any]) -> bool:
            texts.append(json.dumps(message))
            if spoken[0] < 4:
                chat(anna_ws if spoken[0] % 2 else bruno_ws, f"{MARKER} {spoken[0]}")
                spoken[0] += 1
            return (message["hand"] or 0) >= 2

        play_until({0: anna_ws, 1: bruno_ws}, {0: anna, 1: bruno_state}, talk_and_stop)
        log = _log_of(anna_ws)
        states = [next_state(anna_ws)]
    assert [m["text"] for m in log] == [f"{MARKER} {n}" for n in range(4)]
    assert not any(MARKER in t for t in texts)  # no state, its log or events, holds it
    assert not any(MARKER in json.dumps(line) for line in states[0]["state"]["log"])
    with engine.connect() as connection:
        payloads = connection.execute(text("SELECT kind, payload FROM table_events")).all()
        kinds = {kind for kind, _ in payloads}
        chats = connection.execute(select(func.count()).select_from(ChatMessageRow)).scalar()
    assert not any(MARKER in json.dumps(payload) for _, payload in payloads)
    assert "chat" not in kinds and chats == 4
    for token in (table["player_token"], bruno["player_token"]):
        hands = client.get(f"/api/tables/{invite}/histories", headers=bearer(token)).json()
        assert hands["hands"]
        for hand in hands["hands"]:
            for path in (f"histories/{hand}", f"histories/{hand}.phh", f"histories/{hand}/frames"):
                answer = client.get(f"/api/tables/{invite}/{path}", headers=bearer(token))
                assert answer.status_code == 200 and MARKER not in answer.text, path
    stats = client.get(f"/api/tables/{invite}/stats", headers=bearer(table["player_token"]))
    assert MARKER not in stats.text


def test_the_chat_outlasts_a_restart(make_app: AppFactory) -> None:
    with TestClient(make_app(chat_history=3)) as client:
        table = create_table(client)
        invite = table["invite"]
        with connect(client, invite, "") as ws:
            say_hello(ws, table["player_token"])
            for n in range(5):
                chat(ws, f"message {n}")
                next_message(ws, "chat")
    with TestClient(make_app(chat_history=3)) as client, connect(client, invite, "") as ws:
        log, _ = say_hello(ws, table["player_token"])
        # The newest 3, oldest first, as they were.
        assert [(m["id"], m["text"], m["seat"]) for m in log["messages"]] == [
            (3, "message 2", 0),
            (4, "message 3", 0),
            (5, "message 4", 0),
        ]
        host = bearer(table["host_token"])
        removed = client.delete(f"/api/tables/{invite}/chat/4", headers=host)
        assert removed.json() == {"ids": [4]}
        assert next_message(ws, "chat_removed")["ids"] == [4]
        chat(ws, "after the restart")
        assert next_message(ws, "chat")["message"]["id"] == 6


def test_a_message_the_database_refuses_is_not_sent_and_costs_nothing(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    with TestClient(make_app(chat_burst=1)) as client:
        table = create_table(client)
        store = server_of(client).store
        saved = store.chat.add

        def broken(*args: Any) -> Any:
            raise OSError("the disk is full")

        with connect(client, table["invite"], "") as ws:
            say_hello(ws, table["player_token"])
            monkeypatch.setattr(store.chat, "add", broken)
            chat(ws, "lost?")
            refused = next_message(ws, "error")
            assert refused["code"] == "chat_not_sent" and "send it again" in refused["message"]
            monkeypatch.setattr(store.chat, "add", saved)
            chat(ws, "again")  # the refused one took nothing of the burst of 1
            assert chat_with(ws, "again")["id"] == 1
            assert [m["text"] for m in _log_of(ws)] == ["again"]


@pytest.mark.every_database
def test_the_stores_chat_is_each_tables_own(engine: Engine) -> None:
    store = Store(engine)
    first = store.create_table("a" * 64, NewTable("one", {}, {}, "h" * 64))
    second = store.create_table("b" * 64, NewTable("two", {}, {}, "h" * 64))
    ids = [
        store.chat.add(table, 7, "Anna", f"{table}:{n}").id
        for n in range(3)
        for table in (first, second)
    ]
    assert ids == sorted(ids) and len(set(ids)) == 6
    assert [m.text for m in store.chat.messages(first, 2)] == [f"{first}:1", f"{first}:2"]
    assert [m.text for m in store.chat.messages(second, 10)] == [f"{second}:{n}" for n in range(3)]
    mine = [m.id for m in store.chat.messages(first, 10)]
    assert not store.chat.delete(second, mine[0])  # not that table's message
    assert store.chat.delete(first, mine[0]) and not store.chat.delete(first, mine[0])
    assert store.chat.delete_of(second, 8) == []
    assert store.chat.delete_of(first, 7) == mine[1:]
    assert store.chat.messages(first, 10) == [] and len(store.chat.messages(second, 10)) == 3
    store.delete_table(second)
    with engine.connect() as connection:
        assert connection.execute(select(func.count()).select_from(ChatMessageRow)).scalar() == 0
