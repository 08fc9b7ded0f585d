"""The server's live tables: one :class:`~italian_poker.server.table_runtime.TableRuntime`
per table, found by its invite (or by its watch link, for spectators), on one database
store; with several processes (:mod:`italian_poker.server.cluster`), the tables this one
owns and the replicas of those its players (or spectators) are at."""

from __future__ import annotations

import asyncio
import functools
import re

from italian_poker.server.cluster import Cluster
from italian_poker.server.collector import Collector
from italian_poker.server.database import make_engine, upgrade
from italian_poker.server.errors import ApiError
from italian_poker.server.settings import ServerSettings
from italian_poker.server.store import NewTable, Store, StoredTable, token_hash
from italian_poker.server.table_runtime import BotFactory, TableRuntime
from italian_poker.server.writer import EventWriter
from italian_poker.table.advice import Advisor

INVITE = re.compile(r"[A-Za-z0-9_-]{16,64}")
"""What an invite looks like (``secrets.token_urlsafe(18)`` gives 24 of these characters);
a watch link's secret looks the same."""


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
            for stored in self.store.load_all():
                self._live(stored, None).start()
        if self.collector is not None:
            self.collector.start()

    async def close(self) -> None:
        """Stop every table, commit what is queued and release the database (and, with
        several processes, this one's leases)."""
        if self.cluster is not None:
            await self.cluster.pause()
        for runtime in self.tables.values():
            await runtime.stop()
        await asyncio.get_running_loop().run_in_executor(None, self.writer.stop)
        if self.cluster is not None:
            await self.cluster.stop(self)
        if self.collector is not None:
            self.collector.stop()
        self.engine.dispose()

    async def create(self, invite: str, table: NewTable) -> TableRuntime:
        """``table``, new in the lobby, written (off the event loop) and live, found by
        ``invite``; call its :meth:`~TableRuntime.start` once it has its host."""

        def write() -> StoredTable:
            return self.store.load(self.store.create_table(token_hash(invite), table))

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
        return runtime

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
        an invite. With several processes, a table owned by another is read from the
        database as a replica the first time."""
        runtime = self.here(invite)
        if runtime is not None or self.cluster is None or not INVITE.fullmatch(invite):
            return runtime
        find = functools.partial(self.store.table_of_invite, token_hash(invite))
        table_id = await asyncio.get_running_loop().run_in_executor(None, find)
        return None if table_id is None else await self.replica(table_id)

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
        if runtime is None and self.cluster is not None:
            find = functools.partial(self.store.table_of_watch, hashed)
            table_id = await asyncio.get_running_loop().run_in_executor(None, find)
            runtime = None if table_id is None else await self.replica(table_id)
        if runtime is None:
            return None
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
