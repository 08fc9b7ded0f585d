"""A table's match format as the server keeps and shows it: read from the table's options,
told in the public log (a level that rises, a re-entry, the end of the match with its
standings); :mod:`~italian_poker.server.match_message` sends it with every state."""

from __future__ import annotations

from typing import Any

from italian_poker.server.i18n import line
from italian_poker.table.formats import CASH, MatchFormat
from italian_poker.table.machine_events import LevelChanged, MatchFinished, TableEvent
from italian_poker.table.narration import Line

FORMAT_OPTION = "format"
"""The option (``options``) that holds the table's format (:meth:`MatchFormat.to_dict`)."""


def match_format_of(options: dict[str, Any]) -> MatchFormat:
    """The format of a table with ``options``: a cash game without one."""
    data = options.get(FORMAT_OPTION)
    return CASH if data is None else MatchFormat.from_dict(data)


def format_lines(event: TableEvent) -> list[Line]:
    """The public log's lines for a level that rises or the end of the match."""
    if isinstance(event, LevelChanged):
        level = event.status.level
        return [
            line(
                "table_level",
                number=event.status.number,
                ante=level.ante,
                low=level.min_bet,
                high=level.max_bet,
            )
        ]
    if isinstance(event, MatchFinished):
        lines = [line("table_match_over")]
        for standing in event.standings:
            key = "table_place_prize" if standing.prize else "table_place"
            lines.append(
                line(
                    key,
                    place=standing.place,
                    name=standing.name,
                    chips=standing.chips,
                    prize=standing.prize,
                )
            )
        return lines
    return []
