"""A group's statistics: every player's numbers over several tables at once, for whoever
holds a seat at each (the tables a browser has a seat at: the ``/stats`` page).

The tables' finished deals are counted together by the table layer's
:func:`~italian_poker.table.statistics.statistics_of`, as ``italian-poker stats`` counts the
hand histories of several folders: a name is one player at every table. A table that cannot
be counted (an unknown invite, a token that holds no seat there) is said so in the answer,
and the others are counted.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from fastapi import APIRouter

from italian_poker.engine.history import HandHistory
from italian_poker.engine.match import CompletedDeal
from italian_poker.server.dependencies import ServerDep
from italian_poker.server.errors import ApiError, error_responses
from italian_poker.server.schemas.stats import GroupStats, GroupStatsQuery, GroupTable
from italian_poker.server.store import token_hash
from italian_poker.table.statistics import Statistics, statistics_of

router = APIRouter(prefix="/api/stats", tags=["group"], responses=error_responses(422))
"""Tagged ``group``: its tokens are in the body (one a table), not in a header."""

NO_TABLE = "no table has this invite: check the link, or forget this table"
NOT_SEATED = "this token holds no seat at this table (the host may have removed you)"


def _statistics(deals: Sequence[tuple[CompletedDeal, ...]]) -> Statistics:
    """The statistics of every table's deals, the tables in order (in a worker thread)."""
    return statistics_of(
        HandHistory.from_completed(completed) for table in deals for completed in table
    )


@router.post("")
async def group_stats(body: GroupStatsQuery, server: ServerDep) -> GroupStats:
    """Every player's statistics over the finished deals of the tables asked for, added up
    as one (a name is one player); each table is counted only for a token that holds a seat
    there, and the answer says of each table whether it was counted, and why not."""
    tables: list[GroupTable] = []
    deals: list[tuple[CompletedDeal, ...]] = []
    for key in body.tables:
        try:
            runtime = await server.find(key.invite)
        except ApiError as error:  # an expired table (410), no room for it (503)
            tables.append(_refused(key.invite, error.code, error.message))
            continue
        if runtime is None:
            tables.append(_refused(key.invite, "no_table", NO_TABLE))
            continue
        await runtime.sync()  # a replica: caught up with the owner's log
        if runtime.seat_for_token(token_hash(key.token)) is None:
            tables.append(_refused(key.invite, "forbidden", NOT_SEATED))
            continue
        finished = runtime.histories.finished_deals()
        deals.append(finished)
        tables.append(
            GroupTable(
                invite=key.invite,
                counted=True,
                name=runtime.state.name,
                deals=len(finished),
                error=None,
                message=None,
            )
        )
    # Off the event loop: many tables' deals take a while to read, and every table waits.
    statistics = await asyncio.get_running_loop().run_in_executor(None, _statistics, deals)
    return GroupStats.of(tables, statistics)


def _refused(invite: str, code: str, message: str) -> GroupTable:
    return GroupTable(invite=invite, counted=False, name=None, deals=0, error=code, message=message)
