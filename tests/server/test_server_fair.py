"""Every live deal is dealt from a provably fair deck (server/fair_deal.py, docs/fairness.md):
the commitment is published before any card and before the values are taken, each seated
player's value (sent by the page) is used and recorded as theirs, a value sent after the deal
began is refused, the seeds are revealed at each deal's end or when the host closes the
table, the histories carry them and ``italian-poker verify`` verifies the downloads, and a
restart in the middle of a deal deals the same cards from the same stream."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from fair_tables import fair_table
from fastapi.testclient import TestClient
from server_fixtures import (
    AppFactory,
    FakeClock,
    bearer,
    connect,
    create_table,
    hello,
    next_message,
    play_until,
    state_where,
    wait_until,
)
from typer.testing import CliRunner

from italian_poker.cli.app import app as cli
from italian_poker.engine.fair_shuffle import text_value
from italian_poker.engine.fair_source import FairSource
from italian_poker.engine.history import loads
from italian_poker.engine.history.fairness import Verdict, verify_fair
from italian_poker.server.client_messages import BadMessage, parse_message
from italian_poker.server.client_messages import FairValue as FairValueMessage
from italian_poker.server.commands import FairValue as FairValueCommand
from italian_poker.server.commands import decode
from italian_poker.server.event_kinds import EventKind
from italian_poker.server.fair_deal import FairValueRefused, takes
from italian_poker.server.store import token_hash
from italian_poker.server.table_runtime import TableRuntime
from italian_poker.server.table_state import TableState

WINDOW = 60.0
"""The seconds a deal waits for the values (on the fake clock: it never runs out here)."""


def runtime_of(app: Any, invite: str) -> TableRuntime:
    runtime: TableRuntime = app.state.server.tables[token_hash(invite)]
    return runtime


def _sealed(message: dict[str, Any]) -> bool:
    fair = message["state"]["fair"]
    return fair is not None and fair["open"]


def test_the_commitment_comes_before_the_cards_and_the_players_value_is_used(
    make_app: AppFactory,
) -> None:
    """The first state after the start holds the commitment and no card; the deal waits for
    the seated player's value, then deals with it (recorded as the player's, the bot's as the
    bot's), and the commitment is that of the deal's fair deck. A value sent once the deal
    has begun is refused, with a clear error, and changes nothing."""
    clock = FakeClock()
    app = make_app(seed=None, fair_value_seconds=WINDOW, clock=clock, sleep=clock.sleep)
    with TestClient(app) as client:
        table = create_table(client, seats=2)
        invite, token = table["invite"], table["player_token"]
        host = bearer(table["host_token"])
        added = client.post(f"/api/tables/{invite}/bots", json={}, headers=host)
        assert added.status_code == 201
        with connect(client, invite, token) as ws:
            hello(ws, token)
            started = client.post(f"/api/tables/{invite}/start", headers=host)
            assert started.status_code == 200
            sealed = state_where(ws, _sealed)
            fair = sealed["state"]["fair"]
            assert sealed["state"]["hand"] is None  # no card of the player's own yet
            runtime = runtime_of(app, invite)
            assert runtime.state.match is None or runtime.state.match.deal is None
            mine = text_value("Anna's own words")
            ws.send_json(
                {"type": "fair_value", "commitment": fair["commitment"], "value": mine.hex()}
            )
            dealt = state_where(ws, lambda m: m["state"]["fair"] and not m["state"]["fair"]["open"])
            record = dealt["state"]["fair"]
            assert record["commitment"] == fair["commitment"]
            assert record["values"][0] == mine.hex()
            assert record["from"] == ["player", "bot"]
            assert record["seed"] is None
            deal = runtime.state.match.deal  # type: ignore[union-attr]
            assert deal is not None
            source = runtime.state.cards.live  # type: ignore[union-attr]
            assert isinstance(source, FairSource) and source.values[0] == mine
            assert source.commitment.hex() == fair["commitment"]
            kept = runtime.state.fair.deals[1]
            ws.send_json(
                {"type": "fair_value", "commitment": fair["commitment"], "value": mine.hex()}
            )
            error = next_message(ws, "error")
            assert error["code"] == "fair_value_refused"
            assert "the deal has started" in error["message"]
            assert runtime.state.fair.deals[1] == kept and not runtime.state.fair.pending


def test_a_late_value_is_refused_and_leaves_the_values_as_they_were() -> None:
    """At the table state: once the deal began, a value for its commitment is refused."""
    table = fair_table(2, seed=3)
    table.commit()
    commitment = table.state.fair.sealed.commitment.hex()  # type: ignore[union-attr]
    table.deal({0: b"mine"})
    dealt = table.state.fair.deals[1]
    with pytest.raises(FairValueRefused, match="the deal has started"):
        table.state.fair.give(0, commitment, b"late")
    assert table.state.fair.deals[1] == dealt and dealt.deck.values[0] == b"mine"


def test_no_deal_without_its_commitment_and_no_commitment_during_a_deal() -> None:
    """A deal event with values but no commitment before it is refused, and so is a second
    commitment while a deal is under way: no card is ever dealt before its commitment."""
    table = fair_table(2, seed=4)
    with pytest.raises(ValueError, match="commitment first"):
        table.apply(EventKind.DEAL, {"fair": {"values": ["00", "01"], "from": [], "slots": []}})
    assert not table.state.in_deal and table.state.seq == 3
    table.commit()
    table.deal()
    with pytest.raises(Exception, match="already under way"):
        table.commit()


def test_a_table_rebuilt_mid_deal_deals_the_same_cards_from_the_same_stream() -> None:
    """Seven bots over many deals (reshuffles, late fourth cards): after every event a table
    rebuilt from the log holds the same hands, and its fair deck the same stack; the events
    after it, replayed without the cards they recorded, record the same cards again."""
    table = fair_table(7, seed=5, level="simple")
    while len(table.state.machine.completed) < 12:
        table.play_deal()
    log = table.events
    rules, options = table.state.rules, table.state.options
    for cut in range(1, len(log), 7):
        rebuilt = TableState("fair", rules, options)
        rebuilt.replay(copy.deepcopy(log[:cut]))
        stripped = [(s, k, {x: v for x, v in p.items() if x != "taken"}) for s, k, p in log[cut:]]
        for seq, kind, payload in stripped:
            effects = rebuilt.apply(seq, EventKind(kind), payload)
            assert effects.record == log[seq - 1][2], (cut, seq)
    reshuffled = sum(any(t["shuffled_in"] for t in takes(table.history(n))) for n in range(1, 13))
    assert reshuffled


def _live(state: TableState) -> list[Any]:
    match = state.match
    assert match is not None and match.deal is not None
    source = state.cards.live  # type: ignore[union-attr]
    assert isinstance(source, FairSource)
    return [list(match.deal.hands), list(source.stack), source.commitment, state.actor_slot()]


@pytest.mark.every_database
def test_a_restart_mid_deal_keeps_the_commitment_and_the_deck(
    make_app: AppFactory, database_url: str
) -> None:
    """The server stops in the middle of a deal of a host and three bots; restarted, the deal
    has the same commitment, the same hands and its fair deck the same stack, and it goes on
    to an end that verifies."""
    app = make_app(seed=None, bot_delay_seconds=0.0)
    with TestClient(app) as client:
        table = create_table(client, seats=4)
        invite, host = table["invite"], bearer(table["host_token"])
        for _ in range(3):
            assert client.post(f"/api/tables/{invite}/bots", json={}, headers=host).status_code
        assert client.post(f"/api/tables/{invite}/start", headers=host).status_code == 200
        runtime = runtime_of(app, invite)
        wait_until(lambda: runtime.state.actor_slot() == 0, "the host's turn")
        before = _live(runtime.state)
    restarted = make_app(seed=None)
    with TestClient(restarted):
        state = runtime_of(restarted, invite).state
        assert _live(state) == before
        assert state.fair.deals[1].deck.commitment == before[2]


def _history_text(client: TestClient, invite: str, token: str, hand: int) -> str:
    response = client.get(f"/api/tables/{invite}/histories/{hand}.phh", headers=bearer(token))
    assert response.status_code == 200, response.text
    return response.text


def _play_deals(client: TestClient, app: Any, invite: str, token: str, n: int) -> None:
    """The host plays passively beside the bots until ``n`` deals are over."""
    runtime = runtime_of(app, invite)
    with connect(client, invite, token) as ws:
        first = hello(ws, token)
        play_until({0: ws}, {0: first}, lambda m: len(runtime.state.machine.completed) >= n)


@pytest.mark.parametrize("when", ["deal", "close"])
def test_the_seeds_are_revealed_as_the_host_chose_and_the_downloads_verify(
    make_app: AppFactory, tmp_path: Path, when: str
) -> None:
    """Reveal at each deal's end: the finished deal's history carries its seed at once. At
    the table's close (the default): no seed until the host closes it, then every finished
    deal's. The downloaded histories, revealed, pass ``italian-poker verify``, and carry the
    takes the browser's verifier reads."""
    app = make_app(seed=None)
    with TestClient(app) as client:
        table = create_table(client, seats=3)
        invite, token = table["invite"], table["player_token"]
        host = bearer(table["host_token"])
        for _ in range(2):
            assert client.post(f"/api/tables/{invite}/bots", json={}, headers=host).status_code
        if when == "deal":
            switched = client.post(
                f"/api/tables/{invite}/fair", json={"reveal": "deal"}, headers=host
            )
            assert switched.status_code == 200, switched.text
        assert client.post(f"/api/tables/{invite}/start", headers=host).status_code == 200
        _play_deals(client, app, invite, token, 2)
        assert client.get(f"/api/tables/{invite}/histories", headers=bearer(token)).json()["hands"]
        first = loads(_history_text(client, invite, token, 1)) if when == "deal" else None
        if when == "close":
            redacted = _history_text(client, invite, token, 1)
            assert "seed = " not in redacted and "commitment = " in redacted
            closed = client.post(f"/api/tables/{invite}/fair/close", headers=host)
            assert closed.status_code == 200, closed.text
            first = loads(_history_text(client, invite, token, 1))
        assert first is not None and first.fair is not None and first.fair.seed is not None
        assert verify_fair(first).verdict is Verdict.VERIFIED
        text = _history_text(client, invite, token, 1)
    path = tmp_path / "hand-0001.phh"
    path.write_text(text, encoding="utf-8")
    takes_line = next(line for line in text.splitlines() if line.startswith("takes = "))
    assert json.loads(takes_line.removeprefix("takes = ").strip("'"))[0]["why"] == "deal"
    result = CliRunner().invoke(cli, ["verify", str(path)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "1 verified"


def test_a_value_travels_to_the_tables_owner_and_a_malformed_one_is_a_bad_message() -> None:
    """A replica forwards a player's value to the owner as a ``fair_value`` command that
    reads back the same; a value that is not hexadecimal, or too long, is refused as the
    message arrives."""
    command = FairValueCommand(2, "ab" * 32, b"\x00\xffvalue")
    assert decode(command.op, json.loads(json.dumps(command.args()))) == command
    for value in ("xyz", "a", "00" * 1025, 7):
        with pytest.raises(BadMessage):
            parse_message(
                json.dumps({"type": "fair_value", "commitment": "ab" * 32, "value": value})
            )
    parsed = parse_message(json.dumps({"type": "fair_value", "commitment": "ab" * 32, "value": ""}))
    assert isinstance(parsed, FairValueMessage) and parsed.value == b""
