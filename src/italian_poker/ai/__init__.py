"""Italian Poker for AI research (the optional extra ``ai``).

Importing this package registers the OpenSpiel game ``python_italian_poker``
(:mod:`italian_poker.ai.openspiel_game`); docs/ai.md describes it.
"""

from italian_poker.ai.openspiel_game import (
    GAME_NAME,
    ItalianPokerGame,
    ItalianPokerState,
)

__all__ = ["GAME_NAME", "ItalianPokerGame", "ItalianPokerState"]
