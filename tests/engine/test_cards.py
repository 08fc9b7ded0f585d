"""Cards, ranks and suits: parsing, formatting, suit order (RULES.md section 1, article 7.4)."""

from __future__ import annotations

import pytest

from italian_poker import (
    ALL_CARDS,
    Card,
    CardError,
    CardParseError,
    DuplicateCardError,
    ItalianPokerError,
    Rank,
    Suit,
    format_cards,
    parse_card,
    parse_cards,
)

AH = Card(Rank.ACE, Suit.HEARTS)
TD = Card(Rank.TEN, Suit.DIAMONDS)
TC = Card(Rank.TEN, Suit.CLUBS)
SEVEN_C = Card(Rank.SEVEN, Suit.CLUBS)
NINE_S = Card(Rank.NINE, Suit.SPADES)


# --- parsing ------------------------------------------------------------------------------


def test_parse_cards_reads_the_example_from_the_issue() -> None:
    """ "Ah Td 10d 7c 9s" spells both ways of writing a ten; Td and 10d are the same card."""
    assert parse_cards("Ah Td 10d 7c 9s", unique=False) == (AH, TD, TD, SEVEN_C, NINE_S)
    with pytest.raises(DuplicateCardError):
        parse_cards("Ah Td 10d 7c 9s")


def test_parse_cards_reads_five_distinct_cards() -> None:
    assert parse_cards("Ah Td 10c 7c 9s") == (AH, TD, TC, SEVEN_C, NINE_S)


@pytest.mark.parametrize(
    ("text", "rank"),
    [
        ("2", Rank.TWO),
        ("3", Rank.THREE),
        ("4", Rank.FOUR),
        ("5", Rank.FIVE),
        ("6", Rank.SIX),
        ("7", Rank.SEVEN),
        ("8", Rank.EIGHT),
        ("9", Rank.NINE),
        ("T", Rank.TEN),
        ("t", Rank.TEN),
        ("10", Rank.TEN),
        ("J", Rank.JACK),
        ("j", Rank.JACK),
        ("Q", Rank.QUEEN),
        ("q", Rank.QUEEN),
        ("K", Rank.KING),
        ("k", Rank.KING),
        ("A", Rank.ACE),
        ("a", Rank.ACE),
    ],
)
def test_every_rank_spelling(text: str, rank: Rank) -> None:
    assert parse_card(text + "s") == Card(rank, Suit.SPADES)


@pytest.mark.parametrize(
    ("text", "suit"),
    [
        ("h", Suit.HEARTS),
        ("H", Suit.HEARTS),
        ("♥", Suit.HEARTS),
        ("♡", Suit.HEARTS),
        ("d", Suit.DIAMONDS),
        ("D", Suit.DIAMONDS),
        ("♦", Suit.DIAMONDS),
        ("♢", Suit.DIAMONDS),
        ("c", Suit.CLUBS),
        ("C", Suit.CLUBS),
        ("♣", Suit.CLUBS),
        ("♧", Suit.CLUBS),
        ("s", Suit.SPADES),
        ("S", Suit.SPADES),
        ("♠", Suit.SPADES),
        ("♤", Suit.SPADES),
    ],
)
def test_every_suit_spelling(text: str, suit: Suit) -> None:
    assert parse_card("Q" + text) == Card(Rank.QUEEN, suit)


@pytest.mark.parametrize(
    "text",
    [
        "Ah Td 10c 7c 9s",
        "AH TD 10C 7C 9S",
        "ah td 10c 7c 9s",
        "A♥ T♦ 10♣ 7♣ 9♠",
        "AhTd10c7c9s",
        "Ah,Td,10c,7c,9s",
        "Ah, Td; 10c  7c\t9s",
        "  Ah Td 10c 7c 9s\n",
    ],
)
def test_case_symbols_and_separators(text: str) -> None:
    assert parse_cards(text) == (AH, TD, TC, SEVEN_C, NINE_S)


def test_parse_returns_the_canonical_card_objects() -> None:
    for card in parse_cards("2s 7c Td Qh Ah"):
        assert card is ALL_CARDS[card.index]


def test_empty_text_is_no_cards() -> None:
    assert parse_cards("") == ()
    assert parse_cards("   ") == ()


@pytest.mark.parametrize(
    "text",
    [
        "Xh",  # unknown rank
        "1h",  # no rank 1
        "11h",  # no rank 11
        "0h",
        "Ah Kx",  # unknown suit
        "A",  # rank without a suit
        "h",  # suit without a rank
        "Ahh",  # trailing junk
        "Ah-Kd",  # unsupported separator
        "A h",  # rank and suit split
        "Ah Kh Qh Jh 10h 9",
        "100h",
        "joker",
    ],
)
def test_unreadable_text_raises_card_parse_error(text: str) -> None:
    with pytest.raises(CardParseError) as info:
        parse_cards(text)
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, CardError)
    assert isinstance(info.value, ItalianPokerError)
    assert "cannot read card" in str(info.value)


