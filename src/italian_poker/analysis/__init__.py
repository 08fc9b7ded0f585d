"""Layer 4, analysis and AI: batch tools built on the rules engine, for simulation and bots.

Nothing here changes the rules: :mod:`italian_poker.analysis.batch_evaluation` evaluates
numpy arrays of hands to exactly the values the engine's scalar
:func:`~italian_poker.engine.hand_rank.evaluate` gives, tens of millions of hands a second.
"""

from italian_poker.analysis.batch_evaluation import (
    CATEGORY_SHIFT,
    CHUNK_SIZE,
    NOT_STRAIGHT_FLUSH,
    PARALLEL_MIN_HANDS,
    STRAIGHT_FLUSH_CLASSES,
    BatchEvaluator,
    all_hands,
    batch_evaluator,
    categories,
    category_counts,
    compare_values,
    evaluate_batch,
    straight_flush_classes,
)

__all__ = [
    "CATEGORY_SHIFT",
    "CHUNK_SIZE",
    "NOT_STRAIGHT_FLUSH",
    "PARALLEL_MIN_HANDS",
    "STRAIGHT_FLUSH_CLASSES",
    "BatchEvaluator",
    "all_hands",
    "batch_evaluator",
    "categories",
    "category_counts",
    "compare_values",
    "evaluate_batch",
    "straight_flush_classes",
]
