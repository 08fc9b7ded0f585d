"""Seat admission: who may sit down at a locked table, and who answers for the host.

The host locks the table (:class:`LockSeats <italian_poker.table.commands.LockSeats>`): a
newcomer's :class:`AskSeat <italian_poker.table.commands.AskSeat>` then waits for the host's
yes or no (:class:`AnswerSeat <italian_poker.table.commands.AnswerSeat>`); at an open table
it seats them at once. The host may name a co-host, a seated player who answers seat and
chip requests, locks and unlocks the table and sets the chip caps as the host does; a
command given ``by`` anyone else is refused with :class:`NotHostError`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from italian_poker.engine.errors import SeatError
from italian_poker.table.commands import AskSeat

__all__ = [
    "Admission",
    "NotHostError",
    "SeatAskPendingError",
    "UnknownSeatAskError",
]


class NotHostError(SeatError):
    """A host's command given by someone who is neither the host nor the co-host: ask the
    host."""


class SeatAskPendingError(SeatError):
    """A seat asked for by a player, or under a name, already waiting for an answer."""


class UnknownSeatAskError(SeatError):
    """An answer for a newcomer who is not waiting (never asked, or answered already)."""


@dataclass(slots=True)
class Admission:
    """Whether the table is ``locked``, its ``co_host`` (a player id, or None) and the seat
    requests ``pending`` (by player id, in the order asked)."""

    locked: bool = False
    co_host: int | None = None
    pending: dict[int, AskSeat] = field(default_factory=dict)

    def check_by(self, by: object) -> None:
        """Refuse a host's command given ``by`` a player (None: the host) who is not the
        co-host."""
        if by is not None and (type(by) is not int or by != self.co_host):
            raise NotHostError(f"only the host or the co-host can do this, not player {by!r}")

    def check_ask(self, command: AskSeat) -> None:
        """Refuse a seat request from a player, or under a name, already waiting."""
        for player, ask in self.pending.items():
            if player == command.player or ask.name == command.name:
                raise SeatAskPendingError(
                    f"{command.name!r} already waits for the host's answer: wait for it"
                )

    def waiting(self, player: object) -> AskSeat:
        """The pending request of ``player``; :class:`UnknownSeatAskError` if none."""
        ask = self.pending.get(player) if type(player) is int else None
        if ask is None:
            raise UnknownSeatAskError(f"player {player!r} does not wait for a seat")
        return ask
