"""Turn clocks and time banks survive a restart (issue 5): the event log is their authority.
Each ``action`` event records the seat's time bank left (``bank``); a restarted table starts
the turn under way from the commit time of the event that began it. Logs written before the
field existed still replay, with full banks.

The server reads the time from ``ServerSettings.clock`` and its timers wait with
``ServerSettings.sleep`` (issue 12); these tests pass a clock they move forward instead of
sleeping (a player "thinks" 40 s in no time, an hour's grace period runs out at once), and a
restarted server with a clock moved on by the downtime.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from server_fixtures import (
    AppFactory,
    FakeClock,
    act,
    bearer,
    catch_up,
    connect,
    create_table,
    hello,
    join,
    next_state,
    passive_action,
    state_where,
)
from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.testclient import WebSocketTestSession

from italian_poker.engine.rules import preset
from italian_poker.server.database import make_engine
from italian_poker.server.event_kinds import EventKind
from italian_poker.server.models import TableEventRow
from italian_poker.server.table_runtime import TableRuntime
from italian_poker.server.table_state import TableState
from italian_poker.table.defaults import default_action

TURN = 30
BANK = 60
SLACK = 2.0
"""Seconds of real time a test may take between two readings of the clock."""


def runtime_of(app: FastAPI, invite: str) -> TableRuntime:
    """The live table behind ``invite``."""
    runtime: TableRuntime = app.state.server.here(invite)
    return runtime


def start_timed_table(client: TestClient) -> tuple[str, dict[int, str]]:
    """Anna (seat 0) and Bruno (seat 1) at a table with a 30 s turn and a 60 s bank, started
    and its first deal dealt (by a task of its own: a test that read the table's seq before
    it took a deal committed later for the turn it waited for); returns the invite and each
    seat's token."""
    table = create_table(client, turn_seconds=TURN, time_bank_seconds=BANK)
    invite = table["invite"]
    other = join(client, invite, "Bruno")
    started = client.post(f"/api/tables/{invite}/start", headers=bearer(table["host_token"]))
    assert started.status_code == 200, started.text
    with connect(client, invite, table["player_token"]) as probe:
        state = hello(probe, table["player_token"])
        if state["state"]["deadline"] is None:
            state_where(probe, lambda m: m["state"]["deadline"] is not None)
    return invite, {0: table["player_token"], 1: other["player_token"]}


@contextmanager
def actor_socket(
    client: TestClient, invite: str, tokens: dict[int, str], seq: int
) -> Iterator[tuple[WebSocketTestSession, dict[str, Any]]]:
    """A connection of the seat to act at ``seq`` and its state at ``seq``; the seat is read
    from the first seat's state."""
    with connect(client, invite, tokens[0]) as probe:
        state = catch_up(probe, hello(probe, tokens[0]), seq)
    actor = state["state"]["to_act"]
    assert actor in tokens, state["state"]
    with connect(client, invite, tokens[actor]) as ws:
        yield ws, catch_up(ws, hello(ws, tokens[actor]), seq)


def spend_bank_then_stop(
    make_app: AppFactory, database_url: str
) -> tuple[str, dict[int, str], int, int, int]:
    """The first player to act takes 40 s of a 30 s turn (10 s from the bank) and then
    moves at once while it is still their turn; the server stops in the middle of the next
    player's turn. Returns the invite, the tokens, the first mover, the seat to act and the
    seq."""
    clock = FakeClock()
    with TestClient(make_app(clock=clock)) as client:
        invite, tokens = start_timed_table(client)
        runtime = runtime_of(client.app, invite)  # type: ignore[arg-type]
        begun = runtime.state.seq
        with actor_socket(client, invite, tokens, begun) as (ws, state):
            first = state["state"]["you"]
            assert state["state"]["to_act"] == first
            assert state["state"]["deadline"] == pytest.approx(clock() + TURN, abs=SLACK)
            assert state["state"]["time_bank"] == BANK
            clock.offset += TURN + 10
            while state["state"]["to_act"] == first:  # e.g. a blind declined, then a pass
                act(ws, state, passive_action(state))
                state = state_where(ws, lambda m, seen=state["seq"]: m["seq"] > seen)
        seq = state["seq"]
        second = runtime.state.actor_slot()
        assert runtime.state.seq == seq and second not in (None, first)
        assert runtime.state.bank(first) == pytest.approx(BANK - 10, abs=SLACK)
        clock.offset += 5  # the next player thinks; then the server goes down
    events = stored_events(database_url)
    moves = [events[n][1] for n in range(begun + 1, seq + 1)]
    assert moves and all(m["seat"] == first and "auto" not in m for m in moves)
    assert [m["bank"] for m in moves] == [runtime.state.bank(first)] * len(moves)
    assert second is not None
    return invite, tokens, first, second, seq


