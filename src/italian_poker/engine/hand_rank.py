"""Hand ranking (articles 6 to 7.4): categories, straight-flush classes and suit tie-breaks.

Every five-card hand evaluates to a :class:`HandRank` whose ``value`` orders hands linearly:
category first (flush above full house, 6), then the ranks that matter, then the suit that
breaks ties (7.4, or the Fantini/Santelia reading). The one exception to that linear order is
the cyclic straight flush of 7.1-7.2, *la minima batte la massima*, which :func:`compare` and
:func:`winners` apply on top of ``value``.

Evaluation is a lookup in tables built once per deck size and tie-break rule (under half a
second for the 52-card deck): the rank multiset selects an entry, the suits select the
interned result.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum, StrEnum
from itertools import combinations_with_replacement
from typing import Any, NoReturn

from italian_poker.engine.cards import (
    RANK_WEIGHTS,
    WEIGHT_BITS,
    Card,
    Rank,
    Suit,
    ensure_distinct,
    parse_cards,
    read_cards,
)
from italian_poker.engine.deck import MAX_PLAYERS, check_players, stripped_deck
from italian_poker.engine.errors import (
    CardError,
    CardNotInDeckError,
    DuplicateCardError,
    HandSizeError,
)
from italian_poker.engine.vocabulary import CATEGORY_NAMES, STRAIGHT_FLUSH_CLASSES, describe_hand

Cards = Iterable[Card | str] | str
"""A hand as the ranking functions take it: text such as ``"Ah Kd 7c 7s 2h"``, or any iterable
(a list, a tuple, a generator) of :class:`Card` objects and one-card texts."""


class Category(IntEnum):
    """Hand categories, lowest first. A flush beats a full house (article 6)."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FULL_HOUSE = 5
    FLUSH = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8

    @property
    def english(self) -> str:
        """English name (``Flush``)."""
        return _CATEGORY_ENGLISH[self]

    @property
    def italian(self) -> str:
        """Italian name (``Colore``)."""
        return _CATEGORY_ITALIAN[self]


_CATEGORY_ENGLISH = {c: CATEGORY_NAMES[c.name][0] for c in Category}
_CATEGORY_ITALIAN = {c: CATEGORY_NAMES[c.name][1] for c in Category}


class StraightFlushClass(Enum):
    """The three kinds of straight flush (7.1): the maximum beats the medium, the medium beats
    the minimum, and the minimum beats the maximum (7.2)."""

    MINIMUM = "minimum"
    MEDIUM = "medium"
    MAXIMUM = "maximum"

    @property
    def italian(self) -> str:
        """Italian adjective: ``minima``, ``media``, ``massima``."""
        return STRAIGHT_FLUSH_CLASSES[self.value][1]


class Tiebreak(StrEnum):
    """How otherwise-equal hands are separated by suit.

    ``STANDARD`` is article 7.4; ``FANTINI`` is the Fantini/Santelia reading (document 002): the
    suit of the highest kicker decides pairs and two pairs, the second card decides high-card
    hands; flushes, straights and straight flushes as in 7.4.
    """

    STANDARD = "standard"
    FANTINI = "fantini"


@dataclass(frozen=True, slots=True)
class HandRank:
    """The strength of a five-card hand.

    ``value`` orders hands (higher is better) everywhere except between straight flushes of
    different classes, where :func:`compare` applies 7.2. ``ranks`` are the ranks that matter,
    most significant first (a low ace is written as the ace). ``suit`` is the suit that breaks
    ties for this hand, or ``None`` where suits never matter (trips, full house, four of a kind).
    """

    category: Category
    value: int
    ranks: tuple[Rank, ...]
    suit: Suit | None
    straight_flush_class: StraightFlushClass | None
    description: str
    description_it: str

    def describe(self, lang: str = "en") -> str:
        """The description in English (``"en"``) or Italian (``"it"``)."""
        if lang == "it":
            return self.description_it
        if lang == "en":
            return self.description
        raise ValueError(f"language must be 'en' or 'it', got {lang!r}")

    def __str__(self) -> str:
        return self.description


def compare_ranks(a: HandRank, b: HandRank) -> int:
    """Positive if ``a`` beats ``b``, negative if ``b`` beats ``a``, 0 if equal (7.2 applied)."""
    if a.straight_flush_class is not None and b.straight_flush_class is not None:
        pair = (a.straight_flush_class, b.straight_flush_class)
        if pair == (StraightFlushClass.MINIMUM, StraightFlushClass.MAXIMUM):
            return 1
        if pair == (StraightFlushClass.MAXIMUM, StraightFlushClass.MINIMUM):
            return -1
    return (a.value > b.value) - (a.value < b.value)


