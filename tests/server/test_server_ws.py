"""The table's WebSocket: every refusal leaves the state unchanged, each player sees only
their own cards, and a restart in the middle of a deal loses nothing."""

from __future__ import annotations

import json
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
    next_state,
    page_log,
    passive_action,
    play_until,
    receive_json,
    state_where,
)
from starlette.websockets import WebSocketDisconnect

LIVE = ("blinds", "opening", "first-round", "draw", "second-round", "showdown")


def _two_players(client: TestClient, bots: int = 1) -> tuple[dict[str, Any], dict[str, Any]]:
    table = create_table(client)
    other = join(client, table["invite"], "Bruno")
    for _ in range(bots):
        response = client.post(
            f"/api/tables/{table['invite']}/bots",
            json={"level": "simple"},
            headers=bearer(table["host_token"]),
        )
        assert response.status_code == 201
    host = bearer(table["host_token"])
    started = client.post(f"/api/tables/{table['invite']}/start", headers=host)
    assert started.status_code == 200, started.text
    return table, other


def _hidden_cards(state: dict[str, Any], seat: int) -> set[str]:
    return set(state["state"]["seats"][seat]["cards"] or [])


def test_bad_origin_is_refused(client: TestClient) -> None:
    table = create_table(client)
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        connect(client, table["invite"], "", origin="http://evil.example"),
    ):
        pass
    assert refused.value.code == 4403


def test_missing_origin_is_refused(client: TestClient) -> None:
    table = create_table(client)
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(f"/ws/tables/{table['invite']}"),
    ):
        pass
    assert refused.value.code == 4403


def test_wrong_token_is_refused(client: TestClient) -> None:
    table = create_table(client)
    with connect(client, table["invite"], "") as ws:
        ws.send_json({"type": "hello", "token": "not-a-token"})
        assert next_message(ws, "error")["code"] == "unauthorized"
        with pytest.raises(WebSocketDisconnect) as closed:
            receive_json(ws)
    assert closed.value.code == 4401


def test_hello_and_ping(client: TestClient) -> None:
    table = create_table(client)
    with connect(client, table["invite"], "") as ws:
        state = hello(ws, table["player_token"])
        assert state["state"]["you"] == 0 and state["state"]["host"] is True
        ws.send_json({"type": "ping"})
        assert next_message(ws, "pong") == {"type": "pong"}


def test_a_token_in_the_url_is_refused_even_when_right(client: TestClient) -> None:
    """The query form (``?token=``) is gone: URLs are logged; the token goes in ``hello``."""
    table = create_table(client)
    url = f"/ws/tables/{table['invite']}?token={table['player_token']}"
    with client.websocket_connect(url, headers={"origin": "http://testserver"}) as ws:
        assert next_message(ws, "error")["code"] == "token_in_url"
        with pytest.raises(WebSocketDisconnect) as closed:
            receive_json(ws)
    assert closed.value.code == 4401


def test_an_action_between_deals_is_out_of_turn(make_app: AppFactory) -> None:
    """Between deals nobody is to act: an action on the latest state is ``not_your_turn``
    (the table machine's answer), not a generic refusal, and nothing changes."""
    with TestClient(make_app(next_deal_seconds=600.0)) as slow:
        table = create_table(slow)
        other = join(slow, table["invite"], "Bruno")
        assert (
            slow.post(
                f"/api/tables/{table['invite']}/start", headers=bearer(table["host_token"])
            ).status_code
            == 200
        )
        with connect(slow, table["invite"], "") as wa, connect(slow, table["invite"], "") as wb:
            states = {0: hello(wa, table["player_token"]), 1: hello(wb, other["player_token"])}
            done = play_until({0: wa, 1: wb}, states, lambda m: m["state"]["result"] is not None)
            latest = done[0]
            assert latest["state"]["to_act"] is None
            act(wa, latest, {"kind": "check", "amount": None, "cards": [], "split": False})
            assert next_message(wa, "error")["code"] == "not_your_turn"
            wa.send_json({"type": "hello"})
            assert next_state(wa)["seq"] == latest["seq"]


