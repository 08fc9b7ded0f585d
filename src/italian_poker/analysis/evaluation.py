"""Evaluating bots against each other: seat rotations, duplicate deals and a luck correction.

A *line-up* names a bot level per seat (e.g. ``strong, simple, simple, simple``). Its
*rotations* (:func:`rotations`) move every level round the table, one seat at a time, so that
each level sits in every seat; rotations that give the same seating are played once. Every
rotation plays the same *block* of deals from the same seed, hence the same deck order at
every deal (duplicate deals, the mechanism of
:func:`~italian_poker.analysis.simulation.head_to_head`). The margin measured is the chips the
challenger (the line-up's first level) wins per deal per seat it holds.

Three estimates of it come from the same deals (:class:`Evaluation`):

* *plain*: every match (one rotation of one block) an independent sample;
* *duplicate*: one sample per block, the rotations averaged;
* *corrected*: the duplicate samples with a control variate on luck subtracted, AIVAT-style:
  the luck of the cards and of the bots' own random choices.

Every deal of a block starts with every seat at the starting stack, a busted player seated
again in their own place: so every rotation deals each deck from the same dealer to the same
seats, and each seat gets the same cards in every rotation, only the level holding it changes.
(A rebuy at the end of the table, as matches had before, moved the seats and the dealer and
undid the duplicate within a few deals.)

The correction. Each deal's luck features (:mod:`~italian_poker.analysis.luck`: the luck of
the cards, each feature ``f(h.c) - E_c[f(h.c)]`` for a chance event ``c`` with history ``h``
before it, so ``E[z | h] = 0`` whatever ``f`` is) and its action terms (the bots' own random
choices, below) make a vector ``z`` with expectation 0; so has ``beta . z`` for coefficients
``beta`` chosen independently of the block. The coefficients are fitted by ridge regression of
the chips on the features (:data:`RIDGE`) on the *other* half of the
blocks (cross-fitting: blocks of even index are corrected with ``beta`` fitted on the odd ones
and vice versa), which keeps the corrected estimate exactly unbiased; a good ``beta`` only
removes variance. The rows of the fit are the deals of a block averaged over its rotations
(the same deck in each), as the duplicate estimate averages them.

The bots' own random choices are corrected too (AIVAT's action terms,
:mod:`~italian_poker.analysis.action_terms`): at each decision of a bot whose odds are known
(:func:`~italian_poker.analysis.bots.chance.action_distribution`), the playout value of the
action taken less its expectation under those odds, with the deck and the playout seed the same
for every action compared, and the same with the deal played down instead of played out. Their
sums over the deal are the last two features; each has expectation 0 given everything before
each decision, so they enter the fit like the chance features.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from italian_poker.analysis.action_terms import action_terms
from italian_poker.analysis.bots import BotLevel, bot_level, make_bot
from italian_poker.analysis.luck import luck_features
from italian_poker.analysis.parallel import map_on_processes
from italian_poker.analysis.simulation import DEFAULT_STACK, t_quantile
from italian_poker.engine.rules import Rules
from italian_poker.engine.wording import count
from italian_poker.table.commands import BotAct, SetChips, StartDeal, TakeSeat
from italian_poker.table.machine import TableMachine
from italian_poker.table.machine_events import DealFinished
from italian_poker.table.seating import Departure

Floats = npt.NDArray[np.float64]

RIDGE = 1.0
"""The ridge penalty of the fit, in the features' own units: a feature seldom seen in the
fitted half (the one-hot of a rare category) has little weight of its own, so the penalty
holds its coefficient near 0 and it cannot blow up the other half."""


@dataclass(frozen=True, slots=True)
class DealSample:
    """One deal of one match: the challenger's chips per seat it held, and the luck features
    (each with expectation 0 given what came before, see the module docstring)."""

    chips: float
    features: tuple[float, ...]


def rotations(lineup: Sequence[BotLevel | str]) -> tuple[tuple[BotLevel, ...], ...]:
    """Every distinct rotation of ``lineup``: rotation ``r`` seats ``lineup[(s + r) % n]`` in
    seat ``s``; a rotation seating the same levels as an earlier one is left out."""
    levels = tuple(bot_level(level) for level in lineup)
    if len(levels) < 2:
        raise ValueError(f"a line-up needs at least 2 seats, got {len(levels)}")
    seen: list[tuple[BotLevel, ...]] = []
    for r in range(len(levels)):
        seating = tuple(levels[(s + r) % len(levels)] for s in range(len(levels)))
        if seating not in seen:
            seen.append(seating)
    return tuple(seen)


def _restore_seats(
    machine: TableMachine, names: Sequence[str], stack: int, departed: Sequence[Departure]
) -> None:
    """Before a deal: every seat at ``stack`` chips, a player who busted seated again in
    their own place. Every rotation of a block then deals each deck from the same dealer to
    the same seats (the same cards to the same seats, the levels rotated), which a rebuy at
    the end of the table would not."""
    gone = {d.player for d in departed}
    for index, name in enumerate(names):
        if index in gone:
            machine.handle(TakeSeat(index, name, stack, seat=index))
        else:
            machine.handle(SetChips(index, stack))


def play_block(
    levels: Sequence[BotLevel],
    deals: int,
    seed: int,
    rules: Rules,
    challenger: BotLevel,
    *,
    stack: int = DEFAULT_STACK,
    actions: bool = True,
) -> list[DealSample]:
    """``deals`` deals of one seating from ``seed`` (bots and deck seeds drawn as
    :func:`~italian_poker.analysis.simulation.simulate` draws them), one sample per deal.
    Every deal starts with every seat at ``stack`` (:func:`_restore_seats`). The features are
    the deal's :func:`~italian_poker.analysis.luck.luck_features`, sampled from a generator
    seeded apart from the deals, and with ``actions`` last its two action terms
    (:func:`~italian_poker.analysis.action_terms.action_terms`), from playouts seeded apart
    too."""
    players = len(levels)
    rng = random.Random(seed)
    playouts = random.Random(f"action terms {seed}")
    luck = np.random.default_rng(random.Random(f"luck {seed}").getrandbits(64))
    level_of = dict(zip([f"P{i + 1}" for i in range(players)], levels, strict=True))
    names = [f"P{i + 1}" for i in range(players)]
    bots = {n: make_bot(lv, seed=rng.getrandbits(64)) for n, lv in zip(names, levels, strict=True)}
    mine = {n for n, lv in zip(names, levels, strict=True) if lv is challenger}
    policies = [bots[n] for n in names]
    seats = [TakeSeat(i, n, stack) for i, n in enumerate(names)]
    machine = TableMachine(rules, seats, audiences=False)
    seen_departed = 0
    samples: list[DealSample] = []
    while len(samples) < deals:
        _restore_seats(machine, names, stack, machine.departed[seen_departed:])
        seen_departed = len(machine.departed)
        events = machine.handle(StartDeal(seed=rng.getrandbits(63)))
        while (player := machine.to_act) is not None:
            events += machine.handle(BotAct(player, policies[player].act(machine.view(player))))
        for event in events:
            if not isinstance(event, DealFinished):
                continue
            record = event.completed
            start, result = record.start, record.result
            held = [n in mine for n in start.names]
            k = sum(held)
            if k == 0 or k == len(held):
                continue  # a deal without both sides (a seat sat out, 5.5) tells nothing
            won = sum(
                after - before
                for n, before, after in zip(start.names, start.stacks, result.stacks, strict=True)
                if n in mine
            )
            features = luck_features(record, held, rules, luck)
            if actions:
                seated = [level_of[n] for n in start.names]
                features += action_terms(record, seated, held, playouts)
            samples.append(DealSample(won / k, tuple(features)))
    return samples


@dataclass(frozen=True, slots=True)
class BlockTask:
    """One match of an evaluation: :func:`play_block`'s arguments, small enough to send to a
    worker process."""

    levels: tuple[BotLevel, ...]
    deals: int
    seed: int
    rules: Rules
    challenger: BotLevel
    stack: int
    actions: bool


def play_task(task: BlockTask) -> list[DealSample]:
    """:func:`play_block` of ``task``."""
    return play_block(
        task.levels,
        task.deals,
        task.seed,
        task.rules,
        task.challenger,
        stack=task.stack,
        actions=task.actions,
    )


def _standard_error(values: Sequence[float]) -> float:
    n = len(values)
    if n < 2:
        return math.inf
    mean = sum(values) / n
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)


@dataclass(frozen=True, slots=True)
class Estimate:
    """A margin in chips per deal per challenger seat, with its standard error over
    ``samples`` independent samples."""

    mean: float
    standard_error: float
    samples: int

    def interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """Student's t confidence interval of :attr:`mean`."""
        half = t_quantile(0.5 + confidence / 2, self.samples - 1) * self.standard_error
        return self.mean - half, self.mean + half


