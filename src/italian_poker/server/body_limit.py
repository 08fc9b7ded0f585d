"""The request body limit, as ASGI middleware: nothing larger reaches a route."""

from __future__ import annotations

from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class BodyLimit:
    """ASGI middleware: a request body longer than ``limit`` bytes is a 413, by its
    ``Content-Length`` before anything is read, or as soon as a chunked one passes it."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            response = JSONResponse(self._refusal(), 413, {"Connection": "close"})
            await response(scope, receive, send)
            return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise StarletteHTTPException(413, self._refusal()["message"])
            return message

        await self.app(scope, limited, send)

    def _refusal(self) -> dict[str, str]:
        return {"error": "too_large", "message": f"a request body is at most {self.limit} bytes"}
