"""Hand ranking (articles 6 to 7.4): categories, straight-flush classes, descriptions, errors."""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement

import numpy as np
import pytest

from italian_poker import (
    ALL_CARDS,
    CardNotInDeckError,
    CardParseError,
    Category,
    DuplicateCardError,
    HandRank,
    HandSizeError,
    PlayerCountError,
    Rank,
    StraightFlushClass,
    Suit,
    Tiebreak,
    best_ranks,
    compare,
    compare_ranks,
    evaluate,
    parse_cards,
    winners,
)
from italian_poker.engine.cards import RANK_WEIGHTS, WEIGHT_BITS


def ev(text: str, players: int = 4, tiebreak: str = "standard") -> HandRank:
    return evaluate(parse_cards(text), players=players, tiebreak=tiebreak)


def cmp(a: str, b: str, players: int = 4, tiebreak: str = "standard") -> int:
    return compare(parse_cards(a), parse_cards(b), players=players, tiebreak=tiebreak)


def win(*hands: str, players: int = 4, tiebreak: str = "standard") -> list[int]:
    return winners([parse_cards(h) for h in hands], players=players, tiebreak=tiebreak)


# One hand of each category with 4 players (7..A), highest category first.
CATEGORY_EXAMPLES = [
    ("8d 9d Td Jd Qd", Category.STRAIGHT_FLUSH),
    ("7c 7d 7h 7s Ac", Category.FOUR_OF_A_KIND),
    ("Kh Jh 9h 8h 7h", Category.FLUSH),
    ("Ac Ad As Kc Kd", Category.FULL_HOUSE),
    ("7s 8d 9c Th Jd", Category.STRAIGHT),
    ("Qc Qd Qs 9c 8d", Category.THREE_OF_A_KIND),
    ("Kc Kd 8h 8s Ad", Category.TWO_PAIR),
    ("Jc Jd Ac Kd 9s", Category.ONE_PAIR),
    ("Ah Kd Qc Js 9h", Category.HIGH_CARD),
]


# --- categories ---------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "category"), CATEGORY_EXAMPLES)
def test_category_of_each_example(text: str, category: Category) -> None:
    assert ev(text).category is category


def test_category_order_flush_above_full_house() -> None:
    """6 and 002: straight flush, four of a kind, flush, full house, straight, three of a kind,
    two pair, pair, high card."""
    order = [Category(c) for c in range(8, -1, -1)]
    assert order == [category for _, category in CATEGORY_EXAMPLES]
    assert Category.FLUSH > Category.FULL_HOUSE


def test_each_category_example_beats_every_lower_one() -> None:
    """6: a hand of a higher category beats any hand of a lower one."""
    for i, (higher, _) in enumerate(CATEGORY_EXAMPLES):
        for lower, _ in CATEGORY_EXAMPLES[i + 1 :]:
            assert cmp(higher, lower) > 0, (higher, lower)
            assert cmp(lower, higher) < 0, (lower, higher)
            assert ev(higher).value > ev(lower).value


def test_weakest_flush_beats_strongest_full_house() -> None:
    """6: flush (colore) beats full house.

    003: 'il colore ha un valore superiore a quello del full'.
    """
    weakest_flush = "7s 8s 9s Ts Qs"
    strongest_full = "Ah Ad Ac Kh Kd"
    assert ev(weakest_flush).category is Category.FLUSH
    assert cmp(weakest_flush, strongest_full) > 0


def test_category_names() -> None:
    """002 and 003 give the Italian names."""
    assert [c.english for c in sorted(Category, reverse=True)] == [
        "Straight flush",
        "Four of a kind",
        "Flush",
        "Full house",
        "Straight",
        "Three of a kind",
        "Two pair",
        "Pair",
        "High card",
    ]
    assert [c.italian for c in sorted(Category, reverse=True)] == [
        "Scala reale",
        "Poker",
        "Colore",
        "Full",
        "Scala",
        "Tris",
        "Doppia coppia",
        "Coppia",
        "Carta più alta",
    ]


