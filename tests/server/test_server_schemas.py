"""The API's typed models (server/schemas/, server/protocol.py): the OpenAPI schema
documents every route's response, the responses are written in their models' field order,
and a client's WebSocket message is read into its model."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_fixtures import bearer, bot_factory, create_table, join

from italian_poker.engine.actions import Action, ActionKind
from italian_poker.engine.cards import parse_cards
from italian_poker.server.app import create_app
from italian_poker.server.client_messages import (
    ActionMessage,
    BadMessage,
    Hello,
    Ping,
    SitIn,
    SitOut,
    parse_message,
)
from italian_poker.server.settings import ServerSettings


@pytest.fixture(scope="module")
def openapi(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder: Path = tmp_path_factory.mktemp("openapi")
    settings = ServerSettings(database_url=f"sqlite:///{folder / 'server.sqlite3'}")
    return create_app(settings, bot_factory).openapi()


def _component(openapi: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    name = schema["$ref"].removeprefix("#/components/schemas/")
    found: dict[str, Any] = openapi["components"]["schemas"][name]
    return found


def _answer(openapi: dict[str, Any], method: str, path: str, status: str) -> dict[str, Any]:
    response = openapi["paths"][path][method]["responses"][status]
    return _component(openapi, response["content"]["application/json"]["schema"])


def test_the_schema_documents_the_response_models(openapi: dict[str, Any]) -> None:
    created = _answer(openapi, "post", "/api/tables", "201")
    assert created["title"] == "TableCreated"
    assert list(created["properties"]) == [
        "invite",
        "invite_url",
        "host_token",
        "player_token",
        "seat",
        "watch",
        "watch_url",
    ]
    assert created["properties"]["seat"]["type"] == "integer"
    lobby = _answer(openapi, "get", "/api/tables/{invite}", "200")
    assert lobby["title"] == "LobbyTable"
    assert list(lobby["properties"]) == [
        "name",
        "status",
        "rules",
        "options",
        "seats",
        "hand",
        "players_see_ledger",
        "advice",
    ]
    status = _component(openapi, lobby["properties"]["status"])
    assert status["enum"] == ["lobby", "playing", "paused"]
    seat = _component(openapi, lobby["properties"]["seats"]["items"])
    assert list(seat["properties"]) == [
        "seat",
        "nickname",
        "bot",
        "stack",
        "sitting_out",
        "connected",
    ]
    assert _answer(openapi, "post", "/api/tables/{invite}/seats", "201")["title"] == "SeatTaken"
    bot = _answer(openapi, "post", "/api/tables/{invite}/bots", "201")
    assert list(bot["properties"]) == ["seat", "nickname", "level"]
    ledger = _answer(openapi, "get", "/api/tables/{invite}/ledger", "200")
    entry = _component(openapi, ledger["properties"]["ledger"]["items"])
    assert list(entry["properties"]) == ["nickname", "player", "kind", "amount", "hand", "created"]
    summary = _component(openapi, ledger["properties"]["summary"])
    assert list(summary["properties"]) == ["people", "in_pot", "totals", "settle_up"]
    settle = summary["properties"]["settle_up"]["anyOf"]
    assert settle[1] == {"type": "null"}
    transfer = _component(openapi, settle[0]["items"])
    assert transfer["title"] == "Transfer"
    assert list(transfer["properties"]) == [
        "payer",
        "payer_player",
        "payee",
        "payee_player",
        "amount",
    ]
    person = _component(openapi, summary["properties"]["people"]["items"])
    assert list(person["properties"]) == [
        "player",
        "nickname",
        "bought_in",
        "cashed_out",
        "stack",
        "net",
        "seated",
    ]
    totals = _component(openapi, summary["properties"]["totals"])
    assert list(totals["properties"]) == ["bought_in", "cashed_out", "stack", "net"]
    visibility = _answer(openapi, "post", "/api/tables/{invite}/ledger-visibility", "200")
    assert visibility["title"] == "LobbyTable"
    watch = _answer(openapi, "post", "/api/tables/{invite}/watch", "200")
    assert list(watch["properties"]) == ["open", "delay", "watch", "watch_url"]
    hands = _answer(openapi, "get", "/api/tables/{invite}/histories", "200")
    assert hands["properties"]["hands"] == {
        "items": {"type": "integer"},
        "type": "array",
        "title": "Hands",
    }
    for path in ("/api/tables/{invite}/start", "/api/tables/{invite}/sit-out"):
        assert _answer(openapi, "post", path, "200")["title"] == "LobbyTable"
    stats = _answer(openapi, "get", "/api/tables/{invite}/stats", "200")
    assert stats["title"] == "TableStats" and list(stats["properties"]) == ["players", "totals"]
    row = _component(openapi, stats["properties"]["players"]["items"])
    assert list(row["properties"])[:2] == ["name", "played"]
    assert row["properties"]["opened"]["description"].startswith("Deals the player opened")
    group = _answer(openapi, "post", "/api/stats", "200")
    assert group["title"] == "GroupStats"
    assert list(group["properties"]) == ["tables", "players", "totals"]
    asked = openapi["paths"]["/api/stats"]["post"]["requestBody"]["content"]["application/json"]
    query = _component(openapi, asked["schema"])
    assert query["properties"]["tables"]["maxItems"] == 50
    assert query["properties"]["tables"]["minItems"] == 1


def test_every_api_route_has_a_response_schema_and_errors_are_error_bodies(
    openapi: dict[str, Any],
) -> None:
    operations = [
        (method, path, operation)
        for path, methods in openapi["paths"].items()
        for method, operation in methods.items()
    ]
    # advice, the server's facts, the desk's eight routes and the fair decks' two among them
    assert len(operations) == 35
    for method, path, operation in operations:
        where = f"{method.upper()} {path}"
        assert path.startswith("/api/"), where
        answers = operation["responses"]
        success = [status for status in answers if status.startswith("2")]
        assert len(success) == 1, where
        content = answers[success[0]].get("content")
        assert content and all(entry.get("schema") for entry in content.values()), where
        errors = {status: answers[status] for status in answers if status.startswith("4")}
        # /api/server takes nothing, so it cannot be refused; the lobby's forms refuse bad
        # fields (422); every route under a table's invite may also not find it (404).
        expected = {
            "/api/server": set(),
            "/api/tables": {"422"},
            "/api/stats": {"422"},
        }.get(path, {"404", "422"})
        assert expected <= set(errors), where
        for status, answer in errors.items():
            schema = answer["content"]["application/json"]["schema"]
            assert _component(openapi, schema)["title"] == "ErrorBody", (where, status)
    assert "HTTPValidationError" not in openapi["components"]["schemas"]
    phh = openapi["paths"]["/api/tables/{invite}/histories/{hand}.phh"]["get"]
    assert list(phh["responses"]["200"]["content"]) == ["application/toml"]
    csv = openapi["paths"]["/api/tables/{invite}/ledger.csv"]["get"]
    assert list(csv["responses"]["200"]["content"]) == ["text/csv"]


def test_host_and_player_routes_ask_for_the_authorization_header(
    openapi: dict[str, Any],
) -> None:
    for path, methods in openapi["paths"].items():
        for method, operation in methods.items():
            headers = [p["name"] for p in operation.get("parameters", []) if p["in"] == "header"]
            tag = operation["tags"][0]
            # The group's statistics take a token a table, in the body.
            no_header = tag in ("lobby", "group")
            assert headers == ([] if no_header else ["authorization"]), (method, path)


def _schema_fields(openapi: dict[str, Any], name: str) -> list[str]:
    return list(openapi["components"]["schemas"][name]["properties"])


def test_responses_are_written_in_their_models_field_order(
    client: TestClient, openapi: dict[str, Any]
) -> None:
    """The JSON the browser reads has the members the schema documents, in its order."""
    table = create_table(client)
    invite, host = table["invite"], bearer(table["host_token"])
    assert list(table) == _schema_fields(openapi, "TableCreated")
    assert list(join(client, invite, "Bruno")) == _schema_fields(openapi, "SeatTaken")
    bot = client.post(f"/api/tables/{invite}/bots", json={"level": "random"}, headers=host)
    assert list(bot.json()) == _schema_fields(openapi, "BotAdded")
    lobby = client.get(f"/api/tables/{invite}").json()
    assert list(lobby) == _schema_fields(openapi, "LobbyTable")
    for seat in lobby["seats"]:
        assert list(seat) == _schema_fields(openapi, "LobbySeat")
    ledger = client.get(f"/api/tables/{invite}/ledger", headers=host).json()
    assert list(ledger) == ["ledger", "summary"] and ledger["ledger"]
    for row in ledger["ledger"]:
        assert list(row) == _schema_fields(openapi, "LedgerEntry")
    assert list(ledger["summary"]) == _schema_fields(openapi, "LedgerSummary")
    assert list(ledger["summary"]["totals"]) == _schema_fields(openapi, "LedgerTotals")
    for person in ledger["summary"]["people"]:
        assert list(person) == _schema_fields(openapi, "LedgerPerson")
    for transfer in ledger["summary"]["settle_up"] or []:
        assert list(transfer) == _schema_fields(openapi, "Transfer")
    mine = bearer(table["player_token"])
    assert client.get(f"/api/tables/{invite}/histories", headers=mine).json() == {"hands": []}


def test_a_client_message_is_read_into_its_model() -> None:
    assert isinstance(parse_message('{"type": "ping", "more": 1}'), Ping)
    assert isinstance(parse_message('{"type": "sit_out"}'), SitOut)
    assert isinstance(parse_message('{"type": "sit_in"}'), SitIn)
    assert parse_message('{"type": "hello", "token": "abc"}') == Hello(type="hello", token="abc")
    assert parse_message('{"type": "hello", "token": 5}') == Hello(type="hello", token=None)
    sent = parse_message(
        '{"type": "action", "hand": 3, "seq": 17, "action": {"kind": "bet", "amount": 20}}'
    )
    assert isinstance(sent, ActionMessage)
    assert (sent.hand, sent.seq) == (3, 17)
    assert sent.action == Action(ActionKind.BET, 20)
    drawn = parse_message(
        '{"type": "action", "hand": 3, "seq": 17,'
        ' "action": {"kind": "draw", "amount": null, "cards": ["Ah", "Td"], "split": true}}'
    )
    assert isinstance(drawn, ActionMessage)
    assert drawn.action == Action(ActionKind.DRAW, None, parse_cards("Ah Td"), True)


ACTION = '{"type": "action", "hand": 1, "seq": 1, "action": %s}'
"""An action message on the state at seq 1: its action is read whether or not it is stale."""


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"type": "action", "seq": 1, "action": {"kind": "fold"}}', "an action's 'hand' must"),
        ('{"type": "action", "hand": true, "seq": 1}', "an action's 'hand' must"),
        ('{"type": "action", "hand": 1, "seq": -1}', "an action's 'seq' must be 0 to"),
        ('{"type": "action", "hand": 1, "seq": 1}', "an action needs an 'action' object"),
        ('{"type": "action", "hand": 1, "seq": 1, "action": {}}', "unknown action kind None"),
        (ACTION % '{"kind": "bet", "amount": "x"}', "amount (a number of chips, or null) must"),
        (ACTION % '{"kind": "bet", "amount": -1}', "amount (a number of chips, or null) must"),
        (ACTION % '{"kind": "draw", "cards": "Ah"}', "cards must be a list of at most 5"),
        (ACTION % '{"kind": "draw", "cards": [1]}', "each card is a code like 'Ah'"),
        (ACTION % '{"kind": "draw", "cards": ["Zz"]}', "cannot read card 'Zz'"),
        (ACTION % '{"kind": "draw", "split": 1}', "split must be true or false"),
        ('{"type": "shout"}', "unknown message type 'shout'; use one of ['action', 'chat'"),
        ('{"type": "chat"}', "a chat message needs its 'text', a string"),
        ('{"type": "chat", "text": ["hi"]}', "a chat message needs its 'text', a string"),
        ('{"type": ["hello"]}', "unknown message type ['hello']"),
        ("[1]", "a message must be a JSON object"),
    ],
)
def test_a_malformed_client_message_says_its_first_problem(text: str, message: str) -> None:
    with pytest.raises(BadMessage) as refused:
        parse_message(text)
    assert str(refused.value).startswith(message), str(refused.value)
