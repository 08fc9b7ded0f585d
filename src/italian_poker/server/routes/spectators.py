"""The spectators' page ``/w/{watch}`` and WebSocket ``/ws/watch/{watch}``. The
watch link's secret is in the path, as the invite is in a table's: it grants watching only,
what everyone at the table sees (:mod:`italian_poker.server.spectators`), and never a seat.

The socket has the table's Origin check, message size limit and rate limit; a spectator sends
nothing but ``ping`` (answered ``pong``) and ``hello`` (answered with the state again). A
link that no table offers is a page answered 404 (which says so) and a socket closed with
4404; a link the host closes or replaces closes its spectators' sockets with 4410; a table
with as many spectators as the server's ``spectator_cap`` refuses one more with 4409.
"""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from fastapi.responses import Response

from italian_poker.server.client_messages import Hello, Ping
from italian_poker.server.connections import SpectatorsFull
from italian_poker.server.dependencies import ServerDep
from italian_poker.server.errors import ApiError
from italian_poker.server.outbox import Spectator
from italian_poker.server.protocol import error_message
from italian_poker.server.routes.pages import found, page
from italian_poker.server.routes.sockets import (
    checked_messages,
    origin_allowed,
    send_and_close,
    send_queued,
)
from italian_poker.server.settings import ServerSettings
from italian_poker.server.store import token_hash
from italian_poker.server.table_runtime import TableRuntime

router = APIRouter()

VOID = 4404
"""The close code for a watch link that no table offers."""
FULL = 4409
"""The close code for a watch link whose table has as many spectators as the server's
``spectator_cap`` allows (``spectators_full``: try again later)."""


@router.get("/w/{watch}", include_in_schema=False)
async def watch_page(watch: str, server: ServerDep) -> Response:
    # The table's page in watch mode; it says itself when the link does not work.
    return page("table.html", await found(server.watched(watch)))


@router.websocket("/ws/watch/{watch}")
async def watch_socket(websocket: WebSocket, watch: str, server: ServerDep) -> None:
    if not origin_allowed(websocket, server.settings):
        await websocket.close(code=4403)
        return
    try:
        runtime = await server.watched(watch)
    except ApiError as error:  # an expired table (410), no room for it (503)
        await websocket.accept()
        await send_and_close(
            websocket, error_message(error.code, error.message), 4000 + error.status
        )
        return
    await websocket.accept()
    try:
        spectator = (
            None
            if runtime is None
            else await runtime.connections.watch(token_hash(watch), server.settings.spectator_cap)
        )
    except SpectatorsFull as full:
        await send_and_close(websocket, error_message("spectators_full", str(full)), FULL)
        return
    if runtime is None or spectator is None:
        void = "no table offers this watch link: the host may have closed it"
        await send_and_close(websocket, error_message("no_watch", void), VOID)
        return
    writer = asyncio.get_running_loop().create_task(send_queued(websocket, spectator))
    try:
        await _reader(websocket, runtime, spectator, server.settings)
    except WebSocketDisconnect:
        pass
    finally:
        await runtime.connections.unwatch(spectator)
        spectator.end()
        with contextlib.suppress(Exception):
            await writer


async def _reader(
    websocket: WebSocket, runtime: TableRuntime, spectator: Spectator, settings: ServerSettings
) -> None:
    """What the spectator sends, under the table socket's size and rate limits."""
    async for sent in checked_messages(websocket, settings, spectator.send):
        if isinstance(sent, Ping):
            spectator.send_text('{"type":"pong"}')
        elif isinstance(sent, Hello):
            await runtime.connections.send_watch_state(spectator)
        else:
            spectator.send(
                error_message(
                    "watching", "a spectator only watches: take a seat with the invite link"
                )
            )