def test_parse_error_names_the_bad_token() -> None:
    with pytest.raises(CardParseError, match="'Xq'"):
        parse_cards("Ah Kh Xq Jh Th")


@pytest.mark.parametrize("value", [None, 5, ["Ah"], b"Ah"])
def test_non_text_raises_card_parse_error(value: object) -> None:
    with pytest.raises(CardParseError):
        parse_cards(value)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["Ah ah", "Td 10d", "A♥ Ah", "2s 3s 2S"])
def test_duplicates_raise_duplicate_card_error(text: str) -> None:
    with pytest.raises(DuplicateCardError) as info:
        parse_cards(text)
    assert isinstance(info.value, ValueError)
    assert "more than once" in str(info.value)


def test_duplicates_allowed_when_not_unique() -> None:
    assert parse_cards("Ah ah", unique=False) == (AH, AH)


@pytest.mark.parametrize("text", ["", "Ah Kh", "Zz"])
def test_parse_card_needs_exactly_one_card(text: str) -> None:
    with pytest.raises(CardParseError):
        parse_card(text)


# --- suits and ranks ----------------------------------------------------------------------


def test_suit_order_hearts_diamonds_clubs_spades() -> None:
    """7.4: hearts (highest), diamonds, clubs, spades (lowest)."""
    assert Suit.HEARTS > Suit.DIAMONDS > Suit.CLUBS > Suit.SPADES
    assert sorted(Suit, reverse=True) == [Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES]


def test_italian_suit_names_spell_come_quando_fuori_piove() -> None:
    """002: cuori, quadri, fiori, picche, highest first ('Come Quando Fuori Piove')."""
    names = [suit.italian for suit in sorted(Suit, reverse=True)]
    assert names == ["cuori", "quadri", "fiori", "picche"]
    assert "".join(name[0] for name in names) == "cqfp"


def test_suit_letters_and_symbols() -> None:
    assert [s.letter for s in Suit] == ["s", "c", "d", "h"]
    assert [s.symbol for s in Suit] == ["♠", "♣", "♦", "♥"]


def test_rank_letters_labels_and_names() -> None:
    assert "".join(r.letter for r in Rank) == "23456789TJQKA"
    assert [r.label for r in Rank][8] == "10"
    assert Rank.TEN.letter == "T"
    assert Rank.ACE == 14 and Rank.TWO == 2
    assert Rank.JACK.english == "Jacks"
    assert [Rank.JACK.italian, Rank.QUEEN.italian, Rank.KING.italian, Rank.ACE.italian] == [
        "Jack",
        "Donna",
        "Re",
        "Asso",
    ]


# --- cards --------------------------------------------------------------------------------


def test_all_cards_are_52_distinct_in_index_order() -> None:
    assert len(ALL_CARDS) == 52
    assert len(set(ALL_CARDS)) == 52
    for i, card in enumerate(ALL_CARDS):
        assert card.index == i == 4 * (card.rank - 2) + card.suit
        assert card.bit == 1 << i
        assert Card.from_index(i) is card
    assert str(ALL_CARDS[0]) == "2s"
    assert str(ALL_CARDS[-1]) == "Ah"


@pytest.mark.parametrize("index", [-1, 52, 100])
def test_from_index_out_of_range(index: int) -> None:
    with pytest.raises(ValueError):
        Card.from_index(index)


def test_card_needs_rank_and_suit_enums() -> None:
    with pytest.raises(TypeError):
        Card("A", "h")  # type: ignore[arg-type]


def test_cards_compare_by_rank_and_suit() -> None:
    assert Card(Rank.ACE, Suit.HEARTS) == parse_card("Ah")
    assert hash(Card(Rank.ACE, Suit.HEARTS)) == hash(parse_card("A♥"))
    assert Card(Rank.ACE, Suit.HEARTS) != Card(Rank.ACE, Suit.DIAMONDS)


def test_str_and_symbol() -> None:
    assert str(parse_card("10h")) == "Th"
    assert parse_card("Th").symbol == "10♥"
    assert parse_card("qs").symbol == "Q♠"


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_str_and_symbol_round_trip(card: Card) -> None:
    assert parse_card(str(card)) is card
    assert parse_card(card.symbol) is card
    assert parse_card(str(card).lower()) is card
    assert parse_card(str(card).upper()) is card


def test_format_cards_round_trips() -> None:
    cards = parse_cards("Ah Td 10c 7c 9s")
    assert format_cards(cards) == "Ah Td Tc 7c 9s"
    assert format_cards(cards, symbols=True) == "A♥ 10♦ 10♣ 7♣ 9♠"
    assert parse_cards(format_cards(cards)) == cards
    assert parse_cards(format_cards(cards, symbols=True)) == cards
    assert parse_cards(format_cards(ALL_CARDS)) == ALL_CARDS
    assert parse_cards(format_cards(ALL_CARDS, symbols=True)) == ALL_CARDS
    assert format_cards([]) == ""
