"""Reading and writing the database: tables, their event logs, seats, the ledger and the
chat (its own table, ``chat_messages``: never an event, so never in the log or a history).

:meth:`Store.commit_events` writes events with everything they imply (ledger rows, the
seats, the table's status and its watch link's hash) in a single transaction: the events are
durable when it returns.
The server's :class:`~italian_poker.server.writer.EventWriter` hands it the events of several
tables at once when they queue up (a group commit).
It is on the path of every action, so it uses SQLAlchemy Core statements, and it touches the
``seats`` rows, the table's status and its watch hash only when they differ from what it last
wrote (the :class:`Store` remembers that per table; after a failed commit it reads the rows
again).

Fencing (several processes): :meth:`Store.commit_events` and :meth:`Store.claim` take the
owner's fencing token (:mod:`~italian_poker.server.fencing`). The chat's messages are
:attr:`Store.chat` (:mod:`~italian_poker.server.chat_store`); the tables' last use and
expiry :attr:`Store.lifetimes` (:mod:`~italian_poker.server.table_lifetimes`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.orm import Session, sessionmaker

from italian_poker.server.chat_store import ChatStore
from italian_poker.server.database import session_factory
from italian_poker.server.fencing import Fences, fences_of, raise_fences
from italian_poker.server.ledger import LedgerEntry
from italian_poker.server.models import (
    ChatMessageRow,
    LedgerRow,
    SeatRow,
    TableEventRow,
    TableRow,
    utcnow,
)
from italian_poker.server.rows import EVENTS, LEDGER, SEATS, TABLES, moment, utc
from italian_poker.server.seats import Slot
from italian_poker.server.table_lifetimes import TableLifetimes


def token_hash(token: str) -> str:
    """The sha256 hex digest stored in place of an invite or a token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


SeatRecord = tuple[str, str | None, bool, str | None]
"""A seat as the ``seats`` table holds it: nickname, bot level, sitting out, token hash."""

Seating = tuple[SeatRecord | None, ...]
"""Every seat of a table in order, None where empty."""


_INSERT_EVENTS = insert(EVENTS)
_INSERT_LEDGER = insert(LEDGER)
"""The writer's statements, built once (a statement built at each commit is checked and
keyed for the compiled-statement cache each time)."""


@dataclass(frozen=True, slots=True)
class _Written:
    """What the database holds for a table's seats, status and watch link's hash, as last
    written or read."""

    seating: Seating
    status: str
    watch_hash: str | None = None


def seating_of(slots: Sequence[Slot | None], tokens: Mapping[int, str]) -> Seating:
    """The seats' rows that ``slots`` and ``tokens`` call for, up to the last taken seat."""
    last = max((seat for seat, slot in enumerate(slots) if slot is not None), default=-1)
    return tuple(
        None if slot is None else (slot.nickname, slot.bot, slot.sitting_out, tokens.get(seat))
        for seat, slot in enumerate(slots[: last + 1])
    )


@dataclass(frozen=True, slots=True)
class EventWrite:
    """One event to append to a table's log, with what it implies: its ledger rows, and the
    seats, the status and the watch link's hash (None: no link) the table has after it."""

    table_id: int
    seq: int
    kind: str
    payload: dict[str, Any]
    ledger: tuple[LedgerEntry, ...]
    slots: tuple[Slot | None, ...]
    tokens: Mapping[int, str]
    status: str
    watch_hash: str | None = None


@dataclass(frozen=True, slots=True)
class NewTable:
    """A table as its host creates it: its name, rules and options, and the host's token
    hash."""

    name: str
    rules: dict[str, Any]
    options: dict[str, Any]
    host_token_hash: str


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
    turn_kept: tuple[int, float] | None = None
    """The turn under way when the table was last unloaded: the seq of the event that began
    it and the seconds it had run (:class:`~italian_poker.server.turn_clock.TurnClock`)."""


@dataclass(frozen=True, slots=True)
class Found:
    """A table found by its invite or its watch link: its id, and whether it has expired."""

    id: int
    expired: bool


