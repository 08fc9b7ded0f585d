"""The host's switches at a table: whether the players may read the ledger, whether the
drawing seat is sent the draw hint, and the spectators' watch link and its delay.

A ``ledger_visibility``, ``advice`` or ``watch`` event sets them: each method checks the
event's payload and gives the switches it sets with the public log's lines that tell the
table; a payload it refuses raises :class:`ValueError` and sets nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from italian_poker.server.i18n import line
from italian_poker.table.narration import Line

_SHA256 = re.compile(r"[0-9a-f]{64}")
"""A ``watch`` event's ``hash``: a sha256 hex digest, as ``store.token_hash`` writes it."""


@dataclass(frozen=True, slots=True)
class HostSwitches:
    """The host's switches, as the table's options and its last events set them."""

    players_see_ledger: bool = False
    """Whether the players may read the ledger (the host always may)."""
    advice_on: bool = False
    """Whether the drawing seat is sent the draw hint (when the server has an advisor)."""
    watch_hash: str | None = None
    """The sha256 hash of the spectators' watch link; None while the host offers none."""
    watch_delay: bool = False
    """Whether spectators see each deal only once it has ended."""

    def ledger_visibility(self, payload: dict[str, Any]) -> tuple[HostSwitches, list[Line]]:
        """A ``ledger_visibility`` event: ``{players}``, a bool."""
        players = payload.get("players")
        if not isinstance(players, bool):
            raise ValueError(f"'players' is true or false, not {players!r}")
        said = line("table_ledger_shown" if players else "table_ledger_hidden")
        return replace(self, players_see_ledger=players), [said]

    def advice(self, payload: dict[str, Any]) -> tuple[HostSwitches, list[Line]]:
        """An ``advice`` event: ``{on}``, a bool."""
        on = payload.get("on")
        if not isinstance(on, bool):
            raise ValueError(f"'on' is true or false, not {on!r}")
        said = line("table_advice_on" if on else "table_advice_off")
        return replace(self, advice_on=on), [said]

    def watch(self, payload: dict[str, Any]) -> tuple[HostSwitches, list[Line]]:
        """A ``watch`` event: ``{hash, delay}``, ``hash`` a sha256 hex digest or null (no
        link), ``delay`` a bool. The lines tell what changed: the link opened (with or
        without the delay) or closed, a new link, the delay set or lifted."""
        hashed, delay = payload.get("hash"), payload.get("delay")
        if hashed is not None and not (isinstance(hashed, str) and _SHA256.fullmatch(hashed)):
            raise ValueError("'hash' is a sha256 hex digest or null")
        if not isinstance(delay, bool):
            raise ValueError(f"'delay' is true or false, not {delay!r}")
        lines: list[Line] = []
        if hashed is None:
            if self.watch_hash is not None:
                lines.append(line("table_watch_closed"))
        elif self.watch_hash is None:
            lines.append(line("table_watch_opened_delayed" if delay else "table_watch_opened"))
        else:
            if hashed != self.watch_hash:
                lines.append(line("table_watch_new_link"))
            if delay != self.watch_delay:
                lines.append(line("table_watch_delay_on" if delay else "table_watch_delay_off"))
        return replace(self, watch_hash=hashed, watch_delay=delay), lines
