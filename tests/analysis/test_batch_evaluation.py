"""The numpy batch evaluator against the scalar evaluator (RULES.md sections 6-7)."""

from __future__ import annotations

from math import comb
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from italian_poker import (
    ALL_CARDS,
    CardNotInDeckError,
    Category,
    DuplicateCardError,
    HandSizeError,
    PlayerCountError,
    StraightFlushClass,
    Tiebreak,
    compare_ranks,
    evaluate,
)
from italian_poker.analysis import (
    CHUNK_SIZE,
    NOT_STRAIGHT_FLUSH,
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

RULES = ["standard", "fantini"]


def scalar_values(hands: npt.NDArray[np.integer[Any]], players: int, tiebreak: str) -> list[int]:
    cards = ALL_CARDS
    return [
        evaluate(
            (cards[a], cards[b], cards[c], cards[d], cards[e]), players=players, tiebreak=tiebreak
        ).value
        for a, b, c, d, e in hands.tolist()
    ]


def random_hands(n: int, players: int, seed: int) -> npt.NDArray[np.uint8]:
    """``n`` random hands of the deck, each in random order."""
    rng = np.random.default_rng(seed)
    first = 4 * (9 - players)
    keys = rng.random((n, 52 - first))
    return (np.argpartition(keys, 5, axis=1)[:, :5] + first).astype(np.uint8)


# --- enumeration ----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 6, 9])
def test_all_hands_are_every_hand_in_combinatorial_order(players: int) -> None:
    hands = all_hands(players)
    first = 4 * (9 - players)
    size = 52 - first
    assert hands.dtype == np.uint8
    assert hands.shape == (comb(size, 5), 5)
    assert int(hands.min()) == first
    assert int(hands.max()) == 51
    assert (np.diff(hands.astype(np.int16), axis=1) > 0).all()
    binomial = np.array(
        [[comb(c - first, k + 1) if c >= first else 0 for c in range(52)] for k in range(5)]
    )
    index = sum(binomial[k][hands[:, k]] for k in range(5))
    assert np.array_equal(index, np.arange(len(hands)))


# --- batch equals scalar ----------------------------------------------------------------------


@pytest.mark.parametrize("tiebreak", RULES)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_hand_of_small_decks_matches_scalar(players: int, tiebreak: str) -> None:
    rng = np.random.default_rng(players)
    hands = rng.permuted(all_hands(players), axis=1)  # any order within a row
    values = evaluate_batch(hands, players=players, tiebreak=tiebreak)
    assert values.dtype == np.int32
    assert values.tolist() == scalar_values(hands, players, tiebreak)


@pytest.mark.parametrize("tiebreak", RULES)
@pytest.mark.parametrize("players", [6, 7, 8, 9])
def test_random_hands_of_larger_decks_match_scalar(players: int, tiebreak: str) -> None:
    hands = random_hands(60_000 if players == 9 else 10_000, players, seed=players)
    values = evaluate_batch(hands, players=players, tiebreak=tiebreak)
    assert values.tolist() == scalar_values(hands, players, tiebreak)


@pytest.mark.parametrize("tiebreak", RULES)
def test_every_category_of_the_52_card_deck_matches_scalar(tiebreak: str) -> None:
    """Up to 3,000 hands of each category (all straight flushes and fours) by the batch's
    own classification, checked against the scalar evaluator."""
    hands = all_hands(9)
    values = evaluate_batch(hands, players=9, tiebreak=tiebreak)
    cats = categories(values)
    rng = np.random.default_rng(7)
    for category in Category:
        rows = np.flatnonzero(cats == category)
        if len(rows) > 3_000:
            rows = rng.choice(rows, 3_000, replace=False)
        sample = rng.permuted(hands[rows], axis=1)
        assert values[rows].tolist() == scalar_values(sample, 9, tiebreak), category


@settings(max_examples=150, deadline=None)
@given(
    players=st.integers(2, 9),
    tiebreak=st.sampled_from(RULES),
    data=st.data(),
)
def test_any_hands_match_scalar(players: int, tiebreak: str, data: st.DataObject) -> None:
    first = 4 * (9 - players)
    hand = st.lists(st.integers(first, 51), min_size=5, max_size=5, unique=True)
    hands = data.draw(st.lists(hand, min_size=1, max_size=8))
    array = np.array(hands, dtype=np.int64)
    values = evaluate_batch(array, players=players, tiebreak=tiebreak)
    assert values.tolist() == scalar_values(array, players, tiebreak)


def test_dtypes_layouts_threads_and_validate_flag_agree() -> None:
    hands = random_hands(3 * CHUNK_SIZE + 123, 9, seed=1)
    expected = evaluate_batch(hands, players=9, threads=1)
    for dtype in (np.int8, np.int16, np.int32, np.int64, np.uint16, np.uint64):
        assert np.array_equal(evaluate_batch(hands.astype(dtype), players=9), expected)
    assert np.array_equal(evaluate_batch(np.asfortranarray(hands), players=9), expected)
    wide = np.zeros((len(hands), 10), dtype=np.int64)
    wide[:, ::2] = hands
    assert np.array_equal(evaluate_batch(wide[:, ::2], players=9), expected)
    assert np.array_equal(evaluate_batch(hands, players=9, threads=2), expected)
    assert np.array_equal(evaluate_batch(hands, players=9, validate=False), expected)
    assert evaluate_batch(hands[:3].tolist(), players=9).tolist() == expected[:3].tolist()
    empty = evaluate_batch(np.empty((0, 5), dtype=np.uint8), players=9)
    assert empty.shape == (0,)
    assert empty.dtype == np.int32


# --- category counts ------------------------------------------------------------------------

STANDARD_52_CARD_COUNTS = {
    Category.STRAIGHT_FLUSH: 40,
    Category.FOUR_OF_A_KIND: 624,
    Category.FLUSH: 5_108,
    Category.FULL_HOUSE: 3_744,
    Category.STRAIGHT: 10_200,
    Category.THREE_OF_A_KIND: 54_912,
    Category.TWO_PAIR: 123_552,
    Category.ONE_PAIR: 1_098_240,
    Category.HIGH_CARD: 1_302_540,
}


@pytest.mark.parametrize("tiebreak", RULES)
def test_category_counts_of_the_52_card_deck(tiebreak: str) -> None:
    assert category_counts(9, tiebreak) == STANDARD_52_CARD_COUNTS


@pytest.mark.parametrize("players", [2, 3, 4])
def test_category_counts_of_small_decks_match_scalar(players: int) -> None:
    expected = dict.fromkeys(Category, 0)
    for a, b, c, d, e in all_hands(players).tolist():
        cards = (ALL_CARDS[a], ALL_CARDS[b], ALL_CARDS[c], ALL_CARDS[d], ALL_CARDS[e])
        expected[evaluate(cards, players=players).category] += 1
    assert category_counts(players) == expected
    assert sum(expected.values()) == comb(4 * (players + 4), 5)


# --- helpers --------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 5, 9])
def test_categories_and_straight_flush_classes(players: int) -> None:
    hands = all_hands(players)
    values = evaluate_batch(hands, players=players)
    rng = np.random.default_rng(3)
    straight_flushes = np.flatnonzero(categories(values) == Category.STRAIGHT_FLUSH)
    rows = np.concatenate([straight_flushes, rng.choice(len(hands), 2_000, replace=False)])
    cats = categories(values[rows])
    classes = straight_flush_classes(values[rows], players=players)
    assert cats.dtype == np.int8
    assert classes.dtype == np.int8
    seen = set()
    for row, cat, code in zip(hands[rows].tolist(), cats.tolist(), classes.tolist(), strict=True):
        rank = evaluate([ALL_CARDS[i] for i in row], players=players)
        assert Category(cat) is rank.category
        if rank.straight_flush_class is None:
            assert code == NOT_STRAIGHT_FLUSH
        else:
            assert STRAIGHT_FLUSH_CLASSES[code] is rank.straight_flush_class
            seen.add(rank.straight_flush_class)
    assert seen == set(StraightFlushClass)


def test_compare_values_applies_the_cyclic_straight_flush() -> None:
    players = 4
    hands = all_hands(players)
    values = evaluate_batch(hands, players=players)
    straight_flushes = np.flatnonzero(categories(values) == Category.STRAIGHT_FLUSH)
    rng = np.random.default_rng(11)
    rows = np.concatenate([straight_flushes, rng.choice(len(hands), 200, replace=False)])
    ranks = [evaluate([ALL_CARDS[i] for i in hands[r]], players=players) for r in rows]
    left, right = np.meshgrid(values[rows], values[rows], indexing="ij")
    result = compare_values(left, right, players=players)
    expected = [[compare_ranks(a, b) for b in ranks] for a in ranks]
    assert result.tolist() == expected
    minimum = min(r.value for r in ranks if r.straight_flush_class is StraightFlushClass.MINIMUM)
    maximum = max(r.value for r in ranks if r.straight_flush_class is StraightFlushClass.MAXIMUM)
    assert compare_values([minimum], [maximum], players=players).tolist() == [1]


# --- evaluators -----------------------------------------------------------------------------


def test_evaluators_are_cached_per_deck_and_rule() -> None:
    evaluator = batch_evaluator(9)
    assert batch_evaluator(9, Tiebreak.STANDARD) is evaluator
    assert batch_evaluator(9, "fantini") is not evaluator
    assert evaluator.tiebreak is Tiebreak.STANDARD
    assert evaluator.deck_size == 52
    assert evaluator.first_index == 0
    assert evaluator.nbytes == 4 * comb(52, 5) + 2 * 4096 * 8 + 64 * 8
    assert batch_evaluator(2).nbytes == 4 * comb(24, 5) + 2 * 4096 * 8 + 64 * 8
    assert not evaluator.table.flags.writeable
    assert evaluator.build_seconds > 0
    assert repr(evaluator) == "BatchEvaluator(players=9, tiebreak='standard')"


def test_bad_players_and_rules() -> None:
    with pytest.raises(PlayerCountError):
        BatchEvaluator(10)
    with pytest.raises(PlayerCountError):
        evaluate_batch(np.zeros((1, 5), dtype=np.uint8), players=1)
    not_a_count: Any = 9.0
    with pytest.raises(PlayerCountError):
        batch_evaluator(not_a_count)
    with pytest.raises(ValueError, match="tiebreak"):
        batch_evaluator(9, "suits")
    with pytest.raises(ValueError, match="threads"):
        evaluate_batch([[0, 1, 2, 3, 4]], players=9, threads=0)
    with pytest.raises(PlayerCountError):
        straight_flush_classes([0], players=12)


# --- input validation -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "hands",
    [
        np.zeros((3, 4), dtype=np.uint8),
        np.zeros((3, 6), dtype=np.uint8),
        np.arange(5, dtype=np.uint8),
        np.zeros((2, 3, 5), dtype=np.uint8),
        [[0, 1, 2, 3, 4], [5, 6, 7, 8]],
        [],
    ],
)
def test_wrong_shapes_are_rejected(hands: npt.ArrayLike) -> None:
    with pytest.raises(HandSizeError, match=r"\(n, 5\)"):
        evaluate_batch(hands, players=9)


