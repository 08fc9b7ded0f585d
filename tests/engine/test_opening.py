"""The opening requirement, article 3.3: (a) jacks or better, (b) four to a straight flush."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from italian_poker import (
    Card,
    CardNotInDeckError,
    CardParseError,
    Deck,
    DuplicateCardError,
    HandSizeError,
    OpeningRequirement,
    PlayerCountError,
    Rank,
    RulesError,
    can_open,
    has_four_straight_flush,
    parse_cards,
)


def opens(text: str, players: int = 4, min_pair: str | Rank = "J") -> bool:
    return can_open(parse_cards(text), players=players, min_pair=min_pair)


# --- 3.3(a): a pair of jacks or any better combination ------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Jh Jc 7d 8s Ac",  # pair of jacks
        "Qh Qc 7d 8s Ac",
        "Kh Kc 7d 8s 9c",
        "Ah Ac 7d 8s 9c",
        "7h 7c 8d 8s Ac",  # two pair of any ranks
        "7h 7c 7d 8s Ac",  # three of a kind
        "7s 8d 9c Th Jd",  # straight
        "Ah 7d 8c 9s Th",  # ace-low straight
        "Ac Ad As Kc Kd",  # full house
        "Kh Qh 9h 8h 7h",  # flush
        "7c 7d 7h 7s Ac",  # four of a kind
        "Tc Jc Qc Kc Ac",  # straight flush
    ],
)
def test_3_3_a_jacks_or_better(text: str) -> None:
    """3.3(a): a pair of jacks or any better combination."""
    assert opens(text)


@pytest.mark.parametrize(
    "text",
    [
        "Th Tc 7d 8s Ac",  # pair of tens
        "7h 7c 9d Qs Ac",  # pair of sevens
        "Ah Kd Qc Js 9h",  # high card
        "Ah Kh Qh Jh 9c",  # four to a flush, not consecutive without the ace
    ],
)
def test_3_3_a_less_than_jacks_does_not_open(text: str) -> None:
    """3.3(a): a pair of tens is not enough."""
    assert not opens(text)


def test_3_3_a_two_pair_of_any_ranks_opens_even_when_kings_are_needed() -> None:
    """3.3(a) 'or any better combination': two small pairs beat a pair of kings."""
    assert opens("7h 7c 8d 8s 9c", min_pair="K")
    assert opens("7h 7c 7d 8s 9c", min_pair="A")


@pytest.mark.parametrize(
    ("pair", "min_pair", "expected"),
    [
        ("J", "J", True),
        ("J", "Q", False),
        ("Q", "Q", True),
        ("Q", "K", False),
        ("K", "K", True),
        ("A", "K", True),
        ("K", "A", False),
        ("A", "A", True),
        ("T", "J", False),
    ],
)
def test_3_3_a_minimum_pair(pair: str, min_pair: str, expected: bool) -> None:
    """3.3(a) and 3.5: jacks, then queens, then kings after passed deals."""
    text = f"{pair}h {pair}c 7d 8s 9c" if pair != "A" else "Ah Ac 7d 8s 9c"
    assert opens(text, min_pair=min_pair) is expected


@pytest.mark.parametrize("min_pair", ["q", Rank.QUEEN])
def test_min_pair_spellings(min_pair: str | Rank) -> None:
    assert not opens("Jh Jc 7d 8s 9c", min_pair=min_pair)
    assert opens("Qh Qc 7d 8s 9c", min_pair=min_pair)


@pytest.mark.parametrize("min_pair", ["10", "T", "x", "", Rank.TEN, Rank.TWO, 11, None, "JJ"])
def test_bad_min_pair_raises(min_pair: object) -> None:
    with pytest.raises(RulesError, match="J, Q, K or A") as info:
        opens("Jh Jc 7d 8s 9c", min_pair=min_pair)  # type: ignore[arg-type]
    assert isinstance(info.value, ValueError)


# --- 3.3(b): four consecutive cards of one suit, without the ace --------------------------


@pytest.mark.parametrize("fifth", ["Kc", "Ad", "7s", "Jc"])
def test_3_3_b_seven_to_ten_suited_with_four_players(fifth: str) -> None:
    """3.3(b): with 4 players 7-8-9-10 of hearts plus any card qualifies."""
    assert opens(f"7h 8h 9h Th {fifth}")


@pytest.mark.parametrize(
    ("text", "players"),
    [
        ("8h 9h Th Jh 7c", 4),
        ("Th Jh Qh Kh 7c", 4),  # K-Q-J-10, completed by the 9 or the ace
        ("9d Td Jd Qd Ac", 2),  # 2 players: completed by the low ace or the king
        ("2s 3s 4s 5s Kd", 9),  # 9 players: completed by the ace or the 6
        ("5c 6c 7c 8c Kd", 6),
        ("Jh 7h 8h 9h Th", 4),  # the fifth card in the same suit (a straight flush)
    ],
)
def test_3_3_b_four_to_a_straight_flush(text: str, players: int) -> None:
    """3.3(b): four consecutive cards of one suit in the deck's own order, without the ace."""
    assert opens(text, players)
    assert has_four_straight_flush(parse_cards(text))