def best_ranks(ranks: Sequence[HandRank]) -> list[int]:
    """Ascending indices of the hands that win (and share) a pot among ``ranks``.

    Straight flushes (7.1-7.3): within one class only the best hand counts; with all three
    classes present their three best hands split; with two classes, the class that beats the
    other wins (minimum over maximum, maximum over medium, medium over minimum).
    Otherwise the highest ``value`` wins.
    """
    # No straight flush: the highest value wins (the usual case, decided in one pass).
    best: list[int] = []
    top = -1
    for i, rank in enumerate(ranks):
        if rank.straight_flush_class is not None:
            break
        value = rank.value
        if value > top:
            top = value
            best = [i]
        elif value == top:
            best.append(i)
    else:
        return best
    best_by_class: dict[StraightFlushClass, int] = {}
    for i, rank in enumerate(ranks):
        cls = rank.straight_flush_class
        if cls is not None and (
            cls not in best_by_class or rank.value > ranks[best_by_class[cls]].value
        ):
            best_by_class[cls] = i
    if len(best_by_class) == 3:
        # Equal hypothetical hands (shared cards) share too, whatever their order.
        return [
            i
            for i, r in enumerate(ranks)
            if r.straight_flush_class is not None
            and r.value == ranks[best_by_class[r.straight_flush_class]].value
        ]
    if best_by_class:
        classes = set(best_by_class)
        if len(classes) == 1:
            (winner_class,) = classes
        elif classes == {StraightFlushClass.MINIMUM, StraightFlushClass.MAXIMUM}:
            winner_class = StraightFlushClass.MINIMUM
        elif classes == {StraightFlushClass.MINIMUM, StraightFlushClass.MEDIUM}:
            winner_class = StraightFlushClass.MEDIUM
        else:
            winner_class = StraightFlushClass.MAXIMUM
        top = ranks[best_by_class[winner_class]].value
        return [
            i
            for i, r in enumerate(ranks)
            if r.straight_flush_class is winner_class and r.value == top
        ]
    top = max(r.value for r in ranks)
    return [i for i, r in enumerate(ranks) if r.value == top]


# --- tables -------------------------------------------------------------------------------


_Row = tuple[Any, ...]
"""A row of ``_Tables.by_weight``; see :class:`_Tables`. A plain tuple, not a class, because
:func:`evaluate` reads it on every call."""

_INVALID = 6
"""The row index a nibble maps to when it cannot come from five distinct cards (always ``None``)."""


def _suit_index(nibble: int) -> int:
    """The row index of the result for a nibble: 2 + the highest suit held (2 for none)."""
    return 2 + max(nibble.bit_length() - 1, 0)


_HELD_MAPS = {
    held: tuple(_suit_index(n) if n.bit_count() == held else _INVALID for n in range(16))
    for held in range(1, 5)
}
"""``_HELD_MAPS[k][nibble]``: the row index for a deciding rank held ``k`` (1 to 4) times
(five cards are distinct only if its nibble has ``k`` suits), else :data:`_INVALID`."""
_ANY_MAP = tuple(_suit_index(n) for n in range(16))
"""The row index by nibble for rows whose results are read only after a full duplicate check."""
_NO_ROW: _Row = (0, _ANY_MAP, None, None, None, None, None, None)
"""The row of a weight no hand of the deck has: a card below the deck, or repeated."""