def _estimate(values: Sequence[float]) -> Estimate:
    return Estimate(sum(values) / len(values), _standard_error(values), len(values))


@dataclass(frozen=True, slots=True)
class Evaluation:
    """The result of :func:`evaluate_lineup`: the three estimates of the same deals."""

    lineup: tuple[str, ...]
    rotations: int
    players: int
    rules: str
    deals: int
    """Deals played in all (every rotation of every block)."""
    elapsed_seconds: float
    plain: Estimate
    duplicate: Estimate
    corrected: Estimate
    correction_mean: float
    """The mean correction subtracted (expectation 0: should be small against its spread)."""
    correction_error: float
    """The standard error of :attr:`correction_mean` over the blocks."""
    corrected_blocks: tuple[float, ...] = ()
    """The corrected margin of each block, in block order (the samples of :attr:`corrected`)."""

    @property
    def deals_per_second(self) -> float:
        """Deals played per second of wall time."""
        return self.deals / self.elapsed_seconds if self.elapsed_seconds > 0 else 0.0


def _paired(blocks: Sequence[Sequence[Sequence[DealSample]]]) -> tuple[Floats, Floats]:
    """The rows of the fit: each deal of a block averaged over its rotations (the deals each
    rotation kept, up to the shortest), as features and chips."""
    x: list[Floats] = []
    y: list[float] = []
    for block in blocks:
        for deal in zip(*block, strict=False):
            x.append(np.mean([s.features for s in deal], axis=0))
            y.append(sum(s.chips for s in deal) / len(deal))
    return np.array(x, dtype=np.float64), np.array(y, dtype=np.float64)