_EVENT_COLUMNS = ("table_id", "seq", "kind", "payload", "created")


class _EventInsert:
    """The INSERT of events' rows as the driver's SQL: compiled once, each value converted
    as SQLAlchemy converts it (the columns' bind processors), so the rows are the same,
    without the statement's compilation, cache lookup and result set up at each commit
    (about a quarter of a small commit's time on SQLite)."""

    def __init__(self, engine: Engine) -> None:
        dialect = engine.dialect
        compiled = _INSERT_EVENTS.compile(dialect=dialect, column_keys=list(_EVENT_COLUMNS))
        if compiled.positiontup != list(_EVENT_COLUMNS):
            raise ValueError(f"unexpected parameters {compiled.positiontup} in {compiled}")
        self.sql = str(compiled)
        self.processors = tuple(
            EVENTS.c[name].type.dialect_impl(dialect).bind_processor(dialect)
            for name in _EVENT_COLUMNS
        )

    def commit(self, engine: Engine, rows: Sequence[Mapping[str, Any]]) -> None:
        """Insert ``rows`` in one transaction."""
        processors = self.processors
        params = [
            tuple(
                value if process is None else process(value)
                for value, process in zip(
                    (row[name] for name in _EVENT_COLUMNS), processors, strict=True
                )
            )
            for row in rows
        ]
        with engine.begin() as connection:
            connection.exec_driver_sql(self.sql, params)


