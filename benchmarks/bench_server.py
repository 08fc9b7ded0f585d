"""Online table under load: N tables of bot clients over WebSockets on loopback.

Run: ``.venv/bin/python benchmarks/bench_server.py [--tables N] [--seconds S] [--think-ms T]``

The real server (``italian_poker.server.app.create_app`` under uvicorn) runs in a child
process, with SQLite in a temporary directory unless ``--database-url`` is given (then an
empty database is expected), server-side bot delay 0 and turn timers off. This process then
creates ``--tables`` tables through the REST API (the host takes seat 0, the other clients
join by the invite, ``--server-bots`` bots are added by the host), connects one WebSocket
client per human seat, starts every table and plays for ``--seconds`` seconds.

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
five seconds, the server's CPU per table event, whether the issues' targets are met (issue 5:
100 concurrent tables, p99 under 100 ms; issue 12: 1,000 tables, p99 under 50 ms), and the
server's garbage-collector pauses from start-up to shutdown (the longest, against issue 12's
20 ms). ``--collector-interval none`` leaves the collector as Python runs it, to compare.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import json
import os
import random
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

from italian_poker.server.settings import ServerSettings

TARGETS = ((5, 100, 0.100), (12, 1_000, 0.050))
"""(issue, concurrent tables, p99 latency in seconds) that the issues set."""
DEFAULT_COLLECTOR_INTERVAL = ServerSettings().collector_interval
"""The server's own default for ``--collector-interval``."""
TARGET_PAUSE_SECONDS = 0.020
"""Issue 12: no collector pause longer than this at 1,000 tables."""
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
    actions: int = 0
    actions_warmup: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    disconnects: int = 0
    deals: set[tuple[int, int]] = field(default_factory=set)
    last_progress: dict[int, float] = field(default_factory=dict)
    status: dict[int, str] = field(default_factory=dict)
    seq: dict[int, int] = field(default_factory=dict)
    events: int = 0
    server_cpu: float = float("nan")
    client_cpu: float = float("nan")


@dataclass(frozen=True)
class Seat:
    """One human seat of one table, as the REST API handed it out."""

    table: int
    invite: str
    seat: int
    token: str


@dataclass(frozen=True)
class Table:
    """One table created for the benchmark."""

    index: int
    invite: str
    host_token: str
    seats: tuple[Seat, ...]


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
    try:
        async for raw in ws:
            message = json.loads(raw)
            kind = message.get("type")
            now = time.perf_counter()
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


# --- The server, in a child process -------------------------------------------------------


def process_cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) used so far by process ``pid``; NaN where /proc is missing."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    # Fields 14 and 15 of proc(5) (utime, stime), counted after the ")" ending the name.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    """A TCP port on the loopback interface that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def serve(
    port: int,
    database_url: str,
    next_deal_seconds: float,
    collector_interval: float | None,
    pauses_file: str | None,
    profile: str | None = None,
) -> None:
    """Run the server in this process until SIGINT (the child's side of ``--serve``); with
    ``profile``, write its cProfile statistics to that file on the way out; with
    ``pauses_file``, the garbage collector's pauses (JSON)."""
    import gc

    import uvicorn

    from italian_poker.analysis.bots import make_bot
    from italian_poker.engine.policy import Policy
    from italian_poker.server.app import create_app
    from italian_poker.server.collector import PauseTimer

    def bot_factory(level: str, seed: int | None) -> Policy:
        return make_bot(level, seed=seed)

    settings = ServerSettings(
        database_url=database_url,
        host=HOST,
        port=port,
        default_turn_seconds=None,
        bot_delay_seconds=0.0,
        next_deal_seconds=next_deal_seconds,
        collector_interval=collector_interval,
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
            "slow": pauses.slow_pauses,
            "total": pauses.total,
            "frozen": frozen,
            "objects": len(gc.get_objects()),
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
    ]
    child = subprocess.Popen(command, env=os.environ.copy())
    try:
        yield child
    finally:
        child.send_signal(signal.SIGINT)
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


