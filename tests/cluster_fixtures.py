"""Several real ``italian-poker serve`` processes on one PostgreSQL and one Redis (issue 12),
for the end-to-end tests of ``test_server_cluster.py``.

- ``cluster_database_url``: a fresh PostgreSQL database per test (the public schema emptied,
  as ``server_fixtures._fresh_postgres`` does); without ``ITALIAN_POKER_TEST_POSTGRES_URL``
  the test is skipped with the other PostgreSQL tests' reason, and with
  ``ITALIAN_POKER_REQUIRE_POSTGRES=1`` it fails instead. Several processes never share SQLite.
- ``cluster``: starts ``ServerProcess`` es (``italian-poker serve`` on a free port, with
  ``--redis-url unix://...`` on ``redis_fixtures``' session server, emptied first, and a short
  ``--lease-seconds``), each waited for until ``GET /`` answers, its output in a log file that
  is printed when the test ends (pytest shows it only for a test that failed); every process
  is continued, terminated and if need be killed at the end.
- ``Player``: a browser's part with the plain ``websockets`` client: the table's WebSocket on
  one process, every message kept, its own cards by seq, reconnecting to another process; and
  ``autoplay``, which plays a seat's turns as they come.
- ``Lobby``: the REST calls (``httpx2``, the client the test client uses) on any process.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
import pytest
import redis
import redis.asyncio
import websockets
from server_fixtures import fresh_postgres_url, page_log
from sqlalchemy import Engine, text
from websockets.asyncio.client import ClientConnection

from italian_poker.server.bus_seal import SECRET_VARIABLE
from italian_poker.server.database import make_engine

LEASE_SECONDS = 2.0
"""The processes' lease (``--lease-seconds``): short, so that a failover is quick to wait for."""
START_SECONDS = 30.0
"""Longest a process may take to answer ``GET /`` (it migrates the database first)."""
WAIT_SECONDS = 10.0
"""Longest wait for a condition (a state, an owner) before the test fails."""
PREFIX = "italian-poker"
BUS_SECRET = "a-test-secret-the-processes-share"
"""The processes' ``ITALIAN_POKER_BUS_SECRET``: the same in all of them."""

CARD_CODE = r"[2-9TJQKA][cdhs]"
CARD_IN_TEXT = re.compile(
    # A card code as a JSON string of its own ("Ah"), two or more codes run together
    # ("AhKd"), a card's name in either language, or a suit's symbol: none matches an
    # ordinary word ("As" and "Ad" only match as the whole of a JSON string).
    rf'"{CARD_CODE}"|(?<![A-Za-z0-9])(?:{CARD_CODE}){{2,}}(?![A-Za-z0-9])'
    r"|(?i: of (?:hearts|diamonds|clubs|spades)\b|\bdi (?:cuori|quadri|fiori|picche)\b)|[♠♣♦♥]"
    r"|\\u266[0356]"  # the suits' symbols as json.dumps escapes them
)
"""What a card looks like in a message's JSON text (the server's codes: ``Ah``, ``Td``)."""
CARD_CODE_ONLY = re.compile(rf"{CARD_CODE}")


def card_codes_in(data: Any) -> list[str]:
    """Every string of decoded JSON ``data`` that is a card code, in order."""
    if isinstance(data, str):
        return [data] if CARD_CODE_ONLY.fullmatch(data) else []
    if isinstance(data, dict):
        return [code for value in data.values() for code in card_codes_in(value)]
    if isinstance(data, list):
        return [code for value in data for code in card_codes_in(value)]
    return []


def card_texts(message: str) -> list[str]:
    """The card-like pieces of ``message`` (empty for a message with no card)."""
    return [match.group(0) for match in CARD_IN_TEXT.finditer(message)]


