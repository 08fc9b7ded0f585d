"""Shared fixtures of the server tests: a fresh database per test (SQLite; a test of what
depends on the database, the store, the migrations, the leases and the ledger, is marked
``every_database`` and runs once more on PostgreSQL when ``ITALIAN_POKER_TEST_POSTGRES_URL``
is set, else that run is skipped and says why; with ``ITALIAN_POKER_REQUIRE_POSTGRES=1`` a
missing PostgreSQL fails instead), an app with instant bots, a clock the test moves, and
helpers that drive the REST API and the WebSocket like a browser would, or wait for a
condition."""

from __future__ import annotations

import asyncio
import functools
import json
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import Engine
from starlette.testclient import WebSocketTestSession
from starlette.types import Message
from starlette.websockets import WebSocketDisconnect

from italian_poker.analysis.bots import make_bot
from italian_poker.engine.policy import Policy
from italian_poker.server.app import create_app
from italian_poker.server.database import make_engine, upgrade
from italian_poker.server.settings import ServerSettings

POSTGRES_VARIABLE = "ITALIAN_POKER_TEST_POSTGRES_URL"
REQUIRE_VARIABLE = "ITALIAN_POKER_REQUIRE_POSTGRES"
SKIP_REASON = f"set {POSTGRES_VARIABLE} to run against PostgreSQL"
ORIGIN = "http://testserver"
RECEIVE_SECONDS = 5.0
"""Longest wait for a server message before the test fails (a server bug must not hang)."""


WAIT_SECONDS = 30.0
"""Longest a test polls for a condition (:func:`wait_until`): a loaded machine is slow, a
server bug must still not hang the test."""


def wait_until(condition: Callable[[], bool], what: str, timeout: float = WAIT_SECONDS) -> None:
    """Return once ``condition()`` holds, checking it every 10 ms; the test fails, saying
    ``what`` it waited for, when it does not hold within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"waited {timeout:g} s for {what}")
        time.sleep(0.01)


@dataclass
class FakeClock:
    """Real time plus ``offset`` seconds: a server clock the test moves forward
    (``ServerSettings(clock=clock, sleep=clock.sleep)``)."""

    offset: float = 0.0
    waits: dict[asyncio.Task[Any], float | None] = field(default_factory=dict)
    """The tasks that waited on :meth:`sleep`, each with the time its wait ends, or None
    once it has ended."""

    def __call__(self) -> float:
        return time.time() + self.offset

    async def sleep(self, seconds: float) -> None:
        """The server's timers wait on this clock: moving it on ends their wait."""
        deadline = self() + seconds
        task = asyncio.current_task()
        if task is not None:
            self.waits[task] = deadline
        while (left := deadline - self()) > 0:
            await asyncio.sleep(min(0.02, left))
        if task is not None:
            self.waits[task] = None

    def settled(self) -> bool:
        """Whether every timer the clock has come to has done what it does: each task that
        waited on :meth:`sleep` has ended, or waits for a time still to come."""
        now = self()
        return all(
            task.done() or (until is not None and until > now)
            for task, until in list(self.waits.items())
        )


def bot_factory(level: str, seed: int | None) -> Policy:
    """The real bots, as ``italian-poker serve`` passes them."""
    return make_bot(level, seed=seed)


def _plain(url: str) -> str:
    """``url`` as psycopg takes it (no SQLAlchemy driver name)."""
    from italian_poker.server.database import normalise_url

    return normalise_url(url).replace("postgresql+psycopg://", "postgresql://", 1)


@functools.cache
def _worker_database(url: str) -> str:
    """Under pytest-xdist, this worker's own database beside the one at ``url`` (named
    ``<database>_<worker>``, created on the worker's first use; cached, so checked once),
    so that workers never empty each other's schema; ``url`` itself without xdist."""
    import psycopg
    from sqlalchemy.engine import make_url

    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not worker:
        return url
    parsed = make_url(url)
    name = f"{parsed.database}_{worker}"
    with psycopg.connect(_plain(url), autocommit=True, connect_timeout=5) as connection:
        found = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,))
        if found.fetchone() is None:
            connection.execute(f'CREATE DATABASE "{name}"')
    return parsed.set(database=name).render_as_string(hide_password=False)


def _fresh_postgres(url: str) -> str:
    """Empty the test database's public schema (this xdist worker's own database); fail
    or skip when it cannot be reached."""
    import psycopg

    try:
        url = _worker_database(url)
        with psycopg.connect(_plain(url), autocommit=True, connect_timeout=5) as connection:
            connection.execute("DROP SCHEMA IF EXISTS public CASCADE")
            connection.execute("CREATE SCHEMA public")
    except psycopg.Error as error:
        if os.environ.get(REQUIRE_VARIABLE) == "1":
            pytest.fail(f"PostgreSQL is required but unreachable at {url}: {error}")
        pytest.skip(f"PostgreSQL unreachable: {error}")
    return url


