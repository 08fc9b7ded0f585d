"""Fencing tokens (several processes, ``server/cluster.py``): an owner holding a table's lease
(``server/lease.py``) writes with its token, and the transaction raises the table's ``fence``
column to it, only if it is not already larger; when it is, a newer owner has written, and the
write raises :class:`StaleOwner` with nothing written."""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy import Connection, case, select, update

from italian_poker.server.rows import TABLES

__all__ = ["FENCE_MAX", "Fences", "StaleOwner", "fences_of", "raise_fences"]

FENCE_MAX = 2_147_483_647
"""The largest fencing token the ``tables.fence`` column holds (SQL ``INTEGER``)."""


class StaleOwner(Exception):
    """A write with a fencing token smaller than one that has already written to the table:
    the lease it was taken under has passed to a newer owner. Nothing was written."""

    def __init__(self, table_id: int, fence: int, current: int) -> None:
        super().__init__(
            f"table {table_id}: fencing token {fence} is stale, token {current} has written"
        )
        self.table_id = table_id
        self.fence = fence
        self.current = current


Fences = int | Mapping[int, int]
"""A fencing token for every table of a batch, or each table's own (table id to token)."""


def fences_of(fence: Fences, tables: set[int]) -> dict[int, int]:
    """Each table's fencing token, checked: a whole number from 0 to :data:`FENCE_MAX`, and
    one for every table of the batch."""
    if isinstance(fence, Mapping):
        missing = sorted(tables - fence.keys())
        if missing:
            raise ValueError(f"no fencing token for table(s) {missing}")
        fences = {table_id: fence[table_id] for table_id in sorted(tables)}
    else:
        fences = dict.fromkeys(sorted(tables), fence)
    for table_id, token in fences.items():
        if isinstance(token, bool) or not isinstance(token, int):
            raise TypeError(f"table {table_id}: a fencing token is an int, got {token!r}")
        if not 0 <= token <= FENCE_MAX:
            raise ValueError(f"table {table_id}: fencing token {token} not in 0..{FENCE_MAX}")
    return fences


def raise_fences(connection: Connection, fences: Mapping[int, int]) -> None:
    """Raise each table's fence to its token in ``fences``, in the connection's transaction
    and one statement (a batch of many tables' events is one round trip, not one a table),
    unless a larger token has written to one of them (:class:`StaleOwner`, and the caller's
    transaction is rolled back; ``KeyError`` for no such table). On PostgreSQL the UPDATE
    locks the rows until the transaction ends, so an older owner's commit waits for a newer
    one's and then finds the fence raised."""
    if not fences:
        return
    token = case(dict(fences), value=TABLES.c.id)
    result = connection.execute(
        update(TABLES)
        .where(TABLES.c.id.in_(list(fences)), TABLES.c.fence <= token)
        .values(fence=token)
    )
    if result.rowcount == len(fences):
        return
    rows = connection.execute(
        select(TABLES.c.id, TABLES.c.fence).where(TABLES.c.id.in_(list(fences)))
    )
    current = {int(table_id): int(fence) for table_id, fence in rows}
    for table_id, fence in fences.items():
        if table_id not in current:
            raise KeyError(table_id)
        if current[table_id] > fence:
            raise StaleOwner(table_id, fence, current[table_id])
    raise AssertionError(f"fences {dict(fences)} not raised, yet none is stale: {current}")
