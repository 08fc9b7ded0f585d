"""A connection's bounded queue of outgoing messages, for players and spectators alike.

Messages are queued as JSON text, encoded once for every connection they go to; ``None``
ends the queue, and the socket's writer then closes the WebSocket with the connection's
close code and reason. A connection too far behind (:data:`QUEUE_LIMIT` messages waiting)
is closed rather than sent more.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

from italian_poker.server.protocol import encode, error_message

QUEUE_LIMIT = 200
"""Messages waiting for a connection before it is dropped as too slow."""


class Outbox:
    """One WebSocket connection's queue: JSON text to send, None to close it with
    :attr:`close_code` and :attr:`close_reason`. Equal only to itself."""

    def __init__(self) -> None:
        self._queued: deque[str | None] = deque()
        self._waiter: asyncio.Future[None] | None = None
        """The socket's writer waiting for a message (set once one is queued)."""
        self.close_code = 1000
        self.close_reason = "bye"

    def send(self, message: dict[str, Any]) -> None:
        """Encode and queue ``message``."""
        self.send_text(encode(message))

    def send_text(self, text: str) -> None:
        """Queue an encoded message; a connection too far behind is closed."""
        self._put(None if len(self._queued) >= QUEUE_LIMIT else text)

    def end(self) -> None:
        """Close the connection once what is queued has been sent."""
        self._put(None)

    def _put(self, item: str | None) -> None:
        self._queued.append(item)
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(None)

    def waiter(self) -> asyncio.Future[None] | None:
        """None if a message is queued (:meth:`take` it); else a future set once one is.
        One reader at a time."""
        if self._queued:
            return None
        waiter = self._waiter = asyncio.get_running_loop().create_future()
        return waiter

    def take(self) -> str | None:
        """The first queued message (None: close); one must be queued (:meth:`waiter`)."""
        return self._queued.popleft()

    def close(self, code: str, message: str, close_code: int) -> None:
        """Say why (an ``error`` message with ``code``), then close with ``close_code``."""
        self.send(error_message(code, message))
        self.close_code, self.close_reason = close_code, message
        self.end()


class Client(Outbox):
    """One WebSocket connection of the player seated in ``seat``."""

    def __init__(self, seat: int) -> None:
        super().__init__()
        self.seat = seat


class Spectator(Outbox):
    """One WebSocket connection of the watch link whose hash is ``watch_hash``."""

    def __init__(self, watch_hash: str) -> None:
        super().__init__()
        self.watch_hash = watch_hash
