"""The ledger's API: the host reads it always, a player only while the host lets the players
see it (a table event: it outlasts a restart); the summary's nets and pot come to zero, in a
deal and between deals, and the CSV holds exactly the JSON rows."""

from __future__ import annotations

import csv
import io
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
    play_until,
    state_where,
)

pytestmark = pytest.mark.every_database


def _ledger(client: TestClient, invite: str, token: str) -> dict[str, Any]:
    response = client.get(f"/api/tables/{invite}/ledger", headers=bearer(token))
    assert response.status_code == 200, response.text
    return dict(response.json())


def _csv_rows(client: TestClient, invite: str, token: str) -> list[dict[str, str]]:
    response = client.get(f"/api/tables/{invite}/ledger.csv", headers=bearer(token))
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "text/csv; charset=utf-8"
    assert response.headers["content-disposition"] == 'attachment; filename="ledger.csv"'
    return list(csv.DictReader(io.StringIO(response.text)))


def _as_csv(row: dict[str, Any]) -> dict[str, str]:
    """A JSON row as the CSV writes it."""
    return {key: "" if row[key] is None else str(row[key]) for key in row}


def _show(client: TestClient, invite: str, token: str, players: Any) -> Any:
    return client.post(
        f"/api/tables/{invite}/ledger-visibility", json={"players": players}, headers=bearer(token)
    )


def test_only_the_host_reads_the_ledger_until_the_host_lets_the_players(
    client: TestClient,
) -> None:
    table = create_table(client, stack=150)
    invite, host = table["invite"], table["host_token"]
    bruno = join(client, invite, "Bruno")["player_token"]
    ledger = _ledger(client, invite, host)
    assert [(r["nickname"], r["kind"], r["amount"]) for r in ledger["ledger"]] == [
        ("Anna", "buy_in", 150),
        ("Bruno", "buy_in", 150),
    ]
    summary = ledger["summary"]
    assert [(p["nickname"], p["bought_in"], p["stack"], p["net"]) for p in summary["people"]] == [
        ("Anna", 150, 150, 0),
        ("Bruno", 150, 150, 0),
    ]
    assert summary["in_pot"] == 0
    assert summary["totals"] == {"bought_in": 300, "cashed_out": 0, "stack": 300, "net": 0}
    assert summary["settle_up"] == []  # nobody up or down
    assert _settle_csv(client, invite, host).text == "payer,payee,amount\r\n"
    bad_part = client.get(f"/api/tables/{invite}/ledger.csv?part=all", headers=bearer(host))
    assert bad_part.status_code == 422 and bad_part.json()["error"] == "bad_request"
    for path in ("ledger", "ledger.csv", "ledger.csv?part=settle"):
        refused = client.get(f"/api/tables/{invite}/{path}", headers=bearer(bruno))
        assert refused.status_code == 403
        assert refused.json() == {
            "error": "ledger_private",
            "message": "the host has not let the players see the ledger: ask them",
        }
        for headers in (bearer("wrong"), {}, {"Authorization": host}):
            wrong = client.get(f"/api/tables/{invite}/{path}", headers=headers)
            assert wrong.status_code == 403 and wrong.json()["error"] == "forbidden"
        assert client.get(f"/api/tables/nope-nope-nope-nope/{path}").status_code == 404
        unknown = client.get(f"/api/tables/{'x' * 24}/{path}", headers=bearer(host))
        assert unknown.status_code == 404 and unknown.json()["error"] == "no_table"
    # A player may not change who sees it; the host may.
    assert _show(client, invite, bruno, True).status_code == 403
    assert _show(client, invite, host, "yes").status_code == 422
    shown = _show(client, invite, host, True)
    assert shown.status_code == 200 and shown.json()["players_see_ledger"] is True
    assert client.get(f"/api/tables/{invite}").json()["players_see_ledger"] is True
    assert _ledger(client, invite, bruno) == _ledger(client, invite, host)
    assert _csv_rows(client, invite, bruno) == [_as_csv(r) for r in ledger["ledger"]]
    hidden = _show(client, invite, host, False)
    assert hidden.status_code == 200 and hidden.json()["players_see_ledger"] is False
    assert client.get(f"/api/tables/{invite}/ledger", headers=bearer(bruno)).status_code == 403


