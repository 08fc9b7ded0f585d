"""Spectators (issue 13): the host's watch link, opened and closed by the host only, kept
across a restart and found by its hash in the database; the spectators' socket, which sends
the public part of the state only and takes no move; with the delay of one deal, nothing of
a deal under way (the table as it was before it), then the deal whole once it has ended; and,
over random full deals with bots, with and without the delay, no message a spectator gets
holds a card that was not shown to the whole table."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_fixtures import (
    ORIGIN,
    AppFactory,
    act,
    bearer,
    connect,
    create_table,
    hello,
    join,
    next_message,
    passive_action,
    receive_json,
    state_where,
)
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect
from test_server_replicas import Servers, postgres_url, servers, wait_until

from italian_poker.engine.actions import ActionKind
from italian_poker.engine.cards import ALL_CARDS
from italian_poker.engine.deal import Deal
from italian_poker.engine.history import HandHistory
from italian_poker.engine.match import CompletedDeal
from italian_poker.server.registry import Server
from italian_poker.server.store import token_hash
from italian_poker.server.table_state import TableState
from italian_poker.table.vocabulary import Language, card_label

__all__ = ["postgres_url", "servers"]  # the fixtures of several processes

CODE = re.compile(r'"([2-9TJQKA][hdcs])"')
"""A card's code as a JSON string of a message."""


def spectate(client: TestClient, watch: str, origin: str = ORIGIN) -> WebSocketTestSession:
    """The spectators' socket of the watch link ``watch`` (enter it with ``with``)."""
    return client.websocket_connect(f"/ws/watch/{watch}", headers={"origin": origin})


def set_watch(
    client: TestClient, table: dict[str, Any], token: str | None = None, **body: Any
) -> Any:
    """``POST .../watch`` with the host's token (or ``token``)."""
    headers = bearer(token if token is not None else table["host_token"])
    return client.post(f"/api/tables/{table['invite']}/watch", json=body, headers=headers)


def open_link(client: TestClient, table: dict[str, Any], delay: bool = False) -> str:
    response = set_watch(client, table, open=True, delay=delay)
    assert response.status_code == 200, response.text
    watch = response.json()["watch"]
    assert isinstance(watch, str)
    return watch


def server_of(client: TestClient) -> Server:
    server: Server = client.app.state.server  # type: ignore[attr-defined]
    return server


def state_of(client: TestClient, invite: str) -> TableState:
    runtime = server_of(client).here(invite)
    assert runtime is not None
    return runtime.state


def closed_with(ws: WebSocketTestSession) -> tuple[list[dict[str, Any]], int]:
    """The messages until the server closes the socket, and the close code."""
    messages = []
    with pytest.raises(WebSocketDisconnect) as closed:
        while True:
            messages.append(receive_json(ws))
    return messages, closed.value.code


def with_bots(client: TestClient, table: dict[str, Any], bots: int, level: str = "simple") -> None:
    for _ in range(bots):
        response = client.post(
            f"/api/tables/{table['invite']}/bots",
            json={"level": level},
            headers=bearer(table["host_token"]),
        )
        assert response.status_code == 201, response.text


# --- the host's switch ---------------------------------------------------------------------


def test_only_the_host_opens_and_closes_the_watch_link(client: TestClient) -> None:
    table = create_table(client)
    invite = table["invite"]
    bruno = join(client, invite, "Bruno")
    assert set_watch(client, table, bruno["player_token"], open=True).status_code == 403
    no_token = client.post(f"/api/tables/{invite}/watch", json={"open": True})
    assert no_token.status_code == 403 and no_token.json()["error"] == "forbidden"
    assert state_of(client, invite).switches.watch_hash is None
    opened = set_watch(client, table, open=True)
    assert opened.status_code == 200, opened.text
    link = opened.json()
    assert link["open"] is True and link["delay"] is False
    assert len(link["watch"]) == 24 and link["watch_url"] == f"/w/{link['watch']}"
    assert state_of(client, invite).switches.watch_hash == token_hash(
        link["watch"]
    )  # only its hash
    assert client.get(link["watch_url"]).status_code == 200
    # Opened again: the same link (the server cannot give its secret again), no new event.
    seq = state_of(client, invite).seq
    again = set_watch(client, table, open=True).json()
    assert again == {"open": True, "delay": False, "watch": None, "watch_url": None}
    assert state_of(client, invite).seq == seq
    # The delay alone: the link stays.
    delayed = set_watch(client, table, open=True, delay=True).json()
    assert delayed == {"open": True, "delay": True, "watch": None, "watch_url": None}
    assert client.get(link["watch_url"]).status_code == 200
    # Closed: void at once.
    closed = set_watch(client, table, open=False).json()
    assert closed == {"open": False, "delay": True, "watch": None, "watch_url": None}
    assert client.get(link["watch_url"]).status_code == 404
    log = [line["en"] for line in client_log(client, table)]
    assert log[-3:] == [
        "The host opens the table to spectators",
        "Spectators now see each deal once it has ended",
        "The host closes the table to spectators",
    ]


