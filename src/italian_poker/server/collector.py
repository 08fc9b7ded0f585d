"""The server's garbage collector, managed so that no collection stops every table at once.

CPython's cyclic collector scans every object it tracks when it runs a full (generation 2)
collection, and the event loop, every table's with it, waits until the scan is over. A
server holds a large, slowly growing heap (the libraries, every table's match and its
completed deals), so these pauses grow with it: 14 ms at start, 460 ms at 500 tables.
:class:`Collector` keeps the scans small:

- After start-up (every table rebuilt from its log) and then at most once every
  ``interval`` seconds while events are committed or tables created, it runs a full
  collection and *freezes* what survives (:func:`gc.freeze`): frozen objects are never
  scanned again. A full collection scans only what was made since the last freeze, so it is
  short. (Freezing only when a deal ended left the seconds after many tables start, before
  any deal ends, to one of Python's own full collections: 200-250 ms at 600 tables.)
- Objects that were alive at a freeze and later become unreachable are still freed by their
  reference counts; only garbage held in reference cycles among them stays until the
  server stops (:meth:`Collector.stop` unfreezes); ``bench_server.py`` measures how much.
- While it runs, the youngest generation is collected only once :data:`YOUNG_THRESHOLD`
  objects more were made than freed (Python's own is 700), so that the freezes do the
  collecting: each object that lives until a freeze is scanned once, by the freeze, not
  also by the collections of the younger generations before it (at 600 busy tables these
  scans took about as long as the freezes' own). Freed objects count too, frozen ones
  among them, so at a busy server these collections hardly ever run; at an idle one
  (no freeze) they still do.
- A callback times every collection (:attr:`CollectorStats.longest_pause`), so that the
  benchmark and a host can see the worst pause.

The collector is process-wide, as :mod:`gc` is: one :class:`Collector` serves a process.
"""

from __future__ import annotations

import gc
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

SLOW_KEPT = 10_000
"""Slow collections kept at most (the newest: a server runs for weeks)."""
DEFAULT_INTERVAL = 0.25
"""Seconds between two freezes at most (deals end far more often at a busy server)."""
YOUNG_THRESHOLD = 20_000
"""Objects made (less those freed) that start a collection of the youngest generation while
the collector runs: one such collection scans at most these, about 10 ms' work."""


@dataclass(frozen=True, slots=True)
class CollectorStats:
    """What the collector has done since :meth:`Collector.start`."""

    collections: int
    """Collections of any generation (the interpreter's own and the freezes' full ones)."""
    longest_pause: float
    """Seconds of the longest collection."""
    total_pause: float
    """Seconds spent collecting, all collections together."""
    freezes: int
    frozen: int
    """Objects in the permanent generation (:func:`gc.get_freeze_count`), counted when asked
    for (or when the collector stopped): counting walks every frozen object, which at a
    busy server takes longer than a collection, so a freeze never does it."""


class PauseTimer:
    """Times every collection the interpreter runs, through :data:`gc.callbacks`; keeps the
    ones over ``slow`` seconds with their generation."""

    def __init__(self, slow: float = 0.010) -> None:
        self.running = False
        self.collections = 0
        self.longest = 0.0
        self.total = 0.0
        self.slow = slow
        self.slow_pauses: deque[tuple[float, int, float, float]] = deque(maxlen=SLOW_KEPT)
        """(seconds, generation, when it ended in :func:`time.time` seconds, CPU seconds of
        the collecting thread) of the collections over :attr:`slow`, in order, the newest
        :data:`SLOW_KEPT` of them: wall-clock seconds much above CPU seconds mean the process
        was waiting for a core."""
        self._began: float | None = None
        self._began_cpu = 0.0

    def start(self) -> None:
        """Time the collections from now on."""
        if not self.running:
            gc.callbacks.append(self._timed)
            self.running = True

    def stop(self) -> None:
        """Stop timing; what was measured stays."""
        if self.running:
            gc.callbacks.remove(self._timed)
            self.running = False
            self._began = None

    def _timed(self, phase: str, info: dict[str, Any]) -> None:
        now = time.perf_counter()
        if phase == "start":
            self._began = now
            self._began_cpu = time.thread_time()
            return
        if self._began is None:
            return
        pause = now - self._began
        self._began = None
        self.collections += 1
        self.total += pause
        self.longest = max(self.longest, pause)
        if pause > self.slow:
            cpu = time.thread_time() - self._began_cpu
            self.slow_pauses.append((pause, int(info.get("generation", -1)), time.time(), cpu))


class Collector:
    """Freeze long-lived objects after start-up and after deals; time every collection.

    ``clock`` is a monotonic clock in seconds (tests pass their own)."""

    def __init__(
        self,
        interval: float = DEFAULT_INTERVAL,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.interval = interval
        self.clock = clock
        self.pauses = PauseTimer()
        self._last_freeze = float("-inf")
        self._freezes = 0
        self._frozen = 0
        self._thresholds: tuple[int, int, int] | None = None
        """Python's thresholds before :meth:`start`, put back by :meth:`stop`."""

    def start(self) -> None:
        """Start timing collections, raise the youngest generation's threshold
        (:data:`YOUNG_THRESHOLD`) and freeze what the start-up made (call once every table is
        loaded)."""
        self.pauses.start()
        if self._thresholds is None:
            self._thresholds = gc.get_threshold()
            young, middle, old = self._thresholds
            gc.set_threshold(max(young, YOUNG_THRESHOLD), middle, old)
        self.freeze()

    def stop(self) -> None:
        """Stop timing collections, put Python's thresholds back and unfreeze, so that the
        next full collection reclaims the cycles that became garbage while frozen (a server
        stopped inside a longer-lived process, as in the tests)."""
        if self._thresholds is not None:
            gc.set_threshold(*self._thresholds)
            self._thresholds = None
        if self.pauses.running:
            self.pauses.stop()
            self._frozen = gc.get_freeze_count()
            gc.unfreeze()

    def freeze_soon(self) -> None:
        """Objects were made that may live long (an event was committed, a table created):
        freeze, unless the last freeze is under ``interval`` old (a clock read otherwise)."""
        if self.clock() - self._last_freeze >= self.interval:
            self.freeze()

    def freeze(self) -> None:
        """Collect what is not frozen yet, then freeze every survivor."""
        gc.collect()
        gc.freeze()  # moves the generations' lists whole: no walk over them
        self._freezes += 1
        self._last_freeze = self.clock()

    def stats(self) -> CollectorStats:
        """The pauses so far and the size of the permanent generation (a walk over it: not
        for every event)."""
        pauses = self.pauses
        return CollectorStats(
            collections=pauses.collections,
            longest_pause=pauses.longest,
            total_pause=pauses.total,
            freezes=self._freezes,
            frozen=gc.get_freeze_count() if pauses.running else self._frozen,
        )
