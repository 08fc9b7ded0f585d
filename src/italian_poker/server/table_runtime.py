"""One live table in memory: its state, the lock under which it changes and the one way it
changes, and its parts, each in the module named after it.

Every change goes the same way (:meth:`TableRuntime._commit`): the engine checks it
(:meth:`TableState.apply` raises and changes nothing when it is not allowed), the event is
written and committed (on the database's threads: the event loop, and every other table,
goes on meanwhile), and only then is anyone told (:mod:`italian_poker.server.broadcast`).
The parts act through that commit and that telling: the turn timer
(:mod:`italian_poker.server.turn_clock`), the bots and the automatic moves and deals
(:mod:`italian_poker.server.bots`, :mod:`italian_poker.server.scheduler`), who is connected
and the grace periods (:mod:`italian_poker.server.presence`,
:mod:`italian_poker.server.connections`), the chat, which is no event
(:mod:`italian_poker.server.table_chat`), the finished deals and the ledger
(:mod:`italian_poker.server.histories`), and, with several processes, the bus
(:mod:`italian_poker.server.replication`). What players ask goes to :attr:`TableRuntime.play`:
applied here by the owner, forwarded to it by a replica (:mod:`italian_poker.server.ownership`).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from italian_poker.engine.rules import Rules
from italian_poker.server.bots import BotFactory, TableBots
from italian_poker.server.broadcast import Broadcast
from italian_poker.server.collector import Collector
from italian_poker.server.commands import Play
from italian_poker.server.connections import Connections
from italian_poker.server.effects import Effects
from italian_poker.server.event_kinds import EventKind
from italian_poker.server.fencing import StaleOwner
from italian_poker.server.histories import Histories
from italian_poker.server.lease import Lease
from italian_poker.server.ownership import ForwardingTable, LocalTable
from italian_poker.server.peers import TablePeers
from italian_poker.server.presence import Presence
from italian_poker.server.protocol import error_message
from italian_poker.server.refusal import Refusal
from italian_poker.server.replication import Replication
from italian_poker.server.scheduler import Scheduler
from italian_poker.server.settings import ServerSettings
from italian_poker.server.shutdown import cancel_and_wait
from italian_poker.server.spectators import Spectators
from italian_poker.server.store import EventWrite, Store, StoredTable
from italian_poker.server.table_chat import TableChat
from italian_poker.server.table_state import TableState
from italian_poker.server.turn_clock import TurnClock
from italian_poker.server.writer import EventWriter
from italian_poker.table.advice import Advisor

__all__ = ["BotFactory", "Refusal", "TableRuntime", "rules_from"]

T = TypeVar("T")


log = logging.getLogger(__name__)


def rules_from(stored: StoredTable) -> Rules:
    """The table's rules from their stored JSON."""
    return Rules.from_dict(stored.rules)