@pytest.mark.every_database  # the commit times, read back from the store
@pytest.mark.parametrize(("downtime", "bank_left"), [(12, BANK), (TURN + 15, BANK - 15)])
def test_restart_mid_turn_keeps_the_turn_time_and_the_time_banks(
    make_app: AppFactory, database_url: str, downtime: float, bank_left: float
) -> None:
    invite, tokens, first, second, seq = spend_bank_then_stop(make_app, database_url)
    clock = FakeClock(offset=downtime)
    with TestClient(make_app(clock=clock)) as client:
        runtime = runtime_of(client.app, invite)  # type: ignore[arg-type]
        assert runtime.state.seq == seq and runtime.state.actor_slot() == second
        # The banks are read back from the log: the first mover's is still 10 s short.
        assert runtime.state.bank(first) == pytest.approx(BANK - 10, abs=SLACK)
        assert runtime.state.bank(second) == BANK
        with actor_socket(client, invite, tokens, seq) as (ws, state):
            assert state["seq"] == seq and state["state"]["you"] == second
            # The turn began when the last move was committed, `downtime` seconds ago.
            left = state["state"]["deadline"] - clock()
            assert left == pytest.approx(TURN - downtime, abs=SLACK)
            assert state["state"]["time_bank"] == BANK
            act(ws, state, passive_action(state))
            state_where(ws, lambda m: m["seq"] > seq)
        assert runtime.state.bank(second) == pytest.approx(bank_left, abs=SLACK)
    _, payload = stored_events(database_url)[seq + 1]
    assert payload["seat"] == second and "auto" not in payload
    assert payload["bank"] == pytest.approx(bank_left, abs=SLACK)


def test_a_player_who_connects_during_a_commit_gets_the_change_with_its_clock(
    make_app: AppFactory,
) -> None:
    """A connection (or a hello) while a change is being committed waits for the commit. It
    used to get the change before it was durable, with the previous turn's clock: here 20 s
    left instead of the new turn's 30 (after a restart, a deadline already past)."""
    clock = FakeClock()
    app = make_app(clock=clock, sleep=clock.sleep)
    with TestClient(app) as client:
        invite, tokens = start_timed_table(client)
        runtime = runtime_of(app, invite)
        entered, release = threading.Event(), threading.Event()
        write = runtime._write

        async def held(event: Any) -> None:
            entered.set()
            await asyncio.get_running_loop().run_in_executor(None, release.wait, 10)
            await write(event)

        runtime._write = held  # type: ignore[method-assign]
        with (
            actor_socket(client, invite, tokens, runtime.state.seq) as (ws, state),
            connect(client, invite, tokens[0]) as watching,
        ):
            hello(watching, tokens[0])
            clock.offset += 10  # the actor takes 10 s of the 30 s turn
            act(ws, state, passive_action(state))
            assert entered.wait(5)
            threading.Timer(0.3, release.set).start()
            watching.send_json({"type": "hello", "token": tokens[0]})  # the state again
            with connect(client, invite, tokens[0]) as late:
                joined = hello(late, tokens[0])
            told, answered = next_state(watching), next_state(watching)
        for got in (joined, told, answered):
            assert got["seq"] == state["seq"] + 1
            assert got["state"]["deadline"] - clock() == pytest.approx(TURN, abs=SLACK)


def test_an_overdue_turn_is_played_automatically_at_restart(
    make_app: AppFactory, database_url: str
) -> None:
    with TestClient(make_app()) as client:
        invite, tokens = start_timed_table(client)
        runtime = runtime_of(client.app, invite)  # type: ignore[arg-type]
        seq, actor = runtime.state.seq, runtime.state.actor_slot()
        assert actor is not None
    # Down for longer than the turn and the whole bank: checked or folded at once.
    clock = FakeClock(offset=TURN + BANK + 100)
    began = time.monotonic()
    with TestClient(make_app(clock=clock)) as client:
        with connect(client, invite, tokens[0]) as ws:
            state = catch_up(ws, hello(ws, tokens[0]), seq + 1)
        assert time.monotonic() - began < 5
        runtime = runtime_of(client.app, invite)  # type: ignore[arg-type]
        assert runtime.state.bank(actor) == 0.0
        # Only the overdue turn was played: the next one is whole.
        assert state["seq"] == seq + 1
        assert state["state"]["deadline"] - clock() == pytest.approx(TURN, abs=SLACK)
        assert state["state"]["time_bank"] == runtime.state.bank(state["state"]["to_act"])
    kind, payload = stored_events(database_url)[seq + 1]
    assert kind == "action" and payload["seat"] == actor
    assert payload["auto"] is True and payload["bank"] == 0.0


