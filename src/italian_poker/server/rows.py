"""The database's tables as SQLAlchemy Core tables (the statements on the path of every action
are Core, not ORM), and times as the database stores them."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Table

from italian_poker.server.models import (
    Base,
    ChatMessageRow,
    HandArchiveRow,
    LedgerRow,
    SeatRow,
    TableEventRow,
    TableRow,
)

__all__ = ["ARCHIVES", "CHAT", "DAY", "EVENTS", "LEDGER", "SEATS", "TABLES", "moment", "utc"]


def _table(model: type[Base]) -> Table:
    table = model.__table__
    assert isinstance(table, Table)
    return table


TABLES = _table(TableRow)
SEATS = _table(SeatRow)
EVENTS = _table(TableEventRow)
LEDGER = _table(LedgerRow)
CHAT = _table(ChatMessageRow)
ARCHIVES = _table(HandArchiveRow)
DAY = 86_400.0
"""Seconds in a day."""


def moment(seconds: float) -> datetime:
    """A time in seconds since the epoch as the database stores it (UTC)."""
    return datetime.fromtimestamp(seconds, UTC)


def utc(stored: datetime) -> datetime:
    """A stored time with its zone: SQLite keeps none, and the value is in UTC."""
    return stored.replace(tzinfo=UTC) if stored.tzinfo is None else stored
