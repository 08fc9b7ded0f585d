"""Shared configuration for every test: the server fixtures (databases, app, clients), a
real Redis (``redis_fixtures``: skipped without ``redis-server``), the ``soak`` marker (long
runs, skipped unless ``ITALIAN_POKER_SOAK=1``, which CI sets), and a line per reason at the
end of a run that skipped tests (``N skipped: reason``), so that a run without PostgreSQL,
Redis, Chromium or the soak says what it left out and how to run it."""

from __future__ import annotations

import os
from collections import Counter

import pytest

pytest_plugins = ["server_fixtures", "redis_fixtures"]

SOAK = "ITALIAN_POKER_SOAK"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", f"soak: a long run, skipped unless {SOAK}=1 (CI sets it)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Skip the soak tests, saying how to run them, unless ``ITALIAN_POKER_SOAK=1``."""
    if os.environ.get(SOAK) == "1":
        return
    skip = pytest.mark.skip(reason=f"a soak test: set {SOAK}=1 to run it (CI does)")
    for item in items:
        if item.get_closest_marker("soak") is not None:
            item.add_marker(skip)


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
