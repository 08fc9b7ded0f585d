"""The opening requirement (article 3.3) and its escalation after passed deals (3.5)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from italian_poker.engine.cards import Card, Rank, ensure_distinct, read_cards
from italian_poker.engine.errors import HandSizeError, RulesError
from italian_poker.engine.hand_rank import Cards, Category, evaluate, read_hand

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
    three of a kind, ...); (b) when ``four_straight_flush`` is on, four consecutive cards of
    one suit without the ace, open at both ends in the deck's own order (a low ace sits below
    the deck's lowest rank, so every such run of four is open at both ends).
    """

    min_pair: Rank = Rank.JACK
    four_straight_flush: bool = True

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
        if category is _ONE_PAIR and rank.ranks[0] >= self.min_pair:
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
        if any(rank >= self.min_pair for rank in pairs):
            return True
        return self.four_straight_flush and _four_in_a_row(held)

    def describe(self, lang: str = "en") -> str:
        """A short description, e.g. ``"Jacks or better"`` / ``"coppia di Jack o meglio"``."""
        if lang == "it":
            names = {Rank.JACK: "Jack", Rank.QUEEN: "Donne", Rank.KING: "Re", Rank.ACE: "Assi"}
            text = f"coppia di {names[self.min_pair]} o meglio"
            return text + (" (o 4/5 di scala reale)" if self.four_straight_flush else "")
        text = f"{self.min_pair.english} or better"
        return text + (" (or four to a straight flush)" if self.four_straight_flush else "")


@lru_cache(maxsize=None, typed=True)
def opening_requirement(min_pair: Rank, four_straight_flush: bool) -> OpeningRequirement:
    """The :class:`OpeningRequirement` for these settings, made once and shared."""
    return OpeningRequirement(min_pair, four_straight_flush)


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
    if category is _ONE_PAIR and rank.ranks[0] >= requirement.min_pair:
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
