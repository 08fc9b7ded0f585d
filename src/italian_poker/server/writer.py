"""The tables' event writer: every event is committed on threads of its own, off the event
loop, and the events that queue up meanwhile are committed together (a group commit).

A table hands :meth:`EventWriter.write` one event at a time (its lock keeps them in order)
and is told nothing until the event is durable. The events written while the event loop runs
its ready callbacks are handed to the threads together, once those callbacks have run (one
wake-up of a thread, not one an event). Each thread takes the first events waiting and every
other one queued behind them (at most ``batch``, each of another table), and commits them in
one transaction (:meth:`Store.commit_events`): under load one commit serves many tables; the
tables of a commit are told together (one wake-up of the event loop).
When a batch fails, its events are committed one by one, so that only the table whose event
cannot be written is told so. With several threads, a slow commit holds up only its own batch.
The writer times its transactions (:attr:`EventWriter.slow_commits`), for the benchmark.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from italian_poker.server.shutdown import join_threads
from italian_poker.server.store import EventWrite, Store

DEFAULT_BATCH = 64
"""Events committed together at most."""
SLOW_COMMIT = 0.010
"""Seconds over which a transaction is kept in :attr:`EventWriter.slow_commits`."""
SLOW_KEPT = 10_000
"""Slow transactions kept at most (the newest)."""


@dataclass(frozen=True, slots=True)
class _Pending:
    event: EventWrite
    fence: int | None
    loop: asyncio.AbstractEventLoop
    done: asyncio.Future[None]


class EventWriter:
    """``threads`` threads committing the events that :meth:`write` is given."""

    def __init__(self, store: Store, threads: int, batch: int = DEFAULT_BATCH) -> None:
        if threads < 1 or batch < 1:
            raise ValueError(f"an event writer needs a thread and a batch, got {threads}, {batch}")
        self.store = store
        self.batch = batch
        self._queue: queue.SimpleQueue[list[_Pending] | None] = queue.SimpleQueue()
        self._waiting: list[_Pending] = []
        """The events written since the last hand-over to the threads."""
        self._threads = [
            threading.Thread(target=self._run, name=f"event-writer-{n}", daemon=True)
            for n in range(threads)
        ]
        self._started = self._stopped = False
        self.commits = 0
        """Transactions committed (a batch, or one event of a batch that failed)."""
        self.events = 0
        """Events committed."""
        self.longest_commit = 0.0
        """Seconds of the longest transaction (a table waits for its event's)."""
        self.slow_commits: deque[tuple[float, float, int]] = deque(maxlen=SLOW_KEPT)
        """(seconds, when it ended in :func:`time.time` seconds, events) of the transactions
        over :data:`SLOW_COMMIT` seconds, in order, the newest :data:`SLOW_KEPT` of them. A
        transaction's time includes the waits for the interpreter's lock, which the event
        loop's thread holds most of the time when the server is busy."""

    def start(self) -> None:
        """Start the threads (the first :meth:`write` does, if nothing did before)."""
        if not self._started:
            self._started = True
            for thread in self._threads:
                thread.start()

    @property
    def stopped(self) -> bool:
        """Whether :meth:`stop` was called (writes are refused from then on)."""
        return self._stopped

    def stop(self) -> None:
        """Let the threads commit what is queued, then end them; later writes are refused."""
        self._stopped = True
        self._hand_over()
        if self._started:
            for _ in self._threads:
                self._queue.put(None)
            join_threads(self._threads, "the event writer")

    async def write(self, event: EventWrite, fence: int | None = None) -> None:
        """Return once ``event`` is committed; raise what committing it raised (``fence``:
        the writing owner's fencing token, :meth:`Store.commit_events`; a stale owner's
        event raises :class:`~italian_poker.server.fencing.StaleOwner`)."""
        if self._stopped:
            raise RuntimeError("the event writer has stopped: the server is shutting down")
        self.start()
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        waiting = self._waiting
        waiting.append(_Pending(event, fence, loop, done))
        if len(waiting) == 1:
            loop.call_soon(self._hand_over)
        await done

    def _hand_over(self) -> None:
        """Give the threads the events written since the last hand-over."""
        waiting, self._waiting = self._waiting, []
        if waiting:
            self._queue.put(waiting)

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = list(first)
            while len(batch) < self.batch:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:  # stop: this batch first, then this thread ends
                    self._queue.put(None)
                    break
                batch.extend(more)
            for start in range(0, len(batch), self.batch):
                self._commit(batch[start : start + self.batch])

    def _commit(self, batch: Sequence[_Pending]) -> None:
        began = time.perf_counter()
        try:
            events = [pending.event for pending in batch]
            fences = {p.event.table_id: p.fence for p in batch if p.fence is not None}
            if fences:
                self.store.commit_events(events, fences)
            else:
                self.store.commit_events(events)
        except Exception as error:  # each event is told what failed
            if len(batch) == 1:
                _tell(batch[0], error)
                return
            for pending in batch:
                self._commit([pending])
            return
        took = time.perf_counter() - began
        self.commits += 1
        self.events += len(batch)
        self.longest_commit = max(self.longest_commit, took)
        if took > SLOW_COMMIT:
            self.slow_commits.append((took, time.time(), len(batch)))
        _tell_all(batch)


def _tell(pending: _Pending, error: BaseException | None) -> None:
    """Settle the waiting table's future on its own loop."""

    def settle() -> None:
        _settle(pending, error)

    with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
        pending.loop.call_soon_threadsafe(settle)


def _tell_all(batch: Sequence[_Pending]) -> None:
    """Settle the futures of a committed batch, those of each loop in one callback."""
    loops: dict[asyncio.AbstractEventLoop, list[_Pending]] = {}
    for pending in batch:
        loops.setdefault(pending.loop, []).append(pending)
    for loop, pendings in loops.items():

        def settle(pendings: list[_Pending] = pendings) -> None:
            for pending in pendings:
                _settle(pending, None)

        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
            loop.call_soon_threadsafe(settle)


def _settle(pending: _Pending, error: BaseException | None) -> None:
    """Settle the waiting table's future (on its loop), unless it stopped waiting."""
    if pending.done.done():  # the table stopped waiting (cancelled)
        return
    if error is None:
        pending.done.set_result(None)
    else:
        pending.done.set_exception(error)