def free_port() -> int:
    """A TCP port nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def serve_command() -> list[str]:
    """``italian-poker serve``: the console script next to this Python (the virtualenv's),
    else the CLI's entry point run by this Python (the package has no ``__main__``)."""
    script = Path(sys.executable).with_name("italian-poker")
    if script.exists():
        return [str(script), "serve"]
    found = shutil.which("italian-poker")
    if found:
        return [found, "serve"]
    return [sys.executable, "-c", "from italian_poker.cli.app import main; main()", "serve"]


# --- the databases -----------------------------------------------------------------------


@pytest.fixture(name="cluster_database_url")
def cluster_database_url_fixture() -> str:
    """A fresh PostgreSQL database (several processes need one: never SQLite)."""
    return fresh_postgres_url()


@pytest.fixture(name="cluster_engine")
def cluster_engine_fixture(cluster_database_url: str) -> Iterator[Engine]:
    """An engine on that database, for the tests to read the log (the servers migrate it)."""
    engine = make_engine(cluster_database_url)
    yield engine
    engine.dispose()


def table_seqs(engine: Engine, table_id: int) -> list[int]:
    """The table's logged seqs in order (``table_events``)."""
    with engine.connect() as connection:
        rows = connection.execute(
            text("SELECT seq FROM table_events WHERE table_id = :t ORDER BY seq, id"),
            {"t": table_id},
        )
        return [int(seq) for (seq,) in rows]


def table_fence(engine: Engine, table_id: int) -> int:
    """``tables.fence``: the largest token that wrote to the table."""
    with engine.connect() as connection:
        return int(
            connection.execute(
                text("SELECT fence FROM tables WHERE id = :t"), {"t": table_id}
            ).scalar_one()
        )


def table_id_of(engine: Engine) -> int:
    """The id of the only (or newest) table in the database."""
    with engine.connect() as connection:
        return int(connection.execute(text("SELECT max(id) FROM tables")).scalar_one())


# --- the processes -----------------------------------------------------------------------


@dataclass
class ServerProcess:
    """One ``italian-poker serve`` process (node ``name``) on its own port."""

    name: str
    port: int
    log_path: Path
    command: list[str]
    process: subprocess.Popen[bytes] | None = None
    stopped: bool = False
    _log_file: Any = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    @property
    def alive(self) -> bool:
        """Running (or paused) and not exited."""
        return self.process is not None and self.process.poll() is None

    @property
    def serving(self) -> bool:
        """Running and not paused: a proxy would send it new connections."""
        return self.alive and not self.stopped

    def start(self) -> None:
        """Start the process and return once ``GET /`` answers 200."""
        self._log_file = self.log_path.open("ab")
        self.process = subprocess.Popen(
            self.command,
            stdout=self._log_file,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=os.environ | {"PYTHONUNBUFFERED": "1", SECRET_VARIABLE: BUS_SECRET},
        )
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(
                    f"{self.name} exited with {self.process.returncode} before answering:\n"
                    f"{' '.join(self.command)}\n{self.log()}"
                )
            try:
                with urllib.request.urlopen(self.base_url + "/", timeout=1) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.05)
        pytest.fail(f"{self.name} did not answer GET / within {START_SECONDS:g} s:\n{self.log()}")

    def log(self) -> str:
        """What the process printed so far."""
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def kill(self) -> None:
        """SIGKILL: the process dies at once, with no chance to release anything."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)
        self.stopped = False

    def stop(self) -> None:
        """SIGSTOP: the process is frozen (its sockets stay open, its timers do not run)."""
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)
        self.stopped = True

    def cont(self) -> None:
        """SIGCONT: a stopped process runs on, unaware of the time it lost."""
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)
        self.stopped = False

    def terminate(self, timeout: float = 10.0) -> int | None:
        """SIGTERM (SIGKILL after ``timeout`` s); its exit status."""
        if self.process is None:
            return None
        if self.process.poll() is None:
            if self.stopped:
                self.cont()
            self.process.terminate()
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=timeout)
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None
        return self.process.returncode


@dataclass
class Cluster:
    """The processes of one test, on one database and one Redis."""

    database_url: str
    redis_url: str
    folder: Path
    lease_seconds: float = LEASE_SECONDS
    processes: list[ServerProcess] = field(default_factory=list)

    def start(self, name: str, *extra: str) -> ServerProcess:
        """A new process, node ``name``, serving once this returns."""
        port = free_port()
        command = [
            *serve_command(),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--database-url",
            self.database_url,
            "--redis-url",
            self.redis_url,
            "--lease-seconds",
            f"{self.lease_seconds:g}",
            "--node",
            name,
            *extra,
        ]
        process = ServerProcess(name, port, self.folder / f"{name}.log", command)
        self.processes.append(process)
        process.start()
        return process

    def close(self) -> None:
        for process in self.processes:
            process.terminate()

    def logs(self) -> str:
        return "\n".join(
            f"----- {process.name} (port {process.port}, {' '.join(process.command[-12:])})"
            f" -----\n{process.log()}"
            for process in self.processes
        )


@pytest.fixture(name="redis_url")
def redis_url_fixture(redis_socket: Path) -> str:
    """The session's Redis as ``--redis-url`` takes it."""
    return f"unix://{redis_socket}"


