"""Simulation split into matches: played in this process, in local worker processes or on a
Ray cluster, with the same report for a seed whichever way.

The deals are cut into matches of :data:`MATCH_DEALS` deals (the last one shorter). Each match
is a :func:`~italian_poker.analysis.simulation.simulate` of its own: every seat starts it with
the starting stack, and stacks and rebuys carry over only within it. Match ``i`` is seeded by
:func:`match_seed` from the master seed and ``i`` alone, never from the number of workers, so
the cut and every match's deals are the same for any ``workers`` and on Ray. The merged report
adds the matches' integers (chips, rebuys, carried chips, counts) in match order: exact. Only
``elapsed_seconds`` and ``hands_per_second`` (:data:`TIMING_KEYS`) depend on how it ran.
"""

from __future__ import annotations

import hashlib
import logging
import multiprocessing
import secrets
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TypeVar

from italian_poker.analysis.bots import BotLevel
from italian_poker.analysis.simulation import (
    DEFAULT_STACK,
    DealCounts,
    SimulationReport,
    seat_levels,
    simulate,
)
from italian_poker.engine.rules import Rules

MATCH_DEALS = 250
"""Deals per match: the unit of work a worker plays (and the length of a duplicate match in
:func:`~italian_poker.analysis.simulation.head_to_head`)."""

TIMING_KEYS: tuple[str, ...] = ("elapsed_seconds", "hands_per_second")
"""The members of ``SimulationReport.to_dict()`` that depend on the machine and the number of
workers; everything else is the same for a seed."""

Task = TypeVar("Task")
Result = TypeVar("Result")

RAY_EXTRA = "pip install 'italian-poker[ray]'"
"""What to install for ``ray_address``."""

RAY_CONNECT_SECONDS = 5.0
"""How long to wait for a Ray cluster's address to answer before saying it is unreachable."""


class RayUnavailableError(RuntimeError):
    """Ray was asked for but is not installed, or its cluster cannot be reached."""


@dataclass(frozen=True, slots=True)
class MatchTask:
    """One match to play: everything a worker needs, small enough to send to it."""

    index: int
    hands: int
    players: int
    seed: int
    rules: Rules | None
    stack: int
    bots: tuple[str, ...]


def match_seed(seed: int, index: int) -> int:
    """The seed of match ``index`` of a run seeded ``seed``.

    Match 0 is played with ``seed`` itself, so a run of at most :data:`MATCH_DEALS` deals is
    the single match :func:`simulate` plays for that seed; later matches hash the pair.
    """
    if index == 0:
        return seed
    digest = hashlib.sha256(f"italian-poker simulate {seed} {index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def plan(
    hands: int,
    players: int,
    seed: int,
    rules: Rules | None = None,
    *,
    stack: int = DEFAULT_STACK,
    bots: Sequence[str] = (BotLevel.SIMPLE.value,),
    match_deals: int = MATCH_DEALS,
) -> tuple[MatchTask, ...]:
    """The matches ``hands`` deals are cut into, in order (none for 0 deals)."""
    if isinstance(match_deals, bool) or not isinstance(match_deals, int) or match_deals < 1:
        raise ValueError(f"a match has at least 1 deal, got {match_deals!r}")
    levels = tuple(str(level) for level in bots)
    return tuple(
        MatchTask(
            index=index,
            hands=min(match_deals, hands - start),
            players=players,
            seed=match_seed(seed, index),
            rules=rules,
            stack=stack,
            bots=levels,
        )
        for index, start in enumerate(range(0, hands, match_deals))
    )


def play_match(task: MatchTask) -> SimulationReport:
    """Play one match (what a worker process or Ray task runs)."""
    return simulate(
        task.hands, task.players, task.seed, task.rules, stack=task.stack, bots=list(task.bots)
    )


def merge(
    reports: Sequence[SimulationReport], *, seed: int | None, elapsed_seconds: float
) -> SimulationReport:
    """One report for the matches ``reports`` (in match order): integers added exactly."""
    first = reports[0]
    names = list(first.chips_start)

    def total(member: Callable[[SimulationReport], dict[str, int]]) -> dict[str, int]:
        return {name: sum(member(report)[name] for report in reports) for name in names}

    counts = {key: sum(getattr(r.counts, key) for r in reports) for key in asdict(first.counts)}
    return SimulationReport(
        rules=first.rules,
        players=first.players,
        policy=first.policy,
        seed=seed,
        hands=sum(r.hands for r in reports),
        elapsed_seconds=elapsed_seconds,
        chips_start=total(lambda r: r.chips_start),
        chips_end=total(lambda r: r.chips_end),
        rebuys=total(lambda r: r.rebuys),
        carried=sum(r.carried for r in reports),
        counts=DealCounts(**counts),
        unbalanced_deals=sum(r.unbalanced_deals for r in reports),
        bots=dict(first.bots),
        matches=sum(r.matches for r in reports),
    )


