"""The FastAPI application: the lobby's REST API, the table's WebSocket and the pages.

:func:`create_app` wires the database (migrated at startup), one
:class:`~italian_poker.server.table_runtime.TableRuntime` per table (rebuilt from its event
log) and the bot factory handed in by the caller (layer 4 is never imported here).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import secrets
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import Depends, FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocketState

from italian_poker.engine.errors import ItalianPokerError
from italian_poker.engine.history import HandHistory, dumps_redacted, redacted_record
from italian_poker.engine.rules import preset
from italian_poker.server.database import make_engine, upgrade
from italian_poker.server.limits import (
    MAX_CHIPS,
    Ante,
    BankSeconds,
    Chips,
    HandInPath,
    SeatInPath,
    SeatNumber,
    Seats,
    TurnSeconds,
)
from italian_poker.server.logs import keep_tokens_out_of_logs
from italian_poker.server.nicknames import BadName, check_nickname, check_text, nickname_key
from italian_poker.server.protocol import BadMessage, error_message, parse_message
from italian_poker.server.settings import ServerSettings
from italian_poker.server.store import Store, token_hash
from italian_poker.server.table_runtime import BotFactory, Client, Refusal, TableRuntime
from italian_poker.server.table_state import EventKind
from italian_poker.table.vocabulary import Language, page_strings

STATIC = Path(__file__).parent / "static"
STRINGS = {lang.value: json.dumps(page_strings(lang), ensure_ascii=False) for lang in Language}
"""``GET /api/strings/{lang}``: every word of the browser's pages, from the table layer's
vocabulary, as JSON text (built once)."""
INVITE = re.compile(r"[A-Za-z0-9_-]{16,64}")
"""What an invite looks like (``secrets.token_urlsafe(18)`` gives 24 of these characters)."""
BOT_LEVELS = ("random", "simple", "strong")


class ApiError(Exception):
    """An HTTP error with a code and a message a player can act on."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


class CreateTable(BaseModel):
    """``POST /api/tables``."""

    name: str = Field(default="Tavolo", min_length=1, max_length=60)
    preset: str = Field(default="standard", max_length=40)
    seats: Seats = 4
    stack: Chips = 200
    """At most :data:`MAX_CHIPS` for the whole table: ``stack * seats`` must fit."""
    ante: Ante | None = None
    structure: str | None = Field(default=None, max_length=40)
    turn_seconds: TurnSeconds | None = 30
    time_bank_seconds: BankSeconds = 60
    host_nickname: str
    lang: str = Field(default="it", pattern="^(it|en)$")


class TakeSeat(BaseModel):
    """``POST /api/tables/{invite}/seats``."""

    nickname: str


class AddBot(BaseModel):
    """``POST /api/tables/{invite}/bots``."""

    level: str = "strong"


class SetStack(BaseModel):
    """``POST /api/tables/{invite}/stacks``."""

    seat: SeatNumber
    amount: Chips


def _nickname(text: str) -> str:
    """The nickname as kept (``nicknames.check_nickname``), or 422."""
    try:
        return check_nickname(text)
    except BadName as error:
        raise ApiError(422, "bad_nickname", str(error)) from None


def _table_name(text: str) -> str:
    """The table's name as kept (the same characters as nicknames), or 422."""
    if not text.strip():
        return "Tavolo"
    try:
        return check_text(text, "a table's name", 60)
    except BadName as error:
        raise ApiError(422, "bad_name", str(error)) from None


def _validation_message(error: RequestValidationError) -> str:
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


def _bearer(authorization: str | None) -> str:
    if not authorization or not authorization.startswith("Bearer "):
        raise ApiError(403, "forbidden", "send your token as 'Authorization: Bearer <token>'")
    return authorization[len("Bearer ") :].strip()


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of ``url``."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


HTTP_CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
}
"""The ``error`` of the framework's own HTTP errors (unknown route, unreadable body, ...)."""


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