@pytest.fixture(name="cluster")
def cluster_fixture(
    tmp_path: Path,
    cluster_database_url: str,
    redis_url: str,
    redis_client: redis.asyncio.Redis,  # emptied before any process starts
) -> Iterator[Cluster]:
    """``cluster.start(name)`` starts a process; all are stopped at the end, and their logs
    printed (shown by pytest when the test failed)."""
    folder = tmp_path / "cluster"
    folder.mkdir()
    running = Cluster(cluster_database_url, redis_url, folder)
    try:
        yield running
    finally:
        running.close()
        print(running.logs())


# --- Redis -------------------------------------------------------------------------------


def owner_key(table_id: int) -> str:
    return f"{PREFIX}:table:{{{table_id}}}:owner"


async def holder(client: redis.asyncio.Redis, table_id: int) -> tuple[int, str] | None:
    """``(token, node)`` of the table's lease, or None while nobody holds it."""
    value = await client.get(owner_key(table_id))
    if value is None:
        return None
    token, _, node = str(value).partition(":")
    return int(token), node


async def wait_for(
    condition: Callable[[], Awaitable[bool]] | Callable[[], bool],
    timeout: float = WAIT_SECONDS,
    what: str = "the condition",
    interval: float = 0.02,
) -> float:
    """Poll ``condition`` until it holds; the seconds it took. Fails the test after
    ``timeout``."""
    start = time.monotonic()
    while True:
        result = condition()
        if asyncio.iscoroutine(result):
            result = await result
        if result:
            return time.monotonic() - start
        if time.monotonic() - start > timeout:
            pytest.fail(f"{what} did not happen within {timeout:g} s")
        await asyncio.sleep(interval)


@dataclass
class BusMessage:
    channel: str
    data: str
    at: float
    hands: dict[int, tuple[str, ...]]
    """Each watched player's own cards when the message arrived."""

    @property
    def body(self) -> dict[str, Any]:
        """What the message says, out of its seal (``server/bus_seal.py``; the MAC is checked
        by the processes, not here)."""
        sealed = json.loads(self.data)
        assert isinstance(sealed, dict) and sealed.get("mac"), f"unsealed: {self.data}"
        return dict(sealed["body"])


