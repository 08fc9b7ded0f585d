"""Expected values over every draw of many hands at once, from sums over the deck (Art. 4).

:mod:`~italian_poker.analysis.draw_odds` enumerates the replacements of one hand. When one
table ``t`` over the deck's :class:`~italian_poker.analysis.draw_odds.HandLadder` (a chance
of winning per final hand, say) is averaged over the draws of many hands, as when a rival's
decisions are read over many sampled hands, a table of sums serves them all:

``S(X)`` is the sum of ``t`` over the deck's hands holding the set of cards ``X`` (one to five
cards). Keeping ``K`` of a hand ``H`` and drawing the rest from the stock (every card but
``H``) gives, once each, the deck's hands that hold ``K`` and no other card of ``H``; by
inclusion and exclusion their sum is ``sum over J within H - K of (-1)^|J| S(K + J)``, and
the expectation is that sum over the ``C(stock, 5 - |K|)`` sets of replacements.

The sums are built once per table from the hands of the deck: each hand adds ``t`` to its
five four-card subsets, and a ``j``-card set's sum is the sum over its ``(j+1)``-card
supersets divided by ``5 - j`` (each hand holding the set is reached through that many of
them). About 5 ms for the 32-card deck. The result is exact up to the rounding of floating
point sums, but only when no card besides the hand is known to be out of the stock (003's
face-up discards are not: use :func:`~italian_poker.analysis.draw_odds.draw_distributions`).
"""

from __future__ import annotations

import itertools
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import comb

import numpy as np
import numpy.typing as npt

from italian_poker.analysis.batch_evaluation import all_hands
from italian_poker.analysis.draw_odds import _deck_tables
from italian_poker.engine.cards import Card
from italian_poker.engine.deck import HAND_SIZE
from italian_poker.engine.draw import MAX_DRAW
from italian_poker.engine.hand_rank import Tiebreak

TABLES_KEPT = 32
"""Tables of sums kept for reuse (most recently used), each keyed by its table's contents."""

_SUBSETS = tuple(m for m in range(1, 1 << HAND_SIZE))
"""Every non-empty subset of a sorted hand's five places, as a bit mask."""


@lru_cache(maxsize=1)
def _moebius() -> npt.NDArray[np.float64]:
    """``M[k, x] = (-1)^|x - k|`` when keep mask ``k`` lies within ``x``, else 0 (both
    indexed by ``mask - 1`` over :data:`_SUBSETS`): a keep's sum is ``M @ S``."""
    size = len(_SUBSETS)
    out = np.zeros((size, size), dtype=np.float64)
    for k in _SUBSETS:
        for x in _SUBSETS:
            if k & x == k:
                out[k - 1, x - 1] = -1.0 if (x & ~k).bit_count() % 2 else 1.0
    out.flags.writeable = False
    return out


@dataclass(frozen=True, slots=True)
class _DeckSubsets:
    """Per deck: the binomials of the combinatorial index, each hand's index among the
    four-card sets for each of its five four-card subsets, and, per set size ``j`` from 4
    down to 2, each ``j``-card set's index among the ``(j-1)``-card sets for each of its
    ``j`` subsets."""

    first: int
    size: int
    binomials: npt.NDArray[np.int64]
    fours: tuple[npt.NDArray[np.intp], ...]
    lower: dict[int, tuple[npt.NDArray[np.intp], ...]]


def _set_indices(
    sets: npt.NDArray[np.int64], binomials: npt.NDArray[np.int64]
) -> npt.NDArray[np.intp]:
    """The combinatorial index of each row (offsets in ascending order)."""
    index = np.zeros(len(sets), dtype=np.int64)
    for place in range(sets.shape[1]):
        index += binomials[sets[:, place], place + 1]
    return index.astype(np.intp)


def _all_sets(size: int, j: int) -> npt.NDArray[np.int64]:
    """Every ``j``-subset of ``range(size)`` in ascending rows, in combinatorial-index order."""
    rows = np.array(list(itertools.combinations(range(size), j)), dtype=np.int64)
    binomials = np.array([[comb(x, r) for r in range(j + 1)] for x in range(size)], dtype=np.int64)
    order = np.argsort(_set_indices(rows, binomials), kind="stable")
    return rows[order]


@lru_cache(maxsize=2)
def _deck_subsets(players: int) -> _DeckSubsets:
    hands = all_hands(players).astype(np.int64)
    first = int(hands.min())
    offsets = hands - first
    size = int(offsets.max()) + 1
    binomials = np.array(
        [[comb(x, r) for r in range(HAND_SIZE + 1)] for x in range(size)], dtype=np.int64
    )
    fours = tuple(
        _set_indices(np.delete(offsets, drop, axis=1), binomials) for drop in range(HAND_SIZE)
    )
    lower: dict[int, tuple[npt.NDArray[np.intp], ...]] = {}
    for j in range(HAND_SIZE - 1, 1, -1):
        sets = _all_sets(size, j)
        lower[j] = tuple(
            _set_indices(np.delete(sets, drop, axis=1), binomials) for drop in range(j)
        )
    for arrays in (fours, *lower.values()):
        for array in arrays:
            array.flags.writeable = False
    return _DeckSubsets(first, size, binomials, fours, lower)


