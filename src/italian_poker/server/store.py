"""Reading and writing the database: tables, their event logs, seats and the ledger.

:meth:`Store.commit_event` writes one event with everything it implies (ledger rows, the
seats, the table's status) in a single transaction: the event is durable when it returns.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, delete, select
from sqlalchemy.orm import Session, sessionmaker

from italian_poker.server.database import session_factory
from italian_poker.server.models import LedgerRow, SeatRow, TableEventRow, TableRow, utcnow
from italian_poker.server.table_state import LedgerEntry, Slot


def token_hash(token: str) -> str:
    """The sha256 hex digest stored in place of an invite or a token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class StoredTable:
    """A table as stored, with its events in order and its seat tokens."""

    id: int
    invite_hash: str
    name: str
    rules: dict[str, Any]
    options: dict[str, Any]
    host_token_hash: str
    events: tuple[tuple[int, str, dict[str, Any]], ...]
    tokens: dict[int, str]


class Store:
    """The server's database access (synchronous SQLAlchemy sessions)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.sessions: sessionmaker[Session] = session_factory(engine)

    def create_table(
        self,
        *,
        invite_hash: str,
        name: str,
        rules: dict[str, Any],
        options: dict[str, Any],
        host_token_hash: str,
    ) -> int:
        """Insert a new table in the lobby; returns its id."""
        with self.sessions.begin() as session:
            row = TableRow(
                invite_hash=invite_hash,
                name=name,
                rules=rules,
                options=options,
                host_token_hash=host_token_hash,
                status="lobby",
                created=utcnow(),
            )
            session.add(row)
            session.flush()
            return row.id

    def load_all(self) -> list[StoredTable]:
        """Every table with its event log, oldest table first."""
        with self.sessions() as session:
            tables = session.scalars(select(TableRow).order_by(TableRow.id)).all()
            return [self._stored(session, row) for row in tables]

    def _stored(self, session: Session, row: TableRow) -> StoredTable:
        events = session.execute(
            select(TableEventRow.seq, TableEventRow.kind, TableEventRow.payload)
            .where(TableEventRow.table_id == row.id)
            .order_by(TableEventRow.seq)
        ).all()
        seats = session.scalars(select(SeatRow).where(SeatRow.table_id == row.id)).all()
        return StoredTable(
            id=row.id,
            invite_hash=row.invite_hash,
            name=row.name,
            rules=dict(row.rules),
            options=dict(row.options),
            host_token_hash=row.host_token_hash,
            events=tuple((seq, kind, dict(payload)) for seq, kind, payload in events),
            tokens={s.seat: s.player_token_hash for s in seats if s.player_token_hash},
        )

    def load(self, table_id: int) -> StoredTable:
        """One table with its event log."""
        with self.sessions() as session:
            row = session.get(TableRow, table_id)
            if row is None:
                raise KeyError(table_id)
            return self._stored(session, row)

    def commit_event(
        self,
        table_id: int,
        seq: int,
        kind: str,
        payload: dict[str, Any],
        *,
        ledger: Sequence[LedgerEntry],
        slots: Sequence[Slot | None],
        tokens: Mapping[int, str],
        status: str,
    ) -> None:
        """Append event ``seq`` with its ledger rows, and bring the seats and the status in
        line, in one transaction."""
        now = utcnow()
        with self.sessions.begin() as session:
            session.add(
                TableEventRow(table_id=table_id, seq=seq, kind=kind, payload=payload, created=now)
            )
            for entry in ledger:
                session.add(
                    LedgerRow(
                        table_id=table_id,
                        nickname=entry.nickname,
                        kind=entry.kind,
                        amount=entry.amount,
                        hand=entry.hand,
                        created=now,
                    )
                )
            rows = {
                r.seat: r
                for r in session.scalars(select(SeatRow).where(SeatRow.table_id == table_id))
            }
            for seat, slot in enumerate(slots):
                row = rows.get(seat)
                if slot is None or (row is not None and row.nickname != slot.nickname):
                    if row is not None:
                        session.delete(row)
                        session.flush()
                    row = None
                if slot is None:
                    continue
                if row is None:
                    row = SeatRow(table_id=table_id, seat=seat, nickname=slot.nickname)
                    session.add(row)
                row.bot_level = slot.bot
                row.sitting_out = slot.sitting_out
                row.player_token_hash = tokens.get(seat)
            table = session.get(TableRow, table_id)
            assert table is not None
            table.status = status

    def set_connected(self, table_id: int, seat: int, when: datetime | None) -> None:
        """Record when a seat's player connected (None: disconnected)."""
        with self.sessions.begin() as session:
            row = session.scalars(
                select(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat)
            ).first()
            if row is not None:
                row.connected_at = when

    def ledger(self, table_id: int) -> list[dict[str, Any]]:
        """The table's ledger, oldest first."""
        with self.sessions() as session:
            rows = session.scalars(
                select(LedgerRow).where(LedgerRow.table_id == table_id).order_by(LedgerRow.id)
            ).all()
            return [
                {
                    "nickname": r.nickname,
                    "kind": r.kind,
                    "amount": r.amount,
                    "hand": r.hand,
                    "created": r.created.isoformat(),
                }
                for r in rows
            ]

    def delete_table(self, table_id: int) -> None:
        """Remove a table that could not be set up (its first event failed)."""
        with self.sessions.begin() as session:
            session.execute(delete(TableEventRow).where(TableEventRow.table_id == table_id))
            session.execute(delete(SeatRow).where(SeatRow.table_id == table_id))
            session.execute(delete(TableRow).where(TableRow.id == table_id))
