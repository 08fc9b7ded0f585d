"""Reading opponents: what a rival's final hand is likely to be, from what the view shows.

An opponent's hand is hidden, but the view shows whether they opened (3.3: the opener held
the opening requirement) and, after the draw, how many cards they changed (Art. 4: standing pat
suggests a made hand, one card two pair or a draw, three cards a pair) and how often they bet
or raised (each bet or raise leaves out their weakest hands). :func:`rival_model`
gives, for such a reading, the chance that a final hand at each position of the deck's
:class:`~italian_poker.analysis.draw_odds.HandLadder` beats the rival's final hand.

The model is built once per deck and tie-break rule from a fixed-seed sample of deals in which
each rival draws the plain way (:func:`~italian_poker.analysis.bots.simple.draw_keep`), so it
is the same on every run.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from italian_poker.analysis.batch_evaluation import CATEGORY_SHIFT, batch_evaluator
from italian_poker.analysis.draw_odds import hand_ladder
from italian_poker.engine.cards import Rank
from italian_poker.engine.hand_rank import Category, Tiebreak
from italian_poker.engine.opening import OpeningRequirement

Table = npt.NDArray[np.float64]
"""Per position of the deck's hand ladder, a chance."""

SAMPLE_DEALS = 40_000
"""Hands sampled per deck to build the model."""

MIN_SAMPLE = 150
"""Fewer sampled hands than this for a reading: the draw count is left out of it."""

_ANY_PAIR = 15
"""The opening level of two pair or better: opens under any minimum pair."""


@dataclass(frozen=True, slots=True)
class _Sample:
    """The sampled rivals: opening level (the best minimum pair the hand meets, 0 for none,
    ``_ANY_PAIR`` for two pair or better), four to a straight flush, cards changed, and the
    final hand's ladder position."""

    level: npt.NDArray[np.int8]
    four_flush_run: npt.NDArray[np.bool_]
    changed: npt.NDArray[np.int8]
    final: npt.NDArray[np.intp]


def _plain_keep(hands: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
    """Which cards of each hand (rows of card indices) a plain draw keeps, as
    :func:`~italian_poker.analysis.bots.simple.draw_keep` decides for a single hand, but for
    made hands (the caller keeps a straight, flush, full house or straight flush whole): the
    cards in pairs, trips or quads, else four to a flush, else the highest card."""
    ranks = hands // 4
    suits = hands % 4
    same_rank = (ranks[:, :, np.newaxis] == ranks[:, np.newaxis, :]).sum(axis=2)
    grouped = same_rank >= 2
    same_suit = (suits[:, :, np.newaxis] == suits[:, np.newaxis, :]).sum(axis=2)
    flush_four = same_suit >= 4
    highest = hands == hands.max(axis=1, keepdims=True)
    keep = np.where(
        grouped.any(axis=1, keepdims=True),
        grouped,
        np.where(flush_four.any(axis=1, keepdims=True), flush_four, highest),
    )
    return np.asarray(keep, dtype=np.bool_)


def _four_flush_runs(hands: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
    """3.3(b) for each hand: four consecutive cards of one suit, none an ace."""
    ranks = hands // 4 + 2
    suits = hands % 4
    found = np.zeros(len(hands), dtype=np.bool_)
    for suit in range(4):
        bits = np.where((suits == suit) & (ranks != Rank.ACE), np.int64(1) << ranks, 0)
        mask = np.bitwise_or.reduce(bits, axis=1)
        found |= (mask & (mask >> 1) & (mask >> 2) & (mask >> 3)) != 0
    return found


@lru_cache(maxsize=32)
def _sample(players: int, tiebreak: Tiebreak) -> _Sample:
    ladder = hand_ladder(players, tiebreak)
    evaluator = batch_evaluator(players, tiebreak)
    rng = np.random.default_rng(players * 7919 + len(tiebreak.value))
    order = np.argsort(rng.random((SAMPLE_DEALS, evaluator.deck_size)), axis=1)[:, :10]
    cards = order.astype(np.int64) + evaluator.first_index
    hands, extra = cards[:, :5], cards[:, 5:]
    values = evaluator.evaluate(hands, validate=False)
    category = values >> CATEGORY_SHIFT
    plain = _plain_keep(hands)
    keep = plain.copy()
    keep[(category >= Category.STRAIGHT) & (category != Category.FOUR_OF_A_KIND)] = True
    final = np.where(keep, hands, extra)
    ranks = hands // 4 + 2
    pair_rank = np.where(plain & (category == Category.ONE_PAIR)[:, np.newaxis], ranks, 0)
    level = np.where(category >= Category.TWO_PAIR, _ANY_PAIR, pair_rank.max(axis=1))
    finals = evaluator.evaluate(final, validate=False)
    return _Sample(
        level.astype(np.int8),
        _four_flush_runs(hands),
        (5 - keep.sum(axis=1)).astype(np.int8),
        ladder.positions(finals),
    )


@dataclass(frozen=True, slots=True)
class Reading:
    """What is known of one rival: the opening requirement they met (if they opened), the
    number of cards they changed (if they have drawn), and how many bets and raises they have
    made in the deal besides opening."""

    opened_with: OpeningRequirement | None = None
    changed: int | None = None
    raises: int = 0


KEPT_PER_RAISE = 0.75
"""Each bet or raise of a rival leaves out the weakest quarter of the hands still read for
them (a rival who bets twice holds a hand in the best 56% of their reading)."""


def _key(reading: Reading) -> tuple[int, bool, int, int]:
    req = reading.opened_with
    pair = 0 if req is None else int(req.min_pair)
    run = req is not None and req.four_straight_flush
    changed = -1 if reading.changed is None else reading.changed
    return pair, run, changed, min(reading.raises, 6)


@lru_cache(maxsize=1024)
def _model(players: int, tiebreak: Tiebreak, key: tuple[int, bool, int, int]) -> Table:
    sample = _sample(players, tiebreak)
    ladder = hand_ladder(players, tiebreak)
    pair, run, changed, raises = key
    mask = np.ones(SAMPLE_DEALS, dtype=np.bool_)
    if pair:
        opens = sample.level >= pair
        if run:
            opens |= sample.four_flush_run
        mask &= opens
    if changed >= 0:
        by_draw = mask & (sample.changed == changed)
        if int(by_draw.sum()) >= MIN_SAMPLE:
            mask = by_draw
    counts = np.bincount(sample.final[mask], minlength=len(ladder)).astype(np.float64)
    if raises:
        weakest = 1.0 - KEPT_PER_RAISE**raises
        share_below = (np.cumsum(counts) - counts) / counts.sum()
        counts[share_below + counts / counts.sum() <= weakest] = 0.0
    below = np.cumsum(counts) - counts
    beats: Table = (below + counts / 2.0) / counts.sum()
    beats.flags.writeable = False
    return beats


def rival_model(
    reading: Reading, *, players: int, tiebreak: Tiebreak | str = Tiebreak.STANDARD
) -> Table:
    """Per :class:`HandLadder` position, the chance that a final hand there beats (ties
    counted half) the final hand of a rival read as ``reading``."""
    return _model(players, Tiebreak(tiebreak), _key(reading))


__all__ = ["KEPT_PER_RAISE", "MIN_SAMPLE", "SAMPLE_DEALS", "Reading", "Table", "rival_model"]