@dataclass(frozen=True, slots=True)
class _Masks:
    """For the subsets of a sorted hand's five places (:data:`_SUBSETS` order): the places
    of each (padded with place 5, whose binomials are 0) against the column of the index
    each place adds to, and the set size; and the keeps, most cards kept first."""

    places: npt.NDArray[np.intp]
    columns: npt.NDArray[np.intp]
    sizes: npt.NDArray[np.intp]
    keeps: tuple[int, ...]


@lru_cache(maxsize=1)
def _masks() -> _Masks:
    places = np.full((len(_SUBSETS), HAND_SIZE), HAND_SIZE, dtype=np.intp)
    columns = np.zeros((len(_SUBSETS), HAND_SIZE), dtype=np.intp)
    for row, mask in enumerate(_SUBSETS):
        held = [i for i in range(HAND_SIZE) if mask >> i & 1]
        places[row, : len(held)] = held
        columns[row, : len(held)] = np.arange(1, len(held) + 1)
    sizes = np.array([m.bit_count() for m in _SUBSETS], dtype=np.intp)
    keeps = tuple(sorted(_SUBSETS, key=lambda m: (-m.bit_count(), m)))
    return _Masks(places, columns, sizes, keeps)


class DrawExpectations:
    """The sums of one table over the deck's hands holding each set of cards (module
    docstring), and from them the expectation of every keep of any hand."""

    def __init__(self, by_position: npt.NDArray[np.float64], players: int, tiebreak: Tiebreak):
        deck = _deck_subsets(players)
        positions = _deck_tables(players, tiebreak).positions
        values = np.asarray(by_position, dtype=np.float64)[positions]
        sums: dict[int, npt.NDArray[np.float64]] = {HAND_SIZE: values}
        four = np.zeros(comb(deck.size, HAND_SIZE - 1), dtype=np.float64)
        for index in deck.fours:
            four += np.bincount(index, weights=values, minlength=len(four))
        sums[HAND_SIZE - 1] = four
        for j in range(HAND_SIZE - 1, 1, -1):
            below = np.zeros(comb(deck.size, j - 1), dtype=np.float64)
            for index in deck.lower[j]:
                below += np.bincount(index, weights=sums[j], minlength=len(below))
            sums[j - 1] = below / (HAND_SIZE - j + 1)
        starts = np.cumsum([0] + [len(sums[j]) for j in range(1, HAND_SIZE)])
        self._flat = np.concatenate([sums[j] for j in range(1, HAND_SIZE + 1)])
        self._starts = starts.astype(np.intp)
        self._deck = deck
        stock = deck.size - HAND_SIZE
        self._draws = [comb(stock, HAND_SIZE - m.bit_count()) for m in _SUBSETS]
        self.players = players

    def of(
        self, hand: Sequence[Card], max_discards: int = MAX_DRAW
    ) -> list[tuple[tuple[Card, ...], tuple[Card, ...], float]]:
        """Each keep of ``hand``, at least ``5 - max_discards`` cards and at least one: the
        cards kept, the cards discarded and the expected table value of the final hand;
        most cards kept first."""
        deck = self._deck
        masks = _masks()
        order = sorted(hand, key=lambda c: c.index)
        binomials = np.vstack(
            [deck.binomials[[c.index - deck.first for c in order]], np.zeros((1, HAND_SIZE + 1))]
        ).astype(np.int64)
        index = binomials[masks.places, masks.columns].sum(axis=1)
        values = self._flat[self._starts[masks.sizes - 1] + index]
        totals = _moebius() @ values
        out = []
        for keep in masks.keeps:
            drawn = HAND_SIZE - keep.bit_count()
            if drawn > max_discards:
                continue
            kept = tuple(order[i] for i in range(HAND_SIZE) if keep >> i & 1)
            thrown = tuple(order[i] for i in range(HAND_SIZE) if not keep >> i & 1)
            out.append((kept, thrown, float(totals[keep - 1]) / self._draws[keep - 1]))
        return out


_KEPT: OrderedDict[tuple[bytes, int, Tiebreak], DrawExpectations] = OrderedDict()


def draw_expectations(
    by_position: npt.NDArray[np.float64], players: int, tiebreak: Tiebreak | str = "standard"
) -> DrawExpectations:
    """The :class:`DrawExpectations` of ``by_position`` (one entry per ladder position of the
    deck for ``players``), reused while one of the last :data:`TABLES_KEPT` built."""
    rule = Tiebreak(tiebreak)
    table = np.ascontiguousarray(by_position, dtype=np.float64)
    key = (table.tobytes(), players, rule)
    found = _KEPT.get(key)
    if found is None:
        found = DrawExpectations(table, players, rule)
        _KEPT[key] = found
        if len(_KEPT) > TABLES_KEPT:
            _KEPT.popitem(last=False)
    else:
        _KEPT.move_to_end(key)
    return found


__all__ = ["TABLES_KEPT", "DrawExpectations", "draw_expectations"]
