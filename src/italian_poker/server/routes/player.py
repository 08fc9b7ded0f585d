"""What a seated player may do (the player's token): sit out and in, read the hand histories of the
deals they were dealt in, step through any finished deal of the table (the hand replayer: their
own view of a deal they were dealt in, the public view of the others), and read every player's
statistics at the table."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse, PlainTextResponse, Response

from italian_poker.engine.history import HandHistory, dumps_redacted, redacted_record
from italian_poker.server.dependencies import PlayerSeat, PlayerSeatDep
from italian_poker.server.errors import ApiError, error_responses
from italian_poker.server.fair_deal import revealed_text
from italian_poker.server.limits import HandInPath
from italian_poker.server.schemas.histories import HandReplay, Hands
from italian_poker.server.schemas.lobby import LobbyTable
from italian_poker.server.schemas.stats import TableStats
from italian_poker.table.statistics import statistics_of

router = APIRouter(
    prefix="/api/tables/{invite}",
    tags=["player"],
    responses=error_responses(403, 404, 422),
)


@router.post("/sit-out", responses=error_responses(409))
async def sit_out(player: PlayerSeatDep) -> LobbyTable:
    """Dealt out from the next deal (checked or folded meanwhile)."""
    await player.runtime.play.sit(player.seat, True)
    return LobbyTable.of(player.runtime)


@router.post("/sit-in", responses=error_responses(409))
async def sit_in(player: PlayerSeatDep) -> LobbyTable:
    """Dealt in again from the next deal."""
    await player.runtime.play.sit(player.seat, False)
    return LobbyTable.of(player.runtime)


@router.get("/histories")
async def histories(player: PlayerSeatDep) -> Hands:
    """The finished deals the holder of this token was dealt in."""
    return Hands(hands=player.runtime.histories.hands_of(player.seat))


@router.get("/stats")
async def stats(player: PlayerSeatDep) -> TableStats:
    """Every player's statistics over the table's finished deals (deals played, opened, at
    the showdown, won, net, biggest pot): public information, read off the deals' public
    record by ``table.statistics.statistics_of``."""
    return TableStats.of(statistics_of(player.runtime.histories.finished_histories()))


def _history(player: PlayerSeat, hand: int) -> tuple[HandHistory, int]:
    """Deal ``hand`` and the player's seat in it, or 404."""
    found = player.runtime.histories.history_for(player.seat, hand)
    if found is None:
        raise ApiError(404, "no_hand", "you were not dealt in this hand, or it is not over")
    return found


def _document(media_type: str, schema: dict[str, Any], text: str) -> dict[int | str, Any]:
    """The OpenAPI ``responses`` entry of a route that answers a :class:`Response` itself."""
    return {200: {"description": text, "content": {media_type: {"schema": schema}}}}


@router.get("/histories/{hand}/frames")
async def frames(player: PlayerSeatDep, hand: HandInPath) -> HandReplay:
    """Deal ``hand`` step by step, replayed through the engine: the holder's own view of a
    deal they were dealt in; for anyone else seated at the table, what everyone saw (the
    hidden cards stay hidden: how a shared link to a hand is seen)."""
    found = player.runtime.histories.frames_for(player.seat, hand)
    if found is None:
        raise ApiError(404, "no_hand", "this table has no finished hand with this number")
    return HandReplay.of(found, player.runtime.invite or "")


# Before ``/histories/{hand}``, which would take ``3.phh`` for a (malformed) hand id.
@router.get(
    "/histories/{hand}.phh",
    response_class=Response,
    responses=_document(
        "application/toml", {"type": "string"}, "The hand in the hand-history format, redacted"
    ),
)
async def history_phh(player: PlayerSeatDep, hand: HandInPath) -> Response:
    """Download the hand as the player may see it (``engine.history.dumps_redacted``); once
    its fair deck's seed is revealed, the whole hand with the seed (``engine.history.dumps``:
    the seed gives every card anyway)."""
    history_, index = _history(player, hand)
    # Once its fair deck's seed is revealed every card is known: the whole history, which
    # ``italian-poker verify`` checks.
    revealed = history_.fair is not None and history_.fair.seed is not None
    return PlainTextResponse(
        revealed_text(history_) if revealed else dumps_redacted(history_, index),
        media_type="application/toml",
        headers={"Content-Disposition": f'attachment; filename="hand-{hand:04d}.phh"'},
    )


@router.get(
    "/histories/{hand}",
    responses=_document(
        "application/json",
        {"type": "object", "additionalProperties": True},
        "The hand as the player may see it (``engine.history.redacted_record``)",
    ),
)
async def history(player: PlayerSeatDep, hand: HandInPath) -> Response:
    """The hand as the player may see it: cards the player never saw are ``??``."""
    history_, index = _history(player, hand)
    return JSONResponse(redacted_record(history_, index))
