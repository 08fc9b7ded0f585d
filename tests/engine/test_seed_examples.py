"""Every worked example of the four source documents, each citing its article or document.

000 is the formal rulebook (article numbers); 001, 002 and 003 are the rules pages. Where 002's
examples lost their suit symbols (e.g. "Q-J-10-9-8 beats Q-J-10-9-8"), suits are chosen to show
the rule it states.
"""

from __future__ import annotations

from itertools import pairwise

import pytest

from italian_poker import (
    Category,
    Deck,
    HandRank,
    Rank,
    StraightFlushClass,
    Suit,
    can_open,
    compare,
    evaluate,
    parse_card,
    parse_cards,
    winners,
)

MIN = StraightFlushClass.MINIMUM
MED = StraightFlushClass.MEDIUM
MAX = StraightFlushClass.MAXIMUM


def ev(text: str, players: int = 4, tiebreak: str = "standard") -> HandRank:
    return evaluate(parse_cards(text), players=players, tiebreak=tiebreak)


def cmp(a: str, b: str, players: int = 4, tiebreak: str = "standard") -> int:
    return compare(parse_cards(a), parse_cards(b), players=players, tiebreak=tiebreak)


def win(*hands: str, players: int = 4, tiebreak: str = "standard") -> list[int]:
    return winners([parse_cards(h) for h in hands], players=players, tiebreak=tiebreak)


# --- section 1: the deck ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "lowest", "size"),
    [
        (5, Rank.SIX, 36),  # 000/001: 5 players, lowest card 6, 36 cards
        (4, Rank.SEVEN, 32),  # 002/003: 4 players, 32 cards, 7 to ace
        (6, Rank.FIVE, 40),  # 002/003: 6 players, 40 cards, 5 to ace
        (2, Rank.NINE, 24),  # RULES.md section 1
        (9, Rank.TWO, 52),  # RULES.md section 1
    ],
)
def test_deck_examples(players: int, lowest: Rank, size: int) -> None:
    """000 / 001 / 002 / 003: lowest rank = 11 - players."""
    assert Deck(players).lowest_rank is lowest
    assert len(Deck(players)) == size


# --- 3.3: opening -------------------------------------------------------------------------


def test_3_3_a_pair_of_jacks_opens() -> None:
    """3.3(a): a pair of jacks or any better combination; 003: 'coppia vestita'."""
    assert can_open(parse_cards("Jh Jc 7d 8s Ac"), players=4)


def test_3_3_b_four_card_straight_flush_opens_with_four_players() -> None:
    """3.3(b), RULES.md: with 4 players 7-8-9-10 suited qualifies (completed by A or J)."""
    assert can_open(parse_cards("7h 8h 9h Th Kc"), players=4)
    # Either end completes it: the low ace and the jack.
    assert ev("Ah 7h 8h 9h Th").category is Category.STRAIGHT_FLUSH
    assert ev("7h 8h 9h Th Jh").category is Category.STRAIGHT_FLUSH


def test_3_5_pair_needed_rises_to_queens_then_kings() -> None:
    """3.5 (000): after passed deals, queens or better, then kings or better; 3.3(b) unchanged."""
    jacks = parse_cards("Jh Jc 7d 8s Ac")
    queens = parse_cards("Qh Qc 7d 8s Ac")
    four_flush = parse_cards("7h 8h 9h Th Kc")
    assert not can_open(jacks, players=4, min_pair="Q")
    assert can_open(queens, players=4, min_pair="Q")
    assert not can_open(queens, players=4, min_pair="K")
    assert can_open(four_flush, players=4, min_pair="K")


def test_003_piatto_di_parole_needs_kings_or_aces() -> None:
    """003: after a piatto di parole the next hand opens only with a pair of kings or aces."""
    assert can_open(parse_cards("Kh Kc 7d 8s 9c"), players=4, min_pair="K")
    assert can_open(parse_cards("Ah Ac 7d 8s 9c"), players=4, min_pair="K")
    assert not can_open(parse_cards("Qh Qc 7d 8s 9c"), players=4, min_pair="K")