# --- ranks inside a category --------------------------------------------------------------


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("7c 7d 7h 7s 8c", "Ac Ad Ah 8s 8h"),  # quads above full
        ("8c 8d 8h 8s 7c", "7d 7h 7s 7c Ac"),  # higher quads
        ("Ac Kc Qc Jc 9c", "Ah Kh Qh Jh 8h"),  # flush: fifth card decides before suit
        ("Ac Ad As 7c 7d", "Kc Kd Ks Ah Ac"),  # full: trips decide
        ("8s 9d Tc Jh Qd", "7h 8h 9h Th Jc"),  # straight: top decides before suit
        ("Ks Kd Kh 8c 7c", "Qc Qd Qh Ah Kc"),  # trips: rank decides
        ("Ac Ad 7c 7s 8c", "Kc Kd Qh Qs Ah"),  # two pair: higher pair decides
        ("Ac Ad 8c 8s 7c", "Ah As 7d 7h Kc"),  # two pair: lower pair next
        ("Ac Ad 8c 8s Kc", "Ah As 8d 8h Qc"),  # two pair: then the kicker (000: 'same kicker')
        ("Jc Js Ac 8d 7c", "Jd Jh Kh Qh Th"),  # pair: kickers decide before suit
        ("Ac Kc Qc Js 8h", "Ah Kh Qh Jd 7s"),  # high card: fifth card decides before suit
    ],
)
def test_ranks_decide_before_suits(better: str, worse: str) -> None:
    assert cmp(better, worse) > 0
    assert cmp(worse, better) < 0


def test_hand_rank_fields() -> None:
    full = ev("Kc Kd Ks Tc Td")
    assert full.ranks == (Rank.KING, Rank.TEN)
    assert full.suit is None
    assert full.straight_flush_class is None

    pair = ev("Jc Jh Ac 9d 8s")
    assert pair.ranks == (Rank.JACK, Rank.ACE, Rank.NINE, Rank.EIGHT)
    assert pair.suit is Suit.HEARTS

    flush = ev("Kd Jd 9d 8d 7d")
    assert flush.ranks == (Rank.KING, Rank.JACK, Rank.NINE, Rank.EIGHT, Rank.SEVEN)
    assert flush.suit is Suit.DIAMONDS

    straight = ev("7s 8d 9c Th Jd")
    assert straight.ranks == (Rank.JACK,)
    assert straight.suit is Suit.DIAMONDS


# --- aces and straights -------------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 10))
def test_ace_low_straight_sits_next_to_the_deck_lowest_rank(players: int) -> None:
    """Article on aces: a low ace sits next to the lowest rank in the deck being used."""
    low = 11 - players
    ace_low = [Rank.ACE, *(Rank(r) for r in range(low, low + 4))]
    suits = "hdcsh"
    text = " ".join(r.letter + s for r, s in zip(ace_low, suits, strict=True))
    rank = ev(text, players)
    assert rank.category is Category.STRAIGHT
    assert rank.ranks == (Rank(low + 3),)

    next_up = " ".join(Rank(r).letter + s for r, s in zip(range(low, low + 5), suits, strict=True))
    assert ev(next_up, players).category is Category.STRAIGHT
    assert cmp(next_up, text, players) > 0


@pytest.mark.parametrize("players", range(2, 10))
def test_ace_low_straight_flush_is_the_minimum(players: int) -> None:
    """7.1(a): the lowest straight flush possible with the deck in use, the ace counting low."""
    low = 11 - players
    text = " ".join(["Ah", *(Rank(r).letter + "h" for r in range(low, low + 4))])
    rank = ev(text, players)
    assert rank.category is Category.STRAIGHT_FLUSH
    assert rank.straight_flush_class is StraightFlushClass.MINIMUM
    assert rank.description_it.startswith("Scala reale minima")
    assert rank.description.startswith("Minimum straight flush")


@pytest.mark.parametrize("players", range(2, 10))
def test_ten_to_ace_straight_flush_is_the_maximum(players: int) -> None:
    """7.1(b): 10-J-Q-K-A of one suit, whatever the deck."""
    rank = ev("Ts Js Qs Ks As", players)
    assert rank.straight_flush_class is StraightFlushClass.MAXIMUM
    assert rank.description_it.startswith("Scala reale massima")


