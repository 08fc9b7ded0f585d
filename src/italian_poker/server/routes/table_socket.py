"""The table's WebSocket ``/ws/tables/{invite}``: the Origin check, the ``hello`` that says
whose seat it is (answered with the chat's newest messages, then the state), then a reader
(size and rate limits, the player's messages: actions, sitting out and in, chat) and a
writer (the table's messages for that seat) until either side leaves."""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from italian_poker.server.client_messages import (
    BadMessage,
    Chat,
    ClientMessage,
    FairValue,
    Hello,
    Ping,
    SitIn,
    SitOut,
    parse_message,
)
from italian_poker.server.dependencies import ServerDep
from italian_poker.server.errors import ApiError
from italian_poker.server.outbox import Client
from italian_poker.server.protocol import error_message
from italian_poker.server.refusal import Refusal
from italian_poker.server.routes.sockets import (
    checked_messages,
    close,
    origin_allowed,
    send_and_close,
    send_queued,
)
from italian_poker.server.settings import ServerSettings
from italian_poker.server.store import token_hash
from italian_poker.server.table_runtime import TableRuntime

router = APIRouter()


@router.websocket("/ws/tables/{invite}")
async def table_socket(websocket: WebSocket, invite: str, server: ServerDep) -> None:
    if not origin_allowed(websocket, server.settings):
        await websocket.close(code=4403)
        return
    try:
        runtime = await server.find(invite)
    except ApiError as error:  # an expired table (410), no room for it (503)
        await websocket.accept()
        await websocket.send_json(error_message(error.code, error.message))
        await websocket.close(code=4000 + error.status)
        return
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
    client = await runtime.connections.connect(seat)
    writer = asyncio.get_running_loop().create_task(send_queued(websocket, client))
    try:
        await _reader(websocket, runtime, client, server.settings)
    except WebSocketDisconnect:
        pass
    finally:
        await runtime.connections.disconnect(client)
        client.end()
        with contextlib.suppress(Exception):
            await writer


async def _authenticate(
    websocket: WebSocket, runtime: TableRuntime, settings: ServerSettings
) -> int | None:
    """The seat of the token in the first message, ``{"type": "hello", "token": ...}``.
    A token in the URL is refused: URLs end up in logs (and proxies' logs)."""
    if "token" in websocket.query_params:
        await send_and_close(
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
        await close(websocket, 4401, "say hello with your token first")
        return None
    text = message.get("text")
    size = len(text.encode()) if text is not None else len(message.get("bytes") or b"")
    if size > settings.max_message_bytes:
        await close(websocket, 1009, "message too large")
        return None
    hello: ClientMessage | None = None
    if text is not None:  # a binary hello says nothing
        with contextlib.suppress(BadMessage):
            hello = parse_message(text)
    token = hello.token if isinstance(hello, Hello) else None
    seat = runtime.seat_for_token(token_hash(token)) if token is not None else None
    if seat is None:
        await websocket.send_json(error_message("unauthorized", "this token holds no seat here"))
        await close(websocket, 4401, "wrong token")
        return None
    return seat


async def _reader(
    websocket: WebSocket, runtime: TableRuntime, client: Client, settings: ServerSettings
) -> None:
    async for sent in checked_messages(websocket, settings, client.send):
        try:
            if isinstance(sent, Ping):
                client.send({"type": "pong"})
            elif isinstance(sent, Hello):
                await runtime.connections.send_state(client)
            elif isinstance(sent, SitOut | SitIn):
                await runtime.play.sit(client.seat, isinstance(sent, SitOut))
            elif isinstance(sent, Chat):
                await runtime.play.chat(client.seat, sent.text)
            elif isinstance(sent, FairValue):
                await runtime.play.fair_value(client.seat, sent.commitment, sent.value)
            else:
                await runtime.play.act(client.seat, sent.hand, sent.seq, sent.action)
        except Refusal as refusal:
            client.send(error_message(refusal.code, refusal.message))
