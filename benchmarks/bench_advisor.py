"""Benchmark of the advisor (analysis/advisor.py, ``italian-poker advise``): the time to advise
one hand, every one of its 31 draws enumerated exactly, on fixed random distinct hands.

Run ``python benchmarks/bench_advisor.py`` (``--hands N`` per deck, default 300; ``--seed``).
The one-off cost of a deck (its hand ladder, the tables of the draw enumeration and the
opponents' model, built once per process) is timed apart; then each hand is advised once, as a
new hand (the hands are distinct, so nothing of one is cached for the next), and the median,
95th percentile and slowest time are printed per deck. The target: under 50 ms a hand for the
32-card deck of four players. Figures, not assertions: the tests time nothing.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time

from italian_poker.analysis.advisor import advise
from italian_poker.engine.deck import Deck

TARGET_MS = 50.0
"""The budget for one hand on the 32-card deck (4 players)."""


def distinct_hands(players: int, count: int, seed: int) -> list[tuple[str, ...]]:
    """``count`` different five-card hands of the deck for ``players``, in a fixed order."""
    rng = random.Random(seed * 10 + players)
    cards = [str(c) for c in Deck(players).cards]
    found: dict[frozenset[str], tuple[str, ...]] = {}
    while len(found) < count:
        hand = tuple(rng.sample(cards, 5))
        found.setdefault(frozenset(hand), hand)
    return list(found.values())


def bench(players: int, hands: int, seed: int) -> dict[str, float]:
    """Setup and per-hand times (milliseconds) for one deck."""
    sample = distinct_hands(players, hands + 1, seed)
    start = time.perf_counter()
    advise(sample[0], players=players)  # builds the deck's tables and model
    setup = (time.perf_counter() - start) * 1000
    times = []
    for hand in sample[1:]:
        start = time.perf_counter()
        choices = advise(hand, players=players)
        times.append((time.perf_counter() - start) * 1000)
        assert len(choices) == 31
    times.sort()
    return {
        "setup": setup,
        "median": statistics.median(times),
        "p95": times[int(0.95 * (len(times) - 1))],
        "max": times[-1],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300, help="hands per deck (default 300)")
    parser.add_argument("--seed", type=int, default=15, help="seed of the hands (default 15)")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs")
    print(f"{args.hands} distinct hands per deck, every 31 draws enumerated exactly")
    print(
        f"{'players':>7} {'deck':>4} {'setup ms':>9} {'median ms':>10} {'p95 ms':>7} {'max ms':>7}"
    )
    results = {}
    for players in (2, 4, 6, 9):
        r = bench(players, args.hands, args.seed)
        results[players] = r
        print(
            f"{players:>7} {len(Deck(players)):>4} {r['setup']:>9.1f} {r['median']:>10.2f} "
            f"{r['p95']:>7.2f} {r['max']:>7.2f}"
        )
    four = results[4]
    verdict = "met" if four["max"] < TARGET_MS else "NOT met"
    print(
        f"Target: under {TARGET_MS:.0f} ms a hand on the 32-card deck: {verdict} "
        f"(slowest {four['max']:.2f} ms, median {four['median']:.2f} ms; "
        f"one-off setup {four['setup']:.0f} ms per process)"
    )


if __name__ == "__main__":
    main()
