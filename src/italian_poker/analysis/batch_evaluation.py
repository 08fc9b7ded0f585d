"""Batch hand evaluation with numpy, giving exactly the values of the scalar evaluator.

:func:`evaluate_batch` takes an ``(n, 5)`` array of card indices (``Card.index``, 0..51, the
five cards of a row in any order) and returns, as ``int32``, exactly the ``value`` that the
scalar :func:`~italian_poker.engine.hand_rank.evaluate` gives each hand, so values from both
paths can be mixed and compared. As with the scalar ``value``, a higher value is a better hand
except between straight flushes of different classes (7.2, *la minima batte la massima*): use
:func:`compare_values` or :func:`straight_flush_classes` for that.

How it works
------------
For each deck (number of players) and tie-break rule a :class:`BatchEvaluator` holds one
``int32`` table with the value of every five-card hand of the deck, indexed by the
combinatorial number system: a hand with card offsets ``x0 < x1 < x2 < x3 < x4`` (offsets
from the deck's lowest card) sits at ``C(x0, 1) + C(x1, 2) + C(x2, 3) + C(x3, 4) + C(x4, 5)``.
Evaluating a batch, chunk by chunk (65,536 hands at a time, so the working arrays stay in the
CPU cache) and, for inputs of a million hands or more, on several threads (numpy releases the
GIL inside its loops):

1. the chunk is transposed into five ``uint8`` columns;
2. a nine-comparator sorting network (``numpy.minimum``/``numpy.maximum`` on whole columns)
   puts every row in ascending order, which is what makes the input order irrelevant;
3. with validation on, the sorted columns give the checks almost for free: lowest card in
   the deck, highest card at most 51, no two neighbours equal;
4. two 4,096-entry tables indexed by ``x0 << 6 | x1`` and ``x2 << 6 | x3`` and a 64-entry
   table indexed by ``x4`` add up to the hand's index; one gather reads its value.

On the 2-core reference machine this runs at about 70 million hands a second on one thread
and over 100 million on two (docs/performance.md); ``uint8`` input is the fastest.

The value table is computed once per deck and rule (:attr:`BatchEvaluator.build_seconds`:
about 0.5 s for the 52-card deck, of which about 0.3 s builds the scalar evaluator's own
tables if they are not built yet) by enumerating every hand with numpy and replaying the
scalar evaluator's algorithm on its own lookup tables (``hand_rank._tables``): the rank counts
select a table entry, the suits held in the deciding rank (or the flush suit) select the
interned :class:`~italian_poker.engine.hand_rank.HandRank` whose ``value`` is stored. Both paths
therefore read the same ``HandRank`` objects; the tests check every hand of the 24- to 36-card
decks and a large sample of the 52-card deck against :func:`evaluate` under both tie-break
rules.

Memory
------
The value table takes ``4 * C(deck size, 5)`` bytes: 10,395,840 bytes (9.9 MiB) for the
52-card deck (9 players), 6.8 MB for 48 cards, 4.3 MB for 44, 2.6 MB for 40, 1.5 MB for 36,
0.8 MB for 32, 0.4 MB for 28 and 0.17 MB for 24 (2 players), per tie-break rule; the index
tables add 66,048 bytes. :attr:`BatchEvaluator.nbytes` reports the exact figure. Evaluators are
built on first use and kept by :func:`batch_evaluator`. While evaluating, each thread uses
about 3 MB of scratch arrays besides the ``4 * n`` bytes of the result; building the 52-card
table peaks at about 40 MB (the enumerated hands, 13 MB, and chunked temporaries).
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from math import comb
from time import perf_counter
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from italian_poker.engine.cards import ALL_CARDS, Rank
from italian_poker.engine.deck import check_players
from italian_poker.engine.errors import CardNotInDeckError, DuplicateCardError, HandSizeError
from italian_poker.engine.hand_rank import (
    CATEGORY_SHIFT,
    Category,
    StraightFlushClass,
    Tiebreak,
    _tables,
)

__all__ = [
    "CATEGORY_SHIFT",
    "CHUNK_SIZE",
    "NOT_STRAIGHT_FLUSH",
    "PARALLEL_MIN_HANDS",
    "STRAIGHT_FLUSH_CLASSES",
    "BatchEvaluator",
    "all_hands",
    "batch_evaluator",
    "categories",
    "category_counts",
    "compare_values",
    "evaluate_batch",
    "straight_flush_classes",
]

Values = npt.NDArray[np.int32]
"""An array of hand values (``HandRank.value``), ``int32``."""


CHUNK_SIZE: Final = 65_536
"""Hands evaluated per step: small enough for the working arrays to stay in the L2 cache."""

PARALLEL_MIN_HANDS: Final = 16 * CHUNK_SIZE
"""Inputs this large (1,048,576 hands) or larger are split over threads by default."""

NOT_STRAIGHT_FLUSH: Final = -1
"""The code :func:`straight_flush_classes` gives a hand that is not a straight flush."""

STRAIGHT_FLUSH_CLASSES: Final = (
    StraightFlushClass.MINIMUM,
    StraightFlushClass.MEDIUM,
    StraightFlushClass.MAXIMUM,
)
"""The classes by the code :func:`straight_flush_classes` gives them: 0, 1 and 2."""

_BUILD_CHUNK = 131_072
_TOP_SHIFT = 18  # a straight flush's value holds its top rank in bits 18..21
_RANK_MASK = 15
_MAX_INDEX = 51
# An optimal sorting network for five elements: nine comparators, depth five.
_SORTING_NETWORK: Final = ((0, 3), (1, 4), (0, 2), (1, 3), (0, 1), (2, 4), (1, 2), (3, 4), (2, 3))


def _first_index(players: int) -> int:
    """Index of the deck's lowest card: 4 * (lowest rank - 2), lowest rank = 11 - players."""
    return 4 * (9 - players)


