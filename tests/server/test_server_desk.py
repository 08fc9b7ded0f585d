"""The desk's API (server/home_desk.py, routes/desk.py): the host locks the table and admits
or refuses newcomers, a player asks for chips within the caps and the host (or the co-host)
answers; approved chips are ledger rows the settle-up counts; every refusal has its own code
and changes nothing; a restarted server resumes the requests waiting exactly."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_fixtures import (
    AppFactory,
    bearer,
    connect,
    create_table,
    hello,
    join,
)

pytestmark = pytest.mark.every_database


def _post(client: TestClient, invite: str, path: str, token: str, body: Any = None) -> Any:
    return client.post(f"/api/tables/{invite}{path}", json=body, headers=bearer(token))


def _ok(response: Any) -> dict[str, Any]:
    assert response.status_code in (200, 201), response.text
    return dict(response.json())


def _desk(client: TestClient, invite: str, token: str) -> dict[str, Any]:
    return _ok(client.get(f"/api/tables/{invite}/desk", headers=bearer(token)))


def _ledger(client: TestClient, invite: str, host: str) -> dict[str, Any]:
    return _ok(client.get(f"/api/tables/{invite}/ledger", headers=bearer(host)))


def _status(client: TestClient, invite: str, token: str) -> dict[str, Any]:
    return _ok(client.get(f"/api/tables/{invite}/seat-request", headers=bearer(token)))


def test_a_newcomer_at_a_locked_table_waits_for_the_host(client: TestClient) -> None:
    table = create_table(client, stack=100)
    invite, host = table["invite"], table["host_token"]
    assert _ok(_post(client, invite, "/lock", host, {"locked": True}))["locked"]
    asked = client.post(f"/api/tables/{invite}/seats", json={"nickname": "Bruno"})
    assert asked.status_code == 201, asked.text
    bruno = asked.json()
    assert bruno["waiting"] and bruno["seat"] is None
    assert _status(client, invite, bruno["player_token"]) == {
        "status": "waiting",
        "nickname": "Bruno",
        "seat": None,
    }
    (waiting,) = _desk(client, invite, host)["seats"]
    assert waiting["name"] == "Bruno"
    # A look-alike nickname is refused while Bruno waits.
    again = client.post(f"/api/tables/{invite}/seats", json={"nickname": "bruno"})
    assert again.status_code == 409 and again.json()["error"] == "nickname_taken"
    # The token holds no seat yet.
    refused = _post(client, invite, "/chip-requests", bruno["player_token"], {"chips": 10})
    assert refused.status_code == 403
    desk = _ok(
        _post(client, invite, f"/seat-requests/{waiting['player']}/answer", host, {"admit": True})
    )
    assert desk["seats"] == []
    status = _status(client, invite, bruno["player_token"])
    assert status["status"] == "admitted" and status["seat"] == 1
    with connect(client, invite, bruno["player_token"]) as ws:
        state = hello(ws, bruno["player_token"])
        assert state["state"]["you"] == 1
        assert state["state"]["desk"]["locked"] is True
    rows = _ledger(client, invite, host)["ledger"]
    assert [(r["nickname"], r["kind"], r["amount"]) for r in rows][-1] == ("Bruno", "buy_in", 100)


def test_a_refused_newcomer_is_told_and_sits_nowhere(client: TestClient) -> None:
    table = create_table(client)
    invite, host = table["invite"], table["host_token"]
    _post(client, invite, "/lock", host, {"locked": True})
    carla = _ok(client.post(f"/api/tables/{invite}/seats", json={"nickname": "Carla"}))
    (waiting,) = _desk(client, invite, host)["seats"]
    _ok(_post(client, invite, f"/seat-requests/{waiting['player']}/answer", host, {"admit": False}))
    assert _status(client, invite, carla["player_token"])["status"] == "refused"
    lobby = _ok(client.get(f"/api/tables/{invite}"))
    assert "Carla" not in [s["nickname"] for s in lobby["seats"]]
    again = _post(
        client, invite, f"/seat-requests/{waiting['player']}/answer", host, {"admit": True}
    )
    assert again.status_code == 409 and again.json()["error"] == "unknown_seat_ask"


def test_an_approved_top_up_is_a_ledger_row_the_settle_up_counts(client: TestClient) -> None:
    table = create_table(client, stack=100)
    invite, host = table["invite"], table["host_token"]
    bruno = join(client, invite, "Bruno")["player_token"]
    _ok(_post(client, invite, "/chip-caps", host, {"minimum": 10, "maximum": 50, "times": 1}))
    small = _post(client, invite, "/chip-requests", bruno, {"chips": 5})
    assert small.status_code == 409 and small.json()["error"] == "chips_below_minimum"
    big = _post(client, invite, "/chip-requests", bruno, {"chips": 60})
    assert big.status_code == 409 and big.json()["error"] == "chips_above_maximum"
    desk = _ok(_post(client, invite, "/chip-requests", bruno, {"chips": 50}))
    (request,) = desk["chips"]
    assert request | {"request": 0} == {
        "request": 0,
        "seat": 1,
        "name": "Bruno",
        "chips": 50,
        "kind": "top_up",
    }
    pending = _post(client, invite, "/chip-requests", bruno, {"chips": 20})
    assert pending.status_code == 409 and pending.json()["error"] == "request_pending"
    # A player cannot answer; the host does.
    player_answer = _post(
        client, invite, f"/chip-requests/{request['request']}/answer", bruno, {"approve": True}
    )
    assert player_answer.status_code == 403
    desk = _ok(
        _post(
            client, invite, f"/chip-requests/{request['request']}/answer", host, {"approve": True}
        )
    )
    assert desk["chips"] == [] and desk["answers"]["1"] == {"approved": True, "chips": 50}
    ledger = _ledger(client, invite, host)
    assert [(r["nickname"], r["kind"], r["amount"]) for r in ledger["ledger"]][-1] == (
        "Bruno",
        "top_up",
        50,
    )
    bruno_line = next(p for p in ledger["summary"]["people"] if p["nickname"] == "Bruno")
    assert bruno_line["bought_in"] == 150 and bruno_line["stack"] == 150
    more = _post(client, invite, "/chip-requests", bruno, {"chips": 20})
    assert more.status_code == 409 and more.json()["error"] == "too_many_requests"


def test_the_co_host_answers_and_nobody_else_does(client: TestClient) -> None:
    table = create_table(client)
    invite, host = table["invite"], table["host_token"]
    bruno = join(client, invite, "Bruno")["player_token"]
    carla = join(client, invite, "Carla")["player_token"]
    assert _post(client, invite, "/lock", bruno, {"locked": True}).status_code == 403
    assert _post(client, invite, "/co-host", bruno, {"seat": 1}).status_code == 403
    assert _ok(_post(client, invite, "/co-host", host, {"seat": 1}))["co_host"] == 1
    assert _ok(_post(client, invite, "/lock", bruno, {"locked": True}))["locked"]
    desk = _ok(_post(client, invite, "/chip-requests", carla, {"chips": 30}))
    number = desk["chips"][0]["request"]
    refused = _post(client, invite, f"/chip-requests/{number}/answer", carla, {"approve": True})
    assert refused.status_code == 403
    _ok(_post(client, invite, f"/chip-requests/{number}/answer", bruno, {"approve": False}))
    assert _desk(client, invite, bruno)["answers"]["2"] == {"approved": False, "chips": 30}


def test_a_restarted_server_resumes_the_requests_waiting(make_app: AppFactory) -> None:
    with TestClient(make_app()) as client:
        table = create_table(client, stack=100)
        invite, host = table["invite"], table["host_token"]
        bruno = join(client, invite, "Bruno")["player_token"]
        _post(client, invite, "/chip-caps", host, {"minimum": 5, "times": 2})
        _ok(_post(client, invite, "/chip-requests", bruno, {"chips": 40}))
        _post(client, invite, "/lock", host, {"locked": True})
        carla = _ok(client.post(f"/api/tables/{invite}/seats", json={"nickname": "Carla"}))
        before = _desk(client, invite, host)
    with TestClient(make_app()) as client:
        after = _desk(client, invite, host)
        assert after == before
        assert _status(client, invite, carla["player_token"])["status"] == "waiting"
        (waiting,) = after["seats"]
        _ok(
            _post(
                client, invite, f"/seat-requests/{waiting['player']}/answer", host, {"admit": True}
            )
        )
        number = after["chips"][0]["request"]
        _ok(_post(client, invite, f"/chip-requests/{number}/answer", host, {"approve": True}))
        lobby = _ok(client.get(f"/api/tables/{invite}"))
        stacks = {s["nickname"]: s["stack"] for s in lobby["seats"] if s["nickname"]}
        assert stacks == {"Anna": 100, "Bruno": 140, "Carla": 100}
        with connect(client, invite, carla["player_token"]) as ws:
            assert hello(ws, carla["player_token"])["state"]["you"] == 2


def test_bad_caps_are_refused_with_their_code(client: TestClient) -> None:
    table = create_table(client)
    invite, host = table["invite"], table["host_token"]
    bad = _post(client, invite, "/chip-caps", host, {"minimum": 50, "maximum": 10})
    assert bad.status_code == 409 and bad.json()["error"] == "bad_caps"
    assert _desk(client, invite, host)["caps"]["minimum"] == 1
