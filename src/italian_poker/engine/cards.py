"""Cards, ranks and suits (RULES.md section 1, article 7.4 for the suit order)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum

from italian_poker.engine.errors import CardParseError, DuplicateCardError
from italian_poker.engine.vocabulary import RANK_FIGURES, RANK_PLURALS, SUIT_NAMES


class Suit(IntEnum):
    """A suit; the value orders suits for tie-breaks: hearts > diamonds > clubs > spades (7.4).

    Italian mnemonic: *Come Quando Fuori Piove* (cuori, quadri, fiori, picche).
    """

    SPADES = 0
    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3

    @property
    def letter(self) -> str:
        """One-letter code: ``s``, ``c``, ``d`` or ``h``."""
        return _SUIT_LETTERS[self]

    @property
    def symbol(self) -> str:
        """Unicode suit symbol: ♠ ♣ ♦ ♥."""
        return _SUIT_SYMBOLS[self]

    @property
    def italian(self) -> str:
        """Italian name: picche, fiori, quadri, cuori."""
        return SUIT_NAMES[_SUIT_LETTERS[self]][1]


_SUIT_LETTERS = {Suit.SPADES: "s", Suit.CLUBS: "c", Suit.DIAMONDS: "d", Suit.HEARTS: "h"}
_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥"}


class Rank(IntEnum):
    """A card rank, valued 2 to 14 (the ace is high; it may also count low in straights, 6)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def letter(self) -> str:
        """One-character code: ``2``-``9``, ``T``, ``J``, ``Q``, ``K``, ``A``."""
        return "23456789TJQKA"[self - 2]

    @property
    def label(self) -> str:
        """Label as printed on a card: ``2``-``10``, ``J``, ``Q``, ``K``, ``A``."""
        return "10" if self is Rank.TEN else self.letter

    @property
    def english(self) -> str:
        """English name, plural (``Jacks``)."""
        return RANK_PLURALS[self.letter][0]

    @property
    def italian(self) -> str:
        """Italian name as used at the table (``Jack``, ``Donna``, ``Re``, ``Asso``)."""
        return RANK_FIGURES[self.letter][1]


RANK_WEIGHTS = (79_415, 43_258, 19_998, 12_522, 5_624, 2_422, 992, 312, 94, 22, 5, 1, 0)
"""A weight per rank, 2 to ace, such that five ranks (each at most four times) add up to a sum
no other five ranks make: the sum names the multiset of ranks. Chosen greedily from the ace
down, each the smallest that keeps the sums apart, so the smaller decks (which keep the higher
ranks) have small sums and small evaluation tables."""

WEIGHT_BITS = 19
"""Bits that hold a sum of five rank weights (at most ``5 * 79_415 < 2**19``) in ``Card.code``."""


