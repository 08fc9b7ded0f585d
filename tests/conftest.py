"""Shared configuration for every test: the server fixtures (databases, app, clients), and a
line per reason at the end of a run that skipped tests (``N skipped: reason``), so that a run
without PostgreSQL or Chromium says what it left out and how to run it."""

from __future__ import annotations

from collections import Counter

import pytest

pytest_plugins = ["server_fixtures"]


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
