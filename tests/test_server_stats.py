"""``GET /api/tables/{invite}/stats``: every player's statistics over the table's finished
deals, for any seated player's token (public information: the same for all); a wrong token
is a 403, an unknown table a 404."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from server_fixtures import bearer, connect, create_table, hello, join, play_until

from italian_poker.engine.actions import ActionKind


def runtime_of(client: TestClient, invite: str) -> Any:
    """The server's live table at ``invite``."""
    server = client.app.state.server  # type: ignore[attr-defined]
    return next(r for r in server.tables.values() if r.invite == invite)


def test_the_tables_statistics_after_some_deals(client: TestClient) -> None:
    table = create_table(client, stack=100)
    invite, host = table["invite"], bearer(table["host_token"])
    mine = bearer(table["player_token"])
    before = client.get(f"/api/tables/{invite}/stats", headers=mine)
    assert before.status_code == 200
    assert before.json()["players"] == [] and before.json()["totals"]["deals"] == 0
    for _ in range(2):
        client.post(f"/api/tables/{invite}/bots", json={"level": "simple"}, headers=host)
    guest = join(client, invite, "Bruno")
    assert client.post(f"/api/tables/{invite}/start", headers=host).status_code == 200
    with connect(client, invite, "") as anna, connect(client, invite, "") as bruno:
        states = {
            0: hello(anna, table["player_token"]),
            guest["seat"]: hello(bruno, guest["player_token"]),
        }
        people = {0: anna, guest["seat"]: bruno}
        # Until deal 4, at a person's turn: the table waits there while the test reads.
        play_until(
            people, states, lambda m: (m["hand"] or 0) >= 4 and m["state"]["to_act"] in people
        )
    answer = client.get(f"/api/tables/{invite}/stats", headers=mine)
    assert answer.status_code == 200
    data = answer.json()
    assert list(data) == ["players", "totals"]
    # Counted from the server's own record of the deals, independently of the route.
    completed = runtime_of(client, invite).state.match.completed[: data["totals"]["deals"]]
    assert len(completed) >= 3
    expected: dict[str, dict[str, int]] = {}
    for deal in completed:
        opener = next((a.seat for a in deal.actions if a.action.kind is ActionKind.OPEN), None)
        for seat, name in enumerate(deal.start.names):
            row = expected.setdefault(name, {"played": 0, "opened": 0, "net": 0})
            row["played"] += 1
            row["opened"] += seat == opener
            row["net"] += deal.result.stacks[seat] - deal.start.stacks[seat]
    got = {row["name"]: {k: row[k] for k in ("played", "opened", "net")} for row in data["players"]}
    assert got == expected
    assert sum(row["net"] for row in data["players"]) == data["totals"]["net"]
    assert data["totals"]["net"] == data["totals"]["carried_in"] - data["totals"]["carried_out"]
    for row in data["players"]:
        assert list(row) == [
            "name",
            "played",
            "opened",
            "showdowns",
            "showdowns_won",
            "won_without_showdown",
            "net",
            "biggest_pot",
        ]
    # Public: every seated player gets the same.
    theirs = client.get(f"/api/tables/{invite}/stats", headers=bearer(guest["player_token"]))
    assert theirs.json() == data


def test_the_statistics_need_a_players_token_at_this_table(client: TestClient) -> None:
    table = create_table(client)
    other = create_table(client)
    invite = table["invite"]
    for headers in (
        {},
        bearer("wrong"),
        bearer(table["host_token"]),  # the host's token is no seat's
        bearer(other["player_token"]),
    ):
        refused = client.get(f"/api/tables/{invite}/stats", headers=headers)
        assert refused.status_code == 403, headers
        assert refused.json()["error"] == "forbidden"
    unknown = client.get("/api/tables/no-such-table-invite-x/stats", headers=bearer("x"))
    assert unknown.status_code == 404 and unknown.json()["error"] == "no_table"