async def run(args: argparse.Namespace, base_url: str, child: subprocess.Popen[bytes]) -> int:
    limits = httpx2.Limits(max_connections=16, max_keepalive_connections=16)
    async with httpx2.AsyncClient(base_url=base_url, timeout=30, limits=limits) as client:
        startup = await wait_until_up(client, child)
        print(f"server up in {startup:.1f} s at {base_url}", flush=True)
        began = time.perf_counter()
        tables: list[Table] = await gather_limited(
            8, [create_table(client, i, args) for i in range(args.tables)]
        )
        print(f"created {len(tables)} tables in {time.perf_counter() - began:.1f} s", flush=True)
        stats = Stats(measure_from=float("inf"))
        stop = asyncio.Event()
        ws_url = base_url.replace("http://", "ws://", 1)
        players = [
            asyncio.create_task(
                play_seat(seat, ws_url, base_url, args.think, args.seed, stats, stop)
            )
            for table in tables
            for seat in table.seats
        ]
        await asyncio.sleep(1.0)  # let the handshakes and hellos through
        began = time.perf_counter()
        await gather_limited(8, [start_table(client, table) for table in tables])
        started = time.perf_counter()
        print(f"started {len(tables)} tables in {started - began:.1f} s", flush=True)
        stats.measure_from = started + args.warmup
        for table in tables:
            stats.last_progress.setdefault(table.index, started)
        await asyncio.sleep(args.warmup)
        window_start = time.time()
        seq_before = sum(stats.seq.values())
        server_cpu_before = process_cpu_seconds(child.pid)
        client_cpu_before = time.process_time()
        await asyncio.sleep(args.seconds)
        args.window = (window_start, time.time())
        ended = time.perf_counter()
        stats.server_cpu = process_cpu_seconds(child.pid) - server_cpu_before
        stats.events = sum(stats.seq.values()) - seq_before
        stats.client_cpu = time.process_time() - client_cpu_before
        deals = len(stats.deals)
        stop.set()
        results = await asyncio.gather(*players, return_exceptions=True)
    failures = [r for r in results if isinstance(r, BaseException)]
    return report(args, stats, ended - stats.measure_from, deals, failures, ended)


def report(
    args: argparse.Namespace,
    stats: Stats,
    seconds: float,
    deals: int,
    failures: Sequence[BaseException],
    ended: float,
) -> int:
    latencies = sorted(stats.latencies)
    p50 = percentile(latencies, 0.50)
    p95 = percentile(latencies, 0.95)
    p99 = percentile(latencies, 0.99)
    stalled = sum(1 for t in stats.last_progress.values() if ended - t > STALL_SECONDS)
    errors = sum(stats.errors.values())
    statuses = Counter(stats.status.values())
    print()
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
    print(f"deals seen               {deals:,} (warm-up included)")
    longest = latencies[-1] if latencies else float("nan")
    print(
        f"action latency           p50 {p50 * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, "
        f"p99 {p99 * 1000:.1f} ms, max {longest * 1000:.1f} ms"
    )
    print(
        f"errors                   {errors}"
        + (f" ({', '.join(f'{k} {v}' for k, v in sorted(stats.errors.items()))})" if errors else "")
    )
    print(
        f"CPU while measured       server {stats.server_cpu / seconds:.0%} of a core, "
        f"clients {stats.client_cpu / seconds:.0%}; load average {os.getloadavg()[0]:.2f}"
    )
    per_event = stats.server_cpu / stats.events if stats.events else float("nan")
    print(f"server CPU per event     {per_event * 1000:.2f} ms")
    print(f"connections lost         {stats.disconnects}, client failures {len(failures)}")
    for failure in failures[:3]:
        print(f"  {type(failure).__name__}: {failure}")
    print(
        f"stalled tables           {stalled} (no client action in the last {STALL_SECONDS:.0f} s)"
    )
    print(f"table statuses at end    {dict(statuses)}")
    clean = errors == 0 and not failures and stalled == 0 and stats.actions > 0
    for issue, tables, p99_target in TARGETS:
        met = clean and args.tables >= tables and p99 < p99_target
        print(
            f"target, issue {issue} ({tables:,} concurrent tables, p99 < "
            f"{p99_target * 1000:.0f} ms, no errors, no stalled table): "
            f"{'met' if met else 'NOT MET'}"
        )
    return 0


