"""Database engine and sessions for SQLite and PostgreSQL, and the migrations at startup."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

MIGRATIONS = Path(__file__).parent / "migrations"
MIGRATION_LOCK = int.from_bytes(b"ipmigrat", "big")
"""The PostgreSQL advisory lock key that serialises the migrations of the processes sharing a
database (a signed 64-bit integer, as ``pg_advisory_xact_lock`` takes)."""


def normalise_url(url: str) -> str:
    """``postgresql://`` (and ``postgres://``) use the psycopg 3 driver."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def make_engine(url: str) -> Engine:
    """An engine for ``url``; a SQLite file's folder is created, and SQLite runs in WAL mode
    with foreign keys on."""
    url = normalise_url(url)
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database
        if database and database != ":memory:":
            Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


def session_factory(engine: Engine) -> sessionmaker[Session]:
    """Sessions that keep objects readable after commit."""
    return sessionmaker(engine, expire_on_commit=False)


def upgrade(engine: Engine) -> None:
    """Apply every Alembic migration (no alembic.ini: the configuration is built here), in one
    transaction; on PostgreSQL behind a transaction-level advisory lock taken on alembic's own
    connection, so that processes started at once on one database migrate it one after the
    other (the first migrates, the others wait and find it at the head). SQLite needs no lock:
    one process serves a SQLite database (``--redis-url`` refuses it)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        lock_migrations(connection)
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def lock_migrations(connection: Connection) -> None:
    """On PostgreSQL, wait for and hold :data:`MIGRATION_LOCK` until the connection's
    transaction ends; nothing on SQLite."""
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
