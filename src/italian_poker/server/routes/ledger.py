"""The ledger: the host's always, the players' too while the host lets them see it (the
host's switch, a table event, so that it outlasts a restart). Its rows and its summary per
person (:mod:`italian_poker.server.ledger`), as JSON or the rows as CSV."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response

from italian_poker.server.dependencies import HostTableDep, LedgerReaderDep
from italian_poker.server.errors import error_responses
from italian_poker.server.ledger import ledger_csv, summarise
from italian_poker.server.schemas.ledger import Ledger, LedgerEntry, LedgerSummary, LedgerVisibility
from italian_poker.server.schemas.lobby import LobbyTable
from italian_poker.server.table_runtime import TableRuntime
from italian_poker.server.table_state import EventKind

router = APIRouter(
    prefix="/api/tables/{invite}",
    tags=["ledger"],
    responses=error_responses(403, 404, 422),
)

_CSV: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "The ledger's rows as CSV, the same values as the JSON rows",
        "content": {"text/csv": {"schema": {"type": "string"}}},
    }
}


async def _rows(runtime: TableRuntime) -> tuple[list[LedgerEntry], LedgerSummary]:
    rows, seated, in_pot = await runtime.histories.ledger()
    entries = [LedgerEntry.model_validate(row) for row in rows]
    return entries, LedgerSummary.of(summarise(entries, seated, in_pot))


@router.get("/ledger.csv", response_class=Response, responses=_CSV)
async def ledger_as_csv(runtime: LedgerReaderDep) -> Response:
    """Download the rows as CSV: ``created, nickname, player, kind, amount, hand``."""
    entries, _ = await _rows(runtime)
    return Response(
        ledger_csv(entries),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": 'attachment; filename="ledger.csv"'},
    )


@router.get("/ledger")
async def ledger(runtime: LedgerReaderDep) -> Ledger:
    """Every buy-in, adjustment, result and cash-out, oldest first, and per person what
    they bought in, cashed out, hold now and are up or down, with the pot: the nets and the
    pot come to zero."""
    entries, summary = await _rows(runtime)
    return Ledger(ledger=entries, summary=summary)


@router.post("/ledger-visibility", responses=error_responses(409))
async def ledger_visibility(runtime: HostTableDep, body: LedgerVisibility) -> LobbyTable:
    """Let the players see the ledger (``true``), or keep it for the host (``false``)."""
    if runtime.state.switches.players_see_ledger != body.players:
        await runtime.play.host(EventKind.LEDGER_VISIBILITY, {"players": body.players})
    return LobbyTable.of(runtime)
