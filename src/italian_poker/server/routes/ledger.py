"""The ledger: the host's always, the players' too while the host lets them see it (the
host's switch, a table event, so that it outlasts a restart). Its rows and its summary per
person and who pays whom to settle up (:mod:`italian_poker.server.ledger`), as JSON, or as
CSV: the rows, or (``?part=settle``) the settle-up, each a table of its own."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response

from italian_poker.server.dependencies import HostTableDep, LedgerReaderDep
from italian_poker.server.errors import ApiError, error_responses
from italian_poker.server.event_kinds import EventKind
from italian_poker.server.ledger import Summary, ledger_csv, settle_csv, summarise
from italian_poker.server.schemas.ledger import Ledger, LedgerEntry, LedgerSummary, LedgerVisibility
from italian_poker.server.schemas.lobby import LobbyTable
from italian_poker.server.table_runtime import TableRuntime

router = APIRouter(
    prefix="/api/tables/{invite}",
    tags=["ledger"],
    responses=error_responses(403, 404, 422),
)

_CSV: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "The ledger's rows as CSV, the same values as the JSON rows; or the "
        "settle-up (payer, payee, amount)",
        "content": {"text/csv": {"schema": {"type": "string"}}},
    }
}


def _not_settled(summary: Summary) -> ApiError:
    """Why there is no settle-up: chips in the pot, or nets that do not come to zero."""
    if summary.in_pot:
        message = f"{summary.in_pot} chips are in the pot: settle up once it is won"
    else:
        message = (
            f"the nets come to {summary.totals.net:+d}, not 0: the ledger and the table disagree"
        )
    return ApiError(409, "not_settled", message)


class CsvPart(StrEnum):
    """Which table the CSV holds."""

    ROWS = "rows"
    """Every row: ``created, nickname, player, kind, amount, hand``."""
    SETTLE = "settle"
    """Who pays whom to settle up: ``payer, payee, amount``."""


def _csv(text: str, filename: str) -> Response:
    return Response(
        text,
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


async def _rows(runtime: TableRuntime) -> tuple[list[LedgerEntry], Summary]:
    rows, seated, in_pot = await runtime.histories.ledger()
    entries = [LedgerEntry.model_validate(row) for row in rows]
    return entries, summarise(entries, seated, in_pot)


@router.get("/ledger.csv", response_class=Response, responses=_CSV | error_responses(409))
async def ledger_as_csv(runtime: LedgerReaderDep, part: CsvPart = CsvPart.ROWS) -> Response:
    """Download the rows as CSV: ``created, nickname, player, kind, amount, hand``; or, with
    ``?part=settle``, who pays whom to settle up: ``payer, payee, amount`` (refused while the
    pot holds chips: settle once it is won)."""
    entries, summary = await _rows(runtime)
    if part is CsvPart.ROWS:
        return _csv(ledger_csv(entries), "ledger.csv")
    transfers = summary.settle_up
    if transfers is None:
        raise _not_settled(summary)
    return _csv(settle_csv(transfers), "settle-up.csv")


@router.get("/ledger")
async def ledger(runtime: LedgerReaderDep) -> Ledger:
    """Every buy-in, adjustment, result and cash-out, oldest first, and per person what
    they bought in, cashed out, hold now and are up or down, with the pot: the nets and the
    pot come to zero."""
    entries, summary = await _rows(runtime)
    return Ledger(ledger=entries, summary=LedgerSummary.of(summary))


@router.post("/ledger-visibility", responses=error_responses(409))
async def ledger_visibility(runtime: HostTableDep, body: LedgerVisibility) -> LobbyTable:
    """Let the players see the ledger (``true``), or keep it for the host (``false``)."""
    if runtime.state.switches.players_see_ledger != body.players:
        await runtime.play.host(EventKind.LEDGER_VISIBILITY, {"players": body.players})
    return LobbyTable.of(runtime)