def test_a_log_without_time_banks_replays_with_full_banks(
    make_app: AppFactory, database_url: str
) -> None:
    """Logs written before ``bank`` was recorded: every bank is whole again, and the turn
    under way still runs from its commit time."""
    invite, tokens, first, second, seq = spend_bank_then_stop(make_app, database_url)
    assert any("bank" in payload for _, payload in stored_events(database_url).values())
    strip_banks(database_url)
    clock = FakeClock(offset=12)
    with TestClient(make_app(clock=clock)) as client:
        runtime = runtime_of(client.app, invite)  # type: ignore[arg-type]
        assert runtime.state.seq == seq and runtime.state.actor_slot() == second
        assert runtime.state.bank(first) == runtime.state.bank(second) == BANK
        with actor_socket(client, invite, tokens, seq) as (_ws, state):
            assert state["state"]["deadline"] - clock() == pytest.approx(TURN - 12, abs=SLACK)
            assert state["state"]["time_bank"] == BANK


# --- the database, read and rewritten as an older server would have left it ----------------


def stored_events(database_url: str) -> dict[int, tuple[str, dict[str, Any]]]:
    """Every stored event of the (only) table, by seq."""
    engine = make_engine(database_url)
    try:
        with Session(engine) as session:
            rows = session.execute(
                select(TableEventRow.seq, TableEventRow.kind, TableEventRow.payload)
            ).all()
            return {seq: (kind, dict(payload)) for seq, kind, payload in rows}
    finally:
        engine.dispose()


def strip_banks(database_url: str) -> None:
    """Remove ``bank`` from every stored payload."""
    engine = make_engine(database_url)
    try:
        with Session(engine) as session, session.begin():
            for row in session.scalars(select(TableEventRow)):
                if "bank" in row.payload:
                    row.payload = {k: v for k, v in row.payload.items() if k != "bank"}
    finally:
        engine.dispose()


# --- the state alone: banks and turns from the log ------------------------------------------


def timed_state() -> TableState:
    """A three-seat table with a 30 s turn and a 60 s bank, as the log builds it."""
    options = {"stack": 200, "turn_seconds": TURN, "time_bank_seconds": BANK}
    return TableState("Test", preset("standard", players=3), options)


def apply(state: TableState, kind: EventKind, payload: dict[str, Any] | None = None) -> None:
    state.apply(state.seq + 1, kind, payload or {})


def move(state: TableState, bank: float | None = None) -> dict[str, Any]:
    """The seat to act checks or folds; with ``bank``, recorded as its bank left."""
    actor = state.actor_slot()
    assert actor is not None
    action = default_action(state.legal_actions())
    payload: dict[str, Any] = {
        "seat": actor,
        "kind": action.kind.value,
        "amount": action.amount,
        "cards": [],
        "split": False,
    }
    if bank is not None:
        payload["bank"] = bank
    apply(state, EventKind.ACTION, payload)
    return payload


def seated_and_dealt() -> TableState:
    state = timed_state()
    apply(state, EventKind.SEAT, {"seat": 0, "nickname": "Anna", "bot": None})
    apply(state, EventKind.SEAT, {"seat": 1, "nickname": "Bruno", "bot": None})
    apply(state, EventKind.START)
    apply(state, EventKind.DEAL, {"seed": 7})
    return state


def test_banks_come_from_the_action_events_and_old_logs_keep_them_whole() -> None:
    state = seated_and_dealt()
    first = state.actor_slot()
    assert first is not None and state.bank(first) == BANK
    moves = [move(state, bank=42.5)]
    assert state.bank(first) == 42.5
    second = state.actor_slot()
    assert second is not None
    moves.append(move(state, bank=30.0))
    assert state.bank(second) == 30.0
    for seat in {0, 1, 2} - {first, second}:
        assert state.bank(seat) == BANK  # never on the clock (or empty): whole
    # The same moves without the field (a log written before it existed) replay alike,
    # with every bank whole; a log with the field on some moves only takes those.
    for recorded in ((), (0,)):
        old = seated_and_dealt()
        for i, payload in enumerate(moves):
            kept = {k: v for k, v in payload.items() if k != "bank" or i in recorded}
            apply(old, EventKind.ACTION, kept)
        assert (old.seq, old.actor_slot(), old.turn_since) == (
            state.seq,
            state.actor_slot(),
            state.turn_since,
        )
        expected = {first: 42.5} if recorded else {}
        for seat in range(3):
            assert old.bank(seat) == expected.get(seat, BANK)


