"""A table's side of the bus (several processes, :mod:`italian_poker.server.peers`): as the
owner, it runs the commands other processes' players sent (:mod:`italian_poker.server.commands`)
and hears who is connected there; as a replica, it follows the owner's word (the table
changed: catch up from the log; who is connected; the turn's clock) and its chat, while a
player or a spectator is connected here."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from italian_poker.server.bus import Refused
from italian_poker.server.commands import Play, decode
from italian_poker.server.peers import Heard, TablePeers
from italian_poker.server.presence import Presence
from italian_poker.server.refusal import Refusal
from italian_poker.server.table_chat import TableChat
from italian_poker.server.table_core import TableCore, TablePart
from italian_poker.server.turn_clock import TurnClock

log = logging.getLogger(__name__)


class Replication(TablePart):
    """What the table says and hears on the bus."""

    def __init__(
        self,
        table: TableCore,
        presence: Presence,
        clock: TurnClock,
        table_chat: TableChat,
        play: Callable[[], Play],
    ) -> None:
        super().__init__(table)
        self.presence, self.clock, self.table_chat, self.play = presence, clock, table_chat, play

    @property
    def peers(self) -> TablePeers:
        """The table's link to the other processes (there are some)."""
        peers = self.table.peers
        assert peers is not None
        return peers

    # --- as the owner ---------------------------------------------------------------------

    async def command(self, data: dict[str, Any]) -> None:
        """The owner: a command from another process's player
        (:class:`~italian_poker.server.ownership.ForwardingTable`), or who is connected
        there; answered on that process's replies channel."""
        peers = self.peers
        node, number, args = str(data.get("node") or ""), data.get("id"), data.get("args") or {}
        op = data.get("op")
        if op == "presence":
            before = self.presence.now()
            seats = frozenset(int(s) for s in args.get("seats") or ())
            watching = args.get("spectators")
            count = watching if isinstance(watching, int) and watching > 0 else 0
            peers.presence(node, seats, self.settings.clock(), count)
            self.presence.changed(before)
            return
        try:
            if not self.owning:
                raise Refusal("no_owner", "the table is moving to another server: try again", 503)
            result = await decode(str(op), args).run(self.play())
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

    def expire(self) -> None:
        """The owner: forget processes that stopped saying who is connected there."""
        if self.table.peers is None or not self.owning:
            return
        before = self.presence.now()
        if self.peers.expire(self.settings.clock()):
            self.presence.changed(before)

    async def listen_as_owner(self) -> None:
        """Hear the other processes' commands, not the owner's word."""
        bus = self.peers.bus
        await bus.listen(bus.commands_channel(self.id), self.command)
        await bus.unlisten(bus.log_channel(self.id))
        await bus.unlisten(bus.chat_channel(self.id))

    # --- as a replica ---------------------------------------------------------------------

    async def heard(self, data: dict[str, Any]) -> None:
        """A replica: the owner's word that the table changed; catch up from the log."""
        peers = self.table.peers
        if peers is None or self.owning:
            return
        word, before = Heard.of(data), peers.heard
        peers.heard = word
        self.clock.heard(word.turn)
        if before is None or before.owner != word.owner:
            # An owner heard of for the first time may not know who is here yet.
            self.presence.tell()
        if word.seq > self.state.seq:
            await self.table.sync()
        elif before is None or (before.connected, before.turn, before.spectators) != (
            word.connected,
            word.turn,
            word.spectators,
        ):
            self.table.publish_between_changes()  # who is connected, or the clock, changed

    async def listen(self) -> None:
        """Hear the owner's word and chat from now on."""
        bus = self.peers.bus
        await bus.listen(bus.log_channel(self.id), self.heard)
        await bus.listen(bus.chat_channel(self.id), self.table_chat.heard)

    async def follow(self) -> None:
        """A replica about to have its first connection here: hear the owner from now on,
        and catch up."""
        if not self.presence.connections() and not self.owning:
            await self.listen()
            await self.table.sync()

    async def unfollow(self) -> None:
        """A replica left without connections: stop hearing the owner's word."""
        peers = self.table.peers
        if not self.presence.connections() and not self.owning and peers is not None:
            await peers.bus.unlisten(peers.bus.log_channel(self.id))
            await peers.bus.unlisten(peers.bus.chat_channel(self.id))