def client_log(client: TestClient, table: dict[str, Any]) -> list[dict[str, Any]]:
    with connect(client, table["invite"], "") as ws:
        return list(hello(ws, table["player_token"])["state"]["log"])


def test_bad_watch_requests_are_refused_and_change_nothing(client: TestClient) -> None:
    table = create_table(client)
    invite = table["invite"]
    for body, code in [
        ({"open": False, "new_link": True}, "bad_watch"),
        ({"open": "yes"}, "bad_request"),
        ({"open": True, "delay": 1}, "bad_request"),
        ({}, "bad_request"),
    ]:
        response = set_watch(client, table, **body)
        assert (response.status_code, response.json()["error"]) == (422, code), body
    assert state_of(client, invite).seq == 1  # the host's seat only
    unknown = client.post(
        "/api/tables/AAAAAAAAAAAAAAAAAAAAAAAA/watch",
        json={"open": True},
        headers=bearer(table["host_token"]),
    )
    assert unknown.status_code == 404


def test_a_new_link_voids_the_old_one_and_closes_its_spectators(client: TestClient) -> None:
    table = create_table(client)
    first = open_link(client, table)
    with spectate(client, first) as ws:
        assert receive_json(ws)["type"] == "state"
        renewed = set_watch(client, table, open=True, new_link=True).json()
        second = renewed["watch"]
        assert second and second != first
        messages, code = closed_with(ws)
    assert code == 4410 and messages[-1]["code"] == "watch_closed"
    assert client.get(f"/w/{first}").status_code == 404
    assert client.get(f"/w/{second}").status_code == 200
    with spectate(client, second) as ws:
        assert receive_json(ws)["type"] == "state"
        set_watch(client, table, open=False)
        _, code = closed_with(ws)
    assert code == 4410
    assert client_log(client, table)[-2:] == [
        {"seq": 3, "en": "The host gives spectators a new watch link: the old one no longer works",
         "it": "L'organizzatore dà agli spettatori un nuovo link: il vecchio non funziona più"},
        {"seq": 4, "en": "The host closes the table to spectators",
         "it": "L'organizzatore chiude il tavolo agli spettatori"},
    ]  # fmt: skip


@pytest.mark.parametrize(
    "watch", ["AAAAAAAAAAAAAAAAAAAAAAAA", "short", "x" * 65, "a.b.c.d.e.f.g.h.i"]
)
def test_a_void_watch_link_is_a_404_page_and_a_closed_socket(
    client: TestClient, watch: str
) -> None:
    create_table(client)
    page = client.get(f"/w/{watch}")
    assert page.status_code == 404 and "<html" in page.text  # the page says it itself
    with spectate(client, watch) as ws:
        messages, code = closed_with(ws)
    assert code == 4404 and [m["code"] for m in messages] == ["no_watch"]


def test_the_spectators_socket_checks_the_origin(client: TestClient) -> None:
    table = create_table(client)
    watch = open_link(client, table)
    with pytest.raises(WebSocketDisconnect) as refused, spectate(client, watch, "http://evil"):
        pass
    assert refused.value.code == 4403


