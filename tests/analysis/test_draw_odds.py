"""Exact draw odds (Art. 4): every replacement of every keep/discard choice."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from math import comb

import pytest
from engine_helpers import cards

from italian_poker import Deck, evaluate
from italian_poker.analysis.draw_odds import (
    best_discard,
    draw_distributions,
    draw_outcomes,
    hand_ladder,
)
from italian_poker.engine.cards import Card
from italian_poker.engine.errors import CardNotInDeckError, DuplicateCardError, HandSizeError
from italian_poker.engine.hand_rank import Category, Tiebreak


def brute_force(
    hand: tuple[Card, ...],
    players: int,
    known: frozenset[Card],
    discards: tuple[Card, ...],
    tiebreak: Tiebreak,
) -> tuple[Counter[Category], float, int]:
    """Category counts, expected percentile and number of replacements, by enumerating the
    replacements one by one with the scalar evaluator."""
    ladder = hand_ladder(players, tiebreak)
    stock = [c for c in Deck(players).cards if c not in hand and c not in known]
    kept = [c for c in hand if c not in discards]
    counts: Counter[Category] = Counter()
    total = 0.0
    n = 0
    for drawn in combinations(stock, len(discards)):
        rank = evaluate([*kept, *drawn], players=players, tiebreak=tiebreak)
        counts[rank.category] += 1
        total += ladder.percentile(rank.value)
        n += 1
    return counts, total / n, n


@pytest.mark.parametrize(
    ("players", "seed", "known_count", "tiebreak"),
    [
        (2, 1, 0, Tiebreak.STANDARD),
        (2, 2, 3, Tiebreak.STANDARD),
        (3, 3, 0, Tiebreak.FANTINI),
        (3, 4, 2, Tiebreak.FANTINI),
    ],
)
def test_every_choice_matches_brute_force(
    players: int, seed: int, known_count: int, tiebreak: Tiebreak
) -> None:
    """Exact counts and strength of all 31 choices agree with a card-by-card enumeration,
    both when the one-card choices are derived (nothing known) and when enumerated (003
    face-up discards known)."""
    rng = random.Random(seed)
    deck = list(Deck(players).cards)
    dealt = rng.sample(deck, 5 + known_count)
    hand, known = tuple(dealt[:5]), frozenset(dealt[5:])
    outcomes = draw_outcomes(hand, players=players, known=known, tiebreak=tiebreak)
    assert len(outcomes) == 31
    for outcome in outcomes:
        counts, strength, n = brute_force(hand, players, known, outcome.discards, tiebreak)
        assert outcome.combinations == n
        assert outcome.category_counts == tuple(counts[c] for c in Category)
        assert outcome.strength == pytest.approx(strength, abs=1e-12)


def test_open_ended_straight_flush_draw_in_the_32_card_deck() -> None:
    """4 players, 7..A: keeping 8-9-10-J of hearts and changing the ace, 27 cards can come.
    Straight flush: 7h or Qh (2); flush: Kh or Ah (2); straight: another 7 or queen (6);
    pair: another 8, 9, 10 or jack (12); the rest high card (5: three kings, two aces)."""
    hand = cards("8h 9h Th Jh Ac")
    (outcome,) = [o for o in draw_outcomes(hand, players=4) if o.discards == cards("Ac")]
    assert outcome.kept == cards("8h 9h Th Jh")
    assert outcome.combinations == 27
    expected = {
        Category.STRAIGHT_FLUSH: 2,
        Category.FLUSH: 2,
        Category.STRAIGHT: 6,
        Category.ONE_PAIR: 12,
        Category.HIGH_CARD: 5,
    }
    assert outcome.probabilities == {c: expected.get(c, 0) / 27 for c in Category}
    assert outcome.probability(Category.STRAIGHT_FLUSH) == pytest.approx(2 / 27)


def test_cards_seen_face_up_leave_the_stock() -> None:
    """003: with the Qh seen among the discards, only the 7h completes the straight flush,
    out of 26 unseen cards; straights and flushes are unchanged."""
    hand = cards("8h 9h Th Jh Ac")
    outcomes = draw_outcomes(hand, players=4, known=cards("Qh"))
    (outcome,) = [o for o in outcomes if o.discards == cards("Ac")]
    assert outcome.combinations == 26
    assert outcome.category_counts[Category.STRAIGHT_FLUSH] == 1
    assert outcome.category_counts[Category.STRAIGHT] == 6  # 7s 7c 7d Qs Qc Qd
    assert outcome.category_counts[Category.FLUSH] == 2  # Kh, Ah


def test_choices_are_legal_draws() -> None:
    """Each choice discards 0 to ``max_discards`` cards of the hand, each set once; five only
    when allowed."""
    hand = cards("Kh Kd 9s 8c 7d")
    unseen = len(Deck(5)) - 5
    for limit in range(6):
        outcomes = draw_outcomes(hand, players=5, max_discards=limit)
        assert len(outcomes) == sum(comb(5, k) for k in range(limit + 1))
        sets = {frozenset(o.discards) for o in outcomes}
        assert len(sets) == len(outcomes)
        for o in outcomes:
            assert len(o.discards) <= limit
            assert set(o.discards) <= set(hand)
            assert set(o.kept) | set(o.discards) == set(hand)
            assert sum(o.category_counts) == o.combinations == comb(unseen, len(o.discards))
    assert all(len(o.discards) <= 4 for o in draw_outcomes(hand, players=5))  # 000 Art. 4


def test_best_discard_keeps_made_hands_and_draws_to_the_best() -> None:
    straight_flush = cards("7h 8h 9h Th Jh")
    assert best_discard(straight_flush, players=4).discards == ()
    assert best_discard(cards("Kh Kd Ks 7c 8s"), players=4).discards == cards("7c 8s")
    assert best_discard(cards("Ah Ad 7c 8s 9d"), players=4).discards == cards("7c 8s 9d")
    # Against the three other hands of a 4-player table the straight-flush draw is best.
    assert best_discard(cards("8h 9h Th Jh Ac"), players=4).discards == cards("Ac")
    for limit in range(5):
        chosen = best_discard(cards("2h 5d 9c Js Kh"), players=9, max_discards=limit)
        assert len(chosen.discards) <= limit


def test_full_deck_choices_add_up() -> None:
    """9 players (52 cards): 47 unseen cards; C(47, 4) ways to draw four."""
    outcomes = draw_outcomes(cards("2h 5d 9c Js Kh"), players=9)
    four = [o for o in outcomes if len(o.discards) == 4]
    assert [o.combinations for o in four] == [comb(47, 4)] * 5
    total_pairs = sum(o.category_counts[Category.ONE_PAIR] for o in four)
    assert total_pairs > 0
    dists = draw_distributions(cards("2h 5d 9c Js Kh"), players=9)
    assert [d.combinations for d in dists] == [o.combinations for o in outcomes]


def test_strength_is_an_expected_percentile() -> None:
    ladder = hand_ladder(4)
    assert ladder.percentiles[0] > 0 and ladder.percentiles[-1] < 1
    assert list(ladder.values) == sorted(ladder.values)
    stand_pat = draw_outcomes(cards("Kh Kd 9s 8c 7d"), players=4)[0]
    assert stand_pat.discards == ()
    value = evaluate(cards("Kh Kd 9s 8c 7d"), players=4).value
    assert stand_pat.strength == ladder.percentile(value)


def test_bad_input_is_refused() -> None:
    with pytest.raises(HandSizeError):
        draw_outcomes(cards("Kh Kd 9s 8c"), players=4)
    with pytest.raises(DuplicateCardError):
        draw_outcomes((*cards("Kh Kd 9s 8c"), cards("Kh")[0]), players=4)
    with pytest.raises(CardNotInDeckError):
        draw_outcomes(cards("Kh Kd 9s 8c 2d"), players=4)
    with pytest.raises(CardNotInDeckError):
        draw_outcomes(cards("Kh Kd 9s 8c 7d"), players=4, known=cards("2c"))
    with pytest.raises(ValueError, match="0 to 5"):
        draw_outcomes(cards("Kh Kd 9s 8c 7d"), players=4, max_discards=6)
    with pytest.raises(ValueError, match="opponents"):
        best_discard(cards("Kh Kd 9s 8c 7d"), players=4, opponents=0)
