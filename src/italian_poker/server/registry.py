"""The server's live tables: one :class:`~italian_poker.server.table_runtime.TableRuntime`
per table, found by its invite (or by its watch link, for spectators), on one database
store; with several processes (:mod:`italian_poker.server.cluster`), the tables this one
owns and the replicas of those its players (or spectators) are at.

Memory stays bounded (one process, no ``redis_url``): at most ``max_live_tables`` tables
are live. A table nobody is at (no player's connection, no spectator) that goes on by
itself no further (no bot's move, automatic move or deal pending) is *idle*; the sweep
(:meth:`Server.sweep`, every ``sweep_seconds``) unloads one idle for
``idle_unload_seconds``, and at the cap the least recently used idle table is unloaded to
make room (with none, a new table is refused: 503 ``busy``). Unloading stops the table's
timers, bots and grace periods; the next request or connection rebuilds it from its log,
exactly (mid-deal included). A person's turn under way keeps the time it had left: the
seconds it had run are stored as the table is unloaded and it resumes from them, the time
unloaded not counted; the grace periods of the seats nobody is at start again.
The sweep also expires the tables not in use for ``expire_days``
(:meth:`~italian_poker.server.store.Store.expire`: their links then answer 410 Gone), and
deletes the kept ledgers and histories whose days are over."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import logging
import re
from dataclasses import replace

from italian_poker.engine.history import HandHistory, dumps
from italian_poker.server.cluster import Cluster
from italian_poker.server.collector import Collector
from italian_poker.server.database import make_engine, upgrade
from italian_poker.server.errors import ApiError
from italian_poker.server.rows import DAY
from italian_poker.server.settings import ServerSettings
from italian_poker.server.store import Found, NewTable, Store, StoredTable, token_hash
from italian_poker.server.table_runtime import BotFactory, TableRuntime, rules_from
from italian_poker.server.table_state import TableState
from italian_poker.server.writer import EventWriter
from italian_poker.table.advice import Advisor

INVITE = re.compile(r"[A-Za-z0-9_-]{16,64}")
"""What an invite looks like (``secrets.token_urlsafe(18)`` gives 24 of these characters);
a watch link's secret looks the same."""

KEEP_DAYS = "keep_days"
"""The table option with the days its ledger and histories are kept once it has expired
(the host's choice at creation; else ``ServerSettings.keep_days``)."""

log = logging.getLogger(__name__)


def gone() -> ApiError:
    """The answer for a link to an expired table."""
    return ApiError(
        410,
        "expired",
        "this table was closed after a long time without play, and its game deleted: "
        "ask the host for a new table",
    )


def busy() -> ApiError:
    """The answer when this process holds as many tables as it may, none of them idle."""
    return ApiError(
        503,
        "busy",
        "the server is running as many tables as it can right now: try again in a few minutes",
    )


def archive(stored: StoredTable, log_size: int) -> list[tuple[int, str]]:
    """The finished deals of ``stored`` as their hand histories (number, ``.phh`` text with
    every card and the fair deck's record), from its log."""
    state = TableState(stored.name, rules_from(stored), dict(stored.options), log_size)
    state.replay(stored.events)
    match = state.match
    if match is None:
        return []
    return [
        (
            deal.number,
            dumps(
                replace(
                    HandHistory.from_completed(deal),
                    fair=state.fair.record(deal.number),
                )
            ),
        )
        for deal in match.completed
    ]


