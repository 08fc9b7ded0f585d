"""Exact draw odds: every replacement of every keep/discard choice, enumerated (Art. 4).

For a five-card hand, the deck in use (stripped for the number of players, section 1) and the
cards known not to be in the stock (the hand itself; discards seen face up under 003), every
card the player has not seen is equally likely to be served. For each choice of discards (0 to
``max_discards`` cards: 4 under 000 Art. 4) this module enumerates every set of replacement
cards from the unseen cards, evaluates each final hand with the numpy batch evaluator and
returns, per choice:

- the exact number of final hands in each :class:`~italian_poker.engine.hand_rank.Category`
  (:class:`DrawOutcome`), hence the exact chance of reaching it;
- a strength figure: the expected *percentile* of the final hand among all five-card hands of
  the deck in use (the share of the deck's hands it beats, ties counted half), so 0.5 is an
  average hand for that deck and 1.0 the best.

The percentile orders hands by ``HandRank.value``; the cycle among straight-flush classes
(7.2, the minimum beating the maximum) is left out of this one figure, which it moves by less
than one part in 100,000. Results are memoized per sorted hand and set of known cards.

When the stock runs out the discards are reshuffled (4.3); the enumeration treats every
unseen card as equally likely, which is exact before any reshuffle and the natural estimate
after one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from math import comb

import numpy as np
import numpy.typing as npt

from italian_poker.analysis.batch_evaluation import CATEGORY_SHIFT, all_hands, batch_evaluator
from italian_poker.engine.cards import Card
from italian_poker.engine.deck import HAND_SIZE, Deck, check_players
from italian_poker.engine.draw import MAX_DRAW
from italian_poker.engine.errors import DuplicateCardError, HandSizeError
from italian_poker.engine.hand_rank import Category, Tiebreak


@dataclass(frozen=True, slots=True)
class HandLadder:
    """Every distinct hand value of a deck, weakest first, with its percentile.

    ``values`` are the distinct ``HandRank.value`` of the deck's hands in ascending order;
    ``percentiles[i]`` is the share of the deck's hands below ``values[i]`` plus half the share
    equal to it; ``categories[i]`` is the category of ``values[i]``.
    """

    players: int
    tiebreak: Tiebreak
    values: npt.NDArray[np.int32]
    percentiles: npt.NDArray[np.float64]
    categories: npt.NDArray[np.int8]

    def positions(self, values: npt.ArrayLike) -> npt.NDArray[np.intp]:
        """The position in :attr:`values` of each hand value (all must be of this deck)."""
        return np.searchsorted(self.values, np.asarray(values, dtype=np.int32))

    def percentile(self, value: int) -> float:
        """The percentile of one hand value of this deck."""
        return float(self.percentiles[int(self.positions([value])[0])])

    def __len__(self) -> int:
        return len(self.values)


@lru_cache(maxsize=32)
def hand_ladder(players: int, tiebreak: Tiebreak | str = Tiebreak.STANDARD) -> HandLadder:
    """The :class:`HandLadder` of the deck for ``players`` (built once per deck and rule)."""
    evaluator = batch_evaluator(players, tiebreak)
    values, counts = np.unique(evaluator.table, return_counts=True)
    total = float(counts.sum())
    below = np.cumsum(counts) - counts
    percentiles = (below + counts / 2.0) / total
    for array in (values, percentiles):
        array.flags.writeable = False
    cats = (values.astype(np.int64) >> CATEGORY_SHIFT).astype(np.int8)
    cats.flags.writeable = False
    return HandLadder(evaluator.players, evaluator.tiebreak, values, percentiles, cats)


@dataclass(frozen=True, slots=True)
class DrawDistribution:
    """The final hands of one keep/discard choice: each distinct final value (as its position
    in the deck's :class:`HandLadder`) and in how many of the equally likely replacements it
    comes out."""

    discards: tuple[Card, ...]
    kept: tuple[Card, ...]
    positions: npt.NDArray[np.int32]
    counts: npt.NDArray[np.int32]

    @property
    def combinations(self) -> int:
        """The number of equally likely sets of replacement cards."""
        return int(self.counts.sum())

    def expectation(self, by_position: npt.NDArray[np.float64]) -> float:
        """The expected value of ``by_position[final hand's ladder position]``."""
        weights = self.counts
        return float(np.dot(by_position[self.positions], weights) / weights.sum())


@dataclass(frozen=True, slots=True)
class DrawOutcome:
    """The exact result of one keep/discard choice.

    ``category_counts[c]`` is the number of the ``combinations`` equally likely replacements
    that end in category ``c`` (indexed by :class:`Category`); ``strength`` is the expected
    percentile of the final hand in the deck in use (see the module docstring).
    """

    discards: tuple[Card, ...]
    kept: tuple[Card, ...]
    combinations: int
    category_counts: tuple[int, ...]
    strength: float

    def probability(self, category: Category) -> float:
        """The exact chance of ending in ``category``."""
        return self.category_counts[category] / self.combinations

    @property
    def probabilities(self) -> dict[Category, float]:
        """The exact chance of each category."""
        return {c: self.category_counts[c] / self.combinations for c in Category}


def _check(
    hand: Sequence[Card], players: int, known: Iterable[Card], max_discards: int
) -> tuple[tuple[Card, ...], frozenset[Card]]:
    check_players(players)
    cards = tuple(hand)
    if len(cards) != HAND_SIZE:
        raise HandSizeError(f"a hand has exactly five cards, got {len(cards)}")
    if len(set(cards)) != HAND_SIZE:
        raise DuplicateCardError("a hand needs five different cards")
    deck = Deck(players)
    for card in cards:
        deck.check(card)
    seen = frozenset(known)
    for card in seen:
        deck.check(card)
    if isinstance(max_discards, bool) or not isinstance(max_discards, int):
        raise ValueError(f"max_discards must be a whole number 0 to 5, got {max_discards!r}")
    if not 0 <= max_discards <= HAND_SIZE:
        raise ValueError(f"max_discards must be 0 to 5, got {max_discards}")
    return cards, seen - set(cards)


@lru_cache(maxsize=64)
def _stock_combinations(size: int, k: int) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """Every ``k``-subset of ``range(size)``, ascending within: as ``k`` rows of a
    ``(k, C(size, k))`` array (one column per subset), and, for each ``t`` in ``0..size``,
    how many members of each subset are below ``t``."""
    n = comb(size, k)
    flat = np.fromiter(
        (i for combo in combinations(range(size), k) for i in combo), dtype=np.uint8, count=n * k
    )
    rows = np.ascontiguousarray(flat.reshape(n, k).T)
    below = np.zeros((size + 1, n), dtype=np.uint8)
    for row in rows:
        below += row[np.newaxis, :] < np.arange(size + 1, dtype=np.uint8)[:, np.newaxis]
    rows.flags.writeable = False
    below.flags.writeable = False
    return rows, below


def _masks(max_discards: int) -> tuple[int, ...]:
    """Discard masks over the five sorted cards: fewest discards first, then by mask."""
    return tuple(
        sorted(
            (m for m in range(1 << HAND_SIZE) if m.bit_count() <= max_discards),
            key=lambda m: (m.bit_count(), m),
        )
    )


@dataclass(frozen=True, slots=True)
class _DeckTables:
    """Per deck and tie-break rule: the ladder position of every hand (in the order of
    :func:`~italian_poker.analysis.batch_evaluation.all_hands`, i.e. by combinatorial index),
    the per-card and total position counts, and the binomials ``C(x, r)`` of the index."""

    first: int
    positions: npt.NDArray[np.int32]
    by_card: npt.NDArray[np.int64]
    every: npt.NDArray[np.int64]
    binomials: npt.NDArray[np.int64]


@lru_cache(maxsize=16)
def _deck_tables(players: int, tiebreak: Tiebreak) -> _DeckTables:
    ladder = hand_ladder(players, tiebreak)
    evaluator = batch_evaluator(players, tiebreak)
    positions = ladder.positions(evaluator.table).astype(np.int32)
    hands = all_hands(players)
    size = len(ladder)
    deck = evaluator.deck_size
    by_card = np.zeros(deck * size, dtype=np.int64)
    for column in range(HAND_SIZE):
        offsets = hands[:, column].astype(np.intp) - evaluator.first_index
        by_card += np.bincount(offsets * size + positions, minlength=len(by_card))
    every = np.bincount(positions, minlength=size).astype(np.int64)
    binomials = np.array(
        [[comb(x, r) for r in range(HAND_SIZE + 1)] for x in range(deck)], dtype=np.int64
    )
    for array in (positions, by_card, every, binomials):
        array.flags.writeable = False
    return _DeckTables(
        evaluator.first_index, positions, by_card.reshape(deck, size), every, binomials
    )


def _final_positions(
    tables: _DeckTables, kept: Sequence[int], stock: npt.NDArray[np.intp], k: int
) -> npt.NDArray[np.int32]:
    """The ladder position of every final hand of keeping ``kept`` and drawing ``k`` cards
    of ``stock`` (all as offsets from the deck's lowest card, sorted), in the order of
    :func:`_stock_combinations`.

    A sorted hand ``x0 < ... < x4`` has index ``C(x0, 1) + ... + C(x4, 5)``; a drawn card's
    place in the hand is its place among the drawn plus the kept cards below it, and a kept
    card's is its place among the kept plus the drawn cards below it.
    """
    rows, below = _stock_combinations(len(stock), k)
    binomials = tables.binomials
    index = np.zeros(rows.shape[1], dtype=np.int64)
    kept_below = np.searchsorted(np.asarray(kept, dtype=np.intp), stock)
    for place, row in enumerate(rows):
        index += binomials[stock, place + kept_below + 1][row]
    for place, card in enumerate(kept):
        drawn_below = below[np.searchsorted(stock, card)]
        index += binomials[card, place + 1 :][drawn_below]
    return tables.positions[index]


@lru_cache(maxsize=256)
def _distributions(
    hand: tuple[int, ...],
    known: tuple[int, ...],
    players: int,
    tiebreak: Tiebreak,
    max_discards: int,
) -> tuple[tuple[int, npt.NDArray[np.int32], npt.NDArray[np.int32]], ...]:
    """Per discard mask over the sorted ``hand``: the ladder positions and their counts.

    Choices keeping two cards or more are enumerated. With no known cards besides the hand,
    the final hands of the choices keeping one card or none follow without enumeration: the
    deck's hands holding a card ``c`` of the hand are exactly the final hands of the choices
    keeping ``c`` (and perhaps more of the hand), so keeping ``c`` alone is what remains of the
    precomputed count of hands holding ``c`` after the larger choices are taken away.
    """
    tables = _deck_tables(players, tiebreak)
    size = len(tables.every)
    offsets = [i - tables.first for i in hand]
    excluded = set(offsets) | {i - tables.first for i in known}
    stock = np.array([i for i in range(52 - tables.first) if i not in excluded], dtype=np.intp)
    masks = _masks(max_discards)
    derived = not known and max_discards >= HAND_SIZE - 1
    histograms: dict[int, npt.NDArray[np.int64]] = {}
    for mask in masks:
        if derived and mask.bit_count() >= HAND_SIZE - 1:
            continue
        kept = [offsets[i] for i in range(HAND_SIZE) if not mask >> i & 1]
        positions = _final_positions(tables, kept, stock, mask.bit_count())
        histograms[mask] = np.bincount(positions, minlength=size)
    if derived:
        full = (1 << HAND_SIZE) - 1
        for i in range(HAND_SIZE):
            rest = tables.by_card[offsets[i]].copy()
            for mask, counts in histograms.items():
                if not mask >> i & 1:  # keeps card i and at least one more
                    rest -= counts
            histograms[full & ~(1 << i)] = rest
        if full in masks:  # all five changed: every hand holding none of the five
            histograms[full] = tables.every - sum(histograms.values())
    out = []
    for mask in masks:
        counts = histograms[mask]
        where = np.flatnonzero(counts).astype(np.int32)
        held = counts[where].astype(np.int32)
        where.flags.writeable = False
        held.flags.writeable = False
        out.append((mask, where, held))
    return tuple(out)


def draw_distributions(
    hand: Sequence[Card],
    *,
    players: int,
    known: Iterable[Card] = (),
    max_discards: int = MAX_DRAW,
    tiebreak: Tiebreak | str = Tiebreak.STANDARD,
) -> tuple[DrawDistribution, ...]:
    """Every keep/discard choice of ``hand`` with the exact distribution of its final hands
    over the deck's :class:`HandLadder` (fewest discards first).

    ``known`` are cards seen that are not in the stock besides the hand (e.g. face-up discards,
    003); ``max_discards`` is the most cards a draw may change (4 under 000 Art. 4).
    """
    cards, seen = _check(hand, players, known, max_discards)
    return _draw_distributions(cards, seen, players, Tiebreak(tiebreak), max_discards)


@lru_cache(maxsize=256)
def _draw_distributions(
    cards: tuple[Card, ...],
    seen: frozenset[Card],
    players: int,
    tiebreak: Tiebreak,
    max_discards: int,
) -> tuple[DrawDistribution, ...]:
    order = sorted(cards, key=lambda c: c.index)
    result = []
    for mask, positions, counts in _distributions(
        tuple(c.index for c in order),
        tuple(sorted(c.index for c in seen)),
        players,
        tiebreak,
        max_discards,
    ):
        out = {order[i].index for i in range(HAND_SIZE) if mask >> i & 1}
        discards = tuple(c for c in cards if c.index in out)
        kept = tuple(c for c in cards if c.index not in out)
        result.append(DrawDistribution(discards, kept, positions, counts))
    return tuple(result)


@lru_cache(maxsize=8192)
def _outcomes(
    hand: tuple[Card, ...],
    known: frozenset[Card],
    players: int,
    tiebreak: Tiebreak,
    max_discards: int,
) -> tuple[DrawOutcome, ...]:
    ladder = hand_ladder(players, tiebreak)
    outcomes = []
    for dist in _draw_distributions(hand, known, players, tiebreak, max_discards):
        by_category = np.zeros(len(Category), dtype=np.int64)
        np.add.at(by_category, ladder.categories[dist.positions], dist.counts)
        outcomes.append(
            DrawOutcome(
                discards=dist.discards,
                kept=dist.kept,
                combinations=dist.combinations,
                category_counts=tuple(int(n) for n in by_category),
                strength=dist.expectation(ladder.percentiles),
            )
        )
    return tuple(outcomes)


def draw_outcomes(
    hand: Sequence[Card],
    *,
    players: int,
    known: Iterable[Card] = (),
    max_discards: int = MAX_DRAW,
    tiebreak: Tiebreak | str = Tiebreak.STANDARD,
) -> tuple[DrawOutcome, ...]:
    """The exact :class:`DrawOutcome` of every keep/discard choice of ``hand`` (fewest
    discards first), for the deck for ``players`` with ``known`` cards out of the stock.

    Raises :class:`HandSizeError`, :class:`DuplicateCardError` or
    :class:`CardNotInDeckError` for a bad hand or known card, and :class:`ValueError` for
    ``max_discards`` outside 0 to 5.
    """
    cards, seen = _check(hand, players, known, max_discards)
    return _outcomes(cards, seen, players, Tiebreak(tiebreak), max_discards)


def best_discard(
    hand: Sequence[Card],
    *,
    players: int,
    known: Iterable[Card] = (),
    max_discards: int = MAX_DRAW,
    tiebreak: Tiebreak | str = Tiebreak.STANDARD,
    opponents: int | None = None,
) -> DrawOutcome:
    """The choice that maximizes the chance of the final hand beating ``opponents`` hands
    dealt at random from the deck (default: the other ``players - 1``), i.e. the expected
    percentile raised to that power; on equal chances, the one changing fewer cards."""
    rivals = players - 1 if opponents is None else opponents
    if isinstance(rivals, bool) or not isinstance(rivals, int) or rivals < 1:
        raise ValueError(f"opponents must be a whole number of at least 1, got {opponents!r}")
    outcomes = draw_outcomes(
        hand, players=players, known=known, max_discards=max_discards, tiebreak=tiebreak
    )
    cards, seen = _check(hand, players, known, max_discards)
    rule = Tiebreak(tiebreak)
    chances = hand_ladder(players, rule).percentiles ** rivals
    dists = _draw_distributions(cards, seen, players, rule, max_discards)
    best = max(
        range(len(dists)),
        key=lambda i: (dists[i].expectation(chances), -len(dists[i].discards)),
    )
    return outcomes[best]


__all__ = [
    "DrawDistribution",
    "DrawOutcome",
    "HandLadder",
    "best_discard",
    "draw_distributions",
    "draw_outcomes",
    "hand_ladder",
]
