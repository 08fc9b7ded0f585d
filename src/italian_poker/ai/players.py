"""The OpenSpiel players at the table: player ``p`` sits as ``P{p}``, with player id ``p``."""

from __future__ import annotations

from functools import cache
from typing import Protocol

from italian_poker.table.commands import TakeSeat
from italian_poker.table.machine import TableMachine


def player_name(player: int) -> str:
    """The name OpenSpiel player ``player`` sits under (its player id is ``player``)."""
    return f"P{player}"


@cache
def seats(players: int, stack: int) -> tuple[TakeSeat, ...]:
    """The seats of an episode: every player, ``stack`` chips each, player 0 first."""
    return tuple(TakeSeat(p, player_name(p), stack) for p in range(players))


class MachineHolder(Protocol):
    """What the observer reads a state through: the table machine it drives."""

    @property
    def machine(self) -> TableMachine:
        """The table machine."""
        ...