def test_the_watch_link_is_found_by_its_hash_in_the_database(client: TestClient) -> None:
    """``tables.watch_hash`` follows the ``watch`` events in their own transactions."""
    table = create_table(client)
    store = server_of(client).store
    table_id = server_of(client).here(table["invite"]).id  # type: ignore[union-attr]
    watch = open_link(client, table)
    assert store.table_of_watch(token_hash(watch)) == table_id
    renewed = set_watch(client, table, open=True, new_link=True).json()["watch"]
    assert store.table_of_watch(token_hash(watch)) is None
    assert store.table_of_watch(token_hash(renewed)) == table_id
    join(client, table["invite"], "Bruno")  # another event: the hash stays
    assert store.table_of_watch(token_hash(renewed)) == table_id
    set_watch(client, table, open=False)
    assert store.table_of_watch(token_hash(renewed)) is None


def test_a_table_created_open_to_spectators(client: TestClient) -> None:
    table = create_table(client, watch=True, watch_delay=True)
    assert table["watch_url"] == f"/w/{table['watch']}"
    with spectate(client, table["watch"]) as ws:
        first = receive_json(ws)
    assert first["state"]["table"]["watch"] == {"open": True, "delay": True}
    assert first["state"]["watching"]["delay"] is True
    assert create_table(client)["watch"] is None
    closed = create_table(client, watch_delay=True)  # the delay kept for when it opens
    assert closed["watch"] is None
    assert state_of(client, closed["invite"]).switches.watch_delay is True


def test_after_a_restart_the_link_still_works(make_app: AppFactory) -> None:
    with TestClient(make_app(next_deal_seconds=600.0)) as client:
        table = create_table(client)
        with_bots(client, table, 2)
        watch = open_link(client, table, delay=True)
        client.post(f"/api/tables/{table['invite']}/start", headers=bearer(table["host_token"]))
        with spectate(client, watch) as ws:
            before = receive_json(ws)
    assert before["state"]["watching"]["under_way"] == 1
    with TestClient(make_app(next_deal_seconds=600.0)) as client:  # rebuilt from the log
        assert client.get(f"/w/{watch}").status_code == 200
        with spectate(client, watch) as ws:
            after = receive_json(ws)
    # The same table from before the deal under way (nobody is connected yet, as before).
    assert after == before


# --- what a spectator is sent --------------------------------------------------------------


def test_a_spectator_gets_the_public_state_only_and_cannot_act(client: TestClient) -> None:
    table = create_table(client)
    invite = table["invite"]
    with_bots(client, table, 2)
    watch = open_link(client, table)
    client.post(f"/api/tables/{invite}/start", headers=bearer(table["host_token"]))
    with connect(client, invite, "") as player:
        mine = hello(player, table["player_token"])
        if mine["state"]["to_act"] != 0:  # the bots play until the host's turn: then it waits
            mine = state_where(player, lambda m: m["state"]["to_act"] == 0)
        with spectate(client, watch) as ws:
            first = receive_json(ws)
            state = first["state"]
            assert first["type"] == "state" and first["seq"] == mine["seq"]
            for member in ("you", "host", "hand", "legal"):
                assert member not in state
            assert "invite" not in state["table"] and invite not in json.dumps(first)
            assert state["watching"] == {"delay": False, "under_way": None, "line": None}
            # The same public part as the player's, less the player's own cards.
            own = set(mine["state"]["hand"]["cards"])
            assert not own & set(CODE.findall(json.dumps(first)))
            for seat, entry in enumerate(state["seats"]):
                theirs = dict(mine["state"]["seats"][seat])
                if seat == 0:
                    theirs.update(cards=None, cards_label=None)
                assert entry == theirs
            ws.send_json({"type": "ping"})
            assert next_message(ws, "pong") == {"type": "pong"}
            for sent in (
                {
                    "type": "action",
                    "hand": first["hand"],
                    "seq": first["seq"],
                    "action": {"kind": "fold"},
                },
                {"type": "sit_out"},
            ):
                ws.send_json(sent)
                assert next_message(ws, "error")["code"] == "watching"
            ws.send_text("{nope")
            assert next_message(ws, "error")["code"] == "bad_message"
            ws.send_json({"type": "hello"})
            assert next_message(ws, "state")["seq"] == first["seq"]
            ws.send_text("x" * 5000)
            _, code = closed_with(ws)
    assert code == 1009
    assert state_of(client, invite).seq == first["seq"]  # nothing a spectator sent changed it