@pytest.mark.parametrize(
    ("text", "players"),
    [
        ("Qh Kd Ac 7s 8h", 4),  # K-A-7 would wrap around
        ("Kh Ad 7c 8s 9h", 4),
        ("Kh Ad 2c 3s 4h", 9),
        ("Ah 7d 8c 9s Jh", 4),  # ace low with a gap
        ("Ah 9d Tc Js Qh", 4),  # A-9-10-J-Q is the ace-low straight only with 2 players
    ],
)
def test_no_wrap_around(text: str, players: int) -> None:
    """Article on aces: no wrap-around straights."""
    assert ev(text, players).category is Category.HIGH_CARD


def test_ace_low_with_a_rank_below_the_deck_is_not_a_straight_in_a_smaller_deck() -> None:
    """A-2-3-4-5 is the lowest straight with 9 players; with 8 players the 2 is not in the deck."""
    assert ev("Ah 2d 3c 4s 5h", 9).category is Category.STRAIGHT
    with pytest.raises(CardNotInDeckError):
        ev("Ah 2d 3c 4s 5h", 8)
    # With 8 players the ace sits next to the 3 instead:
    assert ev("Ah 3d 4c 5s 6h", 8).category is Category.STRAIGHT
    assert ev("Ah 3d 4c 5s 6h", 9).category is Category.HIGH_CARD


def test_two_player_deck_has_one_medium_straight_flush() -> None:
    """2 players, 9..A: minimum A-9-10-J-Q, medium 9-10-J-Q-K, maximum 10-J-Q-K-A."""
    assert ev("Ah 9h Th Jh Qh", 2).straight_flush_class is StraightFlushClass.MINIMUM
    assert ev("9h Th Jh Qh Kh", 2).straight_flush_class is StraightFlushClass.MEDIUM
    assert ev("Th Jh Qh Kh Ah", 2).straight_flush_class is StraightFlushClass.MAXIMUM


def test_straight_flush_classes_name_the_cyclic_order() -> None:
    assert StraightFlushClass.MINIMUM.italian == "minima"
    assert StraightFlushClass.MEDIUM.italian == "media"
    assert StraightFlushClass.MAXIMUM.italian == "massima"


# --- descriptions -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "players", "english", "italian"),
    [
        (
            "Ah 7h 8h 9h Th",
            4,
            "Minimum straight flush, 10 high, hearts",
            "Scala reale minima al 10 di cuori",
        ),
        (
            "8d 9d Td Jd Qd",
            4,
            "Medium straight flush, Queen high, diamonds",
            "Scala reale media alla Donna di quadri",
        ),
        (
            "Tc Jc Qc Kc Ac",
            4,
            "Maximum straight flush, Ace high, clubs",
            "Scala reale massima all'Asso di fiori",
        ),
        ("7c 7d 7h 7s Ac", 4, "Four Sevens", "Poker di 7"),
        ("Jc Jd Jh Js Ac", 4, "Four Jacks", "Poker di Jack"),
        ("Kh Jh 9h 8h 7h", 4, "Flush, King high, hearts", "Colore di cuori al Re"),
        ("Qs Js 9s 8s 7s", 4, "Flush, Queen high, spades", "Colore di picche alla Donna"),
        ("Ac Ad As Kc Kd", 4, "Full house, Aces full of Kings", "Full di Assi e Re"),
        ("7s 8d 9c Th Jd", 4, "Straight, Jack high", "Scala al Jack"),
        ("4s 5d 6c 7h 8d", 9, "Straight, 8 high", "Scala all'8"),
        ("Ah 6d 7c 8s 9h", 5, "Straight, 9 high", "Scala al 9"),
        ("Qc Qd Qs 9c 8d", 4, "Three Queens", "Tris di Donne"),
        ("Kc Kd 8h 8s Ad", 4, "Two pair, Kings and Eights", "Doppia coppia di Re e 8"),
        ("Jc Jd Ac Kd 9s", 4, "Pair of Jacks", "Coppia di Jack"),
        ("Tc Td Ac Kd 9s", 4, "Pair of Tens", "Coppia di 10"),
        ("Ah Kd Qc Js 9h", 4, "Ace high", "Carta più alta: Asso"),
        ("Kh Qd Jc 9s 8h", 4, "King high", "Carta più alta: Re"),
    ],
)
def test_descriptions_in_english_and_italian(
    text: str, players: int, english: str, italian: str
) -> None:
    rank = ev(text, players)
    assert rank.description == english
    assert rank.description_it == italian
    assert rank.describe() == english
    assert rank.describe("en") == english
    assert rank.describe("it") == italian
    assert str(rank) == english


