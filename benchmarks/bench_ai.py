"""The OpenSpiel game's speed: random-playout episodes per second through pyspiel.

Run: ``.venv/bin/python benchmarks/bench_ai.py [--seconds S]`` (needs the ``ai`` extra).

Each configuration plays complete episodes (one deal each, stacks of 100) from
``game.new_initial_state()``: chance outcomes drawn by their probabilities, player actions
uniformly among the legal ones, as ``pyspiel.random_sim_test`` plays. Next to it, in the same
run, OpenSpiel's own C++ ``universal_poker`` as 4-player limit hold'em, played the same way
from Python, so that the figures are comparable on one machine. The target of issue 14 is at
least 2,000 four-player deals/s through pyspiel. The load average is printed first.
"""

from __future__ import annotations

import argparse
import os
import random
import time

import pyspiel

import italian_poker.ai  # noqa: F401  (registers python_italian_poker)

LIMIT_HOLDEM_4 = {
    "betting": "limit",
    "numPlayers": 4,
    "numRounds": 4,
    "blind": "1 2 0 0",
    "raiseSize": "2 2 4 4",
    "firstPlayer": "3 1 1 1",
    "maxRaises": "3 3 3 3",
    "numSuits": 4,
    "numRanks": 13,
    "numHoleCards": 2,
    "numBoardCards": "0 3 1 1",
    "stack": "200 200 200 200",
}
"""4-player limit hold'em in universal_poker's parameters."""


def episodes_per_second(game: pyspiel.Game, seconds: float, seed: int = 0) -> float:
    """Random playouts of ``game`` for about ``seconds``: episodes per second."""
    rng = random.Random(seed)
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
        done += 1
    return done / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per configuration")
    args = parser.parse_args()
    print("load average:", " ".join(f"{x:.2f}" for x in os.getloadavg()))
    rows = [
        (
            f"python_italian_poker, {n} players",
            pyspiel.load_game("python_italian_poker", {"players": n}),
        )
        for n in (2, 4, 9)
    ]
    rows.append(
        (
            "universal_poker, 4-player limit hold'em (C++)",
            pyspiel.load_game("universal_poker", LIMIT_HOLDEM_4),
        )
    )
    for name, game in rows:
        print(f"{episodes_per_second(game, args.seconds):10,.0f} episodes/s  {name}")


if __name__ == "__main__":
    main()