@dataclass(frozen=True, slots=True)
class _Tables:
    """Lookup tables for one deck (``players`` players) and tie-break rule.

    ``plain`` maps a rank key (the count of rank ``r`` in bits ``3 * (r - 2)`` and up) to
    ``(shift, by_nibble)``: the hand's result is ``by_nibble[(mask >> shift) & 15]``, where
    ``mask`` is the set of cards (the sum of ``Card.bit``) and the nibble the set of suits
    held in the rank whose suit breaks ties. ``flush`` maps a rank key to results indexed by
    suit. The batch evaluator builds its own table from these two.

    :func:`evaluate` reads the same results through ``by_weight``, a list indexed by the sum of
    the five cards' rank weights (the low :data:`WEIGHT_BITS` bits of the sum of their
    ``Card.code``), and ``flush_by_weight``, a dict from that sum to results by suit. With
    ``total`` the sum of the codes and ``row = by_weight[weight]``, ``row[0]`` is the bit
    position, in ``total``, of the suits held in the deciding rank, and ``row[1]`` maps that
    nibble to a row index: ``2 + suit`` for the highest suit held, whose result sits in
    ``row[2 + suit]``, or :data:`_INVALID` (``row[6]`` is ``None``) for a nibble that five
    distinct cards cannot give. The nibble proves the cards distinct when the deciding rank is
    the only rank that repeats (or none does) and holds as many suits as cards (a repeated card
    always loses a bit). Otherwise (two pair, full house, a Fantini pair) ``row[2:6]`` are
    ``None`` and ``row[7]`` holds the results by suit, to read once the set of cards is found
    to have five members. The eight entries fit in two cache lines, one for most rows.
    ``row[0]`` counts the :data:`WEIGHT_BITS` below the set of cards; ``plain`` shifts do not.
    """

    players: int
    plain: dict[int, tuple[int, tuple[HandRank, ...]]]
    flush: dict[int, tuple[HandRank, ...]]
    by_weight: list[_Row]
    flush_by_weight: dict[int, tuple[HandRank, ...]]


CATEGORY_SHIFT = 22
"""``HandRank.value >> CATEGORY_SHIFT`` is the hand's :class:`Category`."""


def _pack(category: Category, ranks: Sequence[int], suit: int) -> int:
    packed = 0
    for i in range(5):
        packed = (packed << 4) | (ranks[i] if i < len(ranks) else 0)
    return (int(category) << CATEGORY_SHIFT) | (packed << 2) | suit


def _straight_top(distinct_desc: Sequence[int], low: int) -> int | None:
    """Top rank of a straight made by five distinct ranks, or None; an ace-low straight's top
    is the deck's lowest rank + 3 (6: the ace sits next to the lowest rank)."""
    if distinct_desc[0] - distinct_desc[4] == 4:
        return distinct_desc[0]
    if list(distinct_desc) == [Rank.ACE, low + 3, low + 2, low + 1, low]:
        return low + 3
    return None


def _describe(
    category: Category,
    ranks: Sequence[Rank],
    suit: Suit | None,
    sf_class: StraightFlushClass | None,
) -> tuple[str, str]:
    """The description in both languages, from the vocabulary (built with the tables)."""
    return describe_hand(
        category.name,
        [rank.letter for rank in ranks],
        None if suit is None else suit.letter,
        None if sf_class is None else sf_class.value,
    )


def _result(
    category: Category,
    ranks: Sequence[int],
    suit: int | None,
    sf_class: StraightFlushClass | None = None,
) -> HandRank:
    rank_tuple = tuple(Rank(r) for r in ranks)
    suit_enum = None if suit is None else Suit(suit)
    en, it = _describe(category, rank_tuple, suit_enum, sf_class)
    return HandRank(
        category=category,
        value=_pack(category, ranks, 0 if suit is None else suit),
        ranks=rank_tuple,
        suit=suit_enum,
        straight_flush_class=sf_class,
        description=en,
        description_it=it,
    )


def _by_nibble(category: Category, ranks: Sequence[int]) -> tuple[HandRank, ...]:
    """Results indexed by the suits held in the deciding rank: the highest suit held decides."""
    per_suit = [_result(category, ranks, suit) for suit in range(4)]
    return tuple(per_suit[max(n.bit_length() - 1, 0)] for n in range(16))


def _weight_row(counts: Counter[int], shift: int, by_nibble: tuple[HandRank, ...]) -> _Row:
    """The ``by_weight`` row of a rank multiset (see :class:`_Tables`)."""
    repeated = [rank for rank, count in counts.items() if count > 1]
    if by_nibble[0].suit is None and len(repeated) == 1:
        # Suits never matter (three or four of a kind): read the repeated rank's nibble.
        shift = 4 * (repeated[0] - 2)
    decider = shift // 4 + 2
    by_suit = tuple(by_nibble[1 << suit] for suit in range(4))
    if repeated in ([], [decider]):
        # k cards of one rank hold k suits unless one of them repeats.
        return (WEIGHT_BITS + shift, _HELD_MAPS[counts[decider]], *by_suit, None, None)
    return (WEIGHT_BITS + shift, _ANY_MAP, None, None, None, None, None, by_suit)


