"""Simulation cut into matches: the same report for a seed with any number of local workers
and on a Ray cluster (issue 15); exact merging; the errors of ``--workers`` and ``--ray``."""

from __future__ import annotations

import importlib.util
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

import italian_poker
from italian_poker import preset
from italian_poker.analysis import parallel
from italian_poker.analysis.parallel import (
    MATCH_DEALS,
    TIMING_KEYS,
    RayUnavailableError,
    match_seed,
    merge,
    plan,
    report_without_timing,
    simulate_matches,
)
from italian_poker.analysis.simulation import simulate
from italian_poker.cli.app import app

HAS_RAY = importlib.util.find_spec("ray") is not None
REQUIRE_RAY = os.environ.get("ITALIAN_POKER_REQUIRE_RAY") == "1"


def needs_ray() -> None:
    """Skip the test without the ray extra, saying how to install it; fail it instead where
    Ray is required (``ITALIAN_POKER_REQUIRE_RAY=1``, as CI sets)."""
    if HAS_RAY:
        return
    if REQUIRE_RAY:
        pytest.fail("ITALIAN_POKER_REQUIRE_RAY=1 but the ray extra is not installed")
    pytest.skip("the ray extra is not installed (pip install 'italian-poker[ray]')")


def without_timing(data: dict[str, object]) -> dict[str, object]:
    return {key: value for key, value in data.items() if key not in TIMING_KEYS}


def test_plan_cuts_fixed_matches_whatever_the_workers() -> None:
    tasks = plan(600, 4, 9)
    assert [t.hands for t in tasks] == [250, 250, 100]
    assert [t.index for t in tasks] == [0, 1, 2]
    assert tasks[0].seed == 9  # match 0 is the single-process run of the seed
    assert len({t.seed for t in tasks}) == 3
    assert match_seed(9, 1) == plan(300, 4, 9)[1].seed
    assert plan(0, 4, 9) == ()


def test_up_to_one_match_is_the_single_match_simulation() -> None:
    """At most MATCH_DEALS deals: the report of the earlier single-match simulate."""
    single = simulate(MATCH_DEALS, 4, seed=5, bots="random", stack=40)
    chunked = simulate_matches(MATCH_DEALS, 4, seed=5, bots="random", stack=40, workers=2)
    assert report_without_timing(chunked) == report_without_timing(single)


def test_merge_adds_the_matches_exactly() -> None:
    rules = preset("003", players=5)
    tasks = plan(700, 5, 3, rules, stack=30, bots=["random"])
    reports = [parallel.play_match(task) for task in tasks]
    merged = merge(reports, seed=3, elapsed_seconds=1.0)
    assert merged.hands == 700 and merged.matches == 3
    for name in merged.chips_start:
        assert merged.chips_start[name] == 3 * 30
        assert merged.net[name] == sum(r.net[name] for r in reports)
        assert merged.rebuys[name] == sum(r.rebuys[name] for r in reports)
    assert merged.counts.actions == sum(r.counts.actions for r in reports)
    assert merged.carried == sum(r.carried for r in reports)
    assert merged.conserved
    assert merged.hands_per_second == 700.0


@pytest.mark.parametrize("workers", [2, 3])
def test_same_report_for_any_number_of_workers(workers: int) -> None:
    rules = preset("fantini", players=5)
    kwargs = {"rules": rules, "stack": 40, "bots": ["strong", "simple", "random"] + ["simple"] * 2}
    one = simulate_matches(900, 5, 21, workers=1, **kwargs)  # type: ignore[arg-type]
    many = simulate_matches(900, 5, 21, workers=workers, **kwargs)  # type: ignore[arg-type]
    assert report_without_timing(many) == report_without_timing(one)
    assert one.matches == 4 and one.hands == 900 and one.conserved
    other = simulate_matches(900, 5, 22, workers=workers, **kwargs)  # type: ignore[arg-type]
    assert report_without_timing(other) != report_without_timing(one)


def test_spawned_workers_give_the_same_report() -> None:
    """With a second thread running, the workers are spawned, not forked: same report."""
    stop = threading.Event()
    waiter = threading.Thread(target=stop.wait)
    waiter.start()
    try:
        spawned = simulate_matches(600, 3, 8, bots="random", workers=2)
    finally:
        stop.set()
        waiter.join()
    alone = simulate_matches(600, 3, 8, bots="random", workers=1)
    assert report_without_timing(spawned) == report_without_timing(alone)


def test_cli_report_is_the_same_with_two_workers() -> None:
    runner = CliRunner()
    args = ["simulate", "--hands", "600", "--players", "3", "--seed", "4"]
    one = runner.invoke(app, args)
    two = runner.invoke(app, [*args, "--workers", "2"])
    assert one.exit_code == 0 and two.exit_code == 0, (one.output, two.output)
    first, second = json.loads(one.output), json.loads(two.output)
    assert without_timing(first) == without_timing(second)
    assert first["matches"] == 3 and first["chips"]["start"]["P1"] == 300


@pytest.mark.parametrize("workers", ["0", "-2"])
def test_cli_refuses_no_workers(workers: str) -> None:
    result = CliRunner().invoke(app, ["simulate", "--workers", workers])
    assert result.exit_code == 2
    assert f"error: --workers must be 1 or more, got {workers}" in result.output


