"""The database tables: tables, seats, each table's ordered event log, the ledger and the
chat.

The event log (``table_events``) is the authority: a table's state is rebuilt by replaying it.
``seats`` is kept in step with it for token checks and the lobby. Only sha256 hashes of the
invite and of the tokens are stored.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def utcnow() -> datetime:
    """The current time, timezone-aware (UTC)."""
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """Declarative base of the server's models."""


class TableRow(Base):
    """A table created in the lobby."""

    __tablename__ = "tables"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    invite_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    name: Mapped[str] = mapped_column(String(100))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    host_token_hash: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16), default="lobby")
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    fence: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """The largest fencing token that has written to the table's log (``Store.commit_events``
    with a fence; 0 until one has): an owner holding a smaller one may not write."""
    watch_hash: Mapped[str | None] = mapped_column(
        String(64), nullable=True, unique=True, index=True
    )
    """The sha256 hash of the watch link for spectators; empty while the host offers none."""
    active: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """When the table was last in use, as the server's clock said: created, rebuilt for a
    request or a connection, or unloaded (``Server.sweep``); the sweep expires the tables
    whose last use is older than ``expire_days``."""
    expired: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """When the table was expired (its events, seats and chat deleted); empty while it lives."""
    keep_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    """Until when an expired table's ledger and archived histories are kept."""
    kept_since: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The seq of the event that began the turn under way when the table was unloaded."""
    kept_elapsed: Mapped[float | None] = mapped_column(Float, nullable=True)
    """The seconds that turn had run when the table was unloaded (it resumes from them)."""


class SeatRow(Base):
    """A taken seat: a player (with the hash of their token) or a bot (``bot_level``)."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("table_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    nickname: Mapped[str] = mapped_column(String(40))
    player_token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    bot_level: Mapped[str | None] = mapped_column(String(20), nullable=True)
    sitting_out: Mapped[bool] = mapped_column(default=False)


class TableEventRow(Base):
    """One entry of a table's ordered event log (``seq`` strictly increasing per table)."""

    __tablename__ = "table_events"
    __table_args__ = (UniqueConstraint("table_id", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(20))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class LedgerRow(Base):
    """A movement of play chips: a buy-in, a host adjustment, a deal's result, a cash-out."""

    __tablename__ = "ledger"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    nickname: Mapped[str] = mapped_column(String(40))
    player: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """Whose chips (the seq of the event that seated them; empty in rows written before
    migration 0003, which knew the nickname only)."""
    kind: Mapped[str] = mapped_column(String(16))
    amount: Mapped[int] = mapped_column(Integer)
    hand: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ChatMessageRow(Base):
    """A chat message of a table's player: kept with the table, never in its event log."""

    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    player: Mapped[int] = mapped_column(Integer)
    """Who wrote it (the seq of the event that seated them)."""
    nickname: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(String(1000))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class HandArchiveRow(Base):
    """A finished deal of an expired table, kept as its hand history (``.phh``, every card:
    the events it replaces held them too) until the table's ``keep_until``."""

    __tablename__ = "hand_archives"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    hand: Mapped[int] = mapped_column(Integer)
    history: Mapped[str] = mapped_column(Text)
