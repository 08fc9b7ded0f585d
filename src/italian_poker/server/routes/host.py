"""What only the host may do (the host's token): bots, seats, start, pause and resume,
stacks, the draw hint, the spectators' watch link. Every call but the last answers the table
as the lobby shows it (the ledger is :mod:`.ledger`'s)."""

from __future__ import annotations

import secrets

from fastapi import APIRouter

from italian_poker.server.dependencies import HostTableDep, ServerDep
from italian_poker.server.errors import ApiError, error_responses
from italian_poker.server.event_kinds import EventKind
from italian_poker.server.limits import SeatInPath
from italian_poker.server.nicknames import nickname_key
from italian_poker.server.schemas.host import (
    BOT_LEVELS,
    AddBot,
    AdviceSetting,
    BotAdded,
    SetStack,
    WatchLink,
    WatchSettings,
)
from italian_poker.server.schemas.lobby import LobbyTable
from italian_poker.server.store import token_hash
from italian_poker.server.table_runtime import TableRuntime
from italian_poker.table.names import bot_name

router = APIRouter(
    prefix="/api/tables/{invite}",
    tags=["host"],
    responses=error_responses(403, 404, 422),
)


@router.post("/bots", status_code=201, responses=error_responses(409))
async def add_bot(runtime: HostTableDep, body: AddBot) -> BotAdded:
    """A bot in the first free seat, named as the terminal's bots are (``Anna``, ``Bruno``,
    ...: the first name not taken)."""
    if body.level not in BOT_LEVELS:
        raise ApiError(422, "bad_level", f"a bot level is one of {', '.join(BOT_LEVELS)}")
    taken = {nickname_key(s.nickname) for s in runtime.state.slots if s is not None}
    name = bot_name(taken, nickname_key)
    seat = await runtime.play.take_seat(name, None, body.level)
    return BotAdded(seat=seat, nickname=name, level=body.level)


@router.delete("/seats/{seat}", responses=error_responses(409))
async def remove_seat(runtime: HostTableDep, seat: SeatInPath) -> LobbyTable:
    """Kick a player or remove a bot; seat 0 stays the host's."""
    if seat == 0:
        raise ApiError(409, "host_seat", "the host keeps seat 0")
    await runtime.play.remove_seat(seat)
    return LobbyTable.of(runtime)


async def _host_event(runtime: TableRuntime, kind: EventKind) -> LobbyTable:
    await runtime.play.host(kind)
    return LobbyTable.of(runtime)


@router.post("/start", responses=error_responses(409))
async def start(runtime: HostTableDep) -> LobbyTable:
    """Deal the first hand."""
    return await _host_event(runtime, EventKind.START)


@router.post("/pause", responses=error_responses(409))
async def pause(runtime: HostTableDep) -> LobbyTable:
    """Stop the game (and the clock) until resumed."""
    return await _host_event(runtime, EventKind.PAUSE)


@router.post("/resume", responses=error_responses(409))
async def resume(runtime: HostTableDep) -> LobbyTable:
    """Go on after a pause, with a whole turn for the player to act."""
    return await _host_event(runtime, EventKind.RESUME)


@router.post("/stacks", responses=error_responses(409))
async def set_stack(runtime: HostTableDep, body: SetStack) -> LobbyTable:
    """A seat's chips for the next deal (between deals only)."""
    await runtime.play.host(EventKind.STACK, {"seat": body.seat, "amount": body.amount})
    return LobbyTable.of(runtime)


@router.post("/advice", responses=error_responses(409))
async def advice(runtime: HostTableDep, server: ServerDep, body: AdviceSetting) -> LobbyTable:
    """Turn the draw hint on or off for the table, at any time: it holds from the next state
    the players are sent (the draw under way included). An ``advice`` event, none when
    nothing changes."""
    if body.on and server.advisor is None:
        raise ApiError(
            409,
            "no_advisor",
            "this server runs without the draw hint (serve --no-advice): it cannot be turned on",
        )
    if runtime.state.switches.advice_on != body.on:
        await runtime.play.host(EventKind.ADVICE, {"on": body.on})
    return LobbyTable.of(runtime)


async def set_watch(
    runtime: TableRuntime, *, open_: bool, delay: bool | None, new_link: bool = False
) -> WatchLink:
    """Open the table to spectators (a new link's secret, ``secrets.token_urlsafe(18)``, when
    there is none or ``new_link``; only its hash is kept), or close it; set the delay of one
    deal (``None``: as it is). A ``watch`` event, none when nothing changes."""
    state = runtime.state
    delayed = state.switches.watch_delay if delay is None else delay
    secret = None
    hashed = state.switches.watch_hash if open_ else None
    if open_ and (hashed is None or new_link):
        secret = secrets.token_urlsafe(18)
        hashed = token_hash(secret)
    if (hashed, delayed) != (state.switches.watch_hash, state.switches.watch_delay):
        await runtime.play.host(EventKind.WATCH, {"hash": hashed, "delay": delayed})
    return WatchLink(
        open=hashed is not None,
        delay=delayed,
        watch=secret,
        watch_url=None if secret is None else f"/w/{secret}",
    )


@router.post("/watch", responses=error_responses(409))
async def watch(runtime: HostTableDep, body: WatchSettings) -> WatchLink:
    """Let spectators watch through a watch link (its secret in the answer that makes it),
    give them a new one, or close it (its spectators are closed at once); and whether they
    see each deal only once it has ended."""
    if body.new_link and not body.open:
        raise ApiError(422, "bad_watch", "new_link: a new watch link needs open: true")
    return await set_watch(runtime, open_=body.open, delay=body.delay, new_link=body.new_link)
