"""What the API takes from outside, tried as an attacker would: odd path parameters, numbers
beyond what the database holds, look-alike nicknames. Every refusal is a 4xx with a message
(never a 500), and nothing changes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_fixtures import (
    AppFactory,
    act,
    bearer,
    catch_up,
    connect,
    create_table,
    hello,
    join,
    next_message,
    receive_json,
)
from starlette.websockets import WebSocketDisconnect

from italian_poker.server.limits import MAX_CHIPS

# --- path parameters -----------------------------------------------------------------------

ODD = (
    "%C2%B2",  # ²: str.isdigit() is true, int() fails
    "%D9%A1",  # Arabic-Indic one: int() reads it as 1
    "%F0%9D%9F%8F",  # mathematical bold one
    "-1",
    "1" + "0" * 30,
    "4294967296",
    "%20",
    "%201",
    "1%20",
    "%2E%2E",
    "1.phh.phh",
    "%00",
    "%FF",
    "+1",
    "1_0",
    "0x1",
    "1e3",
    "1.0",
    "x" * 3000,
    "%E2%80%AE1",  # right-to-left override
)

ROUTES = (
    ("GET", "/t/{invite}", "none"),
    ("GET", "/t/{invite}/hands/{hand}", "none"),
    ("GET", "/api/tables/{invite}", "none"),
    ("POST", "/api/tables/{invite}/seats", "none"),
    ("POST", "/api/tables/{invite}/bots", "host"),
    ("DELETE", "/api/tables/{invite}/seats/{seat}", "host"),
    ("POST", "/api/tables/{invite}/start", "host"),
    ("POST", "/api/tables/{invite}/pause", "host"),
    ("POST", "/api/tables/{invite}/resume", "host"),
    ("POST", "/api/tables/{invite}/stacks", "host"),
    ("GET", "/api/tables/{invite}/ledger", "host"),
    ("POST", "/api/tables/{invite}/sit-out", "player"),
    ("POST", "/api/tables/{invite}/sit-in", "player"),
    ("GET", "/api/tables/{invite}/histories", "player"),
    ("GET", "/api/tables/{invite}/histories/{hand}", "player"),
    ("GET", "/api/tables/{invite}/histories/{hand}.phh", "player"),
    ("GET", "/api/tables/{invite}/stats", "player"),
    ("GET", "/api/tables/{invite}/histories/{hand}/frames", "player"),
)
BODIES = {
    "/seats": {"nickname": "Zeno"},
    "/bots": {"level": "simple"},
    "/stacks": {"seat": 1, "amount": 50},
}


@pytest.fixture
def odd_client(make_app: AppFactory) -> Iterator[TestClient]:
    """A client that reports a server error as a 500 response instead of raising it."""
    with TestClient(make_app(), raise_server_exceptions=False) as running:
        yield running


def _call(
    client: TestClient, method: str, path: str, token: str | None, body: dict[str, Any] | None
) -> Any:
    headers = bearer(token) if token else {}
    return client.request(method, path, headers=headers, json=body, follow_redirects=False)


def _slots(template: str) -> list[str]:
    return [slot for slot in ("invite", "seat", "hand") if "{" + slot + "}" in template]


@pytest.mark.parametrize(
    ("method", "template", "who", "slot"),
    [(m, t, w, slot) for m, t, w in ROUTES for slot in _slots(t)],
    ids=[f"{m} {t} [{slot}]" for m, t, _ in ROUTES for slot in _slots(t)],
)
def test_malformed_path_parameters_are_4xx(
    odd_client: TestClient, method: str, template: str, who: str, slot: str
) -> None:
    """Every route, every parameter, every odd value: a 4xx with a JSON message (the page
    route: a plain 404), never a 500; and the table is unchanged."""
    table = create_table(odd_client)
    invite = table["invite"]
    join(odd_client, invite, "Bruno")
    token = {"host": table["host_token"], "player": table["player_token"], "none": None}[who]
    body = next((b for suffix, b in BODIES.items() if template.endswith(suffix)), None)
    before = odd_client.get(f"/api/tables/{invite}").json()
    for value in ODD:
        values = {"invite": invite, "seat": "1", "hand": "1", slot: value}
        path = template.format(**values)
        response = _call(odd_client, method, path, token, body)
        assert 400 <= response.status_code < 500, (path, response.status_code, response.text)
        if path.startswith("/api/"):
            error = response.json()
            assert isinstance(error["error"], str) and error["message"], (path, error)
    assert odd_client.get(f"/api/tables/{invite}").json() == before


def test_history_with_a_superscript_digit_is_a_4xx_not_a_500(odd_client: TestClient) -> None:
    table = create_table(odd_client)
    mine = bearer(table["player_token"])
    for path in ("%C2%B2", "%C2%B2.phh", "%D9%A1", "%D9%A1.phh"):
        response = odd_client.get(f"/api/tables/{table['invite']}/histories/{path}", headers=mine)
        assert response.status_code == 422, (path, response.text)
        assert response.json()["error"] == "bad_request"
        assert "hand" in response.json()["message"]


def test_odd_tokens_are_refused_with_403(odd_client: TestClient) -> None:
    table = create_table(odd_client)
    invite = table["invite"]
    other = create_table(odd_client)
    for authorization in (
        "Bearer ²".encode(),
        "Bearer " + "x" * 6000,
        "Bearer",
        "Bearer  ",
        "Basic " + table["host_token"],
        table["host_token"],
        "Bearer " + table["host_token"] + "x",
        "Bearer " + other["host_token"],  # another table's host token
        "Bearer " + other["player_token"],
    ):
        headers = {"Authorization": authorization}
        for method, path in (
            ("POST", "/start"),
            ("GET", "/ledger"),
            ("GET", "/histories"),
            ("POST", "/sit-out"),
        ):
            response = odd_client.request(method, f"/api/tables/{invite}{path}", headers=headers)
            assert response.status_code == 403, (authorization[:20], path, response.text)


@pytest.mark.parametrize("invite", ["%C2%B2", "x" * 3000, "%00", "%E2%80%AE", "-1"])
def test_odd_invites_on_the_websocket_close_4404(odd_client: TestClient, invite: str) -> None:
    with odd_client.websocket_connect(
        f"/ws/tables/{invite}", headers={"origin": "http://testserver"}
    ) as ws:
        assert next_message(ws, "error")["code"] == "no_table"


# --- numbers ---------------------------------------------------------------------------------


def test_a_stack_of_10_19_chips_is_a_422_with_the_allowed_range(odd_client: TestClient) -> None:
    table = create_table(odd_client)
    invite, host = table["invite"], bearer(table["host_token"])
    for amount in (10**19, -(10**19), MAX_CHIPS + 1, 0, 1.5, "100", True):
        response = odd_client.post(
            f"/api/tables/{invite}/stacks", json={"seat": 0, "amount": amount}, headers=host
        )
        assert response.status_code == 422, (amount, response.text)
        error = response.json()
        assert error["error"] == "bad_request" and "amount" in error["message"], error
        if isinstance(amount, int) and not isinstance(amount, bool):
            assert f"1 to {MAX_CHIPS}" in error["message"], error
    lobby = odd_client.get(f"/api/tables/{invite}").json()
    assert lobby["seats"][0]["stack"] == 200


def test_seat_numbers_beyond_the_table_are_refused(odd_client: TestClient) -> None:
    table = create_table(odd_client)
    invite, host = table["invite"], bearer(table["host_token"])
    for seat in (10**19, -1, 9, True, "1"):
        response = odd_client.post(
            f"/api/tables/{invite}/stacks", json={"seat": seat, "amount": 5}, headers=host
        )
        assert response.status_code == 422, (seat, response.text)
        assert "seat" in response.json()["message"]
    for seat in ("4", "8"):  # a seat number the server allows, not at this 4-seat table
        response = odd_client.delete(f"/api/tables/{invite}/seats/{seat}", headers=host)
        assert response.status_code == 404


@pytest.mark.every_database
def test_the_table_never_holds_more_chips_than_the_ledger_column(odd_client: TestClient) -> None:
    """Every chip count the ledger records (a buy-in, an adjustment, a deal's net result, a
    cash-out) is at most the whole table's chips: those are kept within what the database's
    32-bit column holds, or the deal that won them could never be saved (PostgreSQL)."""
    table = create_table(odd_client, seats=3)
    invite, host = table["invite"], bearer(table["host_token"])
    join(odd_client, invite, "Bruno")
    room = MAX_CHIPS - 200  # Bruno's 200 chips
    set_anna = odd_client.post(
        f"/api/tables/{invite}/stacks", json={"seat": 0, "amount": room}, headers=host
    )
    assert set_anna.status_code == 200, set_anna.text
    too_many = odd_client.post(
        f"/api/tables/{invite}/stacks", json={"seat": 1, "amount": 201}, headers=host
    )
    assert too_many.status_code == 422 and "1 to 200" in too_many.json()["message"]
    no_room = odd_client.post(f"/api/tables/{invite}/seats", json={"nickname": "Carla"})
    assert no_room.status_code == 409 and no_room.json()["error"] == "table_chips"
    bot = odd_client.post(f"/api/tables/{invite}/bots", json={"level": "simple"}, headers=host)
    assert bot.status_code == 409
    assert odd_client.get(f"/api/tables/{invite}/ledger", headers=host).status_code == 200


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"stack": 10**19}, "stack"),
        ({"stack": 300_000_000}, "stack"),  # with 9 seats, more than the column holds
        ({"ante": 10**19}, "ante"),
        ({"seats": 10**19}, "seats"),
        ({"turn_seconds": 10**19}, "turn_seconds"),
        ({"time_bank_seconds": -(10**19)}, "time_bank_seconds"),
        ({"seats": True}, "seats"),
        ({"host_nickname": 7}, "host_nickname"),
    ],
)
def test_table_settings_beyond_the_columns_are_a_422(
    odd_client: TestClient, body: dict[str, Any], field: str
) -> None:
    data = {"host_nickname": "Anna", "seats": 9} | body
    response = odd_client.post("/api/tables", json=data)
    assert response.status_code == 422, response.text
    assert field in response.json()["message"], response.json()


def test_an_action_of_10_19_chips_over_the_websocket_is_refused_cleanly(
    client: TestClient,
) -> None:
    table = create_table(client)
    invite = table["invite"]
    other = join(client, invite, "Bruno")
    host = bearer(table["host_token"])
    assert client.post(f"/api/tables/{invite}/start", headers=host).status_code == 200
    with connect(client, invite, "") as wa, connect(client, invite, "") as wb:
        sa, sb = hello(wa, table["player_token"]), hello(wb, other["player_token"])
        sa = catch_up(wa, sa, sb["seq"])
        sb = catch_up(wb, sb, sa["seq"])
        ws, state = (wa, sa) if sa["state"]["to_act"] == 0 else (wb, sb)
        for kind in ("open", "raise", "blind", "bet"):
            for amount in (10**19, -(10**19), MAX_CHIPS + 1):
                act(ws, state, {"kind": kind, "amount": amount, "cards": [], "split": False})
                error = next_message(ws, "error")
                assert error["code"] == "bad_message", error
                assert f"0 to {MAX_CHIPS}" in error["message"], error
        for key in ("hand", "seq"):
            ws.send_json(
                {"type": "action", **{"hand": state["hand"], "seq": state["seq"], key: 10**19}}
                | {"action": {"kind": "pass"}}
            )
            error = next_message(ws, "error")
            assert error["code"] == "bad_message" and key in error["message"], error
        ws.send_json({"type": "hello"})
        again = next_message(ws, "state")
        assert again["seq"] == state["seq"] and again["state"]["to_act"] == state["state"]["to_act"]
        ws.send_json({"type": "ping"})
        assert next_message(ws, "pong") == {"type": "pong"}


# --- nicknames -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seated", "nickname", "status"),
    [
        ("Hana", "hana", 409),
        ("Hana", "HANA", 409),
        ("Hana", "\uff28ana", 409),  # fullwidth H
        ("Hana", "H\u0430na", 422),  # Cyrillic a: Latin mixed with Cyrillic
        ("Hana", "\u0397ana", 422),  # Greek Eta
        ("Hana", "Ha\u200bna", 422),  # zero-width space
        ("Hana", "Ha\u00adna", 422),  # soft hyphen
        ("Hana", "\u202eanaH", 422),  # right-to-left override
        ("Hana", "Hana\u0000", 422),
        ("Hana", "Ha\tna", 422),
        ("Hana", "\u3164", 422),  # Hangul filler: blank
        ("Hana", "\u2800", 422),  # Braille blank
        ("Hana", "   ", 422),
        ("Hana", "\u0301Hana", 422),  # begins with a combining mark
        ("Hana", "Ha  na", 201),  # another name: Ha na
        ("Ha na", "Ha  na", 409),  # the same, spaced out
        ("Pace", "\u0420\u0430\u0441\u0435", 409),  # Cyrillic "Расе" looks like Pace
        ("\u0420\u0430\u0441\u0435", "PACE", 409),
        ("Hana", "Hana\u00b2", 201),  # superscript two is the name "Hana2"
        ("Hana2", "Hana\u00b2", 409),
    ],
)
def test_look_alike_nicknames_are_refused(
    client: TestClient, seated: str, nickname: str, status: int
) -> None:
    table = create_table(client, host_nickname=seated)
    response = client.post(f"/api/tables/{table['invite']}/seats", json={"nickname": nickname})
    assert response.status_code == status, response.text
    if status == 409:
        assert response.json()["error"] == "nickname_taken"
        assert seated in response.json()["message"]
    elif status == 422:
        assert response.json()["error"] == "bad_nickname"


@pytest.mark.parametrize(
    "nickname",
    [
        "Núria",
        "Ça va",
        "José María",
        "Zoë",
        "O'Brien",
        "Jean-Luc",
        "Anna 2",
        "Дмитрий",
        "Ἀθηνᾶ",
        "太郎",
        "たろう",
        "Taro 太郎",
        "김민수",
        "محمد",
        "🃏 Jolly",
    ],
)
def test_names_in_one_script_are_welcome_and_kept_as_typed(
    client: TestClient, nickname: str
) -> None:
    table = create_table(client)
    response = client.post(f"/api/tables/{table['invite']}/seats", json={"nickname": nickname})
    assert response.status_code == 201, response.text
    lobby = client.get(f"/api/tables/{table['invite']}").json()
    assert lobby["seats"][1]["nickname"] == nickname


def test_the_host_nickname_follows_the_same_rules(client: TestClient) -> None:
    response = client.post("/api/tables", json={"host_nickname": "H\u0430na"})
    assert response.status_code == 422 and response.json()["error"] == "bad_nickname"
    response = client.post("/api/tables", json={"host_nickname": "Ha\u200bna"})
    assert response.status_code == 422


def test_a_bot_is_named_as_the_terminals_but_not_like_a_seated_player(
    client: TestClient,
) -> None:
    table = create_table(client, host_nickname="ANNA")
    host = bearer(table["host_token"])
    names = []
    for _ in range(2):
        bot = client.post(
            f"/api/tables/{table['invite']}/bots", json={"level": "simple"}, headers=host
        )
        assert bot.status_code == 201, bot.text
        names.append(bot.json()["nickname"])
    assert names == ["Bruno", "Carla"]


@pytest.mark.parametrize("name", ["a\u0000b", "\u202eevil", "Ta\u200bvolo", "one\ntwo", "a\tb"])
def test_a_table_name_with_control_or_invisible_characters_is_a_422(
    odd_client: TestClient, name: str
) -> None:
    """The table's name is shown to every player, as nicknames are: the same characters are
    refused (a NUL was also a 500 on PostgreSQL, whose text columns cannot hold one)."""
    response = odd_client.post("/api/tables", json={"host_nickname": "Anna", "name": name})
    assert response.status_code == 422, response.text
    assert response.json()["error"] == "bad_name"


# --- malformed bodies and messages -----------------------------------------------------------


def test_deeply_nested_json_over_the_websocket_is_a_bad_message(client: TestClient) -> None:
    """Nested arrays within the size limit made ``json.loads`` raise RecursionError, which
    ended the connection with a traceback in the log; it is a ``bad_message`` like any other
    malformed message, and the connection goes on."""
    table = create_table(client)
    with connect(client, table["invite"], "") as ws:
        hello(ws, table["player_token"])
        for text in ("[" * 2000 + "]" * 2000, '{"type":' + "[" * 2000 + "]" * 2000 + "}"):
            ws.send_text(text)
            assert next_message(ws, "error")["code"] == "bad_message"
        ws.send_json({"type": "ping"})
        assert next_message(ws, "pong") == {"type": "pong"}


def test_a_deeply_nested_hello_is_refused_as_a_wrong_token(client: TestClient) -> None:
    table = create_table(client)
    with connect(client, table["invite"], "") as ws:
        ws.send_text("[" * 2000 + "]" * 2000)
        assert next_message(ws, "error")["code"] == "unauthorized"
        with pytest.raises(WebSocketDisconnect) as closed:
            receive_json(ws)
    assert closed.value.code == 4401


NOT_STRINGS = (
    {"type": []},
    {"type": {"a": 1}},
    {"type": "action", "hand": 0, "seq": 0, "action": {"kind": []}},
    {"type": "action", "hand": 0, "seq": 0, "action": {"kind": {}}},
)


def test_a_type_or_an_action_kind_that_is_no_string_is_a_bad_message(client: TestClient) -> None:
    """A list or an object as the message's ``type`` or the action's ``kind`` raised
    TypeError (it is not hashable) and ended the connection with a traceback in the log; it
    is a ``bad_message`` like any other, and the connection goes on."""
    table = create_table(client)
    with connect(client, table["invite"], "") as ws:
        hello(ws, table["player_token"])
        for message in NOT_STRINGS:
            ws.send_json(message)
            error = next_message(ws, "error")
            assert error["code"] == "bad_message", (message, error)
        ws.send_json({"type": "ping"})
        assert next_message(ws, "pong") == {"type": "pong"}
    for message in NOT_STRINGS:  # as the first message: a hello without a token
        with connect(client, table["invite"], "") as ws:
            ws.send_json(message)
            assert next_message(ws, "error")["code"] == "unauthorized"
            with pytest.raises(WebSocketDisconnect) as closed:
                receive_json(ws)
        assert closed.value.code == 4401


def test_http_errors_are_json_with_an_error_and_a_message(odd_client: TestClient) -> None:
    table = create_table(odd_client)
    invite = table["invite"]
    for method, path, body, status in (
        ("GET", "/api/nothing-here", None, 404),
        ("PUT", f"/api/tables/{invite}/start", None, 405),
        ("POST", f"/api/tables/{invite}/seats", "[" * 5000 + "]" * 5000, 400),
        ("POST", f"/api/tables/{invite}/seats", "{nope", 422),
    ):
        response = odd_client.request(
            method, path, content=body, headers={"content-type": "application/json"}
        )
        assert response.status_code == status, (path, response.text)
        error = response.json()
        assert set(error) == {"error", "message"} and error["message"], error


def test_a_request_body_over_the_limit_is_a_413_unread(odd_client: TestClient) -> None:
    """A client cannot make the server hold megabytes: bodies are limited (16 KiB), by
    their Content-Length before anything is read, and as they arrive when chunked."""
    table = create_table(odd_client)
    path = f"/api/tables/{table['invite']}/seats"
    big = b'{"nickname": "' + b"a" * (1 << 20) + b'"}'
    response = odd_client.post(path, content=big, headers={"content-type": "application/json"})
    assert response.status_code == 413 and response.json()["error"] == "too_large"

    def chunks() -> Iterator[bytes]:
        yield b'{"nickname": "'
        for _ in range(64):
            yield b"a" * 1024
        yield b'"}'

    response = odd_client.post(path, content=chunks(), headers={"content-type": "application/json"})
    assert response.status_code == 413 and response.json()["error"] == "too_large"
    assert odd_client.post(path, json={"nickname": "Bruno"}).status_code == 201


def test_a_binary_hello_is_refused_as_a_wrong_token(client: TestClient) -> None:
    """A binary first frame made ``receive_text`` raise KeyError: the connection dropped
    without a close code and the log got a traceback."""
    table = create_table(client)
    with connect(client, table["invite"], "") as ws:
        ws.send_bytes(json.dumps({"type": "hello", "token": table["player_token"]}).encode())
        assert next_message(ws, "error")["code"] == "unauthorized"
        with pytest.raises(WebSocketDisconnect) as closed:
            receive_json(ws)
    assert closed.value.code == 4401


def test_the_table_and_the_token_are_checked_before_the_body(odd_client: TestClient) -> None:
    """Who may call a route is a dependency (server/dependencies.py), which FastAPI resolves
    before it reads the route's body and its seat or hand: an unknown table is a 404 and a
    missing token a 403, whatever else the request holds."""
    table = create_table(odd_client)
    invite = table["invite"]
    unknown = "z" * 24
    for method, path, body in (
        ("POST", f"/api/tables/{unknown}/seats", {"nickname": 7}),
        ("POST", f"/api/tables/{unknown}/stacks", {"seat": 99}),
        ("DELETE", f"/api/tables/{unknown}/seats/99", None),
    ):
        response = _call(odd_client, method, path, None, body)
        assert (response.status_code, response.json()["error"]) == (404, "no_table"), path
    for method, path, body in (
        ("POST", f"/api/tables/{invite}/stacks", {"seat": 99}),
        ("POST", f"/api/tables/{invite}/bots", {"level": 3}),
        ("DELETE", f"/api/tables/{invite}/seats/99", None),
        ("GET", f"/api/tables/{invite}/histories/0", None),
    ):
        response = _call(odd_client, method, path, None, body)
        assert (response.status_code, response.json()["error"]) == (403, "forbidden"), path
    with_token = _call(
        odd_client, "DELETE", f"/api/tables/{invite}/seats/99", table["host_token"], None
    )
    assert (with_token.status_code, with_token.json()["error"]) == (422, "bad_request")
