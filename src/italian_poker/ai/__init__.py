"""Italian Poker for AI research (the optional extra ``ai``).

Importing this package registers the OpenSpiel game ``python_italian_poker``
(:mod:`italian_poker.ai.openspiel_game`); docs/ai.md describes it.
The PettingZoo environments, ``pettingzoo_env`` (:mod:`italian_poker.ai.pettingzoo_aec`,
native) and ``openspiel_pettingzoo_env`` (:mod:`italian_poker.ai.openspiel_pettingzoo`,
Shimmy's), are imported on first use, so that the OpenSpiel game needs neither PettingZoo nor
Shimmy. So is the Gymnasium environment, ``gym_env``
(:mod:`italian_poker.ai.gymnasium_env`: one learning seat against the project's bots).
``miniature_game()`` (:mod:`italian_poker.ai.miniature`) is the heads-up 12-card
miniature as an OpenSpiel EFG game, small enough to solve exactly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from italian_poker.ai.openspiel_game import (
    GAME_NAME,
    ItalianPokerGame,
    ItalianPokerState,
)

if TYPE_CHECKING:
    from italian_poker.ai.gymnasium_env import gym_env
    from italian_poker.ai.miniature import miniature_game
    from italian_poker.ai.openspiel_pettingzoo import openspiel_pettingzoo_env
    from italian_poker.ai.pettingzoo_aec import pettingzoo_env

__all__ = [
    "GAME_NAME",
    "ItalianPokerGame",
    "ItalianPokerState",
    "gym_env",
    "miniature_game",
    "openspiel_pettingzoo_env",
    "pettingzoo_env",
]


def __getattr__(name: str) -> object:
    """The PettingZoo and Gymnasium environments (they need PettingZoo, Shimmy, Gymnasium)
    and the miniature, imported on first use."""
    if name == "gym_env":
        from italian_poker.ai.gymnasium_env import gym_env

        return gym_env
    if name == "pettingzoo_env":
        from italian_poker.ai.pettingzoo_aec import pettingzoo_env

        return pettingzoo_env
    if name == "openspiel_pettingzoo_env":
        from italian_poker.ai.openspiel_pettingzoo import openspiel_pettingzoo_env

        return openspiel_pettingzoo_env
    if name == "miniature_game":
        from italian_poker.ai.miniature import miniature_game

        return miniature_game
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