def test_the_players_told_when_the_host_shows_or_hides_the_ledger(client: TestClient) -> None:
    table = create_table(client)
    invite, host = table["invite"], table["host_token"]
    bruno = join(client, invite, "Bruno")["player_token"]
    with connect(client, invite, "") as ws:
        first = hello(ws, bruno)
        assert first["state"]["table"]["players_see_ledger"] is False
        _show(client, invite, host, True)
        told = state_where(ws, lambda m: m["state"]["table"]["players_see_ledger"])
        assert [line["en"] for line in told["state"]["events"]] == [
            "The host lets the players see the ledger"
        ]
        _show(client, invite, host, True)  # no change: no event
        _show(client, invite, host, False)
        again = state_where(ws, lambda m: not m["state"]["table"]["players_see_ledger"])
        assert again["seq"] == told["seq"] + 1
        assert [line["it"] for line in again["state"]["events"]] == [
            "Ora solo l'organizzatore vede il registro"
        ]


def test_a_table_created_for_the_players_to_see_it_and_the_switch_outlast_a_restart(
    make_app: AppFactory,
) -> None:
    with TestClient(make_app()) as client:
        open_table = create_table(client, players_see_ledger=True)
        shut_table = create_table(client)
        bruno = join(client, open_table["invite"], "Bruno")["player_token"]
        carla = join(client, shut_table["invite"], "Carla")["player_token"]
        assert _ledger(client, open_table["invite"], bruno)["summary"]["totals"]["net"] == 0
        lobby = client.get(f"/api/tables/{open_table['invite']}").json()
        assert lobby["options"]["players_see_ledger"] is True
        assert (
            _show(client, shut_table["invite"], shut_table["host_token"], True).status_code == 200
        )
        assert (
            _show(client, open_table["invite"], open_table["host_token"], False).status_code == 200
        )
        refused = client.post("/api/tables", json={"host_nickname": "A", "players_see_ledger": 1})
        assert refused.status_code == 422
    with TestClient(make_app()) as client:  # rebuilt from the log
        assert _ledger(client, shut_table["invite"], carla)["ledger"]
        closed = client.get(f"/api/tables/{open_table['invite']}/ledger", headers=bearer(bruno))
        assert closed.status_code == 403 and closed.json()["error"] == "ledger_private"


def _check(ledger: dict[str, Any]) -> dict[str, Any]:
    """The summary agrees with itself: each net, the totals, and the nets with the pot are
    zero."""
    summary = ledger["summary"]
    for person in summary["people"]:
        assert person["net"] == person["stack"] + person["cashed_out"] - person["bought_in"]
    totals = summary["totals"]
    assert totals["bought_in"] == sum(p["bought_in"] for p in summary["people"])
    assert totals["cashed_out"] == sum(p["cashed_out"] for p in summary["people"])
    assert totals["stack"] == sum(p["stack"] for p in summary["people"]) + summary["in_pot"]
    assert totals["net"] == 0
    assert sum(p["net"] for p in summary["people"]) + summary["in_pot"] == 0
    # Settling up: nothing while the pot holds chips; else every net brought to zero.
    transfers = summary["settle_up"]
    if summary["in_pot"]:
        assert transfers is None
    else:
        left = {p["player"]: p["net"] for p in summary["people"]}
        names = {p["player"]: p["nickname"] for p in summary["people"]}
        for transfer in transfers:
            assert transfer["amount"] > 0
            assert names[transfer["payer_player"]] == transfer["payer"]
            assert names[transfer["payee_player"]] == transfer["payee"]
            left[transfer["payer_player"]] += transfer["amount"]
            left[transfer["payee_player"]] -= transfer["amount"]
        assert set(left.values()) <= {0}
    return dict(summary)


