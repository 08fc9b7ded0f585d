"""The WebSocket's wire format, pinned: a short seeded game (one person, two bots, the
fixtures' seed) sends exactly the messages, byte for byte, that the server sent when this
test was written. A change to what a message holds, or to the order members are written in,
fails here; update the digest only for a change to the wire format made on purpose."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from server_fixtures import (
    RECEIVE_SECONDS,
    bearer,
    connect,
    create_table,
    page_log,
    passive_action,
)
from starlette.testclient import WebSocketTestSession

HANDS = 3
"""The game is followed until the state of this deal's first message."""

DIGEST = "747f1bc206b9f2fb9a445b972ce5a98a59d9a7aa8bc76f636dc36e5beb0b62a7"
COUNT = 32
"""The seeded game's messages, pinned: a change to the wire format made on purpose updates
this digest and those below, each of the same messages with some members taken out, so that
a failure says which part of the messages changed."""
BEFORE_CHAT_DIGEST = "35c36f215949b1a96726f39587018f3d9fb151142035c2a7eab91579d3254ceb"
"""The 31 messages after the first, the chat's newest messages (``chat_log``), without the
draw hint's members."""
WHOLE_LOG_DIGEST = "b1a24861d15d4b7ac91aa81a1373741d3569787c97ce3efa33a67f797d90fdc9"
"""The same 31 messages with every ``state`` carrying the whole recent log, rebuilt from the
``events`` as the page does (:func:`_with_whole_log`): only a connection's first state (and
one that is no event's) carries the log itself."""
BEFORE_LEDGER_DIGESTS = (
    "71aaadc6bdf5906c9d829c8a1ef6566f11b874c829b53963888c5ab03011fa2b",
    "87863cf1672effe191c2e0aa754bbf4eb4cc212983662a119aec6e2c14d83992",
)
"""The 31 messages, and with the whole log, without ``watch`` nor the ``table`` object's and
its ``options``' member ``players_see_ledger``."""
BEFORE_WATCH_DIGESTS = (
    "c0709b58bc3f8db781d9ec1635f4d47210c42ab6af475207c0f473ffc35e6403",
    "e7be0b70904394b6d436d425c52006238cd64fe7957a6696f0fdf3d930a4ab1b",
)
"""The 31 messages, and with the whole log, without the ``table`` object's ``watch``."""
WATCH_MEMBER = ',"watch":{"open":false,"delay":false,"spectators":0}'
"""The ``table`` object's ``watch`` on a table the host has not opened to spectators."""


def _texts(ws: WebSocketTestSession) -> str:
    async def receive() -> Any:
        with anyio.move_on_after(RECEIVE_SECONDS):
            return await ws._send_rx.receive()
        return None

    message = ws.portal.call(receive)
    if message is None or message["type"] != "websocket.send":
        pytest.fail(f"the server sent nothing (or closed): {message!r}")
    return str(message["text"])


def _game(client: TestClient) -> list[str]:
    table = create_table(client)
    invite = table["invite"]
    host = bearer(table["host_token"])
    for _ in range(2):
        added = client.post(f"/api/tables/{invite}/bots", json={"level": "simple"}, headers=host)
        assert added.status_code == 201, added.text
    texts: list[str] = []
    with connect(client, invite, "") as ws:
        ws.send_json({"type": "hello", "token": table["player_token"]})
        texts.append(_texts(ws))
        started = client.post(f"/api/tables/{invite}/start", headers=host)
        assert started.status_code == 200, started.text
        while True:
            text = _texts(ws)
            texts.append(text)
            message = json.loads(text)
            if message["type"] != "state":
                continue
            if message["hand"] == HANDS:
                break
            state = message["state"]
            if state["to_act"] == 0 and state["legal"]:
                ws.send_json(
                    {
                        "type": "action",
                        "hand": message["hand"],
                        "seq": message["seq"],
                        "action": passive_action(message),
                    }
                )
    return [text.replace(invite, "INVITE") for text in texts]