# --- 6: ranking of hands ------------------------------------------------------------------


def test_6_flush_beats_full_house() -> None:
    """6 (and 002, 003): the flush ranks above the full house, unlike standard poker."""
    flush = "Kh Jh 9h 8h 7h"
    full = "Ac Ad As Kc Kd"
    assert ev(flush).category is Category.FLUSH
    assert ev(full).category is Category.FULL_HOUSE
    assert cmp(flush, full) > 0
    assert win(full, flush) == [1]


def test_001_002_hand_order() -> None:
    """001/002: straight flush, four of a kind, flush, full house, straight, three of a kind,
    two pair, pair, high card."""
    hands = [
        "8d 9d Td Jd Qd",
        "7c 7d 7h 7s Ac",
        "Kh Jh 9h 8h 7h",
        "Ac Ad As Kc Kd",
        "7s 8d 9c Th Jd",
        "Qc Qd Qs 9c 8d",
        "Kc Kd 8h 8s Ad",
        "Jc Jd Ac Kd 9s",
        "Ah Kd Qc Js 9h",
    ]
    for higher, lower in pairwise(hands):
        assert cmp(higher, lower) > 0, (higher, lower)


# --- the ace ------------------------------------------------------------------------------


def test_ace_low_sits_next_to_the_lowest_rank_with_five_players() -> None:
    """Article on aces (000), 002: with five players A-6-7-8-9 is a straight, the lowest."""
    lowest = "Ah 6d 7c 8s 9h"
    assert ev(lowest, 5).category is Category.STRAIGHT
    assert ev(lowest, 5).ranks == (Rank.NINE,)
    assert cmp("6h 7d 8c 9s Th", lowest, 5) > 0


def test_002_ordinary_ace_low_straight_is_the_lowest_straight() -> None:
    """002: with 5 players A-6-7-8-9 of mixed suits is the lowest straight; any higher straight
    from 6-7-8-9-10 to A-K-Q-J-10 beats it. Only straight flushes cycle (000, after 7.3)."""
    lowest = "Ah 6d 7c 8s 9h"
    for top in range(10, 15):
        higher = " ".join(Rank(r).letter + "cd"[r % 2] for r in range(top - 4, top + 1))
        assert ev(higher, 5).category is Category.STRAIGHT
        assert cmp(higher, lowest, 5) > 0
        assert win(lowest, higher, players=5) == [1]
    # A-K-Q-J-10 mixed is just the highest straight, not a 'maximum' beaten by the minimum.
    assert cmp("Ac Kd Qc Js Ts", lowest, 5) > 0


# --- 7.1 to 7.3: straight flushes ---------------------------------------------------------


def test_7_1_a_minimum_with_four_players() -> None:
    """7.1(a): the minimum, e.g. A-7-8-9-10 of one suit with four players."""
    rank = ev("Ah 7h 8h 9h Th")
    assert rank.category is Category.STRAIGHT_FLUSH
    assert rank.straight_flush_class is MIN
    assert rank.description_it.startswith("Scala reale minima")


def test_7_1_b_maximum() -> None:
    """7.1(b): the maximum, 10-J-Q-K-A of one suit."""
    rank = ev("Th Jh Qh Kh Ah")
    assert rank.straight_flush_class is MAX
    assert rank.description_it.startswith("Scala reale massima")


@pytest.mark.parametrize("text", ["7h 8h 9h Th Jh", "8h 9h Th Jh Qh", "9h Th Jh Qh Kh"])
def test_7_1_c_every_other_straight_flush_is_medium(text: str) -> None:
    """7.1(c): the medium, every other straight flush."""
    rank = ev(text)
    assert rank.straight_flush_class is MED
    assert rank.description_it.startswith("Scala reale media")


