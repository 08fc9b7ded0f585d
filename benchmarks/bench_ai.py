"""The OpenSpiel game's speed: random-playout episodes per second through pyspiel.

Run: ``.venv/bin/python benchmarks/bench_ai.py [--seconds S]`` (needs the ``ai`` extra).

Each configuration plays complete episodes (one deal each, stacks of 100) from
``game.new_initial_state()``: chance outcomes drawn by their probabilities, player actions
uniformly among the legal ones, as ``pyspiel.random_sim_test`` plays. Next to it, in the same
run, OpenSpiel's own C++ ``universal_poker`` as 4-player limit hold'em, played the same way
from Python, so that the figures are comparable on one machine; the last line gives the
4-player game's rate as a fraction of universal_poker's. The same episodes are also played
through the PettingZoo environments (the native AEC one and Shimmy's over the OpenSpiel game),
an agent's action drawn uniformly from its action mask. Every configuration is measured in turn,
``--rounds`` times, interleaved; the best round is printed. The load average is printed first.

``--clock cpu`` (the default) times the process's own CPU time (``time.process_time``), so
that other work on a shared machine does not count; ``--clock wall`` times the wall clock.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np
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

CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.process_time, "wall": time.perf_counter}
"""The clocks a rate can be timed with (``--clock``)."""

FOUR_PLAYERS = "python_italian_poker, 4 players (pyspiel)"
UNIVERSAL = "universal_poker, 4-player limit hold'em (C++)"
"""The two rows compared."""


def episodes_per_second(
    game: pyspiel.Game,
    seconds: float,
    seed: int = 0,
    clock: Callable[[], float] = time.process_time,
) -> float:
    """Random playouts of ``game`` for about ``seconds`` of ``clock``: episodes per second."""
    rng = random.Random(seed)
    done = 0
    start = clock()
    while clock() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
        done += 1
    return done / (clock() - start)


def aec_episodes_per_second(
    make_env: Callable[[], Any],
    seconds: float,
    seed: int = 0,
    clock: Callable[[], float] = time.process_time,
) -> float:
    """Random masked playouts of a PettingZoo AEC environment for about ``seconds`` of
    ``clock``: episodes per second."""
    rng = np.random.default_rng(seed)
    env = make_env()
    done = 0
    start = clock()
    while clock() - start < seconds:
        env.reset(seed=done)
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            # The native environment puts the mask in the observation, Shimmy in the info.
            mask = info["action_mask"] if "action_mask" in info else observation["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))
        done += 1
    return done / (clock() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per configuration")
    parser.add_argument("--rounds", type=int, default=2, help="interleaved rounds (2)")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu", help="cpu (default)")
    args = parser.parse_args()
    clock = CLOCKS[args.clock]
    print("load average:", " ".join(f"{x:.2f}" for x in os.getloadavg()), f"({args.clock} time)")
    from italian_poker.ai import openspiel_pettingzoo_env, pettingzoo_env

    def pyspiel_row(game: pyspiel.Game) -> Callable[[], float]:
        return lambda: episodes_per_second(game, args.seconds, clock=clock)

    def aec_row(make_env: Callable[[], Any]) -> Callable[[], float]:
        return lambda: aec_episodes_per_second(make_env, args.seconds, clock=clock)

    rows: dict[str, Callable[[], float]] = {
        f"python_italian_poker, {n} players (pyspiel)": pyspiel_row(
            pyspiel.load_game("python_italian_poker", {"players": n})
        )
        for n in (2, 4, 9)
    }
    rows["pettingzoo_env, 4 players (native AEC)"] = aec_row(lambda: pettingzoo_env(players=4))
    rows["openspiel_pettingzoo_env, 4 players (Shimmy)"] = aec_row(
        lambda: openspiel_pettingzoo_env(players=4)
    )
    rows[UNIVERSAL] = pyspiel_row(pyspiel.load_game("universal_poker", LIMIT_HOLDEM_4))
    best = dict.fromkeys(rows, 0.0)
    for _ in range(args.rounds):
        for name, measure in rows.items():
            best[name] = max(best[name], measure())
    for name, rate in best.items():
        print(f"{rate:10,.0f} episodes/s  {name}")
    ours, theirs = best[FOUR_PLAYERS], best[UNIVERSAL]
    print(f"{ours / theirs:10.3f} x        {FOUR_PLAYERS} / universal_poker (C++)")


if __name__ == "__main__":
    main()
