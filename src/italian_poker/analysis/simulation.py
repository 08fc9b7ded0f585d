"""Bot-versus-bot simulation: many deals at a
:class:`~italian_poker.table.machine.TableMachine`.

Every bot acts only through its own :class:`SeatView`, never through the
deal's hidden hands. A player who busts, or can no longer pay the antes, buys in again to the
starting stack (a *rebuy*), so the table always deals exactly the number of deals asked for.
The report counts what happened and lets chip conservation be checked:
``sum(start) + sum(rebuys) == sum(end) + carried``.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from statistics import NormalDist
from typing import Any

from italian_poker.analysis.bots import BotLevel, bot_level, make_bot
from italian_poker.engine.actions import ActionKind
from italian_poker.engine.deal import Outcome, Phase
from italian_poker.engine.match import CompletedDeal
from italian_poker.engine.operations import Reshuffled
from italian_poker.engine.rules import Rules
from italian_poker.engine.wording import count
from italian_poker.table.commands import BotAct, Leave, StartDeal, TakeSeat
from italian_poker.table.machine import TableMachine
from italian_poker.table.machine_events import ActionTaken, DealFinished, MakeUpAnswered

DEFAULT_STACK = 100
"""Chips each seat starts (and rebuys) with."""

RESET_EVERY = 1000
"""Deals after which the match is replaced by a fresh one with the same seats and stacks, at
the first deal that leaves nothing in the pot, so the match history stays small."""

POLICIES: tuple[str, ...] = tuple(level.value for level in BotLevel)
"""The bot levels by name: ``random``, ``simple`` and ``strong`` (see
:class:`~italian_poker.analysis.bots.BotLevel`)."""


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
    defaults: int = 0
    """Actions the table played for a bot whose choice the rules refused
    (:func:`~italian_poker.table.defaults.default_action`)."""


@dataclass(frozen=True, slots=True)
class SimulationReport:
    """The result of :func:`simulate`; :meth:`to_dict` gives plain JSON-ready values."""

    rules: str
    players: int
    policy: str
    """The bot level of every seat, or ``mixed`` when the seats differ (see ``bots``)."""
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
    bots: dict[str, str] = field(default_factory=dict)
    """The bot level of each seat, by name."""
    matches: int = 1
    """Independent matches played, each from the starting stacks (see
    :mod:`italian_poker.analysis.parallel`); ``chips_start`` counts every match's stacks."""

    @property
    def net(self) -> dict[str, int]:
        """Chips won (negative: lost) per seat: end - start - rebuys."""
        return {
            name: self.chips_end[name] - self.chips_start[name] - self.rebuys[name]
            for name in self.chips_start
        }

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
            "bots": dict(self.bots),
            "seed": self.seed,
            "hands": self.hands,
            "matches": self.matches,
            "elapsed_seconds": round(self.elapsed_seconds, 6),
            "hands_per_second": round(self.hands_per_second, 1),
            "chips": {
                "start": dict(self.chips_start),
                "end": dict(self.chips_end),
                "rebuys": dict(self.rebuys),
                "net": self.net,
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
        v["reshuffles"] += sum(isinstance(op, Reshuffled) for op in record.operations)
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
    need = rules.chips_to_be_dealt_in
    if isinstance(stack, bool) or not isinstance(stack, int) or stack < need:
        raise ValueError(
            f"the starting stack must be at least {count(need, 'chip')}, got {stack!r}"
        )


def _table(rules: Rules, seats: list[TakeSeat], *, dealer: int | None = None) -> TableMachine:
    """A table of bots nobody watches."""
    return TableMachine(rules, seats, dealer=dealer, audiences=False)


def seat_levels(bots: Sequence[BotLevel | str], players: int) -> tuple[BotLevel, ...]:
    """The level of each of ``players`` seats from one level for all or one per seat."""
    if isinstance(bots, str):
        bots = [bots]
    levels = tuple(bot_level(level) for level in bots)
    if len(levels) == 1:
        return levels * players
    if len(levels) != players:
        raise ValueError(
            f"give one bot level for every seat or one for all: {count(players, 'seat')}, "
            f"{count(len(levels), 'level')}"
        )
    return levels


def simulate(
    hands: int,
    players: int,
    seed: int | None = None,
    rules: Rules | None = None,
    *,
    stack: int = DEFAULT_STACK,
    bots: BotLevel | str | Sequence[BotLevel | str] = BotLevel.SIMPLE,
) -> SimulationReport:
    """Play ``hands`` deals between ``players`` bots under ``rules``.

    ``bots`` gives each seat's :class:`BotLevel`: one level for every seat, or one per seat in
    seat order. The same ``seed`` gives the
    same deals and the same report (but for the timing). Each seat starts with ``stack`` chips
    and buys back in to ``stack`` whenever it cannot pay the antes. The table size of ``rules``
    is set to ``players``. Raises :class:`ValueError` (an
    :class:`~italian_poker.analysis.bots.UnknownBotLevelError` for a bad level) on bad input.
    """
    rules = rules if rules is not None else Rules()
    _check(hands, players, stack, rules)
    levels = seat_levels(bots, players)
    if rules.players != players:
        rules = rules.with_options(players=players)
    rng = random.Random(seed)
    names = [f"P{i + 1}" for i in range(players)]
    seat_bots = {
        name: make_bot(level, seed=rng.getrandbits(64))
        for name, level in zip(names, levels, strict=True)
    }
    rebuys = dict.fromkeys(names, 0)
    tally = _Tally()
    # Each bot keeps its player id when it buys in again: it is the same player.
    machine = _table(rules, [TakeSeat(i, name, stack) for i, name in enumerate(names)])
    policies = [seat_bots[name] for name in names]
    seen_departed = 0
    played = 0
    began = time.perf_counter()
    while played < hands:
        # Rebuys: the busted come back, and anyone short of what playing the next deal asks
        # (the antes, and a 5.5 make-up after a parol) tops up.
        for gone in machine.departed[seen_departed:]:
            machine.handle(TakeSeat(gone.player, gone.name, stack))
            rebuys[gone.name] += stack - gone.chips
        for seat in machine.seats:
            need = machine.chips_to_play(seat.player)
            if seat.chips < need:
                machine.handle(Leave(seat.player))
                machine.handle(TakeSeat(seat.player, seat.name, max(stack, need)))
                rebuys[seat.name] += max(stack, need) - seat.chips
        seen_departed = len(machine.departed)
        match = machine.match
        assert match is not None
        last = match.last_result
        if (
            len(match.completed) >= RESET_EVERY
            and match.carried == 0
            and last is not None
            and last.outcome is Outcome.WON
        ):
            seats = [TakeSeat(s.player, s.name, s.chips) for s in machine.seats]
            machine = _table(rules, seats, dealer=machine.dealer)
            seen_departed = 0
        events = machine.handle(StartDeal(seed=rng.getrandbits(63)))
        while (player := machine.to_act) is not None:
            choice = policies[player].act(machine.view(player))
            events += machine.handle(BotAct(player, choice))
        for event in events:
            if isinstance(event, MakeUpAnswered):
                kind = event.action.kind
                tally.values["makeups" if kind is ActionKind.MAKE_UP else "sit_outs"] += 1
                tally.values["actions"] += 1
            elif isinstance(event, DealFinished):
                tally.add(event.completed)
                played += 1
            elif isinstance(event, ActionTaken) and event.default is not None:
                tally.values["defaults"] += 1
    elapsed = time.perf_counter() - began
    # Rebuys owed at the end are not taken: the busted keep what they left with.
    end = {name: 0 for name in names}
    for gone in machine.departed[seen_departed:]:
        end[gone.name] = gone.chips
    for seat in machine.seats:
        end[seat.name] = seat.chips
    return SimulationReport(
        rules=rules.name,
        players=players,
        policy=levels[0].value if len(set(levels)) == 1 else "mixed",
        seed=seed,
        hands=played,
        elapsed_seconds=elapsed,
        chips_start=dict.fromkeys(names, stack),
        chips_end=end,
        rebuys=rebuys,
        carried=machine.chips_at_table - sum(s.chips for s in machine.seats),
        counts=tally.counts(),
        unbalanced_deals=tally.unbalanced,
        bots={name: level.value for name, level in zip(names, levels, strict=True)},
    )


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """The result of :func:`head_to_head`: duplicate matches of two bot levels.

    ``samples`` holds, per duplicate pair of matches, the chips the ``challenger`` won per
    deal per seat it held, averaged over both matches of the pair.
    """

    challenger: str
    baseline: str
    players: int
    rules: str
    deals: int
    elapsed_seconds: float
    samples: tuple[float, ...]
    unpaired: tuple[float, ...]
    """The same per match, each match on its own (twice as many, for the variance check)."""

    @property
    def margin(self) -> float:
        """Chips won per deal per challenger seat (negative: lost)."""
        return sum(self.samples) / len(self.samples)

    @property
    def standard_error(self) -> float:
        """The standard error of :attr:`margin` over the duplicate pairs."""
        return _standard_error(self.samples)

    def interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """Student's t confidence interval of :attr:`margin`."""
        half = t_quantile(0.5 + confidence / 2, len(self.samples) - 1) * self.standard_error
        return self.margin - half, self.margin + half

    @property
    def deals_per_second(self) -> float:
        """Deals played per second of wall time."""
        return self.deals / self.elapsed_seconds if self.elapsed_seconds > 0 else 0.0


def _standard_error(values: Sequence[float]) -> float:
    n = len(values)
    if n < 2:
        return float("inf")
    mean = sum(values) / n
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)