def test_7_2_maximum_beats_medium() -> None:
    """7.2: a maximum beats a medium."""
    assert cmp("Tc Jc Qc Kc Ac", "9h Th Jh Qh Kh") > 0
    assert win("9h Th Jh Qh Kh", "Tc Jc Qc Kc Ac") == [1]


def test_7_2_medium_beats_minimum() -> None:
    """7.2: a medium beats a minimum."""
    assert cmp("7c 8c 9c Tc Jc", "Ah 7h 8h 9h Th") > 0
    assert win("Ah 7h 8h 9h Th", "7c 8c 9c Tc Jc") == [1]


def test_7_2_minimum_beats_maximum() -> None:
    """7.2: a minimum beats a maximum; 002: 'La minima batte la massima'."""
    assert cmp("As 7s 8s 9s Ts", "Th Jh Qh Kh Ah") > 0
    assert cmp("Th Jh Qh Kh Ah", "As 7s 8s 9s Ts") < 0
    assert win("Th Jh Qh Kh Ah", "As 7s 8s 9s Ts") == [1]


def test_7_2_mediums_compare_by_rank() -> None:
    """7.2: between two medium straight flushes, the one with higher cards wins (the suit does
    not matter here)."""
    assert cmp("8s 9s Ts Js Qs", "7h 8h 9h Th Jh") > 0
    assert cmp("9s Ts Js Qs Ks", "8h 9h Th Jh Qh") > 0


def test_7_2_no_hand_is_certain_to_win() -> None:
    """7.2: 'No hand is therefore certain to win': every straight flush loses to another hand
    from the same deck, for every deck."""
    for players in range(2, 10):
        low = 11 - players
        minimum = ["Ah", *(Rank(r).letter + "h" for r in range(low, low + 4))]
        medium = [Rank(r).letter + "d" for r in range(low, low + 5)]
        maximum = ["Tc", "Jc", "Qc", "Kc", "Ac"]
        mn, md, mx = (" ".join(h) for h in (minimum, medium, maximum))
        assert cmp(md, mn, players) > 0
        assert cmp(mx, md, players) > 0
        assert cmp(mn, mx, players) > 0


def test_7_3_one_of_each_class_splits_three_ways() -> None:
    """7.3: one minimum, one medium and one maximum in the same showdown split the pot."""
    minimum, medium, maximum = "Ah 7h 8h 9h Th", "8d 9d Td Jd Qd", "Tc Jc Qc Kc Ac"
    assert win(minimum, medium, maximum) == [0, 1, 2]
    assert win(maximum, "7s 7c Ks Kd Js", minimum, medium) == [0, 2, 3]


def test_7_3_three_way_split_keeps_only_the_best_of_each_class() -> None:
    """7.3 with a second medium: the lower medium loses to the higher one."""
    minimum, maximum = "Ah 7h 8h 9h Th", "Tc Jc Qc Kc Ac"
    high_medium, low_medium = "9d Td Jd Qd Kd", "7s 8s 9s Ts Js"
    assert win(low_medium, minimum, high_medium, maximum) == [1, 2, 3]


def test_7_3_two_classes_do_not_split() -> None:
    """7.2 with two classes only: the class that beats the other takes the pot."""
    assert win("Ah 7h 8h 9h Th", "Tc Jc Qc Kc Ac", "Ts Js Qs Ks As") == [0]


def test_minimum_beats_maximum_only_for_straight_flushes() -> None:
    """000 after 7.3: the rule applies only to straight flushes; among ordinary straights the
    ace-low straight is simply the lowest."""
    assert cmp("Ah 7d 8c 9s Th", "Tc Jd Qc Ks Ad") < 0
    assert cmp("Ah 7h 8h 9h Th", "Tc Jc Qc Kc Ac") > 0