def test_issue_example_description() -> None:
    """7.1(a) with 4 players: A-7-8-9-10 of hearts is 'Scala reale minima'."""
    assert evaluate(parse_cards("Ah 7h 8h 9h Th"), players=4).description_it.startswith(
        "Scala reale minima"
    )


@pytest.mark.parametrize(("text", "category"), CATEGORY_EXAMPLES)
def test_descriptions_start_with_the_category_name(text: str, category: Category) -> None:
    rank = ev(text)
    assert rank.description_it.startswith(category.italian)
    if category is Category.STRAIGHT_FLUSH:
        assert category.english.lower() in rank.description.lower()
    elif category is not Category.HIGH_CARD:
        assert rank.description.lower().startswith(category.english.lower().split()[0])


def test_describe_rejects_other_languages() -> None:
    with pytest.raises(ValueError, match="'en' or 'it'"):
        ev("Ah Kd Qc Js 9h").describe("fr")


# --- tie-break option ---------------------------------------------------------------------


def test_tiebreak_accepts_enum_or_text() -> None:
    hand = parse_cards("Kc Ks Jh 9c 8c")
    assert evaluate(hand, players=4, tiebreak=Tiebreak.FANTINI) == evaluate(
        hand, players=4, tiebreak="fantini"
    )
    assert evaluate(hand, players=4) == evaluate(hand, players=4, tiebreak=Tiebreak.STANDARD)
    assert Tiebreak("standard") is Tiebreak.STANDARD


# --- compare, best_ranks, winners ---------------------------------------------------------


def test_compare_equal_hands_is_zero() -> None:
    assert cmp("Ah Kd Qc Js 9h", "9h Js Qc Kd Ah") == 0


def test_compare_ranks_matches_compare() -> None:
    a, b = ev("Ah 7h 8h 9h Th"), ev("Ac Kc Qc Jc Tc")
    assert compare_ranks(a, b) == 1
    assert compare_ranks(b, a) == -1
    assert compare_ranks(a, a) == 0


def test_winners_and_best_ranks_of_nothing() -> None:
    assert winners([], players=4) == []
    assert best_ranks([]) == []


def test_winners_single_hand() -> None:
    assert win("7c 8d 9h Js Qc") == [0]


def test_winners_accepts_any_iterable() -> None:
    hands = (parse_cards(h) for h in ["7c 8d 9h Js Qc", "Ac Ad 8s 9d 7h"])
    assert winners(hands, players=4) == [1]


def test_equal_hypothetical_hands_share_the_pot() -> None:
    """Hypothetical hands may be equal (they share cards): best_ranks shares the pot."""
    hands = ("Ah Kd Qc Js 9h", "7c 8d 9h Js Qc", "Ah Kd Qc Js 9h")
    assert best_ranks([ev(h) for h in hands]) == [0, 2]


def test_equal_hypothetical_straight_flushes_share_in_the_three_way_split() -> None:
    """7.3 with hypothetical hands: two copies of the same minimum share with the others.

    ``best_ranks`` must not depend on the order of the hands.
    """
    minimum, medium, maximum = "Ah 7h 8h 9h Th", "8d 9d Td Jd Qd", "Tc Jc Qc Kc Ac"
    assert best_ranks([ev(h) for h in (minimum, minimum, medium, maximum)]) == [0, 1, 2, 3]
    assert best_ranks([ev(h) for h in (medium, minimum, maximum, minimum)]) == [0, 1, 2, 3]


