"""Italian Poker (*poker all'italiana*): rules engine, hand evaluator and game.

The public API is listed in ``__all__`` and documented in ``docs/api.md``.
"""

from italian_poker.engine.cards import (
    ALL_CARDS,
    Card,
    Rank,
    Suit,
    format_cards,
    parse_card,
    parse_cards,
)
from italian_poker.engine.deck import Deck, lowest_rank
from italian_poker.engine.errors import (
    CardError,
    CardNotInDeckError,
    CardParseError,
    DuplicateCardError,
    HandSizeError,
    ItalianPokerError,
    PlayerCountError,
    RulesError,
)
from italian_poker.engine.hand_rank import (
    Category,
    HandRank,
    StraightFlushClass,
    Tiebreak,
    best_ranks,
    compare,
    compare_ranks,
    evaluate,
    winners,
)
from italian_poker.engine.opening import OpeningRequirement, can_open, has_four_straight_flush

__version__ = "0.1.0"

__all__ = [
    "ALL_CARDS",
    "Card",
    "CardError",
    "CardNotInDeckError",
    "CardParseError",
    "Category",
    "Deck",
    "DuplicateCardError",
    "HandRank",
    "HandSizeError",
    "ItalianPokerError",
    "OpeningRequirement",
    "PlayerCountError",
    "Rank",
    "RulesError",
    "StraightFlushClass",
    "Suit",
    "Tiebreak",
    "__version__",
    "best_ranks",
    "can_open",
    "compare",
    "compare_ranks",
    "evaluate",
    "format_cards",
    "has_four_straight_flush",
    "lowest_rank",
    "parse_card",
    "parse_cards",
    "winners",
]