def test_003_lists_scala_reale_massima_media_minima() -> None:
    """003 lists the straight flushes as massima, media, minima: by value, in that order
    (the cycle of 7.2 aside)."""
    massima, media, minima = ev("Tc Jc Qc Kc Ac"), ev("8d 9d Td Jd Qd"), ev("Ah 7h 8h 9h Th")
    assert massima.value > media.value > minima.value
    assert minima.value > ev("7c 7d 7h 7s Ac").value  # then poker


# --- 7.4: suits break ties ----------------------------------------------------------------


def test_7_4_suit_order() -> None:
    """7.4, 001, 002: hearts (highest), diamonds, clubs, spades; 'Come Quando Fuori Piove'."""
    assert Suit.HEARTS > Suit.DIAMONDS > Suit.CLUBS > Suit.SPADES
    assert [s.italian for s in sorted(Suit, reverse=True)] == ["cuori", "quadri", "fiori", "picche"]


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("Ah Qh Jh 9h 8h", "Ad Qd Jd 9d 8d"),
        ("Ad Qd Jd 9d 8d", "Ac Qc Jc 9c 8c"),
        ("Ac Qc Jc 9c 8c", "As Qs Js 9s 8s"),
    ],
)
def test_7_4_a_equal_flushes_higher_suit(better: str, worse: str) -> None:
    """7.4(a): between equal flushes, the higher suit wins."""
    assert cmp(better, worse) > 0
    assert win(worse, better) == [1]


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("7h 8h 9h Th Jh", "7d 8d 9d Td Jd"),  # medium
        ("Ad 7d 8d 9d Td", "Ac 7c 8c 9c Tc"),  # minimum
        ("Tc Jc Qc Kc Ac", "Ts Js Qs Ks As"),  # maximum
    ],
)
def test_7_4_a_equal_straight_flushes_higher_suit(better: str, worse: str) -> None:
    """7.4(a), 002: between equal straight flushes in different suits, the higher suit wins."""
    assert cmp(better, worse) > 0


def test_7_4_b_equal_straights_suit_of_the_highest_card() -> None:
    """7.4(b), 002: 'Q-J-10-9-8 beats Q-J-10-9-8': the queen of hearts beats the queen of
    diamonds, even though the other hand holds more hearts."""
    with_queen_of_hearts = "Qh Jc Td 9s 8c"
    more_hearts = "Qd Jh Th 9h 8h"
    assert ev(more_hearts).category is Category.STRAIGHT
    assert cmp(with_queen_of_hearts, more_hearts) > 0


def test_7_4_b_ace_low_straights_compare_the_top_card() -> None:
    """7.4(b) for ace-low straights: the ace counts low, so the highest card is the top of the
    run (the 10 with 4 players), and its suit decides."""
    assert cmp("As 7c 8c 9c Th", "Ah 7d 8d 9d Tc") > 0


def test_7_4_c_two_pair_heart_in_the_higher_pair() -> None:
    """7.4(c), 002: equal two pair with the same kicker, 9-9-7-7-K beats 9-9-7-7-K: the hand
    whose higher pair includes the heart wins (the other has hearts elsewhere)."""
    heart_in_nines = "9h 9c 7d 7s Kc"
    hearts_elsewhere = "9d 9s 7h 7c Kh"
    assert cmp(heart_in_nines, hearts_elsewhere) > 0
    assert win(hearts_elsewhere, heart_in_nines) == [1]


def test_7_4_c_two_pair_kicker_rank_before_suit() -> None:
    """7.4(c) applies 'with the same kicker' (000, the default): a higher kicker still wins."""
    assert cmp("9d 9s 7h 7c Ah", "9h 9c 7d 7s Kc") > 0


def test_7_4_c_pair_holding_the_heart() -> None:
    """7.4(c), 002: equal pairs with the same three kickers: the pair with the heart wins."""
    heart_pair = "Jh Jc 9d 8s 7c"
    other = "Jd Js 9h 8h 7h"
    assert cmp(heart_pair, other) > 0