def _settle_csv(client: TestClient, invite: str, token: str) -> Any:
    return client.get(f"/api/tables/{invite}/ledger.csv?part=settle", headers=bearer(token))


@pytest.mark.parametrize("ante", [1, 5])
def test_the_nets_and_the_pot_come_to_zero_in_a_deal_and_after_it(
    make_app: AppFactory, ante: int
) -> None:
    """Anna, Bruno and a bot: mid-deal the antes (and bets) are the pot line; after the deal
    and a host's adjustment, a kick and a cash-out, the rows and the CSV still agree."""
    with TestClient(make_app(next_deal_seconds=600.0)) as client:
        _play_a_deal_and_check(client, ante)


def _play_a_deal_and_check(client: TestClient, ante: int) -> None:
    table = create_table(client, seats=4, stack=120, ante=ante)
    invite, host = table["invite"], table["host_token"]
    bruno = join(client, invite, "Bruno")
    assert client.post(
        f"/api/tables/{invite}/bots", json={"level": "simple"}, headers=bearer(host)
    ).is_success
    assert client.post(f"/api/tables/{invite}/start", headers=bearer(host)).is_success
    with connect(client, invite, "") as wa, connect(client, invite, "") as wb:
        states = {0: hello(wa, table["player_token"]), 1: hello(wb, bruno["player_token"])}
        sockets = {0: wa, 1: wb}
        states = play_until(sockets, states, lambda m: m["state"]["to_act"] in (0, 1))
        middle = _check(_ledger(client, invite, host))
        assert middle["in_pot"] > 0  # the antes at least
        refused = _settle_csv(client, invite, host)
        assert refused.status_code == 409 and refused.json() == {
            "error": "not_settled",
            "message": f"{middle['in_pot']} chips are in the pot: settle up once it is won",
        }
        assert middle["in_pot"] == states[0]["state"]["pot"]
        assert sum(p["stack"] for p in middle["people"]) == sum(
            s["stack"] for s in states[0]["state"]["seats"] if s["name"]
        )
        states = play_until(sockets, states, lambda m: m["state"]["result"] is not None)
        after = _check(_ledger(client, invite, host))
        carried = states[0]["state"]["pot"]  # a pot that stays for the next deal
        assert after["in_pot"] == carried
    adjusted = client.post(
        f"/api/tables/{invite}/stacks", json={"seat": 1, "amount": 500}, headers=bearer(host)
    )
    assert adjusted.status_code == 200
    assert client.delete(f"/api/tables/{invite}/seats/2", headers=bearer(host)).is_success
    ledger = _ledger(client, invite, host)
    summary = _check(ledger)
    kinds = [row["kind"] for row in ledger["ledger"]]
    assert kinds.count("result") == 3 and kinds[-2:] == ["adjust", "cash_out"]
    bot = next(p for p in summary["people"] if p["nickname"] == "Carla")
    assert bot["seated"] is False and bot["stack"] == 0
    assert bot["cashed_out"] == ledger["ledger"][-1]["amount"]
    person = next(p for p in summary["people"] if p["nickname"] == "Bruno")
    assert person["stack"] == 500 and person["seated"] is True
    # The CSV: a header, then one line per JSON row with the same values, in order.
    assert _csv_rows(client, invite, host) == [_as_csv(row) for row in ledger["ledger"]]
    settle = _settle_csv(client, invite, host)
    if summary["in_pot"]:
        assert settle.status_code == 409
    else:
        assert settle.status_code == 200, settle.text
        assert settle.headers["content-disposition"] == 'attachment; filename="settle-up.csv"'
        assert list(csv.DictReader(io.StringIO(settle.text))) == [
            {"payer": t["payer"], "payee": t["payee"], "amount": str(t["amount"])}
            for t in summary["settle_up"]
        ]
