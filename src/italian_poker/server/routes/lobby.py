"""The lobby, for anyone with the link: create a table, look at one, take a seat; and what
the server offers (``GET /api/server``)."""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import APIRouter

from italian_poker.engine.errors import ItalianPokerError
from italian_poker.engine.rules import Rules, preset
from italian_poker.server.dependencies import ServerDep, TableDep
from italian_poker.server.errors import ApiError, error_responses
from italian_poker.server.limits import MAX_CHIPS
from italian_poker.server.match_status import FORMAT_OPTION
from italian_poker.server.nicknames import BadName, check_nickname, check_text
from italian_poker.server.registry import KEEP_DAYS
from italian_poker.server.routes.host import set_watch
from italian_poker.server.schemas.lobby import (
    CreateTable,
    LobbyTable,
    SeatTaken,
    ServerInfo,
    TableCreated,
    TakeSeat,
)
from italian_poker.server.store import NewTable, token_hash
from italian_poker.server.table_state import ADVICE, PLAYERS_SEE_LEDGER
from italian_poker.table.format_play import FormatPlay
from italian_poker.table.formats import CASH, FormatKind, MatchFormat, parse_schedule

router = APIRouter(prefix="/api/tables", tags=["lobby"])
server_router = APIRouter(prefix="/api", tags=["lobby"])
"""What the server offers, for the lobby's and the host's forms."""


@server_router.get("/server")
async def server_info(server: ServerDep) -> ServerInfo:
    """What this server offers: whether it can send the draw hint, and how many spectators
    a table may have."""
    return ServerInfo(
        advice=server.advisor is not None, spectator_cap=server.settings.spectator_cap
    )


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


def _match_format(body: CreateTable, rules: Rules) -> MatchFormat:
    """The table's match format from the form, checked with the rules (every level of its
    schedule), or 422 ``bad_format`` with the reason."""
    try:
        kind = FormatKind(body.format)
        schedule = None if not body.schedule else parse_schedule(body.schedule)
        match_format = MatchFormat(
            kind,
            deals=body.deals,
            minutes=body.minutes,
            schedule=schedule,
            starting_chips=body.stack if kind is FormatKind.SIT_AND_GO else None,
            prize_pool=body.prize_pool,
            shares=tuple(body.shares),
            re_entry_levels=body.re_entry_levels,
            re_entry_deals=body.re_entry_deals,
        )
        first = FormatPlay.first_rules(match_format, rules)
    except ValueError as error:
        kinds = ", ".join(k.value for k in FormatKind)
        message = str(error) if isinstance(error, ItalianPokerError) else f"format: one of {kinds}"
        raise ApiError(422, "bad_format", message) from None
    if body.stack < first.chips_to_be_dealt_in:
        raise ApiError(422, "bad_stack", "the stack must cover at least one ante")
    return match_format


@router.post("", status_code=201, responses=error_responses(422))
async def create_table(body: CreateTable, server: ServerDep) -> TableCreated:
    """A new table, its host seated at seat 0."""
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
    if body.stack < rules.chips_to_be_dealt_in:
        raise ApiError(422, "bad_stack", "the stack must cover at least one ante")
    if body.stack * body.seats > MAX_CHIPS:
        most = MAX_CHIPS // body.seats
        raise ApiError(
            422,
            "bad_stack",
            f"stack: with {body.seats} seats a stack is 1 to {most} chips "
            f"(a table holds at most {MAX_CHIPS} chips)",
        )
    match_format = _match_format(body, rules)
    if body.advice and server.advisor is None:
        raise ApiError(
            422,
            "no_advisor",
            "advice: this server runs without the draw hint (serve --no-advice); leave it out",
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
        PLAYERS_SEE_LEDGER: body.players_see_ledger,
        ADVICE: server.advisor is not None and body.advice is not False,
    }
    if match_format != CASH:
        options[FORMAT_OPTION] = match_format.to_dict()
    if body.keep_days is not None:
        options[KEEP_DAYS] = body.keep_days
    invite = secrets.token_urlsafe(18)
    host_token = secrets.token_urlsafe(32)
    player_token = secrets.token_urlsafe(32)
    runtime = await server.create(
        invite, NewTable(name, rules.to_dict(), options, token_hash(host_token))
    )
    seat = await runtime.play.take_seat(nickname, token_hash(player_token), None, 0)
    runtime.start()
    watch = None
    if body.watch or body.watch_delay:
        watch = (await set_watch(runtime, open_=body.watch, delay=body.watch_delay)).watch
    return TableCreated(
        invite=invite,
        invite_url=f"/t/{invite}",
        host_token=host_token,
        player_token=player_token,
        seat=seat,
        watch=watch,
        watch_url=None if watch is None else f"/w/{watch}",
    )


@router.get("/{invite}", responses=error_responses(404, 422))
async def get_table(runtime: TableDep) -> LobbyTable:
    """The table as the lobby shows it."""
    return LobbyTable.of(runtime)


@router.post("/{invite}/seats", status_code=201, responses=error_responses(404, 409, 422))
async def take_seat(runtime: TableDep, body: TakeSeat) -> SeatTaken:
    """The first free seat, and the token that holds it; at a locked table, the token
    that will hold the seat the host admits its holder to (``waiting``)."""
    nickname = _nickname(body.nickname)
    token = secrets.token_urlsafe(32)
    seat = await runtime.play.ask_seat(nickname, token_hash(token))
    return SeatTaken(player_token=token, seat=seat, waiting=seat is None)
