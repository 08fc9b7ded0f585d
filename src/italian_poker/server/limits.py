"""The bounds of every whole number the server takes from outside, defined once: the request
models (``schemas/``), the path parameters and the WebSocket messages (``protocol.py``,
an action's amount included) all check them with :func:`whole_number`.

Chip counts end up in the ledger's ``amount`` column and seq numbers in ``table_events.seq``,
both SQL ``INTEGER``: 32-bit signed on PostgreSQL (SQLite's are 64-bit, so the smaller one
rules). A table's chips altogether are kept within :data:`MAX_CHIPS` too (the runtime refuses
a buy-in or an adjustment beyond it), so that no net result or cash-out can overflow.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import PlainValidator, WithJsonSchema

from italian_poker.engine.deck import MAX_PLAYERS, MIN_PLAYERS

MAX_INT = 2**31 - 1
"""The largest value of an SQL ``INTEGER`` column on every supported database."""
MAX_CHIPS = MAX_INT
"""The most chips a stack, an ante, a bet, or a whole table may hold."""
MIN_SEATS = MIN_PLAYERS
MAX_SEATS = MAX_PLAYERS
"""Seats at a table: the players the rules allow (section 1)."""
MAX_SECONDS = 3600
"""The longest turn or time bank, in seconds."""
MAX_STATS_TABLES = 50
"""The most tables one request for a group's statistics counts together (``POST
/api/stats``): about a year of weekly tables, and a body well under the body limit."""

_DIGITS = re.compile(r"[0-9]{1,12}")


def whole_number(value: Any, low: int, high: int, what: str, *, text: bool = False) -> int:
    """``value`` as an int from ``low`` to ``high``; else ``ValueError`` naming ``what`` and
    the range. A bool is not a number; with ``text`` (path parameters) a string of ASCII
    digits is read too, and nothing else: no sign, space, underscore or other digits."""
    if text and isinstance(value, str):
        if not _DIGITS.fullmatch(value):
            raise ValueError(f"{what} must be a whole number from {low} to {high}")
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be a whole number from {low} to {high}")
    if not low <= value <= high:
        raise ValueError(f"{what} must be {low} to {high}")
    return value


def _check(low: int, high: int, what: str, *, text: bool = False) -> PlainValidator:
    """The pydantic validator of a request model's or a path parameter's whole number:
    :func:`whole_number` (strict: no floats, bools or strings in JSON)."""
    return PlainValidator(
        lambda value: whole_number(value, low, high, what, text=text), json_schema_input_type=int
    )


def _schema(low: int, high: int) -> WithJsonSchema:
    return WithJsonSchema({"type": "integer", "minimum": low, "maximum": high})


Chips = Annotated[int, _check(1, MAX_CHIPS, "a number of chips"), _schema(1, MAX_CHIPS)]
"""A stack or a buy-in: at least 1 chip."""
Ante = Annotated[int, _check(0, MAX_CHIPS, "the ante"), _schema(0, MAX_CHIPS)]
Seats = Annotated[
    int, _check(MIN_SEATS, MAX_SEATS, "the number of seats"), _schema(MIN_SEATS, MAX_SEATS)
]
SeatNumber = Annotated[int, _check(0, MAX_SEATS - 1, "a seat number"), _schema(0, MAX_SEATS - 1)]
SeatInPath = Annotated[
    int, _check(0, MAX_SEATS - 1, "a seat number", text=True), _schema(0, MAX_SEATS - 1)
]
HandInPath = Annotated[
    int, _check(1, MAX_INT, "a hand id (e.g. 3 or 3.phh)", text=True), _schema(1, MAX_INT)
]
ChatMessageInPath = Annotated[
    int, _check(1, MAX_INT, "a chat message's id", text=True), _schema(1, MAX_INT)
]
PlayerInPath = Annotated[int, _check(1, MAX_INT, "a player id", text=True), _schema(1, MAX_INT)]
"""A person's id: the seq of the event that seated them."""
Count = Annotated[int, _check(0, MAX_INT, "a number"), _schema(0, MAX_INT)]
"""A whole number the match format checks further (deals, minutes, a re-entry window, a
prize share): :class:`~italian_poker.table.formats.FormatError` says what it allows."""
PositiveCount = Annotated[int, _check(1, MAX_INT, "a count"), _schema(1, MAX_INT)]
"""How many times, or a level's number: 1 or more."""
RequestInPath = Annotated[
    int, _check(1, MAX_INT, "a chip request's number", text=True), _schema(1, MAX_INT)
]
TurnSeconds = Annotated[int, _check(1, 600, "the turn's seconds"), _schema(1, 600)]
BankSeconds = Annotated[
    int, _check(0, MAX_SECONDS, "the time bank's seconds"), _schema(0, MAX_SECONDS)
]
