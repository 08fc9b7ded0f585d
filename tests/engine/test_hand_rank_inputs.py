"""Every public function that takes a hand reads the same card inputs and refuses the same bad
ones with the same error (one helper, ``read_hand``, does the reading).

Accepted: text (``"Jh Jd 7c 8s 9h"``), or any iterable (list, tuple, generator, iterator) of
:class:`Card` objects and/or one-card texts. Refused: anything else, a count other than five,
a repeated card and, where the function knows the deck (``players``), a card below the deck's
lowest rank (section 1). Hands that ``winners`` ranks for a pot cannot share a card.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import pytest

from italian_poker import (
    Card,
    CardError,
    CardNotInDeckError,
    CardParseError,
    DuplicateCardError,
    HandSizeError,
    OpeningRequirement,
    PlayerCountError,
    can_open,
    compare,
    evaluate,
    has_four_straight_flush,
    opening_combination,
    parse_cards,
    winners,
)
from italian_poker.engine.hand_rank import read_hand

OTHER = "Ac Ad Kc Kd Qc"
"""A hand that shares no card with any hand below (the other hand of compare and winners)."""

Ranking = Callable[[Any], object]

# Every public function that takes a hand, with players=4 (a 32-card deck, 7 to ace) where it
# needs a deck. compare and winners get the hand under test next to OTHER; their errors name
# the hand at fault, counting from 1.
FUNCTIONS: dict[str, Ranking] = {
    "evaluate": lambda cards: evaluate(cards, players=4),
    "evaluate fantini": lambda cards: evaluate(cards, players=4, tiebreak="fantini"),
    "compare first": lambda cards: compare(cards, OTHER, players=4),
    "compare second": lambda cards: compare(OTHER, cards, players=4),
    "winners": lambda cards: winners([OTHER, cards], players=4),
    "can_open": lambda cards: can_open(cards, players=4),
    "is_met": lambda cards: OpeningRequirement().is_met(cards, players=4),
    "opening_combination": lambda cards: opening_combination(
        cards, OpeningRequirement(), players=4
    ),
    "has_four_straight_flush": has_four_straight_flush,
    "read_hand": lambda cards: read_hand(cards, players=4),
}
PREFIX = {"compare first": "hand 1: ", "compare second": "hand 2: ", "winners": "hand 2: "}
KNOWS_THE_DECK = set(FUNCTIONS) - {"has_four_straight_flush"}

# 3.3(a) a pair of jacks (the example); 3.3(b) alone: four to a straight flush, 7-8-9-10 of
# clubs with a king; a hand that does not open.
HANDS = ["Jh Jd 7c 8s 9h", "7c 8c 9c Tc Kh", "Ah Ks Qs 9h 7d"]


def forms(text: str) -> dict[str, Callable[[], Iterable[Card | str] | str]]:
    """The same hand in every accepted form; each call makes a fresh (one-shot) input."""
    cards = parse_cards(text)
    words = text.split()
    return {
        "text": lambda: text,
        "text without spaces": lambda: text.replace(" ", ""),
        "tuple of cards": lambda: cards,
        "list of cards": lambda: list(cards),
        "generator of cards": lambda: (card for card in cards),
        "iterator of cards": lambda: iter(list(cards)),
        "list of texts": lambda: list(words),
        "tuple of texts": lambda: tuple(words),
        "generator of texts": lambda: (word for word in words),
        "mixed list": lambda: [cards[0], words[1], cards[2], words[3], cards[4]],
    }


@pytest.mark.parametrize("name", list(FUNCTIONS))
@pytest.mark.parametrize("text", HANDS)
def test_every_public_ranking_function_accepts_every_card_form(name: str, text: str) -> None:
    """Issue: ``can_open("Jh Jd 7c 8s 9h", players=4)`` raised AttributeError while evaluate
    read the same text; a generator was consumed by the evaluation and 3.3(b) then saw no
    cards. Every form gives what the tuple of cards gives."""
    function = FUNCTIONS[name]
    expected = function(parse_cards(text))
    for form, make in forms(text).items():
        assert function(make()) == expected, form


def test_the_forms_do_not_change_the_answers() -> None:
    """What the functions answer for the hands above, read from text (3.3(a), 3.3(b))."""
    jacks, draw, nothing = HANDS
    assert can_open(jacks, players=4)
    assert can_open((c for c in parse_cards(draw)), players=4)  # 3.3(b), read once
    assert not can_open(nothing.split(), players=4)
    assert has_four_straight_flush(iter(draw.split()))
    proof = opening_combination((c for c in parse_cards(draw)), OpeningRequirement(), players=4)
    assert proof == parse_cards("7c 8c 9c Tc")
    assert opening_combination(jacks, OpeningRequirement(), players=4) == parse_cards("Jh Jd")
    assert read_hand(jacks.split(), players=4) == parse_cards(jacks)


def _bad_inputs() -> dict[str, tuple[Callable[[], object], type[CardError], str]]:
    """Refused inputs: a fresh input each call, the error type and the exact message."""
    jacks = parse_cards("Jh Jd 7c 8s 9h")
    six = (*jacks, parse_cards("Ts")[0])
    repeated = (*jacks[:4], jacks[0])
    not_five = "a hand has exactly five cards, got {}"
    not_cards = "a hand is five cards (Card objects, or text such as 'Ah Kd 7c 7s 2h'), got {}"
    return {
        "None": (lambda: None, HandSizeError, not_cards.format("NoneType")),
        "a number": (lambda: 5, HandSizeError, not_cards.format("int")),
        "one card": (lambda: jacks[0], HandSizeError, not_cards.format("Card")),
        "bytes": (lambda: b"Jh Jd 7c 8s 9h", HandSizeError, not_cards.format("bytes")),
        "four cards as text": (lambda: "Jh Jd 7c 8s", HandSizeError, not_five.format(4)),
        "no cards": (lambda: "", HandSizeError, not_five.format(0)),
        "four cards": (lambda: jacks[:4], HandSizeError, not_five.format(4)),
        "six cards": (lambda: list(six), HandSizeError, not_five.format(6)),
        "a generator of four": (lambda: (c for c in jacks[:4]), HandSizeError, not_five.format(4)),
        "a generator of six": (lambda: (c for c in six), HandSizeError, not_five.format(6)),
        "an iterator of seven": (
            lambda: iter([*six, "Qs"]),
            HandSizeError,
            not_five.format(7),
        ),
        "no cards in a list": (lambda: [], HandSizeError, not_five.format(0)),
        "numbers": (
            lambda: [1, 2, 3, 4, 5],
            CardParseError,
            "cannot read 1 as a card: give a Card or text such as 'Ah'",
        ),
        "a None among cards": (
            lambda: [*jacks[:4], None],
            CardParseError,
            "cannot read None as a card: give a Card or text such as 'Ah'",
        ),
        "two cards in one text": (
            lambda: ["Jh Jd", "7c", "8s", "9h", "Ts"],
            CardParseError,
            "expected one card, got 2 in 'Jh Jd'",
        ),
        "unreadable text": (
            lambda: "Jh Jd 7c 8s Xx",
            CardParseError,
            "cannot read card 'Xx' in 'Jh Jd 7c 8s Xx': write a rank (2-9, T or 10, J, Q, K, "
            "A) followed by a suit (h, d, c, s or ♥ ♦ ♣ ♠), e.g. 'Ah 10d 7c'",
        ),
        "repeated card as text": (
            lambda: "Jh Jd 7c 8s Jh",
            DuplicateCardError,
            "card Jh appears more than once",
        ),
        "repeated card": (lambda: repeated, DuplicateCardError, "card Jh appears more than once"),
        "repeated card in a generator": (
            lambda: (c for c in repeated),
            DuplicateCardError,
            "card Jh appears more than once",
        ),
        "repeated text in a list": (
            lambda: ["Jh", "Jd", "7c", "8s", "jh"],
            DuplicateCardError,
            "card Jh appears more than once",
        ),
    }


BAD = _bad_inputs()


@pytest.mark.parametrize("name", list(FUNCTIONS))
@pytest.mark.parametrize("case", list(BAD))
def test_every_public_ranking_function_refuses_bad_cards_alike(name: str, case: str) -> None:
    make, error, message = BAD[case]
    with pytest.raises(error) as info:
        FUNCTIONS[name](make())
    assert str(info.value) == PREFIX.get(name, "") + message
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("name", sorted(KNOWS_THE_DECK))
def test_every_function_with_a_deck_refuses_a_card_below_it(name: str) -> None:
    """Section 1: with four players the deck is 7 to ace, so the 2 of clubs is not in it."""
    message = "2c is not in the 32-card deck for 4 players (lowest rank 7)"
    cards = parse_cards("Jh Jd 2c 8s 9h")
    inputs: list[object] = [" ".join(map(str, cards)), [str(c) for c in cards], iter(cards)]
    for cards_input in inputs:
        with pytest.raises(CardNotInDeckError) as info:
            FUNCTIONS[name](cards_input)
        assert str(info.value) == PREFIX.get(name, "") + message


@pytest.mark.parametrize(
    "function",
    [
        lambda cards, players: evaluate(cards, players=players),
        lambda cards, players: compare(cards, OTHER, players=players),
        lambda cards, players: winners([cards], players=players),
        lambda cards, players: can_open(cards, players=players),
        lambda cards, players: OpeningRequirement().is_met(cards, players=players),
        lambda cards, players: opening_combination(cards, OpeningRequirement(), players=players),
        lambda cards, players: read_hand(cards, players=players),
    ],
)
@pytest.mark.parametrize(
    ("players", "message"),
    [
        (10, "Italian Poker is for 2 to 9 players, got 10"),
        (1, "Italian Poker is for 2 to 9 players, got 1"),
        (4.0, "the number of players must be a whole number, got 4.0"),
        ("4", "the number of players must be a whole number, got '4'"),
    ],
)
@pytest.mark.parametrize("cards", ["Jh Jd 7c 8s 9h", None])
def test_a_bad_player_count_is_refused_first_and_alike(
    function: Callable[[object, object], object], players: object, message: str, cards: object
) -> None:
    """The number of players is checked before the cards, by every function alike."""
    with pytest.raises(PlayerCountError) as info:
        function(cards, players)
    assert str(info.value) == message


# --- a card in two hands --------------------------------------------------------------------


def test_winners_refuses_a_card_in_two_hands() -> None:
    """Issue: hands that share a card are not hands of one deck; they were ranked as a split."""
    royal = "Ah Kh Qh Jh Th"
    with pytest.raises(DuplicateCardError) as info:
        winners([royal, royal], players=4)
    assert str(info.value) == "card Ah is in hands 1 and 2: a card can be in only one hand"
    with pytest.raises(DuplicateCardError, match="card Kh is in hands 1 and 3"):
        winners(["Kh 7c 8c 9d Js", OTHER, "Ah Kh Qh Jh Th"], players=4)
    with pytest.raises(DuplicateCardError, match="card Qh is in hands 2 and 3"):
        winners(
            (iter(parse_cards(h)) for h in (OTHER, "Qh 7c 8c 9d Js", "Ah Kh Qh Jh Th")),
            players=4,
        )


def test_compare_ranks_hypothetical_hands_that_share_cards() -> None:
    """compare ranks two hands as hands (rule examples compare hands that share cards);
    deciding a pot is winners' job, and it refuses them."""
    assert compare("Ah Kd Qc Js 9h", ["9h", "Js", "Qc", "Kd", "Ah"], players=4) == 0
    assert compare("8c 8d 8h 8s 7c", iter(parse_cards("7d 7h 7s 7c Ac")), players=4) > 0
    with pytest.raises(DuplicateCardError, match="card 9h is in hands 1 and 2"):
        winners(["Ah Kd Qc Js 9h", "9h Js Qc Kd Ah"], players=4)


