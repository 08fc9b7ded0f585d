"""A sit-out asked during a deal waits for its end, and the seat says so: the state's seat
has ``sit_out`` while the deal lasts (the page's "sitting out ... until this deal ends"),
then the seat is sitting out."""

from __future__ import annotations

from fastapi.testclient import TestClient
from server_fixtures import bearer, connect, create_table, hello, state_where


def test_a_sit_out_during_a_deal_is_shown_pending_until_it_ends(client: TestClient) -> None:
    table = create_table(client)
    invite, host = table["invite"], bearer(table["host_token"])
    for _ in range(2):
        assert client.post(f"/api/tables/{invite}/bots", json={"level": "simple"}, headers=host)
    with connect(client, invite, "") as ws:
        hello(ws, table["player_token"])
        assert client.post(f"/api/tables/{invite}/start", headers=host).status_code == 200
        state_where(ws, lambda m: m["state"]["to_act"] == 0)
        ws.send_json({"type": "sit_out"})
        pending = state_where(ws, lambda m: "sit_out" in m["state"]["seats"][0])
        mine = pending["state"]["seats"][0]
        assert mine["sit_out"] is True and mine["status"] in ("active", "folded")
        assert all("sit_out" not in seat for seat in pending["state"]["seats"][1:])
        after = state_where(ws, lambda m: m["state"]["seats"][0]["status"] == "sitting_out")
        assert "sit_out" not in after["state"]["seats"][0]