class Server:
    """The application's state: database store and the live tables by invite hash."""

    def __init__(self, settings: ServerSettings, bot_factory: BotFactory) -> None:
        self.settings = settings
        self.bot_factory = bot_factory
        self.engine = make_engine(settings.resolved_database_url())
        self.store = Store(self.engine)
        self.tables: dict[str, TableRuntime] = {}

    def open(self) -> None:
        """Migrate the database and rebuild every table from its log."""
        upgrade(self.engine)
        for stored in self.store.load_all():
            runtime = TableRuntime(stored, None, self.store, self.settings, self.bot_factory)
            self.tables[stored.invite_hash] = runtime
            runtime.start()

    async def close(self) -> None:
        """Stop every table and release the database."""
        for runtime in self.tables.values():
            await runtime.stop()
        self.engine.dispose()

    def table(self, invite: str) -> TableRuntime:
        """The table of ``invite``, or 404 (also for anything that is not an invite)."""
        runtime = self.tables.get(token_hash(invite)) if INVITE.fullmatch(invite) else None
        if runtime is None:
            raise ApiError(404, "no_table", "no table has this invite: check the link")
        runtime.invite = invite
        return runtime

    def host_table(self, invite: str, authorization: str | None) -> TableRuntime:
        """The table, if ``authorization`` holds its host token; else 403."""
        runtime = self.table(invite)
        if not secrets.compare_digest(token_hash(_bearer(authorization)), runtime.host_token_hash):
            raise ApiError(403, "forbidden", "only the host can do this")
        return runtime

    def player_seat(self, invite: str, authorization: str | None) -> tuple[TableRuntime, int]:
        """The table and the seat of the player token in ``authorization``; else 403."""
        runtime = self.table(invite)
        seat = runtime.seat_for_token(token_hash(_bearer(authorization)))
        if seat is None:
            raise ApiError(403, "forbidden", "this token holds no seat at this table")
        return runtime, seat

    def allowed_origins(self, websocket: WebSocket) -> set[str]:
        """The server's own origin (from the request) and the configured ones."""
        scheme = "https" if websocket.url.scheme == "wss" else "http"
        host = websocket.headers.get("host", "")
        allowed = {f"{scheme}://{host}".lower()}
        allowed.update(o.rstrip("/").lower() for o in self.settings.allowed_origins)
        if self.settings.public_url:
            allowed.add(origin_of(self.settings.public_url))
        return allowed


def get_server(request: Request) -> Server:
    """The application's :class:`Server`."""
    server: Server = request.app.state.server
    return server


ServerDep = Annotated[Server, Depends(get_server)]
Auth = Annotated[str | None, Header()]


def lobby_state(runtime: TableRuntime) -> dict[str, Any]:
    """A table as the lobby shows it: no cards, ever."""
    state = runtime.state
    seats = []
    for i, slot in enumerate(state.slots):
        seats.append(
            {
                "seat": i,
                "nickname": slot.nickname if slot else None,
                "bot": slot.bot if slot else None,
                "stack": state.stack(i) if slot else None,
                "sitting_out": bool(slot and slot.sitting_out),
                "connected": bool(slot and (slot.bot is not None or i in runtime.clients)),
            }
        )
    return {
        "name": state.name,
        "status": state.status.value,
        "rules": state.rules.to_dict(),
        "options": state.options,
        "seats": seats,
        "hand": state.hand,
    }


