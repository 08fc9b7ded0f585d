"""A table's WebSocket connections coming and going: a player's (after its ``hello``: the
chat's newest messages, then the state) and a spectator's (the state, as the watch link
shows it). Each is registered between the table's changes (its lock: during a change's
commit the table already holds the change, but not its clock, and the change is not
durable yet) and everyone is told who is connected now (:mod:`italian_poker.server.presence`).
A replica follows its owner while it has a connection (:mod:`italian_poker.server.replication`)."""

from __future__ import annotations

from italian_poker.server.broadcast import Broadcast
from italian_poker.server.outbox import Client, Spectator
from italian_poker.server.presence import Presence
from italian_poker.server.replication import Replication
from italian_poker.server.table_chat import TableChat
from italian_poker.server.table_core import TableCore, TablePart


class SpectatorsFull(Exception):
    """A table watched by as many spectators as its cap allows."""

    def __init__(self, cap: int) -> None:
        super().__init__(f"this table has {cap} spectators already, the most it allows: try later")
        self.cap = cap


class Connections(TablePart):
    """The players' and the spectators' connections to the table on this process."""

    def __init__(
        self,
        table: TableCore,
        presence: Presence,
        table_chat: TableChat,
        broadcast: Broadcast,
        replication: Replication,
    ) -> None:
        super().__init__(table)
        self.presence, self.table_chat = presence, table_chat
        self.broadcast, self.replication = broadcast, replication

    async def connect(self, seat: int) -> Client:
        """Register a connection of ``seat`` and send it the chat's newest messages, then the
        state. The state between changes only (the table's lock). The chat between its
        changes (its lock): a message stored after the chat was read is sent to the
        connection, registered by then."""
        client = Client(seat)
        await self.replication.follow()
        async with self.table_chat.chat_lock:
            await self.table_chat.send_log(client)
            async with self.lock:
                before = self.presence.now()
                self.presence.clients.setdefault(seat, set()).add(client)
                if not self.presence.changed(before):
                    client.send_text(self.broadcast.state_text(seat))
        return client

    async def send_state(self, client: Client) -> None:
        """Send ``client`` the chat's newest messages and the state again (a later hello),
        each between its changes."""
        async with self.table_chat.chat_lock:
            await self.table_chat.send_log(client)
        async with self.lock:
            client.send_text(self.broadcast.state_text(client.seat))

    async def disconnect(self, client: Client) -> None:
        """Forget a connection; a seat left with none starts its grace period."""
        async with self.lock:
            clients = self.presence.clients.get(client.seat)
            if clients is None:
                return
            before = self.presence.now()
            clients.discard(client)
            if not clients:
                del self.presence.clients[client.seat]
            self.presence.changed(before)
        await self.replication.unfollow()

    async def watch(self, watch_hash: str, cap: int | None = None) -> Spectator | None:
        """Register a connection of the watch link ``watch_hash`` and send it the state
        (between changes); None if the link is not the table's (any more). With ``cap``, a
        table watched by ``cap`` spectators already (here and on other processes) refuses
        one more: :class:`SpectatorsFull`."""
        await self.replication.follow()
        spectators = self.table.spectators
        full = False
        async with self.lock:
            if self.state.switches.watch_hash != watch_hash:
                spectator = None
            elif cap is not None and self.presence.spectator_count() >= cap:
                spectator, full = None, True
            else:
                before = self.presence.now()
                spectator = Spectator(watch_hash)
                spectators.first(spectator, self.state, self.broadcast.public_state())
                self.presence.changed(before)
        if spectator is None:
            await self.replication.unfollow()
        if full and cap is not None:
            raise SpectatorsFull(cap)
        return spectator

    async def send_watch_state(self, spectator: Spectator) -> None:
        """Send ``spectator`` the state again (a hello), between changes."""
        spectators = self.table.spectators
        async with self.lock:
            if spectator in spectators.clients:
                spectators.clients.discard(spectator)
                spectators.first(spectator, self.state, self.broadcast.public_state())

    async def unwatch(self, spectator: Spectator) -> None:
        """Forget a spectator's connection: at once, before anything is awaited (a socket
        handler cancelled as it ends still gets here), everyone told between changes."""
        spectators = self.table.spectators
        if spectator in spectators.clients:
            before = self.presence.now()
            spectators.clients.discard(spectator)
            self.presence.changed(before)
        await self.replication.unfollow()