def _deck_size(players: int) -> int:
    return 52 - _first_index(players)


def all_hands(players: int) -> npt.NDArray[np.uint8]:
    """Every five-card hand of the deck for ``players`` players, as card indices.

    Returns a ``(C(deck size, 5), 5)`` ``uint8`` array (2,598,960 rows for 9 players). Each
    row is in ascending order; rows are in colexicographic order, so row ``i`` is the hand
    whose combinatorial-number-system index (offsets from the deck's lowest card) is ``i``.
    Built with numpy, in a few tens of milliseconds for the 52-card deck.
    """
    check_players(players)
    size = _deck_size(players)
    # Lexicographic order of the descending tuples (d0 > d1 > ... > d4) is colexicographic
    # order of the sets. Position j holds a value from 4 - j upwards.
    columns: list[npt.NDArray[np.uint8]] = [np.arange(4, size, dtype=np.uint8)]
    for j in range(1, 5):
        counts = columns[-1].astype(np.int64) - (4 - j)  # choices for d_j: 4 - j .. d_(j-1) - 1
        starts = (np.cumsum(counts) - counts).astype(np.int32)
        total = int(counts.sum())
        within = np.arange(4 - j, total + 4 - j, dtype=np.int32) - np.repeat(starts, counts)
        columns = [np.repeat(column, counts) for column in columns]
        columns.append(within.astype(np.uint8))
    first = _first_index(players)
    hands = np.empty((len(columns[0]), 5), dtype=np.uint8)
    for j, column in enumerate(columns):
        hands[:, 4 - j] = column
    hands += np.uint8(first)
    return hands