def test_7_4_c_pair_kickers_before_suit() -> None:
    """7.4(c): the suit only decides 'with the same kickers'."""
    assert cmp("Jd Js Ah 8h 7h", "Jh Jc Kd 8s 7c") > 0


def test_7_4_d_high_card_suit_of_the_highest_card() -> None:
    """7.4(d), 002: between equal high-card hands, the suit of the highest card decides."""
    assert cmp("Ah Jc 9d 8s 7c", "Ad Jh 9h 8h 7d") > 0


def test_7_4_d_high_card_ranks_before_suit() -> None:
    assert cmp("Ad Kc 9h 8h 7d", "Ah Qh 9d 8s 7c") > 0


# --- 002: the Fantini and Santelia variant ------------------------------------------------


def test_002_fantini_pair_decided_by_the_highest_kicker() -> None:
    """002, Fantini/Santelia: with K-K-J-9-8 against K-K-J-9-8, the higher suited jack wins.
    Under 7.4(c) the pair holding the heart wins instead."""
    jack_of_hearts = "Kc Ks Jh 9c 8c"
    king_of_hearts = "Kh Kd Jd 9h 8h"
    assert cmp(jack_of_hearts, king_of_hearts, tiebreak="fantini") > 0
    assert cmp(jack_of_hearts, king_of_hearts) < 0


def test_002_fantini_high_card_decided_by_the_second_card() -> None:
    """002, Fantini/Santelia: with A-Q-J-8-7 against A-Q-J-8-7, the higher suited queen wins.
    Under 7.4(d) the ace's suit decides instead."""
    queen_of_hearts = "Ac Qh Jc 8c 7d"
    ace_of_hearts = "Ah Qd Jd 8d 7c"
    assert cmp(queen_of_hearts, ace_of_hearts, tiebreak="fantini") > 0
    assert cmp(queen_of_hearts, ace_of_hearts) < 0


def test_002_fantini_two_pair_decided_by_the_kicker() -> None:
    """002, Fantini/Santelia, 'the suit of the highest kicker': for two pair, the kicker."""
    heart_in_nines = "9h 9c 7d 7s Kc"
    king_of_hearts = "9d 9s 7h 7c Kh"
    assert cmp(king_of_hearts, heart_in_nines, tiebreak="fantini") > 0
    assert cmp(king_of_hearts, heart_in_nines) < 0


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("Ah Qh Jh 9h 8h", "Ad Qd Jd 9d 8d"),  # flushes, 7.4(a)
        ("Qh Jc Td 9s 8c", "Qd Jh Th 9h 8h"),  # straights, 7.4(b)
        ("7h 8h 9h Th Jh", "7d 8d 9d Td Jd"),  # straight flushes, 7.4(a)
        ("As 7s 8s 9s Ts", "Th Jh Qh Kh Ah"),  # minimum beats maximum, 7.2
    ],
)
def test_002_fantini_leaves_flushes_straights_and_straight_flushes_alone(
    better: str, worse: str
) -> None:
    """002: the variant only concerns kickers; flushes, straights and straight flushes are
    compared as in 7.4 (and 7.2)."""
    assert cmp(better, worse) > 0
    assert cmp(better, worse, tiebreak="fantini") > 0


def test_002_fantini_ranks_still_decide_first() -> None:
    """Fantini only breaks ties between otherwise equal hands: K-K-Q beats K-K-J."""
    assert cmp("Ks Kc Qs 9c 8c", "Kh Kd Jh 9h 8d", tiebreak="fantini") > 0


# --- card text used in the documents ------------------------------------------------------


def test_documents_write_ten_as_10() -> None:
    """The documents write the ten as '10' (A-7-8-9-10): the parser reads it."""
    assert parse_card("10h") == parse_card("Th")
    assert ev("Ah 7h 8h 9h 10h") == ev("Ah 7h 8h 9h Th")
