"""The server's configuration, fixed when the application is created."""

from __future__ import annotations

import asyncio
import os
import socket
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field

from italian_poker.server.client_address import TrustedProxies
from italian_poker.server.rate_limits import (
    COSTLY_REQUESTS,
    SEAT_TAKES,
    SOCKET_OPENS,
    TABLE_CREATIONS,
    Kind,
    Rate,
)
from italian_poker.table.paths import data_dir

DATABASE_FILE = "server.sqlite3"
CHAT_STORED_LENGTH = 1000
"""The longest chat text the database holds (``chat_messages.text``, ``String(1000)``)."""


def default_database_url(environ: Mapping[str, str] | None = None) -> str:
    """SQLite in the user's data directory (``ITALIAN_POKER_DATA_DIR`` overrides it)."""
    return f"sqlite:///{data_dir(environ) / DATABASE_FILE}"


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """Everything the server needs to know; tests shorten the timers and pass a seed."""

    database_url: str = ""
    """SQLAlchemy URL; empty means :func:`default_database_url`."""
    host: str = "127.0.0.1"
    port: int = 8000
    public_url: str | None = None
    """The URL players open (e.g. behind a proxy); its origin is also allowed."""
    allowed_origins: tuple[str, ...] = ()
    """Extra ``scheme://host:port`` origins allowed to open the WebSocket."""
    max_message_bytes: int = 4096
    """The longest WebSocket message a client may send."""
    max_body_bytes: int = 16_384
    """The longest request body (larger ones are a 413 before they are read)."""
    rate_per_second: float = 20.0
    rate_burst: int = 40
    rate_strikes: int = 20
    """Refused messages in a row (over the rate) after which the connection is closed."""
    hello_timeout_seconds: float = 5.0
    reconnect_grace_seconds: float = 60.0
    default_turn_seconds: int | None = 30
    default_time_bank_seconds: int = 60
    bot_delay_seconds: float = 0.8
    next_deal_seconds: float = 3.0
    """Pause between deals, so that everyone can read the result."""
    fair_value_seconds: float = 1.5
    """How long a deal waits, after its deck's commitment, for the seated players' values
    (those that have not sent one get the server's: server/fair_deal.py)."""
    seed: int | None = None
    """None (live tables): every card is chosen with the system's CSPRNG (``secrets``), no
    seed; the log records the cards each event took. An int, for tests and replays only,
    seeds each deal so that play is reproducible."""
    log_size: int = 50
    chat_max_length: int = 200
    """The longest chat message, in characters (code points), once trimmed; at most
    :data:`CHAT_STORED_LENGTH`."""
    chat_burst: int = 5
    chat_interval_seconds: float = 2.0
    """A person may write ``chat_burst`` chat messages at once, then one every
    ``chat_interval_seconds`` (a token bucket of their own, apart from the WebSocket's
    :attr:`rate_per_second`)."""
    chat_history: int = 50
    """Chat messages a connection is sent after its hello (the newest)."""
    database_threads: int | None = None
    """Threads that write the tables' events to the database; None: one for SQLite (a
    single writer at a time: more would wait on its lock, and busy-wait), 8 otherwise."""
    collector_interval: float | None = 0.25
    """Seconds between two freezes of the garbage collector at most, when deals end
    (:mod:`italian_poker.server.collector`: no collection then scans every table at once);
    None leaves the collector as Python runs it."""
    redis_url: str | None = None
    """Redis shared by several server processes on one database
    (:mod:`italian_poker.server.cluster`): ``redis://host:port/db``, with a password
    ``redis://user:password@host:port/db``, over TLS ``rediss://user:password@host:port/db``,
    or ``unix:///path``; None: this process is the only one, and owns every table."""
    bus_secret: str | None = field(default=None, repr=False)
    """The secret the processes sharing :attr:`redis_url` seal their messages with
    (:mod:`italian_poker.server.bus_seal`; at least 16 characters, the same in every
    process); required with :attr:`redis_url`, unused without. Never printed nor logged."""
    bus_window_seconds: float = 30.0
    """How old a message between processes may be (their clocks may differ by less)."""
    lease_seconds: float = 10.0
    """How long a process's claim on a table (its lease in Redis) lasts unless renewed: the
    longest a table waits for another process after its owner died."""
    max_live_tables: int = 1000
    """The most tables this process keeps in memory (live); at the cap, a table nobody is
    at (see :attr:`idle_unload_seconds`) is unloaded to make room, the least recently used
    first, and with none such a new table is refused (503 ``busy``)."""
    idle_unload_seconds: float = 600.0
    """A table with nobody connected (no player, no spectator) and nothing running by itself
    (no bot's move, automatic move or deal pending) for this long is unloaded: its timers and
    bots stop and it leaves memory; the next request or connection rebuilds it from its log."""
    expire_days: float = 30.0
    """A table nobody has joined or played for this many days is expired by the sweep: its
    events, seats and chat are deleted, and its links answer 410 Gone."""
    keep_days: int = 30
    """The days an expired table's ledger and finished deals' histories are kept, unless
    its host chose otherwise at creation (``keep_days``; 0: deleted with the events)."""
    sweep_seconds: float | None = 60.0
    """Seconds between two sweeps (unloading idle tables, expiring abandoned ones, deleting
    the records whose days are over); None: no periodic sweep (``Server.sweep`` by hand)."""
    node: str | None = None
    """This process's name among several (default: the host name and process id)."""
    address_limits: bool = True
    """Whether the per-address limits below apply (docs/security.md); False switches them
    all off (tests that create hundreds of tables from one test client)."""
    table_creations: Rate | None = TABLE_CREATIONS
    """Tables one address may create (``POST /api/tables``): 10 at once, then 30 an hour."""
    seat_takes: Rate | None = SEAT_TAKES
    """Seats one address may take or ask for (``POST .../seats``): 20 at once (a whole
    group behind one home router), then 30 a minute."""
    socket_opens: Rate | None = SOCKET_OPENS
    """WebSockets one address may open, a table's and a watch link's together: 30 at once,
    then 60 a minute (a page reconnects with a growing pause)."""
    costly_requests: Rate | None = COSTLY_REQUESTS
    """Downloads one address may ask for that the server builds from a table's log (hand
    histories and replays, statistics, the ledger as JSON and CSV, a group's statistics):
    30 at once, then 60 a minute."""
    address_memory: int = 10_000
    """The most client addresses whose buckets are kept (the least recently seen forgotten
    first): the limits' memory stays bounded."""
    trusted_proxies: tuple[str, ...] = ()
    """Reverse proxies (addresses or networks) whose ``X-Forwarded-For`` names the client;
    none by default: the peer's address is the client's."""
    spectator_cap: int | None = 50
    """The most spectators one table's watch link may have at once; None: no cap."""
    clock: Callable[[], float] = time.time
    """Wall-clock seconds since the epoch that the turn timer reads (the event log's commit
    times are on the same clock); tests pass a clock they can move."""
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    """How the table's timers wait (a turn running out, a bot's delay, the pause between
    deals, the reconnect grace period): seconds on :attr:`clock`. Tests pass one that ends
    when their clock has moved on."""

    def __post_init__(self) -> None:
        if not 1 <= self.chat_max_length <= CHAT_STORED_LENGTH:
            raise ValueError(
                f"chat_max_length is 1 to {CHAT_STORED_LENGTH} (what chat_messages.text "
                f"holds), got {self.chat_max_length}"
            )
        if self.chat_burst < 1 or not self.chat_interval_seconds > 0 or self.chat_history < 0:
            raise ValueError(
                "the chat needs a burst of at least 1, an interval over 0 s and a history "
                "of 0 or more messages"
            )

        TrustedProxies.of(self.trusted_proxies)  # ValueError for one that is no address
        if self.address_memory < 1 or (self.spectator_cap is not None and self.spectator_cap < 0):
            raise ValueError("address_memory is at least 1 and spectator_cap 0 or more")
        if self.max_live_tables < 1 or self.idle_unload_seconds < 0 or self.keep_days < 0:
            raise ValueError(
                "max_live_tables is at least 1, idle_unload_seconds and keep_days 0 or more"
            )
        if not self.expire_days > 0:
            raise ValueError(f"expire_days is over 0, got {self.expire_days}")

    def address_rates(self) -> dict[Kind, Rate]:
        """The per-address rates that apply, by what they count (none when
        :attr:`address_limits` is off)."""
        if not self.address_limits:
            return {}
        rates = {
            Kind.TABLE: self.table_creations,
            Kind.SEAT: self.seat_takes,
            Kind.SOCKET: self.socket_opens,
            Kind.COSTLY: self.costly_requests,
        }
        return {kind: rate for kind, rate in rates.items() if rate is not None}

    def resolved_database_url(self) -> str:
        """The database URL to use."""
        return self.database_url or default_database_url()

    def resolved_database_threads(self) -> int:
        """:attr:`database_threads`, or what suits the database."""
        if self.database_threads is not None:
            return self.database_threads
        return 1 if self.resolved_database_url().startswith("sqlite") else 8

    def resolved_node(self) -> str:
        """:attr:`node`, or the host name and process id."""
        return self.node or f"{socket.gethostname()}-{os.getpid()}"

    @property
    def base_url(self) -> str:
        """The URL to print for the host."""
        if self.public_url:
            return self.public_url.rstrip("/")
        host = "127.0.0.1" if self.host in ("0.0.0.0", "::") else self.host
        return f"http://{host}:{self.port}"
