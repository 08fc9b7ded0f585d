"""Table leases in Redis: each table has at most one owner process at a time, and every new
owner gets a fencing token strictly larger than any before it.

:mod:`italian_poker.server.cluster` holds and renews them for ``serve --redis-url``.

How it works, for table 42 with the default prefix:

- ``italian-poker:table:{42}:owner`` holds ``<token>:<owner>`` and expires after the lease's
  ttl. :meth:`TableLeases.acquire` sets it only if it does not exist (``SET NX PX``), and in
  the same Lua script (atomic) takes the fencing token from ``INCR`` of
  ``italian-poker:table:{42}:fence``, a counter that never expires: every owner's token is
  larger than the one before, even for the same owner name.
- :meth:`TableLeases.renew` and :meth:`TableLeases.release` are Lua scripts too: they extend
  or delete the key only if it still holds this lease's value, so an owner whose lease
  expired and was taken by another cannot renew or release the new owner's.
- A lease alone cannot stop a process that was paused (a long collection, a stopped VM)
  and resumed after its lease expired: it still believes it owns the table. The fencing token
  does: the owner passes it with each write to
  :meth:`~italian_poker.server.store.Store.commit_events` (and first to
  :meth:`~italian_poker.server.store.Store.claim`, before reading the log), the database keeps
  the largest token that has written (``tables.fence``), and a write with a smaller one is
  refused (:class:`~italian_poker.server.fencing.StaleOwner`) with nothing written.
- Should Redis lose its counter (no persistence, a new server), :meth:`TableLeases.acquire`
  takes ``at_least``, the fence the database holds (``Store.fence``), and counts on from it.

The ``{42}`` in the keys is a Redis Cluster hash tag: both keys of a table live on one node,
as a script touching both requires. Redis errors (``redis.exceptions.RedisError``, e.g. a
connection refused) are raised as they are.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from redis.asyncio import Redis

DEFAULT_PREFIX = "italian-poker"

_ACQUIRE = """
if redis.call('EXISTS', KEYS[1]) == 1 then
    return false
end
local floor = tonumber(ARGV[3])
local current = tonumber(redis.call('GET', KEYS[2]) or '0')
if current < floor then
    redis.call('SET', KEYS[2], floor)
end
local token = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], token .. ':' .. ARGV[1], 'NX', 'PX', ARGV[2])
return token
"""
"""KEYS: owner, fence; ARGV: owner, ttl in ms, the least token to count on from. The token,
or nil when the table has an owner."""

_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
    return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""
"""KEYS: owner; ARGV: the lease's value, ttl in ms. 1 if renewed, 0 if not ours any more."""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
    return redis.call('DEL', KEYS[1])
end
return 0
"""
"""KEYS: owner; ARGV: the lease's value. 1 if deleted, 0 if not ours any more."""


class LeaseError(Exception):
    """The owner key holds something that is not a lease (written by another program)."""


@dataclass(frozen=True, slots=True)
class Lease:
    """A table's lease as its owner holds it.

    ``expires`` is on the clock of the :class:`TableLeases` that acquired or renewed it
    (``time.monotonic`` by default), counted from before the request was sent: Redis lets
    the lease go no earlier than that, so an owner that stops writing by then is safe even
    without the fence. ``ttl`` is the lease's length in seconds, used again by
    :meth:`TableLeases.renew`."""

    table_id: int
    owner: str
    token: int
    expires: float
    ttl: float

    @property
    def value(self) -> str:
        """What the owner key holds while this lease is the table's."""
        return f"{self.token}:{self.owner}"


def _ttl_ms(ttl: float) -> int:
    if isinstance(ttl, bool) or not isinstance(ttl, int | float):
        raise TypeError(f"a lease's ttl is a number of seconds, got {ttl!r}")
    milliseconds = round(ttl * 1000)
    if milliseconds < 1:
        raise ValueError(f"a lease's ttl must be at least 1 ms, got {ttl!r} s")
    return milliseconds


def _check_table(table_id: int) -> int:
    if isinstance(table_id, bool) or not isinstance(table_id, int) or table_id < 0:
        raise ValueError(f"a table id is a whole number from 0, got {table_id!r}")
    return table_id


def _text(value: Any) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


class TableLeases:
    """The tables' leases over a ``redis.asyncio.Redis`` client (``decode_responses`` either
    way), with keys under ``prefix``."""

    def __init__(
        self,
        client: Redis,
        *,
        prefix: str = DEFAULT_PREFIX,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not prefix or "{" in prefix or "}" in prefix:
            raise ValueError(f"a key prefix is not empty and has no braces, got {prefix!r}")
        self.client = client
        self.prefix = prefix
        self.clock = clock
        self._acquire = client.register_script(_ACQUIRE)
        self._renew = client.register_script(_RENEW)
        self._release = client.register_script(_RELEASE)

    def owner_key(self, table_id: int) -> str:
        """The key that holds the table's lease while it has an owner."""
        return f"{self.prefix}:table:{{{_check_table(table_id)}}}:owner"

    def fence_key(self, table_id: int) -> str:
        """The table's fencing counter (never expires)."""
        return f"{self.prefix}:table:{{{_check_table(table_id)}}}:fence"

    async def acquire(
        self, table_id: int, owner: str, ttl: float, *, at_least: int = 0
    ) -> Lease | None:
        """The table's lease for ``owner`` for ``ttl`` seconds, with a new fencing token
        larger than every earlier one and than ``at_least``; None while another lease (this
        owner's included) holds the table."""
        if not isinstance(owner, str) or not owner:
            raise ValueError(f"an owner is a non-empty string, got {owner!r}")
        if isinstance(at_least, bool) or not isinstance(at_least, int) or at_least < 0:
            raise ValueError(f"at_least is a whole number from 0, got {at_least!r}")
        milliseconds = _ttl_ms(ttl)
        keys = [self.owner_key(table_id), self.fence_key(table_id)]
        start = self.clock()
        token = await self._acquire(keys=keys, args=[owner, milliseconds, at_least])
        if token is None:
            return None
        return Lease(table_id, owner, int(token), start + milliseconds / 1000, ttl)

    async def renew(self, lease: Lease, ttl: float | None = None) -> Lease | None:
        """The lease extended by ``ttl`` seconds (its own ttl by default) from now, with the
        same token; None if it is no longer the table's (it expired, and maybe another owner
        took the table): its owner must stop writing."""
        ttl = lease.ttl if ttl is None else ttl
        milliseconds = _ttl_ms(ttl)
        start = self.clock()
        renewed = await self._renew(
            keys=[self.owner_key(lease.table_id)], args=[lease.value, milliseconds]
        )
        if int(renewed) != 1:
            return None
        return replace(lease, expires=start + milliseconds / 1000, ttl=ttl)

    async def release(self, lease: Lease) -> bool:
        """Give the table up: True if the lease was still the table's and is gone, False if
        it was not (the key, another owner's perhaps, is left alone)."""
        released = await self._release(keys=[self.owner_key(lease.table_id)], args=[lease.value])
        return int(released) == 1

    async def owner(self, table_id: int) -> str | None:
        """Who holds the table's lease now, or None."""
        held = await self.holder(table_id)
        return None if held is None else held[0]

    async def holder(self, table_id: int) -> tuple[str, int] | None:
        """The owner holding the table's lease now and its fencing token, or None."""
        value = await self.client.get(self.owner_key(table_id))
        if value is None:
            return None
        token, colon, owner = _text(value).partition(":")
        if not colon or not token.isdigit() or not owner:
            raise LeaseError(f"{self.owner_key(table_id)} holds {_text(value)!r}, not a lease")
        return owner, int(token)