def _build(players: int, tiebreak: Tiebreak) -> _Tables:
    low = 11 - players
    deck_ranks = range(low, Rank.ACE + 1)
    plain: dict[int, tuple[int, tuple[HandRank, ...]]] = {}
    flush: dict[int, tuple[HandRank, ...]] = {}
    multisets: dict[int, tuple[int, Counter[int]]] = {}  # sum of rank weights -> key, counts
    fantini = tiebreak is Tiebreak.FANTINI
    for combo in combinations_with_replacement(deck_ranks, 5):
        counts = Counter(combo)
        if max(counts.values()) > 4:
            continue
        key = sum(1 << (3 * (r - 2)) for r in combo)
        weight = sum(RANK_WEIGHTS[r - 2] for r in combo)
        # Ranks by significance: higher count first, then higher rank.
        groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
        shape = [c for _, c in groups]
        order = [r for r, _ in groups]
        none_shift = 0
        if shape == [4, 1]:
            result = _result(Category.FOUR_OF_A_KIND, order, None)
            plain[key] = (none_shift, (result,) * 16)
        elif shape == [3, 2]:
            result = _result(Category.FULL_HOUSE, order, None)
            plain[key] = (none_shift, (result,) * 16)
        elif shape == [3, 1, 1]:
            result = _result(Category.THREE_OF_A_KIND, order, None)
            plain[key] = (none_shift, (result,) * 16)
        elif shape == [2, 2, 1]:
            # 7.4(c): the higher pair holding the heart; Fantini: the kicker's suit.
            decider = order[2] if fantini else order[0]
            plain[key] = (4 * (decider - 2), _by_nibble(Category.TWO_PAIR, order))
        elif shape == [2, 1, 1, 1]:
            # 7.4(c): the pair holding the heart; Fantini: the highest kicker's suit.
            decider = order[1] if fantini else order[0]
            plain[key] = (4 * (decider - 2), _by_nibble(Category.ONE_PAIR, order))
        else:
            top = _straight_top(order, low)
            if top is not None:
                # 7.4(b): the suit of the highest card (the top of an ace-low straight).
                plain[key] = (4 * (top - 2), _by_nibble(Category.STRAIGHT, [top]))
                if top == Rank.ACE:
                    sf_class = StraightFlushClass.MAXIMUM
                elif top == low + 3:
                    sf_class = StraightFlushClass.MINIMUM
                else:
                    sf_class = StraightFlushClass.MEDIUM
                flush[key] = tuple(
                    _result(Category.STRAIGHT_FLUSH, [top], s, sf_class) for s in range(4)
                )
            else:
                # 7.4(d): the suit of the highest card; Fantini: of the second card.
                decider = order[1] if fantini else order[0]
                plain[key] = (4 * (decider - 2), _by_nibble(Category.HIGH_CARD, order))
                # 7.4(a): equal flushes, the higher suit.
                flush[key] = tuple(_result(Category.FLUSH, order, s) for s in range(4))
        multisets[weight] = (key, counts)
    # Rows made after the results sit together in memory, which keeps lookups fast.
    by_weight = [_NO_ROW] * (max(multisets) + 1)
    for weight, (key, counts) in multisets.items():
        by_weight[weight] = _weight_row(counts, *plain[key])
    flush_by_weight = {weight: flush[key] for weight, (key, _) in multisets.items() if key in flush}
    return _Tables(players, plain, flush, by_weight, flush_by_weight)


_UNBUILT = _Tables(MAX_PLAYERS + 1, {}, {}, [], {})
"""Stands for tables not built yet. No ``players`` argument can be its ``players`` (10), as
10 cannot index the lists of :data:`_TABLES`."""
_TABLES: dict[str, list[_Tables]] = {
    rule.value: [_UNBUILT] * (MAX_PLAYERS + 1) for rule in Tiebreak
}
"""The tables built so far, by tie-break rule and number of players."""
_STANDARD_TABLES = _TABLES[Tiebreak.STANDARD.value]
_WEIGHT_MASK = (1 << WEIGHT_BITS) - 1


def _tables(players: int, tiebreak: Tiebreak | str) -> _Tables:
    """The tables for a deck and tie-break rule, built on first use."""
    check_players(players)
    try:
        rule = Tiebreak(tiebreak)
    except ValueError:
        raise ValueError(f"tiebreak must be 'standard' or 'fantini', got {tiebreak!r}") from None
    by_players = _TABLES[rule.value]
    tables = by_players[players]
    if tables is _UNBUILT:
        tables = by_players[players] = _build(players, rule)
    return tables