def _fit(blocks: Sequence[Sequence[Sequence[DealSample]]]) -> Floats:
    """Ridge coefficients (:data:`RIDGE`) of the chips on the luck features over ``blocks``'
    deals, paired across rotations (:func:`_paired`)."""
    x, y = _paired(blocks)
    centred = x - x.mean(axis=0)
    gram = centred.T @ centred + RIDGE * np.eye(centred.shape[1])
    beta: Floats = np.linalg.solve(gram, centred.T @ (y - y.mean()))
    return beta


def evaluate_lineup(
    lineup: Sequence[BotLevel | str],
    *,
    deals: int = 20_000,
    seed: int = 0,
    rules: Rules | None = None,
    stack: int = DEFAULT_STACK,
    block_deals: int = 50,
    actions: bool = True,
    workers: int = 1,
) -> Evaluation:
    """Every rotation of ``lineup`` over the same blocks of ``block_deals`` deals, about
    ``deals`` deals in all; the margin of the line-up's first level against the others.
    ``actions`` adds the action terms to the correction (:func:`play_block`). ``workers``
    processes play the matches (every rotation of every block seeded from ``seed`` and the
    block's index alone): the result is the same for any number, but for the timing."""
    levels = tuple(bot_level(level) for level in lineup)
    seatings = rotations(levels)
    challenger = levels[0]
    if all(level is challenger for level in levels):
        raise ValueError("the line-up needs another level besides the first one")
    if isinstance(block_deals, bool) or not isinstance(block_deals, int) or block_deals < 1:
        raise ValueError(f"a block has at least 1 deal, got {block_deals!r}")
    per_block = block_deals * len(seatings)
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 4 * per_block:
        raise ValueError(
            f"play at least four blocks: {count(4 * per_block, 'deal')} or more, got {deals!r}"
        )
    table = rules if rules is not None else Rules()
    if table.players != len(levels):
        table = table.with_options(players=len(levels))
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers is a whole number of at least 1, got {workers!r}")
    matches = [
        BlockTask(seating, block_deals, seed * 1_000_003 + b, table, challenger, stack, actions)
        for b in range(deals // per_block)
        for seating in seatings
    ]
    began = time.perf_counter()
    if workers == 1:
        played = [play_task(task) for task in matches]
    else:
        played = list(map_on_processes(play_task, matches, workers))
    elapsed = time.perf_counter() - began
    blocks = [played[i : i + len(seatings)] for i in range(0, len(played), len(seatings))]
    plain = [sum(s.chips for s in m) / len(m) for block in blocks for m in block]
    duplicate = [sum(s.chips for m in block for s in m) / sum(map(len, block)) for block in blocks]
    fits = [_fit(blocks[1 - parity :: 2]) for parity in (0, 1)]
    corrections: list[float] = []
    for i, block in enumerate(blocks):
        beta = fits[i % 2]
        z = np.array([s.features for m in block for s in m], dtype=np.float64)
        corrections.append(float((z @ beta).sum()) / len(z))
    corrected = [d - c for d, c in zip(duplicate, corrections, strict=True)]
    return Evaluation(
        lineup=tuple(level.value for level in levels),
        rotations=len(seatings),
        players=len(levels),
        rules=table.name,
        deals=sum(len(m) for block in blocks for m in block),
        elapsed_seconds=elapsed,
        plain=_estimate(plain),
        duplicate=_estimate(duplicate),
        corrected=_estimate(corrected),
        correction_mean=sum(corrections) / len(corrections),
        correction_error=_standard_error(corrections),
        corrected_blocks=tuple(corrected),
    )


def paired_difference(first: Evaluation, second: Evaluation) -> Estimate:
    """``first``'s corrected margin less ``second``'s, block by block: for two evaluations
    of the same blocks (the same seed, deals, block size and players; a different challenger,
    say), where each block's deals are the same in both, so the difference is far less noisy
    than either margin. Raises ``ValueError`` if the blocks differ."""
    same = (first.players, first.rules, first.rotations, first.deals) == (
        second.players,
        second.rules,
        second.rotations,
        second.deals,
    )
    if not same or len(first.corrected_blocks) != len(second.corrected_blocks):
        raise ValueError("paired evaluations need the same blocks: seed, deals, block size")
    if len(first.corrected_blocks) < 2:
        raise ValueError("a paired difference needs at least 2 blocks")
    return _estimate(
        [a - b for a, b in zip(first.corrected_blocks, second.corrected_blocks, strict=True)]
    )


__all__ = [
    "RIDGE",
    "BlockTask",
    "DealSample",
    "Estimate",
    "Evaluation",
    "evaluate_lineup",
    "paired_difference",
    "play_block",
    "play_task",
    "rotations",
]