def simulate_matches(
    hands: int,
    players: int,
    seed: int | None = None,
    rules: Rules | None = None,
    *,
    stack: int = DEFAULT_STACK,
    bots: BotLevel | str | Sequence[BotLevel | str] = BotLevel.SIMPLE,
    workers: int = 1,
    ray_address: str | None = None,
    match_deals: int = MATCH_DEALS,
) -> SimulationReport:
    """Play ``hands`` deals as matches of ``match_deals`` and merge them into one report.

    ``workers`` local processes play the matches (1: this process); with ``ray_address``
    (``host:port``, ``ray://host:port`` or ``auto``) the tasks of a Ray cluster play them
    instead. The report for a ``seed`` is the same either way but for :data:`TIMING_KEYS`;
    without a seed a random one is drawn (and the report says ``seed: null``). Raises
    :class:`ValueError` on bad input, :class:`RayUnavailableError` when Ray cannot run.
    """
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"the number of workers must be 1 or more, got {workers!r}")
    # The checks simulate makes, before any process starts: a 0-deal run of the same table.
    empty = simulate(0, players, seed, rules, stack=stack, bots=bots)
    levels = [level.value for level in seat_levels(bots, players)]
    master = seed if seed is not None else secrets.randbits(63)
    tasks = plan(hands, players, master, rules, stack=stack, bots=levels, match_deals=match_deals)
    began = time.perf_counter()
    if not tasks:
        reports: list[SimulationReport] = []
    elif ray_address is not None:
        reports = _on_ray(tasks, ray_address)
    elif workers == 1 or len(tasks) == 1:
        reports = [play_match(task) for task in tasks]
    else:
        reports = list(_on_processes(tasks, workers))
    elapsed = time.perf_counter() - began
    if not reports:
        return empty
    return merge(reports, seed=seed, elapsed_seconds=elapsed)


def map_on_processes(
    function: Callable[[Task], Result], tasks: Sequence[Task], workers: int
) -> Iterator[Result]:
    """``function`` of every task, computed by up to ``workers`` new processes, in task order.

    On Linux, from a process running a single thread, the workers are forked: they start at
    once, sharing the caller's pages copy-on-write (nothing is pickled to them but their
    tasks). Elsewhere, or when threads run (which forking would leave in an undefined state),
    they are spawned: fresh interpreters importing only what ``function`` needs. The results
    do not depend on which, so long as each task carries its own seed.
    """
    fork = sys.platform == "linux" and threading.active_count() == 1
    context = multiprocessing.get_context("fork" if fork else "spawn")
    with ProcessPoolExecutor(max_workers=min(workers, len(tasks)), mp_context=context) as pool:
        yield from pool.map(function, tasks)


def _on_processes(tasks: Sequence[MatchTask], workers: int) -> Iterator[SimulationReport]:
    """The matches played by up to ``workers`` new processes (:func:`map_on_processes`), in
    match order; every match is seeded from its task."""
    return map_on_processes(play_match, tasks, workers)


def _on_ray(tasks: Sequence[MatchTask], address: str) -> list[SimulationReport]:
    """The matches played as tasks of the Ray cluster at ``address``, in match order.

    The cluster's workers receive this process's ``italian_poker`` package with the job, so
    they play exactly this version's games whatever is installed on the nodes. A Ray session
    this process already opened is used as it is (and left open).
    """
    try:
        import ray
    except ImportError:
        raise RayUnavailableError(f"--ray needs the optional Ray support: {RAY_EXTRA}") from None
    package = Path(__file__).resolve().parent.parent  # the italian_poker folder

    _check_reachable(address)
    started_here = not ray.is_initialized()
    if started_here:
        try:
            ray.init(
                address=address,
                runtime_env={"py_modules": [str(package)]},
                logging_level=logging.ERROR,
                log_to_driver=False,
            )
        except (ConnectionError, RuntimeError, ValueError) as error:
            raise RayUnavailableError(
                f"--ray: cannot join the Ray cluster at {address}: {error} (a cluster with "
                "token authentication, Ray's default, needs RAY_AUTH_MODE=token here too and "
                "the cluster's token, in RAY_AUTH_TOKEN or ~/.ray/auth_token)"
            ) from None
    try:
        remote = ray.remote(play_match)
        results: list[SimulationReport] = ray.get([remote.remote(task) for task in tasks])
        return results
    finally:
        if started_here:
            ray.shutdown()


def _check_reachable(address: str) -> None:
    """Raise :class:`RayUnavailableError` unless ``host:port`` in ``address`` accepts a
    connection within :data:`RAY_CONNECT_SECONDS` (``auto`` is left to Ray)."""
    if address == "auto":
        return
    hostport = address.removeprefix("ray://")
    host, sep, port = hostport.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise RayUnavailableError(
            f"--ray: give the cluster's address as host:port, ray://host:port or auto, "
            f"got {address!r}"
        )
    try:
        with socket.create_connection((host.strip("[]"), int(port)), RAY_CONNECT_SECONDS):
            pass
    except OSError as error:
        raise RayUnavailableError(
            f"--ray: nothing answers at {hostport} ({error.strerror or error}); start the "
            "cluster's head with `ray start --head` and give the address it prints"
        ) from None


def report_without_timing(report: SimulationReport) -> dict[str, Any]:
    """``report.to_dict()`` without :data:`TIMING_KEYS`: what is the same for a seed."""
    data = report.to_dict()
    for key in TIMING_KEYS:
        del data[key]
    return data
