"""The opening requirement (article 3.3) and its escalation after passed deals (3.5)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Any

from italian_poker.engine.cards import Card, Rank, ensure_distinct, read_cards
from italian_poker.engine.errors import HandSizeError, RulesError
from italian_poker.engine.hand_rank import Cards, Category, evaluate, read_hand
from italian_poker.engine.vocabulary import describe_requirement

_PAIR_BY_TEXT = {"J": Rank.JACK, "Q": Rank.QUEEN, "K": Rank.KING, "A": Rank.ACE}
# Read on every opening check: an enum member looked up as a class attribute costs ~0.1 µs.
_ONE_PAIR, _TWO_PAIR, _ACE = Category.ONE_PAIR, Category.TWO_PAIR, Rank.ACE
_BELOW_ACES = (1 << 48) - 1
"""The bits (``Card.bit``) of every card but the aces."""
_WHOLE_HAND = frozenset({Category.STRAIGHT, Category.FLUSH, Category.STRAIGHT_FLUSH})
"""Combinations that need all five cards."""


def parse_min_pair(min_pair: Rank | str) -> Rank:
    """The minimum opening pair from ``"J"``, ``"Q"``, ``"K"``, ``"A"`` or a :class:`Rank`."""
    if isinstance(min_pair, Rank):
        rank = min_pair
    elif isinstance(min_pair, str) and min_pair.upper() in _PAIR_BY_TEXT:
        rank = _PAIR_BY_TEXT[min_pair.upper()]
    else:
        raise RulesError(f"the minimum opening pair must be J, Q, K or A, got {min_pair!r}")
    if rank < Rank.JACK:
        raise RulesError(f"the minimum opening pair must be J, Q, K or A, got {rank.label}")
    return rank


@dataclass(frozen=True, slots=True)
class OpeningRequirement:
    """What a hand needs to open (3.3).

    (a) a pair of at least ``min_pair`` or any better combination (two pair of any ranks,
    three of a kind, ...), or with ``two_pair`` (the top step of the ``j-q-k-two-pair``
    ladder, 3.5) two pair or better, no single pair; (b) when ``four_straight_flush`` is on,
    four consecutive cards of one suit without the ace, open at both ends in the deck's own
    order (a low ace sits below the deck's lowest rank, so every such run of four is open at
    both ends).
    """

    min_pair: Rank = Rank.JACK
    four_straight_flush: bool = True
    two_pair: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "min_pair", parse_min_pair(self.min_pair))

    def is_met(self, cards: Cards, *, players: int) -> bool:
        """Whether five cards satisfy this requirement with the deck for ``players``.

        ``cards`` in any form :func:`~italian_poker.engine.hand_rank.read_hand` reads, refused
        with the same errors as by :func:`~italian_poker.engine.hand_rank.evaluate`."""
        if cards.__class__ is not list and cards.__class__ is not tuple:
            cards = read_hand(cards, players=players)  # text or a one-shot iterable: read once
        rank = evaluate(cards, players=players)  # checks the five cards
        category = rank.category
        if category >= _TWO_PAIR:
            return True
        if category is _ONE_PAIR and not self.two_pair and rank.ranks[0] >= self.min_pair:
            return True
        return self.four_straight_flush and _four_to_a_straight_flush(cards)

    def kept_proves(self, kept: Cards) -> bool:
        """4.4: whether cards an opener keeps at the draw still show the opening by themselves,
        so no split need be announced (all five kept always do).

        ``kept`` is up to five distinct cards, in any form
        :func:`~italian_poker.engine.cards.read_cards` reads."""
        plain = kept.__class__ is list or kept.__class__ is tuple
        cards: Sequence[Any] = kept if plain else read_cards(kept)  # type: ignore[assignment]
        counts: dict[Rank, int] = {}
        held = 0
        try:
            for card in cards:
                held |= card.bit
                counts[card.rank] = counts.get(card.rank, 0) + 1
        except AttributeError:  # one-card texts
            return self.kept_proves(read_cards(cards))
        if len(cards) > 5:
            raise HandSizeError(f"a player keeps at most five cards, got {len(cards)}")
        if held.bit_count() != len(cards):  # each card has a bit of its own
            ensure_distinct(cards)
        if len(cards) == 5:
            return True
        pairs = [rank for rank, count in counts.items() if count >= 2]
        if len(pairs) >= 2 or any(count >= 3 for count in counts.values()):
            return True
        if not self.two_pair and any(rank >= self.min_pair for rank in pairs):
            return True
        return self.four_straight_flush and _four_in_a_row(held)

    def describe(self, lang: str = "en") -> str:
        """A short description, e.g. ``"Jacks or better"`` / ``"coppia di Jack o meglio"``
        (engine/vocabulary.py); any ``lang`` but ``"it"`` is English."""
        english, italian = describe_requirement(
            self.min_pair.letter, self.four_straight_flush, self.two_pair
        )
        return italian if lang == "it" else english


@lru_cache(maxsize=None, typed=True)
def opening_requirement(
    min_pair: Rank, four_straight_flush: bool, two_pair: bool = False
) -> OpeningRequirement:
    """The :class:`OpeningRequirement` for these settings, made once and shared."""
    return OpeningRequirement(min_pair, four_straight_flush, two_pair)


def _rank_counts(cards: Sequence[Card]) -> dict[Rank, int]:
    """How many of ``cards`` have each rank."""
    counts: dict[Rank, int] = {}
    for card in cards:
        counts[card.rank] = counts.get(card.rank, 0) + 1
    return counts


def has_four_straight_flush(cards: Cards) -> bool:
    """3.3(b): whether a hand of five cards holds four cards of one suit, of consecutive
    ranks, none of them an ace.

    ``cards`` in any form :func:`~italian_poker.engine.hand_rank.read_hand` reads (there is no
    deck here, so no card is refused as outside one)."""
    return _four_to_a_straight_flush(read_hand(cards, players=None))


def _four_to_a_straight_flush(cards: Iterable[Card | str]) -> bool:
    """3.3(b) for cards already checked (Card objects, or one-card texts)."""
    held = 0
    try:
        for card in cards:
            held |= card.bit  # type: ignore[union-attr]
    except AttributeError:  # one-card texts
        return _four_to_a_straight_flush(read_cards(cards))
    return _four_in_a_row(held)


def _four_in_a_row(held: int) -> bool:
    """3.3(b) for the set of cards ``held`` (the sum of their ``Card.bit``)."""
    # A card's bit is 1 << (4 * (rank - 2) + suit): the next rank of the same suit sits four
    # bits higher, and the aces hold the top four bits of the 52.
    held &= _BELOW_ACES
    return bool(held & (held >> 4) & (held >> 8) & (held >> 12))


def can_open(cards: Cards, *, players: int, min_pair: Rank | str = "J") -> bool:
    """Whether five cards may open with a minimum pair of ``min_pair`` (3.3(a) or 3.3(b)).

    ``cards`` in any form :func:`~italian_poker.engine.hand_rank.read_hand` reads, e.g.
    ``can_open("Jh Jd 7c 8s 9h", players=4)``."""
    return OpeningRequirement(parse_min_pair(min_pair)).is_met(cards, players=players)


def opening_combination(
    cards: Cards, requirement: OpeningRequirement, *, players: int
) -> tuple[Card, ...]:
    """The cards that prove an opening: the pair(s) or trips, a whole straight, flush or
    straight flush, or the four cards to a straight flush (3.3(b)). Empty if none.

    ``cards`` in any form :func:`~italian_poker.engine.hand_rank.read_hand` reads."""
    cards = read_hand(cards, players=players)
    rank = evaluate(cards, players=players)
    category = rank.category
    if category in _WHOLE_HAND:
        return tuple(cards)
    counts = _rank_counts(cards)
    grouped = tuple([card for card in cards if counts[card.rank] >= 2])
    if category >= _TWO_PAIR:
        return grouped
    if category is _ONE_PAIR and not requirement.two_pair and rank.ranks[0] >= requirement.min_pair:
        return grouped
    if requirement.four_straight_flush:
        for suit in {card.suit for card in cards}:
            run = sorted(
                (c for c in cards if c.suit is suit and c.rank is not Rank.ACE),
                key=lambda c: c.rank,
            )
            for i in range(len(run) - 3):
                if run[i + 3].rank - run[i].rank == 3:
                    return tuple(run[i : i + 4])
    return ()


def opening_groups(
    cards: Sequence[Card], requirement: OpeningRequirement
) -> tuple[tuple[Card, ...], ...]:
    """4.4: the smallest groups of ``cards`` (checked cards, an opener's hand) that show the
    opening by themselves, in the order they are shown as proof: each pair of the minimum rank
    or better (highest first), three of a kind of a lower rank, two pairs of lower ranks, four to
    a straight flush (3.3(b)). Keeping every card of one group keeps the opening; a draw that
    keeps none whole breaks it, and must be announced. Cards keep their order in ``cards``.

    A straight, flush or full five-card combination is no group: it only proves the opening
    while all five cards are kept."""
    # Ranks as plain ints (``index >> 2`` is the rank less two): an enum member hashes slowly.
    by_rank: dict[int, list[Card]] = {}
    held = 0  # the cards as bits (Card.bit), for 3.3(b)
    for card in cards:
        held |= card.bit
        rank = card.index >> 2
        if rank in by_rank:
            by_rank[rank].append(card)
        else:
            by_rank[rank] = [card]
    # No single pair is a group when two pair are needed (the ``two-pair`` ladder, 3.5).
    least = 99 if requirement.two_pair else requirement.min_pair - 2
    groups: list[tuple[Card, ...]] = []
    if len(by_rank) < len(cards):  # some rank repeats: pairs, trips, two pair
        ranks = sorted(by_rank, reverse=True)
        low_pairs: list[list[tuple[Card, ...]]] = []
        trips: list[tuple[Card, ...]] = []
        for rank in ranks:
            same = by_rank[rank]
            if len(same) < 2:
                continue
            if rank >= least:
                groups.extend(combinations(same, 2))
            else:
                low_pairs.append(list(combinations(same, 2)))
                if len(same) >= 3:
                    trips.extend(combinations(same, 3))
        groups.extend(trips)
        if len(low_pairs) >= 2:
            order = {card: i for i, card in enumerate(cards)}
            for first, second in combinations(low_pairs, 2):
                groups.extend(
                    tuple(sorted(a + b, key=order.__getitem__)) for a in first for b in second
                )
    if requirement.four_straight_flush and _four_in_a_row(held):
        order = {card: i for i, card in enumerate(cards)}
        for suit in sorted({card.suit for card in cards}, reverse=True):
            run = sorted((c for c in cards if c.suit is suit and c.rank is not _ACE), key=_rank_of)
            for i in range(len(run) - 3):
                if run[i + 3].rank - run[i].rank == 3:
                    groups.append(tuple(sorted(run[i : i + 4], key=order.__getitem__)))
    return tuple(groups)


def proving_cards(
    cards: Sequence[Card],
    requirement: OpeningRequirement,
    *,
    players: int,
    groups: tuple[tuple[Card, ...], ...] | None = None,
) -> tuple[Card, ...]:
    """3.3, 4.4: the fewest of ``cards`` (checked cards, up to five) that show ``requirement``
    met, in their order: the first of their :func:`opening_groups`, else a whole straight,
    flush or straight flush of five. Empty if none does. ``groups``: the opening groups of a
    hand that holds ``cards``, when already known (those within ``cards`` are theirs)."""
    if groups is None:
        groups = opening_groups(cards, requirement)
    held = 0
    for card in cards:
        held |= card.bit
    group = first_group_held(groups, held)
    if group is not None:
        return group
    if len(cards) == 5 and evaluate(cards, players=players).category in _WHOLE_HAND:
        return tuple(cards)
    return ()


def first_group_held(groups: tuple[tuple[Card, ...], ...], held: int) -> tuple[Card, ...] | None:
    """The first of ``groups`` whose cards are all in ``held`` (the sum of their
    ``Card.bit``), or ``None``."""
    for group in groups:
        group_bits = 0
        for card in group:
            group_bits |= card.bit
        if group_bits & held == group_bits:
            return group
    return None


def _rank_of(card: Card) -> int:
    return int(card.rank)
