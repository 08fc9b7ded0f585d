"""The per-address limits, as ASGI middleware: a request over its address's rate is refused
before it reaches a route (docs/security.md).

Over the limit a request is answered 429 in the API's error shape, ``{"error":
"rate_limited", "message": ...}``, with ``Retry-After`` (whole seconds); a WebSocket is
accepted, sent the same refusal as an ``error`` message and closed with
:data:`RATE_LIMITED` (4429), the reason saying when to try again.
"""

from __future__ import annotations

import json
import re

from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

from italian_poker.server.client_address import TrustedProxies, bucket_key, client_address
from italian_poker.server.protocol import error_message
from italian_poker.server.rate_limits import AddressBuckets, Kind, retry_after
from italian_poker.server.settings import ServerSettings

RATE_LIMITED = 4429
"""The close code of a WebSocket refused by its address's limit (HTTP's 429)."""

_SEATS = re.compile(r"/api/tables/[^/]+/seats/?")
_COSTLY = re.compile(r"/api/tables/[^/]+/(?:histories(?:/.*)?|stats|ledger|ledger\.csv)/?")

WHAT = {
    Kind.TABLE: "tables created",
    Kind.SEAT: "seats taken",
    Kind.SOCKET: "connections opened",
    Kind.COSTLY: "downloads",
}
"""What each limit counts, as its refusal says."""


def kind_of(scope: Scope) -> Kind | None:
    """The limit a request counts against, or None."""
    if scope["type"] == "websocket":
        return Kind.SOCKET
    if scope["type"] != "http":
        return None
    path, method = scope["path"], scope["method"]
    if method == "POST":
        if path in ("/api/tables", "/api/tables/"):
            return Kind.TABLE
        if _SEATS.fullmatch(path):
            return Kind.SEAT
        if path in ("/api/stats", "/api/stats/"):
            return Kind.COSTLY
    elif method == "GET" and _COSTLY.fullmatch(path):
        return Kind.COSTLY
    return None


def refusal_text(kind: Kind, wait: int) -> str:
    """The refusal's message: what was limited and when to try again."""
    return f"too many {WHAT[kind]} from your address: try again in {wait} s"


def address_buckets(settings: ServerSettings) -> AddressBuckets:
    """The buckets of the settings' per-address rates, on their clock."""
    return AddressBuckets(settings.address_rates(), settings.clock, settings.address_memory)


class AddressLimits:
    """ASGI middleware: each request that a limit counts takes a token of its address's
    bucket, or is refused (see the module's docstring)."""

    def __init__(self, app: ASGIApp, buckets: AddressBuckets, trusted: TrustedProxies) -> None:
        self.app, self.buckets, self.trusted = app, buckets, trusted

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = kind_of(scope) if self.buckets.rates else None
        if kind is None:
            await self.app(scope, receive, send)
            return
        address = bucket_key(client_address(scope, self.trusted))
        wait = self.buckets.take(address, kind)
        if wait <= 0.0:
            await self.app(scope, receive, send)
            return
        seconds = retry_after(wait)
        text = refusal_text(kind, seconds)
        if scope["type"] == "websocket":
            websocket = WebSocket(scope, receive, send)
            await websocket.accept()
            await websocket.send_text(json.dumps(error_message("rate_limited", text)))
            await websocket.close(code=RATE_LIMITED, reason=text)
            return
        response = JSONResponse(
            {"error": "rate_limited", "message": text}, 429, {"Retry-After": str(seconds)}
        )
        await response(scope, receive, send)
