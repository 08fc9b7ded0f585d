"""The draw hint at the online table (issue 15): the server's advisor, handed to
``create_app``, gives the seat whose draw it is (4.1) the best keeps of its own view, in
that seat's ``state`` only (``advice``), while the host has the hint on for the table;
nobody else, spectators included, ever gets it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from server_fixtures import (
    bearer,
    bot_factory,
    connect,
    create_table,
    hello,
    join,
    passive_action,
    state_where,
)
from starlette.testclient import WebSocketTestSession

from italian_poker.analysis.advisor import advise_view
from italian_poker.server.app import create_app
from italian_poker.server.protocol import advice_entries
from italian_poker.server.registry import Server
from italian_poker.server.settings import ServerSettings
from italian_poker.server.table_state import TableState
from italian_poker.table.advice import ADVICE_SHOWN

MESSAGES = 3000
"""At most this many messages are read before a human's draw comes."""


@pytest.fixture
def advised(settings: ServerSettings) -> Iterator[TestClient]:
    """A running app whose server has the advisor (``serve`` without ``--no-advice``)."""
    with TestClient(create_app(replace(settings), bot_factory, advisor=advise_view)) as app:
        yield app


def _state_of(client: TestClient, invite: str) -> TableState:
    server: Server = client.app.state.server  # type: ignore[attr-defined]
    runtime = server.here(invite)
    assert runtime is not None
    return runtime.state


def _drain(ws: WebSocketTestSession, seconds: float = 0.3) -> list[str]:
    """The messages the server has sent ``ws`` and sends within ``seconds``."""

    async def receive() -> Any:
        with anyio.move_on_after(seconds):
            return await ws._send_rx.receive()
        return None

    texts = []
    while (message := ws.portal.call(receive)) is not None:
        if message["type"] == "websocket.send":
            texts.append(str(message["text"]))
    return texts


