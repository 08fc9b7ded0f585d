"""Italian Poker (*poker all'italiana*): rules engine, hand evaluator and game.

The public API is listed in ``__all__`` and documented in ``docs/api.md``.
"""

from italian_poker.engine.actions import Action, ActionKind, LegalAction
from italian_poker.engine.cards import (
    ALL_CARDS,
    Card,
    Rank,
    Suit,
    format_cards,
    parse_card,
    parse_cards,
)
from italian_poker.engine.deal import (
    ActionRecord,
    Deal,
    DealResult,
    DealStart,
    Outcome,
    Phase,
    PotAward,
)
from italian_poker.engine.deck import Deck, lowest_rank
from italian_poker.engine.errors import (
    ActionNotAvailableError,
    CardError,
    CardNotInDeckError,
    CardParseError,
    DealOverError,
    DuplicateCardError,
    HandSizeError,
    IllegalActionError,
    InvalidAmountError,
    InvalidDrawError,
    ItalianPokerError,
    NotYourTurnError,
    OpeningRequirementError,
    PlayerCountError,
    RulesError,
    SeatError,
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
from italian_poker.engine.history import HandHistory, HistoryError
from italian_poker.engine.history import dumps as dump_history
from italian_poker.engine.history import loads as load_history
from italian_poker.engine.history import replay as replay_history
from italian_poker.engine.match import CompletedDeal, Match, MatchPhase, Seat
from italian_poker.engine.opening import (
    OpeningRequirement,
    can_open,
    has_four_straight_flush,
    opening_combination,
)
from italian_poker.engine.pot import Pot, build_pots
from italian_poker.engine.rules import (
    PRESETS,
    AllPassPolicy,
    BettingStructure,
    BlindSize,
    Direction,
    OddChip,
    ParolLatecomers,
    Rules,
    SecondRoundStarter,
    ShowdownOrder,
    preset,
)
from italian_poker.engine.view import PublicAction, SeatView, seat_view

__version__ = "0.1.0"

__all__ = [
    "ALL_CARDS",
    "PRESETS",
    "Action",
    "ActionKind",
    "ActionNotAvailableError",
    "ActionRecord",
    "AllPassPolicy",
    "BettingStructure",
    "BlindSize",
    "Card",
    "CardError",
    "CardNotInDeckError",
    "CardParseError",
    "Category",
    "CompletedDeal",
    "Deal",
    "DealOverError",
    "DealResult",
    "DealStart",
    "Deck",
    "Direction",
    "DuplicateCardError",
    "HandHistory",
    "HandRank",
    "HandSizeError",
    "HistoryError",
    "IllegalActionError",
    "InvalidAmountError",
    "InvalidDrawError",
    "ItalianPokerError",
    "LegalAction",
    "Match",
    "MatchPhase",
    "NotYourTurnError",
    "OddChip",
    "OpeningRequirement",
    "OpeningRequirementError",
    "Outcome",
    "ParolLatecomers",
    "Phase",
    "PlayerCountError",
    "Pot",
    "PotAward",
    "PublicAction",
    "Rank",
    "Rules",
    "RulesError",
    "Seat",
    "SeatError",
    "SeatView",
    "SecondRoundStarter",
    "ShowdownOrder",
    "StraightFlushClass",
    "Suit",
    "Tiebreak",
    "__version__",
    "best_ranks",
    "build_pots",
    "can_open",
    "compare",
    "compare_ranks",
    "dump_history",
    "evaluate",
    "format_cards",
    "has_four_straight_flush",
    "load_history",
    "lowest_rank",
    "opening_combination",
    "parse_card",
    "parse_cards",
    "preset",
    "replay_history",
    "seat_view",
    "winners",
]