def test_the_players_see_how_many_watch(client: TestClient) -> None:
    table = create_table(client)
    watch = open_link(client, table, delay=True)
    with connect(client, table["invite"], "") as player:
        first = hello(player, table["player_token"])
        assert first["state"]["table"]["watch"] == {"open": True, "delay": True, "spectators": 0}
        with spectate(client, watch) as one, spectate(client, watch) as two:
            receive_json(one)
            receive_json(two)
            told = state_where(player, lambda m: m["state"]["table"]["watch"]["spectators"] == 2)
            assert told["seq"] == first["seq"]  # no event: who is connected changed
        state_where(player, lambda m: m["state"]["table"]["watch"]["spectators"] == 0)


def test_a_spectator_who_floods_is_closed(make_app: AppFactory) -> None:
    with TestClient(make_app(rate_per_second=1.0, rate_burst=2, rate_strikes=3)) as client:
        table = create_table(client)
        with spectate(client, open_link(client, table)) as ws:
            receive_json(ws)
            for _ in range(6):
                ws.send_json({"type": "ping"})
            messages, code = closed_with(ws)
    assert code == 1008 and "rate_limited" in [m.get("code") for m in messages]


# --- hidden cards --------------------------------------------------------------------------


def public_cards(completed: CompletedDeal) -> set[str]:
    """The cards of a finished deal the whole table saw, read off the engine's deal itself:
    the hands shown at the showdown, the opener's proof, the discards when they lie face up
    (003). Every other card of the deck was hidden from the table."""
    history = HandHistory.from_completed(completed)
    deal = Deal(history.start(), history.source())
    seen: set[str] = set()
    for entry in history.actions:
        if entry.action.kind is ActionKind.DRAW and history.rules.discards_face_up:
            seen |= {str(card) for card in entry.action.cards}
        deal.apply(entry.action, seat=entry.seat)
    if deal.showdown is not None:
        seen |= {str(card) for seat in deal.showdown.shown for card in deal.hands[seat]}
    result = deal.result
    assert result is not None
    return seen | {str(card) for card in result.proof}


def card_names(text: str) -> set[str]:
    """The codes of the cards named in words in ``text`` (either language)."""
    return {
        str(card)
        for card in ALL_CARDS
        for lang in (Language.EN, Language.IT)
        if card_label(card, lang) in text
    }


def assert_nothing_hidden(messages: list[dict[str, Any]], state: TableState) -> None:
    """Every card a spectator's message holds is one the whole table saw: as a code, one
    shown in the deal the message is of (its ``hand``); in words (the log, the result),
    one shown in that deal or an earlier one. A deal under way (not finished yet) has
    shown nothing."""
    match = state.match
    assert match is not None
    public = {c.number: public_cards(c) for c in match.completed}
    for message in messages:
        if message["type"] not in ("state", "replay"):
            continue
        hand = message["hand"] or 0
        text = json.dumps(message, ensure_ascii=False)
        allowed = public.get(hand, set())
        assert set(CODE.findall(text)) <= allowed, (hand, set(CODE.findall(text)) - allowed)
        said = set().union(*(public.get(n, set()) for n in range(1, hand + 1)))
        assert card_names(text) <= said, (hand, card_names(text) - said)


def play(
    client: TestClient,
    table: dict[str, Any],
    watch: str,
    deals: int,
    rng: random.Random,
    watching: TestClient | None = None,
) -> list[dict[str, Any]]:
    """The host plays ``deals`` deals with the bots, making a random legal move (a passive
    one when that was refused), while a spectator (on ``watching``, another process, if
    given) records every message; returns them."""
    invite = table["invite"]
    seen: list[dict[str, Any]] = []
    with connect(client, invite, "") as player, spectate(watching or client, watch) as ws:
        seen.append(receive_json(ws))
        state = hello(player, table["player_token"])
        client.post(f"/api/tables/{invite}/start", headers=bearer(table["host_token"]))
        while not ((state["hand"] or 0) > deals or state["state"]["phase"] == "over"):
            message = receive_json(player)
            mine = state["state"]["to_act"] == 0 and state["state"]["legal"]
            if message["type"] == "error" and message["code"] == "illegal" and mine:
                act(player, state, passive_action(state))  # the random move was refused
                continue
            if message["type"] != "state":
                continue
            state = message
            if state["state"]["to_act"] == 0 and state["state"]["legal"]:
                act(player, state, random_move(state, rng))
        target = state_of(client, invite).seq
        delayed = state_of(client, invite).switches.watch_delay
        while True:
            message = receive_json(ws)
            seen.append(message)
            if message["type"] == "state" and message["seq"] >= target:
                break
            if delayed and message["type"] == "state":
                number = message["state"]["watching"]["under_way"]
                if number is not None and number > deals:
                    break
    return seen