def evaluate(cards: Cards, *, players: int, tiebreak: Tiebreak | str = "standard") -> HandRank:
    """The :class:`HandRank` of five cards in the deck for ``players`` players.

    ``cards`` are :class:`Card` objects, text such as ``"Ah 7h 8h 9h Th"`` or one-card texts,
    in any iterable (see :func:`read_hand`).

    Raises :class:`PlayerCountError` unless ``players`` is a whole number from 2 to 9,
    :class:`HandSizeError` unless there are exactly five cards, :class:`CardParseError` for
    something that is not a card, :class:`DuplicateCardError` on a repeated card and
    :class:`CardNotInDeckError` for a card below the deck's lowest rank.
    """
    try:
        tables = (_STANDARD_TABLES if tiebreak == "standard" else _TABLES[tiebreak])[players]
    except (KeyError, TypeError, IndexError):  # a bad rule, or 4.0, "4" or 10 players
        tables = _UNBUILT
    # Identity, not equality: CPython shares one object per small int, so an int from 2 to 9
    # passes, while -1 (which indexes from the end), True or numpy's 4 get the full check.
    if tables.players is not players:
        tables = _tables(players, tiebreak)
    hand: Any = cards  # anything but five cards fails below and is read by read_hand
    a: Card
    b: Card
    c: Card
    d: Card
    e: Card
    # Two try blocks, which cost nothing when nothing fails: a one-shot iterator that fails
    # the first has lost what it gave, one that fails the second gave its five items.
    try:
        a, b, c, d, e = hand
    except (TypeError, ValueError) as error:  # not five items, or text
        return evaluate(_reread(cards, error, players), players=players, tiebreak=tiebreak)
    try:
        total = a.code + b.code + c.code + d.code + e.code
    except (TypeError, AttributeError):  # five items, not all Card objects
        given = (a, b, c, d, e) if isinstance(cards, Iterator) else cards
        return evaluate(read_hand(given, players=players), players=players, tiebreak=tiebreak)
    if a.suit is b.suit and a.suit is c.suit and a.suit is d.suit and a.suit is e.suit:
        by_suit = tables.flush_by_weight.get(total & _WEIGHT_MASK)
        if by_suit is not None:  # five distinct ranks, so five distinct cards
            return by_suit[a.suit]
    else:
        try:
            row = tables.by_weight[total & _WEIGHT_MASK]
        except IndexError:  # a rank below the deck
            row = _NO_ROW
        index: int = row[1][(total >> row[0]) & 15]
        result: HandRank | None = row[index]
        if result is not None:
            return result
        checked: tuple[HandRank, ...] | None = row[7]
        # Distinct cards add without carries; a repeated card always loses a bit.
        if checked is not None and (total >> WEIGHT_BITS).bit_count() == 5:
            return checked[index - 2]
    _reject((a, b, c, d, e), players)


def _reject(cards: tuple[Card, ...], players: int) -> NoReturn:
    """Raise the error for five cards that have no entry in the deck's tables."""
    read_hand(cards, players=players)
    raise CardNotInDeckError(f"cannot evaluate {cards!r}")  # pragma: no cover


_NOT_A_HAND = "a hand is five cards (Card objects, or text such as 'Ah Kd 7c 7s 2h'), got {}"
_SHORT = re.compile(r"not enough values to unpack \(expected 5, got (\d+)\)")


def _wrong_size(count: int) -> str:
    return f"a hand has exactly five cards, got {count}"


def _reread(cards: object, error: Exception, players: int) -> tuple[Card, ...]:
    """The hand ``cards`` when unpacking it into five items failed with ``error``."""
    if not isinstance(cards, Iterator):  # text, a sequence or not an iterable: read it all
        return read_hand(cards, players=players)  # type: ignore[arg-type]
    # A one-shot iterator gave what the unpacking took: all of its items if fewer than five,
    # else six; count the rest.
    short = _SHORT.fullmatch(str(error))
    if short is not None:
        raise HandSizeError(_wrong_size(int(short[1])))
    if str(error).startswith("too many values to unpack"):
        raise HandSizeError(_wrong_size(6 + sum(1 for _ in cards)))
    raise error  # raised by the iterator itself


