"""Exhaustive checks of the evaluator against independent counts and an independent ranking.

With N players the deck has R = N + 4 ranks (11 - N up to the ace) in 4 suits. The category
counts follow from combinatorics written out below; for N = 9 they are the standard 52-card
table. Every five-card hand of every deck size is evaluated (about 6.8 million hands).

The ordering check compares ``HandRank.value`` with a reference key built here from the rules
text (6 to 7.4 and the Fantini/Santelia variant of 002), hand by hand.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations, pairwise, product
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from italian_poker import (
    Card,
    Category,
    Deck,
    Rank,
    StraightFlushClass,
    Suit,
    Tiebreak,
    evaluate,
)

ALL_PLAYER_COUNTS = range(2, 10)


def expected_counts(ranks: int) -> dict[Category, int]:
    """Five-card hands of each category in a deck of ``ranks`` ranks and 4 suits.

    Straights: the ace plays high (10-J-Q-K-A) and low (next to the lowest rank) with no
    wrap-around, so there are ``ranks - 4`` runs without a low ace plus one ace-low run.
    """
    r = ranks
    runs = r - 4 + 1
    straight_flush = 4 * runs
    return {
        Category.STRAIGHT_FLUSH: straight_flush,
        Category.FOUR_OF_A_KIND: r * (r - 1) * 4,
        Category.FLUSH: 4 * comb(r, 5) - straight_flush,
        Category.FULL_HOUSE: r * comb(4, 3) * (r - 1) * comb(4, 2),
        Category.STRAIGHT: runs * 4**5 - straight_flush,
        Category.THREE_OF_A_KIND: r * comb(4, 3) * comb(r - 1, 2) * 4**2,
        Category.TWO_PAIR: comb(r, 2) * comb(4, 2) ** 2 * (r - 2) * 4,
        Category.ONE_PAIR: r * comb(4, 2) * comb(r - 1, 3) * 4**3,
        Category.HIGH_CARD: (comb(r, 5) - runs) * (4**5 - 4),
    }


STANDARD_52_CARD_TABLE = {
    Category.STRAIGHT_FLUSH: 40,
    Category.FOUR_OF_A_KIND: 624,
    Category.FLUSH: 5108,
    Category.FULL_HOUSE: 3744,
    Category.STRAIGHT: 10200,
    Category.THREE_OF_A_KIND: 54912,
    Category.TWO_PAIR: 123552,
    Category.ONE_PAIR: 1098240,
    Category.HIGH_CARD: 1302540,
}


# --- the formulas themselves --------------------------------------------------------------


def test_formulas_give_the_standard_52_card_table() -> None:
    assert expected_counts(13) == STANDARD_52_CARD_TABLE


@pytest.mark.parametrize("players", ALL_PLAYER_COUNTS)
def test_formulas_add_up_to_every_hand(players: int) -> None:
    ranks = players + 4
    assert sum(expected_counts(ranks).values()) == comb(4 * ranks, 5)


def test_flush_is_rarer_than_full_house_in_the_traditional_decks() -> None:
    """002: 'A flush is harder to make in this game than in standard poker because of the
    smaller number of cards in each suit' (true for 2..8 players; not for the full pack)."""
    for players in range(2, 9):
        counts = expected_counts(players + 4)
        assert counts[Category.FLUSH] < counts[Category.FULL_HOUSE]
    full_pack = expected_counts(13)
    assert full_pack[Category.FLUSH] > full_pack[Category.FULL_HOUSE]


# --- exhaustive enumeration ---------------------------------------------------------------


@pytest.mark.parametrize("players", ALL_PLAYER_COUNTS)
def test_every_hand_category_count(players: int) -> None:
    """Evaluate every hand of the deck; the counts match the formulas (and, for 9 players, the
    standard table)."""
    deck = Deck(players)
    categories: Counter[Category] = Counter()
    classes: Counter[StraightFlushClass | None] = Counter()
    for hand in combinations(deck.cards, 5):
        rank = evaluate(hand, players=players)
        categories[rank.category] += 1
        classes[rank.straight_flush_class] += 1
    assert dict(categories) == expected_counts(players + 4)
    if players == 9:
        assert dict(categories) == STANDARD_52_CARD_TABLE
    # 7.1: one minimum and one maximum per suit; the rest are medium.
    assert classes[StraightFlushClass.MINIMUM] == 4
    assert classes[StraightFlushClass.MAXIMUM] == 4
    assert classes[StraightFlushClass.MEDIUM] == 4 * (players + 4 - 5)


