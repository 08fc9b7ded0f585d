"""Histories and views belong to the person who played, never to a name or a seat number: a
newcomer who takes a kicked player's name or seat gets none of that player's hands or cards."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_fixtures import (
    AppFactory,
    FakeClock,
    bearer,
    catch_up,
    connect,
    create_table,
    hello,
    join,
    play_until,
    wait_until,
)


def _one_deal_then_kick(client: TestClient) -> tuple[dict[str, Any], dict[str, Any], list[str]]:
    """Anna (host) and Bruno play deal 1 to its end; the host then kicks Bruno. Returns the
    table, Bruno's seat and the cards Bruno held in deal 1."""
    table = create_table(client, seats=3)
    invite = table["invite"]
    bruno = join(client, invite, "Bruno")
    host = bearer(table["host_token"])
    assert client.post(f"/api/tables/{invite}/start", headers=host).status_code == 200
    with connect(client, invite, "") as wa, connect(client, invite, "") as wb:
        states = {0: hello(wa, table["player_token"]), 1: hello(wb, bruno["player_token"])}
        states = play_until({0: wa, 1: wb}, states, lambda m: m["state"]["hand"] is not None)
        cards = list(states[1]["state"]["hand"]["cards"])
        states = play_until({0: wa, 1: wb}, states, lambda m: m["state"]["result"] is not None)
    assert states[0]["hand"] == 1 and states[0]["state"]["phase"] == "between-deals"
    kicked = client.delete(f"/api/tables/{invite}/seats/{bruno['seat']}", headers=host)
    assert kicked.status_code == 200 and kicked.json()["seats"][bruno["seat"]]["nickname"] is None
    return table, bruno, cards


def test_history_not_given_to_a_newcomer_with_a_kicked_players_name(
    make_app: AppFactory,
) -> None:
    with TestClient(make_app(next_deal_seconds=600.0)) as client:
        table, bruno, _ = _one_deal_then_kick(client)
        invite = table["invite"]
        mine = bearer(table["player_token"])
        assert client.get(f"/api/tables/{invite}/histories", headers=mine).json() == {"hands": [1]}
        newcomer = join(client, invite, "Bruno")
        theirs = bearer(newcomer["player_token"])
        listed = client.get(f"/api/tables/{invite}/histories", headers=theirs)
        assert listed.status_code == 200 and listed.json() == {"hands": []}
        for path in ("1", "1.phh"):
            response = client.get(f"/api/tables/{invite}/histories/{path}", headers=theirs)
            assert response.status_code == 404, (path, response.text)
        # The kicked player's own token is void; Anna still has her hand.
        old = bearer(bruno["player_token"])
        assert client.get(f"/api/tables/{invite}/histories", headers=old).status_code == 403
        assert client.get(f"/api/tables/{invite}/histories/1", headers=mine).status_code == 200
    with TestClient(make_app(next_deal_seconds=600.0)) as client:  # rebuilt from the log
        assert client.get(f"/api/tables/{invite}/histories", headers=theirs).json()["hands"] == []
        assert client.get(f"/api/tables/{invite}/histories", headers=mine).json()["hands"] == [1]


def test_newcomer_in_a_kicked_players_seat_is_not_shown_his_last_cards(
    make_app: AppFactory,
) -> None:
    """Between deals the table still shows the last deal: a newcomer in the seat a kicked
    player left sees none of that player's cards, as their own or on the seat."""
    with TestClient(make_app(next_deal_seconds=600.0)) as client:
        table, bruno, cards = _one_deal_then_kick(client)
        invite = table["invite"]
        newcomer = join(client, invite, "Carla")
        assert newcomer["seat"] == bruno["seat"]
        with connect(client, invite, "") as wc, connect(client, invite, "") as wa:
            seen = hello(wc, newcomer["player_token"])
            anna = catch_up(wa, hello(wa, table["player_token"]), seen["seq"])
        assert seen["state"]["you"] == bruno["seat"]
        assert seen["state"]["phase"] in ("between-deals", "over")  # Anna is alone: over
        assert seen["state"]["hand"] is None and seen["state"]["legal"] == []
        for message in (seen, anna):
            entry = message["state"]["seats"][bruno["seat"]]
            assert entry["name"] == "Carla" and entry["cards"] is None
        text = repr(seen)
        assert not [card for card in cards if f"'{card}'" in text], cards


def test_grace_period_of_a_kicked_player_does_not_sit_out_a_newcomer_with_his_name(
    make_app: AppFactory,
) -> None:
    """The reconnect grace period belongs to the person: the one of a kicked player who never
    connected ends without sitting out the newcomer who took his name and seat, whose own
    grace period runs from when they sat down. An hour's grace, on the server's clock."""
    clock = FakeClock()
    app = make_app(clock=clock, sleep=clock.sleep, reconnect_grace_seconds=3600.0)
    with TestClient(app) as client:
        table = create_table(client)
        invite, host = table["invite"], bearer(table["host_token"])
        first = join(client, invite, "Bruno")  # never connects: his grace period runs
        clock.offset += 1800
        assert client.delete(f"/api/tables/{invite}/seats/1", headers=host).status_code == 200
        newcomer = join(client, invite, "Bruno")
        assert newcomer["seat"] == first["seat"] == 1
        clock.offset += 2700  # past the kicked player's grace period, within the newcomer's
        wait_until(clock.settled, "the grace periods that ended to have done their work")
        assert client.get(f"/api/tables/{invite}").json()["seats"][1]["sitting_out"] is False
        clock.offset += 1800  # past the newcomer's own
        wait_until(
            lambda: client.get(f"/api/tables/{invite}").json()["seats"][1]["sitting_out"],
            "the newcomer to be sat out",
        )


@pytest.mark.every_database
def test_ledger_rows_of_a_newcomer_with_a_kicked_players_name_are_their_own(
    make_app: AppFactory,
) -> None:
    """The ledger named the owner of each row by nickname only: the kicked Bruno's buy-in,
    deal result and cash-out and the newcomer Bruno's buy-in could not be told apart. Each
    row now names the person (``player``), also after a restart."""
    with TestClient(make_app(next_deal_seconds=600.0)) as client:
        table, _, _ = _one_deal_then_kick(client)
        invite = table["invite"]
        join(client, invite, "Bruno")
        host = bearer(table["host_token"])
        rows = client.get(f"/api/tables/{invite}/ledger", headers=host).json()["ledger"]
    brunos = [row for row in rows if row["nickname"] == "Bruno"]
    assert [row["kind"] for row in brunos] == ["buy_in", "result", "cash_out", "buy_in"]
    first, second = brunos[0]["player"], brunos[-1]["player"]
    assert isinstance(first, int) and isinstance(second, int) and first != second
    assert {row["player"] for row in brunos[:3]} == {first}
    kicked = [row["amount"] for row in brunos[:3]]
    assert kicked[0] + kicked[1] == kicked[2]  # bought in, won or lost, cashed out the rest
    anna = {row["player"] for row in rows if row["nickname"] == "Anna"}
    assert len(anna) == 1 and anna.isdisjoint({first, second})
    with TestClient(make_app(next_deal_seconds=600.0)) as client:  # rebuilt from the log
        again = client.get(f"/api/tables/{invite}/ledger", headers=host).json()["ledger"]
    assert [(r["nickname"], r["player"], r["kind"]) for r in again] == [
        (r["nickname"], r["player"], r["kind"]) for r in rows
    ]
