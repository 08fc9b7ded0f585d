"""When each table was last in use, and what happens to one nobody uses: the tables a
starting server loads first, those abandoned long enough to expire, their expiry (the events,
seats and chat deleted; the ledger and the finished deals' histories kept for the days the
host chose) and the deletion of those records once their days are over."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime

from sqlalchemy import Engine, bindparam, delete, insert, select, update

from italian_poker.server.rows import (
    ARCHIVES,
    CHAT,
    DAY,
    EVENTS,
    LEDGER,
    SEATS,
    TABLES,
    moment,
)

__all__ = ["TableLifetimes"]


class TableLifetimes:
    """The tables' last use and expiry."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def recent_tables(self, limit: int) -> list[int]:
        """The ids of the ``limit`` tables not expired last in use, the latest first."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(TABLES.c.id)
                .where(TABLES.c.expired.is_(None))
                .order_by(TABLES.c.active.desc(), TABLES.c.id.desc())
                .limit(limit)
            ).scalars()
            return [int(n) for n in rows]

    def touch(self, table_id: int, now: float, turn: tuple[int, float] | None = None) -> None:
        """The table was in use at ``now`` (seconds since the epoch); ``turn``: the turn it
        keeps as it is unloaded (the seq that began it, the seconds it had run), or none."""
        since, elapsed = (None, None) if turn is None else turn
        with self.engine.begin() as connection:
            connection.execute(
                update(TABLES)
                .where(TABLES.c.id == table_id)
                .values(active=moment(now), kept_since=since, kept_elapsed=elapsed)
            )

    def used(self, times: Mapping[int, float]) -> None:
        """Each table's last use (table id to seconds since the epoch), in one transaction:
        what a server that stops records of its live tables."""
        if not times:
            return
        with self.engine.begin() as connection:
            connection.execute(
                update(TABLES).where(TABLES.c.id == bindparam("table")),
                [{"table": n, "active": moment(t)} for n, t in times.items()],
            )

    def abandoned(self, before: float, live: Iterable[int] = ()) -> list[int]:
        """The ids of the tables not expired, nor in ``live``, last in use before ``before``
        (seconds since the epoch), oldest first."""
        live_ids = set(live)
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(TABLES.c.id)
                .where(TABLES.c.expired.is_(None), TABLES.c.active < moment(before))
                .order_by(TABLES.c.id)
            ).scalars()
            return [int(n) for n in rows if int(n) not in live_ids]

    def expire(
        self, table_id: int, now: float, keep_days: int, histories: Sequence[tuple[int, str]]
    ) -> None:
        """Expire the table at ``now``: its events, seats and chat deleted, its row kept (its
        links then answer 410); its ledger and ``histories`` (hand number, ``.phh`` text)
        kept for ``keep_days`` days, or, with 0, the ledger deleted at once."""
        when = moment(now)
        keep = keep_days > 0
        with self.engine.begin() as connection:
            for table in (EVENTS, SEATS, CHAT):
                connection.execute(delete(table).where(table.c.table_id == table_id))
            if keep:
                if histories:
                    connection.execute(
                        insert(ARCHIVES),
                        [{"table_id": table_id, "hand": n, "history": h} for n, h in histories],
                    )
            else:
                connection.execute(delete(LEDGER).where(LEDGER.c.table_id == table_id))
            connection.execute(
                update(TABLES)
                .where(TABLES.c.id == table_id)
                .values(
                    expired=when,
                    keep_until=datetime.fromtimestamp(now + keep_days * DAY, UTC) if keep else None,
                    kept_since=None,
                    kept_elapsed=None,
                )
            )

    def purge(self, now: float) -> list[int]:
        """Delete the ledger and archived histories of the expired tables whose days are
        over at ``now``; their ids."""
        when = moment(now)
        with self.engine.begin() as connection:
            ids = [
                int(n)
                for n in connection.execute(
                    select(TABLES.c.id).where(
                        TABLES.c.expired.is_not(None), TABLES.c.keep_until < when
                    )
                ).scalars()
            ]
            if ids:
                connection.execute(delete(LEDGER).where(LEDGER.c.table_id.in_(ids)))
                connection.execute(delete(ARCHIVES).where(ARCHIVES.c.table_id.in_(ids)))
                connection.execute(
                    update(TABLES).where(TABLES.c.id.in_(ids)).values(keep_until=None)
                )
        return ids

    def archived_histories(self, table_id: int) -> list[tuple[int, str]]:
        """The finished deals an expired table keeps: hand number and ``.phh`` text, in
        order."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(ARCHIVES.c.hand, ARCHIVES.c.history)
                .where(ARCHIVES.c.table_id == table_id)
                .order_by(ARCHIVES.c.hand)
            ).all()
        return [(int(n), str(h)) for n, h in rows]