def test_out_of_turn_stale_and_bad_messages_change_nothing(client: TestClient) -> None:
    table, other = _two_players(client)
    invite = table["invite"]
    with connect(client, invite, "") as wa, connect(client, invite, "") as wb:
        hello(wa, table["player_token"])
        sb = hello(wb, other["player_token"])
        sa = state_where(wa, lambda m: m["state"]["to_act"] in (0, 1) and m["seq"] >= sb["seq"])
        sb = catch_up(wb, sb, sa["seq"])
        actor = sa["state"]["to_act"]
        waiting_ws, waiting_seat = (wb, 1) if actor == 0 else (wa, 0)
        acting_ws = wa if actor == 0 else wb
        seq = sa["seq"]
        sa = sa if actor == 0 else sb
        # Out of turn: the table machine says so (NotYourTurnError).
        act(waiting_ws, sa, {"kind": "fold", "amount": None, "cards": [], "split": False})
        assert next_message(waiting_ws, "error")["code"] == "not_your_turn"
        # Stale sequence number and wrong hand id.
        stale = dict(sa, seq=seq - 1)
        act(acting_ws, stale, passive_action(sa))
        assert next_message(acting_ws, "error")["code"] == "stale"
        act(acting_ws, dict(sa, hand=(sa["hand"] or 0) + 5), passive_action(sa))
        assert next_message(acting_ws, "error")["code"] == "stale"
        # Malformed: not JSON, unknown type, unknown kind, bad card.
        acting_ws.send_text("{nope")
        assert next_message(acting_ws, "error")["code"] == "bad_message"
        acting_ws.send_json({"type": "shout"})
        assert next_message(acting_ws, "error")["code"] == "bad_message"
        act(acting_ws, sa, {"kind": "cheat"})
        assert next_message(acting_ws, "error")["code"] == "bad_message"
        # Illegal for the engine: raise when nobody opened (3.2).
        act(acting_ws, sa, {"kind": "raise", "amount": 5, "cards": [], "split": False})
        assert next_message(acting_ws, "error")["code"] == "illegal"
        # Nothing changed: asking again gives the same seq and the same player to act.
        acting_ws.send_json({"type": "hello"})
        again = next_state(acting_ws)
        assert again["seq"] == seq and again["state"]["to_act"] == actor
        # A legal action on the latest seq goes through, once: a duplicate is stale.
        act(acting_ws, again, passive_action(again))
        moved = state_where(acting_ws, lambda m: m["seq"] > seq)
        assert moved["seq"] > seq
        act(acting_ws, again, passive_action(again))
        assert next_message(acting_ws, "error")["code"] in ("stale", "not_your_turn")
        assert waiting_seat in (0, 1)


def test_oversized_message_closes(client: TestClient) -> None:
    table = create_table(client)
    with connect(client, table["invite"], "") as ws:
        hello(ws, table["player_token"])
        ws.send_text(json.dumps({"type": "ping", "pad": "x" * 5000}))
        error = next_message(ws, "error")
        assert error["code"] == "too_large"
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                receive_json(ws)
    assert closed.value.code == 1009


def test_rate_limit(make_app: AppFactory) -> None:
    with TestClient(make_app(rate_per_second=1.0, rate_burst=3, rate_strikes=5)) as client:
        table = create_table(client)
        with connect(client, table["invite"], "") as ws:
            hello(ws, table["player_token"])
            for _ in range(4):
                ws.send_json({"type": "ping"})
            codes = [receive_json(ws) for _ in range(4)]
            assert [m["type"] for m in codes[:3]] == ["pong"] * 3
            assert codes[3] == {
                "type": "error",
                "code": "rate_limited",
                "message": "too many messages: slow down",
            }
            for _ in range(5):
                ws.send_json({"type": "ping"})
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    receive_json(ws)
        assert closed.value.code == 1008