def _index_tables(
    players: int,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The three tables whose entries add up to a sorted hand's index (see the module doc).

    Indexed by global card indices; entries for cards below the deck are never read when the
    input is validated (they hold 0).
    """
    first = _first_index(players)
    binomial = np.zeros((5, 64), dtype=np.int64)
    for k in range(5):
        for card in range(first, 52):
            binomial[k, card] = comb(card - first, k + 1)
    low_pair = (binomial[0][:, None] + binomial[1][None, :]).ravel()
    high_pair = (binomial[2][:, None] + binomial[3][None, :]).ravel()
    top = binomial[4].copy()
    for table in (low_pair, high_pair, top):
        table.flags.writeable = False
    return low_pair, high_pair, top


def _multiset_index_tables(players: int) -> list[npt.NDArray[np.int64]]:
    """Tables for a dense index of rank multisets: sorted rank offsets q0 <= ... <= q4 (from
    the deck's lowest rank) map to ``sum(C(q_k + k, k + 1))``, below ``C(ranks + 4, 5)``."""
    ranks = 15 - (11 - players)
    return [np.array([comb(q + k, k + 1) for q in range(ranks)], dtype=np.int64) for k in range(5)]


def _table_values(players: int, tiebreak: Tiebreak, hands: npt.NDArray[np.uint8]) -> Values:
    """Values of sorted hands, replaying the scalar evaluator on its own lookup tables."""
    scalar = _tables(players, tiebreak)
    low = 11 - players
    ranks = 15 - low
    multiset = _multiset_index_tables(players)
    entries = comb(ranks + 4, 5)
    shifts = np.zeros(entries, dtype=np.int64)
    plain = np.full((entries, 16), -1, dtype=np.int32)
    flush = np.full((entries, 4), -1, dtype=np.int32)

    def dense(keys: list[int]) -> npt.NDArray[np.int64]:
        """Dense multiset indices of scalar rank keys (the count of rank r in bits
        3 * (r - 2) .. + 2); the k-th smallest rank offset is the number of ranks whose
        cumulative count is at most k."""
        array = np.array(keys, dtype=np.int64)[:, None]
        counts = (array >> (3 * (np.arange(low, 15) - 2))) & 7
        cumulative = np.cumsum(counts, axis=1)
        index = np.zeros(len(keys), dtype=np.int64)
        for k in range(5):
            index += multiset[k][(cumulative <= k).sum(axis=1)]
        return index

    plain_keys = list(scalar.plain)
    plain_rows = dense(plain_keys)
    shifts[plain_rows] = [scalar.plain[key][0] for key in plain_keys]
    plain[plain_rows] = [[r.value for r in scalar.plain[key][1]] for key in plain_keys]
    flush_keys = list(scalar.flush)
    flush[dense(flush_keys)] = [[r.value for r in scalar.flush[key]] for key in flush_keys]

    plain_flat = plain.ravel()
    flush_flat = flush.ravel()
    values: Values = np.empty(len(hands), dtype=np.int32)
    for start in range(0, len(hands), _BUILD_CHUNK):  # chunks keep temporaries small
        rows = hands[start : start + _BUILD_CHUNK]
        cards = [rows[:, k].astype(np.int64) for k in range(5)]
        d_index = np.zeros(len(rows), dtype=np.int64)  # the rank multiset
        mask = np.zeros(len(rows), dtype=np.int64)  # the set of cards, as Card.bit
        for k, card in enumerate(cards):
            d_index += multiset[k][(card >> 2) - (low - 2)]
            mask |= np.int64(1) << card
        nibble = (mask >> shifts[d_index]) & 15  # suits held in the deciding rank
        suit = cards[0] & 3
        same_suit = np.ones(len(rows), dtype=bool)
        for card in cards[1:]:
            same_suit &= (card & 3) == suit
        values[start : start + len(rows)] = np.where(
            same_suit, flush_flat[d_index * 4 + suit], plain_flat[d_index * 16 + nibble]
        )
    if len(values) and int(values.min()) < 0:  # pragma: no cover - would be a bug
        raise RuntimeError("batch evaluator: a hand has no entry in the scalar tables")
    return values


def _default_threads() -> int:
    try:
        available = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        available = os.cpu_count() or 1
    return max(1, min(available, 8))


class BatchEvaluator:
    """Evaluates arrays of hands for one deck (number of players) and tie-break rule.

    Build one with :func:`batch_evaluator` (cached) or directly; building precomputes the value
    of every hand of the deck (see the module docstring for the method, the time and the
    memory: 10.4 MB for the 52-card deck).
    """

    players: int
    tiebreak: Tiebreak
    first_index: int
    """Index of the deck's lowest card (``Card.index``); the deck is ``first_index .. 51``."""
    build_seconds: float
    """Wall-clock seconds the tables took to build (including the scalar tables if needed)."""

    def __init__(self, players: int, tiebreak: Tiebreak | str = "standard") -> None:
        start = perf_counter()
        _tables(players, tiebreak)  # validates both arguments, as the scalar evaluator does
        self.players = players
        self.tiebreak = Tiebreak(tiebreak)
        self.first_index = _first_index(players)
        values = _table_values(players, self.tiebreak, all_hands(players))
        values.flags.writeable = False
        self._values: Values = values
        self._low_pair, self._high_pair, self._top = _index_tables(players)
        self.build_seconds = perf_counter() - start

    def __repr__(self) -> str:
        return f"BatchEvaluator(players={self.players}, tiebreak={self.tiebreak.value!r})"

    @property
    def deck_size(self) -> int:
        """Number of cards in the deck."""
        return 52 - self.first_index

    @property
    def table(self) -> Values:
        """Read-only values of every hand, in the order of :func:`all_hands`."""
        return self._values

    @property
    def nbytes(self) -> int:
        """Bytes held by this evaluator's tables."""
        return int(
            self._values.nbytes + self._low_pair.nbytes + self._high_pair.nbytes + self._top.nbytes
        )

    def evaluate(
        self,
        hands: npt.ArrayLike,
        *,
        validate: bool = True,
        threads: int | None = None,
    ) -> Values:
        """The ``HandRank.value`` of each row of ``hands``; see :func:`evaluate_batch`."""
        array = _as_hands(hands)
        n = len(array)
        out: Values = np.empty(n, dtype=np.int32)
        if n == 0:
            return out
        wide = array.dtype.itemsize > 1

        def run(start: int) -> None:
            stop = min(start + CHUNK_SIZE, n)
            self._evaluate_chunk(array[start:stop], out[start:stop], start, validate, wide)

        starts = range(0, n, CHUNK_SIZE)
        workers = min(_check_threads(threads), len(starts))
        if threads is None and n < PARALLEL_MIN_HANDS:
            workers = 1  # a thread pool costs more than it saves on small inputs
        if workers <= 1:
            for start in starts:
                run(start)
        else:
            with ThreadPoolExecutor(max_workers=workers) as pool:
                # map yields in order, so the first error raised is in the earliest bad chunk.
                for _ in pool.map(run, starts):
                    pass
        return out

    def _evaluate_chunk(
        self,
        chunk: npt.NDArray[np.integer[Any]],
        out: Values,
        offset: int,
        validate: bool,
        wide: bool,
    ) -> None:
        if (
            validate
            and wide
            and (int(chunk.min()) < self.first_index or int(chunk.max()) > _MAX_INDEX)
        ):
            self._raise_invalid(chunk, offset)
        # Wide types were range-checked above; int8 wraps negative indices to 128..255.
        small = chunk if chunk.dtype == np.uint8 else chunk.astype(np.uint8)
        columns = list(small.T.copy())  # five contiguous columns
        spare = np.empty_like(columns[0])
        for i, j in _SORTING_NETWORK:
            a, b = columns[i], columns[j]
            np.minimum(a, b, out=spare)
            np.maximum(a, b, out=b)
            columns[i], spare = spare, a
        c0, c1, c2, c3, c4 = columns
        if validate:
            repeated = np.equal(c0, c1)
            for lower, upper in ((c1, c2), (c2, c3), (c3, c4)):
                repeated |= np.equal(lower, upper)
            if (
                int(c0.min()) < self.first_index
                or int(c4.max()) > _MAX_INDEX
                or bool(repeated.any())
            ):
                self._raise_invalid(chunk, offset)
        low = c0.astype(np.intp)
        low <<= 6
        low |= c1
        high = c2.astype(np.intp)
        high <<= 6
        high |= c3
        index = np.take(self._low_pair, low)
        index += np.take(self._high_pair, high)
        index += np.take(self._top, c4)
        np.take(self._values, index, out=out)

    def _raise_invalid(self, chunk: npt.NDArray[np.integer[Any]], offset: int) -> None:
        """Raise the error for the first bad row of ``chunk`` (``offset`` is its first row)."""
        rows = chunk.astype(np.int64)  # uint64 values >= 2**63 turn negative: still flagged
        off_cards = (rows < 0) | (rows > _MAX_INDEX)
        ordered = np.sort(rows, axis=1)
        repeated = (ordered[:, 1:] == ordered[:, :-1]).any(axis=1)
        below = rows < self.first_index
        bad = off_cards.any(axis=1) | repeated | below.any(axis=1)
        if not bad.any():  # pragma: no cover - only reached after a failed check
            return
        row = int(np.argmax(bad))
        cards: list[int] = chunk[row].tolist()  # exact values, whatever the dtype
        where = f"hands[{offset + row}] = {cards}"
        if off_cards[row].any():
            index = next(c for c in cards if not 0 <= c <= _MAX_INDEX)
            raise CardNotInDeckError(
                f"{where}: {index} is not a card index; cards are numbered 0..51 "
                "(Card.index = 4 * (rank - 2) + suit)"
            )
        if repeated[row]:
            card = ALL_CARDS[next(c for c in cards if cards.count(c) > 1)]
            raise DuplicateCardError(
                f"{where}: card {card} (index {card.index}) appears more than once"
            )
        card = ALL_CARDS[next(c for c in cards if c < self.first_index)]
        raise CardNotInDeckError(
            f"{where}: {card} (index {card.index}) is not in the {self.deck_size}-card deck "
            f"for {self.players} players (lowest rank {Rank(11 - self.players).label}, "
            f"card indices {self.first_index}..51)"
        )

    def category_counts(self) -> dict[Category, int]:
        """How many hands of the deck fall in each category: enumerates them all with
        :func:`all_hands` and evaluates them with :meth:`evaluate`."""
        values = self.evaluate(all_hands(self.players), validate=False)
        counts = np.bincount(values >> CATEGORY_SHIFT, minlength=len(Category))
        return {category: int(counts[category]) for category in Category}


def _check_threads(threads: int | None) -> int:
    if threads is None:
        return _default_threads()
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be a whole number of at least 1 or None, got {threads!r}")
    return threads


def _as_hands(hands: npt.ArrayLike) -> npt.NDArray[np.integer[Any]]:
    """``hands`` as an integer array of shape (n, 5), or the error saying what is wrong."""
    try:
        array = np.asarray(hands)
    except ValueError:
        raise HandSizeError(
            "hands must be an (n, 5) array of card indices; the rows given differ in length"
        ) from None
    if array.ndim != 2 or array.shape[1] != 5:
        hint = " (for one hand use an array of shape (1, 5))" if array.shape == (5,) else ""
        raise HandSizeError(
            f"hands must be an (n, 5) array of card indices, one hand of five cards a row; "
            f"got shape {array.shape}{hint}"
        )
    if not np.issubdtype(array.dtype, np.integer):
        raise TypeError(
            f"hands must hold integer card indices (Card.index, 0..51), got dtype {array.dtype}; "
            "convert Card objects with card.index"
        )
    return array


_EVALUATORS: dict[tuple[int, str], BatchEvaluator] = {}
_LOCK = threading.Lock()


def batch_evaluator(players: int, tiebreak: Tiebreak | str = "standard") -> BatchEvaluator:
    """The :class:`BatchEvaluator` for a deck and tie-break rule, built on first use and kept."""
    # Tiebreak is a StrEnum: Tiebreak.STANDARD and "standard" are the same key.
    evaluator = _EVALUATORS.get((players, tiebreak)) if type(players) is int else None
    if evaluator is None:
        with _LOCK:
            key = (check_players(players), str(tiebreak))
            evaluator = _EVALUATORS.get(key)
            if evaluator is None:
                evaluator = BatchEvaluator(players, tiebreak)
                _EVALUATORS[(players, evaluator.tiebreak.value)] = evaluator
    return evaluator


def evaluate_batch(
    hands: npt.ArrayLike,
    *,
    players: int,
    tiebreak: Tiebreak | str = "standard",
    validate: bool = True,
    threads: int | None = None,
) -> Values:
    """The ``HandRank.value`` of every hand, as :func:`italian_poker.evaluate` gives it.

    ``hands`` is an ``(n, 5)`` array (or nested sequence) of integer card indices
    (``Card.index``, 0..51), the five cards of a row in any order; ``uint8`` input is the
    fastest, other integer types are converted chunk by chunk. Returns an ``int32`` array of
    length ``n``. ``category = value >> 22`` (:func:`categories`).

    With ``validate`` (the default) raises :class:`HandSizeError` unless the shape is
    ``(n, 5)``, :class:`CardNotInDeckError` for an index outside 0..51 or a card below the
    deck's lowest rank, :class:`DuplicateCardError` for a card repeated within a row (each
    naming the first bad row), and :class:`TypeError` for a non-integer dtype.
    ``validate=False`` skips the card checks (shape and dtype are still checked) and is roughly
    10 % faster: only for hands known to be valid, as invalid rows then give meaningless values
    or an :class:`IndexError`.

    Inputs of at least ``PARALLEL_MIN_HANDS`` (2**20) hands are split over the CPUs available
    (at most 8) by default; ``threads=k`` uses up to ``k`` threads whatever the size, and
    ``threads=1`` stays on the calling thread, which is faster when other processes keep the
    CPUs busy. The tables are built on first use for each
    deck and rule (:func:`batch_evaluator`).
    """
    return batch_evaluator(players, tiebreak).evaluate(hands, validate=validate, threads=threads)


def categories(values: npt.ArrayLike) -> npt.NDArray[np.int8]:
    """The :class:`Category` of each value, as ``int8`` (``Category(code)`` names it)."""
    return (np.asarray(values, dtype=np.int64) >> CATEGORY_SHIFT).astype(np.int8)


def straight_flush_classes(values: npt.ArrayLike, *, players: int) -> npt.NDArray[np.int8]:
    """The straight-flush class of each value as ``int8``: 0 minimum, 1 medium, 2 maximum
    (``STRAIGHT_FLUSH_CLASSES[code]``), or ``NOT_STRAIGHT_FLUSH`` (-1) for other hands.

    The minimum is the ace-low straight flush of the deck (its top is the lowest rank + 3),
    the maximum is ten to ace (7.1); ``players`` says which deck the values come from.
    """
    check_players(players)
    array = np.asarray(values, dtype=np.int64)
    straight_flush = (array >> CATEGORY_SHIFT) == Category.STRAIGHT_FLUSH
    top = (array >> _TOP_SHIFT) & _RANK_MASK
    codes = np.full(array.shape, NOT_STRAIGHT_FLUSH, dtype=np.int8)
    codes[straight_flush] = 1
    codes[straight_flush & (top == 14)] = 2
    codes[straight_flush & (top == 11 - players + 3)] = 0
    return codes


def compare_values(a: npt.ArrayLike, b: npt.ArrayLike, *, players: int) -> npt.NDArray[np.int8]:
    """Elementwise :func:`~italian_poker.compare_ranks` on values: 1 where ``a`` wins,
    -1 where ``b`` wins, 0 on a tie, with the minimum straight flush beating the maximum (7.2).
    ``a`` and ``b`` broadcast against each other."""
    left = np.asarray(a, dtype=np.int64)
    right = np.asarray(b, dtype=np.int64)
    result = np.sign(left - right).astype(np.int8)
    left_class = straight_flush_classes(left, players=players)
    right_class = straight_flush_classes(right, players=players)
    minimum, maximum = 0, 2
    result = np.where((left_class == minimum) & (right_class == maximum), np.int8(1), result)
    result = np.where((left_class == maximum) & (right_class == minimum), np.int8(-1), result)
    return result.astype(np.int8)


def category_counts(players: int, tiebreak: Tiebreak | str = "standard") -> dict[Category, int]:
    """How many hands of the deck for ``players`` fall in each :class:`Category`.

    Enumerates every hand with numpy and evaluates them with the batch path
    (:meth:`BatchEvaluator.category_counts`). Counts do not depend on ``tiebreak``.
    """
    return batch_evaluator(players, tiebreak).category_counts()
