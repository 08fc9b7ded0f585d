"""Shared configuration for every test: the server fixtures (databases, app, clients), a
real Redis (``redis_fixtures``: skipped without ``redis-server``), the ``soak`` marker (long
runs, skipped unless ``ITALIAN_POKER_SOAK=1``, which CI sets; a soak test marked
``background(code)`` has its ``code`` run in a subprocess from the start of the session, on
the machine's other core, and runs last to check what it printed: ``background_output``; under
pytest-xdist, where the workers already fill the cores, the soak tests run first (a long
test started last would keep one worker busy alone) and a ``background`` test runs its code
when it starts), and a line per reason at
the end of a run that skipped tests (``N skipped: reason``), so that a run without PostgreSQL,
Redis, Chromium or the soak says what it left out and how to run it."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter

import pytest

pytest_plugins = ["server_fixtures", "redis_fixtures"]

SOAK = "ITALIAN_POKER_SOAK"


def _under_xdist() -> bool:
    """Whether this process is a pytest-xdist worker."""
    return "PYTEST_XDIST_WORKER" in os.environ


def _start(code: str) -> subprocess.Popen[str]:
    """Run ``code`` in a Python subprocess, its output kept for ``background_output``."""
    return subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


BACKGROUND: dict[str, subprocess.Popen[str]] = {}
"""The subprocesses of the collected ``background`` soak tests, by test id."""


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", f"soak: a long run, skipped unless {SOAK}=1 (CI sets it)")
    config.addinivalue_line(
        "markers",
        "background(code): with soak, the Python code runs in a subprocess from the start of "
        "the session and the test runs last, reading its output (background_output)",
    )


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Skip the soak tests, saying how to run them, unless ``ITALIAN_POKER_SOAK=1``; with
    it, put the ``background`` tests last (their work runs meanwhile), or, under xdist,
    every soak test first (a long test started last would keep one worker busy alone)."""
    if os.environ.get(SOAK) == "1":
        if _under_xdist():
            items.sort(key=lambda item: item.get_closest_marker("soak") is None)
        else:
            items.sort(key=lambda item: item.get_closest_marker("background") is not None)
        return
    skip = pytest.mark.skip(reason=f"a soak test: set {SOAK}=1 to run it (CI does)")
    for item in items:
        if item.get_closest_marker("soak") is not None:
            item.add_marker(skip)


def pytest_collection_finish(session: pytest.Session) -> None:
    """With soak, start the code of every selected ``background`` test in a subprocess
    (not under xdist: every worker collects every test, and the test starts its own)."""
    if os.environ.get(SOAK) != "1" or _under_xdist():
        return
    for item in session.items:
        marker = item.get_closest_marker("background")
        if marker is not None:
            BACKGROUND[item.nodeid] = _start(marker.args[0])


def pytest_sessionfinish() -> None:
    """Stop the background runs no test waited for (an interrupted session)."""
    for process in BACKGROUND.values():
        if process.poll() is None:
            process.kill()
            process.wait()


@pytest.fixture
def background_output(request: pytest.FixtureRequest) -> str:
    """What the test's ``background`` code printed, once it has ended (it must succeed)."""
    process = BACKGROUND.get(request.node.nodeid)
    marker = request.node.get_closest_marker("background")
    if process is None and _under_xdist() and marker is not None:
        process = BACKGROUND[request.node.nodeid] = _start(marker.args[0])
    if process is None:
        pytest.fail("no background run for this test: is it marked soak and background?")
    out, err = process.communicate(timeout=1800)
    assert process.returncode == 0, f"the background run failed:\n{err}"
    return out


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """How many tests were skipped for each reason (``-rs`` lists them one by one)."""
    reasons: Counter[str] = Counter()
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = getattr(report, "longrepr", None)
        if isinstance(longrepr, tuple) and len(longrepr) == 3:
            reasons[str(longrepr[2]).removeprefix("Skipped: ")] += 1
    if not reasons:
        return
    terminalreporter.section("skipped", sep="-")
    for reason, count in reasons.most_common():
        terminalreporter.line(f"{count} skipped: {reason}")
