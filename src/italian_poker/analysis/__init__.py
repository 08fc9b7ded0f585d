"""Layer 4, analysis and AI: batch tools built on the rules engine, for simulation and bots.

Nothing here changes the rules: :mod:`italian_poker.analysis.batch_evaluation` evaluates
numpy arrays of hands to exactly the values the engine's scalar
:func:`~italian_poker.engine.hand_rank.evaluate` gives, tens of millions of hands a second;
:mod:`italian_poker.analysis.draw_odds` gives the exact odds of every keep/discard choice;
:mod:`italian_poker.analysis.bots` holds the bots (``make_bot``) and
:mod:`italian_poker.analysis.simulation` plays them against each other.
"""

from italian_poker.analysis import batch_evaluation
from italian_poker.analysis.batch_evaluation import *  # noqa: F403

__all__ = batch_evaluation.__all__