class BusAudit:
    """``PSUBSCRIBE *`` for the whole test: every message of every channel, with the hands
    of the players (as their own state messages showed them) when it came."""

    def __init__(self, redis_socket: Path, players: Callable[[], list[Player]]) -> None:
        self.client = redis.asyncio.Redis(unix_socket_path=str(redis_socket), decode_responses=True)
        self.players = players
        self.messages: list[BusMessage] = []
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()

    async def __aenter__(self) -> BusAudit:
        self._task = asyncio.create_task(self._listen())
        await asyncio.wait_for(self._ready.wait(), WAIT_SECONDS)
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        await self.client.aclose()

    async def _listen(self) -> None:
        pubsub = self.client.pubsub()
        await pubsub.psubscribe("*")
        try:
            while True:
                message = await pubsub.get_message(timeout=1.0)
                if message is None:
                    continue
                if message["type"] == "psubscribe":
                    self._ready.set()
                    continue
                if message["type"] != "pmessage":
                    continue
                hands = {p.seat: p.hand_cards() for p in self.players()}
                self.messages.append(
                    BusMessage(
                        str(message["channel"]), str(message["data"]), time.monotonic(), hands
                    )
                )
        finally:
            await pubsub.aclose()

    def on(self, suffix: str) -> list[BusMessage]:
        return [m for m in self.messages if m.channel.endswith(suffix)]


# --- the REST API ------------------------------------------------------------------------


class Lobby:
    """The REST calls a page makes, on any process."""

    def __init__(self) -> None:
        self.client = httpx2.AsyncClient(timeout=WAIT_SECONDS)

    async def aclose(self) -> None:
        await self.client.aclose()

    async def create_table(self, server: ServerProcess, **body: Any) -> dict[str, Any]:
        data = {"name": "Cluster", "host_nickname": "Anna", "seats": 2, "turn_seconds": None}
        response = await self.client.post(f"{server.base_url}/api/tables", json=data | body)
        assert response.status_code == 201, response.text
        return dict(response.json())

    async def join(self, server: ServerProcess, invite: str, nickname: str) -> dict[str, Any]:
        url = f"{server.base_url}/api/tables/{invite}/seats"
        response = await self.client.post(url, json={"nickname": nickname})
        assert response.status_code == 201, response.text
        return dict(response.json())

    async def host(self, server: ServerProcess, invite: str, token: str, command: str) -> Any:
        url = f"{server.base_url}/api/tables/{invite}/{command}"
        response = await self.client.post(url, headers={"Authorization": f"Bearer {token}"})
        assert response.status_code == 200, response.text
        return response.json()

    async def table(self, server: ServerProcess, invite: str) -> dict[str, Any]:
        response = await self.client.get(f"{server.base_url}/api/tables/{invite}")
        assert response.status_code == 200, response.text
        return dict(response.json())


# --- a player's WebSocket ----------------------------------------------------------------


