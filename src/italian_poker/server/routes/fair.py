"""The host's fair-deck switches (docs/fairness.md): when the seeds are revealed (at each
deal's end, or when the table closes) and closing the table's books, which reveals the seeds
of every finished deal."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter

from italian_poker.engine.fair_source import Reveal
from italian_poker.server.dependencies import HostTableDep
from italian_poker.server.errors import error_responses
from italian_poker.server.event_kinds import EventKind
from italian_poker.server.schemas.base import Model
from italian_poker.server.schemas.lobby import LobbyTable

router = APIRouter(
    prefix="/api/tables/{invite}/fair",
    tags=["host"],
    responses=error_responses(403, 404, 422),
)


class RevealSetting(Model):
    """``POST /api/tables/{invite}/fair``."""

    reveal: Literal["deal", "close"]
    """``deal``: each deal's seed at its end (folded hands become visible to everyone);
    ``close``: every seed when the host closes the table (the default)."""


@router.post("", responses=error_responses(409))
async def reveal_switch(runtime: HostTableDep, body: RevealSetting) -> LobbyTable:
    """When the seeds are revealed: a ``fair_reveal`` event, none when nothing changes. It
    holds from the next deal's end."""
    if runtime.state.fair.policy is not Reveal(body.reveal):
        await runtime.play.host(EventKind.FAIR_REVEAL, {"when": body.reveal})
    return LobbyTable.of(runtime)


@router.post("/close", responses=error_responses(409))
async def close_books(runtime: HostTableDep) -> LobbyTable:
    """Close the table's books: a ``reveal`` event, the seeds of every finished deal
    revealed (their histories carry them, and can be checked)."""
    await runtime.play.host(EventKind.REVEAL, {})
    return LobbyTable.of(runtime)
