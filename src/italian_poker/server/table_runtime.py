"""One live table in memory: its state, its connected players, its bots and its clocks.

Every change goes the same way: the engine checks it (:meth:`TableState.apply` raises and
changes nothing when it is not allowed), the event is written and committed (on the
database's threads: the event loop, and every other table, goes on meanwhile), and only then is
anyone told: each connected seat gets its own ``state`` built from its own view (the public
part built and each message encoded once, the same text sent to all its connections). Bots, the
turn timer (with time bank, then an automatic check or fold), players who dropped (seat kept
for the grace period, then sat out) and the next deal are asyncio tasks that act through the
same path: a bot's turn and a turn that ran out are ``action`` events without an action, for
the table's driver to play (:meth:`TableState.apply`), the bot's choice or the default action
(:func:`~italian_poker.table.defaults.default_action`) being written into the event.

The chat is no event: the owner checks a message (:mod:`italian_poker.server.chat`), stores
it in its own table and sends it to every connection at the table (and, through the bus, to
the other processes' players); it never takes the table's lock, so a chat never waits for a
deal's commits, nor a deal for a chat.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from italian_poker.engine.actions import Action
from italian_poker.engine.errors import ItalianPokerError, SeatError
from italian_poker.engine.history import HandHistory
from italian_poker.engine.match import CompletedDeal, MatchPhase
from italian_poker.engine.observer import PUBLIC, SeatView
from italian_poker.engine.policy import Policy
from italian_poker.engine.rules import Rules
from italian_poker.engine.seeds import derive_seed
from italian_poker.server.bus import NoOwner, Refused
from italian_poker.server.chat import Bucket, ChatRate, ChatRefusal, check_text
from italian_poker.server.collector import Collector
from italian_poker.server.lease import Lease
from italian_poker.server.ledger import Holding
from italian_poker.server.limits import MAX_CHIPS
from italian_poker.server.peers import Heard, TablePeers
from italian_poker.server.protocol import (
    Clock,
    LogText,
    PublicState,
    advice_entries,
    chat_log_message,
    chat_message,
    chat_removed_message,
    draws_now,
    encode,
    error_message,
    public_state,
    state_text,
)
from italian_poker.server.settings import ServerSettings
from italian_poker.server.shutdown import cancel_and_wait
from italian_poker.server.spectators import Spectator, Spectators
from italian_poker.server.store import EventWrite, StaleOwner, Store, StoredTable
from italian_poker.server.table_state import (
    Effects,
    EventKind,
    Slot,
    TableState,
    TableStatus,
    TurnKey,
    action_payload,
    parse_action,
)
from italian_poker.server.writer import EventWriter
from italian_poker.table.advice import Advisor
from italian_poker.table.defaults import default_action
from italian_poker.table.replay_frames import HandFrames, hand_frames

T = TypeVar("T")

_action_payload = action_payload

BotFactory = Callable[[str, int | None], Policy]
"""Level name and seed -> a bot (:func:`italian_poker.analysis.bots.make_bot`)."""

OFF_LOOP_BOTS = frozenset({"expert"})
"""Bot levels whose decisions (a search of up to about half a second) run on a thread, not
on the event loop, so that the other tables and connections go on meanwhile."""

log = logging.getLogger(__name__)

CLIENT_QUEUE_LIMIT = 200
"""Messages waiting for a client before it is dropped as too slow."""


class Refusal(Exception):
    """A request refused with a protocol error code and a message a player can act on."""

    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


@dataclass(eq=False)
class Client:
    """One WebSocket connection of a seated player: messages, as JSON text, go through its
    queue (None closes the connection)."""

    seat: int
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)

    def send(self, message: dict[str, Any]) -> None:
        """Encode and queue ``message``."""
        self.send_text(encode(message))

    def send_text(self, text: str) -> None:
        """Queue an encoded message; a client too far behind is disconnected."""
        if self.queue.qsize() >= CLIENT_QUEUE_LIMIT:
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)


@dataclass(frozen=True, slots=True)
class Turn:
    """The turn of a human seat under the timer."""

    since: int
    """Seq of the event that began the turn (:attr:`TableState.turn_since`)."""
    seat: int
    started: float
    """When the turn began, on ``settings.clock``: when that event was committed."""
    bank: float
    """The seat's time bank at the start of the turn."""


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
        self.advisor = advisor
        """Gives the drawing seat its hint, from its own view (None: the server has none)."""
        self._advice: tuple[TurnKey, list[dict[str, Any]]] | None = None
        """The hint for the draw under way: the turn it is for, and its entries."""
        self._advising: TurnKey | None = None
        """The turn whose hint is being computed (off the event loop), if any."""
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
        self.bot_factory = bot_factory
        self.tokens: dict[int, str] = dict(stored.tokens)
        self.spectators = Spectators()
        """The connections of the table's watch link on this process
        (:mod:`italian_poker.server.spectators`)."""
        self.state = self._replay(stored)
        self.log_text = LogText()
        self.lock = asyncio.Lock()
        self.clients: dict[int, set[Client]] = {}
        self.bots: dict[tuple[int, int], Policy] = {}
        self.turn: Turn | None = None
        self.disconnected: dict[int, float] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self._pending: asyncio.Task[None] | None = None
        self._pending_key: tuple[Any, ...] | None = None
        self.chat_rate = ChatRate(settings.chat_burst, settings.chat_interval_seconds)
        self.chat_buckets: dict[int, Bucket] = {}
        """Each person's chat allowance (the owner's), by person id."""
        self.chat_lock = asyncio.Lock()
        """Held while a chat message is stored or removed: the table's chat is written one
        change at a time, and sent in the order of its ids."""

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
        now = self.settings.clock()
        for seat, slot in enumerate(self.state.slots):
            if slot is None or slot.bot is not None or slot.sitting_out:
                continue
            if seat not in self.disconnected and seat not in self.connected_seats():
                self.disconnected[seat] = now
                self._spawn(self._grace(seat, slot.player))
        if self.turn is None:
            self._track_turn(restored=True)
        self._schedule()

    async def stop(self) -> None:
        """Cancel the table's tasks and close its connections."""
        await self._cancel_tasks()
        for clients in self.clients.values():
            for client in clients:
                client.queue.put_nowait(None)
        self.spectators.stop()

    async def _cancel_tasks(self) -> None:
        """Cancel the bots, the clocks and the grace periods (not the task calling this)."""
        if self._pending is not None:
            self._pending.cancel()
        current = asyncio.current_task()
        tasks = [task for task in self.tasks if task is not current]
        await cancel_and_wait(tasks, f"table {self.id}")

    def _spawn(self, coro: Any) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    # --- the one way to change a table ----------------------------------------------------

    async def _commit(
        self, kind: EventKind, payload: dict[str, Any], policy: Policy | None = None
    ) -> Effects:
        """Check and apply an event (``policy``: the bot whose turn an ``action`` without an
        action is), persist it, then tell everyone. Caller holds the lock, so the table's
        events are written one at a time and in order; the writing is done on the
        database's threads (:attr:`writer`), so that the event loop, and every other table,
        goes on meanwhile."""
        state = self.state
        seq = state.seq + 1
        before = self.spectators.snapshot(state, kind, self.connected_seats)
        effects = state.apply(seq, kind, payload, policy)
        self.spectators.applied(state, before)
        event = EventWrite(
            self.id,
            seq,
            kind.value,
            payload,
            tuple(effects.ledger),
            tuple(state.slots),
            dict(self.tokens),
            state.status.value,
            state.watch_hash,
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
        if self.collector is not None:
            self.collector.freeze_soon()
        return effects

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

    # --- players --------------------------------------------------------------------------

    def seat_for_token(self, hashed: str) -> int | None:
        """The seat whose player holds this token hash."""
        for seat, value in self.tokens.items():
            if value == hashed:
                return seat
        return None

    async def take_seat(
        self, nickname: str, token_hash: str | None, bot: str | None, seat: int | None = None
    ) -> int:
        """Seat a player (with their token hash) or a bot in ``seat`` or the first free one."""
        if not self.owning:
            args = {"nickname": nickname, "token_hash": token_hash, "bot": bot, "seat": seat}
            return int(await self._forward("take_seat", args))
        async with self.lock:
            chosen = self.state.free_seat() if seat is None else seat
            if chosen is None:
                raise Refusal("full", "the table is full")
            like = self.state.look_alike(nickname)
            if like == nickname:
                raise Refusal("nickname_taken", f"the nickname {nickname!r} is taken here")
            if like is not None:
                raise Refusal(
                    "nickname_taken", f"{nickname!r} looks like {like!r}, who is at this table"
                )
            room = MAX_CHIPS - self.state.chips()
            if self.state.stack_default > room:
                raise Refusal(
                    "table_chips",
                    f"the table holds {MAX_CHIPS - room} chips: a buy-in of "
                    f"{self.state.stack_default} would pass the {MAX_CHIPS} a table may hold",
                )
            if token_hash is not None:
                self.tokens[chosen] = token_hash
            try:
                await self._commit(
                    EventKind.SEAT, {"seat": chosen, "nickname": nickname, "bot": bot}
                )
            except ItalianPokerError as error:
                self.tokens.pop(chosen, None)
                raise Refusal("illegal", str(error)) from None
            if bot is None and chosen not in self.connected_seats():
                # Not connected yet: the seat is kept for the grace period.
                self.disconnected[chosen] = self.settings.clock()
                self._spawn(self._grace(chosen, self._player(chosen)))
            return chosen

    async def remove_seat(self, seat: int) -> None:
        """Kick a player or remove a bot: their token stops working now; during a deal (or
        its 5.5 make-up questions) they are answered for automatically (check, fold, sit
        out) and leave when it ends."""
        if not self.owning:
            await self._forward("remove_seat", {"seat": seat})
            return
        async with self.lock:
            if not 0 <= seat < len(self.state.slots) or self.state.slots[seat] is None:
                raise Refusal("empty", f"seat {seat} is empty", 404)
            token = self.tokens.pop(seat, None)
            try:
                await self._commit(EventKind.UNSEAT, {"seat": seat})
            except ItalianPokerError as error:
                if token is not None:
                    self.tokens[seat] = token
                raise Refusal("illegal", str(error)) from None
            for client in self.clients.pop(seat, set()):
                client.send(error_message("kicked", "the host removed you from the table"))
                client.queue.put_nowait(None)

    async def sit(self, seat: int, out: bool) -> None:
        """Sit a player out (dealt out from the next deal; checked or folded meanwhile) or
        back in."""
        if not self.owning:
            await self._forward("sit", {"seat": seat, "out": out})
            return
        async with self.lock:
            slot = self.state.slots[seat]
            if slot is None or slot.sitting_out == out:
                return
            kind = EventKind.SIT_OUT if out else EventKind.SIT_IN
            await self._commit(kind, {"seat": seat})

    async def act(self, seat: int, hand: Any, seq: Any, data: dict[str, Any]) -> None:
        """A player's action from the WebSocket: refused (state unchanged) when stale, out of
        turn, paused, malformed or illegal."""
        if not self.owning:
            args = {"seat": seat, "hand": hand, "seq": seq, "action": data}
            await self._forward("act", args)
            return
        async with self.lock:
            state = self.state
            if seq != state.seq or hand != state.hand:
                raise Refusal(
                    "stale",
                    f"the table has moved on (hand {state.hand}, seq {state.seq}): "
                    "look again and act on the latest state",
                )
            if state.status is TableStatus.PAUSED:
                raise Refusal("paused", "the host has paused the game")
            if state.actor_slot() != seat:
                raise Refusal("not_your_turn", "it is not your turn")
            try:
                action = parse_action(data)
            except ValueError as error:
                raise Refusal("bad_message", str(error)) from None
            bank = self._use_bank(seat)
            try:
                await self._commit(EventKind.ACTION, _action_payload(seat, action, False, bank))
            except ItalianPokerError as error:
                raise Refusal("illegal", str(error)) from None

    # --- connections ----------------------------------------------------------------------

    async def connect(self, seat: int) -> Client:
        """Register a connection of ``seat`` and send it the chat's newest messages, then the
        state. The state between changes only (the table's lock): during a change's commit
        the table already holds the change, but not its clock, and the change is not
        durable yet. The chat between its changes (its lock): a message stored after the
        chat was read is sent to the connection, registered by then."""
        client = Client(seat)
        if not self._connections() and not self.owning:
            await self._follow()
        async with self.chat_lock:
            await self._send_chat_log(client)
            async with self.lock:
                before = self._presence()
                self.clients.setdefault(seat, set()).add(client)
                if not self._connected_changed(before):
                    client.send_text(self.state_text(seat))
        return client

    async def send_state(self, client: Client) -> None:
        """Send ``client`` the chat's newest messages and the state again (a later hello),
        each between its changes."""
        async with self.chat_lock:
            await self._send_chat_log(client)
        async with self.lock:
            client.send_text(self.state_text(client.seat))

    async def disconnect(self, client: Client) -> None:
        """Forget a connection; a seat left with none starts its grace period."""
        async with self.lock:
            clients = self.clients.get(client.seat)
            if clients is None:
                return
            before = self._presence()
            clients.discard(client)
            if not clients:
                del self.clients[client.seat]
            self._connected_changed(before)
        await self._unfollow()

    def _connections(self) -> bool:
        """Whether a player or a spectator is connected here."""
        return bool(self.clients or self.spectators.clients)

    def tell_presence(self) -> None:
        """A replica with connections: tell the owner who is connected here (the cluster's
        tick does it every third of a lease)."""
        if self.peers is not None and not self.owning and self._connections():
            self.peers.tell_presence(frozenset(self.clients), len(self.spectators.clients))

    async def _unfollow(self) -> None:
        """A replica left without connections: stop hearing the owner's word."""
        if not self._connections() and not self.owning and self.peers is not None:
            await self.peers.bus.unlisten(self.peers.bus.log_channel(self.id))
            await self.peers.bus.unlisten(self.peers.bus.chat_channel(self.id))

    # --- spectators -----------------------------------------------------------------------

    async def watch(self, watch_hash: str) -> Spectator | None:
        """Register a connection of the watch link ``watch_hash`` and send it the state
        (between changes); None if the link is not the table's (any more)."""
        if not self._connections() and not self.owning:
            await self._follow()
        async with self.lock:
            if self.state.watch_hash != watch_hash:
                spectator = None
            else:
                before = self._presence()
                spectator = Spectator(watch_hash)
                self.spectators.first(spectator, self.state, self.public_state())
                self._connected_changed(before)
        if spectator is None:
            await self._unfollow()
        return spectator

    async def send_watch_state(self, spectator: Spectator) -> None:
        """Send ``spectator`` the state again (a hello), between changes."""
        async with self.lock:
            if spectator in self.spectators.clients:
                self.spectators.clients.discard(spectator)
                self.spectators.first(spectator, self.state, self.public_state())

    async def unwatch(self, spectator: Spectator) -> None:
        """Forget a spectator's connection: at once, before anything is awaited (a socket
        handler cancelled as it ends still gets here), everyone told between changes."""
        if spectator in self.spectators.clients:
            before = self._presence()
            self.spectators.clients.discard(spectator)
            self._connected_changed(before)
        await self._unfollow()

    def connected_seats(self) -> set[int]:
        """Seats with a connection: here, or on another process (as its owner heard)."""
        seats = set(self.clients)
        peers = self.peers
        if peers is not None:
            if self.owning:
                seats |= peers.remote_seats()
            elif peers.heard is not None:
                seats |= peers.heard.connected - (peers.told or frozenset())
        return seats

    def spectator_count(self) -> int:
        """Spectators watching: here, or on another process (as its owner heard)."""
        count = len(self.spectators.clients)
        peers = self.peers
        if peers is not None:
            if self.owning:
                count += peers.remote_spectators()
            elif peers.heard is not None:
                count += max(0, peers.heard.spectators - peers.told_spectators)
        return count

    def _presence(self) -> tuple[set[int], int]:
        """Who is connected: the seats (:meth:`connected_seats`) and how many spectators."""
        return self.connected_seats(), self.spectator_count()

    def _connected_changed(self, before: tuple[set[int], int]) -> bool:
        """After a connection came or went, here or elsewhere (``before``: the
        :meth:`_presence` before): a seat with a connection again leaves its grace period,
        one left with none starts it (the owner's clocks), and everyone is told, between
        changes (:meth:`_broadcast_between_changes`). True if who is connected changed."""
        after = self._presence()
        seats, was = after[0], before[0]
        if self.owning:
            now = self.settings.clock()
            for seat in seats - was:
                self.disconnected.pop(seat, None)
            for seat in was - seats:
                slot = self.state.slots[seat]
                if slot is not None and slot.bot is None and seat not in self.disconnected:
                    self.disconnected[seat] = now
                    self._spawn(self._grace(seat, slot.player))
        elif self.peers is not None:
            here = (frozenset(self.clients), len(self.spectators.clients))
            if here != (self.peers.told, self.peers.told_spectators):
                self.peers.tell_presence(*here)
        if after == before:
            return False
        self._broadcast_between_changes()
        return True

    def _broadcast_between_changes(self) -> None:
        """:meth:`_broadcast_state` now, or, while the lock is held (a change applied but not
        committed yet, its clock not started; or a connection being registered), once it is
        released."""
        if not self.lock.locked():
            self._broadcast_state()
            return

        async def after_the_change() -> None:
            async with self.lock:
                self._broadcast_state()

        self._spawn(after_the_change())

    def _player(self, seat: int) -> int:
        slot = self.state.slots[seat]
        assert slot is not None
        return slot.player

    async def _grace(self, seat: int, player: int) -> None:
        """Sit ``player`` out once the grace period has run, unless they came back (or
        someone else holds the seat now)."""
        await self.settings.sleep(self.settings.reconnect_grace_seconds)
        async with self.lock:
            slot = self.state.slots[seat]
            if seat not in self.disconnected or slot is None or slot.player != player:
                return
            if not slot.sitting_out:
                await self._commit(EventKind.SIT_OUT, {"seat": seat, "auto": True})

    # --- telling players ------------------------------------------------------------------

    def clock(self) -> Clock:
        """The running turn timer, if any."""
        turn = self.turn
        seconds = self.state.options.get("turn_seconds")
        if turn is None or seconds is None:
            return Clock(None, None)
        return Clock(turn.started + float(seconds), turn.bank)

    def public_state(self, events_after: int | None = None) -> PublicState:
        """What every seat's ``state`` message has in common now (``events_after``: the seq
        the last state showed, when events came since)."""
        return public_state(
            self.state,
            invite=self.invite or "",
            connected=self.connected_seats(),
            spectators=self.spectator_count(),
            clock=self.clock(),
            log=self.log_text,
            events_after=events_after,
        )

    def state_text(self, seat: int, public: PublicState | None = None) -> str:
        """The ``state`` message for ``seat`` as JSON text (``public``: built for this
        change already), with the hint for its draw once it has been computed."""
        public = public or self.public_state()
        advice = self._advice_for(public, seat)
        return state_text(public, seat, host=seat == 0, advice=advice)

    def _advice_for(self, public: PublicState, seat: int) -> list[dict[str, Any]] | None:
        """The hint for ``seat``'s draw if it is its draw now, the table has the hint on and
        the server an advisor: computed from that seat's own view, once a turn, off the
        event loop (:meth:`_advise`); None until then (that state goes without it, and the
        seat is sent its state again once the hint is ready)."""
        if self.advisor is None or not self.state.advice_on:
            return None
        own = draws_now(public, seat)
        key = self.state.turn_key()
        if own is None or key is None:
            return None
        if self._advice is not None and self._advice[0] == key:
            return self._advice[1]
        if self._advising != key:
            self._advising = key
            self._spawn(self._advise(self.advisor, key, own))
        return None

    async def _advise(self, advisor: Advisor, key: TurnKey, own: SeatView) -> None:
        """Compute the hint for the turn ``key`` from the drawing seat's view in a worker
        thread (up to ~50 ms on 40 cards), then send that seat its state with it, if the
        turn is still the same. No hint to give (no rival left) is an empty list."""
        try:
            entries = advice_entries(await asyncio.to_thread(advisor, own))
        except ValueError:
            entries = []
        async with self.lock:
            if self._advising == key:
                self._advising = None
            if self.state.turn_key() != key:
                return
            self._advice = (key, entries)
            seat = key[1]
            clients = self.clients.get(seat)
            if clients:
                text = self.state_text(seat)
                for client in clients:
                    client.send_text(text)

    def _broadcast_state(self, events_after: int | None = None) -> None:
        """Each connected seat's own ``state`` (with what the events after ``events_after``
        said: one message a change): the public part built once, each seat's message encoded
        once for all of its connections. The owner of a table that has replicas tells them
        too (no card: each builds its own players' views)."""
        peers = self.peers
        if peers is not None and peers.lease is not None and peers.remote:
            turn = self.turn
            clock = None if turn is None else (turn.since, turn.seat, turn.started, turn.bank)
            peers.notify(self.state.seq, self.connected_seats(), clock, self.spectator_count())
        if not self._connections():
            return
        public = self.public_state(events_after)
        for seat, clients in self.clients.items():
            if not clients:
                continue
            text = self.state_text(seat, public)
            for client in clients:
                client.send_text(text)
        if self.spectators.clients:
            whole = public if events_after is None else None

            def spectators_public(whole_log: bool) -> PublicState:
                nonlocal whole
                if not whole_log:
                    return public
                if whole is None:
                    whole = self.public_state()
                return whole

            self.spectators.broadcast(self.state, spectators_public)

    # --- who acts next --------------------------------------------------------------------

    def _track_turn(self, restored: bool = False) -> None:
        """Start the clock of a new human turn, or keep the one running. A ``restored`` turn
        (after a restart) began when the event that began it was committed."""
        state = self.state
        since = state.turn_since
        actor = state.actor_slot()
        if since is None or actor is None or state.options.get("turn_seconds") is None:
            self.turn = None
            return
        if self.turn is not None and self.turn.since == since:
            return
        slot = state.slots[actor]
        if slot is None or slot.bot is not None:
            self.turn = None
            return
        now = self.settings.clock()
        started = now
        if restored:
            committed = self.store.event_time(self.id, since)
            if committed is not None:
                started = min(committed, now)
        self.turn = Turn(since, actor, started, state.bank(actor))

    def _use_bank(self, seat: int) -> float | None:
        """The seat's time bank left once the time it took beyond the turn's seconds is
        charged to it; None when the seat is not on the clock. The ``action`` event records
        it (``bank``), and the table's state takes it from there."""
        turn = self.turn
        seconds = self.state.options.get("turn_seconds")
        if turn is None or turn.seat != seat or seconds is None:
            return None
        over = max(0.0, self.settings.clock() - turn.started - float(seconds))
        return round(max(0.0, turn.bank - over), 3)

    def _schedule(self) -> None:
        """Start what happens next: a bot's move, an automatic move, the turn timer or the
        next deal. One pending task at a time, keyed by the table's seq."""
        state = self.state
        key: tuple[Any, ...] = (state.seq, state.status)
        if self._pending is not None and not self._pending.done():
            if self._pending_key == key:
                return
            self._pending.cancel()
        self._pending = None
        self._pending_key = key
        if state.status is not TableStatus.PLAYING:
            return
        actor = state.actor_slot()
        if actor is not None:
            slot = state.slots[actor]
            assert slot is not None
            if slot.bot is not None:
                self._pending = self._spawn(self._bot_turn(state.seq, actor))
            elif slot.leaving or slot.sitting_out:
                self._pending = self._spawn(self._auto_turn(state.seq, actor, 0.0))
            elif self.turn is not None and self.turn.seat == actor:
                seconds = float(state.options.get("turn_seconds") or 0)
                left = self.turn.started + seconds + self.turn.bank - self.settings.clock()
                self._pending = self._spawn(
                    self._auto_turn(state.seq, actor, max(0.0, left), expired=True)
                )
            return
        if state.match is not None and state.match.phase is MatchPhase.MAKE_UP:
            return
        if self._can_deal():
            delay = self.settings.next_deal_seconds if state.match is not None else 0.0
            self._pending = self._spawn(self._next_deal(state.seq, delay))

    def _can_deal(self) -> bool:
        """Players enough to deal in (the rules' ``min_players``), one of them a person (bots
        alone do not play on)."""
        seats = self.state.dealable()
        humans = [s for s in seats if (slot := self.state.slots[s]) and slot.bot is None]
        return len(seats) >= self.state.rules.min_players and bool(humans)

    async def _bot_turn(self, seq: int, seat: int) -> None:
        await self.settings.sleep(self.settings.bot_delay_seconds)
        async with self.lock:
            state = self.state
            slot = state.slots[seat]
            if state.seq != seq or state.actor_slot() != seat or slot is None or not slot.bot:
                return
            # The driver asks the bot (Table.step); a choice the rules refuse is replaced by
            # the default action, and the event says so.
            payload: dict[str, Any] = {"seat": seat}
            bot: Policy = _Guarded(self, seat, self._bot(seat, slot))
            view = state.view(seat)
            if slot.bot in OFF_LOOP_BOTS and view is not None:
                # Decided on a thread, from the view alone (the lock held meanwhile: nothing
                # changes the table until the decision is applied).
                chosen = await asyncio.get_running_loop().run_in_executor(None, bot.act, view)
                bot = _Decided(view, chosen, bot)
            await self._commit(EventKind.ACTION, payload, bot)
            if payload.get("default"):
                log.warning("table %s: bot %s chose an action not allowed", self.id, seat)

    def _bot(self, seat: int, slot: Slot) -> Policy:
        """The bot of ``slot`` (a bot's seat: ``slot.bot`` its level), made on its first
        turn."""
        key = (seat, slot.player)
        bot = self.bots.get(key)
        if bot is None:
            seed = None
            if self.settings.seed is not None:
                seed = derive_seed(self.settings.seed, "bot", self.id, seat)
            bot = self.bots[key] = self.bot_factory(slot.bot or "", seed)
        return bot

    async def _auto_turn(self, seq: int, seat: int, delay: float, expired: bool = False) -> None:
        """The driver's default action for ``seat`` after ``delay`` (check, pass, decline,
        stand pat, show, sit out, fold: :func:`~italian_poker.table.defaults.default_action`).
        The time the turn took is charged to the bank as for any move; a turn whose seconds
        and bank ran out (``expired``) leaves no bank."""
        if delay:
            await self.settings.sleep(delay)
        async with self.lock:
            state = self.state
            if state.seq != seq or state.actor_slot() != seat:
                return
            bank = self._use_bank(seat)
            if expired and bank is not None:
                bank = 0.0
            payload: dict[str, Any] = {"seat": seat, "auto": True}
            if bank is not None:
                payload["bank"] = bank
            await self._commit(EventKind.ACTION, payload)

    async def _next_deal(self, seq: int, delay: float) -> None:
        if delay:
            await self.settings.sleep(delay)
        async with self.lock:
            state = self.state
            if state.seq != seq or state.status is not TableStatus.PLAYING or state.in_deal:
                return
            if not self._can_deal():
                return
            # Live tables deal with the engine's CSPRNG (no seed): each event records the
            # cards it took (server/recorded_cards.py).
            payload: dict[str, Any] = {}
            if self.settings.seed is not None:  # tests and replays only
                payload["seed"] = derive_seed(self.settings.seed, "deal", self.id, state.seq)
            try:
                await self._commit(EventKind.DEAL, payload)
            except SeatError:
                log.info("table %s: no deal (%s)", self.id, state.status)

    # --- the chat -------------------------------------------------------------------------

    def seat_of_person(self, player: int) -> int | None:
        """The seat of the person ``player`` now (None once they left)."""
        for seat, slot in enumerate(self.state.slots):
            if slot is not None and slot.player == player:
                return seat
        return None

    async def chat(self, seat: int, text: str, player: int | None = None) -> None:
        """A chat message of the person in ``seat`` (``player``: that person, as the process
        that heard them knew it): checked, stored, then sent to every connection at the
        table; refused (:class:`Refusal` with a ``chat_`` code, nothing stored) when the text
        breaks the rules, the person writes too fast, holds no seat here any more, or the
        message could not be stored (``chat_not_sent``: the database failed, or, forwarded
        from another process, the table is between owners)."""
        try:
            message = check_text(text, self.settings.chat_max_length)
        except ChatRefusal as refusal:
            raise Refusal(refusal.code, refusal.message, refusal.status) from None
        slot = self.state.slots[seat] if 0 <= seat < len(self.state.slots) else None
        if player is None and slot is not None:
            player = slot.player
        if not self.owning:
            # The owner sends it to everyone, this process's players through the bus.
            try:
                await self._forward("chat", {"seat": seat, "text": message, "player": player})
            except Refusal as refusal:
                if refusal.code.startswith("chat_"):
                    raise
                raise Refusal("chat_not_sent", refusal.message, refusal.status) from None
            return
        if slot is None or slot.bot is not None or seat not in self.tokens or slot.player != player:
            raise Refusal(
                "chat_not_seated", "only a player seated at this table can write in its chat", 403
            )
        person = slot.player
        before = self.chat_buckets.get(person)
        try:
            self.chat_buckets[person] = self.chat_rate.take(before, self.settings.clock())
        except ChatRefusal as refusal:
            raise Refusal(refusal.code, refusal.message, refusal.status) from None
        async with self.chat_lock:
            try:
                stored = await self._database(
                    functools.partial(self.store.add_chat, self.id, person, slot.nickname, message)
                )
            except Exception as error:
                log.exception("table %s: a chat message could not be saved", self.id)
                if before is None:
                    self.chat_buckets.pop(person, None)
                else:
                    self.chat_buckets[person] = before
                raise Refusal(
                    "chat_not_sent", "the server could not save your message: send it again", 503
                ) from error
            self._send_chat(chat_message(stored.as_json(self.seat_of_person(person))))

    async def _send_chat_log(self, client: Client) -> None:
        """Send ``client`` the table's newest chat messages (after its hello). Caller holds
        the chat's lock."""
        slot = self.state.slots[client.seat]
        call = functools.partial(self.store.chat_messages, self.id, self.settings.chat_history)
        try:
            messages = await self._database(call)
        except Exception:
            log.exception("table %s: the chat could not be read", self.id)
            client.send(
                error_message("chat_unavailable", "the chat could not be read: reload the page")
            )
            return
        client.send(
            chat_log_message(
                [m.as_json(self.seat_of_person(m.player)) for m in messages],
                None if slot is None else slot.player,
                self.settings.chat_max_length,
            )
        )

    async def remove_chat(self, message_id: int) -> list[int]:
        """The host removes chat message ``message_id``: deleted, and gone from every page;
        404 ``no_message`` when the table has no such message."""
        if not self.owning:
            return [int(n) for n in await self._forward("remove_chat", {"message": message_id})]
        async with self.chat_lock:
            call = functools.partial(self.store.delete_chat, self.id, message_id)
            if not await self._chat_write(call):
                raise Refusal("no_message", "the chat has no such message (removed already?)", 404)
            self._send_chat(chat_removed_message([message_id]))
        return [message_id]

    async def remove_chat_of(self, player: int) -> list[int]:
        """The host removes every chat message of the person ``player``: their ids (none for
        someone seated who wrote nothing); 404 ``no_player`` for a person who neither sits
        here nor wrote here."""
        if not self.owning:
            return [int(n) for n in await self._forward("remove_chat_of", {"player": player})]
        async with self.chat_lock:
            ids = await self._chat_write(
                functools.partial(self.store.delete_chat_of, self.id, player)
            )
            if not ids and self.seat_of_person(player) is None:
                raise Refusal(
                    "no_player", "no one with this player id sits or wrote at this table", 404
                )
            if ids:
                self._send_chat(chat_removed_message(ids))
        return ids

    async def _chat_write(self, call: Callable[[], T]) -> T:
        """A store call that changes the chat, off the event loop; a failure is a 503."""
        try:
            return await self._database(call)
        except Exception as error:
            log.exception("table %s: the chat could not be changed", self.id)
            raise Refusal(
                "not_saved", "the server could not change the chat, so nothing changed", 503
            ) from error

    def _send_chat(self, message: dict[str, Any]) -> None:
        """A chat message to every connection here and, from the owner, to the other
        processes' (:meth:`heard_chat`)."""
        text = encode(message)
        for clients in self.clients.values():
            for client in clients:
                client.send_text(text)
        if self.peers is not None and self.owning:
            self.peers.chat(message)

    async def heard_chat(self, data: dict[str, Any]) -> None:
        """A replica: the owner's chat message, for the players connected here."""
        if self.owning or data.get("type") not in ("chat", "chat_removed"):
            return
        async with self.chat_lock:  # after a connection's chat log, if one is being read
            self._send_chat(data)

    # --- histories ------------------------------------------------------------------------

    def hands_of(self, seat: int) -> list[int]:
        """The finished deals the person in ``seat`` now (the holder of its token) was dealt
        in: never those of someone who sat there, or had their nickname, before."""
        slot = self.state.slots[seat]
        return [] if slot is None else self.state.hands_played(slot.player)

    def history_for(self, seat: int, hand: int) -> tuple[HandHistory, int] | None:
        """Finished deal ``hand`` and the seat in it of the person in ``seat`` now, if they
        were dealt in."""
        slot = self.state.slots[seat]
        found = None if slot is None else self.state.hand_seat(slot.player, hand)
        if found is None:
            return None
        completed, index = found
        return HandHistory.from_completed(completed), index

    def finished_histories(self) -> list[HandHistory]:
        """Every finished deal of the table, oldest first, whoever was dealt in: for what
        everyone may know of them (``table.statistics``), never to show their cards."""
        return [HandHistory.from_completed(c) for c in self.finished_deals()]

    def finished_deals(self) -> tuple[CompletedDeal, ...]:
        """The match's record of every finished deal, oldest first, as it is now (frozen
        records: a worker thread may read them while the table plays on)."""
        match = self.state.match
        return () if match is None else tuple(match.completed)

    # --- the ledger -----------------------------------------------------------------------

    async def ledger(self) -> tuple[list[dict[str, Any]], list[Holding], int]:
        """The ledger's rows (oldest first, as :meth:`Store.ledger` gives them), the chips of
        each person seated and the chips in the pot, read together between changes: the
        rows of every event the table has applied are committed by then."""
        async with self.lock:
            rows = await self._database(functools.partial(self.store.ledger, self.id))
            state = self.state
            seated = [
                Holding(slot.player, slot.nickname, state.stack(i))
                for i, slot in enumerate(state.slots)
                if slot is not None
            ]
            return rows, seated, state.pot()

    def frames_for(self, seat: int, hand: int) -> HandFrames | None:
        """Finished deal ``hand`` step by step (the hand replayer) for the person in ``seat``
        now: their own view if they were dealt in, else the public view, which shows no
        hidden card (how a hand shared with the others at the table is seen); None when
        the table has no such finished deal."""
        found = self.history_for(seat, hand)
        if found is None:
            completed = self.state.completed(hand)
            if completed is None:
                return None
            return hand_frames(
                HandHistory.from_completed(completed), PUBLIC, self.state.requirement_after(hand)
            )
        history, index = found
        return hand_frames(history, index, self.state.requirement_after(hand))

    # --- host -----------------------------------------------------------------------------

    async def host(self, kind: EventKind, payload: dict[str, Any] | None = None) -> None:
        """A host's start, pause, resume, stack adjustment (which keeps the table's chips
        within :data:`MAX_CHIPS`, or is refused with the range allowed) or change of who may
        see the ledger."""
        payload = payload or {}
        if not self.owning:
            await self._forward("host", {"kind": kind.value, "payload": payload})
            return
        async with self.lock:
            if kind is EventKind.STACK:
                self._check_stack(int(payload["seat"]), int(payload["amount"]))
            try:
                await self._commit(kind, payload)
            except ItalianPokerError as error:
                raise Refusal("illegal", str(error)) from None

    def _check_stack(self, seat: int, amount: int) -> None:
        state = self.state
        if not 0 <= seat < len(state.slots) or state.slots[seat] is None:
            return  # the event says what is wrong
        most = MAX_CHIPS - (state.chips() - state.stack(seat))
        if amount > most:
            raise Refusal(
                "bad_request",
                f"amount: seat {seat}'s chips must be 1 to {most} now "
                f"(a table holds at most {MAX_CHIPS} chips)",
                422,
            )

    # --- several processes (server/peers.py) ---------------------------------------------

    async def _forward(self, op: str, args: dict[str, Any]) -> Any:
        """A replica: have the owner do ``op``, then catch up with what it wrote; its
        refusal is this request's."""
        assert self.peers is not None
        try:
            result = await self.peers.forward(op, args)
        except Refused as refused:
            raise Refusal(refused.code, refused.message, refused.status) from None
        except NoOwner:
            raise Refusal(
                "no_owner",
                "the table is moving to another server: try again in a few seconds",
                503,
            ) from None
        await self.sync()
        return result

    async def command(self, data: dict[str, Any]) -> None:
        """The owner: a command from another process's player (:meth:`_forward`), or who is
        connected there; answered on that process's replies channel."""
        peers = self.peers
        assert peers is not None
        node, number, args = str(data.get("node") or ""), data.get("id"), data.get("args") or {}
        op = data.get("op")
        if op == "presence":
            before = self._presence()
            seats = frozenset(int(s) for s in args.get("seats") or ())
            watching = args.get("spectators")
            count = watching if isinstance(watching, int) and watching > 0 else 0
            peers.presence(node, seats, self._now(), count)
            self._connected_changed(before)
            return
        try:
            if not self.owning:
                raise Refusal("no_owner", "the table is moving to another server: try again", 503)
            result = await self._run(str(op), args)
        except Refusal as refusal:
            if isinstance(number, int):
                peers.bus.reply(
                    node, number, refusal=Refused(refusal.code, refusal.message, refusal.status)
                )
            return
        except Exception:
            log.exception("table %s: command %r from %s failed", self.id, op, node)
            if isinstance(number, int):
                failed = Refused("server_error", "the server could not do this", 500)
                peers.bus.reply(node, number, refusal=failed)
            return
        if isinstance(number, int):
            peers.bus.reply(node, number, ok=result)

    async def _run(self, op: str, args: dict[str, Any]) -> Any:
        """Do a forwarded ``op`` here, the owner, as for a player of this process."""
        if op == "act":
            await self.act(int(args["seat"]), args.get("hand"), args.get("seq"), args["action"])
        elif op == "take_seat":
            seat = args.get("seat")
            return await self.take_seat(
                str(args["nickname"]),
                args.get("token_hash"),
                args.get("bot"),
                None if seat is None else int(seat),
            )
        elif op == "remove_seat":
            await self.remove_seat(int(args["seat"]))
        elif op == "sit":
            await self.sit(int(args["seat"]), bool(args["out"]))
        elif op == "host":
            await self.host(EventKind(args["kind"]), dict(args.get("payload") or {}))
        elif op == "chat":
            player = args.get("player")
            await self.chat(
                int(args["seat"]), str(args["text"]), None if player is None else int(player)
            )
        elif op == "remove_chat":
            return await self.remove_chat(int(args["message"]))
        elif op == "remove_chat_of":
            return await self.remove_chat_of(int(args["player"]))
        else:
            raise Refusal("bad_message", f"no such command: {op!r}", 400)
        return None

    def _now(self) -> float:
        return self.settings.clock()

    def expire_peers(self) -> None:
        """The owner: forget processes that stopped saying who is connected there."""
        if self.peers is None or not self.owning:
            return
        before = self._presence()
        if self.peers.expire(self._now()):
            self._connected_changed(before)

    async def heard(self, data: dict[str, Any]) -> None:
        """A replica: the owner's word that the table changed; catch up from the log."""
        peers = self.peers
        if peers is None or self.owning:
            return
        word, before = Heard.of(data), peers.heard
        peers.heard = word
        since = word.turn
        self.turn = None if since is None else Turn(*since)
        if before is None or before.owner != word.owner:
            # An owner heard of for the first time may not know who is here yet.
            self.tell_presence()
        if word.seq > self.state.seq:
            await self.sync()
        elif before is None or (before.connected, before.turn, before.spectators) != (
            word.connected,
            word.turn,
            word.spectators,
        ):
            self._broadcast_between_changes()  # who is connected, or the clock, changed

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
                    client.queue.put_nowait(None)
            if events or kicked:
                self._broadcast_state(events_after=before)

    async def _follow(self) -> None:
        """A replica: hear the owner's word and chat from now on, and catch up."""
        assert self.peers is not None
        bus = self.peers.bus
        await bus.listen(bus.log_channel(self.id), self.heard)
        await bus.listen(bus.chat_channel(self.id), self.heard_chat)
        await self.sync()

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
            self.turn = None
            bus = peers.bus
            await bus.listen(bus.commands_channel(self.id), self.command)
            await bus.unlisten(bus.log_channel(self.id))
            await bus.unlisten(bus.chat_channel(self.id))
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
        await self._cancel_tasks()
        self.disconnected.clear()
        self.turn = None
        await peers.bus.unlisten(peers.bus.commands_channel(self.id))
        await self._reload()
        if self._connections():
            await peers.bus.listen(peers.bus.log_channel(self.id), self.heard)
            await peers.bus.listen(peers.bus.chat_channel(self.id), self.heard_chat)
            self.tell_presence()
        self._broadcast_state()


class _Decided:
    """A bot's decision made beforehand for ``view``; asked about another view (which the
    table does not do), the bot itself answers."""

    def __init__(self, view: SeatView, action: Action, bot: Policy) -> None:
        self.view, self.action, self.bot = view, action, bot

    def act(self, view: SeatView) -> Action:
        return self.action if view == self.view else self.bot.act(view)


class _Guarded:
    """A bot whose failure (an exception) is logged and answered with the default action."""

    def __init__(self, runtime: TableRuntime, seat: int, bot: Policy) -> None:
        self.runtime, self.seat, self.bot = runtime, seat, bot

    def act(self, view: SeatView) -> Action:
        try:
            return self.bot.act(view)
        except Exception:
            log.exception("table %s: bot %s failed", self.runtime.id, self.seat)
            return default_action(view.legal_actions)