def read_hand(cards: Cards, *, players: int | None) -> tuple[Card, ...]:
    """Five distinct cards, read from any form the ranking functions take, in their order.

    ``cards`` is text (``"Ah Kd 7c 7s 2h"``, ``"AhKd7c7s2h"``) or an iterable of
    :class:`Card` objects and one-card texts (``["Ah", "Kd", ...]``, a generator, ...). The
    checks come in this order, each with its own error: ``players`` (unless ``None``) a whole
    number from 2 to 9 (:class:`PlayerCountError`); text that reads as cards
    (:class:`CardParseError`); five of them (:class:`HandSizeError`; for an iterable, counted
    before its items are read); each item a card (:class:`CardParseError`); no card twice
    (:class:`DuplicateCardError`); with ``players``, every card in the stripped deck
    (:class:`CardNotInDeckError`, section 1).
    """
    if players is not None:
        check_players(players)
    if isinstance(cards, str):
        hand = parse_cards(cards, unique=False)
        if len(hand) != 5:
            raise HandSizeError(_wrong_size(len(hand)))
    else:
        if isinstance(cards, bytes | bytearray):
            raise HandSizeError(_NOT_A_HAND.format(type(cards).__name__))
        try:
            items = tuple(cards)
        except TypeError:
            raise HandSizeError(_NOT_A_HAND.format(type(cards).__name__)) from None
        if len(items) != 5:
            raise HandSizeError(_wrong_size(len(items)))
        hand = read_cards(items)
    ensure_distinct(hand)
    if players is not None:
        deck = stripped_deck(players)
        for card in hand:
            deck.check(card)
    return hand


def read_hands(
    hands: Iterable[Cards], *, players: int, one_deck: bool = True
) -> list[tuple[Card, ...]]:
    """Several hands, each read by :func:`read_hand`.

    An error in one hand names it, counting from 1 (``"hand 2: a hand has exactly five cards,
    got 4"``). With ``one_deck`` (hands at one table, dealt from one deck) a card in two hands
    raises :class:`DuplicateCardError` (``"card Ah is in hands 1 and 2: ..."``), as a card twice
    in one hand does. ``hands`` must be an iterable of hands, not one text (:class:`CardError`).
    """
    check_players(players)
    if isinstance(hands, str):
        raise CardError("hands are given as a list of hands, not one text")
    try:
        given = list(hands)
    except TypeError:
        raise CardError(
            f"hands are given as an iterable of hands, got {type(hands).__name__}"
        ) from None
    read: list[tuple[Card, ...]] = []
    for number, cards in enumerate(given, start=1):
        try:
            read.append(read_hand(cards, players=players))
        except CardError as error:
            raise type(error)(f"hand {number}: {error}") from None
    if not one_deck:
        return read
    first_hand: dict[Card, int] = {}
    for number, hand in enumerate(read, start=1):
        for card in hand:
            first = first_hand.setdefault(card, number)
            if first != number:
                raise DuplicateCardError(
                    f"card {card} is in hands {first} and {number}: a card can be in only one hand"
                )
    return read


def compare(
    a: Cards,
    b: Cards,
    *,
    players: int,
    tiebreak: Tiebreak | str = "standard",
) -> int:
    """Positive when hand ``a`` ranks above hand ``b``, negative when below, 0 when equal.

    Each hand is read as by :func:`read_hand` (an error names it: ``"hand 2: ..."``). The two
    are compared as hands, so they may share cards, as hypothetical hands do (equal hands give
    0; two hands of one deck never tie, 7.4); :func:`winners` decides a pot between hands of one
    deck. The cyclic straight flush (7.2) is applied, so ``compare`` is not transitive among
    straight flushes of different classes.
    """
    _tables(players, tiebreak)  # players and the rule first, as evaluate checks them
    first, second = read_hands((a, b), players=players, one_deck=False)
    ra = evaluate(first, players=players, tiebreak=tiebreak)
    rb = evaluate(second, players=players, tiebreak=tiebreak)
    return compare_ranks(ra, rb)


def winners(
    hands: Iterable[Cards],
    *,
    players: int,
    tiebreak: Tiebreak | str = "standard",
) -> list[int]:
    """Ascending indices of the hands that share the pot (see :func:`best_ranks`).

    The hands are read as by :func:`read_hands`: they are dealt from one deck, so a card in
    two of them raises :class:`DuplicateCardError`; they never tie except in the three-way
    straight-flush split (7.3). For hypothetical hands (which may share cards), use
    :func:`best_ranks` on their :func:`evaluate` ranks.
    """
    _tables(players, tiebreak)  # players and the rule first, as evaluate checks them
    read = read_hands(hands, players=players)
    return best_ranks([evaluate(h, players=players, tiebreak=tiebreak) for h in read])