def create_app(settings: ServerSettings, bot_factory: BotFactory) -> FastAPI:
    """The server application; its lifespan opens the database and the tables."""
    server = Server(settings, bot_factory)
    keep_tokens_out_of_logs()

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        keep_tokens_out_of_logs()  # again, should the loggers have been set up anew
        server.open()
        try:
            yield
        finally:
            await server.close()

    app = FastAPI(title="Italian Poker", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.server = server
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, error: ApiError) -> JSONResponse:
        return JSONResponse({"error": error.code, "message": error.message}, error.status)

    @app.exception_handler(Refusal)
    async def _refusal(_request: Request, error: Refusal) -> JSONResponse:
        return JSONResponse({"error": error.code, "message": error.message}, error.status)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        code = HTTP_CODES.get(error.status_code, "http_error")
        return JSONResponse(
            {"error": code, "message": str(error.detail)}, error.status_code, error.headers
        )

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": "bad_request", "message": _validation_message(error)}, 422)

    # --- pages ----------------------------------------------------------------------------

    def page(name: str, status: int = 200) -> Response:
        path = STATIC / name
        if not path.is_file():
            return PlainTextResponse(f"{name} is missing from the server's static files", 404)
        return FileResponse(
            path, status, media_type="text/html", headers={"Cache-Control": "no-store"}
        )

    @app.get("/", include_in_schema=False)
    async def index() -> Response:
        return page("index.html")

    @app.get("/t/{invite}", include_in_schema=False)
    async def table_page(invite: str) -> Response:
        # The page says itself that there is no such table; the status says it too.
        known = INVITE.fullmatch(invite) and token_hash(invite) in server.tables
        return page("table.html", 200 if known else 404)

    if STATIC.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/api/strings/{lang}", include_in_schema=False)
    async def strings(lang: str) -> Response:
        # The pages' words (static/i18n.js looks them up): one copy, the table vocabulary's.
        text = STRINGS.get(lang)
        if text is None:
            raise ApiError(404, "no_language", "the pages' strings exist in 'en' and 'it' only")
        return Response(text, media_type="application/json", headers={"Cache-Control": "no-cache"})

    # --- lobby ----------------------------------------------------------------------------

    @app.post("/api/tables", status_code=201)
    async def create_table(body: CreateTable, srv: ServerDep) -> dict[str, Any]:
        nickname = _nickname(body.host_nickname)
        name = _table_name(body.name)
        changes: dict[str, Any] = {"players": body.seats}
        if body.ante is not None:
            changes["ante"] = body.ante
        if body.structure is not None:
            changes["structure"] = body.structure
        try:
            rules = preset(body.preset, **changes)
        except ItalianPokerError as error:
            raise ApiError(422, "bad_rules", str(error)) from None
        if body.stack < max(rules.ante + rules.dealer_ante, 1):
            raise ApiError(422, "bad_stack", "the stack must cover at least one ante")
        if body.stack * body.seats > MAX_CHIPS:
            most = MAX_CHIPS // body.seats
            raise ApiError(
                422,
                "bad_stack",
                f"stack: with {body.seats} seats a stack is 1 to {most} chips "
                f"(a table holds at most {MAX_CHIPS} chips)",
            )
        options = {
            "preset": body.preset,
            "seats": body.seats,
            "stack": body.stack,
            "ante": rules.ante,
            "structure": rules.structure.value,
            "turn_seconds": body.turn_seconds,
            "time_bank_seconds": body.time_bank_seconds,
            "lang": body.lang,
        }
        invite = secrets.token_urlsafe(18)
        host_token = secrets.token_urlsafe(32)
        player_token = secrets.token_urlsafe(32)
        table_id = srv.store.create_table(
            invite_hash=token_hash(invite),
            name=name,
            rules=rules.to_dict(),
            options=options,
            host_token_hash=token_hash(host_token),
        )
        runtime = TableRuntime(
            srv.store.load(table_id), invite, srv.store, srv.settings, srv.bot_factory
        )
        srv.tables[runtime.invite_hash] = runtime
        seat = await runtime.take_seat(nickname, token_hash(player_token), None, 0)
        runtime.start()
        return {
            "invite": invite,
            "invite_url": f"/t/{invite}",
            "host_token": host_token,
            "player_token": player_token,
            "seat": seat,
        }

    @app.get("/api/tables/{invite}")
    async def get_table(invite: str, srv: ServerDep) -> dict[str, Any]:
        return lobby_state(srv.table(invite))

    @app.post("/api/tables/{invite}/seats", status_code=201)
    async def take_seat(invite: str, body: TakeSeat, srv: ServerDep) -> dict[str, Any]:
        runtime = srv.table(invite)
        nickname = _nickname(body.nickname)
        token = secrets.token_urlsafe(32)
        seat = await runtime.take_seat(nickname, token_hash(token), None)
        return {"player_token": token, "seat": seat}

    # --- host -----------------------------------------------------------------------------

    @app.post("/api/tables/{invite}/bots", status_code=201)
    async def add_bot(
        invite: str, body: AddBot, srv: ServerDep, authorization: Auth = None
    ) -> dict[str, Any]:
        runtime = srv.host_table(invite, authorization)
        if body.level not in BOT_LEVELS:
            raise ApiError(422, "bad_level", f"a bot level is one of {', '.join(BOT_LEVELS)}")
        taken = {nickname_key(s.nickname) for s in runtime.state.slots if s is not None}
        name = next(
            f"Bot {k}" for k in range(1, len(taken) + 2) if nickname_key(f"Bot {k}") not in taken
        )
        seat = await runtime.take_seat(name, None, body.level)
        return {"seat": seat, "nickname": name, "level": body.level}

    @app.delete("/api/tables/{invite}/seats/{seat}")
    async def remove_seat(
        invite: str, seat: SeatInPath, srv: ServerDep, authorization: Auth = None
    ) -> dict[str, Any]:
        runtime = srv.host_table(invite, authorization)
        if seat == 0:
            raise ApiError(409, "host_seat", "the host keeps seat 0")
        await runtime.remove_seat(seat)
        return lobby_state(runtime)

    async def host_event(
        invite: str, authorization: str | None, srv: Server, kind: EventKind
    ) -> dict[str, Any]:
        runtime = srv.host_table(invite, authorization)
        await runtime.host(kind)
        return lobby_state(runtime)

    @app.post("/api/tables/{invite}/start")
    async def start(invite: str, srv: ServerDep, authorization: Auth = None) -> dict[str, Any]:
        return await host_event(invite, authorization, srv, EventKind.START)

    @app.post("/api/tables/{invite}/pause")
    async def pause(invite: str, srv: ServerDep, authorization: Auth = None) -> dict[str, Any]:
        return await host_event(invite, authorization, srv, EventKind.PAUSE)

    @app.post("/api/tables/{invite}/resume")
    async def resume(invite: str, srv: ServerDep, authorization: Auth = None) -> dict[str, Any]:
        return await host_event(invite, authorization, srv, EventKind.RESUME)

    @app.post("/api/tables/{invite}/stacks")
    async def set_stack(
        invite: str, body: SetStack, srv: ServerDep, authorization: Auth = None
    ) -> dict[str, Any]:
        runtime = srv.host_table(invite, authorization)
        await runtime.host(EventKind.STACK, {"seat": body.seat, "amount": body.amount})
        return lobby_state(runtime)

    @app.get("/api/tables/{invite}/ledger")
    async def ledger(invite: str, srv: ServerDep, authorization: Auth = None) -> dict[str, Any]:
        runtime = srv.host_table(invite, authorization)
        return {"ledger": srv.store.ledger(runtime.id)}

    # --- player ---------------------------------------------------------------------------

    @app.post("/api/tables/{invite}/sit-out")
    async def sit_out(invite: str, srv: ServerDep, authorization: Auth = None) -> dict[str, Any]:
        runtime, seat = srv.player_seat(invite, authorization)
        await runtime.sit(seat, True)
        return lobby_state(runtime)

    @app.post("/api/tables/{invite}/sit-in")
    async def sit_in(invite: str, srv: ServerDep, authorization: Auth = None) -> dict[str, Any]:
        runtime, seat = srv.player_seat(invite, authorization)
        await runtime.sit(seat, False)
        return lobby_state(runtime)

    @app.get("/api/tables/{invite}/histories")
    async def histories(invite: str, srv: ServerDep, authorization: Auth = None) -> dict[str, Any]:
        runtime, seat = srv.player_seat(invite, authorization)
        return {"hands": runtime.hands_of(seat)}

    def find_history(
        invite: str, hand: int, srv: Server, authorization: str | None
    ) -> tuple[HandHistory, int]:
        runtime, seat = srv.player_seat(invite, authorization)
        found = runtime.history_for(seat, hand)
        if found is None:
            raise ApiError(404, "no_hand", "you were not dealt in this hand, or it is not over")
        return found

    # Before ``/histories/{hand}``, which would take ``3.phh`` for a (malformed) hand id.
    @app.get("/api/tables/{invite}/histories/{hand}.phh", response_model=None)
    async def history_phh(
        invite: str, hand: HandInPath, srv: ServerDep, authorization: Auth = None
    ) -> Response:
        history_, index = find_history(invite, hand, srv, authorization)
        return PlainTextResponse(
            dumps_redacted(history_, index),
            media_type="application/toml",
            headers={"Content-Disposition": f'attachment; filename="hand-{hand:04d}.phh"'},
        )

    @app.get("/api/tables/{invite}/histories/{hand}", response_model=None)
    async def history(
        invite: str, hand: HandInPath, srv: ServerDep, authorization: Auth = None
    ) -> Response:
        history_, index = find_history(invite, hand, srv, authorization)
        return JSONResponse(redacted_record(history_, index))

    # --- the table's WebSocket --------------------------------------------------------------

    @app.websocket("/ws/tables/{invite}")
    async def table_socket(websocket: WebSocket, invite: str) -> None:
        origin = websocket.headers.get("origin", "").rstrip("/").lower()
        if origin not in server.allowed_origins(websocket):
            await websocket.close(code=4403)
            return
        runtime = server.tables.get(token_hash(invite)) if INVITE.fullmatch(invite) else None
        await websocket.accept()
        if runtime is None:
            await websocket.send_json(error_message("no_table", "no table has this invite"))
            await websocket.close(code=4404)
            return
        runtime.invite = invite
        seat = await _authenticate(websocket, runtime, server.settings)
        if seat is None:
            return
        client = runtime.connect(seat)
        writer = asyncio.get_running_loop().create_task(_writer(websocket, client))
        try:
            await _reader(websocket, runtime, client, server.settings)
        except WebSocketDisconnect:
            pass
        finally:
            runtime.disconnect(client)
            client.queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await writer

    return app


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
    data: dict[str, Any] = {}
    if text is not None:  # a binary hello says nothing
        with contextlib.suppress(BadMessage):
            data = parse_message(text)
    token = data.get("token") if data.get("type") == "hello" else None
    seat = runtime.seat_for_token(token_hash(token)) if isinstance(token, str) else None
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


