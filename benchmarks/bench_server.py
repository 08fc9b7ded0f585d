"""Online table under load: N tables of bot clients over WebSockets on loopback.

Run: ``.venv/bin/python benchmarks/bench_server.py [--tables N] [--seconds S] [--think-ms T]``

The real server (``italian_poker.server.app.create_app`` under uvicorn) runs in a child
process, with SQLite in a temporary directory unless ``--database-url`` is given (then an
empty database is expected: the benchmark stops, saying so, if its tables hold rows),
server-side bot delay 0 and turn timers off. This process then creates ``--tables`` tables
through the REST API (the host takes seat 0, the other clients join by the invite,
``--server-bots`` bots are added by the host), connects one WebSocket client per human seat,
starts every table and plays for ``--seconds`` seconds.

Each client speaks the browser's protocol: ``hello`` with its player token, then it reads
``state`` messages; when ``to_act`` is its own seat it thinks for a random time between 0.5
and 1.5 times ``--think-ms`` (default 1 s; 0 makes a closed loop that saturates the server)
and sends one legal action with the hand id and sequence number of the state it answers. Its
policy is trivial: decline the blind, make up after an abandoned hand (5.5), open at the
minimum when allowed, else pass, check, call, stand pat, show. The server's pause between
deals is ``--next-deal-ms`` (default 0, the most load).

Latency of an action: from sending it to receiving the next ``state`` message (the server
has validated the action, persisted it and broadcast the new views). Only actions sent after
the ``--warmup`` seconds count. Printed: tables, clients, actions and actions/s, deals,
p50/p95/p99/max latency, error messages by code, tables that made no progress in the last
five seconds, the server's CPU per table event, whether the targets are met (100 concurrent
tables, p99 under 100 ms; 600 tables, p99 under 50 ms and at most 0.5 ms of the server's CPU
per table event; no error and no stalled table in either), and the server's
garbage-collector pauses from start-up to shutdown (the longest, against a target of 20 ms).
``--collector-interval none`` leaves the collector as Python runs it, to compare.
The server's event writer's transactions are timed too (how many events a commit, the
longest, those over 10 and 20 ms while measured: a table waits for its event's commit, and
a commit's time includes its waits for the interpreter's lock). The clients' own process
manages its collector as the server does (frozen every 0.25 s at most once the tables are
started) and prints its pauses: 3,000 clients in one process make a heap whose full
collections took about 250 ms, which stopped every client at once and were counted as the
server's latency (a p99 of 86-99 ms at 1,000 tables, 24-29 ms without them).

Several processes: ``--processes N`` starts N server processes (``serve
--redis-url``) on one PostgreSQL database and one Redis; ``--processes 1 --redis-url URL``
runs one such process, to compare under the same conditions. Then ``--database-url
postgresql://...`` is required (an empty database), and unless ``--redis-url`` is given the
benchmark starts its own ``redis-server`` (Debian's ``redis-server`` package) on a unix socket
in a temporary folder, saving nothing; a ``--redis-url`` given must hold no key under
``italian-poker:``. The processes are named ``bench-0``, ``bench-1``, ...; ``bench-0`` starts
first and migrates the database, the others once it answers. ``--lease-seconds`` is passed
on (default: the server's). Tables are created round-robin across the processes, and each
table's clients connect to the process that created it (which owns it: what a proxy routing
by table would do), except on ``--cross K`` percent of the tables (chosen at random with
``--seed``), whose second and later clients connect to another process, which forwards
their actions to the owner: their latency is also printed apart ("forwarded"). Printed as
well: a line per process and the total (actions/s of the clients connected to it, events/s
of the tables it owns, p50/p99/max latency of its clients, its CPU, CPU per event of the
tables it owns, its longest collector pause), the total CPU per event (summed over the
processes), and the CPU that Redis (when started here) and the local PostgreSQL processes
used while measured. For every run, the ``machine CPU`` line gives the whole machine's busy
CPU while measured and how much of it went to other processes (or the hypervisor's steal
time): on a shared machine, compare only runs where that is near zero.

``--compare`` (with ``--processes N``, N > 1): the same load first with one process, then
with N, each on a fresh database (the first run on the empty database given, which is
emptied with ``TRUNCATE ... RESTART IDENTITY`` before the second; the migrations table is
kept) and a fresh Redis (a new ``redis-server``, or the ``italian-poker:`` keys deleted from
the one given), then a line with the ratio of the events/s of N processes to one process's,
and whether their p99 is comparable (at most 10 % above one process's). With ``--think-ms``
above 0 the clients set the rate of events, so the ratio is only meaningful in a closed
loop (``--think-ms 0``) or with more tables than one process keeps up with. Example::

    pg_ctlcluster 15 main start
    psql -U postgres -h /var/run/postgresql -c 'CREATE DATABASE italian_poker_bench'
    .venv/bin/python benchmarks/bench_server.py --processes 2 --compare --think-ms 0 \\
        --tables 200 --seconds 30 --empty-database \\
        --database-url 'postgresql://postgres@/italian_poker_bench?host=/var/run/postgresql'

The database keeps the last run's rows, and a Redis given its ``italian-poker:`` keys (the
tables' fences): ``--empty-database`` empties both first (``TRUNCATE``, as between the runs of
``--compare``), or ``dropdb`` and ``createdb`` the database again.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import dataclasses
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Origin

from italian_poker.server.collector import Collector
from italian_poker.server.settings import ServerSettings

TARGETS = ((100, 0.100, None), (600, 0.050, 0.0005))
"""(concurrent tables, p99 latency in seconds, the server's CPU seconds per table event or
None): the targets at each load."""
DEFAULT_COLLECTOR_INTERVAL = ServerSettings().collector_interval
"""The server's own default for ``--collector-interval``."""
TARGET_PAUSE_SECONDS = 0.020
"""No collector pause longer than this while measured."""
P99_SLACK = 0.10
"""Several processes' p99 is comparable to one process's when at most this fraction above."""
STALL_SECONDS = 5.0
HOST = "127.0.0.1"

# Trivial policy: the first kind in this order that is legal (open at its minimum; a draw
# discards nothing, i.e. stands pat).
PREFERENCE = ("decline", "make-up", "open", "pass", "check", "call", "draw", "show")


