"""The OpenSpiel players at the engine's table: player ``p`` is seated as ``P{p}``, with
player id ``p``."""

from __future__ import annotations

from typing import Protocol

from italian_poker.engine.match import Match


def player_name(player: int) -> str:
    """The name of OpenSpiel player ``player`` at the engine's table (its player id is
    ``player``)."""
    return f"P{player}"


def player_of(name: str) -> int:
    """The OpenSpiel player seated as ``name`` (:func:`player_name`'s inverse)."""
    return int(name[1:])


class MatchHolder(Protocol):
    """What the observer reads a state through: the engine's match it drives."""

    @property
    def match(self) -> Match:
        """The engine's match."""
        ...