def t_quantile(p: float, df: int) -> float:
    """Student's t quantile: a Cornish-Fisher expansion of the normal one (within 0.003 of the
    exact value from 5 degrees of freedom up); below that, the exact 97.5% quantiles scaled
    by the normal quantile."""
    z = NormalDist().inv_cdf(p)
    if df < 1:
        return float("inf")
    if df < 5:
        return {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776}[df] * z / 1.959964
    return (
        z
        + (z**3 + z) / (4 * df)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3)
    )


def head_to_head(
    challenger: BotLevel | str = BotLevel.STRONG,
    baseline: BotLevel | str = BotLevel.SIMPLE,
    *,
    deals: int = 20_000,
    players: int = 4,
    seed: int = 0,
    rules: Rules | None = None,
    stack: int = DEFAULT_STACK,
    match_deals: int = 250,
) -> HeadToHead:
    """Duplicate matches of ``challenger`` against ``baseline``, ``deals`` deals in all.

    The seats alternate between the two levels (the challenger in the even seats, P1, P3, ...).
    Each match of ``match_deals`` deals is played twice with the same seed, hence the same deck
    order every deal, the second time with the levels swapped seat for seat: the luck of the
    cards cancels between the two, which narrows the confidence interval of the margin.
    """
    if isinstance(match_deals, bool) or not isinstance(match_deals, int) or match_deals < 1:
        raise ValueError(f"a match has at least 1 deal, got {match_deals!r}")
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 4 * match_deals:
        raise ValueError(
            f"play at least two duplicate pairs: {count(4 * match_deals, 'deal')} or more, "
            f"got {deals!r}"
        )
    first, second = bot_level(challenger), bot_level(baseline)
    table = rules if rules is not None else Rules()
    pairs = deals // (2 * match_deals)
    samples: list[float] = []
    unpaired: list[float] = []
    elapsed = 0.0
    for pair in range(pairs):
        won = 0.0
        seats = 0
        for shift in (0, 1):
            levels = [first if (i + shift) % 2 == 0 else second for i in range(players)]
            report = simulate(
                match_deals, players, seed * 1_000_003 + pair, table, stack=stack, bots=levels
            )
            elapsed += report.elapsed_seconds
            net = report.net
            mine = [name for name, level in report.bots.items() if level == first.value]
            gained = sum(net[name] for name in mine)
            unpaired.append(gained / (len(mine) * match_deals))
            won += gained
            seats += len(mine)
        samples.append(won / (seats * match_deals))
    return HeadToHead(
        challenger=first.value,
        baseline=second.value,
        players=players,
        rules=table.name,
        deals=pairs * 2 * match_deals,
        elapsed_seconds=elapsed,
        samples=tuple(samples),
        unpaired=tuple(unpaired),
    )