class Store:
    """The server's database access (synchronous SQLAlchemy sessions)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.sessions: sessionmaker[Session] = session_factory(engine)
        self._autocommit: Engine | None = None
        """Connections on which each statement commits by itself. That spares a database
        server the round trips of BEGIN and COMMIT; not for SQLite, which has no round trips
        and where switching a connection to it and back costs two PRAGMAs."""
        if engine.dialect.name != "sqlite":
            self._autocommit = engine.execution_options(isolation_level="AUTOCOMMIT")
        self._insert = _EventInsert(engine) if engine.dialect.name == "sqlite" else None
        """The events' INSERT as the driver's SQL, for a batch that writes nothing else
        (SQLite: on PostgreSQL a lone event's INSERT commits by itself, :attr:`_autocommit`)."""
        self._written: dict[int, _Written] = {}
        """Per table, the seats and status as last committed (or read)."""
        self.chat = ChatStore(engine)
        """The tables' chat messages."""
        self.lifetimes = TableLifetimes(engine)
        """When each table was last in use, its expiry and the records it keeps."""

    def create_table(self, invite_hash: str, table: NewTable, now: float | None = None) -> int:
        """Insert ``table`` in the lobby, found by ``invite_hash``, in use at ``now``
        (seconds since the epoch; default: now); returns its id."""
        active = utcnow() if now is None else moment(now)
        with self.sessions.begin() as session:
            row = TableRow(
                invite_hash=invite_hash,
                name=table.name,
                rules=table.rules,
                options=table.options,
                host_token_hash=table.host_token_hash,
                status="lobby",
                created=utcnow(),
                active=active,
            )
            session.add(row)
            session.flush()
            table_id = row.id
        self._written[table_id] = _Written((), "lobby", None)
        return table_id

    def load_all(self) -> list[StoredTable]:
        """Every table not expired with its event log, oldest table first."""
        with self.sessions() as session:
            tables = session.scalars(
                select(TableRow).where(TableRow.expired.is_(None)).order_by(TableRow.id)
            ).all()
            return [self._stored(session, row) for row in tables]

    def _stored(self, session: Session, row: TableRow) -> StoredTable:
        events = session.execute(
            select(TableEventRow.seq, TableEventRow.kind, TableEventRow.payload)
            .where(TableEventRow.table_id == row.id)
            .order_by(TableEventRow.seq)
        ).all()
        seats = session.scalars(select(SeatRow).where(SeatRow.table_id == row.id)).all()
        self._written[row.id] = _Written(
            _seating_of_rows(
                (s.seat, s.nickname, s.bot_level, s.sitting_out, s.player_token_hash) for s in seats
            ),
            row.status,
            row.watch_hash,
        )
        return StoredTable(
            id=row.id,
            invite_hash=row.invite_hash,
            name=row.name,
            rules=dict(row.rules),
            options=dict(row.options),
            host_token_hash=row.host_token_hash,
            events=tuple((seq, kind, dict(payload)) for seq, kind, payload in events),
            tokens={s.seat: s.player_token_hash for s in seats if s.player_token_hash},
            turn_kept=None
            if row.kept_since is None or row.kept_elapsed is None
            else (row.kept_since, row.kept_elapsed),
        )

    def load(self, table_id: int) -> StoredTable:
        """One table with its event log."""
        with self.sessions() as session:
            row = session.get(TableRow, table_id)
            if row is None:
                raise KeyError(table_id)
            return self._stored(session, row)

    def events_after(
        self, table_id: int, seq: int
    ) -> tuple[tuple[tuple[int, str, dict[str, Any]], ...], dict[int, str]]:
        """The table's events after ``seq``, in order, and its seat tokens now: what a
        replica (:mod:`italian_poker.server.cluster`) that holds the first ``seq`` needs to
        catch up. Nothing is remembered of the seats: a replica does not write."""
        with self.sessions() as session:
            events = session.execute(
                select(TableEventRow.seq, TableEventRow.kind, TableEventRow.payload)
                .where(TableEventRow.table_id == table_id, TableEventRow.seq > seq)
                .order_by(TableEventRow.seq)
            ).all()
            tokens = session.execute(
                select(SeatRow.seat, SeatRow.player_token_hash).where(
                    SeatRow.table_id == table_id, SeatRow.player_token_hash.is_not(None)
                )
            ).all()
        return (
            tuple((n, kind, dict(payload)) for n, kind, payload in events),
            {seat: hashed for seat, hashed in tokens if hashed},
        )

    def table_of_invite(self, invite_hash: str) -> int | None:
        """The id of the table with this invite hash, if any."""
        with self.engine.connect() as connection:
            found = connection.execute(
                select(TABLES.c.id).where(TABLES.c.invite_hash == invite_hash)
            ).scalar()
        return None if found is None else int(found)

    def table_of_watch(self, watch_hash: str) -> int | None:
        """The id of the table whose watch link has this hash, if any (``tables.watch_hash``,
        kept in step with the table's ``watch`` events)."""
        with self.engine.connect() as connection:
            found = connection.execute(
                select(TABLES.c.id).where(TABLES.c.watch_hash == watch_hash)
            ).scalar()
        return None if found is None else int(found)

    def find_invite(self, invite_hash: str) -> Found | None:
        """The table with this invite hash, expired or not, if any."""
        return self._find(TABLES.c.invite_hash == invite_hash)

    def find_watch(self, watch_hash: str) -> Found | None:
        """The table whose watch link has this hash, expired or not, if any."""
        return self._find(TABLES.c.watch_hash == watch_hash)

    def _find(self, where: Any) -> Found | None:
        with self.engine.connect() as connection:
            row = connection.execute(select(TABLES.c.id, TABLES.c.expired).where(where)).first()
        return None if row is None else Found(int(row[0]), row[1] is not None)

    def forget(self, table_id: int) -> None:
        """Drop what the store remembers of a table that leaves memory (read again if it
        comes back)."""
        self._written.pop(table_id, None)

    def table_ids(self) -> list[int]:
        """Every table's id, oldest first."""
        with self.engine.connect() as connection:
            return [
                int(n)
                for n in connection.execute(select(TABLES.c.id).order_by(TABLES.c.id)).scalars()
            ]

    def event_time(self, table_id: int, seq: int) -> float | None:
        """When event ``seq`` of the table was committed, in seconds since the epoch (the
        turn clock of a restarted table starts from it); None if there is no such event."""
        with self.sessions() as session:
            created = session.scalar(
                select(TableEventRow.created).where(
                    TableEventRow.table_id == table_id, TableEventRow.seq == seq
                )
            )
        return None if created is None else utc(created).timestamp()

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
        watch_hash: str | None = None,
    ) -> None:
        """Append event ``seq`` with its ledger rows, and bring the seats, the status and the
        watch hash in line, in one transaction."""
        self.commit_events(
            [
                EventWrite(
                    table_id,
                    seq,
                    kind,
                    payload,
                    tuple(ledger),
                    tuple(slots),
                    tokens,
                    status,
                    watch_hash,
                )
            ]
        )

    def commit_events(self, events: Sequence[EventWrite], fence: Fences | None = None) -> None:
        """Append ``events`` (each of another table) with what each implies, all in one
        transaction: durable together when this returns, or none of them.

        With ``fence`` (a lease's fencing token for every table of the batch, or a mapping of
        each table's id to its token), the transaction first raises each table's fence to its
        token; if a table's fence is already larger, it raises :class:`StaleOwner` and
        nothing is written. Without it (the server today), no fence is read or written."""
        fences = None if fence is None else fences_of(fence, {e.table_id for e in events})
        now = utcnow()
        writes = [(event, seating_of(event.slots, event.tokens)) for event in events]
        written = {event.table_id: self._written.pop(event.table_id, None) for event in events}
        rows = [
            {"table_id": e.table_id, "seq": e.seq, "kind": e.kind, "payload": e.payload}
            | {"created": now}
            for e in events
        ]
        if fences is None and self._rows_only(writes, written, rows):
            return
        event, seating = writes[0]
        single = len(events) == 1 and not event.ledger and fences is None
        autocommit = self._autocommit if single else None
        unchanged = _Written(seating, event.status, event.watch_hash)
        if autocommit is not None and written[event.table_id] == unchanged:
            # The common case, one action: one INSERT that commits by itself.
            with autocommit.connect() as connection:
                connection.execute(_INSERT_EVENTS, rows[0])
        else:
            with self.engine.begin() as connection:
                raise_fences(connection, fences or {})
                connection.execute(_INSERT_EVENTS, rows)
                ledger = [
                    {
                        "table_id": e.table_id,
                        "nickname": entry.nickname,
                        "player": entry.player,
                        "kind": entry.kind,
                        "amount": entry.amount,
                        "hand": entry.hand,
                        "created": now,
                    }
                    for e in events
                    for entry in e.ledger
                ]
                if ledger:
                    connection.execute(_INSERT_LEDGER, ledger)
                for event, seating in writes:
                    before = written[event.table_id]
                    if before is None:
                        before = _read_written(connection, event.table_id)
                    if seating != before.seating:
                        _write_seats(connection, event.table_id, before.seating, seating)
                    changed: dict[str, Any] = {}
                    if event.status != before.status:
                        changed["status"] = event.status
                    if event.watch_hash != before.watch_hash:
                        changed["watch_hash"] = event.watch_hash
                    if changed:
                        connection.execute(
                            update(TABLES).where(TABLES.c.id == event.table_id).values(**changed)
                        )
        # Only once committed: after a failure there is no entry, and the next commit reads.
        # What did not change is kept as it was (no new objects for the collector to scan).
        for event, seating in writes:
            now_written = _Written(seating, event.status, event.watch_hash)
            before = written[event.table_id]
            self._written[event.table_id] = before if before == now_written else now_written

    def _rows_only(
        self,
        writes: Sequence[tuple[EventWrite, Seating]],
        written: Mapping[int, _Written | None],
        rows: Sequence[Mapping[str, Any]],
    ) -> bool:
        """The common case on SQLite with no fence, committed by :class:`_EventInsert`:
        events that change nothing but their logs (no ledger row; the seats, status and
        watch link as last written). False, with nothing done, when that is not the case."""
        if self._insert is None:
            return False
        kept = []
        for event, seating in writes:
            before = written[event.table_id]
            if event.ledger or before != _Written(seating, event.status, event.watch_hash):
                return False
            assert before is not None
            kept.append((event.table_id, before))
        self._insert.commit(self.engine, rows)
        self._written.update(kept)
        return True

    def fence(self, table_id: int) -> int:
        """The largest fencing token that has written to the table (0 if none has)."""
        with self.engine.connect() as connection:
            value = connection.execute(
                select(TABLES.c.fence).where(TABLES.c.id == table_id)
            ).scalar()
        if value is None:
            raise KeyError(table_id)
        return int(value)

    def claim(self, table_id: int, fence: int) -> None:
        """Raise the table's fence to ``fence`` without writing an event: a new owner does
        so before it reads the log, so that the previous owner, whose token is smaller, can
        write nothing after that read. :class:`StaleOwner` if a larger token has written."""
        token = fences_of(fence, {table_id})[table_id]
        with self.engine.begin() as connection:
            raise_fences(connection, {table_id: token})

    def ledger(self, table_id: int) -> list[dict[str, Any]]:
        """The table's ledger, oldest first; ``created`` in ISO 8601, in UTC."""
        with self.sessions() as session:
            rows = session.scalars(
                select(LedgerRow).where(LedgerRow.table_id == table_id).order_by(LedgerRow.id)
            ).all()
            return [
                {
                    "nickname": r.nickname,
                    "player": r.player,
                    "kind": r.kind,
                    "amount": r.amount,
                    "hand": r.hand,
                    "created": utc(r.created).isoformat(),
                }
                for r in rows
            ]

    def delete_table(self, table_id: int) -> None:
        """Remove a table that could not be set up (its first event failed)."""
        with self.sessions.begin() as session:
            session.execute(delete(ChatMessageRow).where(ChatMessageRow.table_id == table_id))
            session.execute(delete(TableEventRow).where(TableEventRow.table_id == table_id))
            session.execute(delete(SeatRow).where(SeatRow.table_id == table_id))
            session.execute(delete(TableRow).where(TableRow.id == table_id))
        self._written.pop(table_id, None)


