"""``GET /api/tables/{invite}/stats``: every player's statistics over the table's finished
deals, for any seated player's token (public information: the same for all); a wrong token
is a 403, an unknown table a 404. ``POST /api/stats``: a group's tables counted together as
``italian-poker stats`` counts folders, each table counted or said why not, 1 to 50 tables."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from server_fixtures import bearer, connect, create_table, hello, join, play_until
from typer.testing import CliRunner

from italian_poker.cli.app import app
from italian_poker.engine.actions import ActionKind
from italian_poker.engine.history import dumps
from italian_poker.table.statistics import statistics_of


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
    guest = join(client, invite, "Zeno")  # the bots are Bruno and Carla
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


# --- POST /api/stats: a group's tables together ---------------------------------------------


def played_table(client: TestClient, name: str, bots: int, deals: int) -> dict[str, Any]:
    """A table where Anna (the host) and ``bots`` simple bots have finished ``deals`` deals
    or more (the table waits at Anna's next turn); the table's create answer."""
    table = create_table(client, name=name, stack=100, seats=bots + 1)
    invite, host = table["invite"], bearer(table["host_token"])
    for _ in range(bots):
        client.post(f"/api/tables/{invite}/bots", json={"level": "simple"}, headers=host)
    assert client.post(f"/api/tables/{invite}/start", headers=host).status_code == 200
    with connect(client, invite, "") as anna:
        states = {0: hello(anna, table["player_token"])}
        play_until(
            {0: anna}, states, lambda m: (m["hand"] or 0) > deals and m["state"]["to_act"] == 0
        )
    return table


def key(table: dict[str, Any], token: str | None = None) -> dict[str, str]:
    """A table of the body of ``POST /api/stats``, with the host's seat's token."""
    return {"invite": table["invite"], "token": token or table["player_token"]}


def test_a_groups_tables_count_together_as_the_command_counts_their_folders(
    client: TestClient, tmp_path: Path
) -> None:
    """Two tables with Anna and the bots at both: the route's statistics are the table
    layer's over both tables' deals, and what ``italian-poker stats`` says of the same
    histories saved in a folder a table (a name is one player at every table)."""
    first = played_table(client, "Martedì", bots=2, deals=3)
    second = played_table(client, "Giovedì", bots=3, deals=2)
    answer = client.post("/api/stats", json={"tables": [key(first), key(second)]})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert list(data) == ["tables", "players", "totals"]
    histories = [
        runtime_of(client, t["invite"]).histories.finished_histories() for t in (first, second)
    ]
    assert data["tables"] == [
        {
            "invite": table["invite"],
            "counted": True,
            "name": name,
            "deals": len(found),
            "error": None,
            "message": None,
        }
        for table, name, found in zip(
            (first, second), ("Martedì", "Giovedì"), histories, strict=True
        )
    ]
    together = statistics_of([*histories[0], *histories[1]]).to_dict()
    assert {k: data[k] for k in ("players", "totals")} == together
    assert data["totals"]["deals"] == len(histories[0]) + len(histories[1]) >= 5
    names = [row["name"] for row in data["players"]]
    assert names == ["Anna", "Bruno", "Carla", "Dario"]  # the bots named as the terminal's
    played = {row["name"]: row["played"] for row in data["players"]}
    assert played["Anna"] == played["Bruno"] == data["totals"]["deals"]  # at both tables
    assert played["Dario"] == len(histories[1])  # at the second only
    # The command, on the same histories saved in a folder a table, says the same.
    for folder, found in zip(("a-martedi", "b-giovedi"), histories, strict=True):
        (tmp_path / folder).mkdir()
        for history in found:
            path = tmp_path / folder / f"deal-{history.number:04d}.phh"
            path.write_text(dumps(history), encoding="utf-8")
    report = CliRunner().invoke(app, ["stats", str(tmp_path), "--json"])
    assert report.exit_code == 0, report.output
    assert {k: json.loads(report.stdout)[k] for k in ("players", "totals")} == together
    # One table alone is what its own route says.
    alone = client.post("/api/stats", json={"tables": [key(second)]}).json()
    own = client.get(
        f"/api/tables/{second['invite']}/stats", headers=bearer(second["player_token"])
    )
    assert {k: alone[k] for k in ("players", "totals")} == own.json()


def test_a_table_that_cannot_be_counted_is_said_so_and_the_others_are_counted(
    client: TestClient,
) -> None:
    counted = played_table(client, "Tavolo", bots=2, deals=1)
    other = create_table(client, name="Altro")
    tables = [
        key(counted),
        {"invite": "no-such-table-invite-x", "token": counted["player_token"]},
        key(other, "wrong"),
        key(other, other["host_token"]),  # the host's token is no seat's
        {"invite": "not an invite!", "token": other["player_token"]},
    ]
    # (The same invite may be asked for once only: one wrong token each for ``other``.)
    for refused_key in tables[2:4]:
        answer = client.post("/api/stats", json={"tables": [tables[0], refused_key]})
        assert answer.status_code == 200, answer.text
        data = answer.json()
        assert [t["error"] for t in data["tables"]] == [None, "forbidden"]
        assert data["tables"][1] == {
            "invite": other["invite"],
            "counted": False,
            "name": None,
            "deals": 0,
            "error": "forbidden",
            "message": data["tables"][1]["message"],
        }
        assert "seat" in data["tables"][1]["message"]
    answer = client.post("/api/stats", json={"tables": [tables[0], tables[1], tables[4]]})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert [(t["counted"], t["error"]) for t in data["tables"]] == [
        (True, None),
        (False, "no_table"),
        (False, "no_table"),
    ]
    assert all(t["message"] for t in data["tables"][1:])
    own = client.get(
        f"/api/tables/{counted['invite']}/stats", headers=bearer(counted["player_token"])
    )
    assert {k: data[k] for k in ("players", "totals")} == own.json()
    # Nothing counted: empty statistics, every table said why.
    none = client.post("/api/stats", json={"tables": [tables[1], tables[2]]}).json()
    assert none["players"] == [] and none["totals"]["deals"] == 0
    assert [t["error"] for t in none["tables"]] == ["no_table", "forbidden"]


def test_the_group_statistics_take_one_to_fifty_tables_each_once(client: TestClient) -> None:
    table = create_table(client)
    one = key(table)
    many = [{"invite": f"invite-number-{i:04d}-xxxx", "token": "t"} for i in range(50)]
    assert client.post("/api/stats", json={"tables": many}).status_code == 200
    cases = {
        "no table": {"tables": []},
        "51 tables": {"tables": [*many, one]},
        "twice": {"tables": [one, one]},
        "long invite": {"tables": [{"invite": "x" * 65, "token": "t"}]},
        "long token": {"tables": [{"invite": table["invite"], "token": "t" * 129}]},
        "no token": {"tables": [{"invite": table["invite"]}]},
        "a number": {"tables": [{"invite": table["invite"], "token": 5}]},
        "not a list": {"tables": one},
        "no tables": {},
    }
    for case, body in cases.items():
        refused = client.post("/api/stats", json=body)
        assert refused.status_code == 422, case
        error = refused.json()
        assert error["error"] == "bad_request", case
        assert error["message"].startswith("tables"), (case, error["message"])
        assert table["player_token"] not in error["message"], case  # nothing echoed
    assert "once" in client.post("/api/stats", json=cases["twice"]).json()["message"]
    assert "50" in client.post("/api/stats", json=cases["51 tables"]).json()["message"]
    # Tokens travel in the body only: the route takes no query and no GET.
    assert client.get("/api/stats").status_code == 405