def choose_action(legal: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The trivial policy's action among the ``legal`` entries of a state message."""
    by_kind = {entry["kind"]: entry for entry in legal}
    for kind in PREFERENCE:
        entry = by_kind.get(kind)
        if entry is None:
            continue
        amount = entry.get("min") if kind == "open" else None
        return {"kind": kind, "amount": amount, "cards": [], "split": False}
    first = legal[0]
    return {"kind": first["kind"], "amount": first.get("min"), "cards": [], "split": False}


@dataclass
class Stats:
    """What the clients measured, shared by all of them (one event loop, no locks needed)."""

    measure_from: float = 0.0
    latencies: list[float] = field(default_factory=list)
    node_latencies: dict[int, list[float]] = field(default_factory=dict)
    """Measured latencies by the process the client is connected to."""
    forwarded_latencies: list[float] = field(default_factory=list)
    """Those of the clients connected to another process than their table's owner."""
    actions: int = 0
    actions_warmup: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    disconnects: int = 0
    deals: set[tuple[int, int]] = field(default_factory=set)
    last_progress: dict[int, float] = field(default_factory=dict)
    status: dict[int, str] = field(default_factory=dict)
    seq: dict[int, int] = field(default_factory=dict)
    events: int = 0
    node_events: dict[int, int] = field(default_factory=dict)
    """Events while measured of the tables each process created (and owns)."""
    server_cpu: float = float("nan")
    node_cpu: dict[int, float] = field(default_factory=dict)
    client_cpu: float = float("nan")
    redis_cpu: float | None = None
    database_cpu: float | None = None
    machine_cpu: float = float("nan")
    """The whole machine's busy CPU seconds while measured."""
    collector: Collector = field(default_factory=Collector)
    """The clients' own process's collector, managed as the server's is (started once the
    tables are), so that a full collection of the clients' heap does not stop every client at
    once and show as the server's latency."""


@dataclass(frozen=True)
class Seat:
    """One human seat of one table, as the REST API handed it out, and the process (its
    index) that its client connects to."""

    table: int
    invite: str
    seat: int
    token: str
    node: int = 0
    forwarded: bool = False
    """Whether ``node`` is another process than the table's owner (``--cross``)."""


@dataclass(frozen=True)
class Table:
    """One table created for the benchmark, by process ``node`` (its index)."""

    index: int
    invite: str
    host_token: str
    seats: tuple[Seat, ...]
    node: int = 0


@dataclass(frozen=True)
class Node:
    """One server process of the benchmark."""

    index: int
    name: str
    port: int
    pauses_file: str
    child: subprocess.Popen[bytes]

    @property
    def base_url(self) -> str:
        return f"http://{HOST}:{self.port}"


@dataclass(frozen=True)
class Outcome:
    """One run's summary, for ``--compare``."""

    processes: int
    events_per_second: float
    p99: float
    clean: bool


async def play_seat(
    seat: Seat,
    ws_url: str,
    origin: str,
    think: float,
    seed: int,
    stats: Stats,
    stop: asyncio.Event,
) -> None:
    """Connect one human seat and play until ``stop`` is set."""
    url = f"{ws_url}/ws/tables/{seat.invite}"
    async with connect(url, origin=Origin(origin), max_size=2**22, compression=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": seat.token}))
        rng = random.Random(f"{seed} {seat.table} {seat.seat}")
        reader = asyncio.create_task(_read_states(ws, seat, think, stats, rng))
        stopper = asyncio.create_task(stop.wait())
        done, _ = await asyncio.wait({reader, stopper}, return_when=asyncio.FIRST_COMPLETED)
        for task in (reader, stopper):
            task.cancel()
        if reader in done and not reader.cancelled():
            failure = reader.exception()
            if failure is not None:
                raise failure


async def _read_states(
    ws: ClientConnection, seat: Seat, think: float, stats: Stats, rng: random.Random
) -> None:
    sent_at: float | None = None
    acted_seq = -1
    node_latencies = stats.node_latencies.setdefault(seat.node, [])
    try:
        async for raw in ws:
            now = time.perf_counter()
            message = json.loads(raw)
            kind = message.get("type")
            stats.collector.freeze_soon()
            if kind == "error":
                # The server refused the action and keeps the state: wait for the next one.
                stats.errors[str(message.get("code"))] += 1
                sent_at = None
                continue
            if kind != "state":
                continue
            if sent_at is not None:
                if sent_at >= stats.measure_from:
                    stats.latencies.append(now - sent_at)
                    node_latencies.append(now - sent_at)
                    if seat.forwarded:
                        stats.forwarded_latencies.append(now - sent_at)
                    stats.actions += 1
                else:
                    stats.actions_warmup += 1
                sent_at = None
            state = message["state"]
            hand = message.get("hand")
            seq = int(message["seq"])
            stats.seq[seat.table] = max(seq, stats.seq.get(seat.table, 0))
            stats.status[seat.table] = str(state.get("table", {}).get("status"))
            if hand is not None:
                stats.deals.add((seat.table, int(hand)))
            if state.get("to_act") != state.get("you") or hand is None or not state.get("legal"):
                continue
            if seq <= acted_seq or sent_at is not None:
                continue
            if think > 0:
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            action = choose_action(state["legal"])
            acted_seq = seq
            stats.last_progress[seat.table] = time.perf_counter()
            sent_at = time.perf_counter()
            await ws.send(
                json.dumps({"type": "action", "hand": hand, "seq": seq, "action": action})
            )
    except ConnectionClosed:
        stats.disconnects += 1


# --- The server, in child processes --------------------------------------------------------


def process_cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) used so far by process ``pid``; NaN where /proc is missing."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    # Fields 14 and 15 of proc(5) (utime, stime), counted after the ")" ending the name.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def named_processes_cpu(name: str) -> dict[int, float]:
    """CPU seconds so far of each process whose command name is ``name`` (e.g. the local
    PostgreSQL's ``postgres`` processes), by process id; empty where /proc is missing."""
    found: dict[int, float] = {}
    with contextlib.suppress(OSError):
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            try:
                head, tail = Path(entry.path, "stat").read_text().rsplit(")", 1)
            except (OSError, ValueError):
                continue
            if head.split("(", 1)[-1] != name:
                continue
            fields = tail.split()
            found[int(entry.name)] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return found


