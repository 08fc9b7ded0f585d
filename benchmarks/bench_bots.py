"""Bot strength: the strong bot against the simple one, with duplicate deals.

Run: ``.venv/bin/python benchmarks/bench_bots.py [--deals N] [--players P] [--rules NAME]``

What is measured (:func:`italian_poker.analysis.simulation.head_to_head`): matches of
``--match-deals`` deals (default 250) between the two levels, the seats alternating (strong in
P1, P3, ...). Each match is played twice with the same seed, hence the same deck order at every
deal, the second time with the levels swapped seat for seat (duplicate deals, which also
rotates every seat through both levels). Busted bots buy back in to the starting stack.

Printed: the chips the strong bot won per deal and per 100 deals (per seat it held, averaged
over the duplicate pairs), the 95% Student's t confidence interval over the pairs, whether
the margin is significantly positive (the interval above 0), the standard error the same
matches would give without the pairing (each match alone), and the deals per second.
"""

from __future__ import annotations

import argparse
import time

from italian_poker.analysis.simulation import head_to_head
from italian_poker.engine.rules import preset


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000, help="deals in all (20,000)")
    parser.add_argument("--players", type=int, default=4, help="seats, 2-9 (4)")
    parser.add_argument("--rules", default="standard", help="rules preset (standard)")
    parser.add_argument("--match-deals", type=int, default=250, help="deals per match (250)")
    parser.add_argument("--stack", type=int, default=100, help="starting stack (100)")
    parser.add_argument("--seed", type=int, default=2026, help="seed (2026)")
    args = parser.parse_args()
    began = time.perf_counter()
    result = head_to_head(
        "strong",
        "simple",
        deals=args.deals,
        players=args.players,
        seed=args.seed,
        rules=preset(args.rules, players=args.players),
        stack=args.stack,
        match_deals=args.match_deals,
    )
    wall = time.perf_counter() - began
    low, high = result.interval(0.95)
    unpaired = result.unpaired
    mean = sum(unpaired) / len(unpaired)
    spread = (sum((u - mean) ** 2 for u in unpaired) / (len(unpaired) - 1)) ** 0.5
    unpaired_error = spread / len(unpaired) ** 0.5
    print(
        f"strong vs simple: {result.deals:,} deals, {args.players} players, rules "
        f"{result.rules}, stack {args.stack}, {len(result.samples)} duplicate pairs of "
        f"{args.match_deals}-deal matches, seed {args.seed}"
    )
    print(f"strong wins {result.margin:+.3f} chips per deal per seat")
    print(f"           {100 * result.margin:+.1f} chips per 100 deals per seat")
    print(f"95% confidence interval: [{low:+.3f}, {high:+.3f}] chips per deal")
    print(f"significantly positive: {'yes' if low > 0 else 'NO'}")
    print(
        f"standard error: {result.standard_error:.3f} with duplicate pairs, "
        f"{unpaired_error:.3f} with the same matches unpaired"
    )
    print(
        f"speed: {result.deals_per_second:.0f} deals/s in the matches "
        f"({result.deals / wall:.0f} deals/s wall, {wall:.1f} s)"
    )


if __name__ == "__main__":
    main()