def event_loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop when it is installed (uvicorn[standard] brings it), else asyncio's."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


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
        "--database-url", default=None, help="an empty database (default: SQLite in a temp dir)"
    )
    parser.add_argument("--port", type=int, default=0, help="server port (a free one)")
    parser.add_argument(
        "--profile-server", default=None, help="write the server's cProfile stats to this file"
    )
    parser.add_argument(
        "--collector-interval",
        type=interval,
        default=DEFAULT_COLLECTOR_INTERVAL,
        help="seconds between the server's freezes of the garbage collector, or 'none' to "
        f"leave the collector as Python runs it ({DEFAULT_COLLECTOR_INTERVAL})",
    )
    parser.add_argument("--pauses-file", default=None, help=argparse.SUPPRESS)
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
        )
        return
    if args.clients < 1:
        parser.error("--clients must be at least 1")
    args.think = args.think_ms / 1000
    port = args.port or free_port()
    print(f"load average {os.getloadavg()[0]:.2f} at start, {os.cpu_count()} CPUs", flush=True)
    with tempfile.TemporaryDirectory(prefix="bench_server-") as scratch:
        os.environ.setdefault("ITALIAN_POKER_DATA_DIR", scratch)
        database_url = args.database_url or f"sqlite:///{scratch}/bench.sqlite3"
        print(f"database {database_url.split('@')[-1]}", flush=True)
        pauses_file = f"{scratch}/pauses.json"
        with (
            server_process(
                port,
                database_url,
                args.next_deal_ms / 1000,
                args.collector_interval,
                pauses_file,
                args.profile_server,
            ) as child,
            asyncio.Runner(loop_factory=event_loop_factory()) as runner,
        ):
            status = runner.run(run(args, f"http://{HOST}:{port}", child))
        report_pauses(args.collector_interval, Path(pauses_file), args.window)
    sys.exit(status)


def interval(text: str) -> float | None:
    """``--collector-interval``: seconds, or ``none``."""
    return None if text.lower() == "none" else float(text)


def report_pauses(
    collector_interval: float | None, pauses_file: Path, window: tuple[float, float]
) -> None:
    """The server's garbage-collector pauses, from start-up to shutdown (its child wrote them
    on the way out), and those of the measured ``window`` (``time.time()`` seconds)."""
    try:
        pauses = json.loads(pauses_file.read_text())
    except (OSError, ValueError):
        print("collector pauses         not reported (the server did not stop cleanly)")
        return
    managed = (
        "left as Python runs it"
        if collector_interval is None
        else f"frozen every {collector_interval:g} s at most"
    )
    print(
        f"collector pauses         longest {pauses['longest'] * 1000:.1f} ms, "
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
        f"{TARGET_PAUSE_SECONDS * 1000:.0f} ms, longest {longest * 1000:.1f} ms"
        + (f"; first ones: {worst}" if measured else "")
    )
    print(
        f"frozen objects           {pauses['frozen']:,} at the last freeze; "
        f"{pauses['garbage_at_stop']:,} unreachable found after the server stopped, most: "
        + ", ".join(f"{kind} {count:,}" for kind, count in pauses["garbage_kinds"])
    )
    met = longest < TARGET_PAUSE_SECONDS
    print(
        f"target, issue 12 (no collector pause over {TARGET_PAUSE_SECONDS * 1000:.0f} ms "
        f"while measured): {'met' if met else 'NOT MET'}"
    )


if __name__ == "__main__":
    main()