def test_a_bad_bank_is_refused_and_changes_nothing() -> None:
    state = seated_and_dealt()
    actor, seq, since = state.actor_slot(), state.seq, state.turn_since
    assert actor is not None
    action = default_action(state.legal_actions())
    payload = {"seat": actor, "kind": action.kind.value, "cards": [], "bank": "soon"}
    with pytest.raises(ValueError, match="time bank"):
        state.apply(seq + 1, EventKind.ACTION, payload)
    assert (state.seq, state.actor_slot(), state.turn_since) == (seq, actor, since)
    assert state.bank(actor) == BANK
    move(state, bank=-3)  # never below nothing
    assert state.bank(actor) == 0.0


def test_a_turn_begins_with_the_event_that_gives_the_move() -> None:
    state = timed_state()
    apply(state, EventKind.SEAT, {"seat": 0, "nickname": "Anna", "bot": None})
    apply(state, EventKind.SEAT, {"seat": 1, "nickname": "Bruno", "bot": None})
    apply(state, EventKind.START)
    assert state.turn_since is None  # nobody to act between deals
    apply(state, EventKind.DEAL, {"seed": 7})
    dealt = state.seq
    assert state.turn_since == dealt
    # Someone taking the free seat, or sitting out, does not restart the turn.
    apply(state, EventKind.SEAT, {"seat": 2, "nickname": "Carla", "bot": None})
    assert state.turn_since == dealt
    move(state)
    assert state.turn_since == state.seq
    moved = state.seq
    apply(state, EventKind.PAUSE)
    assert state.turn_since is None  # paused: no clock runs
    apply(state, EventKind.RESUME)
    assert state.turn_since == state.seq != moved  # a whole turn again


def test_a_newcomer_in_a_seat_has_the_whole_bank() -> None:
    state = seated_and_dealt()
    for _ in range(200):
        if not state.in_deal:
            break
        move(state, bank=5)
    assert not state.in_deal
    assert state.bank(0) == state.bank(1) == 5
    apply(state, EventKind.UNSEAT, {"seat": 0})
    apply(state, EventKind.SEAT, {"seat": 0, "nickname": "Dora", "bot": None})
    assert state.bank(0) == BANK and state.bank(1) == 5


def lobby_where(client: TestClient, invite: str, wanted: Any) -> dict[str, Any]:
    """The lobby's view of the table once ``wanted(lobby)`` holds (within 5 s of real time)."""
    deadline = time.monotonic() + 5.0
    while time.monotonic() < deadline:
        lobby: dict[str, Any] = client.get(f"/api/tables/{invite}").json()
        if wanted(lobby):
            return lobby
        time.sleep(0.02)
    raise AssertionError(f"the table never got there: {lobby}")


def test_the_reconnect_grace_period_runs_on_the_servers_clock(make_app: AppFactory) -> None:
    """An hour's grace period ends when the clock has moved on an hour, not in real time."""
    clock = FakeClock()
    app = make_app(clock=clock, sleep=clock.sleep, reconnect_grace_seconds=3600.0)
    with TestClient(app) as client:
        invite, _ = start_timed_table(client)  # Bruno never connects: his grace period runs
        time.sleep(0.2)
        assert client.get(f"/api/tables/{invite}").json()["seats"][1]["sitting_out"] is False
        clock.offset += 3600
        lobby_where(client, invite, lambda lobby: lobby["seats"][1]["sitting_out"])


def test_a_turn_and_its_bank_run_out_on_the_servers_clock(make_app: AppFactory) -> None:
    """A 30 s turn with a 60 s bank is played for the seat once the clock has moved on
    90 s: the default action, and no bank left."""
    clock = FakeClock()
    app = make_app(clock=clock, sleep=clock.sleep)
    with TestClient(app) as client:
        invite, tokens = start_timed_table(client)
        runtime = runtime_of(app, invite)
        with actor_socket(client, invite, tokens, runtime.state.seq) as (ws, state):
            seat = state["state"]["you"]
            seq = state["seq"]
            time.sleep(0.2)
            assert runtime.state.seq == seq  # nothing happens in real time
            clock.offset += TURN + BANK
            moved = state_where(ws, lambda m: m["seq"] > seq)
        assert runtime.state.bank(seat) == 0
        log = " ".join(entry["en"] for entry in moved["state"]["events"])
        assert "Bruno" in log or "Anna" in log
