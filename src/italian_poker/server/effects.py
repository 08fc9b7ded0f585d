"""What applying one event to a table produced (:meth:`TableState.apply
<italian_poker.server.table_state.TableState.apply>`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from italian_poker.server.ledger import LedgerEntry
from italian_poker.table.narration import Line


@dataclass(slots=True)
class Effects:
    """What applying an event produced: public log lines, ledger rows, the event as the log
    records it (its payload, with the cards it took) and whether the table played the
    default action for a bot whose choice the rules refused."""

    lines: list[Line] = field(default_factory=list)
    ledger: list[LedgerEntry] = field(default_factory=list)
    record: dict[str, Any] = field(default_factory=dict)
    refused: str | None = None