def test_one_flat_hand_gets_a_hint() -> None:
    with pytest.raises(HandSizeError, match=r"shape \(1, 5\)"):
        evaluate_batch([0, 1, 2, 3, 4], players=9)


@pytest.mark.parametrize(
    "hands",
    [
        np.zeros((1, 5), dtype=np.float64),
        np.zeros((1, 5), dtype=bool),
        [[ALL_CARDS[i] for i in range(5)]],
    ],
)
def test_non_integer_dtypes_are_rejected(hands: npt.ArrayLike) -> None:
    with pytest.raises(TypeError, match="integer card indices"):
        evaluate_batch(hands, players=9)


def bad_batch(row: list[int], at: int, players: int, dtype: type) -> npt.NDArray[np.integer[Any]]:
    """Valid hands with ``row`` at position ``at`` (and another bad row after it)."""
    hands: npt.NDArray[np.integer[Any]] = random_hands(at + CHUNK_SIZE + 10, players, 5).astype(
        dtype
    )
    hands[at] = row
    hands[-1] = row
    return hands


@pytest.mark.parametrize("validate_threads", [1, 2])
@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int64, np.uint16])
def test_duplicate_cards_are_rejected(dtype: type, validate_threads: int) -> None:
    at = CHUNK_SIZE + 17
    hands = bad_batch([40, 12, 7, 12, 51], at, 9, dtype)
    with pytest.raises(DuplicateCardError, match=rf"hands\[{at}\].*5s \(index 12\)"):
        evaluate_batch(hands, players=9, threads=validate_threads)


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int16, np.int64])
def test_cards_below_the_deck_are_rejected(dtype: type) -> None:
    hands = bad_batch([28, 29, 30, 31, 27], 3, 2, dtype)  # 27 is the 8h, not in 9..A
    with pytest.raises(CardNotInDeckError, match=r"hands\[3\].*8h.*24-card deck for 2 players"):
        evaluate_batch(hands, players=2)


@pytest.mark.parametrize(
    ("dtype", "index"),
    [(np.uint8, 52), (np.uint8, 255), (np.int8, -1), (np.int16, 256 + 30), (np.int64, -228)],
)
def test_indices_outside_0_to_51_are_rejected(dtype: type, index: int) -> None:
    # 256 + 30 and -228 wrap to valid uint8 indices, so they must be caught before conversion.
    hands = bad_batch([28, 29, index, 31, 32], 0, 2, dtype)
    with pytest.raises(CardNotInDeckError, match=rf"hands\[0\].*{index} is not a card index"):
        evaluate_batch(hands, players=2)


def test_the_first_bad_row_is_reported() -> None:
    hands = random_hands(4 * CHUNK_SIZE, 9, seed=9)
    hands[3 * CHUNK_SIZE + 1] = [1, 1, 2, 3, 4]
    hands[CHUNK_SIZE + 5] = [0, 1, 2, 3, 60]
    with pytest.raises(CardNotInDeckError, match=rf"hands\[{CHUNK_SIZE + 5}\]"):
        evaluate_batch(hands, players=9, threads=2)
