"""Bot-versus-bot simulation: many deals in a :class:`~italian_poker.engine.match.Match`.

Every bot acts only through :meth:`Match.view` (its :class:`SeatView`), never through the
deal's hidden hands. A player who busts, or can no longer pay the antes, buys in again to the
starting stack (a *rebuy*), so the table always deals exactly the number of deals asked for.
The report counts what happened and lets chip conservation be checked:
``sum(start) + sum(rebuys) == sum(end) + carried``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from italian_poker.engine.actions import ActionKind
from italian_poker.engine.deal import Outcome, Phase
from italian_poker.engine.match import CompletedDeal, Match, MatchPhase
from italian_poker.engine.policy import Policy, RandomPolicy, SimplePolicy
from italian_poker.engine.rules import Rules

DEFAULT_STACK = 100
"""Chips each seat starts (and rebuys) with."""

RESET_EVERY = 1000
"""Deals after which the match is replaced by a fresh one with the same seats and stacks, at
the first deal that leaves nothing in the pot, so the match history stays small."""

POLICIES: dict[str, Callable[[random.Random], Policy]] = {
    "simple": SimplePolicy,
    "random": RandomPolicy,
}
"""The bots by name: ``simple`` (:class:`SimplePolicy`) and ``random`` (:class:`RandomPolicy`)."""


@dataclass(frozen=True, slots=True)
class DealCounts:
    """What happened over the simulated deals."""

    passed: int = 0
    """Deals in which every player passed (3.5)."""
    blinds: int = 0
    """Deals with a buio (Art. 2)."""
    controbuio: int = 0
    over: int = 0
    parols: int = 0
    """Deals abandoned by everyone saying parol (5.4(a))."""
    showdowns: int = 0
    """Deals that reached a showdown (5.4(b), 5.4(d))."""
    uncalled: int = 0
    """Deals won without a showdown (3.7, 5.4(c))."""
    splits: int = 0
    """Pots shared by more than one winner."""
    side_pots: int = 0
    """Pots beyond the main pot (all-in players)."""
    reshuffles: int = 0
    """Times the discards were shuffled to finish a draw (4.3)."""
    split_openings: int = 0
    """Draws in which the opener announced breaking the opening (4.4)."""
    makeups: int = 0
    """Players who made up their contribution after a parol (5.5)."""
    sit_outs: int = 0
    """Players who sat the deal after a parol out instead (5.5)."""
    actions: int = 0
    """Actions applied, make-up decisions included."""


@dataclass(frozen=True, slots=True)
class SimulationReport:
    """The result of :func:`simulate`; :meth:`to_dict` gives plain JSON-ready values."""

    rules: str
    players: int
    policy: str
    seed: int | None
    hands: int
    elapsed_seconds: float
    chips_start: dict[str, int]
    chips_end: dict[str, int]
    rebuys: dict[str, int]
    """Chips added by rebuys, per seat."""
    carried: int
    """Chips left in the pot for a next deal (after a passed deal or a parol)."""
    counts: DealCounts = field(default_factory=DealCounts)
    unbalanced_deals: int = 0
    """Deals whose chips before and after differ (always 0 unless the engine is wrong)."""

    @property
    def hands_per_second(self) -> float:
        """Deals played per second of wall time."""
        return self.hands / self.elapsed_seconds if self.elapsed_seconds > 0 else 0.0

    @property
    def conserved(self) -> bool:
        """Whether start + rebuys == end + carried, and every deal balanced."""
        before = sum(self.chips_start.values()) + sum(self.rebuys.values())
        after = sum(self.chips_end.values()) + self.carried
        return before == after and self.unbalanced_deals == 0

    def to_dict(self) -> dict[str, Any]:
        """The report as plain values, ready for :func:`json.dumps`."""
        return {
            "rules": self.rules,
            "players": self.players,
            "policy": self.policy,
            "seed": self.seed,
            "hands": self.hands,
            "elapsed_seconds": round(self.elapsed_seconds, 6),
            "hands_per_second": round(self.hands_per_second, 1),
            "chips": {
                "start": dict(self.chips_start),
                "end": dict(self.chips_end),
                "rebuys": dict(self.rebuys),
                "carried": self.carried,
                "conserved": self.conserved,
                "unbalanced_deals": self.unbalanced_deals,
            },
            "counts": asdict(self.counts),
        }


class _Tally:
    """Mutable counters while simulating; frozen into :class:`DealCounts` at the end."""

    def __init__(self) -> None:
        self.values: dict[str, int] = dict.fromkeys(asdict(DealCounts()), 0)
        self.unbalanced = 0

    def add(self, record: CompletedDeal) -> None:
        v = self.values
        result = record.result
        start = record.start
        v["actions"] += len(record.actions)
        v["reshuffles"] += len(record.reshuffles)
        kinds = {r.action.kind for r in record.actions}
        v["blinds"] += ActionKind.BLIND in kinds
        v["controbuio"] += ActionKind.CONTROBUIO in kinds
        v["over"] += ActionKind.OVER in kinds
        v["split_openings"] += any(r.action.split for r in record.actions)
        if result.outcome is Outcome.PASSED:
            v["passed"] += 1
        elif result.outcome is Outcome.PAROL:
            v["parols"] += 1
        elif any(r.phase is Phase.SHOWDOWN for r in record.actions):
            v["showdowns"] += 1
        else:
            v["uncalled"] += 1
        v["splits"] += sum(1 for award in result.awards if len(award.winners) > 1)
        v["side_pots"] += max(0, len(result.awards) - 1)
        before = sum(start.stacks) + start.carried
        if before != sum(result.stacks) + result.carried:
            self.unbalanced += 1

    def counts(self) -> DealCounts:
        return DealCounts(**self.values)


def _check(hands: int, players: int, stack: int, rules: Rules) -> None:
    if isinstance(hands, bool) or not isinstance(hands, int) or hands < 0:
        raise ValueError(f"the number of deals must be 0 or more, got {hands!r}")
    low, high = rules.players_range
    if isinstance(players, bool) or not isinstance(players, int) or not low <= players <= high:
        raise ValueError(f"the number of players must be {low} to {high}, got {players!r}")
    need = rules.ante + rules.dealer_ante
    if isinstance(stack, bool) or not isinstance(stack, int) or stack < max(need, 1):
        raise ValueError(f"the starting stack must be at least {max(need, 1)} chips")


def simulate(
    hands: int,
    players: int,
    seed: int | None = None,
    rules: Rules | None = None,
    *,
    stack: int = DEFAULT_STACK,
    policy: str = "simple",
) -> SimulationReport:
    """Play ``hands`` deals between ``players`` bots of kind ``policy`` under ``rules``.

    The same ``seed`` gives the same deals and the same report (but for the timing). Each
    seat starts with ``stack`` chips and buys back in to ``stack`` whenever it cannot pay the
    antes. The table size of ``rules`` is set to ``players``.
    """
    rules = rules if rules is not None else Rules()
    _check(hands, players, stack, rules)
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; choose one of {', '.join(POLICIES)}")
    if rules.players != players:
        rules = rules.with_options(players=players)
    rng = random.Random(seed)
    names = [f"P{i + 1}" for i in range(players)]
    bots = {name: POLICIES[policy](random.Random(rng.getrandbits(64))) for name in names}
    rebuys = dict.fromkeys(names, 0)
    tally = _Tally()
    match = Match(rules, [(name, stack) for name in names])
    seen_departed = 0
    played = 0
    began = time.perf_counter()
    while played < hands:
        # Rebuys: the busted come back, and anyone short of the antes tops up.
        for name, chips in match.departed[seen_departed:]:
            match.join(name, stack)
            rebuys[name] += stack - chips
        for seat in list(match.seats):
            if seat.stack < max(rules.ante + rules.dealer_ante, 1):
                chips = match.leave(seat.name)
                match.join(seat.name, stack)
                rebuys[seat.name] += stack - chips
        seen_departed = len(match.departed)
        last = match.last_result
        if (
            len(match.completed) >= RESET_EVERY
            and match.carried == 0
            and last is not None
            and last.outcome is Outcome.WON
        ):
            dealer = [s.name for s in match.seats].index(match.dealer_name)
            match = Match(rules, [(s.name, s.stack) for s in match.seats], dealer=dealer)
            seen_departed = 0
        done = len(match.completed)
        match.start_deal(seed=rng.getrandbits(63))
        while (actor := match.actor) is not None:
            making_up = match.phase is MatchPhase.MAKE_UP
            action = bots[actor].act(match.view(actor))
            match.apply(action, actor)
            if making_up:
                key = "makeups" if action.kind is ActionKind.MAKE_UP else "sit_outs"
                tally.values[key] += 1
                tally.values["actions"] += 1
        if len(match.completed) > done:
            tally.add(match.completed[-1])
            played += 1
    elapsed = time.perf_counter() - began
    # Rebuys owed at the end are not taken: the busted keep what they left with.
    end = {name: 0 for name in names}
    for name, chips in match.departed[seen_departed:]:
        end[name] = chips
    for seat in match.seats:
        end[seat.name] = seat.stack
    return SimulationReport(
        rules=rules.name,
        players=players,
        policy=policy,
        seed=seed,
        hands=played,
        elapsed_seconds=elapsed,
        chips_start=dict.fromkeys(names, stack),
        chips_end=end,
        rebuys=rebuys,
        carried=match.carried,
        counts=tally.counts(),
        unbalanced_deals=tally.unbalanced,
    )
