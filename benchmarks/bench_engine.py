"""Engine speed: complete 4-player deals per second, next to PokerKit's single-draw game.

Run: ``.venv/bin/python benchmarks/bench_engine.py [--deals N] [--repeats N] [--cpu-time]
[--profile]``

What is measured, in one process, each timed with :func:`time.perf_counter`:

* **italian-poker Deal**: complete 4-player deals (standard rules, 32-card deck, stacks of
  1,000, a fresh seeded :class:`~italian_poker.engine.deal.Deal` per deal), driven through the
  public API (``deal.legal_actions()`` / ``deal.apply()``) by a trivial policy: decline the
  blind, open when allowed (at the minimum) else pass, call or check, stand pat (draw 0),
  show. Most deals are opened and reach the showdown; without an opener (about 7 %) the deal
  ends passed (3.5).
* **italian-poker Match**: deals in one :class:`~italian_poker.engine.match.Match` (4 players,
  stacks of 100,000), README's library-example policy acting on ``match.legal_actions()``:
  open for the minimum when allowed, stand pat, else decline the blind, call, check, or the
  first action offered (pass, show, make up). The path every front end and bot pays.
* **italian-poker Match + view**: the same, the policy acting on the observer's view of the
  seat to act (``match.view(name)``, a :class:`SeatView` per decision), as bots do.
* **PokerKit**: ``NoLimitDeuceToSevenLowballSingleDraw`` (two betting rounds around one
  draw, the closest PokerKit game to five-card draw), 4 players, antes of 1, blinds 1/2,
  stacks of 1,000, every automation on (dealing, collection, showdown, pushing), policy:
  check or call, stand pat. Every hand reaches the showdown.

Each ratio is deals/s over PokerKit hands/s, with its target: the bare Deal at least
as high as before the table layer (``BEFORE_DEAL_RATIO``), Match at least 8.5x, Match + view
at least 6x. Each figure is the best of three timed runs (``--repeats``); the runs take turns
(Deal, Match, Match + view, PokerKit, three times over), so a change in the load of a shared
machine weighs on all of them. With ``--cpu-time`` each run is timed by the CPU time of the
process (:func:`time.process_time`) rather than the wall clock: on a machine with more work
than cores, the time a run waits for a core is not counted. The load average is printed
first, and ratios are only comparable within one run. The script also runs against older
sources of the engine (``PYTHONPATH=old/src``), so that before and after can be measured in
one session.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import time
from collections.abc import Callable, Sequence

from italian_poker.engine.actions import Action, ActionKind, LegalAction
from italian_poker.engine.deal import Deal, DealStart, Outcome
from italian_poker.engine.match import Match
from italian_poker.engine.rules import Rules

try:
    from italian_poker.engine.card_source import SeededSource
except ImportError:  # the engine before chance was an input: the seed is the start's
    SeededSource = None  # type: ignore[assignment,misc]

try:
    from italian_poker.engine.observer import SeatView
except ImportError:  # an engine without the observer
    from italian_poker.engine.observer import SeatView  # type: ignore[assignment,no-redef]

PLAYERS = 4
STACK = 1000
MATCH_STACK = 100_000

BEFORE_DEAL_RATIO = 12.0
"""Deal / PokerKit before the table layer ("about 12x"; docs/performance.md)."""
MATCH_TARGET = 8.5
"""The public Match path against PokerKit's five-card draw."""
MATCH_VIEW_TARGET = 6.0
"""The same with the observer's view built for every decision."""

# The kinds the policy looks for, looked up once: it runs on every decision, and an enum member
# read as a class attribute costs about 0.1 µs on Python 3.11.
DECLINE, OPEN, PASS = ActionKind.DECLINE, ActionKind.OPEN, ActionKind.PASS
CALL, CHECK, DRAW = ActionKind.CALL, ActionKind.CHECK, ActionKind.DRAW