def test_winners_refuses_hands_that_share_cards() -> None:
    """A pot is shared by hands of one deck: the same hand twice is two hands with a card in
    both, refused like a card twice in one hand (see test_hand_rank_inputs.py)."""
    with pytest.raises(DuplicateCardError, match="card Ah is in hands 1 and 3"):
        win("Ah Kd Qc Js 9h", "7c 8d 9s Ts Qh", "Ah Kd Qc Js 9h")


# --- errors -------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["Ah Kh Qh Jh", "Ah Kh Qh Jh Th 9h", "Ah", ""])
def test_wrong_number_of_cards(text: str) -> None:
    with pytest.raises(HandSizeError, match="five cards") as info:
        ev(text)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("value", [None, 5])
def test_not_a_sequence_of_cards(value: object) -> None:
    with pytest.raises(HandSizeError):
        evaluate(value, players=4)  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [4, 9])
def test_duplicate_cards(players: int) -> None:
    for text in ["Ah Ah Kh Qh Jh", "Ah Kd Ah Qc Js", "9c 9c 9c 9c 9c", "Ah Kh Qh Jh Ah"]:
        with pytest.raises(DuplicateCardError):
            evaluate(parse_cards(text, unique=False), players=players)


def test_duplicate_cards_given_as_an_iterator() -> None:
    """A repeated card is caught even when the hand is a one-shot iterator."""
    cards = parse_cards("2s 2s Kd Qc 9h", unique=False)
    with pytest.raises(DuplicateCardError):
        evaluate(iter(cards), players=9)


@pytest.mark.parametrize(
    ("text", "players"),
    [
        ("2h 8h 9h Th Jh", 4),  # suited: the flush path
        ("2h 8c 9h Th Jh", 4),  # unsuited: the plain path
        ("6h 7h 8h 9h Th", 4),  # a straight flush in a bigger deck
        ("6h 6c 6d 6s 7h", 4),
        ("8h 9c Tc Jc Qc", 2),
        ("2s 3s 4s 5s As", 8),
    ],
)
def test_card_below_the_deck(text: str, players: int) -> None:
    with pytest.raises(CardNotInDeckError, match="not in the"):
        ev(text, players)


@pytest.mark.parametrize("players", [-1, 0, 1, 10])
def test_bad_player_count(players: int) -> None:
    with pytest.raises(PlayerCountError):
        ev("Ah Kh Qh Jh Th", players)
    with pytest.raises(PlayerCountError):
        cmp("Ah Kh Qh Jh Th", "Ac Kc Qc Jc Tc", players)
    with pytest.raises(PlayerCountError):
        win("Ah Kh Qh Jh Th", players=players)


def test_bad_tiebreak() -> None:
    with pytest.raises(ValueError, match="'standard' or 'fantini'"):
        ev("Ah Kh Qh Jh Th", tiebreak="bogus")
    with pytest.raises(ValueError):
        cmp("Ah Kh Qh Jh Th", "Ac Kc Qc Jc Tc", tiebreak="bogus")


@pytest.mark.parametrize("players", [4.0, 9.0, True, "4", None, np.int64(4)])
def test_player_count_must_be_a_whole_number(players: object) -> None:
    """``players=4.0`` equals 4 but is rejected like any other bad count, tables built or not."""
    ev("Ah Kh Qh Jh Th", 4)
    ev("Ah Kh Qh Jh Th", 9)
    with pytest.raises(PlayerCountError, match="whole number"):
        evaluate(parse_cards("Ah Kd Qc Js 9h"), players=players)  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [-1, -7, 0, 1, 10])
def test_player_count_out_of_range_with_tables_built(players: int) -> None:
    """Negative counts would index the tables from the end; they are refused all the same."""
    for built in range(2, 10):
        ev("Ah Kh Qh Jh Th", built)
    with pytest.raises(PlayerCountError, match="2 to 9 players"):
        evaluate(parse_cards("Ah Kd Qc Js 9h"), players=players)