def machine_cpu_seconds() -> float:
    """CPU seconds that the whole machine has been busy (all CPUs, every process, steal
    time included), from /proc/stat; NaN where it is missing."""
    try:
        ticks = [int(t) for t in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    except (OSError, ValueError):
        return float("nan")
    idle, iowait = ticks[3], ticks[4]
    return (sum(ticks) - idle - iowait) / os.sysconf("SC_CLK_TCK")


def machine_busy(seconds: float) -> float:
    """The CPUs of the machine busy during the next ``seconds`` (in cores)."""
    before = machine_cpu_seconds()
    time.sleep(seconds)
    return (machine_cpu_seconds() - before) / seconds


def cpu_since(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds that the processes of ``after`` used since ``before`` (those started in
    between counted from zero; those that ended in between are lost)."""
    return sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items())


def free_port() -> int:
    """A TCP port on the loopback interface that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


BENCH_SECRET = "the-benchmark-processes-secret"
"""The bus secret of the benchmark's processes (``ITALIAN_POKER_BUS_SECRET`` overrides it)."""


def has_cluster_settings() -> bool:
    """Whether this version of the server runs as one of several processes (``serve
    --redis-url``)."""
    return "redis_url" in {f.name for f in dataclasses.fields(ServerSettings)}


def serve(
    port: int,
    database_url: str,
    next_deal_seconds: float,
    collector_interval: float | None,
    pauses_file: str | None,
    profile: str | None = None,
    redis_url: str | None = None,
    lease_seconds: float | None = None,
    node: str | None = None,
) -> None:
    """Run the server in this process until SIGINT (the child's side of ``--serve``); with
    ``profile``, write its cProfile statistics to that file on the way out; with
    ``pauses_file``, the garbage collector's pauses (JSON); with ``redis_url``, as process
    ``node`` among several."""
    import gc

    import uvicorn

    from italian_poker.analysis.bots import make_bot
    from italian_poker.engine.policy import Policy
    from italian_poker.server.app import create_app
    from italian_poker.server.collector import PauseTimer

    def bot_factory(level: str, seed: int | None) -> Policy:
        return make_bot(level, seed=seed)

    cluster: dict[str, Any] = {}
    if redis_url is not None:
        cluster = {"redis_url": redis_url, "node": node}
        if lease_seconds is not None:
            cluster["lease_seconds"] = lease_seconds
        if "bus_secret" in {f.name for f in dataclasses.fields(ServerSettings)}:
            # Every process of the run alike: the variable's, or the benchmark's own.
            cluster["bus_secret"] = os.environ.get("ITALIAN_POKER_BUS_SECRET", BENCH_SECRET)
    settings = ServerSettings(
        database_url=database_url,
        host=HOST,
        port=port,
        default_turn_seconds=None,
        bot_delay_seconds=0.0,
        next_deal_seconds=next_deal_seconds,
        collector_interval=collector_interval,
        # Every client comes from 127.0.0.1: the limits per address would refuse the tables.
        address_limits=False,
        # The clients send no value for the sealed deck: the server gives them at once.
        fair_value_seconds=0.0,
        **cluster,
    )
    app = create_app(settings, bot_factory)
    pauses = PauseTimer()  # every collection, whether the server manages the collector or not
    pauses.start()
    profiler = cProfile.Profile() if profile else None
    if profiler is not None:
        profiler.enable()
    uvicorn.run(app, host=HOST, port=port, log_level="warning", lifespan="on")
    pauses.stop()
    if profiler is not None and profile:
        profiler.disable()
        profiler.dump_stats(profile)
    if pauses_file:
        collector = app.state.server.collector
        frozen = collector.stats().frozen if collector is not None else 0
        writer = app.state.server.writer
        gc.set_debug(gc.DEBUG_SAVEALL)  # what the cycles are made of
        found = gc.collect()  # cycles not collected yet, and those held frozen till the stop
        kinds = Counter(f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.garbage)
        gc.set_debug(0)
        gc.garbage.clear()
        report = {
            "garbage_at_stop": found,
            "garbage_kinds": kinds.most_common(8),
            "collections": pauses.collections,
            "longest": pauses.longest,
            "slow": list(pauses.slow_pauses),
            "total": pauses.total,
            "frozen": frozen,
            "objects": len(gc.get_objects()),
            "writer": {
                "commits": writer.commits,
                "events": writer.events,
                "longest": writer.longest_commit,
                "slow": list(writer.slow_commits),
            },
        }
        Path(pauses_file).write_text(json.dumps(report))


@contextlib.contextmanager
def server_process(
    port: int,
    database_url: str,
    next_deal_seconds: float,
    collector_interval: float | None,
    pauses_file: str,
    profile: str | None,
    redis_url: str | None = None,
    lease_seconds: float | None = None,
    node: str | None = None,
) -> Iterator[subprocess.Popen[bytes]]:
    """Start the server as a child process; stop it on exit."""
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--serve",
        "--port",
        str(port),
        "--database-url",
        database_url,
        "--next-deal-ms",
        str(next_deal_seconds * 1000),
        "--collector-interval",
        "none" if collector_interval is None else str(collector_interval),
        "--pauses-file",
        pauses_file,
        *(["--profile-server", profile] if profile else []),
        *(["--redis-url", redis_url] if redis_url else []),
        *(["--lease-seconds", str(lease_seconds)] if lease_seconds is not None else []),
        *(["--node", node] if node else []),
    ]
    child = subprocess.Popen(command, env=os.environ.copy())
    try:
        yield child
    finally:
        stop_child(child)


INTERRUPTED: set[int] = set()
"""The children sent SIGINT already (by process id): a second one would make uvicorn give up
its graceful shutdown."""


def interrupt_child(child: subprocess.Popen[bytes]) -> None:
    """Ask the server to stop (SIGINT, once), not waiting."""
    if child.poll() is None and child.pid not in INTERRUPTED:
        INTERRUPTED.add(child.pid)
        child.send_signal(signal.SIGINT)


def stop_child(child: subprocess.Popen[bytes]) -> None:
    """SIGINT (unless sent already), and SIGKILL after 20 s."""
    interrupt_child(child)
    try:
        child.wait(timeout=20)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()


async def wait_until_up(client: httpx2.AsyncClient, child: subprocess.Popen[bytes]) -> float:
    """Poll the lobby page until the server answers; returns the seconds it took."""
    began = time.perf_counter()
    while time.perf_counter() - began < 60:
        if child.poll() is not None:
            raise SystemExit(f"the server exited with status {child.returncode}")
        try:
            response = await client.get("/")
            if response.status_code < 500:
                return time.perf_counter() - began
        except httpx2.TransportError:
            pass
        await asyncio.sleep(0.1)
    raise SystemExit("the server did not answer within 60 s")


async def start_nodes(
    stack: contextlib.ExitStack,
    args: argparse.Namespace,
    processes: int,
    database_url: str,
    redis_url: str | None,
    scratch: str,
) -> list[Node]:
    """Start ``processes`` servers: the first alone (it migrates the database: several
    processes migrating an empty database at once would collide), then the others together;
    return once every one answers."""
    nodes: list[Node] = []

    def start(index: int) -> Node:
        name = f"bench-{index}"
        port = args.port + index if args.port else free_port()
        pauses_file = f"{scratch}/pauses-{processes}-{index}.json"
        profile = args.profile_server
        if profile and processes > 1:
            profile = f"{profile}.{name}"
        child = stack.enter_context(
            server_process(
                port,
                database_url,
                args.next_deal_ms / 1000,
                args.collector_interval,
                pauses_file,
                profile,
                redis_url,
                args.lease_seconds if redis_url else None,
                name if redis_url else None,
            )
        )
        return Node(index, name, port, pauses_file, child)

    async def up(node: Node) -> None:
        async with httpx2.AsyncClient(base_url=node.base_url, timeout=10) as client:
            seconds = await wait_until_up(client, node.child)
        label = f"process {node.name}" if redis_url else "server"
        print(f"{label} up in {seconds:.1f} s at {node.base_url}", flush=True)

    nodes.append(start(0))
    await up(nodes[0])
    nodes.extend(start(index) for index in range(1, processes))
    await asyncio.gather(*(up(node) for node in nodes[1:]))
    return nodes


# --- Redis and PostgreSQL for several processes --------------------------------------------

REDIS_PREFIX = "italian-poker"
"""The server's key and channel prefix in Redis (``italian_poker.server.lease``)."""


@dataclass(frozen=True)
class RedisServer:
    """A ``redis-server`` started by the benchmark."""

    url: str
    process: subprocess.Popen[bytes]


@contextlib.contextmanager
def redis_server() -> Iterator[RedisServer]:
    """Start Debian's ``redis-server`` on a unix socket in a temporary folder of its own
    (saving nothing), for one run; stop it and remove the folder on exit."""
    import redis

    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit(
            "several processes need Redis: install redis-server (apt-get install "
            "redis-server) or give --redis-url"
        )
    # A short folder: a unix socket's path is limited to about 100 bytes.
    with tempfile.TemporaryDirectory(prefix="ip-redis-", dir="/tmp") as folder:
        path = f"{folder}/redis.sock"
        command = [binary, "--port", "0", "--unixsocket", path, "--unixsocketperm", "700"]
        command += ["--save", "", "--appendonly", "no", "--dir", folder]
        with open(f"{folder}/redis.log", "wb") as log:
            process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 10
            while True:
                if process.poll() is not None:
                    text = Path(folder, "redis.log").read_text(errors="replace")
                    raise SystemExit(f"redis-server exited with {process.returncode}: {text}")
                if os.path.exists(path):
                    client = redis.Redis(unix_socket_path=path, socket_timeout=1)
                    try:
                        if client.ping():
                            break
                    except redis.RedisError:
                        pass
                    finally:
                        client.close()
                if time.monotonic() > deadline:
                    raise SystemExit("redis-server did not answer PING within 10 s")
                time.sleep(0.02)
            yield RedisServer(f"unix://{path}", process)
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def redis_keys(url: str, delete: bool) -> int:
    """How many keys the server's prefix has in the Redis at ``url``; with ``delete``, how
    many were deleted."""
    import redis

    client = redis.Redis.from_url(url, socket_timeout=5)
    try:
        keys = list(client.scan_iter(match=f"{REDIS_PREFIX}:*", count=1000))
        if delete and keys:
            for start in range(0, len(keys), 500):
                client.delete(*keys[start : start + 500])
        return len(keys)
    except redis.RedisError as error:
        raise SystemExit(f"Redis at {url}: {error}") from error
    finally:
        client.close()


def database_rows(database_url: str) -> dict[str, bool]:
    """For each table of the database but Alembic's, whether it holds a row."""
    from sqlalchemy import inspect, text
    from sqlalchemy.exc import SQLAlchemyError

    from italian_poker.server.database import make_engine

    engine = make_engine(database_url)
    try:
        with engine.connect() as connection:
            names = [n for n in inspect(connection).get_table_names() if n != "alembic_version"]
            quote = engine.dialect.identifier_preparer.quote
            return {
                name: bool(
                    connection.execute(
                        text(f"SELECT EXISTS (SELECT 1 FROM {quote(name)})")
                    ).scalar()
                )
                for name in names
            }
    except SQLAlchemyError as error:
        raise SystemExit(f"database {safe_url(database_url)}: {error}") from error
    finally:
        engine.dispose()


def require_empty_database(database_url: str) -> None:
    """Stop the benchmark, saying how to empty it, unless the database has no rows."""
    full = sorted(name for name, has_rows in database_rows(database_url).items() if has_rows)
    if full:
        raise SystemExit(
            f"database {safe_url(database_url)} is not empty (rows in {', '.join(full)}): "
            "give an empty one (dropdb and createdb it again), or --empty-database to "
            "empty it"
        )


def empty_database(database_url: str) -> None:
    """Empty every table but Alembic's (``TRUNCATE ... RESTART IDENTITY``: ids from 1
    again, the migrations kept), so the next run starts on a fresh database."""
    from sqlalchemy import text

    from italian_poker.server.database import make_engine

    names = list(database_rows(database_url))
    if not names:
        return
    engine = make_engine(database_url)
    quote = engine.dialect.identifier_preparer.quote
    try:
        with engine.begin() as connection:
            listed = ", ".join(quote(name) for name in names)
            connection.execute(text(f"TRUNCATE TABLE {listed} RESTART IDENTITY CASCADE"))
    finally:
        engine.dispose()


def safe_url(url: str) -> str:
    """A database URL without its password."""
    from sqlalchemy.engine import make_url

    try:
        parsed = make_url(url)
    except Exception:
        return url.split("@")[-1]
    return url if parsed.password is None else parsed.render_as_string(hide_password=True)


# --- Set-up through the REST API ----------------------------------------------------------


def _checked(response: httpx2.Response) -> dict[str, Any]:
    if response.status_code >= 400:
        raise SystemExit(
            f"{response.request.method} {response.request.url.path}: "
            f"{response.status_code} {response.text}"
        )
    body: dict[str, Any] = response.json()
    return body


async def create_table(client: httpx2.AsyncClient, index: int, args: argparse.Namespace) -> Table:
    """Create one table, seat its human clients and its server-side bots."""
    seats = args.clients + args.server_bots
    created = _checked(
        await client.post(
            "/api/tables",
            json={
                "name": f"bench {index}",
                "preset": args.preset,
                "seats": seats,
                "stack": args.stack,
                "ante": None,
                "structure": None,
                "turn_seconds": None,
                "time_bank_seconds": 0,
                "host_nickname": "c0",
                "lang": "en",
            },
        )
    )
    invite = str(created["invite"])
    host = {"Authorization": f"Bearer {created['host_token']}"}
    humans = [Seat(index, invite, int(created["seat"]), str(created["player_token"]))]
    for number in range(1, args.clients):
        joined = _checked(
            await client.post(f"/api/tables/{invite}/seats", json={"nickname": f"c{number}"})
        )
        humans.append(Seat(index, invite, int(joined["seat"]), str(joined["player_token"])))
    for _ in range(args.server_bots):
        _checked(
            await client.post(
                f"/api/tables/{invite}/bots", json={"level": args.bot_level}, headers=host
            )
        )
    return Table(index, invite, str(created["host_token"]), tuple(humans))


def place_clients(table: Table, node: int, processes: int, cross: bool) -> Table:
    """``table`` created by process ``node``: its clients connect there, or, on a ``cross``
    table, the second and later ones to the other processes in turn."""
    seats = []
    for number, seat in enumerate(table.seats):
        at = node
        if cross and number > 0:
            at = (node + 1 + (number - 1) % (processes - 1)) % processes
        seats.append(dataclasses.replace(seat, node=at, forwarded=at != node))
    return dataclasses.replace(table, seats=tuple(seats), node=node)


async def start_table(client: httpx2.AsyncClient, table: Table) -> None:
    """Start the table's match (host only)."""
    _checked(
        await client.post(
            f"/api/tables/{table.invite}/start",
            headers={"Authorization": f"Bearer {table.host_token}"},
        )
    )


async def gather_limited(limit: int, coroutines: Sequence[Any]) -> list[Any]:
    """Await ``coroutines`` with at most ``limit`` running at once, in order."""
    gate = asyncio.Semaphore(limit)

    async def one(coroutine: Any) -> Any:
        async with gate:
            return await coroutine

    return list(await asyncio.gather(*(one(c) for c in coroutines)))


# --- The run -------------------------------------------------------------------------------


def percentile(sorted_values: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile of already sorted values."""
    if not sorted_values:
        return float("nan")
    rank = max(1, round(fraction * len(sorted_values) + 0.5 - 1e-9))
    return sorted_values[min(rank, len(sorted_values)) - 1]


@dataclass
class Measured:
    """One run's measurements, reported once its servers have stopped."""

    stats: Stats
    seconds: float
    deals: int
    failures: list[BaseException]
    ended: float
    window: tuple[float, float]
    tables: list[Table]


async def run(
    args: argparse.Namespace, nodes: Sequence[Node], redis: RedisServer | None
) -> Measured:
    """Create the tables round-robin across ``nodes``, play, measure."""
    limits = httpx2.Limits(max_connections=16, max_keepalive_connections=16)
    async with contextlib.AsyncExitStack() as stack:
        clients = [
            await stack.enter_async_context(
                httpx2.AsyncClient(base_url=node.base_url, timeout=30, limits=limits)
            )
            for node in nodes
        ]
        processes = len(nodes)
        cross_count = round(args.tables * args.cross / 100) if processes > 1 else 0
        crossed = set(random.Random(f"{args.seed} cross").sample(range(args.tables), cross_count))
        began = time.perf_counter()

        async def one_table(index: int) -> Table:
            node = index % processes
            table = await create_table(clients[node], index, args)
            return place_clients(table, node, processes, index in crossed)

        tables: list[Table] = await gather_limited(
            8 * processes, [one_table(i) for i in range(args.tables)]
        )
        print(
            f"created {len(tables)} tables in {time.perf_counter() - began:.1f} s"
            + (f" ({cross_count} with clients on another process)" if cross_count else ""),
            flush=True,
        )
        stats = Stats(measure_from=float("inf"))
        stop = asyncio.Event()
        players = [
            asyncio.create_task(
                play_seat(
                    seat,
                    nodes[seat.node].base_url.replace("http://", "ws://", 1),
                    nodes[seat.node].base_url,
                    args.think,
                    args.seed,
                    stats,
                    stop,
                )
            )
            for table in tables
            for seat in table.seats
        ]
        await asyncio.sleep(1.0)  # let the handshakes and hellos through
        began = time.perf_counter()
        await gather_limited(
            8 * processes, [start_table(clients[table.node], table) for table in tables]
        )
        started = time.perf_counter()
        print(f"started {len(tables)} tables in {started - began:.1f} s", flush=True)
        stats.collector.start()
        stats.measure_from = started + args.warmup
        for table in tables:
            stats.last_progress.setdefault(table.index, started)
        await asyncio.sleep(args.warmup)
        window_start = time.time()
        seq_before = dict(stats.seq)
        node_cpu_before = [process_cpu_seconds(node.child.pid) for node in nodes]
        redis_cpu_before = process_cpu_seconds(redis.process.pid) if redis else 0.0
        # The local PostgreSQL's processes, when the database is PostgreSQL (maybe remote).
        database_cpu_before = (
            named_processes_cpu("postgres") if is_postgresql(args.database_url) else {}
        )
        client_cpu_before = time.process_time()
        machine_cpu_before = machine_cpu_seconds()
        await asyncio.sleep(args.seconds)
        window = (window_start, time.time())
        ended = time.perf_counter()
        for node, before in zip(nodes, node_cpu_before, strict=True):
            stats.node_cpu[node.index] = process_cpu_seconds(node.child.pid) - before
        stats.server_cpu = sum(stats.node_cpu.values())
        if redis is not None:
            stats.redis_cpu = process_cpu_seconds(redis.process.pid) - redis_cpu_before
        if database_cpu_before:
            stats.database_cpu = cpu_since(database_cpu_before, named_processes_cpu("postgres"))
        stats.client_cpu = time.process_time() - client_cpu_before
        stats.machine_cpu = machine_cpu_seconds() - machine_cpu_before
        for table in tables:
            events = stats.seq.get(table.index, 0) - seq_before.get(table.index, 0)
            stats.node_events[table.node] = stats.node_events.get(table.node, 0) + events
        stats.events = sum(stats.node_events.values())
        deals = len(stats.deals)
        stop.set()
        results = await asyncio.gather(*players, return_exceptions=True)
        stats.collector.stop()
    failures = [r for r in results if isinstance(r, BaseException)]
    return Measured(stats, ended - stats.measure_from, deals, failures, ended, window, tables)


def report(
    args: argparse.Namespace,
    measured: Measured,
    nodes: Sequence[Node],
    clustered: bool,
) -> Outcome:
    stats, seconds, failures = measured.stats, measured.seconds, measured.failures
    latencies = sorted(stats.latencies)
    p50 = percentile(latencies, 0.50)
    p95 = percentile(latencies, 0.95)
    p99 = percentile(latencies, 0.99)
    stalled = sum(1 for t in stats.last_progress.values() if measured.ended - t > STALL_SECONDS)
    errors = sum(stats.errors.values())
    statuses = Counter(stats.status.values())
    processes = len(nodes)
    print()
    if clustered:
        print(
            f"processes                {processes} sharing one PostgreSQL and one Redis"
            + (f", {args.cross:g} % of the tables crossed" if args.cross and processes > 1 else "")
        )
    print(f"tables                   {args.tables}")
    print(
        f"clients                  {args.tables * args.clients} WebSocket clients "
        f"({args.clients} a table), {args.tables * args.server_bots} server bots "
        f"({args.bot_level})"
    )
    print(
        f"think time               {args.think * 1000:.0f} ms, "
        f"{args.next_deal_ms:.0f} ms between deals"
    )
    print(f"measured                 {seconds:.1f} s after {args.warmup:.1f} s of warm-up")
    print(f"client actions           {stats.actions:,}")
    print(f"actions/s                {stats.actions / seconds:,.1f}")
    print(
        f"table events/s           {stats.events / seconds:,.1f} (every seat's actions, deals; "
        "from the sequence numbers)"
    )
    print(f"deals seen               {measured.deals:,} (warm-up included)")
    longest = latencies[-1] if latencies else float("nan")
    print(
        f"action latency           p50 {p50 * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, "
        f"p99 {p99 * 1000:.1f} ms, max {longest * 1000:.1f} ms"
    )
    if stats.forwarded_latencies:
        forwarded = sorted(stats.forwarded_latencies)
        print(
            f"  forwarded (--cross)    {len(forwarded):,} actions: "
            f"p50 {percentile(forwarded, 0.50) * 1000:.1f} ms, "
            f"p99 {percentile(forwarded, 0.99) * 1000:.1f} ms, "
            f"max {forwarded[-1] * 1000:.1f} ms"
        )
    print(
        f"errors                   {errors}"
        + (f" ({', '.join(f'{k} {v}' for k, v in sorted(stats.errors.items()))})" if errors else "")
    )
    print(
        f"CPU while measured       server {stats.server_cpu / seconds:.0%} of a core"
        + (f" (sum of {processes} processes)" if processes > 1 else "")
        + f", clients {stats.client_cpu / seconds:.0%}"
        + (f", Redis {stats.redis_cpu / seconds:.0%}" if stats.redis_cpu is not None else "")
        + (
            f", PostgreSQL {stats.database_cpu / seconds:.0%}"
            if stats.database_cpu is not None
            else ""
        )
        + f"; load average {os.getloadavg()[0]:.2f}"
    )
    accounted = stats.server_cpu + stats.client_cpu
    accounted += (stats.redis_cpu or 0.0) + (stats.database_cpu or 0.0)
    print(
        f"machine CPU              {stats.machine_cpu / seconds:.0%} of a core busy of "
        f"{os.cpu_count()}, of which other processes (or steal time) "
        f"{max(0.0, stats.machine_cpu - accounted) / seconds:.0%}"
    )
    per_event = stats.server_cpu / stats.events if stats.events else float("nan")
    print(
        f"server CPU per event     {per_event * 1000:.2f} ms"
        + (" (sum over the processes)" if processes > 1 else "")
    )
    client_pauses = [
        seconds
        for seconds, _, at, _ in stats.collector.pauses.slow_pauses
        if measured.window[0] <= at <= measured.window[1]
    ]
    print(
        f"clients' collector       {len(client_pauses)} pauses over 10 ms while measured"
        + (f", longest {max(client_pauses) * 1000:.1f} ms" if client_pauses else "")
        + " (the clients' process, frozen as the server's is: not the server's latency)"
    )
    print(f"connections lost         {stats.disconnects}, client failures {len(failures)}")
    for failure in failures[:3]:
        print(f"  {type(failure).__name__}: {failure}")
    print(
        f"stalled tables           {stalled} (no client action in the last {STALL_SECONDS:.0f} s)"
    )
    print(f"table statuses at end    {dict(statuses)}")
    pauses = [
        report_pauses(
            args.collector_interval,
            Path(node.pauses_file),
            measured.window,
            f" ({node.name})" if processes > 1 else "",
        )
        for node in nodes
    ]
    if clustered:
        report_processes(nodes, measured, pauses)
    clean = errors == 0 and not failures and stalled == 0 and stats.actions > 0
    per_event = stats.server_cpu / stats.events if stats.events else float("nan")
    for tables, p99_target, cpu_target in TARGETS:
        met = clean and args.tables >= tables and p99 < p99_target
        cpu = ""
        if cpu_target is not None:
            met = met and per_event <= cpu_target
            cpu = f", server CPU per event <= {cpu_target * 1000:g} ms"
        print(
            f"target ({tables:,} concurrent tables, p99 < "
            f"{p99_target * 1000:.0f} ms{cpu}, no errors, no stalled table"
            + (f", {processes} processes" if processes > 1 else "")
            + f"): {'met' if met else 'NOT MET'}"
        )
    measured_pauses = [p for p in pauses if p is not None]
    longest_pause = max(measured_pauses, default=float("nan"))
    met = len(measured_pauses) == len(pauses) and longest_pause < TARGET_PAUSE_SECONDS
    print(
        f"target (no collector pause over {TARGET_PAUSE_SECONDS * 1000:.0f} ms "
        f"while measured{', in any process' if processes > 1 else ''}): "
        f"{'met' if met else 'NOT MET'}"
    )
    return Outcome(processes, stats.events / seconds, p99, clean)


def report_processes(
    nodes: Sequence[Node], measured: Measured, pauses: Sequence[float | None]
) -> None:
    """One line a process and the total: its clients' actions/s and latency, its tables'
    events/s, its CPU and CPU per event of its tables, its longest collector pause."""
    stats, seconds = measured.stats, measured.seconds
    owned = Counter(table.node for table in measured.tables)
    print()
    print(
        f"{'process':<10}{'tables':>7}{'actions/s':>11}{'events/s':>10}{'p50 ms':>8}"
        f"{'p99 ms':>8}{'max ms':>8}{'CPU':>6}{'CPU/event ms':>14}{'longest pause ms':>18}"
    )

    def line(
        name: str,
        tables: int,
        latencies: list[float],
        events: int,
        cpu: float,
        pause: float | None,
    ) -> None:
        ordered = sorted(latencies)
        longest = ordered[-1] if ordered else float("nan")
        per_event = cpu / events if events else float("nan")
        print(
            f"{name:<10}{tables:>7}{len(ordered) / seconds:>11,.1f}{events / seconds:>10,.1f}"
            f"{percentile(ordered, 0.50) * 1000:>8.1f}{percentile(ordered, 0.99) * 1000:>8.1f}"
            f"{longest * 1000:>8.1f}{cpu / seconds:>6.0%}{per_event * 1000:>14.2f}"
            f"{'-' if pause is None else f'{pause * 1000:.1f}':>18}"
        )

    for node, pause in zip(nodes, pauses, strict=True):
        line(
            node.name,
            owned[node.index],
            stats.node_latencies.get(node.index, []),
            stats.node_events.get(node.index, 0),
            stats.node_cpu.get(node.index, float("nan")),
            pause,
        )
    if len(nodes) > 1:
        known = [p for p in pauses if p is not None]
        line(
            "total",
            len(measured.tables),
            stats.latencies,
            stats.events,
            stats.server_cpu,
            max(known) if len(known) == len(pauses) else None,
        )
    print()


def report_comparison(one: Outcome, several: Outcome) -> None:
    """N processes' events/s against one process's, and whether their p99 is comparable (at
    most 10 % above one process's): a measure, not a target (a 2-core machine cannot show
    what several processes add)."""
    ratio = several.events_per_second / one.events_per_second if one.events_per_second else 0.0
    comparable = several.p99 <= one.p99 * (1 + P99_SLACK)
    print()
    print(
        f"compared                 {several.processes} processes {several.events_per_second:,.1f} "
        f"events/s, p99 {several.p99 * 1000:.1f} ms; 1 process "
        f"{one.events_per_second:,.1f} events/s, p99 {one.p99 * 1000:.1f} ms"
    )
    print(
        f"ratio                    {ratio:.2f}x the events/s of one process, p99 "
        f"{'comparable' if comparable else 'NOT comparable'}"
        + ("" if one.clean and several.clean else " (errors or stalled tables)")
    )


def event_loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop when it is installed (uvicorn[standard] brings it), else asyncio's."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def one_run(
    args: argparse.Namespace,
    processes: int,
    database_url: str,
    clustered: bool,
    scratch: str,
) -> Outcome:
    """Start the Redis (unless given) and the ``processes`` servers, run the load, stop them
    and report."""
    with contextlib.ExitStack() as stack:
        redis: RedisServer | None = None
        redis_url: str | None = args.redis_url
        if clustered and redis_url is None:
            redis = stack.enter_context(redis_server())
            redis_url = redis.url
        if clustered:
            print(f"redis {redis_url}" + (" (started here)" if redis else ""), flush=True)
        with (
            asyncio.Runner(loop_factory=event_loop_factory()) as runner,
            contextlib.ExitStack() as servers,
        ):
            nodes = runner.run(
                start_nodes(
                    servers,
                    args,
                    processes,
                    database_url,
                    redis_url if clustered else None,
                    scratch,
                )
            )
            # Unwound first: every server is asked to stop at once, then each is waited for.
            servers.callback(interrupt, nodes)
            measured = runner.run(run(args, nodes, redis))
        return report(args, measured, nodes, clustered)


def interrupt(nodes: Sequence[Node]) -> None:
    """Ask every server to stop (SIGINT), not waiting."""
    for node in nodes:
        interrupt_child(node.child)


def is_postgresql(url: str | None) -> bool:
    return url is not None and url.split(":", 1)[0].split("+", 1)[0] in ("postgresql", "postgres")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100, help="concurrent tables (100)")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured seconds (30)")
    parser.add_argument("--warmup", type=float, default=2.0, help="unmeasured seconds first (2)")
    parser.add_argument(
        "--clients", type=int, default=3, help="WebSocket clients a table, 1 or more (3)"
    )
    parser.add_argument("--server-bots", type=int, default=1, help="server bots a table (1)")
    parser.add_argument("--bot-level", default="simple", help="server bots' level (simple)")
    parser.add_argument(
        "--think-ms", type=float, default=1000.0, help="client thinking time, ms (1000)"
    )
    parser.add_argument(
        "--next-deal-ms", type=float, default=0.0, help="server's pause between deals, ms (0)"
    )
    parser.add_argument("--seed", type=int, default=2026, help="thinking times' seed (2026)")
    parser.add_argument("--preset", default="standard", help="rules preset (standard)")
    parser.add_argument("--stack", type=int, default=100_000, help="starting stack (100,000)")
    parser.add_argument(
        "--database-url",
        default=None,
        help="an empty database (default: SQLite in a temp dir; PostgreSQL with --processes)",
    )
    parser.add_argument(
        "--empty-database",
        action="store_true",
        help="empty the --database-url given first (TRUNCATE: its rows are lost), and delete "
        "the italian-poker: keys of the --redis-url given",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="server processes on one PostgreSQL and one Redis (1: one process, no Redis "
        "unless --redis-url)",
    )
    parser.add_argument(
        "--redis-url",
        default=None,
        help="the processes' Redis (default: a redis-server started here, with --processes "
        "above 1); with --processes 1, one process that uses it",
    )
    parser.add_argument(
        "--lease-seconds",
        type=float,
        default=None,
        help="the processes' table leases, seconds (the server's default)",
    )
    parser.add_argument(
        "--cross",
        type=float,
        default=0.0,
        help="percent of the tables whose second and later clients connect to another "
        "process than the table's owner (0)",
    )
    parser.add_argument(
        "--compare",
        action="store_true",
        help="run the same load with 1 process first, then with --processes, and compare",
    )
    parser.add_argument("--port", type=int, default=0, help="server port (free ones)")
    parser.add_argument(
        "--profile-server",
        default=None,
        help="write the server's cProfile stats to this file (FILE.bench-K for process K)",
    )
    parser.add_argument(
        "--collector-interval",
        type=interval,
        default=DEFAULT_COLLECTOR_INTERVAL,
        help="seconds between the server's freezes of the garbage collector, or 'none' to "
        f"leave the collector as Python runs it ({DEFAULT_COLLECTOR_INTERVAL})",
    )
    parser.add_argument("--pauses-file", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--node", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(
            args.port,
            args.database_url,
            args.next_deal_ms / 1000,
            args.collector_interval,
            args.pauses_file,
            args.profile_server,
            args.redis_url,
            args.lease_seconds,
            args.node,
        )
        return
    if args.clients < 1:
        parser.error("--clients must be at least 1")
    if args.processes < 1:
        parser.error("--processes must be at least 1")
    clustered = args.processes > 1 or args.redis_url is not None
    if clustered:
        if not has_cluster_settings():
            parser.error(
                "this version of the server runs as one process only (ServerSettings has no "
                "redis_url): --processes above 1 and --redis-url need a server that runs as "
                "several processes"
            )
        if not is_postgresql(args.database_url):
            parser.error(
                "several processes share one PostgreSQL database: give --database-url "
                "postgresql://... (an empty database), e.g. "
                "'postgresql://postgres@/italian_poker_bench?host=/var/run/postgresql'"
            )
    elif args.lease_seconds is not None:
        parser.error("--lease-seconds needs --processes above 1 or --redis-url")
    if args.compare and args.processes < 2:
        parser.error("--compare needs --processes 2 or more (it runs 1 process, then those)")
    if args.empty_database and not args.database_url:
        parser.error("--empty-database needs --database-url")
    if not 0 <= args.cross <= 100:
        parser.error("--cross is a percentage, from 0 to 100")
    if args.cross and args.processes < 2:
        parser.error("--cross needs --processes 2 or more")
    args.think = args.think_ms / 1000
    print(
        f"load average {os.getloadavg()[0]:.2f} at start, {os.cpu_count()} CPUs, "
        f"{machine_busy(0.5):.0%} of a core busy before the start",
        flush=True,
    )
    with tempfile.TemporaryDirectory(prefix="bench_server-") as scratch:
        os.environ.setdefault("ITALIAN_POKER_DATA_DIR", scratch)
        database_url = args.database_url or f"sqlite:///{scratch}/bench.sqlite3"
        print(f"database {safe_url(database_url)}", flush=True)
        if args.database_url:
            if args.empty_database:
                empty_database(database_url)
            require_empty_database(database_url)
        if args.redis_url and args.empty_database:
            redis_keys(args.redis_url, delete=True)
        if args.redis_url and redis_keys(args.redis_url, delete=False):
            raise SystemExit(
                f"Redis at {args.redis_url} holds keys under {REDIS_PREFIX}: (another "
                "server's, or an earlier run's: the tables' fences stay): delete them, or "
                "--empty-database"
            )
        runs = [1, args.processes] if args.compare else [args.processes]
        outcomes: list[Outcome] = []
        for number, processes in enumerate(runs):
            if number:
                empty_database(database_url)
                if args.redis_url:
                    redis_keys(args.redis_url, delete=True)
            if args.compare:
                print(
                    f"\n=== {processes} process{'es' if processes > 1 else ''} "
                    f"({number + 1} of {len(runs)}) ===",
                    flush=True,
                )
            outcomes.append(one_run(args, processes, database_url, clustered, scratch))
        if args.compare:
            report_comparison(outcomes[0], outcomes[1])
    sys.exit(0)