def _seating_of_rows(rows: Iterable[tuple[int, str, str | None, bool, str | None]]) -> Seating:
    """The seating from ``seats`` rows ``(seat, nickname, bot, sitting out, token hash)``."""
    by_seat: dict[int, SeatRecord] = {
        seat: (nickname, bot, bool(sitting_out), token)
        for seat, nickname, bot, sitting_out, token in rows
    }
    return tuple(by_seat.get(seat) for seat in range(max(by_seat, default=-1) + 1))


def _read_written(connection: Connection, table_id: int) -> _Written:
    """The seats, status and watch hash of a table as the database holds them now."""
    rows = connection.execute(
        select(
            SEATS.c.seat,
            SEATS.c.nickname,
            SEATS.c.bot_level,
            SEATS.c.sitting_out,
            SEATS.c.player_token_hash,
        ).where(SEATS.c.table_id == table_id)
    )
    seating = _seating_of_rows((r[0], r[1], r[2], r[3], r[4]) for r in rows)
    status, watch_hash = connection.execute(
        select(TABLES.c.status, TABLES.c.watch_hash).where(TABLES.c.id == table_id)
    ).one()
    return _Written(seating, status, watch_hash)


def _write_seats(connection: Connection, table_id: int, old: Seating, new: Seating) -> None:
    """Bring the ``seats`` rows from ``old`` to ``new``: one statement per changed seat."""
    for seat in range(max(len(old), len(new))):
        before = old[seat] if seat < len(old) else None
        after = new[seat] if seat < len(new) else None
        if before == after:
            continue
        where = (SEATS.c.table_id == table_id) & (SEATS.c.seat == seat)
        if after is None:
            connection.execute(delete(SEATS).where(where))
            continue
        nickname, bot_level, sitting_out, token = after
        values = {
            "nickname": nickname,
            "bot_level": bot_level,
            "sitting_out": sitting_out,
            "player_token_hash": token,
        }
        if before is None:
            connection.execute(insert(SEATS), {"table_id": table_id, "seat": seat, **values})
        else:
            connection.execute(update(SEATS).where(where).values(**values))