class TableRuntime:
    """A table being played. Call :meth:`start` once, then the ``async`` operations."""

    def __init__(
        self,
        stored: StoredTable,
        invite: str | None,
        store: Store,
        settings: ServerSettings,
        bot_factory: BotFactory,
        writer: EventWriter,
        collector: Collector | None = None,
        peers: TablePeers | None = None,
        advisor: Advisor | None = None,
    ) -> None:
        self.id = stored.id
        self.collector = collector
        """The process's managed garbage collector, told of every event committed."""
        self.writer = writer
        """The server's event writer, which commits every event off the event loop."""
        self.peers = peers
        """The link to the other processes (None: this process is the only one)."""
        self.invite_hash = stored.invite_hash
        self.invite = invite
        self.host_token_hash = stored.host_token_hash
        self.store = store
        self.settings = settings
        self.tokens: dict[int, str] = dict(stored.tokens)
        self.spectators = Spectators()
        """The connections of the table's watch link on this process
        (:mod:`italian_poker.server.spectators`)."""
        self.state = self._replay(stored)
        self.lock = asyncio.Lock()
        self.tasks: set[asyncio.Task[None]] = set()
        self.turn_clock = TurnClock(self)
        self.presence = Presence(self)
        self.clients = self.presence.clients
        self.bots = TableBots(self.id, bot_factory, settings.seed)
        self.scheduler = Scheduler(self, self.turn_clock, self.bots)
        self.broadcast = Broadcast(self, self.presence, self.turn_clock, advisor)
        self.table_chat = TableChat(self, self.presence)
        self.histories = Histories(self)
        self.local = LocalTable(self, self.presence, self.turn_clock, self.table_chat)
        self.forwarding = ForwardingTable(self, self.table_chat)
        self.play: Play = self.local if self.owning else self.forwarding
        """What players ask: applied here (the owner), or forwarded to the owner."""
        self.replication = Replication(
            self, self.presence, self.turn_clock, self.table_chat, lambda: self.play
        )
        self.connections = Connections(
            self, self.presence, self.table_chat, self.broadcast, self.replication
        )

    @property
    def owning(self) -> bool:
        """Whether this process owns the table (the only process, or its lease's holder);
        else it is a replica (:mod:`italian_poker.server.peers`)."""
        return self.peers is None or self.peers.lease is not None

    def _replay(self, stored: StoredTable) -> TableState:
        """The table rebuilt from its log, and the table as it was before its last deal for
        the spectators (only that deal's: the one that may be under way)."""
        state = TableState(
            stored.name, rules_from(stored), dict(stored.options), self.settings.log_size
        )
        events = stored.events
        deals = [i for i, (_, kind, _) in enumerate(events) if kind == EventKind.DEAL.value]
        before = None
        if deals:
            state.replay(events[: deals[-1]])
            before = self.spectators.snapshot(state, EventKind.DEAL, set)
            state.replay(events[deals[-1] :])
        else:
            state.replay(events)
        self.spectators.rebuilt(state, before)
        return state

    # --- lifecycle ------------------------------------------------------------------------

    def start(self) -> None:
        """After a restart: nobody is connected yet, so every human seat is on its grace
        period; bots and the timer pick up where the table was. A turn under way keeps the
        time it had: its clock runs from the commit of the event that began it, with the time
        bank the log recorded, so an overdue turn is checked or folded at once. Only the
        table's owner runs them: nothing for a replica."""
        if not self.owning:
            return
        self.presence.absent()
        if self.turn_clock.turn is None:
            self._track_turn(restored=True)
        self._schedule()

    async def stop(self) -> None:
        """Cancel the table's tasks and close its connections."""
        await self._cancel_tasks()
        self.presence.end()
        self.spectators.stop()

    async def _cancel_tasks(self) -> None:
        """Cancel the bots, the clocks and the grace periods (not the task calling this)."""
        self.scheduler.cancel()
        current = asyncio.current_task()
        tasks = [task for task in self.tasks if task is not current]
        await cancel_and_wait(tasks, f"table {self.id}")

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    spawn = _spawn

    # --- the one way to change a table ----------------------------------------------------

    async def _commit(self, kind: EventKind, payload: dict[str, Any]) -> Effects:
        """Check and apply an event, persist it (as the state records it:
        :attr:`~italian_poker.server.effects.Effects.record`), then tell everyone.
        Caller holds the lock, so the table's events are written one at a time and in
        order; the writing is done on the database's threads (:attr:`writer`), so that the
        event loop, and every other table, goes on meanwhile."""
        state = self.state
        seq = state.seq + 1
        before = self.spectators.snapshot(state, kind, self.connected_seats)
        effects = state.apply(seq, kind, payload)
        self.spectators.applied(state, before)
        event = EventWrite(
            self.id,
            seq,
            kind.value,
            effects.record,
            tuple(effects.ledger),
            tuple(state.slots),
            dict(self.tokens),
            state.status.value,
            state.switches.watch_hash,
        )
        try:
            await self._write(event)
        except StaleOwner as error:
            # Another process owns the table now (this one was paused past its lease): what
            # it wrote is the table; this process follows it from now on.
            log.warning("table %s: another process owns it now (%s)", self.id, error)
            await self.step_down()
            raise Refusal(
                "moved", "the table moved to another server: look again and try again", 503
            ) from error
        except Exception as error:
            # Not durable, so it did not happen: go back to what the log holds (a state
            # read meanwhile, by a hello or the lobby, is sent again as the log has it), and
            # tell whoever asked that nothing changed (a 503, or an error message).
            log.exception("table %s: event %s could not be saved", self.id, seq)
            await self._reload()
            self._broadcast_state()
            raise Refusal(
                "not_saved", "the server could not save this, so nothing changed: try again", 503
            ) from error
        self._track_turn()
        self._broadcast_state(events_after=seq - 1)
        self._schedule()
        state.release_views()
        if self.collector is not None:
            self.collector.freeze_soon()
        return effects

    commit = _commit
    """:meth:`_commit`, for the table's parts."""

    async def _reload(self) -> None:
        """Go back to what the log holds (all of it: the store remembers the seats it read)."""
        stored = await self._database(functools.partial(self.store.load, self.id))
        self.tokens = dict(stored.tokens)
        self.state = self._replay(stored)

    async def _write(self, event: EventWrite) -> None:
        """Commit ``event`` through the server's :attr:`writer`, with this owner's fencing
        token when there are several processes."""
        fence = None if self.peers is None or self.peers.lease is None else self.peers.lease.token
        await self.writer.write(event, fence)

    async def _database(self, call: Callable[[], T]) -> T:
        """``call()`` (a :class:`Store` method) off the event loop."""
        return await asyncio.get_running_loop().run_in_executor(None, call)

    database = _database

    # --- telling ---------------------------------------------------------------------------

    def connected_seats(self) -> set[int]:
        """Seats with a connection: here, or on another process (as its owner heard)."""
        return self.presence.connected_seats()

    def spectator_count(self) -> int:
        """Spectators watching: here, or on another process (as its owner heard)."""
        return self.presence.spectator_count()

    def publish(self, events_after: int | None = None) -> None:
        """Tell every connection here (and the replicas) what the table is now
        (:meth:`Broadcast.publish`)."""
        self.broadcast.publish(events_after)

    _broadcast_state = publish

    def publish_between_changes(self) -> None:
        """:meth:`publish` now, or once the change under way is committed."""
        self.broadcast.publish_between_changes()

    def _track_turn(self, restored: bool = False) -> None:
        self.turn_clock.track(restored)

    def _schedule(self) -> None:
        self.scheduler.schedule()

    # --- players --------------------------------------------------------------------------

    def seat_for_token(self, hashed: str) -> int | None:
        """The seat whose player holds this token hash."""
        for seat, value in self.tokens.items():
            if value == hashed:
                return seat
        return None

    # --- several processes (server/peers.py, server/replication.py) ------------------------

    async def sync(self) -> None:
        """A replica: apply the events written since it last looked (from the database, as
        a restart would) and tell its players; nothing for the owner."""
        if self.owning:
            return
        async with self.lock:
            if self.owning:
                return
            call = functools.partial(self.store.events_after, self.id, self.state.seq)
            events, tokens = await self._database(call)
            self.tokens = tokens
            before = self.state.seq
            try:
                for seq, kind, payload in events:
                    state, event_kind = self.state, EventKind(kind)
                    deal = self.spectators.snapshot(state, event_kind, self.connected_seats)
                    state.apply(seq, event_kind, payload)
                    self.spectators.applied(state, deal)
                    if self.collector is not None:
                        self.collector.freeze_soon()
            except Exception:
                log.exception("table %s: the replica could not follow; rebuilding", self.id)
                await self._reload()
            kicked = [s for s in self.clients if s not in self.tokens]
            for seat in kicked:
                for client in self.clients.pop(seat):  # removed by the host
                    client.send(error_message("kicked", "the host removed you from the table"))
                    client.end()
            if events or kicked:
                self._broadcast_state(events_after=before)

    async def own(self, lease: Lease) -> None:
        """Become the table's owner with ``lease`` (a new table, or one whose owner's lease
        ran out): raise the fence first, so that the previous owner can write nothing after
        the log is read; then the table goes on from its log, as after a restart."""
        peers = self.peers
        assert peers is not None
        async with self.lock:
            await self._database(functools.partial(self.store.claim, self.id, lease.token))
            await self._reload()
            peers.lease, peers.heard, peers.told, peers.remote = lease, None, None, {}
            self.play = self.local
            self.turn_clock.turn = None
            await self.replication.listen_as_owner()
            self.start()
            self._broadcast_state()
        # Replicas learn of their new owner from its first word on the log channel.
        peers.notify(self.state.seq, self.connected_seats(), None, self.spectator_count())

    async def step_down(self) -> None:
        """Stop owning the table (its lease was lost, or another process wrote): the bots
        and clocks stop, the table is read back from the log, and it goes on as a replica
        for the players connected here. Caller holds the lock."""
        peers = self.peers
        if peers is None or peers.lease is None:
            return
        peers.lease, peers.remote = None, {}
        self.play = self.forwarding
        await self._cancel_tasks()
        self.presence.disconnected.clear()
        self.turn_clock.turn = None
        await peers.bus.unlisten(peers.bus.commands_channel(self.id))
        await self._reload()
        if self.presence.connections():
            await self.replication.listen()
            self.presence.tell()
        self._broadcast_state()
