"""The FastAPI application: the lobby's REST API, the table's WebSocket and the pages.

:func:`create_app` wires the database (migrated at startup), one
:class:`~italian_poker.server.table_runtime.TableRuntime` per table (rebuilt from its event
log, :class:`~italian_poker.server.registry.Server`) and the bot factory handed in by the
caller, and the draw advisor too (layer 4 is never imported here). The routes are routers
by audience (:mod:`italian_poker.server.routes`), who may call them is in
:mod:`~italian_poker.server.dependencies`, what they take and answer in
:mod:`~italian_poker.server.schemas`, and how they refuse in :mod:`~italian_poker.server.errors`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from italian_poker.server.address_limits import AddressLimits, address_buckets
from italian_poker.server.body_limit import BodyLimit
from italian_poker.server.client_address import TrustedProxies
from italian_poker.server.errors import EXCEPTION_HANDLERS
from italian_poker.server.logs import keep_tokens_out_of_logs
from italian_poker.server.registry import Server
from italian_poker.server.routes import ROUTERS
from italian_poker.server.routes.pages import STATIC
from italian_poker.server.schemas.host import BOT_LEVELS
from italian_poker.server.settings import ServerSettings
from italian_poker.server.table_runtime import BotFactory
from italian_poker.table.advice import Advisor


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Open the database and the tables for as long as the application runs."""
    keep_tokens_out_of_logs()  # again, should the loggers have been set up anew
    server: Server = app.state.server
    await server.open()
    try:
        yield
    finally:
        await server.close()


def create_app(
    settings: ServerSettings, bot_factory: BotFactory, advisor: Advisor | None = None
) -> FastAPI:
    """The server application; its lifespan opens the database and the tables. ``advisor``
    gives the drawing seats their hint (handed in like the bots; None: no hint)."""
    server = Server(settings, bot_factory, advisor)
    keep_tokens_out_of_logs()
    app = FastAPI(
        title="Italian Poker",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        exception_handlers=EXCEPTION_HANDLERS,
    )
    app.state.server = server
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    app.state.address_buckets = buckets = address_buckets(settings)
    trusted = TrustedProxies.of(settings.trusted_proxies)
    # Outermost: a request over its address's limit is refused before its body is read.
    app.add_middleware(AddressLimits, buckets=buckets, trusted=trusted)
    for router in ROUTERS:
        app.include_router(router)
    if STATIC.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


__all__ = ["BOT_LEVELS", "STATIC", "ServerSettings", "create_app"]
