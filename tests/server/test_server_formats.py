"""Match formats at the online table: a table created with a format through the API
(validated with the format's own reasons), a sit and go played to its end with bots, the
level and the standings in every state, re-entry, and a restart in the middle of a level that
resumes it exactly (the level, the deals or the time to the next one, the stacks), on each
database."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_fixtures import (
    AppFactory,
    FakeClock,
    bearer,
    connect,
    create_table,
    hello,
    passive_action,
    play_until,
)


def sit_and_go(client: TestClient, bots: int = 1, **body: Any) -> dict[str, Any]:
    """A sit and go with ``bots`` bots beside the host, started."""
    fields = {"format": "sit-and-go", "schedule": "turbo", "stack": 30, "seats": 4} | body
    table = create_table(client, **fields)
    host = bearer(table["host_token"])
    for _ in range(bots):
        added = client.post(
            f"/api/tables/{table['invite']}/bots", json={"level": "simple"}, headers=host
        )
        assert added.status_code == 201, added.text
    started = client.post(f"/api/tables/{table['invite']}/start", headers=host)
    assert started.status_code in (200, 204), started.text
    return table


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ({"format": "league"}, "format: one of cash, fixed, sit-and-go"),
        ({"format": "fixed"}, "has a number of deals or of minutes"),
        ({"format": "fixed", "deals": 0}, "at least one deal"),
        ({"format": "fixed", "deals": 5, "minutes": 30}, "not both"),
        ({"format": "sit-and-go"}, "needs a schedule"),
        ({"format": "sit-and-go", "schedule": "1x4,2xx"}, "whole numbers, not '2xx'"),
        ({"format": "sit-and-go", "schedule": "turbo", "shares": [60, 30]}, "adding up to 100"),
        ({"format": "cash", "re_entry_deals": 4}, "only a sit and go has re-entries"),
        ({"format": "sit-and-go", "schedule": "500x3"}, "cover at least one ante"),
    ],
)
def test_a_format_that_cannot_be_played_is_refused_with_the_reason(
    client: TestClient, body: dict[str, Any], reason: str
) -> None:
    data = {"host_nickname": "Anna", "turn_seconds": None} | body
    response = client.post("/api/tables", json=data)
    assert response.status_code == 422, response.text
    assert reason in response.text


def test_a_sit_and_go_created_through_the_api_plays_to_its_end_with_bots(
    client: TestClient,
) -> None:
    table = sit_and_go(client, bots=2, prize_pool=900, shares=[70, 30], schedule="1x2,3x2,8x2")
    invite = table["invite"]
    with connect(client, invite, "") as ws:
        first = hello(ws, table["player_token"])
        match = first["state"]["match"]
        assert match["kind"] == "sit-and-go" and match["starting_chips"] == 30
        assert match["level"]["number"] == 1 and match["level"]["of"] == 3
        seen: set[int] = set()

        def over(message: dict[str, Any]) -> bool:
            level = message["state"]["match"]["level"]
            seen.add(level["number"])
            return bool(message["state"]["match"]["finished"])

        last = play_until({0: ws}, {0: first}, over, limit=2000)[0]
        log = [entry["en"] for entry in hello(ws, table["player_token"])["state"]["log"]]
    match = last["state"]["match"]
    standings = match["standings"]
    assert [s["place"] for s in standings] == [1, 2, 3]
    assert [s["prize"] for s in standings] == [630, 270, 0]
    assert sum(s["chips"] for s in standings) == 90
    assert seen >= {1, 2}
    # The log says the match is over, with the places.
    over_at = log.index("The match is over. Standings:")
    winner = standings[0]
    assert log[over_at + 1] == f"1. {winner['name']}: {winner['chips']} chips, prize 630"
    lobby = client.get(f"/api/tables/{invite}").json()
    assert lobby["options"]["format"]["kind"] == "sit-and-go"
    # Each deal's hand history holds its level's ante and bets (levels of two deals).
    token = bearer(table["player_token"])
    hands = client.get(f"/api/tables/{invite}/histories", headers=token).json()["hands"]
    assert len(hands) >= 3
    for hand in hands[:4]:
        text = client.get(f"/api/tables/{invite}/histories/{hand}.phh", headers=token).text
        ante = 1 if hand <= 2 else 3
        assert f"min_bet = {ante}" in text and "antes = [" in text, hand
        antes = next(line for line in text.splitlines() if line.startswith("antes = "))
        assert min(int(a) for a in antes[9:-1].split(",")) == ante, hand


def test_a_busted_player_re_enters_while_the_window_is_open(make_app: AppFactory) -> None:
    # The bots take a tenth of a second a move: the match cannot end between the bust and
    # the requests that follow it, a few milliseconds later.
    with TestClient(make_app(bot_delay_seconds=0.1)) as client:
        _re_enter(client)


def _re_enter(client: TestClient) -> None:
    table = sit_and_go(client, bots=3, schedule="2x50", stack=12, re_entry_deals=200)
    invite, token = table["invite"], table["player_token"]
    with connect(client, invite, "") as ws:
        first = hello(ws, token)

        def busted(message: dict[str, Any]) -> bool:
            match = message["state"]["match"]
            return 0 in match["busted"] or bool(match["finished"])

        def give_up(state: dict[str, Any]) -> dict[str, Any]:
            if any(o["kind"] == "fold" for o in state["state"]["legal"]):
                return {"kind": "fold", "amount": None, "cards": [], "split": False}
            return passive_action(state)

        last = play_until({0: ws}, {0: first}, busted, choose=give_up, limit=3000)[0]
    if last["state"]["match"]["finished"]:
        pytest.skip("the host won before busting")
    assert last["state"]["match"]["re_entry"] is True
    assert client.post(f"/api/tables/{invite}/re-enter", headers=bearer(token)).status_code == 404
    asks = f"/api/tables/{invite}/chip-requests"
    wrong = client.post(asks, json={"chips": 20}, headers=bearer(token))
    assert wrong.status_code == 409 and wrong.json()["error"] == "re_entry_chips", wrong.text
    assert "ask for 12 chips, not 20" in wrong.json()["message"]
    asked = client.post(asks, json={"chips": 12}, headers=bearer(token))
    assert asked.status_code == 201, asked.text
    (request,) = asked.json()["chips"]
    assert (request["kind"], request["chips"], request["seat"]) == ("re_entry", 12, 0)
    answer = client.post(
        f"/api/tables/{invite}/chip-requests/{request['request']}/answer",
        json={"approve": True},
        headers=bearer(table["host_token"]),
    )
    assert answer.status_code == 200, answer.text
    again = client.post(asks, json={"chips": 12}, headers=bearer(token))
    assert again.status_code == 409 and again.json()["error"] == "not_busted", again.text
    state = client.get(f"/api/tables/{invite}", headers=bearer(token)).json()
    ledger = client.get(f"/api/tables/{invite}/ledger", headers=bearer(table["host_token"]))
    rows = ledger.json()["ledger"]
    assert any(r["kind"] == "re_entry" and r["amount"] == 12 for r in rows)
    assert state["seats"][0]["stack"] > 0  # back in play (the bots may have dealt since)
    summary = ledger.json()["summary"]
    assert summary["totals"]["net"] == 0
    anna = next(person for person in summary["people"] if person["nickname"] == "Anna")
    assert anna["bought_in"] == 24  # the seat's 12 chips, and the re-entry's
    if summary["settle_up"] is not None:  # the pot is empty: the settle-up counts the re-entry
        paid = sum(t["amount"] for t in summary["settle_up"] if t["payer"] == "Anna")
        received = sum(t["amount"] for t in summary["settle_up"] if t["payee"] == "Anna")
        assert paid - received == -anna["net"]


def _snapshot(message: dict[str, Any]) -> dict[str, Any]:
    state = message["state"]
    return {
        "seq": message["seq"],
        "level": state["match"]["level"],
        "stacks": [seat["stack"] for seat in state["seats"]],
        "phase": state["phase"],
        "to_act": state["to_act"],
    }


@pytest.mark.every_database  # the event log, read back from the store mid-level
@pytest.mark.parametrize("schedule", ["1x3,2x4,4x50", "1x3m,2x3m,4x3m"])
def test_a_restart_in_the_middle_of_a_level_resumes_it_exactly(
    make_app: AppFactory, schedule: str
) -> None:
    clock = FakeClock()
    app = make_app(clock=clock, sleep=clock.sleep)
    with TestClient(app) as client:
        table = sit_and_go(client, bots=1, schedule=schedule, stack=500)
        invite, token = table["invite"], table["player_token"]
        with connect(client, invite, "") as ws:
            first = hello(ws, token)

            def deals(message: dict[str, Any]) -> int:
                return int(message["hand"] or 0)

            state = play_until({0: ws}, {0: first}, lambda m: deals(m) >= 2)[0]
            if "m" in schedule:
                clock.offset += 181.0  # the first level's three minutes are over
            state = play_until(
                {0: ws},
                {0: state},
                # The host to act: nothing happens at the table until they do.
                lambda m: (
                    m["state"]["match"]["level"]["number"] == 2
                    and deals(m) >= 5
                    and m["state"]["to_act"] == 0
                ),
            )[0]
            before = _snapshot(hello(ws, token))
    level = before["level"]
    assert level["number"] == 2
    if "m" in schedule:
        assert level["at_time"] is not None and level["at_deal"] is None
    else:
        assert level["at_deal"] == 8 and level["deals_to_next"] is not None
    with (
        TestClient(make_app(clock=clock, sleep=clock.sleep)) as client,
        connect(client, invite, "") as ws,
    ):
        after = _snapshot(hello(ws, token))
    assert after == before


@pytest.mark.parametrize("fair", [False, True], ids=["seeded", "fair-decks"])
def test_a_fixed_match_in_minutes_ends_by_the_server_clock_after_the_deal_under_way(
    make_app: AppFactory, fair: bool
) -> None:
    """On a seeded table and on a live one, whose deals come from sealed fair decks."""
    clock = FakeClock()
    live = {"seed": None} if fair else {}
    with TestClient(make_app(clock=clock, sleep=clock.sleep, **live)) as client:
        table = create_table(client, format="fixed", minutes=10)
        host = bearer(table["host_token"])
        invite = table["invite"]
        client.post(f"/api/tables/{invite}/bots", json={"level": "simple"}, headers=host)
        assert client.post(f"/api/tables/{invite}/start", headers=host).status_code == 200
        with connect(client, invite, "") as ws:
            first = hello(ws, table["player_token"])
            assert first["state"]["match"]["kind"] == "fixed"
            state = play_until(
                {0: ws}, {0: first}, lambda m: m["state"]["to_act"] == 0 and m["hand"] == 2
            )[0]
            ends_at = state["state"]["match"]["ends_at"]
            assert ends_at is not None and not state["state"]["match"]["finished"]
            clock.offset += 601.0  # the ten minutes run out during deal 2: it is played out
            last = play_until({0: ws}, {0: state}, lambda m: m["state"]["match"]["finished"])[0]
    match = last["state"]["match"]
    assert last["hand"] >= 2 and match["deals_left"] is None  # a pot carried is played for
    assert [s["place"] for s in match["standings"]] == [1, 2]
    assert sum(s["net"] for s in match["standings"]) == 0