class Player:
    """One seat's browser: a WebSocket on one process, every message read, reconnecting to
    the first serving process of ``backends`` when it drops (as behind a proxy)."""

    def __init__(self, name: str, invite: str, token: str, seat: int) -> None:
        self.name, self.invite, self.token, self.seat = name, invite, token, seat
        self.ws: ClientConnection | None = None
        self.server: ServerProcess | None = None
        self.backends: list[ServerProcess] = []
        self.reconnect = False
        self.states: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.texts: list[str] = []
        self.log: list[dict[str, Any]] = []
        """The public log as the page keeps it (:func:`server_fixtures.page_log`)."""
        self.hands: dict[int, tuple[str, ...]] = {}
        """This seat's own cards (``state.hand.cards``) at each seq it was sent."""
        self.sent: list[tuple[float, dict[str, Any]]] = []
        self.connections = 0
        self._changed = asyncio.Condition()
        self._reader: asyncio.Task[None] | None = None
        self._closing = False
        self._reconnecting: asyncio.Task[None] | None = None

    # --- what it knows ---

    @property
    def latest(self) -> dict[str, Any]:
        assert self.states, f"{self.name} has no state yet"
        return self.states[-1]

    @property
    def seq(self) -> int:
        return int(self.latest["seq"]) if self.states else -1

    def hand_cards(self) -> tuple[str, ...]:
        """The cards the latest state showed as this seat's own."""
        if not self.states:
            return ()
        hand = self.latest["state"]["hand"]
        return tuple(hand["cards"]) if hand else ()

    def results(self) -> set[int]:
        """The deals whose result this player was shown."""
        return {
            int(m["state"]["result"]["hand"])
            for m in self.states
            if m["state"]["result"] is not None
        }

    # --- the connection ---

    async def connect(self, server: ServerProcess) -> dict[str, Any]:
        """Open the WebSocket on ``server``, say hello; the first state."""
        count = len(self.states)
        ws = await websockets.connect(
            f"{server.ws_url}/ws/tables/{self.invite}",
            origin=websockets.Origin(server.base_url),  # the page's own origin
            open_timeout=WAIT_SECONDS,
            close_timeout=1,
        )
        self.ws, self.server = ws, server
        self.connections += 1
        await ws.send(json.dumps({"type": "hello", "token": self.token}))
        self._reader = asyncio.create_task(self._read(ws))
        return await self.wait(lambda: len(self.states) > count, f"{self.name}'s first state")

    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for raw in ws:
                assert isinstance(raw, str)
                self.texts.append(raw)
                message = json.loads(raw)
                if message.get("type") == "state":
                    self.states.append(message)
                    self.log = page_log(self.log, message)
                    hand = message["state"]["hand"]
                    self.hands[int(message["seq"])] = tuple(hand["cards"]) if hand else ()
                elif message.get("type") == "error":
                    self.errors.append(message)
                async with self._changed:
                    self._changed.notify_all()
        except websockets.ConnectionClosed:
            pass
        finally:
            if ws is self.ws:
                self.ws = None
            async with self._changed:
                self._changed.notify_all()
        if self.reconnect and not self._closing:
            self._reconnecting = asyncio.create_task(self._reconnect())

    async def _reconnect(self) -> None:
        """Like the page: try again until a process takes the connection."""
        deadline = time.monotonic() + 4 * WAIT_SECONDS
        while time.monotonic() < deadline and not self._closing:
            for server in self.backends:
                if not server.serving:
                    continue
                try:
                    await self.connect(server)
                    return
                except (TimeoutError, OSError, websockets.WebSocketException):
                    continue
            await asyncio.sleep(0.2)

    async def move_to(self, server: ServerProcess) -> dict[str, Any]:
        """Drop the connection (without waiting for a frozen server) and open one on
        ``server``."""
        old = self.ws
        self.ws = None
        if old is not None:
            old.transport.abort()
        if self._reader is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._reader, 2)
        return await self.connect(server)

    async def close(self) -> None:
        self._closing = True
        if self._reconnecting is not None:
            self._reconnecting.cancel()
        if self.ws is not None:
            self.ws.transport.abort()
        if self._reader is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._reader, 2)

    async def send(self, message: dict[str, Any]) -> bool:
        """Send ``message`` if connected; whether it went."""
        ws = self.ws
        if ws is None:
            return False
        try:
            await ws.send(json.dumps(message))
        except websockets.ConnectionClosed:
            return False
        self.sent.append((time.monotonic(), message))
        return True

    async def act(self, state: dict[str, Any], action: dict[str, Any]) -> bool:
        return await self.send(
            {"type": "action", "hand": state["hand"], "seq": state["seq"], "action": action}
        )

    async def wait(
        self, condition: Callable[[], bool], what: str = "", timeout: float = WAIT_SECONDS
    ) -> dict[str, Any]:
        """Wait for ``condition`` (checked at each message); the latest state then."""
        try:
            async with asyncio.timeout(timeout):
                async with self._changed:
                    await self._changed.wait_for(condition)
        except TimeoutError:
            pytest.fail(f"{self.name}: {what or 'condition'} not seen within {timeout:g} s")
        return self.latest

    async def wait_seq(self, seq: int, timeout: float = WAIT_SECONDS) -> dict[str, Any]:
        return await self.wait(lambda: self.seq >= seq, f"seq {seq}", timeout)

    # --- checks on what it was sent ---

    def summary(self) -> str:
        """Where this player is, for a failure's message."""
        if not self.states:
            return f"{self.name}: no state"
        state = self.latest["state"]
        legal = [option["kind"] for option in state["legal"]]
        server = self.server.name if self.server else None
        return (
            f"{self.name} (seat {self.seat}, on {server}, connected {self.ws is not None}): "
            f"seq {self.seq} hand {self.latest['hand']} phase {state['phase']} "
            f"to_act {state['to_act']} legal {legal} result "
            f"{state['result'] and state['result']['hand']}; errors "
            f"{Counter(e['code'] for e in self.errors)}, the first {self.errors[:1]}; "
            f"sent {len(self.sent)}, the last {self.sent[-1][1] if self.sent else None}"
        )

    def others_cards_seen(self) -> list[tuple[int, int, list[str]]]:
        """``(seq, seat, cards)`` of every other seat's cards this player was sent while they
        were not shown: outside the showdown and the result, none."""
        seen = []
        for message in self.states:
            state = message["state"]
            if state["phase"] == "showdown" or state["result"] is not None:
                continue
            for entry in state["seats"]:
                if entry["seat"] != self.seat and entry["cards"]:
                    seen.append((int(message["seq"]), int(entry["seat"]), list(entry["cards"])))
        return seen