EVERY_DATABASE = "every_database"
"""The marker of a test that runs on each database (:func:`pytest_generate_tests`)."""


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{EVERY_DATABASE}: the test depends on the database (the store, the migrations, the "
        "leases, the ledger) and runs on SQLite and on PostgreSQL; other tests run on SQLite",
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test marked ``every_database`` that uses ``database_url`` runs once per backend."""
    if "database_url" in metafunc.fixturenames and any(
        metafunc.definition.iter_markers(EVERY_DATABASE)
    ):
        metafunc.parametrize("database_url", ["sqlite", "postgresql"], indirect=True)


@pytest.fixture
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database for this test: SQLite, or the backend a test marked
    ``every_database`` runs on; its PostgreSQL run is reported as skipped, with the reason,
    when no URL is set."""
    if getattr(request, "param", "sqlite") == "sqlite":
        return f"sqlite:///{tmp_path / 'server.sqlite3'}"
    return fresh_postgres_url()


def fresh_postgres_url() -> str:
    """A fresh, empty PostgreSQL database at ``ITALIAN_POKER_TEST_POSTGRES_URL``; the test is
    skipped, with the reason, without it (failed where ``ITALIAN_POKER_REQUIRE_POSTGRES=1``)."""
    url = os.environ.get(POSTGRES_VARIABLE, "")
    if not url:
        if os.environ.get(REQUIRE_VARIABLE) == "1":
            pytest.fail(f"{REQUIRE_VARIABLE}=1 but {POSTGRES_VARIABLE} is not set")
        pytest.skip(SKIP_REASON)
    return _fresh_postgres(url)


@pytest.fixture
def empty_postgres_database() -> Iterator[str]:
    """The URL of a PostgreSQL database of its own, created empty for this test beside the one
    at ``ITALIAN_POKER_TEST_POSTGRES_URL`` and dropped after it (skipped or failed, as the
    other PostgreSQL tests are, without that URL)."""
    import uuid

    import psycopg
    from sqlalchemy.engine import make_url

    url = fresh_postgres_url()
    name = f"{make_url(url).database}_empty_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(_plain(url), autocommit=True, connect_timeout=5) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield make_url(url).set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(_plain(url), autocommit=True, connect_timeout=5) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    """An engine on this test's database, migrated to the newest revision."""
    engine = make_engine(database_url)
    upgrade(engine)
    yield engine
    engine.dispose()


@pytest.fixture
def settings(database_url: str) -> ServerSettings:
    """Fast settings: instant bots and deals, no turn timer, reproducible shuffles."""
    return ServerSettings(
        database_url=database_url,
        bot_delay_seconds=0.0,
        next_deal_seconds=0.0,
        fair_value_seconds=0.0,  # no wait for the players' values: the server gives them
        reconnect_grace_seconds=30.0,
        default_turn_seconds=None,
        seed=11,
        collector_interval=None,  # tests/server/test_server_collector.py runs the collector
        address_limits=False,  # tests/server/test_server_address_limits.py tests them
        sweep_seconds=None,  # tests/server/test_server_unload.py runs the sweep
    )


AppFactory = Callable[..., FastAPI]


@pytest.fixture
def make_app(settings: ServerSettings) -> AppFactory:
    """``make_app(**changes)``: an app on this test's database with changed settings."""

    def factory(**changes: Any) -> FastAPI:
        return create_app(replace(settings, **changes), bot_factory)

    return factory


@pytest.fixture
def client(make_app: AppFactory) -> Iterator[TestClient]:
    """A running app (lifespan entered)."""
    with TestClient(make_app()) as running:
        yield running


def create_table(client: TestClient, **body: Any) -> dict[str, Any]:
    """``POST /api/tables`` with defaults for a quick game (no timer)."""
    data = {"name": "Test", "host_nickname": "Anna", "seats": 4, "turn_seconds": None} | body
    response = client.post("/api/tables", json=data)
    assert response.status_code == 201, response.text
    return dict(response.json())


def bearer(token: str) -> dict[str, str]:
    """The ``Authorization`` header for ``token``."""
    return {"Authorization": f"Bearer {token}"}


def join(client: TestClient, invite: str, nickname: str) -> dict[str, Any]:
    """Take a seat."""
    response = client.post(f"/api/tables/{invite}/seats", json={"nickname": nickname})
    assert response.status_code == 201, response.text
    return dict(response.json())


def connect(
    client: TestClient, invite: str, token: str, origin: str = ORIGIN
) -> WebSocketTestSession:
    """Open the table's WebSocket and say hello (enter it with ``with``)."""
    return client.websocket_connect(f"/ws/tables/{invite}", headers={"origin": origin})


def hello(ws: WebSocketTestSession, token: str) -> dict[str, Any]:
    """Say hello and return the first state."""
    ws.send_json({"type": "hello", "token": token})
    return next_state(ws)


LOG_SIZE = 50
"""Lines of the log a state carries, and the page keeps (``ServerSettings.log_size``)."""


def page_log(log: list[dict[str, Any]], message: dict[str, Any]) -> list[dict[str, Any]]:
    """The log a page shows after ``message``, as ``table.js`` keeps it: a state's ``log``
    (a connection's first state, or one that is no event's) replaces it, the ``events`` of
    the others are added to it, the newest :data:`LOG_SIZE` lines kept."""
    if message.get("type") != "state":
        return log
    state = message["state"]
    if "log" in state:
        return list(state["log"])
    return (log + list(state["events"]))[-LOG_SIZE:]


def receive_json(ws: WebSocketTestSession, timeout: float = RECEIVE_SECONDS) -> Any:
    """The server's next message, decoded; fails the test when none comes within
    ``timeout`` seconds, and raises ``WebSocketDisconnect`` when the server closed.

    Starlette's test session has no receive timeout: this waits on the session's own stream
    in the session's event loop (its portal) under an anyio deadline, so nothing is left
    blocked behind when the wait ends."""

    async def receive() -> Message | None:
        with anyio.move_on_after(timeout):
            return await ws._send_rx.receive()
        return None

    message = ws.portal.call(receive)
    if message is None:
        pytest.fail(f"the server sent nothing within {timeout:g} s")
    if message["type"] == "websocket.close":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason", ""))
    return json.loads(message["text"])


def next_message(
    ws: WebSocketTestSession, kind: str, timeout: float = RECEIVE_SECONDS
) -> dict[str, Any]:
    """The next message of type ``kind``, skipping others; the test fails when the server
    sends nothing for ``timeout`` seconds."""
    while True:
        message = receive_json(ws, timeout)
        if message["type"] == kind:
            return dict(message)


def next_state(ws: WebSocketTestSession) -> dict[str, Any]:
    """The next ``state`` message."""
    return next_message(ws, "state")


def state_where(
    ws: WebSocketTestSession, predicate: Callable[[dict[str, Any]], bool], limit: int = 500
) -> dict[str, Any]:
    """Read states until one satisfies ``predicate``."""
    for _ in range(limit):
        message = next_state(ws)
        if predicate(message):
            return message
    raise AssertionError("no state matched")


PASSIVE = ("check", "pass", "decline", "call", "show", "muck", "make-up", "fold")


def passive_action(state: dict[str, Any]) -> dict[str, Any]:
    """A legal action that keeps the deal going cheaply: check, pass, call, stand pat."""
    legal = {option["kind"]: option for option in state["state"]["legal"]}
    for kind in PASSIVE:
        if kind in legal:
            return {"kind": kind, "amount": None, "cards": [], "split": False}
    if "draw" in legal:
        return {"kind": "draw", "amount": None, "cards": [], "split": False}
    option = next(iter(legal.values()))
    return {"kind": option["kind"], "amount": option["min"], "cards": [], "split": False}


def act(ws: WebSocketTestSession, state: dict[str, Any], action: dict[str, Any]) -> None:
    """Send ``action`` on the latest ``state``."""
    ws.send_json({"type": "action", "hand": state["hand"], "seq": state["seq"], "action": action})


def catch_up(ws: WebSocketTestSession, state: dict[str, Any], seq: int) -> dict[str, Any]:
    """``state`` if it is already at ``seq`` (or later), else the first state that is."""
    if state["seq"] >= seq:
        return state
    return state_where(ws, lambda m: m["seq"] >= seq)


def play_until(
    sockets: dict[int, WebSocketTestSession],
    states: dict[int, dict[str, Any]],
    stop: Callable[[dict[str, Any]], bool],
    choose: Callable[[dict[str, Any]], dict[str, Any]] = passive_action,
    limit: int = 400,
) -> dict[int, dict[str, Any]]:
    """The seats in ``sockets`` (every seat of the table that is not a bot) play
    ``choose(state)`` in turn until ``stop`` holds for the latest state; returns each seat's
    latest state, all at the same seq. ``states`` are the states each socket has read."""
    lead = next(iter(sockets))
    states = dict(states)
    for _ in range(limit):
        latest = max(states.values(), key=lambda m: m["seq"])
        states = {seat: catch_up(sockets[seat], states[seat], latest["seq"]) for seat in sockets}
        if stop(states[lead]):
            return states
        actor = states[lead]["state"]["to_act"]
        if actor in sockets:
            act(sockets[actor], states[actor], choose(states[actor]))
        target = states[lead]["seq"]
        states[lead] = state_where(sockets[lead], lambda m, t=target: m["seq"] > t)
    raise AssertionError("the table never got there")
