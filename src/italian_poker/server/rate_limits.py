"""Per-address token buckets: how often one client address may create a table, take a
seat, open a WebSocket or ask for a costly download (docs/security.md).

A :class:`Rate` says how many requests a period allows and how many may come at once; an
:class:`AddressBuckets` keeps one bucket per address and kind, the least recently seen
addresses forgotten beyond a bound, so that its memory stays bounded however many addresses
call. The time is the settings' clock, which tests move.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum


@dataclass(frozen=True, slots=True)
class Rate:
    """``count`` requests per ``period_seconds``, up to ``burst`` of them at once."""

    count: int
    period_seconds: float
    burst: int

    def __post_init__(self) -> None:
        if self.count < 1 or not self.period_seconds > 0 or self.burst < 1:
            raise ValueError("a rate needs a count and a burst of at least 1 and a period over 0 s")

    @property
    def per_second(self) -> float:
        """Tokens the bucket gains each second."""
        return self.count / self.period_seconds


TABLE_CREATIONS = Rate(30, 3600.0, 10)
"""The default of ``ServerSettings.table_creations``: 10 at once, then 30 an hour."""
SEAT_TAKES = Rate(30, 60.0, 20)
"""The default of ``ServerSettings.seat_takes``: 20 at once, then 30 a minute."""
SOCKET_OPENS = Rate(60, 60.0, 30)
"""The default of ``ServerSettings.socket_opens``: 30 at once, then 60 a minute."""
COSTLY_REQUESTS = Rate(60, 60.0, 30)
"""The default of ``ServerSettings.costly_requests``: 30 at once, then 60 a minute."""


class Kind(StrEnum):
    """What a bucket counts."""

    TABLE = "table"
    """``POST /api/tables``."""
    SEAT = "seat"
    """``POST /api/tables/{invite}/seats``."""
    SOCKET = "socket"
    """A WebSocket opened: a table's or a watch link's."""
    COSTLY = "costly"
    """A download the server builds from the table's log: hand histories, replays,
    statistics, the ledger (JSON and CSV), a group's statistics."""


@dataclass(slots=True)
class _Bucket:
    tokens: float
    last: float


class AddressBuckets:
    """One token bucket per (address, kind), for at most ``capacity`` addresses (the least
    recently seen forgotten first: an address forgotten starts again with a full bucket)."""

    def __init__(self, rates: dict[Kind, Rate], clock: Callable[[], float], capacity: int) -> None:
        if capacity < 1:
            raise ValueError("the buckets need room for at least one address")
        self.rates, self.clock, self.capacity = dict(rates), clock, capacity
        self._addresses: OrderedDict[str, dict[Kind, _Bucket]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._addresses)

    def take(self, address: str, kind: Kind) -> float:
        """Take a token of ``kind`` for ``address``: 0.0 if one was there, else the seconds
        until one will be (nothing taken). A kind without a rate is never limited."""
        rate = self.rates.get(kind)
        if rate is None:
            return 0.0
        now = self.clock()
        buckets = self._addresses.get(address)
        if buckets is None:
            buckets = self._addresses[address] = {}
            while len(self._addresses) > self.capacity:
                self._addresses.popitem(last=False)
        else:
            self._addresses.move_to_end(address)
        bucket = buckets.get(kind)
        if bucket is None:
            bucket = buckets[kind] = _Bucket(float(rate.burst), now)
        elapsed = max(0.0, now - bucket.last)  # a clock set back gives nothing
        bucket.tokens = min(float(rate.burst), bucket.tokens + elapsed * rate.per_second)
        bucket.last = now
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            return 0.0
        return (1.0 - bucket.tokens) / rate.per_second


def retry_after(seconds: float) -> int:
    """The ``Retry-After`` header's whole seconds for a wait of ``seconds`` (at least 1)."""
    return max(1, math.ceil(seconds))
