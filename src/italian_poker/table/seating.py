"""Who sits at a table machine: seats as frozen snapshots, departures, and the refusals of a
seating change."""

from __future__ import annotations

from dataclasses import dataclass

from italian_poker.engine.errors import SeatError


class UnknownPlayerError(SeatError):
    """A command for a player who has no seat at the table."""


class AlreadySeatedError(SeatError):
    """A seat taken by a player who already has one, or under a name another player has."""


class TableFullError(SeatError):
    """A seat taken at a table whose seats are all taken (``Rules.players``)."""


class BadChipsError(SeatError):
    """A number of chips that is not allowed: a seat is taken with more than none, a stack is
    set to none or more, chips added are more than none."""


class SittingError(SeatError):
    """Sitting out a player who sits out already, or sitting in one who is dealt in."""


@dataclass(frozen=True, slots=True)
class SeatState:
    """One seat as it stands: who, under which name, with how many chips, whether they sit out
    and whether they are dealt into the deal under way."""

    player: int
    name: str
    chips: int
    sitting_out: bool
    in_deal: bool


@dataclass(frozen=True, slots=True)
class Departure:
    """A player who left the table with ``chips``: by choice, or ``busted``."""

    player: int
    name: str
    chips: int
    busted: bool


@dataclass(slots=True)
class Planned:
    """A seat as it will be once the changes waiting for the end of a deal are made."""

    name: str
    chips: int
    sitting_out: bool


__all__ = [
    "AlreadySeatedError",
    "BadChipsError",
    "Departure",
    "Planned",
    "SeatState",
    "SittingError",
    "TableFullError",
    "UnknownPlayerError",
]
