"""Benchmark of hand evaluation: our scalar and batch evaluators against treys, phevaluator and
pokerkit, on the same fixed random hands of the 52-card deck (players=9).

Run ``python benchmarks/bench_evaluation.py`` (``make bench`` installs the ``bench`` extra
first); ``--hands N`` sets the batch size (default 10,000,000). Per-hand loops time the first
``--loop-hands`` of the same hands (pokerkit, much slower, the first ``--pokerkit-hands``).
Our scalar ``evaluate`` and treys' ``evaluate`` are timed in ``--rounds`` rounds (default 9),
taking turns, one pass over the loop hands each; the verdict on the scalar target is the median
of the rounds' ratios, so that a busier moment of the machine falls on both alike. Peers that
are not installed are reported as skipped. The figures in docs/performance.md come from this
script.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from italian_poker import ALL_CARDS, Category, evaluate
from italian_poker.analysis import CATEGORY_SHIFT, batch_evaluator, category_counts

PLAYERS = 9
SEED = 20_240_601
PHEVALUATOR_HANDS_PER_SECOND_IN_BRIEF = 10_000_000
BATCH_TARGET = 50_000_000
BUILD_TARGET = 1.5
COUNT_TARGET = 1.0
STANDARD_COUNTS = {
    Category.STRAIGHT_FLUSH: 40,
    Category.FOUR_OF_A_KIND: 624,
    Category.FLUSH: 5_108,
    Category.FULL_HOUSE: 3_744,
    Category.STRAIGHT: 10_200,
    Category.THREE_OF_A_KIND: 54_912,
    Category.TWO_PAIR: 123_552,
    Category.ONE_PAIR: 1_098_240,
    Category.HIGH_CARD: 1_302_540,
}
# treys rank classes 0..9: royal flush, straight flush, four, full house, flush, straight,
# trips, two pair, pair, high card.
TREYS_CATEGORY = {
    0: Category.STRAIGHT_FLUSH,
    1: Category.STRAIGHT_FLUSH,
    2: Category.FOUR_OF_A_KIND,
    3: Category.FULL_HOUSE,
    4: Category.FLUSH,
    5: Category.STRAIGHT,
    6: Category.THREE_OF_A_KIND,
    7: Category.TWO_PAIR,
    8: Category.ONE_PAIR,
    9: Category.HIGH_CARD,
}


@dataclass
class Row:
    name: str
    hands: int
    seconds: float | None
    note: str = ""

    @property
    def rate(self) -> float | None:
        return None if self.seconds is None else self.hands / self.seconds


def random_hands(n: int, seed: int) -> npt.NDArray[np.uint8]:
    """``n`` hands of five distinct cards of the 52-card deck, each in random order."""
    rng = np.random.default_rng(seed)
    hands = rng.integers(0, 52, size=(n, 5), dtype=np.uint8)
    redo = np.arange(n)
    while True:
        sub = hands[redo]
        repeated = np.zeros(len(sub), dtype=bool)
        for i in range(5):
            for j in range(i + 1, 5):
                repeated |= sub[:, i] == sub[:, j]
        redo = redo[repeated]
        if not len(redo):
            return hands
        hands[redo] = rng.integers(0, 52, size=(len(redo), 5), dtype=np.uint8)


def timed(function: Callable[[], Any], repeat: int = 1) -> tuple[float, Any]:
    """Best wall-clock time of ``repeat`` calls, and the last result."""
    best = float("inf")
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - start)
    return best, result


def interleaved(
    loops: dict[str, Callable[[], Any]], rounds: int
) -> tuple[dict[str, float], list[dict[str, float]]]:
    """Time each loop once per round, the loops taking turns (their order reversed every other
    round), so that a slower or busier moment of the machine falls on all of them alike.
    Returns each loop's best time and every round's times."""
    names = list(loops)
    per_round: list[dict[str, float]] = []
    for index in range(rounds):
        times: dict[str, float] = {}
        for name in names if index % 2 == 0 else reversed(names):
            times[name], _ = timed(loops[name])
        per_round.append(times)
    best = {name: min(times[name] for times in per_round) for name in names}
    return best, per_round


def median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2


def cpu_name() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Benchmark hand evaluation: italian_poker (scalar and batch) against peers."
    )
    parser.add_argument("--hands", type=int, default=10_000_000, help="batch size")
    parser.add_argument("--loop-hands", type=int, default=200_000, help="hands for loops")
    parser.add_argument("--pokerkit-hands", type=int, default=20_000, help="hands for pokerkit")
    parser.add_argument("--repeat", type=int, default=5, help="batch timings: best of N")
    parser.add_argument(
        "--rounds", type=int, default=9, help="rounds of the scalar-vs-treys loops, taking turns"
    )
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args(argv)
    n = args.hands
    loop_n = min(args.loop_hands, n)
    pokerkit_n = min(args.pokerkit_hands, loop_n)
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()

    print("Italian Poker hand evaluation benchmark")
    print(
        f"machine: {cpus} CPUs available ({cpu_name()}), {platform.system()} "
        f"{platform.release()}, Python {platform.python_version()}, numpy {np.__version__}"
    )
    if hasattr(os, "getloadavg"):
        load = os.getloadavg()[0]
        print(f"load average before the run: {load:.2f} (other work on the machine skews timings)")

    # Tables first, in a fresh process: the build includes the scalar evaluator's own tables.
    build_seconds, evaluator = timed(lambda: batch_evaluator(PLAYERS))
    print(
        f"hands: {n:,} random five-card hands of the 52-card deck (players={PLAYERS}), "
        f"seed {args.seed}; per-hand loops time the first {loop_n:,} of them "
        f"(pokerkit the first {pokerkit_n:,})"
    )
    hands = random_hands(n, args.seed)
    loop_rows = hands[:loop_n].tolist()
    rows: list[Row] = []
    notes: list[str] = []

    # Our scalar evaluator and treys, timed in alternating rounds (tables warm, built above).
    card_hands = [tuple(ALL_CARDS[i] for i in row) for row in loop_rows]
    scalar = [evaluate(h, players=PLAYERS).value for h in card_hands]  # warm-up pass
    loops: dict[str, Callable[[], Any]] = {
        "ours": lambda: [evaluate(h, players=PLAYERS) for h in card_hands]
    }
    treys_ranks: list[int] | None = None
    try:
        from treys import Card as TreysCard
        from treys import Evaluator as TreysEvaluator
    except ImportError:
        treys = None
    else:
        treys = TreysEvaluator()
        code = [TreysCard.new(str(card)) for card in ALL_CARDS]
        split = [([code[a], code[b]], [code[c], code[d], code[e]]) for a, b, c, d, e in loop_rows]
        treys_ranks = [treys.evaluate(h, board) for h, board in split]  # warm-up pass
        loops["treys"] = lambda: [treys.evaluate(h, board) for h, board in split]
    best, per_round = interleaved(loops, args.rounds)
    rows.append(Row("italian_poker evaluate (scalar, warm)", loop_n, best["ours"]))
    round_ratios: list[float] = []
    if treys is None:
        rows.append(Row("treys Evaluator().evaluate", 0, None, "skipped: not installed"))
    else:
        rows.append(Row("treys Evaluator().evaluate(hand[:2], hand[2:])", loop_n, best["treys"]))
        round_ratios = [times["treys"] / times["ours"] for times in per_round]

    # Our batch evaluator.
    evaluator.evaluate(hands[:1000])  # warm-up
    seconds, batch = timed(lambda: evaluator.evaluate(hands), args.repeat)
    threads = min(cpus or 1, 8)  # the batch evaluator's default
    rows.append(Row(f"italian_poker evaluate_batch ({threads} threads)", n, seconds, "uint8"))
    batch_rate = n / seconds
    seconds, _ = timed(lambda: evaluator.evaluate(hands, threads=1), args.repeat)
    rows.append(Row("italian_poker evaluate_batch (1 thread)", n, seconds, "uint8"))
    seconds, _ = timed(lambda: evaluator.evaluate(hands, validate=False), args.repeat)
    rows.append(Row("italian_poker evaluate_batch (validate=False)", n, seconds, "uint8"))
    wide = hands.astype(np.int64)
    seconds, _ = timed(lambda: evaluator.evaluate(wide), args.repeat)
    rows.append(Row("italian_poker evaluate_batch (int64 input)", n, seconds, "int64"))
    same = batch[:loop_n].tolist() == scalar
    notes.append(f"batch values equal the scalar values on the {loop_n:,} loop hands: {same}")
    if treys is not None and treys_ranks is not None:
        ours = np.bincount(batch[:loop_n] >> CATEGORY_SHIFT, minlength=9).tolist()
        theirs = [0] * 9
        for rank in treys_ranks:
            theirs[TREYS_CATEGORY[treys.get_rank_class(rank)]] += 1
        notes.append(f"categories of the loop hands agree with treys: {ours == theirs}")

    # phevaluator.
    try:
        from phevaluator import Card as PhCard
        from phevaluator import evaluate_cards
    except ImportError:
        rows.append(Row("phevaluator evaluate_cards (loop)", 0, None, "skipped: not installed"))
        phevaluator_rate = None
    else:
        ph = [PhCard(str(card)).id_ for card in ALL_CARDS]
        ph_rows = [(ph[a], ph[b], ph[c], ph[d], ph[e]) for a, b, c, d, e in loop_rows]
        [evaluate_cards(a, b, c, d, e) for a, b, c, d, e in ph_rows]  # warm-up pass
        seconds, _ = timed(
            lambda: [evaluate_cards(a, b, c, d, e) for a, b, c, d, e in ph_rows], args.repeat
        )
        rows.append(Row("phevaluator evaluate_cards(a, b, c, d, e) loop", loop_n, seconds))
        phevaluator_rate = loop_n / seconds

    # pokerkit.
    try:
        from pokerkit import Card as PkCard
        from pokerkit import StandardHighHand
    except ImportError:
        rows.append(Row("pokerkit StandardHighHand", 0, None, "skipped: not installed"))
    else:
        pk = [next(iter(PkCard.parse(str(card)))) for card in ALL_CARDS]
        pk_rows = [tuple(pk[i] for i in row) for row in loop_rows[:pokerkit_n]]
        StandardHighHand.from_game(pk_rows[0])
        seconds, _ = timed(lambda: [StandardHighHand.from_game(h) for h in pk_rows])
        rows.append(Row("pokerkit StandardHighHand.from_game(cards)", pokerkit_n, seconds))

    scalar_rate = rows[0].rate
    print()
    print(
        f"{'evaluator':50} {'hands':>11} {'seconds':>9} {'hands/s':>13} "
        f"{'vs phe':>8} {'vs scalar':>9}"
    )
    for row in rows:
        if row.rate is None:
            print(f"{row.name:50} {row.note}")
            continue
        vs_ph = f"{row.rate / phevaluator_rate:7.2f}x" if phevaluator_rate else "     n/a"
        vs_scalar = f"{row.rate / scalar_rate:8.2f}x" if scalar_rate else "      n/a"
        print(
            f"{row.name:50} {row.hands:>11,} {row.seconds:>9.3f} {row.rate:>13,.0f} "
            f"{vs_ph} {vs_scalar}"
        )

    # Enumerate and count every hand of the 52-card deck (tables already built).
    count_seconds, counts = timed(lambda: category_counts(PLAYERS), args.repeat)
    print()
    print(
        f"table build (players={PLAYERS}, standard, cold, including the scalar tables): "
        f"{build_seconds:.3f} s"
    )
    print(f"table memory: {evaluator.nbytes:,} bytes ({evaluator.nbytes / 2**20:.1f} MiB)")
    print(
        f"enumerate + evaluate + count all {sum(counts.values()):,} hands: {count_seconds:.3f} s "
        f"(best of {args.repeat})"
    )
    print("  " + ", ".join(f"{c.english.lower()} {counts[c]:,}" for c in reversed(Category)))
    notes.append(f"category counts equal the standard 52-card table: {counts == STANDARD_COUNTS}")
    for note in notes:
        print(f"check: {note}")

    def verdict(ok: bool) -> str:
        return "met" if ok else "NOT MET"

    print()
    print("targets")
    if round_ratios:
        ratio = median(round_ratios)
        print(
            f"  scalar evaluate >= treys evaluate: {verdict(ratio >= 1)} "
            f"({ratio:.2f}x, the median of {len(round_ratios)} rounds taking turns; "
            f"{min(round_ratios):.2f}x to {max(round_ratios):.2f}x; best loops "
            f"{best['treys'] / best['ours']:.2f}x)"
        )
    else:
        print("  scalar evaluate >= treys evaluate: not measured (treys not installed)")
    if phevaluator_rate:
        print(
            f"  batch >= 5x phevaluator loop ({phevaluator_rate:,.0f} hands/s measured here): "
            f"{verdict(batch_rate >= 5 * phevaluator_rate)} "
            f"({batch_rate / phevaluator_rate:.0f}x)"
        )
    else:
        print("  batch >= 5x phevaluator loop: not measured (phevaluator not installed)")
    print(
        f"  batch >= {BATCH_TARGET / 1e6:.0f} M hands/s (5x the brief's "
        f"{PHEVALUATOR_HANDS_PER_SECOND_IN_BRIEF / 1e6:.0f} M/s phevaluator estimate): "
        f"{verdict(batch_rate >= BATCH_TARGET)} ({batch_rate / 1e6:.1f} M hands/s)"
    )
    print(
        f"  table build < {BUILD_TARGET} s: {verdict(build_seconds < BUILD_TARGET)} "
        f"({build_seconds:.3f} s)"
    )
    print(
        f"  enumerate + count 2,598,960 hands < {COUNT_TARGET:.0f} s: "
        f"{verdict(count_seconds < COUNT_TARGET)} ({count_seconds:.3f} s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
