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

DIGEST = "1e4b03dd01dce19698bd285f8e89b5cbbd0ba0783b40a5b15b103c66ef49315c"
COUNT = 30
"""The fair deck (server/fair_deal.py): the ``state`` has ``fair`` after ``desk`` (the deck's
commitment, values and seed; :data:`FAIR_MEMBER`, null at this seeded table, which deals from
its seed); with it taken out the messages give :data:`DESK_DIGEST` exactly
(:func:`test_only_the_fair_deck_was_added`).

The desk (server/home_desk.py): the ``state`` ends its members before ``seats`` with
``desk`` (the lock, the co-host, the caps and the requests: :data:`DESK_MEMBER` at a table
with none); with it taken out the messages give :data:`BEFORE_DESK_DIGEST` exactly
(:func:`test_only_the_desk_was_added`), and the tests below read them so.

Issue 15's draw hint added ``advice`` to the ``table`` object, its ``options`` and the
``state``; with those members taken out the messages give the digest before it
(ccf60424..., :data:`BEFORE_ADVICE_DIGESTS`) exactly (:func:`test_only_the_draw_hint_was_added`),
and the tests below read them so.

Issue 13's chat: a connection is sent the chat's newest messages (``chat_log``) before
its first state; without it the messages give :data:`BEFORE_CHAT_DIGEST` exactly
(:func:`test_only_the_chat_log_was_added`).

Issue 13's spectators: the ``table`` object ends with ``watch`` (``{"open", "delay",
"spectators"}``);
with it taken out, the messages give the digests before it (:data:`BEFORE_WATCH_DIGESTS`)
exactly (:func:`test_only_the_watch_link_was_added`).

Issue 13: the English log says "Bot 1 stands pat", no longer "Bot 1: servito (stands
pat)"; with those two lines written back as before, the messages gave the earlier digests
(cba410dd..., 5311076e...) exactly. Each pot of a state's ``result.awards`` also carries its
sentence of the report (``line``, issue 13); with it taken out, the messages gave the
digests before it (7e361a88..., 98ec7d89...) exactly.

Issue 38 (the table as a newcomer reads it) changed what the messages say, not their
members but one: the ``state`` has ``blind`` after ``requirement`` (a blind was bet: no
opening is needed, Art. 2), a legal action's ``label`` carries its amount as the terminal's
button does (``Call 1``, ``Raise 2-11``; ``Call 1 (to 2)`` with chips in already), the
reasons cite ``(6, ranking)``, and shown hands come in the hand's order (``Q♦ Q♣ J♣ J♠
10♦``). The held order of a shown hand is not in the messages, so the digests before it
cannot be rebuilt from them: every digest here is of the messages since issue 38 (those
before were abe3f135..., a00d95fb..., 201ad17c..., d22cec16..., 314a2508..., 41f603a6...),
each with the later members taken out as its test says.

The table shows a hand at once where showing is the only legal action (5.4; table/defaults.py's
``forced_action``): in the first deal Bot 1, Bot 2 and the person no longer have a turn to
show (the person was asked to press Show), the person's next message after their check
carries the three shows, and the game sends 30 messages, not 32. The deals after it differ
from the first show on, as they must: a live table's test seed is derived from the event's
number (``derive_seed(..., "deal", table, seq)``), and the shows are no longer events of their
own. The bots are named as the terminal's (Bruno and Carla, the host being Anna, where
they were Bot 1 and Bot 2): with those names written back, the messages are the same. The
``table`` object also ends with ``hand_size`` and ``max_draw`` (one source for each
rule constant), which the digests before it (4a8c898c..., 6fe93ffb..., a2a79d6d...,
40e2c9ea..., 8277fa81..., 8957a935..., b38ace7a..., ccf60424...) did not have: with the
shows back as turns of their own and those members taken out, the messages gave them
exactly. Every digest here is of the messages since the automatic show, each with the later
members taken out as its test says.

Since issue 12 the public lines travel in the ``state`` (``events``), not as 42 messages
of their own: the 73 messages before, rebuilt from the 31 then (each state's ``events`` taken
out and sent ahead of it as ``event`` messages), gave the earlier digest exactly."""
BEFORE_DESK_DIGEST = "2f1406152e916822a7288b7da30de4c5bb93116e4f1e22e538511243f3bce395"
""":data:`DESK_DIGEST` before the ``state`` had ``desk``."""
DESK_DIGEST = "ba5a9eb63fe4ee0cbc60e5cf640567ed48d6472629f79e99d367e167f032e3dc"
""":data:`DIGEST` before the ``state`` had ``fair``."""
FAIR_MEMBER = ',"fair":null'
"""The ``state``'s ``fair`` at a seeded table (it deals from its seed, not a sealed deck)."""
DESK_MEMBER = (
    ',"desk":{"locked":false,"co_host":null,"caps":{"minimum":1,"maximum":null,"times":null,'
    '"until_level":null,"during_deal":true},"chips":[],"seats":[],"answers":{}}'
)
"""The ``state``'s ``desk`` at a table with no request, unlocked, with the default caps."""
BEFORE_CHAT_DIGEST = "f1958597e07ce0af10b97163686c8f51f193e213e0f0c9dcb820e8130788fd0f"
"""The digest of the 29 messages but the chat's; the tests below it read them so."""
WHOLE_LOG_DIGEST = "bc7e1e6b8204af7a9c7776525705ab455e47e2333d858a741a8a4451011b3b61"
"""The digest of the same 29 messages when every ``state`` carried the whole recent log.
Since issue 12 only a connection's first state (and one that is no event's) does: the
others carry only their ``events``, and :func:`_with_whole_log` rebuilds the log from them
as the page does, giving this digest back."""
BEFORE_LEDGER_DIGESTS = (
    "eda8727926198525a576e7eda1ef0534030fb7e4cd3e0264a5977a8a63a77164",
    "c696ce89c7f52517b34412e6c54febb46ce1d3ea10c9ed5af8e98bebb748fb4b",
)
""":data:`DIGEST` and :data:`WHOLE_LOG_DIGEST` before issue 13's ledger gave the ``table`` object,
and its ``options``, the member ``players_see_ledger``: the messages without it give them
back exactly (:func:`test_only_the_ledgers_visibility_was_added`)."""
BEFORE_WATCH_DIGESTS = (
    "a9b87e619704f9684f274535a65574adfac07a195e0efdbd0d078254f63a9e8e",
    "33502a95a8658b2a5d98cd5bf212ff701d5a7e5811804c8b265883a95efafa67",
)
""":data:`DIGEST` and :data:`WHOLE_LOG_DIGEST` before the ``table`` object had ``watch``."""
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