async def _reader(
    websocket: WebSocket, runtime: TableRuntime, client: Client, settings: ServerSettings
) -> None:
    limit = RateLimit(settings.rate_per_second, settings.rate_burst)
    strikes = 0
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        if text is None:
            data = message.get("bytes") or b""
            size = len(data)
        else:
            size = len(text.encode())
        if size > settings.max_message_bytes:
            limit_text = f"messages are limited to {settings.max_message_bytes} bytes"
            await _send_and_close(websocket, error_message("too_large", limit_text), 1009)
            return
        if not limit.allow():
            strikes += 1
            client.send(error_message("rate_limited", "too many messages: slow down"))
            if strikes >= settings.rate_strikes:
                await _send_and_close(
                    websocket, error_message("rate_limited", "too many messages"), 1008
                )
                return
            continue
        strikes = 0
        if text is None:
            client.send(error_message("bad_message", "send JSON text messages"))
            continue
        try:
            data = parse_message(text)
        except BadMessage as error:
            client.send(error_message("bad_message", str(error)))
            continue
        kind = data["type"]
        try:
            if kind == "ping":
                client.send({"type": "pong"})
            elif kind == "hello":
                client.send_text(runtime.state_text(client.seat))
            elif kind in ("sit_out", "sit_in"):
                await runtime.sit(client.seat, kind == "sit_out")
            else:
                await runtime.act(client.seat, data["hand"], data["seq"], data["action"])
        except Refusal as refusal:
            client.send(error_message(refusal.code, refusal.message))


__all__ = ["ServerSettings", "create_app"]