@dataclass(frozen=True, slots=True)
class Card:
    """A playing card.

    ``index`` numbers the 52 cards 0..51 as ``4 * (rank - 2) + suit``; the batch evaluator and
    hand histories use it. ``bit`` is ``1 << index``. ``code`` is the evaluator's key,
    ``RANK_WEIGHTS[rank - 2] | bit << WEIGHT_BITS``: the sum of five cards' codes holds, in its
    low :data:`WEIGHT_BITS` bits, the sum of their rank weights, which names the multiset of
    ranks, and, above them, the set of cards (five bits set unless a card repeats).
    """

    rank: Rank
    suit: Suit
    index: int = field(init=False, repr=False, compare=False)
    bit: int = field(init=False, repr=False, compare=False)
    code: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.rank, Rank) or not isinstance(self.suit, Suit):
            raise TypeError(f"Card needs a Rank and a Suit, got {self.rank!r}, {self.suit!r}")
        index = 4 * (self.rank - 2) + self.suit
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "bit", 1 << index)
        object.__setattr__(self, "code", RANK_WEIGHTS[self.rank - 2] | (1 << index) << WEIGHT_BITS)

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card numbered ``index`` (0..51)."""
        if not 0 <= index < 52:
            raise ValueError(f"card index must be 0..51, got {index}")
        return ALL_CARDS[index]

    def __str__(self) -> str:
        return self.rank.letter + self.suit.letter

    @property
    def symbol(self) -> str:
        """The card with its suit symbol, e.g. ``10♥``."""
        return self.rank.label + self.suit.symbol


ALL_CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for rank in Rank for suit in Suit)
"""The 52 cards in index order (2s, 2c, 2d, 2h, 3s, ..., Ah)."""

_RANK_BY_TEXT = {r.letter.lower(): r for r in Rank} | {"10": Rank.TEN}
_SUIT_BY_TEXT = {s.letter: s for s in Suit} | {
    "♠": Suit.SPADES,
    "♤": Suit.SPADES,
    "♣": Suit.CLUBS,
    "♧": Suit.CLUBS,
    "♦": Suit.DIAMONDS,
    "♢": Suit.DIAMONDS,
    "♥": Suit.HEARTS,
    "♡": Suit.HEARTS,
}
_CARD_PATTERN = re.compile(r"(10|[2-9tjqka])([hdcs♠♤♣♧♦♢♥♡])", re.IGNORECASE)
_SEPARATORS = re.compile(r"[\s,;]*")


def parse_card(text: str) -> Card:
    """Parse one card such as ``Ah``, ``10d``, ``td`` or ``Q♠``."""
    cards = parse_cards(text)
    if len(cards) != 1:
        raise CardParseError(f"expected one card, got {len(cards)} in {text!r}")
    return cards[0]


def parse_cards(text: str, *, unique: bool = True) -> tuple[Card, ...]:
    """Parse cards such as ``"Ah Td 10c 7c 9s"`` (``Td`` and ``10d`` are the same card).

    Ranks 2-9, T or 10, J, Q, K, A; suits h d c s or ♥ ♦ ♣ ♠, in any case, separated by
    spaces, commas or nothing. Raises :class:`CardParseError` on anything else and, when
    ``unique`` (the default), :class:`DuplicateCardError` if a card appears twice.
    """
    if not isinstance(text, str):
        raise CardParseError(f"cards must be given as text, got {type(text).__name__}")
    cards: list[Card] = []
    position = _SEPARATORS.match(text, 0)
    pos = position.end() if position else 0
    while pos < len(text):
        match = _CARD_PATTERN.match(text, pos)
        if match is None:
            bad = text[pos:].split()[0] if text[pos:].split() else text[pos:]
            raise CardParseError(
                f"cannot read card {bad!r} in {text!r}: write a rank (2-9, T or 10, J, Q, K, A) "
                "followed by a suit (h, d, c, s or ♥ ♦ ♣ ♠), e.g. 'Ah 10d 7c'"
            )
        rank = _RANK_BY_TEXT[match.group(1).lower()]
        suit = _SUIT_BY_TEXT[match.group(2).lower()]
        cards.append(ALL_CARDS[4 * (rank - 2) + suit])
        sep = _SEPARATORS.match(text, match.end())
        pos = sep.end() if sep else match.end()
    if unique:
        ensure_distinct(cards)
    return tuple(cards)


def read_cards(cards: str | Iterable[Card | str]) -> tuple[Card, ...]:
    """Cards given as text (``"Ah 10d 7c"``, read by :func:`parse_cards`) or as an iterable of
    :class:`Card` objects and one-card texts (``["Ah", "10d", card]``), in their order.

    Neither the count nor repeats are checked here (see
    :func:`~italian_poker.engine.hand_rank.read_hand` for a hand). Raises
    :class:`CardParseError` for unreadable text, an item that is not one card, or something
    that is neither text nor an iterable.
    """
    if isinstance(cards, str):
        return parse_cards(cards, unique=False)
    if isinstance(cards, bytes | bytearray):
        raise CardParseError(f"cards are Card objects or text, got {type(cards).__name__}")
    try:
        items = tuple(cards)
    except TypeError:
        raise CardParseError(
            f"cards are Card objects or text, got {type(cards).__name__}"
        ) from None
    return tuple([item if item.__class__ is Card else _one_card(item) for item in items])


def _one_card(item: object) -> Card:
    """One item of an iterable of cards: a :class:`Card` or the text of one card."""
    if isinstance(item, Card):
        return item
    if isinstance(item, str):
        return parse_card(item)
    raise CardParseError(f"cannot read {item!r} as a card: give a Card or text such as 'Ah'")


def ensure_distinct(cards: Iterable[Card]) -> None:
    """Raise :class:`DuplicateCardError` if any card appears more than once."""
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise DuplicateCardError(f"card {card} appears more than once")
        seen.add(card)


def format_cards(cards: Sequence[Card], *, symbols: bool = False) -> str:
    """Cards separated by spaces: ``"Ah Td 7c"``, or ``"A♥ 10♦ 7♣"`` with ``symbols``."""
    return " ".join(card.symbol if symbols else str(card) for card in cards)
