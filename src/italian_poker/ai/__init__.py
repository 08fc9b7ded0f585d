"""Italian Poker for AI research (the optional extra ``ai``).

Importing this package registers the OpenSpiel game ``python_italian_poker``
(:mod:`italian_poker.ai.openspiel_game`); docs/ai.md describes it.
``openspiel_pettingzoo_env`` (:mod:`italian_poker.ai.openspiel_pettingzoo`) is imported
on first use, so that the OpenSpiel game needs neither PettingZoo nor Shimmy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from italian_poker.ai.openspiel_game import (
    GAME_NAME,
    ItalianPokerGame,
    ItalianPokerState,
)

if TYPE_CHECKING:
    from italian_poker.ai.openspiel_pettingzoo import openspiel_pettingzoo_env

__all__ = ["GAME_NAME", "ItalianPokerGame", "ItalianPokerState", "openspiel_pettingzoo_env"]


def __getattr__(name: str) -> object:
    """``openspiel_pettingzoo_env``, imported on first use (it needs PettingZoo and Shimmy)."""
    if name == "openspiel_pettingzoo_env":
        from italian_poker.ai.openspiel_pettingzoo import openspiel_pettingzoo_env

        return openspiel_pettingzoo_env
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
