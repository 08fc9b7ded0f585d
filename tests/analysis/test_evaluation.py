"""The evaluation harness (analysis/evaluation.py): seat rotations, the exact zero expectation
of the chance corrections (deal, 3.1; draw, Art. 4), and estimates that agree."""

from __future__ import annotations

import dataclasses
from itertools import combinations

import numpy as np
import pytest

from italian_poker.analysis.bots import BotLevel
from italian_poker.analysis.evaluation import (
    evaluate_lineup,
    paired_difference,
    play_block,
    rotations,
)
from italian_poker.analysis.luck import (
    CATEGORIES,
    LUCK_FEATURES,
    ahead_chance,
    deal_means,
    draw_expectation,
    one_hot,
)
from italian_poker.engine.cards import parse_cards
from italian_poker.engine.deck import stripped_deck
from italian_poker.engine.hand_rank import Tiebreak, evaluate
from italian_poker.engine.rules import Rules

S, R, T = BotLevel.SIMPLE, BotLevel.RANDOM, BotLevel.STRONG


def test_rotations_seat_every_level_in_every_seat() -> None:
    seatings = rotations([T, S, S, S])
    assert len(seatings) == 4
    for seat in range(4):
        assert sorted(s[seat] for s in seatings) == sorted([T, S, S, S])
    assert [s.index(T) for s in seatings] == [0, 3, 2, 1]


def test_rotations_leave_out_repeated_seatings() -> None:
    assert rotations(["strong", "simple", "strong", "simple"]) == ((T, S, T, S), (S, T, S, T))
    with pytest.raises(ValueError, match="at least 2 seats"):
        rotations([T])


def test_deal_correction_has_exact_zero_expectation() -> None:
    """3.1: over every five-card hand of the 2-player deck (28 cards, 98,280 hands) the
    category one-hot averages to ``deal_means``, so the deal correction has mean 0."""
    deck = list(stripped_deck(2).cards)
    total = np.zeros(CATEGORIES)
    hands = 0
    for hand in combinations(deck, 5):
        total += one_hot(hand, 2, Tiebreak.STANDARD)
        hands += 1
    np.testing.assert_allclose(total / hands, deal_means(2, Tiebreak.STANDARD), atol=1e-12)


@pytest.mark.parametrize(
    ("hand", "discards", "known"),
    [
        ("Jh Jd 7c 8s 9h", "7c 8s 9h", "Ah Kh Qh Ad Kd"),
        ("Ah Kh Qh Jh 7c", "7c", "Th 9h 8h As Ks Qs Js Ts 9s"),
        ("Ac Kd 7c 8s 9h", "Kd 7c 8s 9h", "Jh Jd Qc Qs"),
    ],
)
def test_draw_correction_has_exact_zero_expectation(hand: str, discards: str, known: str) -> None:
    """Art. 4: brute force over every set of replacement cards from the stock gives the same
    category chances as ``draw_expectation``, so the draw correction has mean 0."""
    cards, thrown, seen = parse_cards(hand), parse_cards(discards), parse_cards(known)
    kept = [c for c in cards if c not in thrown]
    stock = [c for c in stripped_deck(4).cards if c not in cards and c not in seen]
    total = np.zeros(CATEGORIES)
    draws = 0
    for extra in combinations(stock, len(thrown)):
        total += one_hot([*kept, *extra], 4, Tiebreak.STANDARD)
        draws += 1
    expect = draw_expectation(cards, thrown, seen, 4, Tiebreak.STANDARD)
    np.testing.assert_allclose(total / draws, expect, atol=1e-12)
    # The "ahead" feature: beating a rival's hand as it stands, same brute force.
    best = evaluate(parse_cards("Qd Qh 8c 8d 7s"), players=4)  # two pair, queens up
    wins = sum(
        evaluate([*kept, *extra], players=4).value > best.value
        for extra in combinations(stock, len(thrown))
    )
    chance = ahead_chance(cards, thrown, seen, 4, Tiebreak.STANDARD, best.value)
    assert chance == pytest.approx(wins / draws, abs=1e-12)
    assert 0 < chance < 1