@pytest.mark.parametrize(
    ("text", "players"),
    [
        ("Ah 7h 8h 9h Kc", 4),  # A-7-8-9 suited: contains the ace
        ("Jh Qh Kh Ah 8c", 4),  # J-Q-K-A suited: contains the ace
        ("7h 8h 9h Jh Kc", 4),  # gap: 7-8-9-J
        ("7h 8h 9h Tc Kc", 4),  # four consecutive, but not one suit
        ("7h 8h 9h 7c Kc", 4),  # only three suited
        ("Ah 2h 3h 4h Kc", 9),  # 9 players: A-2-3-4 contains the ace
    ],
)
def test_3_3_b_does_not_qualify(text: str, players: int) -> None:
    """3.3(b): not four consecutive suited cards without the ace (and no pair of jacks)."""
    assert not opens(text, players)
    assert not has_four_straight_flush(parse_cards(text))


def test_3_3_b_holds_whatever_the_pair_needed() -> None:
    """3.5: the four-card straight flush option is unchanged when the pair rises."""
    for min_pair in "JQKA":
        assert opens("7h 8h 9h Th Kc", min_pair=min_pair)


def test_3_3_b_can_be_switched_off() -> None:
    requirement = OpeningRequirement(four_straight_flush=False)
    assert not requirement.is_met(parse_cards("7h 8h 9h Th Kc"), players=4)
    assert requirement.is_met(parse_cards("Jh Jc 7d 8s 9c"), players=4)


# --- the requirement object ---------------------------------------------------------------


def test_opening_requirement_defaults() -> None:
    requirement = OpeningRequirement()
    assert requirement.min_pair is Rank.JACK
    assert requirement.four_straight_flush
    assert requirement.is_met(parse_cards("Jh Jc 7d 8s 9c"), players=4)


def test_opening_requirement_accepts_text() -> None:
    assert OpeningRequirement(min_pair="K").min_pair is Rank.KING  # type: ignore[arg-type]
    with pytest.raises(RulesError):
        OpeningRequirement(min_pair="9")  # type: ignore[arg-type]


def test_opening_requirement_descriptions() -> None:
    assert OpeningRequirement().describe() == "Jacks or better (or four to a straight flush)"
    assert OpeningRequirement(Rank.KING).describe("it") == (
        "coppia di Re o meglio (o 4/5 di scala reale)"
    )
    assert OpeningRequirement(Rank.QUEEN, four_straight_flush=False).describe() == (
        "Queens or better"
    )


# --- every hand, against a reference written from the rules text ---------------------------


def reference_can_open(cards: tuple[Card, ...], players: int, min_pair: Rank) -> bool:
    low = 11 - players
    ranks = [int(c.rank) for c in cards]
    counts = Counter(ranks)
    pairs = [r for r, n in counts.items() if n == 2]
    if max(counts.values()) >= 3 or len(pairs) == 2:
        return True  # three of a kind, full house, four of a kind, two pair
    if pairs and pairs[0] >= min_pair:
        return True
    if len({c.suit for c in cards}) == 1:
        return True  # flush or straight flush
    runs = [set(range(top - 4, top + 1)) for top in range(low + 4, 15)]
    runs.append({14, low, low + 1, low + 2, low + 3})
    if set(ranks) in runs:
        return True  # straight
    held = {(int(c.rank), c.suit) for c in cards}
    return any(
        all((r, suit) in held for r in range(start, start + 4))
        for suit in {c.suit for c in cards}
        for start in range(low, 11)  # the run of four ends at the king at most: no ace
    )