class Server:
    """The application's state: the database store, its event writer, the managed garbage
    collector and the live tables by invite hash."""

    def __init__(
        self, settings: ServerSettings, bot_factory: BotFactory, advisor: Advisor | None = None
    ) -> None:
        self.settings = settings
        self.bot_factory = bot_factory
        self.advisor = advisor
        """Gives the drawing seats their hint (None: the server runs without it)."""
        self.engine = make_engine(settings.resolved_database_url())
        self.store = Store(self.engine)
        self.writer = EventWriter(self.store, settings.resolved_database_threads())
        self.collector: Collector | None = None
        if settings.collector_interval is not None:
            self.collector = Collector(settings.collector_interval)
        self.tables: dict[str, TableRuntime] = {}
        self.used: dict[str, float] = {}
        """When each live table (by invite hash) was last in use, on the settings' clock,
        least recently used first."""
        self._sweeper: asyncio.Task[None] | None = None
        self.cluster: Cluster | None = None
        """This process among several (``settings.redis_url``); None: the only one."""
        if settings.redis_url is not None:
            self.cluster = Cluster(settings, self.store)
        self._loading = asyncio.Lock()

    async def open(self) -> None:
        """Migrate the database, rebuild every table from its log (with several processes:
        the tables no other owns), then freeze what the start-up made
        (server/collector.py)."""
        upgrade(self.engine)
        self.writer.start()
        if self.cluster is not None:
            await self.cluster.start(self)
        else:
            # The tables last in use, as many as may be live; the others wait for a request.
            recent = self.store.lifetimes.recent_tables(self.settings.max_live_tables)
            for table_id in reversed(recent):
                self._live(self.store.load(table_id), None).start()
        if self.collector is not None:
            self.collector.start()
        if self.settings.sweep_seconds is not None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_every())

    async def close(self) -> None:
        """Stop every table, commit what is queued and release the database (and, with
        several processes, this one's leases)."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        if self.cluster is not None:
            await self.cluster.pause()
        for runtime in self.tables.values():
            await runtime.stop()
        await asyncio.get_running_loop().run_in_executor(None, self.writer.stop)
        if self.cluster is None:
            used = {r.id: self.used.get(h, self.settings.clock()) for h, r in self.tables.items()}
            await asyncio.get_running_loop().run_in_executor(None, self.store.lifetimes.used, used)
        if self.cluster is not None:
            await self.cluster.stop(self)
        if self.collector is not None:
            self.collector.stop()
        self.engine.dispose()

    async def create(self, invite: str, table: NewTable) -> TableRuntime:
        """``table``, new in the lobby, written (off the event loop) and live, found by
        ``invite``; call its :meth:`~TableRuntime.start` once it has its host. At the
        cap (``max_live_tables``) the least recently used idle table is unloaded first; with
        none idle, 503 ``busy`` and nothing written."""
        now = self.settings.clock()

        def write() -> StoredTable:
            return self.store.load(self.store.create_table(token_hash(invite), table, now))

        async with self._loading:
            await self._make_room()
            stored = await asyncio.get_running_loop().run_in_executor(None, write)
            runtime = self._live(stored, invite)
        if self.cluster is not None:
            lease = await self.cluster.lease_new_table(stored.id)
            if lease is not None:  # else another process adopted it first: a replica here
                await runtime.own(lease)
        if self.collector is not None:
            self.collector.freeze_soon()
        return runtime

    def _live(self, stored: StoredTable, invite: str | None) -> TableRuntime:
        runtime = TableRuntime(
            stored,
            invite,
            self.store,
            self.settings,
            self.bot_factory,
            self.writer,
            collector=self.collector,
            peers=None if self.cluster is None else self.cluster.peers(stored.id),
            advisor=self.advisor,
        )
        self.tables[stored.invite_hash] = runtime
        runtime.turn_clock.kept = stored.turn_kept
        self._touch(runtime)
        return runtime

    def _touch(self, runtime: TableRuntime) -> None:
        """``runtime`` is in use now: the most recently used."""
        self.used.pop(runtime.invite_hash, None)
        self.used[runtime.invite_hash] = self.settings.clock()

    def idle(self, runtime: TableRuntime) -> bool:
        """Whether ``runtime`` may be unloaded: :meth:`quiet`, and not asked for in the last
        ``hello_timeout_seconds`` (a connection that found it may still be saying hello)."""
        used = self.used.get(runtime.invite_hash)
        now = self.settings.clock()
        recent = used is not None and now - used < self.settings.hello_timeout_seconds
        return not recent and self.quiet(runtime)

    def quiet(self, runtime: TableRuntime) -> bool:
        """Whether nothing goes on at ``runtime``: the only process (with several, tables
        stay live), nobody at it here or elsewhere, no change under way, nothing it does by
        itself pending (a bot's move, an automatic move, a deal)."""
        return (
            self.cluster is None
            and not runtime.presence.connections()
            and not runtime.connected_seats()
            and runtime.spectator_count() == 0
            and not runtime.lock.locked()
            and not runtime.scheduler.running()
        )

    async def unload(self, runtime: TableRuntime) -> bool:
        """Unload ``runtime`` if it is idle: its timers, bots and grace periods stop, the
        turn under way is kept (the seconds it had run) with the table's last use, and it
        leaves memory. Whether it was unloaded."""
        async with self._loading:
            return await self._unload(runtime)

    async def _unload(self, runtime: TableRuntime) -> bool:
        """:meth:`unload`; caller holds ``_loading``, so that no request rebuilds the table
        from the database before what it keeps is written."""
        if not self.idle(runtime) or self.tables.get(runtime.invite_hash) is not runtime:
            return False
        async with runtime.lock:  # free (idle): taken at once, nothing else runs meanwhile
            kept = runtime.turn_clock.elapsed()
            used = self.used.pop(runtime.invite_hash, self.settings.clock())
            del self.tables[runtime.invite_hash]
            await runtime.stop()
        touch = functools.partial(self.store.lifetimes.touch, runtime.id, used, kept)
        await asyncio.get_running_loop().run_in_executor(None, touch)
        self.store.forget(runtime.id)
        if self.collector is not None:
            # What a freeze kept of the table (its reference cycles) may go at the next one.
            gc.unfreeze()
            self.collector.freeze_soon()
        return True

    async def _make_room(self) -> None:
        """Below the cap for one more live table: the least recently used idle tables
        unloaded as needed, else 503 ``busy``. Caller holds ``_loading``."""
        while len(self.tables) >= self.settings.max_live_tables:
            candidates = [self.tables[h] for h in list(self.used) if h in self.tables]
            for runtime in candidates:
                if await self._unload(runtime):
                    break
            else:
                raise busy()

    async def _restore(self, table_id: int) -> TableRuntime:
        """Table ``table_id`` live again, rebuilt from its log and started (the one live
        already, if it is)."""
        async with self._loading:
            for runtime in self.tables.values():
                if runtime.id == table_id:
                    self._touch(runtime)
                    return runtime
            await self._make_room()
            load = functools.partial(self.store.load, table_id)
            stored = await asyncio.get_running_loop().run_in_executor(None, load)
            runtime = self._live(stored, None)
            runtime.start()
            touch = functools.partial(self.store.lifetimes.touch, table_id, self.settings.clock())
            await asyncio.get_running_loop().run_in_executor(None, touch)
            return runtime

    async def sweep(self) -> None:
        """Tables in use now count as used now; tables idle for ``idle_unload_seconds`` are
        unloaded; tables not in use for ``expire_days`` are expired, their ledger and
        histories kept as their host chose; kept records whose days are over are deleted.
        With several processes, nothing (the tables stay live, none expires)."""
        if self.cluster is not None:
            return
        now = self.settings.clock()
        loop = asyncio.get_running_loop()
        async with self._loading:
            for runtime in list(self.tables.values()):
                if not self.quiet(runtime):
                    self._touch(runtime)
            for hashed, used in list(self.used.items()):
                found = self.tables.get(hashed)
                if found is not None and now - used >= self.settings.idle_unload_seconds:
                    await self._unload(found)
            live = [runtime.id for runtime in self.tables.values()]
            before = now - self.settings.expire_days * DAY
            abandoned = functools.partial(self.store.lifetimes.abandoned, before, live)
            for table_id in await loop.run_in_executor(None, abandoned):
                await loop.run_in_executor(None, self._expire, table_id, now)
            purged = await loop.run_in_executor(None, self.store.lifetimes.purge, now)
        if purged:
            log.info("deleted the kept records of %s expired table(s)", len(purged))

    def _expire(self, table_id: int, now: float) -> None:
        """Expire table ``table_id`` (not live), its finished deals archived if its ledger
        and histories are kept."""
        stored = self.store.load(table_id)
        keep = stored.options.get(KEEP_DAYS)
        days = self.settings.keep_days if not isinstance(keep, int) else keep
        histories = archive(stored, self.settings.log_size) if days > 0 else []
        self.store.lifetimes.expire(table_id, now, days, histories)
        self.store.forget(table_id)
        log.info("table %s expired (records kept %s days)", table_id, days)

    async def _sweep_every(self) -> None:
        """:meth:`sweep` every ``sweep_seconds``; a failed sweep is logged and the next one
        comes."""
        seconds = self.settings.sweep_seconds
        assert seconds is not None
        while True:
            await self.settings.sleep(seconds)
            try:
                await self.sweep()
            except Exception:
                log.exception("the sweep failed")

    async def replica(self, table_id: int) -> TableRuntime:
        """The table ``table_id`` here: the one live already, or a replica read from the
        database (another process owns it)."""
        async with self._loading:
            for runtime in self.tables.values():
                if runtime.id == table_id:
                    return runtime
            load = functools.partial(self.store.load, table_id)
            stored = await asyncio.get_running_loop().run_in_executor(None, load)
            return self._live(stored, None)

    def here(self, invite: str) -> TableRuntime | None:
        """The table of ``invite`` if it is live in this process (owned, or a replica)."""
        return self.tables.get(token_hash(invite)) if INVITE.fullmatch(invite) else None

    async def find(self, invite: str) -> TableRuntime | None:
        """The table of ``invite``; None for an unknown invite and for anything that is not
        an invite; 410 for an expired table (:func:`gone`). A table not live here is read
        from the database: rebuilt from its log (503 ``busy`` if there is no room), or, with
        several processes, as a replica of the one another owns."""
        runtime = self.here(invite)
        if runtime is not None:
            self._touch(runtime)
            return runtime
        if not INVITE.fullmatch(invite):
            return None
        find = functools.partial(self.store.find_invite, token_hash(invite))
        found = await asyncio.get_running_loop().run_in_executor(None, find)
        return None if found is None else await self._open(found)

    async def _open(self, found: Found) -> TableRuntime:
        """A table found in the database: 410 Gone once expired; else read as a replica (with
        several processes) or restored from its log."""
        if found.expired:
            raise gone()
        if self.cluster is not None:
            return await self.replica(found.id)
        return await self._restore(found.id)

    async def watched(self, watch: str) -> TableRuntime | None:
        """The table whose watch link's secret is ``watch`` (caught up with its log, if a
        replica); None for a link no table offers (never made, closed, replaced) and for
        anything that is not such a secret. With several processes, a table owned by another
        is found by the link's hash in the database (``tables.watch_hash``) and read as a
        replica the first time."""
        if not INVITE.fullmatch(watch):
            return None
        hashed = token_hash(watch)
        runtime = next(
            (r for r in self.tables.values() if r.state.switches.watch_hash == hashed), None
        )
        if runtime is None:
            find = functools.partial(self.store.find_watch, hashed)
            found = await asyncio.get_running_loop().run_in_executor(None, find)
            if found is None:
                return None
            runtime = await self._open(found)
        self._touch(runtime)
        await runtime.sync()  # a replica: the link may have changed since it last looked
        return runtime if runtime.state.switches.watch_hash == hashed else None

    async def table(self, invite: str) -> TableRuntime:
        """The table of ``invite``, which it now knows (a table rebuilt from its log has only
        the invite's hash), or 404 (also for anything that is not an invite)."""
        runtime = await self.find(invite)
        if runtime is None:
            raise ApiError(404, "no_table", "no table has this invite: check the link")
        runtime.invite = invite
        return runtime