def test_corrections_average_to_zero_over_played_deals() -> None:
    """Every luck feature of played deals, and their action terms (the last two features),
    average to 0 within a generous 5 standard errors."""
    rules = Rules().with_options(players=4)
    samples = play_block([S, R, S, R], 200, 7, rules, S)
    assert len(samples) == 200
    features = np.array([s.features for s in samples])
    assert features.shape[1] == LUCK_FEATURES + 2
    assert np.abs(features[:, -2:]).sum(axis=0).min() > 0  # the random and simple bots' choices
    assert np.abs(features).sum() > 0  # the corrections are not all zero
    # The four rotations of a block deal the same deck, so the dealt cards' features repeat
    # four times: 200 samples hold 50 independent deals.
    independent = len(samples) / 4
    for column in features.T:
        spread = float(column.std(ddof=1))
        if spread > 0:
            # A rare outcome (four hands that may open, a straight flush dealt) may not come up
            # in 50 deals: its feature then sits at minus its chance in every sample, with
            # almost no spread. Its spread is at least that of a coin of that chance.
            chance = min(abs(float(column.mean())), 1.0)
            spread = max(spread, (chance * (1 - chance)) ** 0.5)
            bound = 5 * spread / independent**0.5
            assert abs(float(column.mean())) <= bound


def test_every_rotation_deals_the_same_cards_to_the_same_seats() -> None:
    """Duplicate deals: each deal of a block has the same dealer, seats and deck in every
    rotation, so each seat gets the same cards whichever level holds it, and the deal's
    per-seat features (signed by side) come out exactly opposite. Only a seat sitting out
    after a parol (5.5) breaks it, for a deal. (Rebuys seated at the end of the table moved
    the seats and the dealer: 27 of these 60 deals were dealt alike.)"""
    rules = Rules().with_options(players=4)
    seen = [
        play_block(levels, 60, 5, rules, T, actions=False) for levels in rotations([T, S, T, S])
    ]
    assert len(seen[0]) == len(seen[1]) == 60
    alike = sum(
        np.allclose(np.array(a.features[:CATEGORIES]), -np.array(b.features[:CATEGORIES]))
        for a, b in zip(*seen, strict=True)
    )
    assert alike >= 57


def test_estimates_agree_on_the_same_deals() -> None:
    result = evaluate_lineup([S, R, S, R], deals=200, block_deals=25, seed=3)
    assert result.rotations == 2
    assert result.deals == 200
    assert result.plain.samples == 8 and result.duplicate.samples == 4
    assert result.plain.mean == pytest.approx(result.duplicate.mean)
    assert result.plain.mean > 0  # simple beats random
    gap = abs(result.corrected.mean - result.plain.mean)
    assert gap <= 3 * (result.corrected.standard_error + result.plain.standard_error)
    assert abs(result.correction_mean) <= 4 * result.correction_error


def test_workers_give_the_same_evaluation() -> None:
    """The matches played on two processes give the same figures as in this one."""
    alone = evaluate_lineup([S, R], deals=200, block_deals=25, seed=8)
    shared = evaluate_lineup([S, R], deals=200, block_deals=25, seed=8, workers=2)
    assert (shared.plain, shared.duplicate, shared.corrected) == (
        alone.plain,
        alone.duplicate,
        alone.corrected,
    )
    assert shared.correction_mean == alone.correction_mean


def test_paired_difference_compares_two_challengers_block_by_block() -> None:
    strong = evaluate_lineup([T, R], deals=200, block_deals=25, seed=9)
    simple = evaluate_lineup([S, R], deals=200, block_deals=25, seed=9)
    assert len(strong.corrected_blocks) == strong.corrected.samples == 4
    difference = paired_difference(strong, simple)
    assert difference.samples == 4
    assert difference.mean == pytest.approx(strong.corrected.mean - simple.corrected.mean)
    longer = dataclasses.replace(simple, deals=400, corrected_blocks=simple.corrected_blocks * 2)
    with pytest.raises(ValueError, match="same blocks"):
        paired_difference(strong, longer)


def test_evaluate_lineup_refuses_bad_input() -> None:
    with pytest.raises(ValueError, match="another level"):
        evaluate_lineup([S, S], deals=1000)
    with pytest.raises(ValueError, match="at least four blocks"):
        evaluate_lineup([S, R], deals=100, block_deals=50)
    with pytest.raises(ValueError, match="at least 1 deal"):
        evaluate_lineup([S, R], deals=100, block_deals=0)
    with pytest.raises(ValueError, match="workers"):
        evaluate_lineup([S, R], deals=400, block_deals=50, workers=0)


@pytest.mark.soak
def test_corrected_estimate_unbiased_on_a_long_run() -> None:
    """A long run: the mean correction stays within 3 of its standard errors of 0, and the
    corrected margin within the plain interval widened by the corrected error."""
    result = evaluate_lineup([T, S, T, S], deals=1600, block_deals=100, seed=11)
    assert abs(result.correction_mean) <= 3 * result.correction_error
    low, high = result.plain.interval(0.99)
    err = result.corrected.standard_error
    assert low - 3 * err <= result.corrected.mean <= high + 3 * err