@pytest.mark.parametrize(("players", "min_pair"), [(2, Rank.JACK), (3, Rank.KING), (4, Rank.JACK)])
def test_every_hand_against_the_reference(players: int, min_pair: Rank) -> None:
    """3.3(a) and 3.3(b) for every five-card hand of the deck."""
    for hand in combinations(Deck(players).cards, 5):
        assert can_open(hand, players=players, min_pair=min_pair) is reference_can_open(
            hand, players, min_pair
        ), hand


# --- errors -------------------------------------------------------------------------------


def test_card_below_the_deck_raises() -> None:
    with pytest.raises(CardNotInDeckError):
        opens("6h 7h 8h 9h Kc", players=4)


def test_wrong_hand_size_raises() -> None:
    with pytest.raises(HandSizeError):
        opens("7h 8h 9h Th")


def test_duplicate_cards_raise() -> None:
    with pytest.raises(DuplicateCardError):
        can_open(parse_cards("Jh Jh 7d 8s 9c", unique=False), players=4)


@pytest.mark.parametrize("players", [1, 10])
def test_bad_player_count_raises(players: int) -> None:
    with pytest.raises(PlayerCountError):
        opens("Jh Jc 7d 8s 9c", players=players)


# --- card inputs (see also test_hand_rank_inputs.py) ---------------------------------------


def test_can_open_reads_text_as_evaluate_does() -> None:
    """Issue: ``can_open("Jh Jd 7c 8s 9h", players=4)`` raised ``AttributeError: 'str' object
    has no attribute 'bit'`` once 3.3(a) was not met and 3.3(b) had to look at the cards."""
    assert can_open("Jh Jd 7c 8s 9h", players=4)
    assert not can_open("Jh Jd 7c 8s 9h", players=4, min_pair="Q")
    assert can_open("7c 8c 9c Tc Kh", players=4, min_pair="K")  # 3.3(b)


def test_can_open_reads_a_generator_once() -> None:
    """A generator was used up by the evaluation: 3.3(b) then saw no cards and said no."""
    assert can_open((c for c in parse_cards("7c 8c 9c Tc Kh")), players=4)
    assert OpeningRequirement().is_met(iter(parse_cards("7c 8c 9c Tc Kh")), players=4)


def test_has_four_straight_flush_takes_a_hand_of_five() -> None:
    """3.3(b) is a property of the hand dealt: four or six cards are refused, as by
    evaluate (kept cards at the draw go to kept_proves)."""
    assert has_four_straight_flush("7c 8c 9c Tc Kh")
    with pytest.raises(HandSizeError, match="five cards, got 4"):
        has_four_straight_flush("7c 8c 9c Tc")
    with pytest.raises(DuplicateCardError):
        has_four_straight_flush("7c 8c 9c Tc 7c")


@pytest.mark.parametrize(
    "kept",
    [
        "9h Th Jh Qh",
        ["9h", "Th", "Jh", "Qh"],
        (c for c in parse_cards("9h Th Jh Qh")),
        list(parse_cards("9h Th Jh Qh")),
    ],
)
def test_kept_proves_reads_any_card_form(kept: object) -> None:
    """4.4: four to a straight flush kept (3.3(b)) still prove the opening."""
    assert OpeningRequirement().kept_proves(kept)  # type: ignore[arg-type]


def test_kept_proves_refuses_bad_cards() -> None:
    requirement = OpeningRequirement()
    assert not requirement.kept_proves([])
    assert requirement.kept_proves("Jh Jd")
    assert not requirement.kept_proves(["Jh"])
    with pytest.raises(HandSizeError, match="keeps at most five cards, got 6"):
        requirement.kept_proves("Jh Jd 7c 8s 9h Th")
    with pytest.raises(DuplicateCardError, match="card Jh appears more than once"):
        requirement.kept_proves(list(parse_cards("Jh Jh", unique=False)))
    with pytest.raises(CardParseError, match="cannot read 3 as a card"):
        requirement.kept_proves([3])
