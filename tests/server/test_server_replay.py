"""The hand replayer's API and page: ``GET /api/tables/{invite}/histories/{hand}/frames`` with
a player's token (their own view of a deal they were dealt in, the public view for anyone
else seated at the table), and ``/t/{invite}/hands/{hand}``, the page that steps through it.
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from server_fixtures import (
    act,
    bearer,
    catch_up,
    connect,
    create_table,
    hello,
    join,
    passive_action,
    state_where,
)

from italian_poker.engine.cards import format_cards, parse_cards
from italian_poker.engine.history import HandHistory
from italian_poker.server.app import create_app
from italian_poker.server.settings import ServerSettings

FRAME_FIELDS = [
    "index",
    "phase",
    "action",
    "line",
    "pot",
    "current_bet",
    "to_act",
    "opener",
    "seats",
    "proof",
    "blind",
]


def _play_one_deal(
    client: TestClient,
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """Anna (the host) and Bruno play deal 1 to its end, checking and calling; their
    tables, and the result the table's state gave at the end."""
    table = create_table(client)
    other = join(client, table["invite"], "Bruno")
    invite = table["invite"]
    assert client.post(f"/api/tables/{invite}/start", headers=bearer(table["host_token"]))
    with connect(client, invite, "") as wa, connect(client, invite, "") as wb:
        hello(wa, table["player_token"])
        sb = hello(wb, other["player_token"])
        sa = state_where(wa, lambda m: m["seq"] >= sb["seq"])
        for _ in range(100):
            if sa["state"]["result"] is not None:
                break
            sb = catch_up(wb, sb, sa["seq"])
            ws, state = (wa, sa) if sa["state"]["to_act"] == 0 else (wb, sb)
            act(ws, state, passive_action(state))
            target = sa["seq"]
            sa = state_where(wa, lambda m, t=target: m["seq"] > t)
    assert sa["state"]["result"] is not None
    return table, other, sa["state"]["result"]


def _frame_cards(frame: dict[str, Any]) -> set[str]:
    """Every card code of a frame: the seats' cards, the step's discards, the proof."""
    codes = {code for seat in frame["seats"] for code in seat["cards"]}
    codes.update(frame["action"]["discards"] if frame["action"] else ())
    return codes | set(frame["proof"])


def _history(client: TestClient, invite: str) -> HandHistory:
    """Deal 1 as the server keeps it (read off its table state, for the checks)."""
    server = client.app.state.server  # type: ignore[attr-defined]
    runtime = server.here(invite)
    return HandHistory.from_completed(runtime.state.completed(1))


def test_a_player_replays_their_deal_and_a_newcomer_sees_the_public_view(
    client: TestClient,
) -> None:
    table, other, result = _play_one_deal(client)
    invite = table["invite"]
    history = _history(client, invite)
    mine = client.get(
        f"/api/tables/{invite}/histories/1/frames", headers=bearer(table["player_token"])
    )
    assert mine.status_code == 200, mine.text
    replay = mine.json()
    assert list(replay) == [
        "hand",
        "you",
        "dealer",
        "requirement",
        "streets",
        "frames",
        "awards",
        "result",
        "download",
    ]
    you = replay["you"]
    assert history.names[you] == "Anna"
    assert replay["download"] == f"/api/tables/{invite}/histories/1.phh"
    assert client.get(replay["download"], headers=bearer(table["player_token"])).status_code == 200
    frames = replay["frames"]
    assert len(frames) == len(history.actions) + 1
    total = sum(history.stacks) + history.carried
    mine_dealt = {str(c) for d in history.dealt if d.seat == you for c in d.cards}
    theirs = {str(c) for d in history.dealt if d.seat != you for c in d.cards} - mine_dealt
    shown: set[int] = set()
    for frame in frames:
        assert list(frame) == FRAME_FIELDS
        assert sum(seat["stack"] for seat in frame["seats"]) + frame["pot"] == total
        if frame["action"] is not None and frame["action"]["kind"] == "show":
            shown.add(frame["action"]["seat"])
        for seat in frame["seats"]:
            if seat["seat"] == you:
                assert set(seat["cards"]) <= mine_dealt
            elif seat["seat"] not in shown:
                assert seat["cards"] == [] and seat["cards_label"] is None
        if frame["phase"] not in ("showdown", "complete"):
            assert not theirs & _frame_cards(frame)  # no hidden card anywhere in the frame
            for code in theirs:
                symbols = format_cards(parse_cards(code), symbols=True)
                assert symbols not in frame["line"]["en"] + frame["line"]["it"]
    assert frames[-1]["phase"] == "complete"
    assert [s["stack"] for s in frames[-1]["seats"]] == list(history.result.stacks)  # type: ignore[union-attr]
    assert replay["result"][0] == {"en": "Deal 1", "it": "Mano 1"}
    # The pots awarded, as the table's state told them at the end (its seats are the
    # table's, the replay's the deal's: the same here, Anna and Bruno in seats 0 and 1);
    # none when the deal was passed (tests/table/test_replay_frames.py has won deals).
    awards = history.result.awards  # type: ignore[union-attr]
    assert replay["awards"] == [
        {
            "amount": award.amount,
            "winners": list(award.winners),
            "shares": list(award.shares),
            "line": told["line"],
        }
        for award, told in zip(awards, result["awards"], strict=True)
    ]
    assert [s["phase"] for s in replay["streets"]][-1] == "complete"
    # Bruno sees the same deal with his own cards.
    his = client.get(
        f"/api/tables/{invite}/histories/1/frames", headers=bearer(other["player_token"])
    )
    assert his.json()["you"] != you
    # Carla sits down after deal 1: the shared link shows her what everyone saw.
    carla = join(client, invite, "Carla")
    public = client.get(
        f"/api/tables/{invite}/histories/1/frames", headers=bearer(carla["player_token"])
    )
    assert public.status_code == 200, public.text
    seen = public.json()
    assert seen["you"] is None and seen["download"] is None
    assert not any(line["en"].startswith("Your hand") for line in seen["result"])
    for frame in seen["frames"]:
        if frame["phase"] not in ("showdown", "complete"):
            assert all(seat["cards"] == [] for seat in frame["seats"])
    assert [f["pot"] for f in seen["frames"]] == [f["pot"] for f in frames]
    assert seen["awards"] == replay["awards"]  # public: the same for every viewer
    assert [f["line"] for f in seen["frames"]][:1] == [frames[0]["line"]]
    # She has no history of her own to download.
    phh = client.get(f"/api/tables/{invite}/histories/1.phh", headers=bearer(carla["player_token"]))
    assert phh.status_code == 404


