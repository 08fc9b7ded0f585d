"""Stopping what runs in the background in bounded time: a server that shuts down (or a
table that stops owning) waits for its tasks, its threads and its Redis connections at most
:data:`STOP_SECONDS` each, and says in the log what did not stop, and where it was waiting,
instead of waiting for ever (a task that swallows its cancellation, a connection whose
answer never comes)."""

from __future__ import annotations

import asyncio
import io
import logging
import threading
import time
from collections.abc import Awaitable, Iterable
from typing import Any, TypeVar

T = TypeVar("T")

log = logging.getLogger(__name__)

STOP_SECONDS = 5.0
"""How long one step of a shutdown waits at most."""


class Overran(Exception):
    """A step of the shutdown did not finish in its time (already logged)."""


def _seconds(seconds: float | None) -> float:
    return STOP_SECONDS if seconds is None else seconds


async def cancel_and_wait(
    tasks: Iterable[asyncio.Task[Any]], what: str, seconds: float | None = None
) -> None:
    """Cancel ``tasks`` and wait until they end, at most ``seconds``; log each task still
    running then, with its stack. What the tasks raised is dropped: they were stopped."""
    pending = [task for task in tasks if not task.done()]
    for task in pending:
        task.cancel()
    if not pending:
        return
    limit = _seconds(seconds)
    done, still = await asyncio.wait(pending, timeout=limit)
    for task in done:
        if not task.cancelled():
            task.exception()  # retrieved: asyncio does not report it as never retrieved
    for task in still:
        log.warning(
            "%s: task %s did not stop within %s s after being cancelled; going on without "
            "it. It was at:\n%s",
            what,
            task.get_name(),
            limit,
            _stack(task),
        )


async def within(awaitable: Awaitable[T], what: str, seconds: float | None = None) -> T:
    """``awaitable``'s result if it comes within ``seconds``; else log where it waits, cancel
    it (without waiting again) and raise :class:`Overran`."""
    task = asyncio.ensure_future(awaitable)
    limit = _seconds(seconds)
    try:
        done, _ = await asyncio.wait([task], timeout=limit)
    except asyncio.CancelledError:
        task.cancel()  # the caller was cancelled: so is its step
        raise
    if task in done:
        return task.result()
    log.warning(
        "%s did not finish within %s s; going on without it. It was at:\n%s",
        what,
        limit,
        _stack(task),
    )
    task.cancel()
    raise Overran(f"{what} did not finish within {limit} s")


def join_threads(
    threads: Iterable[threading.Thread], what: str, seconds: float | None = None
) -> None:
    """Wait for ``threads`` to end, at most ``seconds`` in all; log each still running."""
    limit = _seconds(seconds)
    deadline = time.monotonic() + limit
    for thread in threads:
        if thread.ident is None:
            continue  # never started
        thread.join(max(0.0, deadline - time.monotonic()))
        if thread.is_alive():
            log.warning(
                "%s: thread %s did not end within %s s; going on without it",
                what,
                thread.name,
                limit,
            )


def _stack(task: asyncio.Task[Any]) -> str:
    out = io.StringIO()
    task.print_stack(file=out)
    return out.getvalue()
