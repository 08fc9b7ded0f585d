"""The table's WebSocket ``/ws/tables/{invite}``: the Origin check, the ``hello`` that says
whose seat it is (answered with the chat's newest messages, then the state), then a reader
(size and rate limits, the player's messages: actions, sitting out and in, chat) and a
writer (the table's messages for that seat) until either side leaves."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Callable
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketState

from italian_poker.server.dependencies import ServerDep
from italian_poker.server.protocol import (
    BadMessage,
    Chat,
    ClientMessage,
    Hello,
    Ping,
    SitIn,
    SitOut,
    error_message,
    parse_message,
)
from italian_poker.server.settings import ServerSettings
from italian_poker.server.store import token_hash
from italian_poker.server.table_runtime import Client, Refusal, TableRuntime

router = APIRouter()


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


@router.websocket("/ws/tables/{invite}")
async def table_socket(websocket: WebSocket, invite: str, server: ServerDep) -> None:
    origin = websocket.headers.get("origin", "").rstrip("/").lower()
    if origin not in allowed_origins(websocket, server.settings):
        await websocket.close(code=4403)
        return
    runtime = await server.find(invite)
    await websocket.accept()
    if runtime is None:
        await websocket.send_json(error_message("no_table", "no table has this invite"))
        await websocket.close(code=4404)
        return
    runtime.invite = invite
    await runtime.sync()  # a replica's seat tokens as the owner last wrote them
    seat = await _authenticate(websocket, runtime, server.settings)
    if seat is None:
        return
    client = await runtime.connect(seat)
    writer = asyncio.get_running_loop().create_task(_writer(websocket, client))
    try:
        await _reader(websocket, runtime, client, server.settings)
    except WebSocketDisconnect:
        pass
    finally:
        await runtime.disconnect(client)
        client.queue.put_nowait(None)
        with contextlib.suppress(Exception):
            await writer


async def _authenticate(
    websocket: WebSocket, runtime: TableRuntime, settings: ServerSettings
) -> int | None:
    """The seat of the token in the first message, ``{"type": "hello", "token": ...}``.
    A token in the URL is refused: URLs end up in logs (and proxies' logs)."""
    if "token" in websocket.query_params:
        await _send_and_close(
            websocket,
            error_message("token_in_url", "send your token in a hello message, never in the URL"),
            4401,
        )
        return None
    try:
        message = await asyncio.wait_for(
            websocket.receive(), timeout=settings.hello_timeout_seconds
        )
    except TimeoutError:
        message = {"type": "websocket.disconnect"}
    if message["type"] == "websocket.disconnect":
        await _close(websocket, 4401, "say hello with your token first")
        return None
    text = message.get("text")
    size = len(text.encode()) if text is not None else len(message.get("bytes") or b"")
    if size > settings.max_message_bytes:
        await _close(websocket, 1009, "message too large")
        return None
    hello: ClientMessage | None = None
    if text is not None:  # a binary hello says nothing
        with contextlib.suppress(BadMessage):
            hello = parse_message(text)
    token = hello.token if isinstance(hello, Hello) else None
    seat = runtime.seat_for_token(token_hash(token)) if token is not None else None
    if seat is None:
        await websocket.send_json(error_message("unauthorized", "this token holds no seat here"))
        await _close(websocket, 4401, "wrong token")
        return None
    return seat


async def _close(websocket: WebSocket, code: int, reason: str) -> None:
    if websocket.client_state is WebSocketState.CONNECTED:
        with contextlib.suppress(Exception):
            await websocket.close(code=code, reason=reason)


async def _send_and_close(websocket: WebSocket, message: dict[str, Any], code: int) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_text(json.dumps(message))
    await _close(websocket, code, message["message"])


async def _writer(websocket: WebSocket, client: Client) -> None:
    """Send the client's queued messages (encoded once, shared with other connections)."""
    while True:
        text = await client.queue.get()
        if text is None:
            await _close(websocket, 1000, "bye")
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
            await _send_and_close(websocket, error_message("too_large", limit_text), 1009)
            return
        if not limit.allow():
            strikes += 1
            reply(error_message("rate_limited", "too many messages: slow down"))
            if strikes >= settings.rate_strikes:
                await _send_and_close(
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


async def _reader(
    websocket: WebSocket, runtime: TableRuntime, client: Client, settings: ServerSettings
) -> None:
    async for sent in checked_messages(websocket, settings, client.send):
        try:
            if isinstance(sent, Ping):
                client.send({"type": "pong"})
            elif isinstance(sent, Hello):
                await runtime.send_state(client)
            elif isinstance(sent, SitOut | SitIn):
                await runtime.sit(client.seat, isinstance(sent, SitOut))
            elif isinstance(sent, Chat):
                await runtime.chat(client.seat, sent.text)
            else:
                await runtime.act(client.seat, sent.hand, sent.seq, sent.action)
        except Refusal as refusal:
            client.send(error_message(refusal.code, refusal.message))