def _game(client: TestClient, *, keep_desk: bool = False) -> list[str]:
    """The game's messages, the invite written ``INVITE``; without the ``state``'s ``desk``
    and ``fair`` unless ``keep_desk`` (every test but the first three reads them without
    them)."""
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
    texts = [text.replace(invite, "INVITE") for text in texts]
    if keep_desk:
        return texts
    return [text.replace(DESK_MEMBER + FAIR_MEMBER, "") for text in texts]


def _game_with_desk(client: TestClient) -> list[str]:
    """:func:`_game`'s messages as the server sends them: ``desk`` and ``fair`` in every
    state."""
    return _game(client, keep_desk=True)


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
    texts = _game_with_desk(client)
    assert (len(texts), _digest(texts)) == (COUNT, DIGEST)


def test_only_the_fair_deck_was_added(client: TestClient) -> None:
    texts = _game_with_desk(client)
    assert all(text.count(FAIR_MEMBER) == 1 for text in texts if '"type":"state"' in text)
    before = [text.replace(FAIR_MEMBER, "") for text in texts]
    assert _digest(before) == DESK_DIGEST


def test_only_the_desk_was_added(client: TestClient) -> None:
    texts = [text.replace(FAIR_MEMBER, "") for text in _game_with_desk(client)]
    assert all(text.count(DESK_MEMBER) == 1 for text in texts if '"type":"state"' in text)
    before = [text.replace(DESK_MEMBER, "") for text in texts]
    assert _digest(before) == BEFORE_DESK_DIGEST


def test_only_the_chat_log_was_added(client: TestClient) -> None:
    texts = _without_advice(_game(client))
    assert json.loads(texts[0]) == {
        "type": "chat_log",
        "you": 1,
        "max_length": 200,
        "messages": [],
    }
    assert _without_chat(texts) == texts[1:]
    assert (len(texts[1:]), _digest(texts[1:])) == (29, BEFORE_CHAT_DIGEST)


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
"""Issue 15's draw hint: the ``table`` object and its ``options`` have ``advice`` (the
host's switch; false on a server without an advisor, as here) and the ``state`` has
``advice`` after ``legal`` (null but for the drawing seat during its draw)."""
BEFORE_ADVICE_DIGESTS = (
    "70caf226dab4c6b65882b5851d957080d78372eea1952ce09e6acdf947fb64e8",
    WHOLE_LOG_DIGEST,
)
""":data:`DIGEST` before the draw hint, and :data:`WHOLE_LOG_DIGEST` (which, like the
digests before it, is of the messages without the hint's members)."""


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