def test_frames_refuse_a_wrong_token_an_unknown_hand_and_a_bad_number(client: TestClient) -> None:
    table, _, _ = _play_one_deal(client)
    invite = table["invite"]
    mine = bearer(table["player_token"])
    path = f"/api/tables/{invite}/histories"
    for headers in ({}, bearer("nope"), bearer(table["host_token"])):
        refused = client.get(f"{path}/1/frames", headers=headers)
        assert refused.status_code == 403 and refused.json()["error"] == "forbidden"
    for hand in ("2", "99"):  # deal 2 is under way, deal 99 never was
        missing = client.get(f"{path}/{hand}/frames", headers=mine)
        assert missing.status_code == 404 and missing.json()["error"] == "no_hand"
    for hand in ("0", "abc", "-1", "1.5", "%C2%B2"):
        bad = client.get(f"{path}/{hand}/frames", headers=mine)
        assert bad.status_code == 422, (hand, bad.text)
        assert bad.json()["error"] == "bad_request" and "hand" in bad.json()["message"]
    unknown = client.get("/api/tables/" + "x" * 24 + "/histories/1/frames", headers=mine)
    assert unknown.status_code == 404 and unknown.json()["error"] == "no_table"


def test_the_replayer_page_is_served_for_a_table_and_a_hand_number(client: TestClient) -> None:
    table = create_table(client)
    invite = table["invite"]
    page = client.get(f"/t/{invite}/hands/3")
    assert page.status_code == 200
    assert "/static/replay.js" in page.text and page.headers["cache-control"] == "no-store"
    assert client.get("/t/" + "x" * 24 + "/hands/1").status_code == 404
    for hand in ("abc", "0", "-2", "%C2%B2"):
        assert client.get(f"/t/{invite}/hands/{hand}").status_code == 404, hand
    for script in ("replay.js", "cards.js", "replay.css"):
        assert client.get(f"/static/{script}").status_code == 200


def test_the_schema_documents_the_replay(tmp_path: Any) -> None:
    settings = ServerSettings(database_url=f"sqlite:///{tmp_path / 'schema.sqlite3'}")
    openapi = create_app(settings, lambda level, seed: None).openapi()  # type: ignore[arg-type,return-value]
    operation = openapi["paths"]["/api/tables/{invite}/histories/{hand}/frames"]["get"]
    assert set(operation["responses"]) == {"200", "403", "404", "422"}
    ref = operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    assert ref.endswith("/HandReplay")
    schemas = openapi["components"]["schemas"]
    assert list(schemas["ReplayFrame"]["properties"]) == FRAME_FIELDS
    assert schemas["ReplaySeat"]["properties"]["status"]["enum"] == ["active", "folded"]
