"""This process among several behind one address (``italian-poker serve --redis-url``,
several processes), sharing one database (PostgreSQL) and one Redis.

Each table has one owner at a time, the process holding its lease
(:mod:`italian_poker.server.lease`); the others keep replicas of the tables their players
are at (:mod:`italian_poker.server.peers`). Every half second (or third of a lease's time,
if shorter) :meth:`Cluster.tick`:

- renews, every third of a lease's time, the leases of the tables this process owns; a
  table whose lease could not be renewed (it expired: the process was paused, or lost Redis
  for a lease's time) is given up
  (:meth:`~italian_poker.server.table_runtime.TableRuntime.step_down`);
- tells each owner which of its players are connected here (and how many spectators watch),
  and forgets, as an owner, the processes that stopped saying so;
- adopts the tables that have no owner (their owner died, or none ever started them):
  first the ones whose players are connected here, the others a tick later, so that a
  table tends to go where its players are. The new owner raises the table's fence in the
  database before reading its log (:meth:`~italian_poker.server.store.Store.claim`), so a
  previous owner that is only paused can write nothing more.

A table is created by the process its host asked, which owns it from then on.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Callable
from typing import Protocol, TypeVar

from redis.asyncio import BlockingConnectionPool, Redis

from italian_poker.server.bus import Bus
from italian_poker.server.bus_seal import Seals, checked_secret
from italian_poker.server.lease import Lease, TableLeases
from italian_poker.server.peers import TablePeers
from italian_poker.server.settings import ServerSettings
from italian_poker.server.shutdown import cancel_and_wait, within
from italian_poker.server.store import Store
from italian_poker.server.table_runtime import TableRuntime

T = TypeVar("T")

log = logging.getLogger(__name__)

ADOPT_SECONDS = 0.5
"""How often at most a process looks for tables without an owner (and renews its leases
every third of a lease's time): a table whose owner died waits its lease's time, and then
this at most."""
MGET_CHUNK = 500
"""Lease keys read per Redis round trip when looking for tables without an owner."""


class Server(Protocol):
    """What the cluster needs of the server (:class:`~italian_poker.server.registry.Server`):
    its live tables, and a table read as a replica."""

    tables: dict[str, TableRuntime]

    async def replica(self, table_id: int) -> TableRuntime:
        """The table ``table_id`` here: live already, or read from the database."""
        ...


REDIS_CONNECTIONS = 32
"""Connections a process opens to Redis at most (the bus's subscription is one of them)."""
REDIS_WAIT_SECONDS = 5.0
"""How long a command waits for a free connection before it fails."""


def redis_client(url: str) -> Redis:
    """A client of the Redis at ``url``, made from the URL alone (so its user and password,
    and TLS for ``rediss://``, are the client's), whose commands wait for one of
    :data:`REDIS_CONNECTIONS` connections: a burst (hundreds of tables' leases renewed at
    one tick, tables created at once) queues instead of failing, as redis-py's default pool
    (100 connections, then ``MaxConnectionsError``) made it."""
    pool = BlockingConnectionPool.from_url(
        url, max_connections=REDIS_CONNECTIONS, timeout=REDIS_WAIT_SECONDS
    )
    return Redis.from_pool(pool)


class Cluster:
    """This process's leases, its bus and the loop that keeps them."""

    def __init__(self, settings: ServerSettings, store: Store) -> None:
        if settings.redis_url is None:
            raise ValueError("several processes need a Redis URL")
        if settings.resolved_database_url().startswith("sqlite"):
            raise ValueError(
                "several processes share one database server: give a PostgreSQL URL "
                "(--database-url postgresql://...), not SQLite's file"
            )
        if settings.lease_seconds <= 0:
            raise ValueError(f"a lease lasts more than 0 seconds, got {settings.lease_seconds}")
        secret = checked_secret(settings.bus_secret)
        self.settings = settings
        self.store = store
        self.node = settings.resolved_node()
        seals = Seals(secret, self.node, window=settings.bus_window_seconds)
        self.client: Redis = redis_client(settings.redis_url)
        self.bus = Bus(self.client, self.node, seals)
        self.leases = TableLeases(self.client)
        self.lease_seconds = settings.lease_seconds
        self._loop: asyncio.Task[None] | None = None
        self._pausing = False
        """Set by :meth:`pause`: the loop ends at its next turn even if its cancellation was
        lost. It is, often: redis-py sends a command under ``asyncio.wait_for``, which on
        Python 3.11 returns the result, and drops the cancellation, when the cancellation
        comes as the write ends (CI's hang of stop 34)."""
        self._waited: set[int] = set()
        """Tables without an owner seen once, to adopt at the next tick."""

    def peers(self, table_id: int) -> TablePeers:
        """A new table link on this process's bus."""
        return TablePeers(self.bus, table_id, self.lease_seconds)

    async def start(self, server: Server) -> None:
        """Join: start the bus, adopt every table without an owner, then keep ticking."""
        await self.bus.start()
        await self.tick(server, first=True)
        self._loop = asyncio.get_running_loop().create_task(self._run(server))

    async def pause(self) -> None:
        """Stop renewing and adopting (the server is shutting down)."""
        self._pausing = True
        if self._loop is not None:
            await cancel_and_wait([self._loop], f"the cluster's loop on {self.node}")
            self._loop = None

    async def stop(self, server: Server) -> None:
        """Leave, once the tables' last events are written: give up the tables this
        process owns (another takes them at once instead of after their leases run out),
        then stop the bus."""
        await self.pause()
        for runtime in list(server.tables.values()):
            lease = runtime.peers.lease if runtime.peers is not None else None
            if lease is not None:
                with contextlib.suppress(Exception):
                    await within(self.leases.release(lease), f"giving table {runtime.id} up")
        await self.bus.stop()
        with contextlib.suppress(Exception):
            await within(self.client.aclose(), "closing the connections to Redis")

    async def lease_new_table(self, table_id: int) -> Lease | None:
        """The lease of a table this process has just created; None if another process
        took it first (it saw the table before its creator's lease: it owns it then)."""
        return await self.leases.acquire(table_id, self.node, self.lease_seconds)

    async def _run(self, server: Server) -> None:
        renewed = time.monotonic()
        while not self._pausing:
            await asyncio.sleep(min(self.lease_seconds / 3, ADOPT_SECONDS))
            if self._pausing:
                return
            due = time.monotonic() - renewed >= self.lease_seconds / 3
            try:
                await self.tick(server, renew=due)
            except Exception:
                log.exception("the cluster's tick failed; trying again")
            if due:
                renewed = time.monotonic()

    async def tick(self, server: Server, *, first: bool = False, renew: bool = True) -> None:
        """Renew (when ``renew``), tell, forget and adopt (the module's docstring)."""
        if renew:
            await self._renew(server)
            for runtime in list(server.tables.values()):
                if runtime.owning:
                    runtime.replication.expire()
                else:
                    runtime.presence.tell()
        await self._adopt(server, first)

    async def _renew(self, server: Server) -> None:
        owned = [
            (runtime, runtime.peers.lease)
            for runtime in list(server.tables.values())
            if runtime.peers is not None and runtime.peers.lease is not None
        ]
        results = await asyncio.gather(
            *(self.leases.renew(lease) for _, lease in owned), return_exceptions=True
        )
        now = time.monotonic()
        for (runtime, lease), result in zip(owned, results, strict=True):
            assert runtime.peers is not None
            if isinstance(result, Lease):
                if runtime.peers.lease is lease:
                    runtime.peers.lease = result
            elif result is None or lease.expires <= now:
                # Lost (or, Redis unreachable, no longer provably ours): stop writing.
                if isinstance(result, BaseException):
                    log.warning("table %s: lease not renewed (%s)", runtime.id, result)
                async with runtime.lock:
                    await runtime.step_down()

    async def _adopt(self, server: Server, first: bool) -> None:
        ids = await self._database(self.store.table_ids)
        orphans: list[int] = []
        for start in range(0, len(ids), MGET_CHUNK):
            chunk = ids[start : start + MGET_CHUNK]
            held = await self.client.mget([self.leases.owner_key(n) for n in chunk])
            orphans += [n for n, value in zip(chunk, held, strict=True) if value is None]
        local = {runtime.id: runtime for runtime in server.tables.values()}
        self._waited &= set(orphans)
        for table_id in orphans:
            runtime = local.get(table_id)
            if runtime is not None and runtime.owning:
                continue  # its lease is being renewed this very tick
            if runtime is None and not first and table_id not in self._waited:
                self._waited.add(table_id)  # a process with its players goes first
                continue
            floor = await self._database(functools.partial(self.store.fence, table_id))
            lease = await self.leases.acquire(
                table_id, self.node, self.lease_seconds, at_least=floor
            )
            if lease is None:
                continue
            self._waited.discard(table_id)
            if runtime is None:
                runtime = await server.replica(table_id)
            try:
                await runtime.own(lease)
            except Exception:
                log.exception("table %s: could not take it over", table_id)
                with contextlib.suppress(Exception):
                    await self.leases.release(lease)
                continue
            log.info("table %s: owned by %s now (fence %s)", table_id, self.node, lease.token)

    async def _database(self, call: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(None, call)