def lively_action(state: dict[str, Any]) -> dict[str, Any]:
    """A legal action that makes deals with draws: open when possible (the least), call,
    check; at the draw throw one card (stand pat as the opener, whose opening must not be
    broken); otherwise the passive choice."""
    legal = {option["kind"]: option for option in state["state"]["legal"]}
    hand = state["state"]["hand"]
    if "open" in legal:
        return {"kind": "open", "amount": legal["open"]["min"], "cards": [], "split": False}
    if "draw" in legal:
        option = legal["draw"]
        # The opener's draw carries split_unless_kept (an empty list for a straight, flush
        # or full: any discard breaks those): the opener stands pat.
        cards = [] if "split_unless_kept" in option or not hand else hand["cards"][:1]
        if option.get("max_cards") is not None:
            cards = cards[: option["max_cards"]]
        return {"kind": "draw", "amount": None, "cards": cards, "split": False}
    for kind in ("call", "check", "show", "decline", "pass", "make-up", "muck", "fold"):
        if kind in legal:
            return {"kind": kind, "amount": None, "cards": [], "split": False}
    option = next(iter(legal.values()))
    return {"kind": option["kind"], "amount": option["min"], "cards": [], "split": False}


async def autoplay(
    player: Player,
    stop: Callable[[], bool],
    choose: Callable[[dict[str, Any]], dict[str, Any]] = lively_action,
    retry_seconds: float = 0.3,
) -> None:
    """Play the seat's turns as states come, until ``stop()``. A refused action (stale, the
    table between owners) is played again ``retry_seconds`` later, on the state asked for
    anew (as the page does: never faster, or the server's rate limit would close it)."""
    acted: tuple[int, int] | None = None
    acted_at = 0.0
    refused_at: float | None = None
    errors = len(player.errors)
    while not stop():
        async with player._changed:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(retry_seconds):
                    await player._changed.wait()
        if stop():
            return
        now = time.monotonic()
        if len(player.errors) > errors:
            errors = len(player.errors)
            acted, refused_at = None, now  # refused: play the turn again, a little later
            continue
        if refused_at is not None:
            if now - refused_at < retry_seconds:
                continue
            refused_at = None
            await player.send({"type": "hello"})  # the state again, then the turn on it
            continue
        if not player.states or player.ws is None:
            continue
        state = player.latest
        key = (int(state["hand"] or 0), int(state["seq"]))
        mine = state["state"]["to_act"] == player.seat and state["state"]["legal"]
        if not mine:
            continue
        if acted == key and now - acted_at < 4 * retry_seconds:
            continue  # sent, the answer not in yet (asked again if it never comes)
        if await player.act(state, choose(state)):
            acted, acted_at = key, time.monotonic()
