"""Solve the miniature exactly with OpenSpiel's C++ CFR+, and bound the uniform policy's NashConv
in the full heads-up game on a sample.

Run: ``.venv/bin/python benchmarks/solve_miniature.py [--episodes N] [--max-iterations N]``
(needs the ``ai`` extra; about 3 to 5 minutes on one core).

Prints the miniature's tree (walked through the engine: nodes, information sets, terminals,
seconds), then CFR+'s iterations, the average policy's NashConv (checked every 50 iterations
until below 1e-3) and the game's value to player 0 (the dealer); then, for the full heads-up
game (``python_italian_poker`` with ``players=2``, every other parameter its default), the
responder's mean chips against the uniform random policy in each seat, their sum (a lower
bound on the uniform policy's NashConv, italian_poker.ai.uniform_bound) and its standard error.
"""

from __future__ import annotations

import argparse
import time

import pyspiel

from italian_poker.ai.miniature import Miniature, miniature_tree, solve
from italian_poker.ai.uniform_bound import uniform_bound


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=10_000, help="episodes per seat")
    parser.add_argument("--max-iterations", type=int, default=1000)
    args = parser.parse_args()

    mini = Miniature()
    start = time.perf_counter()
    tree = miniature_tree(mini)
    built = time.perf_counter() - start
    print(
        f"miniature ({len(mini.cards)} cards, heads-up, fixed limit {mini.small_bet}/"
        f"{mini.big_bet}, ante {mini.ante}, at most {mini.max_change} card(s) changed): "
        f"{tree.nodes:,} nodes, {tree.infosets:,} information sets, {tree.terminals:,} "
        f"terminals, walked through the engine in {built:.1f} s"
    )
    game = pyspiel.load_efg_game(tree.efg)
    solution = solve(game, target=1e-3, max_iterations=args.max_iterations)
    print(
        f"CFR+ (C++): {solution.iterations} iterations in {solution.seconds:.1f} s, "
        f"NashConv {solution.nash_conv:.2e}, value {solution.value:+.5f} chips to P0 "
        f"({-solution.value:+.5f} to P1)"
    )

    start = time.perf_counter()
    bound = uniform_bound(args.episodes)
    print(
        f"full heads-up game, uniform random policy: responder wins "
        f"{bound.per_seat[0]:+.3f} as P0, {bound.per_seat[1]:+.3f} as P1 "
        f"({bound.episodes:,} episodes per seat, {time.perf_counter() - start:.1f} s): "
        f"NashConv >= {bound.bound:.3f} (standard error {bound.stderr:.3f})"
    )


if __name__ == "__main__":
    main()
