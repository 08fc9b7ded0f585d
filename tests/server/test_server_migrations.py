"""The Alembic migrations: a database made by an older revision upgrades to the current schema
with its rows kept (on SQLite and, when configured, PostgreSQL), and several processes
started at once on an empty PostgreSQL database all migrate it."""

from __future__ import annotations

import subprocess
import sys

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, inspect, text

from italian_poker.server.database import MIGRATIONS, make_engine, upgrade
from italian_poker.server.models import Base

pytestmark = pytest.mark.every_database

OLD_TABLE = (
    "INSERT INTO tables (id, invite_hash, name, rules, options, host_token_hash, status, created)"
    " VALUES (1, 'i', 'Old table', '{}', '{}', 'h', 'lobby', CURRENT_TIMESTAMP)"
)


def _config() -> Config:
    """The migrations' Alembic configuration (as ``upgrade`` builds it)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def _database_at(database_url: str, revision: str, *rows: str) -> Engine:
    """A database migrated up to ``revision`` only, holding table 1 and ``rows`` (SQL
    inserts), then upgraded to the current schema."""
    engine = make_engine(database_url)
    config = _config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
        for statement in (OLD_TABLE, *rows):
            connection.execute(text(statement))
    upgrade(engine)
    return engine


def test_a_0001_database_upgrades_and_keeps_its_seats(database_url: str) -> None:
    engine = _database_at(
        database_url,
        "0001",
        "INSERT INTO seats (table_id, seat, nickname, sitting_out, connected_at)"
        " VALUES (1, 0, 'Anna', false, CURRENT_TIMESTAMP)",
    )
    # 0002: seats.connected_at, never used, is dropped.
    columns = {c["name"] for c in inspect(engine).get_columns("seats")}
    assert "connected_at" not in columns
    with engine.connect() as connection:
        rows = connection.execute(text("SELECT table_id, seat, nickname FROM seats")).all()
    assert [tuple(r) for r in rows] == [(1, 0, "Anna")]
    engine.dispose()


def test_a_0002_ledger_upgrades_with_its_rows_kept_and_no_player(database_url: str) -> None:
    """0003 adds ``ledger.player``; the rows written before keep their nickname and amount,
    and say nothing of whose they were (they knew the nickname only)."""
    engine = _database_at(
        database_url,
        "0002",
        "INSERT INTO ledger (table_id, nickname, kind, amount, hand, created)"
        " VALUES (1, 'Anna', 'buy_in', 100, NULL, CURRENT_TIMESTAMP)",
    )
    assert "player" in {c["name"] for c in inspect(engine).get_columns("ledger")}
    with engine.connect() as connection:
        rows = connection.execute(text("SELECT nickname, player, kind, amount FROM ledger")).all()
    assert [tuple(r) for r in rows] == [("Anna", None, "buy_in", 100)]
    engine.dispose()


def test_a_0003_database_upgrades_with_every_table_at_fence_0(database_url: str) -> None:
    """0004 adds ``tables.fence`` (issue 12's table leases): the tables already there keep
    their rows and have fence 0, as no lease has written to them."""
    engine = _database_at(
        database_url,
        "0003",
        "INSERT INTO table_events (table_id, seq, kind, payload, created)"
        " VALUES (1, 1, 'seat', '{}', CURRENT_TIMESTAMP)",
    )
    fence = next(c for c in inspect(engine).get_columns("tables") if c["name"] == "fence")
    assert not fence["nullable"]
    with engine.connect() as connection:
        tables = connection.execute(text("SELECT id, name, status, fence FROM tables")).all()
        events = connection.execute(text("SELECT table_id, seq, kind FROM table_events")).all()
    assert [tuple(r) for r in tables] == [(1, "Old table", "lobby", 0)]
    assert [tuple(r) for r in events] == [(1, 1, "seat")]
    engine.dispose()


def test_a_0004_database_upgrades_with_no_chat_and_no_watch_link(database_url: str) -> None:
    """0005 adds ``chat_messages`` (empty) and 0006 ``tables.watch_hash`` (empty: no table
    had a watch link), the tables already there keeping their rows."""
    engine = _database_at(database_url, "0004")
    columns = {c["name"]: c for c in inspect(engine).get_columns("tables")}
    assert columns["watch_hash"]["nullable"]
    with engine.connect() as connection:
        tables = connection.execute(text("SELECT id, name, watch_hash FROM tables")).all()
        chat = connection.execute(text("SELECT COUNT(*) FROM chat_messages")).scalar_one()
    assert [tuple(r) for r in tables] == [(1, "Old table", None)]
    assert chat == 0
    engine.dispose()


def test_a_0006_database_upgrades_with_its_tables_in_use_since_created(
    database_url: str,
) -> None:
    """0007 adds ``tables.active`` (the last use, from ``created`` for the tables already
    there: the expiry counts from it), ``expired``, ``keep_until`` and the turn kept by an
    unloaded table (all empty), and ``hand_archives`` (empty)."""
    engine = _database_at(database_url, "0006")
    with engine.connect() as connection:
        tables = connection.execute(
            text(
                "SELECT id, active = created, expired, keep_until, kept_since, kept_elapsed"
                " FROM tables"
            )
        ).all()
        archived = connection.execute(text("SELECT COUNT(*) FROM hand_archives")).scalar_one()
    assert [tuple(r) for r in tables] == [(1, True, None, None, None, None)]
    assert archived == 0
    engine.dispose()


def test_the_migrations_make_the_schema_the_models_describe(database_url: str) -> None:
    """Alembic finds nothing to add or drop between the migrated database and
    ``server/models.py``: a model changed without its migration fails here."""
    engine = make_engine(database_url)
    upgrade(engine)
    with engine.connect() as connection:
        context = MigrationContext.configure(connection)
        differences = compare_metadata(context, Base.metadata)
    assert differences == []
    engine.dispose()


MIGRATING_PROCESSES = 4
MIGRATE = """
import sys
from italian_poker.server.database import make_engine, upgrade
engine = make_engine(sys.argv[1])
print("ready", flush=True)
sys.stdin.readline()
upgrade(engine)
engine.dispose()
"""
"""A process that migrates the database at ``argv[1]`` once its standard input says go."""


def test_processes_started_at_once_on_an_empty_postgresql_all_migrate(
    empty_postgres_database: str,
) -> None:
    """Several servers started at the same moment on one empty PostgreSQL database (the
    replicas of a cluster) all start: the migrations run once, behind an advisory lock,
    and the others find the schema at the head."""
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", MIGRATE, empty_postgres_database],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(MIGRATING_PROCESSES)
    ]
    try:
        for process in processes:  # every one imported and connected: then all go at once
            assert process.stdout is not None and process.stdout.readline() == "ready\n"
        for process in processes:
            assert process.stdin is not None
            process.stdin.write("go\n")
            process.stdin.flush()
        errors = [process.communicate(timeout=120)[1] for process in processes]
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()
    failed = [
        error for process, error in zip(processes, errors, strict=True) if process.returncode != 0
    ]
    assert failed == [], "\n".join(failed)
    engine = make_engine(empty_postgres_database)
    with engine.connect() as connection:
        versions = connection.execute(text("SELECT version_num FROM alembic_version")).all()
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    engine.dispose()
    head = ScriptDirectory.from_config(_config()).get_current_head()
    assert [tuple(v) for v in versions] == [(head,)]
    assert differences == []