_DECLINE = Action(DECLINE)
_PASS = Action(PASS)
_CALL = Action(CALL)
_CHECK = Action(CHECK)
_STAND_PAT = Action(DRAW)
_SHOW = Action(ActionKind.SHOW)


def trivial_action(legal: Sequence[LegalAction]) -> Action:
    """Decline blinds, open at the minimum when allowed, call or check, stand pat, show."""
    kinds = {la.kind: la for la in legal}
    if DECLINE in kinds:
        return _DECLINE
    opening = kinds.get(OPEN)
    if opening is not None:
        return Action(OPEN, opening.min_amount)
    if PASS in kinds:
        return _PASS
    if CALL in kinds:
        return _CALL
    if CHECK in kinds:
        return _CHECK
    if DRAW in kinds:
        return _STAND_PAT
    return _SHOW


def play_deals(count: int, seed: int = 1) -> dict[str, int]:
    """Play ``count`` complete deals on bare :class:`Deal` objects; returns outcome counts."""
    rules = Rules()
    names = tuple(f"P{i}" for i in range(PLAYERS))
    stacks = (STACK,) * PLAYERS
    outcomes = dict.fromkeys((o.value for o in Outcome), 0)
    for i in range(count):
        seed_i = seed * 100_003 + i
        if SeededSource is None:
            deal = Deal(DealStart(rules, names, stacks, dealer=i % PLAYERS, seed=seed_i))  # type: ignore[call-arg]
        else:
            deal = Deal(DealStart(rules, names, stacks, dealer=i % PLAYERS), SeededSource(seed_i))
        while deal.actor is not None:
            deal.apply(trivial_action(deal.legal_actions()))
        assert deal.result is not None
        outcomes[deal.result.outcome.value] += 1
    return outcomes


_MAKE_UP_OR_FIRST = (DECLINE, CALL, CHECK)


def readme_action(legal: Sequence[LegalAction]) -> Action:
    """README's library-example policy: open for the minimum when allowed, stand pat, else
    decline the blind, call, check, or the first action offered (pass, show, make up)."""
    kinds = {la.kind: la for la in legal}
    opening = kinds.get(OPEN)
    if opening is not None:
        return Action(OPEN, opening.min_amount)
    if DRAW in kinds:
        return _STAND_PAT
    for kind in _MAKE_UP_OR_FIRST:
        if kind in kinds:
            return Action(kind)
    return Action(next(iter(kinds)))


def _match(seed: int) -> tuple[Match, random.Random]:
    players = [(f"P{i}", MATCH_STACK) for i in range(PLAYERS)]
    return Match(Rules(), players), random.Random(seed)


def play_match(count: int, seed: int = 1) -> None:
    """Play ``count`` deals in one :class:`Match`, README's policy on ``legal_actions()``."""
    match, rng = _match(seed)
    for _ in range(count):
        match.start_deal(seed=rng.getrandbits(63))
        while match.actor is not None:
            match.apply(readme_action(match.legal_actions()))


def play_match_views(count: int, seed: int = 1) -> None:
    """Play ``count`` deals in one :class:`Match`, README's policy on the observer's view of
    the seat to act, made before every decision."""
    match, rng = _match(seed)
    for _ in range(count):
        match.start_deal(seed=rng.getrandbits(63))
        while (actor := match.actor) is not None:
            view: SeatView = match.view(actor)
            match.apply(readme_action(view.legal_actions), actor)


def play_pokerkit(count: int) -> None:
    """Play ``count`` PokerKit no-limit 2-7 single-draw hands: check/call, stand pat."""
    from pokerkit import Automation, NoLimitDeuceToSevenLowballSingleDraw

    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HOLE_DEALING,
        Automation.BOARD_DEALING,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )
    for _ in range(count):
        state = NoLimitDeuceToSevenLowballSingleDraw.create_state(
            automations, True, 1, (1, 2), 2, STACK, PLAYERS
        )
        while state.status:
            if state.can_stand_pat_or_discard():
                state.stand_pat_or_discard()
            elif state.can_check_or_call():
                state.check_or_call()
            else:  # pragma: no cover - nothing else is left with these automations
                raise RuntimeError("PokerKit state needs an unexpected operation")


