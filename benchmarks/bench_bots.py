"""Bot strength: a line-up of bots in every seat rotation, with duplicate deals and a luck
correction (:func:`italian_poker.analysis.evaluation.evaluate_lineup`).

Run: ``.venv/bin/python benchmarks/bench_bots.py [--deals N] [--players P] [--lineup L]
[--workers N]``

``--reference LEVEL`` plays the same blocks again with that level in the challenger's seats
and prints the corrected difference, block by block (the same deals: far narrower than either
margin's interval).

``--workers N`` plays the matches on N processes, with the same figures (but the speed).

``--lineup`` names the levels seat by seat, comma-separated, repeated round the table when
shorter than ``--players`` (default ``strong,simple``: strong in P1, P3, ...); the first level
is the challenger, measured against the others. Every distinct rotation of the line-up plays
the same blocks of ``--block-deals`` deals from the same seeds (the same deck order at every
deal). Busted bots buy back in to the starting stack.

Printed, from the same deals: the challenger's chips per deal per seat with its standard
error three ways (plain: every match alone; duplicate: the rotations of a block averaged;
corrected: the duplicate samples less the AIVAT-style correction of the cards' luck and of the
bots' own random choices, the latter left out with ``--no-action-terms``), the ratio of each
standard error to the plain one, the mean correction (expectation 0) against its own error,
the deals per second, and whether the target (the plain standard error halved) is met.
"""

from __future__ import annotations

import argparse
import time

from italian_poker.analysis.evaluation import (
    Estimate,
    Evaluation,
    evaluate_lineup,
    paired_difference,
)
from italian_poker.engine.rules import preset


def _line(name: str, estimate: Estimate, plain: Estimate) -> str:
    low, high = estimate.interval(0.95)
    return (
        f"{name:<10} {estimate.mean:+.3f} ± {estimate.standard_error:.3f} "
        f"(95% [{low:+.3f}, {high:+.3f}], {estimate.samples} samples, "
        f"SE ratio {estimate.standard_error / plain.standard_error:.2f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000, help="deals in all (20,000)")
    parser.add_argument("--players", type=int, default=4, help="seats, 2-9 (4)")
    parser.add_argument("--lineup", default="strong,simple", help="levels (strong,simple)")
    parser.add_argument("--rules", default="standard", help="rules preset (standard)")
    parser.add_argument("--block-deals", type=int, default=50, help="deals per block (50)")
    parser.add_argument("--stack", type=int, default=100, help="starting stack (100)")
    parser.add_argument("--seed", type=int, default=2026, help="seed (2026)")
    parser.add_argument("--workers", type=int, default=1, help="processes playing the matches (1)")
    parser.add_argument(
        "--reference",
        help="a level played in the challenger's seats on the same blocks: the paired difference",
    )
    parser.add_argument(
        "--no-action-terms",
        action="store_true",
        help="correct the luck of the cards only, not the bots' own random choices",
    )
    args = parser.parse_args()
    named = [level.strip() for level in args.lineup.split(",") if level.strip()]
    lineup = [named[i % len(named)] for i in range(args.players)]
    began = time.perf_counter()
    result = _evaluate(lineup, args)
    wall = time.perf_counter() - began
    plain = result.plain
    print(
        f"{' '.join(result.lineup)}: {result.deals:,} deals, {result.players} players, rules "
        f"{result.rules}, stack {args.stack}, {result.rotations} rotations of "
        f"{args.block_deals}-deal blocks, seed {args.seed}, "
        f"{'cards only' if args.no_action_terms else 'cards and action terms'}"
    )
    print(f"{result.lineup[0]} wins, chips per deal per seat:")
    print(_line("plain", plain, plain))
    print(_line("duplicate", result.duplicate, plain))
    print(_line("corrected", result.corrected, plain))
    print(
        f"mean correction {result.correction_mean:+.3f} ± {result.correction_error:.3f} "
        "(expectation 0)"
    )
    met = result.corrected.standard_error <= plain.standard_error / 2
    print(f"target (corrected SE <= plain SE / 2): {'met' if met else 'NOT met'}")
    print(f"speed: {result.deals_per_second:.0f} deals/s ({wall:.1f} s)")
    if args.reference:
        challenger = lineup[0]
        swapped = [args.reference if level == challenger else level for level in lineup]
        reference = _evaluate(swapped, args)
        print(f"{args.reference} in the same seats on the same blocks:")
        print(_line("corrected", reference.corrected, reference.plain))
        difference = paired_difference(result, reference)
        low, high = difference.interval(0.95)
        print(
            f"{challenger} less {args.reference}, paired by block: {difference.mean:+.3f} ± "
            f"{difference.standard_error:.3f} (95% [{low:+.3f}, {high:+.3f}])"
        )


def _evaluate(lineup: list[str], args: argparse.Namespace) -> Evaluation:
    return evaluate_lineup(
        lineup,
        deals=args.deals,
        seed=args.seed,
        rules=preset(args.rules, players=args.players),
        stack=args.stack,
        block_deals=args.block_deals,
        actions=not args.no_action_terms,
        workers=args.workers,
    )


if __name__ == "__main__":
    main()
