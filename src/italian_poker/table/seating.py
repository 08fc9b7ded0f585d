"""Who sits at a table machine: seats as frozen snapshots, departures, and the refusals of a
seating change."""

from __future__ import annotations

from dataclasses import dataclass

from italian_poker.engine.errors import SeatError
from italian_poker.table.commands import (
    AddChips,
    Leave,
    SeatingCommand,
    SetChips,
    SitIn,
    SitOut,
    TakeSeat,
)


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
    """One seat as it stands: its number, who, under which name, with how many chips, whether
    they sit out and whether they are dealt into the deal under way."""

    seat: int
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
    """A seat (number ``seat``) as it will be once the changes waiting for the end of a deal
    are made."""

    seat: int
    name: str
    chips: int
    sitting_out: bool


def seat_in(player: object, plan: dict[int, Planned]) -> Planned:
    """The seat of ``player`` in ``plan``; :class:`UnknownPlayerError` if none."""
    seat = plan.get(player) if type(player) is int else None
    if seat is None:
        raise UnknownPlayerError(f"player {player!r} has no seat at this table")
    return seat


def check_seating(command: SeatingCommand, plan: dict[int, Planned], seats: int) -> None:
    """Refuse a seating change that ``plan`` (the seats once the waiting changes are made,
    at a table of ``seats``) does not allow."""
    if isinstance(command, TakeSeat):
        player, name, chips = command.player, command.name, command.chips
        if type(player) is not int or player < 0:
            raise SeatError(f"a player id is a whole number, 0 or more, not {player!r}")
        if player in plan:
            raise AlreadySeatedError(f"player {player} already has a seat")
        if not isinstance(name, str) or not name.strip():
            raise SeatError("a player needs a name")
        if any(p.name == name for p in plan.values()):
            raise AlreadySeatedError(f"there is already a player called {name!r}")
        if type(chips) is not int or chips <= 0:
            raise BadChipsError(f"a seat is taken with more than no chips, not {chips!r}")
        if len(plan) >= seats:
            raise TableFullError(f"the table is full ({seats} seats)")
        number = command.seat
        if number is not None:
            if type(number) is not int or not 0 <= number < seats:
                raise SeatError(f"a seat number is 0 to {seats - 1}, not {number!r}")
            if any(p.seat == number for p in plan.values()):
                raise AlreadySeatedError(f"seat {number} is taken")
        return
    seat = seat_in(command.player, plan)
    if isinstance(command, SitOut) and seat.sitting_out:
        raise SittingError(f"{seat.name} sits out already")
    if isinstance(command, SitIn) and not seat.sitting_out:
        raise SittingError(f"{seat.name} is not sitting out")
    if isinstance(command, SetChips | AddChips):
        chips, least = command.chips, 0 if isinstance(command, SetChips) else 1
        if type(chips) is not int or chips < least:
            what = "a stack" if least == 0 else "chips added"
            raise BadChipsError(f"{what} must be {least} or more whole chips, not {chips!r}")


def rebuying(waiting: list[SeatingCommand]) -> set[int]:
    """The players whose chips a waiting change sets or adds to, and who do not leave."""
    chips = {c.player for c in waiting if isinstance(c, SetChips | AddChips)}
    return chips - {c.player for c in waiting if isinstance(c, Leave)}


def free_seat(plan: dict[int, Planned]) -> int:
    """The lowest seat number nobody has in ``plan``."""
    taken = {p.seat for p in plan.values()}
    return next(n for n in range(len(taken) + 1) if n not in taken)


def position(seat: int, numbers: list[int]) -> int:
    """Where seat number ``seat`` goes among seats numbered ``numbers`` (in table order)."""
    return sum(1 for n in numbers if n < seat)


def planned_seat(command: TakeSeat, plan: dict[int, Planned]) -> Planned:
    """The seat ``command`` takes, given ``plan`` (a checked command)."""
    number = free_seat(plan) if command.seat is None else command.seat
    return Planned(number, command.name, command.chips, False)


def apply_to_plan(plan: dict[int, Planned], command: SeatingCommand) -> None:
    """What a (checked) seating change will make of the seats."""
    if isinstance(command, TakeSeat):
        insert(plan, command.player, planned_seat(command, plan))
        return
    seat = plan[command.player]
    if isinstance(command, Leave):
        del plan[command.player]
    elif isinstance(command, SitOut | SitIn):
        seat.sitting_out = isinstance(command, SitOut)
    elif isinstance(command, SetChips):
        seat.chips = command.chips
    else:
        seat.chips += command.chips


def insert(seats: dict[int, Planned], player: int, seat: Planned) -> None:
    """Seat ``player`` in ``seats``, kept in table order (by seat number)."""
    order = list(seats.items())
    order.insert(position(seat.seat, [p.seat for p in seats.values()]), (player, seat))
    seats.clear()
    seats.update(order)


__all__ = [
    "AlreadySeatedError",
    "BadChipsError",
    "Departure",
    "Planned",
    "SeatState",
    "SittingError",
    "TableFullError",
    "UnknownPlayerError",
    "apply_to_plan",
    "check_seating",
    "free_seat",
    "insert",
    "planned_seat",
    "position",
    "rebuying",
    "seat_in",
]
