"""The desk (server/home_desk.py): the host, or the co-host, locks the table, sets the caps
on chip requests and answers seat and chip requests; a seated player asks for chips; a
newcomer waiting at a locked table reads where their request stands. Every call but the last
answers the desk as the table sees it."""

from __future__ import annotations

from fastapi import APIRouter

from italian_poker.server.dependencies import (
    Authorization,
    HostTableDep,
    ManagerDep,
    PlayerSeatDep,
    TableDep,
    bearer_token,
)
from italian_poker.server.errors import ApiError, error_responses
from italian_poker.server.event_kinds import EventKind
from italian_poker.server.limits import PlayerInPath, RequestInPath
from italian_poker.server.schemas.desk import (
    AskChips,
    ChipAnswer,
    ChipCapsSetting,
    CoHostSetting,
    DeskView,
    LockSetting,
    SeatAnswer,
    SeatRequestStatus,
)
from italian_poker.server.store import token_hash
from italian_poker.server.table_runtime import TableRuntime

router = APIRouter(
    prefix="/api/tables/{invite}",
    tags=["desk"],
    responses=error_responses(403, 404, 422),
)


def _desk(runtime: TableRuntime) -> DeskView:
    return DeskView.of(runtime.state.desk.as_json())


@router.get("/desk")
async def desk(manager: ManagerDep) -> DeskView:
    """The lock, the co-host, the caps and the requests waiting."""
    return _desk(manager.runtime)


@router.post("/lock", responses=error_responses(409))
async def lock(manager: ManagerDep, body: LockSetting) -> DeskView:
    """Lock the table (newcomers wait for an answer) or open it; none when nothing
    changes."""
    if manager.runtime.state.desk.locked != body.locked:
        payload = {"locked": body.locked, "by": manager.by}
        await manager.runtime.play.host(EventKind.LOCK, payload)
    return _desk(manager.runtime)


@router.post("/co-host", responses=error_responses(409))
async def co_host(runtime: HostTableDep, body: CoHostSetting) -> DeskView:
    """Name the co-host (a seated person, not a bot), or nobody: the host's alone."""
    await runtime.play.host(EventKind.CO_HOST, {"seat": body.seat})
    return _desk(runtime)


@router.post("/chip-caps", responses=error_responses(409))
async def chip_caps(manager: ManagerDep, body: ChipCapsSetting) -> DeskView:
    """The caps on chip requests, from the next request on."""
    payload = body.model_dump() | {"by": manager.by}
    await manager.runtime.play.host(EventKind.CHIP_CAPS, payload)
    return _desk(manager.runtime)


@router.post("/chip-requests", status_code=201, responses=error_responses(409))
async def ask_chips(player: PlayerSeatDep, body: AskChips) -> DeskView:
    """Ask the host for chips: a rebuy (too few chips to be dealt in) or a top-up; in a sit
    and go, a busted player's re-entry with the starting chips, while the re-entry window is
    open. A request refused is a 409 whose code says why (``chips_below_minimum``,
    ``chips_above_maximum``, ``too_many_requests``, ``requests_past_level``,
    ``request_during_deal``, ``request_pending``; in a sit and go ``not_busted``,
    ``re_entry_chips``, ``re_entry_closed``)."""
    payload = {"seat": player.seat, "chips": body.chips}
    await player.runtime.play.host(EventKind.CHIP_ASK, payload)
    return _desk(player.runtime)


@router.post("/chip-requests/{request}/answer", responses=error_responses(409))
async def answer_chips(manager: ManagerDep, request: RequestInPath, body: ChipAnswer) -> DeskView:
    """Approve a chip request (its chips added between deals, a ``rebuy``, ``top_up`` or
    ``re_entry`` row of the ledger; a re-entry after the window closed is a 409
    ``re_entry_closed``: refuse it) or refuse it."""
    payload = {"request": request, "approve": body.approve, "by": manager.by}
    await manager.runtime.play.host(EventKind.CHIP_ANSWER, payload)
    return _desk(manager.runtime)


@router.post("/seat-requests/{player}/answer", responses=error_responses(409))
async def answer_seat(manager: ManagerDep, player: PlayerInPath, body: SeatAnswer) -> DeskView:
    """Admit a waiting newcomer into the first free seat, or refuse them."""
    await manager.runtime.play.answer_seat(player, body.admit, manager.by)
    return _desk(manager.runtime)


@router.get("/seat-request")
async def seat_request(runtime: TableDep, authorization: Authorization = None) -> SeatRequestStatus:
    """Where the seat request made with this token stands."""
    ask = runtime.state.desk.ask_of(token_hash(bearer_token(authorization)))
    if ask is None:
        raise ApiError(404, "no_seat_request", "this token asked for no seat at this table")
    return SeatRequestStatus(status=ask.status.value, nickname=ask.nickname, seat=ask.seat)