# --- independent reference ranking --------------------------------------------------------


def _runs(low: int) -> dict[frozenset[int], int]:
    """Rank sets that make a straight in a deck starting at ``low``, mapped to their top rank
    (the ace-low run's top is the fourth rank of the deck)."""
    runs = {frozenset(range(top - 4, top + 1)): top for top in range(low + 4, 15)}
    runs[frozenset({14, low, low + 1, low + 2, low + 3})] = low + 3
    return runs


_RUNS = {players: _runs(11 - players) for players in ALL_PLAYER_COUNTS}
_PLAIN = {card: (int(card.rank), int(card.suit)) for card in Deck(9).cards}


def reference_key(
    cards: Sequence[Card], players: int, fantini: bool
) -> tuple[Category, tuple[int, ...]]:
    """The category and a tuple ordering hands inside it, straight from the rules text."""

    plain = [_PLAIN[c] for c in cards]

    def suit_of(rank: int) -> int:
        # Highest suit held in this rank (one card, or the pair's better card).
        return max(s for r, s in plain if r == rank)

    counts = Counter(r for r, _ in plain)
    # Ranks grouped by multiplicity, then by rank, most significant first.
    by_weight = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    suits = {s for _, s in plain}
    one_suit = len(suits) == 1
    top = _RUNS[players].get(frozenset(counts)) if len(counts) == 5 else None

    if top is not None and one_suit:
        return Category.STRAIGHT_FLUSH, (top, *suits)
    if shape == [4, 1]:
        return Category.FOUR_OF_A_KIND, tuple(by_weight)
    if one_suit:
        return Category.FLUSH, (*by_weight, *suits)
    if shape == [3, 2]:
        return Category.FULL_HOUSE, tuple(by_weight)
    if top is not None:
        return Category.STRAIGHT, (top, suit_of(top))
    if shape == [3, 1, 1]:
        return Category.THREE_OF_A_KIND, tuple(by_weight)
    if shape == [2, 2, 1]:
        high_pair, _, kicker = by_weight
        return Category.TWO_PAIR, (*by_weight, suit_of(kicker if fantini else high_pair))
    if shape == [2, 1, 1, 1]:
        pair, first_kicker = by_weight[0], by_weight[1]
        return Category.ONE_PAIR, (*by_weight, suit_of(first_kicker if fantini else pair))
    first, second = by_weight[0], by_weight[1]
    return Category.HIGH_CARD, (*by_weight, suit_of(second if fantini else first))


def reference_class(cards: Sequence[Card], players: int) -> StraightFlushClass | None:
    category, key = reference_key(cards, players, fantini=False)
    if category is not Category.STRAIGHT_FLUSH:
        return None
    if key[0] == Rank.ACE:
        return StraightFlushClass.MAXIMUM
    if key[0] == 11 - players + 3:
        return StraightFlushClass.MINIMUM
    return StraightFlushClass.MEDIUM


@pytest.mark.parametrize(
    ("players", "tiebreak"),
    [(p, Tiebreak.STANDARD) for p in (2, 3, 4)] + [(p, Tiebreak.FANTINI) for p in (2, 4)],
)
def test_every_hand_orders_like_the_reference(players: int, tiebreak: Tiebreak) -> None:
    """``value`` is a strictly increasing function of the reference key: equal keys, equal
    values; a higher key, a higher value (categories, ranks and suit tie-breaks all agree)."""
    fantini = tiebreak is Tiebreak.FANTINI
    value_by_key: dict[tuple[int, tuple[int, ...]], int] = {}
    for hand in combinations(Deck(players).cards, 5):
        rank = evaluate(hand, players=players, tiebreak=tiebreak)
        category, key = reference_key(hand, players, fantini)
        assert rank.category is category, hand
        assert rank.straight_flush_class is reference_class(hand, players), hand
        full_key = (int(category), key)
        assert value_by_key.setdefault(full_key, rank.value) == rank.value, hand
    ordered = [value_by_key[k] for k in sorted(value_by_key)]
    assert all(a < b for a, b in pairwise(ordered))


