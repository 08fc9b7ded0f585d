"""Hand histories that replay exactly, in a text format based on PHH (Poker Hand History).

The package is split by concern:

- :mod:`.model`: :class:`HandHistory` and its parts, read off a deal's operations log;
- :mod:`.notation`: the action notation (``p2 cbr 9``, ``d dh p3 AhKh7c``);
- :mod:`.file_format`: :func:`dumps` and :func:`loads`, the TOML text of
  ``docs/hand-history.md``;
- :mod:`.replay`: :func:`replay`, the check that a history is legal and comes out as recorded;
- :mod:`.redaction`: one player's view of a history (:func:`dumps_redacted`,
  :func:`redacted_record`), by the observer's rules;
- :mod:`.readable`: a replayed deal in words (:func:`describe`, :func:`summary`).

Everything public is importable from here, as it was from the single module it replaces.
Nothing does I/O: reading and writing files is the caller's job.
"""

from italian_poker.engine.history.file_format import dumps, loads, toml_string, toml_value
from italian_poker.engine.history.model import (
    FORMAT_VERSION,
    VARIANT,
    Dealt,
    HandHistory,
    HistoryAction,
    HistoryError,
    HistoryResult,
    from_operations,
)
from italian_poker.engine.history.notation import SPLIT_FLAG, UNKNOWN_CARD, action_notation
from italian_poker.engine.history.readable import describe, describe_action, summary
from italian_poker.engine.history.redaction import dumps_redacted, redacted_record
from italian_poker.engine.history.replay import replay

__all__ = [
    "FORMAT_VERSION",
    "SPLIT_FLAG",
    "UNKNOWN_CARD",
    "VARIANT",
    "Dealt",
    "HandHistory",
    "HistoryAction",
    "HistoryError",
    "HistoryResult",
    "action_notation",
    "describe",
    "describe_action",
    "dumps",
    "dumps_redacted",
    "from_operations",
    "loads",
    "redacted_record",
    "replay",
    "summary",
    "toml_string",
    "toml_value",
]