def test_hands_of_one_deck_are_still_ranked() -> None:
    """7.2, 7.3: the cycle and the three-way split, with hands given in any form."""
    minimum, medium, maximum = "Ah 7h 8h 9h Th", "8d 9d Td Jd Qd", "Ac Kc Qc Jc Tc"
    assert winners([minimum, medium.split(), parse_cards(maximum)], players=4) == [0, 1, 2]
    assert compare(minimum, iter(parse_cards(maximum)), players=4) > 0
    assert winners(iter([maximum, medium]), players=4) == [0]


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        ("Ah Kh Qh Jh Th", "hands are given as a list of hands, not one text"),
        (None, "hands are given as an iterable of hands, got NoneType"),
        (5, "hands are given as an iterable of hands, got int"),
    ],
)
def test_winners_needs_a_list_of_hands(hands: object, message: str) -> None:
    with pytest.raises(CardError) as info:
        winners(hands, players=4)  # type: ignore[arg-type]
    assert str(info.value) == message


def test_winners_checks_the_tiebreak_before_the_cards() -> None:
    """As evaluate does: players, then the tie-break rule, then the cards."""
    with pytest.raises(ValueError, match="'standard' or 'fantini'"):
        winners([None], players=4, tiebreak="bogus")
    with pytest.raises(ValueError, match="'standard' or 'fantini'"):
        compare(None, None, players=4, tiebreak="bogus")  # type: ignore[arg-type]
