"""Without a PostgreSQL URL the PostgreSQL runs of the server tests (those marked
``every_database``) are reported as skipped, with the reason, as the README says; with
``ITALIAN_POKER_REQUIRE_POSTGRES=1`` (CI) a missing URL fails them instead. The other server
tests run once, on SQLite."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from server_fixtures import POSTGRES_VARIABLE, REQUIRE_VARIABLE

ROOT = Path(__file__).resolve().parents[2]
MIGRATIONS = (
    "tests/server/test_server_migrations.py::test_a_0001_database_upgrades_and_keeps_its_seats"
)
SQLITE_ONLY = "tests/server/test_server_api.py::test_create_table_gives_long_invite_and_tokens"
SKIP_REASON = "set ITALIAN_POKER_TEST_POSTGRES_URL to run against PostgreSQL"


def _pytest(*tests: str, **environ: str) -> subprocess.CompletedProcess[str]:
    """One migration test (once per backend), and ``tests``, in a pytest of its own."""
    env = {k: v for k, v in os.environ.items() if k not in (POSTGRES_VARIABLE, REQUIRE_VARIABLE)}
    env.pop("PYTEST_ADDOPTS", None)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", MIGRATIONS, *tests],
        cwd=ROOT,
        env=env | environ,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_postgres_runs_are_reported_as_skipped_with_the_reason_without_the_url() -> None:
    run = _pytest(SQLITE_ONLY)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "2 passed, 1 skipped" in run.stdout, run.stdout  # a test not marked: once
    assert f"1 skipped: {SKIP_REASON}" in run.stdout.splitlines(), run.stdout


def test_postgres_runs_fail_without_the_url_when_required() -> None:
    run = _pytest(**{REQUIRE_VARIABLE: "1"})
    assert run.returncode == 1, run.stdout
    assert "1 passed, 1 error" in run.stdout, run.stdout  # the fixture fails: an error
    assert f"{REQUIRE_VARIABLE}=1 but {POSTGRES_VARIABLE} is not set" in run.stdout
