"""The API's errors: every refusal is JSON ``{"error": code, "message": text}`` with a fitting
status, the framework's own errors (unknown route, unreadable or invalid body) included.

:data:`EXCEPTION_HANDLERS` is what :func:`~italian_poker.server.app.create_app` hands to
FastAPI; :func:`error_responses` documents the same bodies in the OpenAPI schema.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException

from italian_poker.server.refusal import Refusal


class ApiError(Exception):
    """An HTTP error with a code and a message a player can act on."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


class ErrorBody(BaseModel):
    """What every refusal answers."""

    error: str
    """A code for programs (``no_table``, ``forbidden``, ``bad_request``, ...)."""
    message: str
    """What is wrong, for the player; never an echo of what was sent."""


HTTP_CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
}
"""The ``error`` of the framework's own HTTP errors (unknown route, unreadable body, ...)."""

_STATUSES = {
    403: "a wrong or missing token",
    404: "no such table (or seat, or hand)",
    409: "not allowed now",
    422: "a bad value: the message says which and what is allowed",
}


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of these error statuses: each an :class:`ErrorBody` (for
    422 instead of FastAPI's own validation error, which this API never answers)."""
    return {status: {"model": ErrorBody, "description": _STATUSES[status]} for status in statuses}


def validation_message(error: RequestValidationError) -> str:
    """Each problem as ``field: what is wrong`` (never echoing what was sent)."""
    parts = []
    for problem in error.errors():
        if problem.get("type") == "json_invalid":
            parts.append("the body must be a JSON object")
            continue
        where = [str(p) for p in problem.get("loc", ()) if p not in ("body", "path", "header")]
        text = str(problem.get("msg", "not valid")).removeprefix("Value error, ")
        parts.append(f"{'.'.join(where)}: {text}" if where else text)
    return "; ".join(parts) or "the request is not valid"


async def _refused(_request: Request, error: ApiError | Refusal) -> JSONResponse:
    return JSONResponse({"error": error.code, "message": error.message}, error.status)


async def _http_error(_request: Request, error: StarletteHTTPException) -> JSONResponse:
    code = HTTP_CODES.get(error.status_code, "http_error")
    return JSONResponse(
        {"error": code, "message": str(error.detail)}, error.status_code, error.headers
    )


async def _invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
    return JSONResponse({"error": "bad_request", "message": validation_message(error)}, 422)


EXCEPTION_HANDLERS: dict[
    int | type[Exception], Callable[[Request, Any], Coroutine[Any, Any, Response]]
] = {
    ApiError: _refused,
    Refusal: _refused,
    StarletteHTTPException: _http_error,
    RequestValidationError: _invalid,
}
"""The application's exception handlers, by the exception each one answers."""