def random_move(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    legal = state["state"]["legal"]
    option = rng.choice(legal)
    amount = None
    if option["min"] is not None:
        amount = rng.randint(option["min"], option["max"])
    cards: list[str] = []
    if option["kind"] == "draw":
        hand = state["state"]["hand"]["cards"]
        cards = rng.sample(hand, rng.randint(0, min(len(hand), option["max_cards"] or 0)))
    return {"kind": option["kind"], "amount": amount, "cards": cards, "split": False}


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    seed=st.integers(0, 10_000),
    preset=st.sampled_from(["standard", "003", "002", "fantini"]),
    bots=st.lists(st.sampled_from(["random", "simple", "strong"]), min_size=1, max_size=4),
    delay=st.booleans(),
)
def test_no_message_a_spectator_gets_holds_a_hidden_card(
    make_app: AppFactory, seed: int, preset: str, bots: list[str], delay: bool
) -> None:
    with TestClient(make_app(seed=seed)) as client:
        table = create_table(client, preset=preset, seats=len(bots) + 1)
        for level in bots:
            with_bots(client, table, 1, level)
        watch = open_link(client, table, delay=delay)
        messages = play(client, table, watch, 3, random.Random(seed))
        state = state_of(client, table["invite"])
    assert_nothing_hidden(messages, state)
    replays = [m["hand"] for m in messages if m["type"] == "replay"]
    # One deal behind: each deal, in order, once it has ended (those the spectator saw end).
    assert replays == (list(range(1, len(replays) + 1)) if delay else [])
    assert len(replays) >= (3 if delay and state.hand and state.hand > 3 else 0)


# --- one deal behind -----------------------------------------------------------------------


def test_one_deal_behind_a_spectator_gets_nothing_of_the_deal_under_way(
    make_app: AppFactory,
) -> None:
    with TestClient(make_app(seed=5)) as client:
        table = create_table(client)
        with_bots(client, table, 3, "strong")
        watch = open_link(client, table, delay=True)
        messages = play(client, table, watch, 4, random.Random(5))
        state = state_of(client, table["invite"])
    assert_nothing_hidden(messages, state)
    states = [m for m in messages if m["type"] == "state"]
    between = None  # the last state of the table between deals
    for i, message in enumerate(messages):
        if message["type"] != "state":
            continue
        watching = message["state"]["watching"]
        number = watching["under_way"]
        if number is None:
            between = message
            continue
        # Deal N under way: the table as it was before it, and the line that says so.
        assert (
            watching["line"]["en"] == f"Deal {number} is under way: spectators see it when it ends"
        )
        assert between is not None and message["seq"] == between["seq"]
        assert message["hand"] == between["hand"] == (number - 1 or None)
        assert message["state"]["pot"] == between["state"]["pot"]
        assert message["state"]["log"] == between["state"]["log"]
        assert [s["stack"] for s in message["state"]["seats"]] == [
            s["stack"] for s in between["state"]["seats"]
        ]
        assert message["state"]["to_act"] is None and message["state"]["deadline"] is None
        # Nothing else until the deal has ended: then the deal, whole.
        following = messages[i + 1 :]
        if number > len(state.match.completed):  # type: ignore[union-attr]
            assert following == []
            continue
        replay = following[0]
        assert replay["type"] == "replay" and replay["hand"] == number
        assert replay["log"] == between["state"]["log"]
        completed = state.completed(number)
        assert completed is not None
        assert len(replay["frames"]) == len(completed.actions) + 1
        last = replay["frames"][-1]
        assert last["result"] is not None and last["result"]["hand"] == number
        assert [f["result"] for f in replay["frames"][:-1]] == [None] * (len(replay["frames"]) - 1)
        after = following[1]
        assert after["type"] == "state" and after["hand"] == number
        assert after["state"]["result"] == last["result"]
    assert any(m["state"]["watching"]["under_way"] for m in states)