@pytest.mark.parametrize("tiebreak", ["standard", "fantini"])
@pytest.mark.parametrize(
    "text",
    [
        "Kh Kh Qd Jc 9s",  # pair: the repeated card is in the rank that breaks the tie
        "9s 9s Ah Kd Qc",  # pair below its kickers (the Fantini kicker decides)
        "Ah Ah Kd Qc Js",  # the top card repeated: its carry leaves the set of cards
        "Kh Kd Qs Qs 9c",  # two pair, the lower pair repeated
        "Kh Kh Qs Qd 9c",  # two pair, the higher pair repeated
        "8h 8h 8c Ad Kc",  # three of a kind
        "8h 8d 8d Ac Ah",  # full house, the three repeated
        "8h 8d 8c Ac Ac",  # full house, the pair repeated
        "Ts Ts Tc Td Ah",  # four of a kind
        "7h 7h 8h 9h Th",  # suited
    ],
)
def test_duplicate_card_in_every_shape(text: str, tiebreak: str) -> None:
    for players in (4, 9):
        with pytest.raises(DuplicateCardError, match="more than once"):
            evaluate(parse_cards(text, unique=False), players=players, tiebreak=tiebreak)


def test_duplicate_reported_before_a_card_below_the_deck() -> None:
    with pytest.raises(DuplicateCardError):
        evaluate(parse_cards("6h 6h Ah Kd Qc", unique=False), players=4)


@pytest.mark.parametrize("tiebreak", ["standard", "fantini"])
def test_every_five_cards_with_repeats_are_rejected(tiebreak: str) -> None:
    """Every multiset of five cards of the 24-card deck with a repeated card, in two orders."""
    deck = ALL_CARDS[4 * (9 - 2) :]
    for hand in combinations_with_replacement(deck, 5):
        if len(set(hand)) == 5:
            continue
        for order in (hand, hand[::-1]):
            with pytest.raises(DuplicateCardError):
                evaluate(order, players=2, tiebreak=tiebreak)


@pytest.mark.parametrize("tiebreak", ["standard", "fantini"])
@pytest.mark.parametrize("text", ["Ah Kd Qc Js 9h", "7h 8h 9h Th Jh", "AhKdKc7s7d"])
def test_text_input(text: str, tiebreak: str) -> None:
    """``evaluate`` reads text too."""
    result = evaluate(text, players=4, tiebreak=tiebreak)
    assert result is ev(text, tiebreak=tiebreak)


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("Ah Kd Qc Js", HandSizeError),
        ("Ah Kd Qc", HandSizeError),
        ("AhKdQ", CardParseError),  # five characters, not five cards
        ("Ah Kd Qc Js Ah", DuplicateCardError),
        ("Ah Kd Qc Js 2h", CardNotInDeckError),
    ],
)
def test_bad_text_input(text: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        evaluate(text, players=4)


def test_any_sequence_and_order() -> None:
    hand = parse_cards("Jc Jd Ac Kd 9s")
    result = ev("Jc Jd Ac Kd 9s")
    assert evaluate(list(hand), players=4) is result
    assert evaluate(hand[::-1], players=4) is result
    assert evaluate(iter(hand), players=4) is result


def test_rank_weights_name_every_multiset_of_five_ranks() -> None:
    """The evaluator's key: the rank-weight sum of five cards tells their ranks apart."""
    sums: dict[int, tuple[Rank, ...]] = {}
    for ranks in combinations_with_replacement(Rank, 5):
        if max(Counter(ranks).values()) > 4:
            continue
        weight = sum(RANK_WEIGHTS[rank - 2] for rank in ranks)
        assert weight not in sums, (ranks, sums.get(weight))
        sums[weight] = ranks
    assert len(sums) == 6175
    assert max(sums) < 2**WEIGHT_BITS


def test_card_code_holds_the_rank_weight_and_the_card() -> None:
    hand = parse_cards("Ah Kd Qc Js 9h")
    total = sum(card.code for card in hand)
    assert total & (2**WEIGHT_BITS - 1) == sum(RANK_WEIGHTS[card.rank - 2] for card in hand)
    assert total >> WEIGHT_BITS == sum(card.bit for card in hand)