def _play_until(
    wa: Any, wb: Any, sa: dict[str, Any], sb: dict[str, Any], stop: Any, seen: list[Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Both players act passively until ``stop(state)``; every state is kept in ``seen``."""
    for _ in range(200):
        if stop(sa):
            return sa, sb
        actor = sa["state"]["to_act"]
        if actor in (0, 1) and sa["state"]["phase"] in (*LIVE, "make-up"):
            ws, state = (wa, sa) if actor == 0 else (wb, sb)
            act(ws, state, passive_action(state))
        target = sa["seq"]
        sa = state_where(wa, lambda m, t=target: m["seq"] > t and m["state"]["to_act"] != 2)
        sb = catch_up(wb, sb, sa["seq"])
        seen.extend([("a", sa), ("b", sb)])
    raise AssertionError("the deal did not get there")


def test_views_hold_only_own_cards_through_a_deal(client: TestClient) -> None:
    table, other = _two_players(client)
    invite = table["invite"]
    seen: list[Any] = []
    with connect(client, invite, "") as wa, connect(client, invite, "") as wb:
        sa, sb = hello(wa, table["player_token"]), hello(wb, other["player_token"])
        sa = state_where(wa, lambda m: m["seq"] >= sb["seq"] and m["state"]["to_act"] != 2)
        sb = catch_up(wb, sb, sa["seq"])
        sa, sb = _play_until(wa, wb, sa, sb, lambda m: m["state"]["result"] is not None, seen)
    logs: dict[str, list[dict[str, Any]]] = {"a": [], "b": []}
    for who, message in seen:
        logs[who] = page_log(logs[who], message)
        me, them = (0, 1) if who == "a" else (1, 0)
        text = json.dumps(message)
        own = message["state"]["hand"]
        if own:
            assert set(own["cards"]) == _hidden_cards(message, me)
        other_cards = message["state"]["seats"][them]["cards"]
        # Another seat's cards appear only when shown at the showdown.
        if other_cards:
            shows = [line for line in logs[who] if "show" in line["en"]]
            assert shows, text
        bot_cards = message["state"]["seats"][2]["cards"]
        assert not bot_cards or message["state"]["phase"] in ("showdown", "between-deals")
    assert sa["state"]["result"]["lines"]


def test_connections_of_one_seat_share_its_state_and_no_other(client: TestClient) -> None:
    """A seat's message is encoded once and sent to each of its connections; the other seat
    gets its own, with the same public part and only its own cards."""
    table, other = _two_players(client)
    invite = table["invite"]
    with (
        connect(client, invite, "") as wa,
        connect(client, invite, "") as wa_again,
        connect(client, invite, "") as wb,
    ):
        hello(wa, table["player_token"])
        hello(wa_again, table["player_token"])
        sb = hello(wb, other["player_token"])
        sa = state_where(wa, lambda m: m["seq"] >= sb["seq"] and m["state"]["to_act"] != 2)
        sb = catch_up(wb, sb, sa["seq"])
        ws, state = (wa, sa) if sa["state"]["to_act"] == 0 else (wb, sb)
        act(ws, state, passive_action(state))
        after = state_where(wa, lambda m: m["seq"] > sa["seq"])
        again = state_where(wa_again, lambda m: m["seq"] >= after["seq"])
        theirs = state_where(wb, lambda m: m["seq"] >= after["seq"])
    assert again == after and theirs["seq"] == after["seq"]
    mine, yours = after["state"], theirs["state"]
    assert mine["phase"] in LIVE and (mine["you"], yours["you"]) == (0, 1)
    for key in ("table", "to_act", "phase", "pot", "dealer", "events", "result"):
        assert yours[key] == mine[key], key
    assert mine["seats"][0]["cards"] and yours["seats"][1]["cards"]
    assert mine["seats"][1]["cards"] is None and yours["seats"][0]["cards"] is None
    assert mine["hand"]["cards"] == mine["seats"][0]["cards"]
    assert yours["hand"]["cards"] == yours["seats"][1]["cards"]


@pytest.mark.every_database  # the event log, read back from the store mid-deal
def test_restart_mid_deal_loses_nothing(make_app: AppFactory) -> None:
    with TestClient(make_app()) as client:
        table, other = _two_players(client)
        invite = table["invite"]
        with connect(client, invite, "") as wa, connect(client, invite, "") as wb:
            sa, sb = hello(wa, table["player_token"]), hello(wb, other["player_token"])
            sa = state_where(wa, lambda m: m["seq"] >= sb["seq"] and m["state"]["to_act"] != 2)
            sb = catch_up(wb, sb, sa["seq"])
            actor = sa["state"]["to_act"]
            ws, state = (wa, sa) if actor == 0 else (wb, sb)
            act(ws, state, passive_action(state))
            moved = state_where(wa, lambda m: m["seq"] > sa["seq"] and m["state"]["to_act"] != 2)
            catch_up(wb, sb, moved["seq"])
            # A hello's answer carries the whole recent log, as the first state after the
            # restart does.
            before_a = hello(wa, table["player_token"])
            before_b = hello(wb, other["player_token"])
            assert before_a["seq"] == moved["seq"]
        assert before_a["state"]["phase"] in LIVE
    with (
        TestClient(make_app()) as client,
        connect(client, invite, "") as wa,
        connect(client, invite, "") as wb,
    ):
        after_a = hello(wa, table["player_token"])
        after_b = hello(wb, other["player_token"])
    for before, after in ((before_a, after_a), (before_b, after_b)):
        assert after["seq"] == before["seq"] and after["hand"] == before["hand"]
        for key in ("to_act", "phase", "pot", "hand", "legal", "dealer", "log"):
            assert after["state"][key] == before["state"][key], key
        for seat_before, seat_after in zip(
            before["state"]["seats"], after["state"]["seats"], strict=True
        ):
            for key in ("name", "stack", "bet", "status", "cards", "last_action"):
                assert seat_after[key] == seat_before[key], key


def test_each_change_is_one_state_message_that_says_what_happened(client: TestClient) -> None:
    """One message a change (issue 12: the public lines used to follow as messages of their
    own, more than half of all sent): every message of a deal is a ``state``, and the lines
    its ``events`` carry, in order, are the lines the public log gained."""
    table = create_table(client)
    invite, host = table["invite"], bearer(table["host_token"])
    added = client.post(f"/api/tables/{invite}/bots", json={"level": "simple"}, headers=host)
    assert added.status_code == 201, added.text
    with connect(client, invite, "") as ws:
        first = hello(ws, table["player_token"])
        assert first["state"]["events"] == []  # a hello shows no event for the first time
        assert client.post(f"/api/tables/{invite}/start", headers=host).status_code == 200
        said: list[dict[str, Any]] = []
        message = previous = first
        while message["state"]["result"] is None or message["hand"] is None:
            message = receive_json(ws)
            assert message["type"] == "state", message
            events = message["state"]["events"]
            assert all(previous["seq"] < e["seq"] <= message["seq"] for e in events)
            assert [e["seq"] for e in events] == sorted(e["seq"] for e in events)
            said.extend(events)
            previous = message
            state = message["state"]
            if state["to_act"] == 0 and state["legal"]:
                act(ws, message, passive_action(message))
        # The whole log, in the hello's answer; the states before it may say more.
        ws.send_json({"type": "hello", "token": table["player_token"]})
        while "log" not in (message := next_state(ws))["state"]:
            said.extend(message["state"]["events"])
        log = message["state"]["log"]
    lines = [(e["en"], e["it"]) for e in said]
    assert lines and [(line["en"], line["it"]) for line in log[-len(lines) :]] == lines[-len(log) :]