def test_library_refuses_no_workers() -> None:
    with pytest.raises(ValueError, match="workers must be 1 or more, got 0"):
        simulate_matches(10, 4, seed=1, workers=0)


def test_bad_table_is_refused_before_any_worker_starts() -> None:
    with pytest.raises(ValueError, match="4 seats, 2 levels"):
        simulate_matches(1000, 4, seed=1, bots=["strong", "simple"], workers=2)


def test_ray_missing_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without Ray installed, --ray says which extra to install (simulated by hiding it)."""
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    result = CliRunner().invoke(app, ["simulate", "--hands", "10", "--ray", "127.0.0.1:1"])
    assert result.exit_code == 2
    assert "pip install 'italian-poker[ray]'" in result.output


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.mark.parametrize("address", ["127.0.0.1:{port}", "ray:/x", "nowhere"])
def test_ray_unreachable_or_malformed_address(address: str) -> None:
    needs_ray()
    address = address.format(port=free_port())  # a port nobody listens on
    with pytest.raises(RayUnavailableError, match="--ray: "):
        simulate_matches(10, 4, seed=1, ray_address=address)
    result = CliRunner().invoke(app, ["simulate", "--hands", "10", "--ray", address])
    assert result.exit_code == 2 and "error: --ray: " in result.output


WITHOUT_RAY = "import sys; sys.modules['ray'] = None; import pytest; sys.exit(pytest.main())"
"""pytest (its arguments after ``-c``) as on a machine without Ray: no ``ray`` is found."""


def test_the_ray_tests_fail_without_ray_where_it_is_required() -> None:
    """With ``ITALIAN_POKER_REQUIRE_RAY=1`` (CI) a missing ray extra fails the Ray tests, as
    every optional world's tests fail there, instead of skipping them."""
    env = {**os.environ, "ITALIAN_POKER_REQUIRE_RAY": "1"}
    env.pop("PYTEST_ADDOPTS", None)
    test = f"{Path(__file__).name}::test_ray_unreachable_or_malformed_address"
    run = subprocess.run(
        # One line per failure and no summary: the same output in CI and on a terminal.
        [sys.executable, "-c", WITHOUT_RAY, "-p", "no:cacheprovider", "--tb=line", "-rN", test],
        cwd=Path(__file__).parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    failed = "Failed: ITALIAN_POKER_REQUIRE_RAY=1 but the ray extra is not installed"
    # ``--tb=line`` writes ``path:line: Failed: ...`` once per failing test: one per address.
    assert run.stdout.count(f": {failed}") == 3, run.stdout


RAY_TOKEN_ENV = {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": secrets.token_hex(32)}


@pytest.fixture(scope="module")
def ray_head() -> Iterator[str]:
    """A local Ray cluster head (``ray start --head --block``) of 2 CPUs, stopped after."""
    needs_ray()
    ray_cli = Path(sys.executable).with_name("ray")
    port = free_port()
    # A short folder: Ray's Unix sockets live in it (their paths are limited to 107 bytes).
    temp = tempfile.mkdtemp(prefix="ipray")
    # Ray's default token authentication: `ray start` does not make a token (Ray 2.60), it reads
    # one; a fresh machine has none in ~/.ray, so the head and the driver share this one.
    env = {**os.environ, **RAY_TOKEN_ENV}
    log_path = Path(temp) / "head.log"
    log = log_path.open("wb")
    head = subprocess.Popen(
        [
            str(ray_cli),
            "start",
            "--head",
            "--block",
            "--node-ip-address=127.0.0.1",
            f"--port={port}",
            "--num-cpus=2",
            "--include-dashboard=false",
            "--disable-usage-stats",
            f"--temp-dir={temp}",
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), 1).close()
                break
            except OSError:
                if head.poll() is not None or time.monotonic() > deadline:
                    said = log_path.read_text(errors="replace")[-2000:]
                    pytest.fail(f"ray start --head did not come up (exit {head.poll()}):\n{said}")
                time.sleep(0.2)
        yield f"127.0.0.1:{port}"
    finally:
        head.terminate()  # --block: the head stops the processes it started
        try:
            head.wait(30)
        except subprocess.TimeoutExpired:
            head.kill()
            head.wait()
        log.close()
        shutil.rmtree(temp, ignore_errors=True)


def test_ray_cluster_gives_the_local_report(ray_head: str) -> None:
    """The command, run as its own process against the cluster, prints the local report."""
    args = ["simulate", "--hands", "800", "--players", "4", "--seed", "12", "--bots", "strong"]
    local = CliRunner().invoke(app, args)
    assert local.exit_code == 0, local.output
    source = Path(italian_poker.__file__).resolve().parents[1]
    # Ray reads RAY_AUTH_MODE and the token when it loads: the driver is a fresh process.
    env = {**os.environ, **RAY_TOKEN_ENV, "PYTHONPATH": str(source)}
    command = [sys.executable, "-c", "from italian_poker.cli.app import main; main()", *args]
    on_ray = subprocess.run(
        [*command, "--ray", ray_head],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert on_ray.returncode == 0, on_ray.stderr[-2000:]
    assert without_timing(json.loads(on_ray.stdout)) == without_timing(json.loads(local.output))
