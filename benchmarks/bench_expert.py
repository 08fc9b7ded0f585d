"""The expert bot against the strong and simple bots: chips per deal per seat, and time.

Runs :func:`~italian_poker.analysis.simulation.simulate` with one expert seat against the
others at every rotation of the seats (each rotation on the same deal seeds, so the luck of
the cards is shared), and reports the expert's margin in chips per deal per expert seat, its
95% interval (Student's t over the matches) and the seconds per expert decision (wall and
process time, the machine may be shared)::

    PYTHONPATH=src python benchmarks/bench_expert.py --deals 400 --players 4 --baseline strong

``--reference strong`` also plays the strong bot in the expert's seat on the same deals and
reports the paired difference (expert less strong) with its interval, far narrower than the
two margins' own. ``--live`` gives the expert the time limit it has in live play
(``LIVE_DECISION_SECONDS``).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from statistics import NormalDist, mean, stdev

from italian_poker.analysis.bots import LIVE_DECISION_SECONDS, ExpertPolicy
from italian_poker.analysis.simulation import simulate
from italian_poker.engine.actions import Action
from italian_poker.engine.observer import SeatView
from italian_poker.engine.rules import preset

_TIMES: list[tuple[float, float]] = []
"""Per expert decision: wall seconds, process seconds."""
_ACT = ExpertPolicy.act
_LIVE: list[bool] = [False]
"""Whether the expert plays with the live time limit (``--live``)."""


def _timed_act(self: ExpertPolicy, view: SeatView) -> Action:
    if _LIVE[0]:
        self.time_limit = LIVE_DECISION_SECONDS
    start, cpu = time.perf_counter(), time.process_time()
    action = _ACT(self, view)
    _TIMES.append((time.perf_counter() - start, time.process_time() - cpu))
    return action


ExpertPolicy.act = _timed_act  # type: ignore[method-assign]


def _interval(values: list[float]) -> list[float]:
    """The normal 95% interval of the mean of ``values``."""
    half = NormalDist().inv_cdf(0.975) * stdev(values) / math.sqrt(len(values))
    return [round(mean(values) - half, 3), round(mean(values) + half, 3)]


def run(
    deals: int,
    players: int,
    baseline: str,
    seed: int,
    match_deals: int,
    challenger: str = "expert",
    reference: str | None = None,
) -> dict[str, object]:
    """``deals`` deals (rounded to whole rotations of ``match_deals``) of one expert against
    ``players - 1`` ``baseline`` bots; with ``reference``, that level too in the same seat on
    the same deal seeds, and the paired difference."""
    rules = preset("standard")
    samples: list[float] = []
    references: list[float] = []
    wall = process = 0.0
    played = 0
    batch = 0
    while played < deals:
        for expert_seat in range(players):
            levels = [challenger if s == expert_seat else baseline for s in range(players)]
            start, cpu = time.perf_counter(), time.process_time()
            report = simulate(match_deals, players, seed * 7919 + batch, rules, bots=levels)
            wall += time.perf_counter() - start
            process += time.process_time() - cpu
            name = f"P{expert_seat + 1}"
            samples.append(report.net[name] / match_deals)
            if reference is not None:
                levels[expert_seat] = reference
                again = simulate(match_deals, players, seed * 7919 + batch, rules, bots=levels)
                references.append(again.net[name] / match_deals)
            played += match_deals
        batch += 1
    margin = mean(samples)
    half = NormalDist().inv_cdf(0.975) * stdev(samples) / math.sqrt(len(samples))
    paired: dict[str, object] = {}
    if references:
        differences = [a - b for a, b in zip(samples, references, strict=True)]
        paired = {
            "reference": reference,
            "reference_margin": round(mean(references), 3),
            "reference_ci95": _interval(references),
            "difference": round(mean(differences), 3),
            "difference_ci95": _interval(differences),
        }
    walls = sorted(w for w, _ in _TIMES) or [0.0]
    cpus = sorted(c for _, c in _TIMES) or [0.0]
    return {
        "challenger": challenger,
        "players": players,
        "baseline": baseline,
        "deals": played,
        "margin": round(margin, 3),
        "ci95": [round(margin - half, 3), round(margin + half, 3)],
        "wall_seconds": round(wall, 1),
        "process_seconds": round(process, 1),
        "expert_decisions": len(walls),
        "decision_wall_mean": round(mean(walls), 4),
        "decision_wall_p99": round(walls[int(0.99 * (len(walls) - 1))], 4),
        "decision_wall_max": round(walls[-1], 4),
        "decision_process_mean": round(mean(cpus), 4),
        "decision_process_max": round(cpus[-1], 4),
        **paired,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--baseline", default="strong", choices=["simple", "strong"])
    parser.add_argument("--challenger", default="expert", choices=["expert", "strong"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--match-deals", type=int, default=25)
    parser.add_argument(
        "--reference",
        choices=["simple", "strong"],
        help="also play this level in the challenger's seat on the same deals, and report the "
        "paired difference",
    )
    parser.add_argument(
        "--live",
        action="store_true",
        help=f"the expert stops searching after {LIVE_DECISION_SECONDS} s, as in live play",
    )
    args = parser.parse_args()
    _LIVE[0] = args.live
    print(
        json.dumps(
            run(
                args.deals,
                args.players,
                args.baseline,
                args.seed,
                args.match_deals,
                args.challenger,
                args.reference,
            )
        )
    )


if __name__ == "__main__":
    main()
