"""The lobby's REST API: creating a table, seats, bots, the host's controls and the ledger."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient
from server_fixtures import bearer, connect, create_table, hello, join, state_where

from italian_poker.server.i18n import page_strings
from italian_poker.table.vocabulary import Language


def test_create_table_gives_long_invite_and_tokens(client: TestClient) -> None:
    table = create_table(client)
    # token_urlsafe(18): 144 bits, more than the 128 asked.
    assert len(table["invite"]) >= 22 and table["invite_url"] == f"/t/{table['invite']}"
    assert table["seat"] == 0 and table["host_token"] != table["player_token"]
    lobby = client.get(f"/api/tables/{table['invite']}").json()
    assert lobby["status"] == "lobby" and lobby["seats"][0]["nickname"] == "Anna"
    assert lobby["rules"]["players"] == 4 and len(lobby["seats"]) == 4
    assert client.get("/api/tables/nope").status_code == 404


def test_bad_requests(client: TestClient) -> None:
    bad = client.post("/api/tables", json={"host_nickname": "A", "preset": "nope"})
    assert bad.status_code == 422 and bad.json()["error"] == "bad_rules"
    table = create_table(client, seats=2)
    invite = table["invite"]
    assert client.post(f"/api/tables/{invite}/seats", json={"nickname": ""}).status_code == 422
    too_long = client.post(f"/api/tables/{invite}/seats", json={"nickname": "x" * 21})
    assert too_long.status_code == 422 and too_long.json()["error"] == "bad_nickname"
    taken = client.post(f"/api/tables/{invite}/seats", json={"nickname": "Anna"})
    assert taken.status_code == 409
    join(client, invite, "Bruno")
    full = client.post(f"/api/tables/{invite}/seats", json={"nickname": "Carla"})
    assert full.status_code == 409 and full.json()["error"] == "full"


def test_host_only_endpoints_refuse_other_tokens(client: TestClient) -> None:
    table = create_table(client)
    invite = table["invite"]
    for token in (table["player_token"], "wrong", None):
        headers = bearer(token) if token else {}
        assert client.post(f"/api/tables/{invite}/start", headers=headers).status_code == 403
        bots = client.post(f"/api/tables/{invite}/bots", json={"level": "simple"}, headers=headers)
        assert bots.status_code == 403
        assert client.get(f"/api/tables/{invite}/ledger", headers=headers).status_code == 403
    assert client.post(f"/api/tables/{invite}/sit-out", headers=bearer("x")).status_code == 403


def test_bots_start_pause_kick_stacks_and_ledger(client: TestClient) -> None:
    table = create_table(client, stack=100)
    invite, host = table["invite"], bearer(table["host_token"])
    alone = client.post(f"/api/tables/{invite}/start", headers=host)
    assert alone.status_code == 409  # at least two players
    bot = client.post(f"/api/tables/{invite}/bots", json={"level": "simple"}, headers=host).json()
    other = join(client, invite, "Zeno")  # the bot is Bruno
    assert (
        client.post(
            f"/api/tables/{invite}/stacks", json={"seat": 1, "amount": 150}, headers=host
        ).status_code
        == 200
    )
    lobby = client.get(f"/api/tables/{invite}").json()
    assert lobby["seats"][bot["seat"]]["bot"] == "simple"
    assert lobby["seats"][bot["seat"]]["stack"] == 150
    removed = client.delete(f"/api/tables/{invite}/seats/{bot['seat']}", headers=host)
    assert removed.status_code == 200 and removed.json()["seats"][bot["seat"]]["nickname"] is None
    assert client.post(f"/api/tables/{invite}/start", headers=host).json()["status"] == "playing"
    with connect(client, invite, "") as ws:
        first = hello(ws, other["player_token"])
        assert first["state"]["phase"] in ("blinds", "opening")
        paused = client.post(f"/api/tables/{invite}/pause", headers=host).json()
        assert paused["status"] == "paused"
        state = state_where(ws, lambda m: m["state"]["table"]["status"] == "paused")
        ws.send_json(
            {
                "type": "action",
                "hand": state["hand"],
                "seq": state["seq"],
                "action": {"kind": "pass"},
            }
        )
        error = json.loads(ws.receive_text())
        while error["type"] != "error":
            error = json.loads(ws.receive_text())
        assert error["code"] in ("paused", "not_your_turn")
        resumed = client.post(f"/api/tables/{invite}/resume", headers=host).json()
        assert resumed["status"] == "playing"
        busy = client.post(
            f"/api/tables/{invite}/stacks", json={"seat": 0, "amount": 5}, headers=host
        )
        assert busy.status_code == 409  # only between deals
    ledger = client.get(f"/api/tables/{invite}/ledger", headers=host).json()["ledger"]
    kinds = [(row["nickname"], row["kind"], row["amount"]) for row in ledger]
    assert ("Anna", "buy_in", 100) in kinds
    assert (bot["nickname"], "adjust", 50) in kinds
    assert (bot["nickname"], "cash_out", 150) in kinds
    assert ("Zeno", "buy_in", 100) in kinds


def test_kick_invalidates_token(client: TestClient) -> None:
    table = create_table(client)
    invite, host = table["invite"], bearer(table["host_token"])
    other = join(client, invite, "Bruno")
    assert (
        client.post(
            f"/api/tables/{invite}/sit-out", headers=bearer(other["player_token"])
        ).status_code
        == 200
    )
    assert client.get(f"/api/tables/{invite}").json()["seats"][1]["sitting_out"] is True
    assert client.delete(f"/api/tables/{invite}/seats/1", headers=host).status_code == 200
    assert (
        client.post(
            f"/api/tables/{invite}/sit-in", headers=bearer(other["player_token"])
        ).status_code
        == 403
    )
    assert client.delete(f"/api/tables/{invite}/seats/0", headers=host).status_code == 409


def test_pages_hold_no_game_data(client: TestClient) -> None:
    table = create_table(client)
    for path in ("/", f"/t/{table['invite']}"):
        response = client.get(path)
        assert response.status_code in (200, 404)
        assert "Anna" not in response.text


def test_the_pages_strings_are_the_table_vocabularys(client: TestClient) -> None:
    """``GET /api/strings/{lang}``: the browser's words, one copy, from the table layer's
    vocabulary (the same action names as the terminal game's); any other language is a 404."""
    for lang in (Language.EN, Language.IT):
        response = client.get(f"/api/strings/{lang.value}")
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("application/json")
        assert response.json() == page_strings(lang)
    italian = client.get("/api/strings/it").json()
    assert italian["actions"]["fold"] == "Lascio" and italian["messages"]["pot"] == "Piatto {pot}"
    assert italian["ranks"]["T"] == "Dieci" and italian["suits"]["h"] == "cuori"
    for bad in ("fr", "IT", "it.js", "..", "en%00"):
        refused = client.get(f"/api/strings/{bad}")
        assert refused.status_code == 404, bad
        assert refused.json()["error"] in ("no_language", "not_found"), bad