def seconds(run: Callable[[int], object], count: int, clock: Callable[[], float]) -> float:
    """Seconds of one ``run(count)`` by ``clock`` (the wall clock or the process's CPU time)."""
    began = clock()
    run(count)
    return clock() - began


def rates(
    runs: Sequence[tuple[Callable[[int], object], int]],
    repeats: int = 3,
    clock: Callable[[], float] = time.perf_counter,
) -> list[float]:
    """Best of ``repeats`` timed runs of each ``(run, count)``, in deals per second.

    The runs take turns (one of each, ``repeats`` times over) rather than one after another,
    so that a change in the load of a shared machine weighs on every engine alike.
    """
    best = [float("inf")] * len(runs)
    for _ in range(repeats):
        for i, (run, count) in enumerate(runs):
            best[i] = min(best[i], seconds(run, count, clock))
    return [count / took for (_, count), took in zip(runs, best, strict=True)]


def _verdict(ratio: float, target: float) -> str:
    return "met" if ratio >= target else "NOT MET"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000, help="deals per timed run")
    parser.add_argument("--match-deals", type=int, default=5_000, help="Match deals per run")
    parser.add_argument("--pokerkit-hands", type=int, default=2_000)
    parser.add_argument("--repeats", type=int, default=3, help="timed runs of each, best kept")
    parser.add_argument(
        "--cpu-time",
        action="store_true",
        help="time each run by the process's CPU time, not the wall clock",
    )
    parser.add_argument(
        "--profile",
        choices=("deal", "match", "view"),
        nargs="?",
        const="deal",
        help="print a cProfile of Deal (default), Match or Match + view",
    )
    args = parser.parse_args()

    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    clock = time.process_time if args.cpu_time else time.perf_counter
    print(f"timed by {'CPU time' if args.cpu_time else 'the wall clock'}, best of {args.repeats}")
    outcomes = play_deals(args.deals)
    print(f"Outcomes of {args.deals} trivial-policy deals: {outcomes}")
    runs: list[tuple[Callable[[int], object], int]] = [
        (play_deals, args.deals),
        (play_match, args.match_deals),
        (play_match_views, args.match_deals),
    ]
    try:
        import pokerkit  # noqa: F401
    except ImportError:
        pokerkit_rate: float | None = None
        deal_rate, match_rate, view_rate = rates(runs, args.repeats, clock)
    else:
        runs.append((play_pokerkit, args.pokerkit_hands))
        deal_rate, match_rate, view_rate, pokerkit_rate = rates(runs, args.repeats, clock)
    print(f"italian-poker Deal, 4 players, trivial policy:   {deal_rate:10,.0f} deals/s")
    print(f"italian-poker Match, README's policy:            {match_rate:10,.0f} deals/s")
    print(f"italian-poker Match + SeatView per decision:     {view_rate:10,.0f} deals/s")
    if pokerkit_rate is None:
        print("PokerKit not installed: pip install '.[bench]'")
    else:
        print(f"PokerKit 2-7 single draw, 4 players, call/pat:   {pokerkit_rate:10,.0f} hands/s")
        for label, rate, target in (
            ("Deal", deal_rate, BEFORE_DEAL_RATIO),
            ("Match", match_rate, MATCH_TARGET),
            ("Match + view", view_rate, MATCH_VIEW_TARGET),
        ):
            ratio = rate / pokerkit_rate
            print(
                f"ratio {label} / PokerKit: {ratio:.1f}x "
                f"(target at least {target:g}x: {_verdict(ratio, target)})"
            )
    print(f"load average at end: {os.getloadavg()[0]:.2f}")
    if args.profile:
        run, deals = {
            "deal": (play_deals, args.deals),
            "match": (play_match, args.match_deals),
            "view": (play_match_views, args.match_deals),
        }[args.profile]
        profiler = cProfile.Profile()
        profiler.runcall(run, deals)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
