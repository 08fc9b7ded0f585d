"""The shows a version 1 log records twice: in a deal of such a log the table plays the shows
the rules leave no choice about (5.4) itself, while the log records them as the players' own
``action`` events, which the table then passes over."""

from __future__ import annotations

from collections import deque
from typing import Any

from italian_poker.engine.actions import ActionKind


class ForcedShows:
    """The shows the table played in the deal under way that the log is yet to repeat."""

    def __init__(self) -> None:
        self._shows: deque[tuple[int, ActionKind]] = deque()
        """(seat, kind) of each show, in the order the table played them."""

    def clear(self) -> None:
        """A new deal: no show played yet."""
        self._shows.clear()

    def played(self, seat: int, kind: ActionKind) -> None:
        """The table played a show for ``seat``."""
        self._shows.append((seat, kind))

    def repeats(self, payload: dict[str, Any]) -> bool:
        """Whether an ``action`` event repeats the next show the table played already; it is
        then no longer awaited."""
        if not self._shows or "kind" not in payload:
            return False
        if (int(payload["seat"]), ActionKind(payload["kind"])) != self._shows[0]:
            return False
        self._shows.popleft()
        return True