def test_the_delay_switched_on_during_a_deal_hides_it_from_then_on(
    make_app: AppFactory,
) -> None:
    with TestClient(make_app(next_deal_seconds=600.0)) as client:
        table = create_table(client)
        invite = table["invite"]
        with_bots(client, table, 2)
        watch = open_link(client, table)
        with connect(client, invite, "") as player, spectate(client, watch) as ws:
            receive_json(ws)
            hello(player, table["player_token"])
            client.post(f"/api/tables/{invite}/start", headers=bearer(table["host_token"]))
            live = receive_json(ws)
            while live["hand"] != 1:
                live = receive_json(ws)
            assert live["state"]["watching"]["under_way"] is None  # the deal, live
            set_watch(client, table, open=True, delay=True)
            while True:
                hidden = receive_json(ws)
                if hidden["state"]["watching"]["under_way"] == 1:
                    break
            assert hidden["hand"] is None and hidden["state"]["pot"] == 0
            assert hidden["state"]["log"][-1]["en"] == "The game starts"


# --- several processes ---------------------------------------------------------------------


def test_a_spectator_on_another_process_watches_the_owners_table(servers: Servers) -> None:
    """The link is made through a replica (the owner writes it), found there by its hash in
    the database, and its spectator follows the owner's deals one deal behind; closed on
    the owner, it closes the spectator on the replica."""
    one, two = servers.start("one"), servers.start("two")
    table = create_table(one)
    with_bots(one, table, 2)
    watch = open_link(two, table, delay=True)
    assert server_of(one).here(table["invite"]).owning  # type: ignore[union-attr]
    assert two.get(f"/w/{watch}").status_code == 200
    messages = play(one, table, watch, 2, random.Random(3), watching=two)
    state = state_of(one, table["invite"])
    assert_nothing_hidden(messages, state)
    assert [m["hand"] for m in messages if m["type"] == "replay"][:2] == [1, 2]
    with connect(one, table["invite"], "") as player, spectate(two, watch) as ws:
        assert receive_json(ws)["type"] == "state"
        # The owner counts the spectators of every process (the replica says how many).
        counted = hello(player, table["player_token"])
        if counted["state"]["table"]["watch"]["spectators"] != 1:
            state_where(player, lambda m: m["state"]["table"]["watch"]["spectators"] == 1)
        set_watch(one, table, open=False)
        _, code = closed_with(ws)
    assert code == 4410
    wait_until(lambda: two.get(f"/w/{watch}").status_code == 404)


def test_a_spectator_gets_no_chat_and_cannot_write_in_it(client: TestClient) -> None:
    """The chat is the players' own: a spectator's socket is sent none of it (not the log a
    hello brings, not a new message, not a removal), and a chat it sends is refused."""
    table = create_table(client)
    invite = table["invite"]
    watch = open_link(client, table)
    with connect(client, invite, "") as player, spectate(client, watch) as ws:
        player.send_json({"type": "hello", "token": table["player_token"]})
        assert next_message(player, "chat_log")["messages"] == []
        assert receive_json(ws)["type"] == "state"
        player.send_json({"type": "chat", "text": "only for the players"})
        said = next_message(player, "chat")["message"]
        removed = client.delete(
            f"/api/tables/{invite}/chat/{said['id']}", headers=bearer(table["host_token"])
        )
        assert removed.status_code == 200, removed.text
        assert next_message(player, "chat_removed")["ids"] == [said["id"]]
        ws.send_json({"type": "chat", "text": "a spectator's word"})
        got = [receive_json(ws)]
        while got[-1]["type"] != "error":
            got.append(receive_json(ws))
    assert got[-1]["code"] == "watching"
    assert {message["type"] for message in got[:-1]} <= {"state"}  # no chat came
