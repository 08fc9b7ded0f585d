"""What the table's and the spectators' WebSockets share: the Origin check, the writer that
sends a connection's queued messages (:mod:`italian_poker.server.outbox`), closing, and the
reader's size and rate limits."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import AsyncIterator, Callable
from typing import Any
from urllib.parse import urlsplit

from fastapi import WebSocket
from starlette.websockets import WebSocketState

from italian_poker.server.client_messages import BadMessage, ClientMessage, parse_message
from italian_poker.server.outbox import Outbox
from italian_poker.server.protocol import error_message
from italian_poker.server.settings import ServerSettings


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of ``url``."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def allowed_origins(websocket: WebSocket, settings: ServerSettings) -> set[str]:
    """The server's own origin (from the request) and the configured ones."""
    scheme = "https" if websocket.url.scheme == "wss" else "http"
    host = websocket.headers.get("host", "")
    allowed = {f"{scheme}://{host}".lower()}
    allowed.update(o.rstrip("/").lower() for o in settings.allowed_origins)
    if settings.public_url:
        allowed.add(origin_of(settings.public_url))
    return allowed


def origin_allowed(websocket: WebSocket, settings: ServerSettings) -> bool:
    """Whether the socket's ``Origin`` is the server's own or a configured one."""
    origin = websocket.headers.get("origin", "").rstrip("/").lower()
    return origin in allowed_origins(websocket, settings)


async def close(websocket: WebSocket, code: int, reason: str) -> None:
    """Close ``websocket`` with ``code`` and ``reason`` unless it is closed already."""
    if websocket.client_state is WebSocketState.CONNECTED:
        with contextlib.suppress(Exception):
            await websocket.close(code=code, reason=reason)


async def send_and_close(websocket: WebSocket, message: dict[str, Any], code: int) -> None:
    """Send ``message`` (an error), then close with ``code`` and its text as the reason."""
    with contextlib.suppress(Exception):
        await websocket.send_text(json.dumps(message))
    await close(websocket, code, message["message"])


async def send_queued(websocket: WebSocket, outbox: Outbox) -> None:
    """Send the connection's queued messages (encoded once, shared with other connections),
    then close with the code the connection was closed with."""
    while True:
        waiter = outbox.waiter()  # a future, not a coroutine, awaited while none is queued
        if waiter is not None:
            await waiter
            continue
        text = outbox.take()
        if text is None:
            await close(websocket, outbox.close_code, outbox.close_reason)
            return
        await websocket.send_text(text)


class RateLimit:
    """A token bucket: ``rate`` messages per second, bursts of ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens = float(burst)
        self.last = time.monotonic()

    def allow(self) -> bool:
        """Whether one more message may pass now."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


async def checked_messages(
    websocket: WebSocket, settings: ServerSettings, reply: Callable[[dict[str, Any]], None]
) -> AsyncIterator[ClientMessage]:
    """The client's messages, read until it leaves, under the socket's limits: a message
    over ``max_message_bytes`` closes the socket (1009); beyond the rate limit a message is
    refused (``rate_limited``), and after ``rate_strikes`` refusals in a row the socket is
    closed (1008); a binary or malformed message is a ``bad_message`` and the connection goes
    on. ``reply`` sends a refusal to this connection. Shared by players and spectators."""
    limit = RateLimit(settings.rate_per_second, settings.rate_burst)
    strikes = 0
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        size = len(text.encode()) if text is not None else len(message.get("bytes") or b"")
        if size > settings.max_message_bytes:
            limit_text = f"messages are limited to {settings.max_message_bytes} bytes"
            await send_and_close(websocket, error_message("too_large", limit_text), 1009)
            return
        if not limit.allow():
            strikes += 1
            reply(error_message("rate_limited", "too many messages: slow down"))
            if strikes >= settings.rate_strikes:
                await send_and_close(
                    websocket, error_message("rate_limited", "too many messages"), 1008
                )
                return
            continue
        strikes = 0
        if text is None:
            reply(error_message("bad_message", "send JSON text messages"))
            continue
        try:
            sent = parse_message(text)
        except BadMessage as error:
            reply(error_message("bad_message", str(error)))
            continue
        yield sent
