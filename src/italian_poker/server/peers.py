"""A table's link to the other server processes (several processes): what its
:class:`~italian_poker.server.table_runtime.TableRuntime` says on the bus and hears there.

A table has one owner process, the one holding its lease (:mod:`italian_poker.server.lease`):
it alone applies and writes events, runs the bots and the clocks. Every other process with
a player of the table connected keeps a **replica**: the same
:class:`~italian_poker.server.table_state.TableState`, rebuilt from the event log in the
database as it grows, from which it builds its own players' views (so a card never travels
between processes). What a replica's player asks is forwarded to the owner
(:meth:`TablePeers.forward`), and the owner tells the replicas when the table changed
(:meth:`TablePeers.notify`): its seq, who is connected (on every process: the seats, and how
many spectators watch) and the turn's clock, nothing else. The table's chat, which is no
event, goes from the owner to the replicas on a channel of its own (:meth:`TablePeers.chat`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from italian_poker.server.bus import Bus
from italian_poker.server.lease import Lease

FORWARD_SECONDS = 5.0
"""How long a forwarded request waits for the owner's answer at most."""


@dataclass(frozen=True, slots=True)
class Heard:
    """The owner's last word to the replicas: its last event, who is connected anywhere,
    the turn's clock (``(since, seat, started, bank)``), the owner's name and how many
    spectators watch on every process."""

    seq: int
    connected: frozenset[int]
    turn: tuple[int, int, float, float] | None
    owner: str
    spectators: int = 0

    @classmethod
    def of(cls, data: dict[str, Any]) -> Heard:
        """A log channel's message, read."""
        turn = data.get("turn")
        return cls(
            int(data["seq"]),
            frozenset(int(s) for s in data.get("connected") or ()),
            None
            if not isinstance(turn, list) or len(turn) != 4
            else (int(turn[0]), int(turn[1]), float(turn[2]), float(turn[3])),
            str(data.get("owner") or ""),
            _count(data.get("spectators")),
        )


def _count(value: Any) -> int:
    """A count from the bus: a whole number, 0 for anything else."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


class TablePeers:
    """One table's side of the bus: the lease while this process owns the table, who is
    connected on other processes (as the owner), the owner's last word (as a replica)."""

    def __init__(self, bus: Bus, table_id: int, lease_seconds: float) -> None:
        self.bus = bus
        self.table_id = table_id
        self.lease_seconds = lease_seconds
        self.lease: Lease | None = None
        """Held while this process owns the table."""
        self.remote: dict[str, tuple[frozenset[int], int, float]] = {}
        """As the owner: per other process, the seats connected there, how many spectators
        watch there, and when it said so."""
        self.heard: Heard | None = None
        """As a replica: the owner's last word."""
        self.told: frozenset[int] | None = None
        """As a replica: the seats connected here, as last told to the owner."""
        self.told_spectators = 0
        """As a replica: the spectators watching here, as last told to the owner."""

    @property
    def node(self) -> str:
        """This process's name."""
        return self.bus.node

    # --- as the owner ---------------------------------------------------------------------

    def remote_seats(self) -> set[int]:
        """Seats with a connection on another process."""
        seats: set[int] = set()
        for connected, _, _ in self.remote.values():
            seats |= connected
        return seats

    def remote_spectators(self) -> int:
        """Spectators watching on other processes."""
        return sum(watching for _, watching, _ in self.remote.values())

    def presence(self, node: str, seats: frozenset[int], now: float, spectators: int = 0) -> None:
        """Process ``node`` says these seats are connected there now, and ``spectators``
        watch there."""
        if seats or spectators:
            self.remote[node] = (seats, spectators, now)
        else:
            self.remote.pop(node, None)

    def expire(self, now: float) -> bool:
        """Forget processes not heard of for a lease's time (they died, or lost Redis);
        True if any was forgotten."""
        stale = [n for n, (_, _, seen) in self.remote.items() if now - seen > self.lease_seconds]
        for node in stale:
            del self.remote[node]
        return bool(stale)

    def notify(
        self,
        seq: int,
        connected: set[int],
        turn: tuple[int, int, float, float] | None,
        spectators: int = 0,
    ) -> None:
        """Tell the replicas the table is at ``seq`` (public: no card, ever)."""
        message = {
            "seq": seq,
            "connected": sorted(connected),
            "turn": None if turn is None else list(turn),
            "owner": self.node,
            "spectators": spectators,
        }
        self.bus.publish(self.bus.log_channel(self.table_id), message)

    def chat(self, message: dict[str, Any]) -> None:
        """Send the replicas a chat message of the WebSocket's (``chat``, ``chat_removed``),
        for their players."""
        self.bus.publish(self.bus.chat_channel(self.table_id), message)

    # --- as a replica ---------------------------------------------------------------------

    async def forward(self, op: str, args: dict[str, Any]) -> Any:
        """Ask the owner to do ``op``; its answer, or :class:`~italian_poker.server.bus.Refused`
        / :class:`~italian_poker.server.bus.NoOwner`."""
        return await self.bus.call(self.table_id, op, args, FORWARD_SECONDS)

    def tell_presence(self, seats: frozenset[int], spectators: int = 0) -> None:
        """Tell the owner which seats are connected here, and how many spectators watch."""
        self.told, self.told_spectators = seats, spectators
        self.bus.tell(self.table_id, "presence", {"seats": sorted(seats), "spectators": spectators})