def interval(text: str) -> float | None:
    """``--collector-interval``: seconds, or ``none``."""
    return None if text.lower() == "none" else float(text)


def report_pauses(
    collector_interval: float | None,
    pauses_file: Path,
    window: tuple[float, float],
    label: str = "",
) -> float | None:
    """Print the server's garbage-collector pauses, from start-up to shutdown (its child
    wrote them on the way out), and those of the measured ``window`` (``time.time()``
    seconds); return the longest of those (None: not reported)."""
    head = f"collector pauses{label}"
    try:
        pauses = json.loads(pauses_file.read_text())
    except (OSError, ValueError):
        print(f"{head:<24} not reported (the server did not stop cleanly)")
        return None
    managed = (
        "left as Python runs it"
        if collector_interval is None
        else f"frozen every {collector_interval:g} s at most"
    )
    print(
        f"{head:<24} longest {pauses['longest'] * 1000:.1f} ms, "
        f"{pauses['collections']:,} collections, {pauses['total']:.2f} s in all ({managed})"
    )
    slow = pauses["slow"]
    measured = [(s, gen, cpu) for s, gen, at, cpu in slow if window[0] <= at <= window[1]]
    over = sum(1 for seconds, _, _ in measured if seconds > TARGET_PAUSE_SECONDS)
    longest = max((seconds for seconds, _, _ in measured), default=0.0)
    worst = ", ".join(
        f"{s * 1000:.0f} ms (gen {gen}, CPU {cpu * 1000:.0f} ms)" for s, gen, cpu in measured[:6]
    )
    print(
        f"pauses while measured    {len(measured)} over 10 ms, {over} over "
        f"{TARGET_PAUSE_SECONDS * 1000:.0f} ms, "
        + (f"longest {longest * 1000:.1f} ms; first ones: {worst}" if measured else "none longer")
    )
    writer = pauses.get("writer")
    if writer is not None:
        slow_commits = [(s, n) for s, at, n in writer["slow"] if window[0] <= at <= window[1]]
        per = writer["events"] / writer["commits"] if writer["commits"] else 0.0
        print(
            f"event writer             {writer['commits']:,} commits of {per:.1f} events on "
            f"average, longest {writer['longest'] * 1000:.1f} ms; while measured "
            f"{len(slow_commits)} over 10 ms, "
            f"{sum(1 for s, _ in slow_commits if s > TARGET_PAUSE_SECONDS)} over "
            f"{TARGET_PAUSE_SECONDS * 1000:.0f} ms"
            + (f", longest {max(s for s, _ in slow_commits) * 1000:.1f} ms" if slow_commits else "")
        )
    print(
        f"frozen objects           {pauses['frozen']:,} when the server stopped; "
        f"{pauses['garbage_at_stop']:,} unreachable found after the server stopped, most: "
        + ", ".join(f"{kind} {count:,}" for kind, count in pauses["garbage_kinds"])
    )
    return float(longest)


if __name__ == "__main__":
    main()
