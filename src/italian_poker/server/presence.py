"""Who is connected to a table: its players' connections on this process, and, with several
processes, those on the others (as the owner heard them, :mod:`italian_poker.server.peers`);
the spectators likewise. A seat left with no connection keeps its place for the grace period
(``reconnect_grace_seconds``), then is sat out (an automatic ``sit_out`` event); one that
comes back meanwhile leaves its grace period. Only the owner runs the grace periods."""

from __future__ import annotations

from italian_poker.server.event_kinds import EventKind
from italian_poker.server.outbox import Client
from italian_poker.server.protocol import error_message
from italian_poker.server.table_core import TableCore, TablePart

Who = tuple[set[int], int]
"""Who is connected: the seats, and how many spectators."""


class Presence(TablePart):
    """The table's connections here and the seats on their grace period."""

    def __init__(self, table: TableCore) -> None:
        super().__init__(table)
        self.clients: dict[int, set[Client]] = {}
        """The players' connections on this process, by seat."""
        self.disconnected: dict[int, float] = {}
        """The seats on their grace period (the owner's), and since when."""

    def connections(self) -> bool:
        """Whether a player or a spectator is connected here."""
        return bool(self.clients or self.table.spectators.clients)

    def connected_seats(self) -> set[int]:
        """Seats with a connection: here, or on another process (as its owner heard)."""
        seats = set(self.clients)
        peers = self.table.peers
        if peers is not None:
            if self.owning:
                seats |= peers.remote_seats()
            elif peers.heard is not None:
                seats |= peers.heard.connected - (peers.told or frozenset())
        return seats

    def spectator_count(self) -> int:
        """Spectators watching: here, or on another process (as its owner heard)."""
        count = len(self.table.spectators.clients)
        peers = self.table.peers
        if peers is not None:
            if self.owning:
                count += peers.remote_spectators()
            elif peers.heard is not None:
                count += max(0, peers.heard.spectators - peers.told_spectators)
        return count

    def now(self) -> Who:
        """Who is connected: the seats (:meth:`connected_seats`) and how many spectators."""
        return self.connected_seats(), self.spectator_count()

    def changed(self, before: Who) -> bool:
        """After a connection came or went, here or elsewhere (``before``: :meth:`now` before):
        a seat with a connection again leaves its grace period, one left with none starts it
        (the owner's clocks), and everyone is told, between changes. True if who is connected
        changed."""
        after = self.now()
        seats, was = after[0], before[0]
        peers = self.table.peers
        if self.owning:
            now = self.settings.clock()
            for seat in seats - was:
                self.disconnected.pop(seat, None)
            for seat in was - seats:
                slot = self.state.slots[seat]
                if slot is not None and slot.bot is None and seat not in self.disconnected:
                    self.disconnected[seat] = now
                    self._spawn(self._grace(seat, slot.player))
        elif peers is not None:
            here = (frozenset(self.clients), len(self.table.spectators.clients))
            if here != (peers.told, peers.told_spectators):
                peers.tell_presence(*here)
        if after == before:
            return False
        self.table.publish_between_changes()
        return True

    def tell(self) -> None:
        """A replica with connections: tell the owner who is connected here."""
        peers = self.table.peers
        if peers is not None and not self.owning and self.connections():
            peers.tell_presence(frozenset(self.clients), len(self.table.spectators.clients))

    def absent(self) -> None:
        """After a restart: every human seat not connected starts its grace period."""
        now = self.settings.clock()
        for seat, slot in enumerate(self.state.slots):
            if slot is None or slot.bot is not None or slot.sitting_out:
                continue
            if seat not in self.disconnected and seat not in self.connected_seats():
                self.disconnected[seat] = now
                self._spawn(self._grace(seat, slot.player))

    def keep_seat(self, seat: int) -> None:
        """A person just seated in ``seat``: if not connected yet, the seat is kept for the
        grace period."""
        slot = self.state.slots[seat]
        if slot is not None and slot.bot is None and seat not in self.connected_seats():
            self.disconnected[seat] = self.settings.clock()
            self._spawn(self._grace(seat, slot.player))

    def kick(self, seat: int) -> None:
        """Close the connections of ``seat``, whose player the host removed."""
        for client in self.clients.pop(seat, set()):
            client.send(error_message("kicked", "the host removed you from the table"))
            client.end()

    def end(self) -> None:
        """Close every player's connection here (the server stops)."""
        for clients in self.clients.values():
            for client in clients:
                client.end()

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