def _without_chat(texts: list[str]) -> list[str]:
    """The messages but the chat's (``chat_log``, ``chat``, ``chat_removed``)."""
    return [text for text in texts if not text.startswith('{"type":"chat')]


def _digest(texts: list[str]) -> str:
    return hashlib.sha256("\n".join(texts).encode()).hexdigest()


def _with_whole_log(texts: list[str]) -> list[str]:
    """The messages as they were when every state carried the whole log: the log kept as the
    page keeps it (:func:`page_log`) and written back before ``result``."""
    log: list[dict[str, Any]] = []
    whole = []
    for text in texts:
        message = json.loads(text)
        log = page_log(log, message)
        if message["type"] != "state" or "log" in message["state"]:
            whole.append(text)
            continue
        at = text.rindex(',"result":')
        encoded = json.dumps(log, separators=(",", ":"))
        whole.append(f'{text[:at]},"log":{encoded}{text[at:]}')
    return whole


def test_a_seeded_game_sends_the_same_messages(client: TestClient) -> None:
    texts = _game(client)
    assert (len(texts), _digest(texts)) == (COUNT, DIGEST)


def test_only_the_chat_log_was_added(client: TestClient) -> None:
    texts = _without_advice(_game(client))
    assert json.loads(texts[0]) == {
        "type": "chat_log",
        "you": 1,
        "max_length": 200,
        "messages": [],
    }
    assert _without_chat(texts) == texts[1:]
    assert (len(texts[1:]), _digest(texts[1:])) == (31, BEFORE_CHAT_DIGEST)


def test_the_log_rebuilt_from_the_events_is_the_log_every_state_carried(
    client: TestClient,
) -> None:
    texts = _without_chat(_game(client))
    assert sum('"log":' in text for text in texts) == 1  # the hello's answer only
    texts = _without_advice(texts)
    assert _digest(_with_whole_log(texts)) == WHOLE_LOG_DIGEST


def test_only_the_watch_link_was_added(client: TestClient) -> None:
    texts = _without_chat(_without_advice(_game(client)))
    assert all(text.count(WATCH_MEMBER) == 1 for text in texts if '"type":"state"' in text)
    before = [text.replace(WATCH_MEMBER, "") for text in texts]
    assert (_digest(before), _digest(_with_whole_log(before))) == BEFORE_WATCH_DIGESTS


def test_only_the_ledgers_visibility_was_added(client: TestClient) -> None:
    texts = _without_chat(_without_advice(_game(client)))
    texts = [text.replace(WATCH_MEMBER, "") for text in texts]
    member = ',"players_see_ledger":false'
    assert all(text.count(member) == 2 for text in texts if '"type":"state"' in text)
    before = [text.replace(member, "") for text in texts]
    assert (_digest(before), _digest(_with_whole_log(before))) == BEFORE_LEDGER_DIGESTS


ADVICE_MEMBERS = (',"advice":false', ',"advice":null')
"""The draw hint: the ``table`` object and its ``options`` have ``advice`` (the
host's switch; false on a server without an advisor, as here) and the ``state`` has
``advice`` after ``legal`` (null but for the drawing seat during its draw)."""
BEFORE_ADVICE_DIGESTS = (
    "b4f577caab4f6b473c4337ccd6c1c64a8d77c2a554921bc8a8bb2927bdbc2476",
    WHOLE_LOG_DIGEST,
)
"""The 32 messages without the hint's members, and :data:`WHOLE_LOG_DIGEST`."""


def _without_advice(texts: list[str]) -> list[str]:
    for member in ADVICE_MEMBERS:
        texts = [text.replace(member, "") for text in texts]
    return texts


def test_only_the_draw_hint_was_added(client: TestClient) -> None:
    texts = _game(client)
    states = [text for text in texts if '"type":"state"' in text]
    assert all(text.count(ADVICE_MEMBERS[0]) == 2 for text in states)
    assert all(text.count(ADVICE_MEMBERS[1]) == 1 for text in states)
    before = _without_advice(texts)
    chatless = _without_chat(before)
    assert (_digest(before), _digest(_with_whole_log(chatless))) == BEFORE_ADVICE_DIGESTS