def _table(client: TestClient, **body: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """A table of four: Anna the host (seat 0), Bea (seat 1) and two simple bots."""
    table = create_table(client, **body)
    bea = join(client, table["invite"], "Bea")
    for _ in range(2):
        added = client.post(
            f"/api/tables/{table['invite']}/bots",
            json={"level": "simple"},
            headers=bearer(table["host_token"]),
        )
        assert added.status_code == 201, added.text
    return table, bea


def _to_a_human_draw(
    client: TestClient, table: dict[str, Any], sockets: dict[int, WebSocketTestSession]
) -> tuple[int, dict[str, Any]]:
    """Start the table and play the humans' turns passively until one of them is to draw:
    that seat and the first state the host's socket got then."""
    started = client.post(
        f"/api/tables/{table['invite']}/start", headers=bearer(table["host_token"])
    )
    assert started.status_code == 200, started.text
    host = sockets[0]
    for _ in range(MESSAGES):
        message = state_where(host, lambda m: m["state"]["to_act"] in sockets)
        state, seat = message["state"], message["state"]["to_act"]
        if state["phase"] == "draw":
            return seat, message
        own, seq = message, message["seq"]
        if seat != 0:
            own = state_where(sockets[seat], lambda m, seq=seq: m["seq"] == seq)
        if own["state"]["legal"]:
            action = passive_action(own)
            sockets[seat].send_json(
                {"type": "action", "hand": own["hand"], "seq": own["seq"], "action": action}
            )
    raise AssertionError("no human drew")


def _states(texts: list[str]) -> list[dict[str, Any]]:
    return [m for m in map(json.loads, texts) if m["type"] == "state"]


def test_the_drawing_seat_alone_gets_the_hint_of_its_own_view(advised: TestClient) -> None:
    table, bea = _table(advised)
    invite = table["invite"]
    watch = advised.post(
        f"/api/tables/{invite}/watch", json={"open": True}, headers=bearer(table["host_token"])
    ).json()["watch"]
    with (
        connect(advised, invite, "") as anna_ws,
        connect(advised, invite, "") as bea_ws,
        advised.websocket_connect(
            f"/ws/watch/{watch}", headers={"origin": "http://testserver"}
        ) as spectator,
    ):
        before = hello(anna_ws, table["player_token"])
        assert before["state"]["table"]["advice"] is True
        assert before["state"]["advice"] is None
        hello(bea_ws, bea["player_token"])
        sockets = {0: anna_ws, 1: bea_ws}
        seat, drawing = _to_a_human_draw(advised, table, sockets)
        other = sockets[1 - seat]
        # Every state before the draw was without a hint (read so far on the host's socket).
        hinted = state_where(
            sockets[seat], lambda m: m["seq"] == drawing["seq"] and m["state"]["advice"]
        )
        view = _state_of(advised, invite).view(seat)
        assert view is not None
        advice = hinted["state"]["advice"]
        assert advice == advice_entries(advise_view(view))
        assert len(advice) == min(ADVICE_SHOWN, len(advise_view(view)))
        assert set(advice[0]) == {"keep", "discard", "win", "improve", "split"}
        assert sorted(advice[0]["keep"] + advice[0]["discard"]) == sorted(
            hinted["state"]["hand"]["cards"]
        )
        # The other player and the spectator never get it, not even during the draw.
        others = _states(_drain(other)) + _states(_drain(spectator))
        assert others, "the other player and the spectator were sent states"
        assert all(m["state"].get("advice") is None for m in others)
        assert all('"keep"' not in json.dumps(m) for m in others)
        # Use it: the suggested discards are drawn, and the hint is gone after the draw.
        best = advice[0]
        sockets[seat].send_json(
            {
                "type": "action",
                "hand": hinted["hand"],
                "seq": hinted["seq"],
                "action": {
                    "kind": "draw",
                    "amount": None,
                    "cards": best["discard"],
                    "split": best["split"],
                },
            }
        )
        after = state_where(sockets[seat], lambda m: m["seq"] > hinted["seq"])
        assert after["state"]["advice"] is None
        assert len(after["state"]["hand"]["cards"]) == 5
        kept = set(best["keep"])
        assert kept <= set(after["state"]["hand"]["cards"])


def test_no_hint_when_the_host_turned_it_off(advised: TestClient) -> None:
    table, bea = _table(advised, advice=False)
    invite = table["invite"]
    assert _state_of(advised, invite).switches.advice_on is False
    with connect(advised, invite, "") as anna_ws, connect(advised, invite, "") as bea_ws:
        assert hello(anna_ws, table["player_token"])["state"]["table"]["advice"] is False
        hello(bea_ws, bea["player_token"])
        sockets = {0: anna_ws, 1: bea_ws}
        seat, drawing = _to_a_human_draw(advised, table, sockets)
        own = drawing
        if seat != 0:
            own = state_where(sockets[seat], lambda m: m["seq"] == drawing["seq"])
        assert own["state"]["to_act"] == seat
        assert own["state"]["advice"] is None
        later = _states(_drain(sockets[seat]))
        assert all(m["state"]["advice"] is None for m in later)


def test_the_host_turns_the_hint_off_and_on_during_the_draw(advised: TestClient) -> None:
    table, bea = _table(advised)
    invite, host = table["invite"], bearer(table["host_token"])
    with connect(advised, invite, "") as anna_ws, connect(advised, invite, "") as bea_ws:
        hello(anna_ws, table["player_token"])
        hello(bea_ws, bea["player_token"])
        sockets = {0: anna_ws, 1: bea_ws}
        seat, drawing = _to_a_human_draw(advised, table, sockets)
        state_where(sockets[seat], lambda m: m["seq"] == drawing["seq"] and m["state"]["advice"])
        off = advised.post(f"/api/tables/{invite}/advice", json={"on": False}, headers=host)
        assert off.status_code == 200, off.text
        assert off.json()["advice"] is False
        said = state_where(sockets[seat], lambda m: m["seq"] > drawing["seq"])
        assert said["state"]["table"]["advice"] is False
        assert said["state"]["advice"] is None
        assert said["state"]["events"][-1]["en"] == "The host turns the draw hint off"
        on = advised.post(f"/api/tables/{invite}/advice", json={"on": True}, headers=host)
        assert on.json()["advice"] is True
        again = state_where(sockets[seat], lambda m: m["state"]["advice"] is not None)
        assert again["state"]["advice"] == advice_entries(
            advise_view(_state_of(advised, invite).view(seat))  # type: ignore[arg-type]
        )
        # Nothing changes: no event.
        seq = _state_of(advised, invite).seq
        advised.post(f"/api/tables/{invite}/advice", json={"on": True}, headers=host)
        assert _state_of(advised, invite).seq == seq


def test_only_the_host_may_switch_the_hint(advised: TestClient) -> None:
    table, bea = _table(advised)
    invite = table["invite"]
    refused = advised.post(
        f"/api/tables/{invite}/advice", json={"on": False}, headers=bearer(bea["player_token"])
    )
    assert refused.status_code == 403
    bad = advised.post(
        f"/api/tables/{invite}/advice", json={"on": "no"}, headers=bearer(table["host_token"])
    )
    assert bad.status_code == 422
    assert _state_of(advised, invite).switches.advice_on is True


def test_the_server_says_whether_it_has_the_hint(client: TestClient, advised: TestClient) -> None:
    # GET /api/server: the lobby's and the host's forms disable the hint's box on False.
    assert client.get("/api/server").json() == {"advice": False, "spectator_cap": 50}
    assert advised.get("/api/server").json() == {"advice": True, "spectator_cap": 50}
    assert "/api/server" in client.get("/openapi.json").json()["paths"]


def test_a_server_without_an_advisor_offers_no_hint(client: TestClient) -> None:
    table = create_table(client)
    invite = table["invite"]
    assert _state_of(client, invite).switches.advice_on is False
    assert client.get(f"/api/tables/{invite}").json()["advice"] is False
    asked = client.post("/api/tables", json={"name": "T", "host_nickname": "Anna", "advice": True})
    assert asked.status_code == 422
    assert asked.json()["error"] == "no_advisor"
    turned = client.post(
        f"/api/tables/{invite}/advice", json={"on": True}, headers=bearer(table["host_token"])
    )
    assert turned.status_code == 409
    assert turned.json()["error"] == "no_advisor"
    assert _state_of(client, invite).switches.advice_on is False


def test_the_switch_outlasts_a_restart(settings: ServerSettings) -> None:
    with TestClient(create_app(settings, bot_factory, advisor=advise_view)) as first:
        table = create_table(first)
        invite = table["invite"]
        turned = first.post(
            f"/api/tables/{invite}/advice", json={"on": False}, headers=bearer(table["host_token"])
        )
        assert turned.status_code == 200, turned.text
    with TestClient(create_app(settings, bot_factory, advisor=advise_view)) as again:
        assert _state_of(again, invite).switches.advice_on is False
        assert again.get(f"/api/tables/{invite}").json()["advice"] is False


@pytest.mark.parametrize(("flags", "advised"), [([], True), (["--no-advice"], False)])
def test_serve_hands_in_the_advisor_unless_no_advice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, flags: list[str], advised: bool
) -> None:
    import uvicorn
    from typer.testing import CliRunner

    import italian_poker.server.app as server_app
    from italian_poker.cli.app import app

    handed: list[Any] = []

    def fake_create_app(settings: ServerSettings, factory: Any, advisor: Any = None) -> str:
        handed.append(advisor)
        return "app"

    monkeypatch.setattr(server_app, "create_app", fake_create_app)
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: None)
    url = f"sqlite:///{tmp_path / 'x.sqlite3'}"
    result = CliRunner().invoke(app, ["serve", "--database-url", url, *flags])
    assert result.exit_code == 0, result.output
    assert handed == [advise_view if advised else None]