def rare_hands(players: int) -> dict[Category, list[tuple[Card, ...]]]:
    """Every hand of the five rarest categories in the deck of ``players`` players, built from
    their definitions (6): straight flushes, fours of a kind, flushes, full houses, straights."""
    ranks = [Rank(r) for r in range(11 - players, 15)]
    suits = list(Suit)
    runs = [sorted(run) for run in _RUNS[players]]
    hands: dict[Category, list[tuple[Card, ...]]] = {c: [] for c in RARE_CATEGORIES}
    for run in runs:
        for colours in product(suits, repeat=5):
            hand = tuple(Card(Rank(r), s) for r, s in zip(run, colours, strict=True))
            one_suit = len(set(colours)) == 1
            hands[Category.STRAIGHT_FLUSH if one_suit else Category.STRAIGHT].append(hand)
    for suit in suits:
        for chosen in combinations(ranks, 5):
            if {int(r) for r in chosen} not in map(set, runs):
                hands[Category.FLUSH].append(tuple(Card(r, suit) for r in chosen))
    for quad in ranks:
        for kicker in Deck(players).cards:
            if kicker.rank != quad:
                hands[Category.FOUR_OF_A_KIND].append((*(Card(quad, s) for s in suits), kicker))
    for trips, pair in product(ranks, ranks):
        if trips != pair:
            for three, two in product(combinations(suits, 3), combinations(suits, 2)):
                hands[Category.FULL_HOUSE].append(
                    (*(Card(trips, s) for s in three), *(Card(pair, s) for s in two))
                )
    return hands


RARE_CATEGORIES = (
    Category.STRAIGHT_FLUSH,
    Category.FOUR_OF_A_KIND,
    Category.FLUSH,
    Category.FULL_HOUSE,
    Category.STRAIGHT,
)


@pytest.mark.parametrize("players", range(5, 10))
def test_every_rare_hand_in_big_decks_orders_like_the_reference(players: int) -> None:
    """The rare categories, which random hands of a big deck hardly ever meet, hand by hand
    for 5 to 9 players: every straight flush (minimum, medium and maximum, 7.1), four of a
    kind, flush, full house and straight orders like the reference key, inside its category
    and across them, under both tie-breaks (7.4, 002)."""
    hands = rare_hands(players)
    expected = expected_counts(players + 4)
    assert {c: len(h) for c, h in hands.items()} == {c: expected[c] for c in RARE_CATEGORIES}
    for tiebreak in Tiebreak:
        fantini = tiebreak is Tiebreak.FANTINI
        value_by_key: dict[tuple[int, tuple[int, ...]], int] = {}
        classes: Counter[StraightFlushClass | None] = Counter()
        for category, of_category in hands.items():
            for hand in of_category:
                rank = evaluate(hand, players=players, tiebreak=tiebreak)
                reference, key = reference_key(hand, players, fantini)
                assert rank.category is category is reference, hand
                assert rank.straight_flush_class is reference_class(hand, players), hand
                classes[rank.straight_flush_class] += 1
                full_key = (int(category), key)
                assert value_by_key.setdefault(full_key, rank.value) == rank.value, hand
        assert classes[StraightFlushClass.MINIMUM] == classes[StraightFlushClass.MAXIMUM] == 4
        assert classes[StraightFlushClass.MEDIUM] == 4 * (players + 4 - 5)
        ordered = [value_by_key[k] for k in sorted(value_by_key)]
        assert all(a < b for a, b in pairwise(ordered))


@st.composite
def two_hands_from_a_big_deck(draw: st.DrawFn) -> tuple[int, tuple[Card, ...], tuple[Card, ...]]:
    players = draw(st.integers(5, 9))
    cards = Deck(players).cards
    pick = st.lists(st.sampled_from(cards), min_size=5, max_size=5, unique=True).map(tuple)
    return players, draw(pick), draw(pick)


@settings(max_examples=300, deadline=None)
@given(two_hands_from_a_big_deck(), st.sampled_from(list(Tiebreak)))
def test_random_hands_in_big_decks_order_like_the_reference(
    case: tuple[int, tuple[Card, ...], tuple[Card, ...]], tiebreak: Tiebreak
) -> None:
    """The exhaustive ordering check above is kept to 2..4 players for speed; sample the rest."""
    players, a, b = case
    fantini = tiebreak is Tiebreak.FANTINI
    ra = evaluate(a, players=players, tiebreak=tiebreak)
    rb = evaluate(b, players=players, tiebreak=tiebreak)
    ka = reference_key(a, players, fantini)
    kb = reference_key(b, players, fantini)
    ka_full, kb_full = (int(ka[0]), ka[1]), (int(kb[0]), kb[1])
    assert ra.category is ka[0]
    assert rb.category is kb[0]
    assert (ra.value > rb.value) == (ka_full > kb_full)
    assert (ra.value == rb.value) == (ka_full == kb_full)
