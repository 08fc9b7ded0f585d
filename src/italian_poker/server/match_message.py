"""The ``match`` member of a table's state at a table with a match format: the level in force,
the next one and when it comes, the deals or time left, whether a busted player may re-enter,
the standings once the match is over."""

from __future__ import annotations

from typing import Any

from italian_poker.server.table_state import TableState
from italian_poker.table.formats import CASH, Level, Standing

__all__ = ["match_json"]


def _level(level: Level) -> dict[str, int]:
    return {
        "ante": level.ante,
        "min_bet": level.min_bet,
        "max_bet": level.max_bet,
        "deals": level.deals,
        "minutes": level.minutes,
    }


def _standing(standing: Standing) -> dict[str, Any]:
    return {
        "place": standing.place,
        "name": standing.name,
        "chips": standing.chips,
        "net": standing.net,
        "out": standing.out,
        "prize": standing.prize,
        "re_entries": standing.re_entries,
    }


def match_json(state: TableState) -> dict[str, Any] | None:
    """The ``match`` member of a state: None for a cash game; else the ``kind``, the ``level``
    in force (its ``number`` of ``of``, ante and bets), the ``next`` level and when it comes
    (``at_deal``, ``deals_to_next``: deals to play first; ``at_time``: seconds on the
    server's clock, once the level of minutes has begun), ``deals_left`` or ``ends_at`` of a
    fixed match, whether a busted player may re-enter (``re_entry``), ``finished`` and the
    ``standings`` (places, chips and prizes: final once finished), and the seats whose players
    busted out (``busted``)."""
    machine = state.machine
    fmt = machine.match_format
    if fmt == CASH:
        return None
    status = machine.level
    completed = len(machine.completed)
    level: dict[str, Any] | None = None
    if status is not None:
        level = {
            "number": status.number,
            "of": status.of,
            **_level(status.level),
            "next": None if status.following is None else _level(status.following),
            "at_deal": status.at_deal,
            "deals_to_next": None
            if status.at_deal is None
            else max(status.at_deal - completed - 1, 0),
            "at_time": status.at_time,
        }
    return {
        "kind": fmt.kind.value,
        "level": level,
        "deals": fmt.deals,
        "minutes": fmt.minutes,
        "deals_left": machine.deals_left,
        "ends_at": machine.ends_at,
        "starting_chips": fmt.starting_chips,
        "prize_pool": fmt.prize_pool,
        "prizes": list(fmt.prizes()),
        "re_entry": machine.re_entry_open,
        "finished": machine.finished,
        "busted": [i for i, slot in enumerate(state.slots) if slot and state.busted(i)],
        "standings": [_standing(s) for s in machine.standings] if machine.finished else None,
    }
