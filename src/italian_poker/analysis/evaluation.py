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

The correction. Every chance event ``c`` of a deal (the deal of the hands, 3.1; the
replacement cards of each draw, Art. 4) gets a feature vector ``z = f(h.c) - E_c[f(h.c)]``,
where ``h`` is the history before the event, ``f`` a function of the cards it gives one seat
(the category of the seat's five cards, one-hot, signed by whether a challenger holds the
seat; for a draw also times the pot at the draw, known before it, and whether the new hand
beats every live rival's hand as it stands then) and ``E_c`` the exact
expectation over the event's equally likely outcomes given ``h``: for the deal, every
five-card hand of the deck (as :func:`~italian_poker.analysis.draw_odds.hand_ladder` counts
them); for a draw, every set of replacement cards from the actual stock (the deck less every
card dealt or drawn before, :func:`~italian_poker.analysis.draw_odds.draw_distributions`).
Whatever ``f`` is, ``E[z | h] = 0``, so the sum of the ``z`` over a deal and over a block is a
sum of martingale differences with expectation 0; so is ``beta . z`` for any coefficients
``beta`` chosen independently of the block. The coefficients are fitted by least squares
(chips on features) on the *other* half of the blocks (cross-fitting: blocks of even index
are corrected with ``beta`` fitted on the odd ones and vice versa), which keeps the corrected
estimate exactly unbiased; a good ``beta`` only removes variance. An event is corrected only
when that is decided before it happens: a draw is skipped when a reshuffle (4.3) has been made
or may be needed (fewer cards in the stock than discarded) and when the cards are not served
at once; skipping by what is known before the event keeps the expectation 0.

The bots' own random choices are corrected too (AIVAT's action terms,
:mod:`~italian_poker.analysis.action_terms`): at each decision of a bot whose odds are known
(:func:`~italian_poker.analysis.bots.chance.action_distribution`), the playout value of the
action taken less its expectation under those odds, with the deck and the playout seed the same
for every action compared. Their sum over the deal is the last feature; it has expectation 0
given everything before each decision, so it enters the fit like the chance features.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from italian_poker.analysis.action_terms import action_correction
from italian_poker.analysis.batch_evaluation import batch_evaluator
from italian_poker.analysis.bots import BotLevel, bot_level, make_bot
from italian_poker.analysis.draw_odds import DrawDistribution, draw_distributions, hand_ladder
from italian_poker.analysis.simulation import DEFAULT_STACK, t_quantile
from italian_poker.engine.actions import ActionKind
from italian_poker.engine.cards import Card
from italian_poker.engine.deal import Phase
from italian_poker.engine.hand_rank import Category, Tiebreak, evaluate
from italian_poker.engine.match import CompletedDeal, Match
from italian_poker.engine.operations import (
    AntesPaid,
    CardsDrawn,
    FourthCardDealt,
    HandsDealt,
    Reshuffled,
)
from italian_poker.engine.rules import Rules
from italian_poker.engine.wording import count
from italian_poker.table.driver import DealFinished, Table

CATEGORIES = len(Category)
"""Features per seat and chance event: one per hand category."""


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


@cache
def deal_means(players: int, tiebreak: Tiebreak) -> npt.NDArray[np.float64]:
    """The exact chance of each category for a five-card hand dealt from the deck (3.1)."""
    ladder = hand_ladder(players, tiebreak)
    values, counts = np.unique(batch_evaluator(players, tiebreak).table, return_counts=True)
    assert np.array_equal(values, ladder.values)
    means = np.zeros(CATEGORIES, dtype=np.float64)
    np.add.at(means, ladder.categories.astype(np.intp), counts.astype(np.float64))
    out: npt.NDArray[np.float64] = means / float(counts.sum())
    return out


def one_hot(cards: Sequence[Card], players: int, tiebreak: Tiebreak) -> npt.NDArray[np.float64]:
    """The category of ``cards`` as a one-hot vector (one entry per :class:`Category`)."""
    out = np.zeros(CATEGORIES, dtype=np.float64)
    out[int(evaluate(cards, players=players, tiebreak=tiebreak).category)] = 1.0
    return out


_BEFORE_DRAW = frozenset({Phase.BLINDS, Phase.OPENING, Phase.FIRST_ROUND})


def _pot_at_draw(record: CompletedDeal) -> float:
    """The chips in the pot when the draw begins (carried, antes, make-ups and first-round
    stakes, each seat's largest first-round total): known before any replacement card."""
    pot = record.start.carried
    for op in record.operations:
        if isinstance(op, AntesPaid):
            pot += sum(op.antes) + sum(op.makeups)
    stakes: dict[int, int] = {}
    for r in record.actions:
        if r.phase in _BEFORE_DRAW and r.action.amount is not None:
            stakes[r.seat] = max(stakes.get(r.seat, 0), r.action.amount)
    return float(pot + sum(stakes.values()))


def _distribution(
    hand: Sequence[Card],
    discards: Sequence[Card],
    known: Sequence[Card],
    players: int,
    tiebreak: Tiebreak,
) -> DrawDistribution:
    dists = draw_distributions(
        hand, players=players, known=known, max_discards=len(discards), tiebreak=tiebreak
    )
    return next(d for d in dists if set(d.discards) == set(discards))


def draw_expectation(
    hand: Sequence[Card],
    discards: Sequence[Card],
    known: Sequence[Card],
    players: int,
    tiebreak: Tiebreak,
) -> npt.NDArray[np.float64]:
    """The exact chance of each category of the hand after drawing for ``discards`` (Art. 4)
    when every card of the deck but ``hand`` and ``known`` is equally likely to come."""
    dist = _distribution(hand, discards, known, players, tiebreak)
    ladder = hand_ladder(players, tiebreak)
    expect = np.zeros(CATEGORIES, dtype=np.float64)
    np.add.at(
        expect,
        ladder.categories[dist.positions].astype(np.intp),
        dist.counts.astype(np.float64) / dist.combinations,
    )
    return expect


def ahead_chance(
    hand: Sequence[Card],
    discards: Sequence[Card],
    known: Sequence[Card],
    players: int,
    tiebreak: Tiebreak,
    best: int,
) -> float:
    """The exact chance that the hand after drawing for ``discards`` has a value above
    ``best`` (a :attr:`HandRank.value`), the stock as in :func:`draw_expectation`."""
    dist = _distribution(hand, discards, known, players, tiebreak)
    values = hand_ladder(players, tiebreak).values[dist.positions]
    return float(dist.counts[values > best].sum()) / dist.combinations


def luck_features(record: CompletedDeal, challenger: Sequence[bool], rules: Rules) -> list[float]:
    """The luck features of one deal: per chance event and seat, the category one-hot of the
    cards received less its exact expectation, signed ``+1/k`` for the ``k`` challenger seats
    and ``-1/(n-k)`` for the others; deal features first, then draw features, then the draw
    features times the pot at the draw, then whether the drawer's new hand beats every live
    rival's hand as it stands (less its exact chance), plain and times the pot (module
    docstring). ``challenger`` says, per seat
    dealt in (``record.start.names`` order), whether a challenger holds it."""
    players, tiebreak = len(record.start.names), rules.tiebreak
    k = sum(challenger)
    sign = [1.0 / k if c else -1.0 / (players - k) for c in challenger]
    dealt = np.zeros(CATEGORIES, dtype=np.float64)
    drawn = np.zeros(CATEGORIES, dtype=np.float64)
    staked = np.zeros(CATEGORIES, dtype=np.float64)
    ahead = [0.0, 0.0]
    pot = _pot_at_draw(record)
    folded = {
        r.seat
        for r in record.actions
        if r.action.kind is ActionKind.FOLD and r.phase in _BEFORE_DRAW
    }
    means = deal_means(players, tiebreak)
    hands: list[list[Card]] = []
    gone: set[Card] = set()
    reshuffled = False
    draws = {r.seat: r.action.cards for r in record.actions if r.action.kind is ActionKind.DRAW}
    for op in record.operations:
        if isinstance(op, HandsDealt):
            hands = [list(h) for h in op.hands]
            for seat, hand in enumerate(hands):
                gone.update(hand)
                dealt += sign[seat] * (one_hot(hand, players, tiebreak) - means)
        elif isinstance(op, Reshuffled):
            reshuffled = True
        elif isinstance(op, CardsDrawn):
            seat, cards = op.seat, op.cards
            discards = draws.get(seat, ())
            stock = len(record.deck) - len(gone)
            # Decided before the cards come: no reshuffle so far, enough stock, served at once.
            if cards and not reshuffled and stock >= len(discards) == len(cards):
                hand = hands[seat]
                known = [c for c in gone if c not in hand]
                expect = draw_expectation(hand, discards, known, players, tiebreak)
                final = [c for c in hand if c not in discards] + list(cards)
                luck = sign[seat] * (one_hot(final, players, tiebreak) - expect)
                drawn += luck
                staked += pot * luck
                rivals = [
                    h
                    for s, h in enumerate(hands)
                    if s != seat and s not in folded and len(h) == 5  # 4.2: a fourth to come
                ]
                if rivals:
                    best = max(
                        evaluate(h, players=players, tiebreak=tiebreak).value for h in rivals
                    )
                    chance = ahead_chance(hand, discards, known, players, tiebreak, best)
                    mine = evaluate(final, players=players, tiebreak=tiebreak).value
                    lead = sign[seat] * ((1.0 if mine > best else 0.0) - chance)
                    ahead[0] += lead
                    ahead[1] += pot * lead
            gone.update(cards)
            kept = [c for c in hands[seat] if c not in discards]
            hands[seat] = kept + list(cards)
        elif isinstance(op, FourthCardDealt):
            gone.add(op.card)
            hands[op.seat] = [*hands[op.seat], op.card]
    return [*dealt.tolist(), *drawn.tolist(), *staked.tolist(), *ahead]


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
    Busted seats, and seats short of the antes, buy back in to ``stack`` between deals.
    With ``actions`` the last feature is the deal's action terms
    (:func:`~italian_poker.analysis.action_terms.action_correction`), from playouts seeded
    apart from the deals."""
    players = len(levels)
    rng = random.Random(seed)
    playouts = random.Random(f"action terms {seed}")
    level_of = dict(zip([f"P{i + 1}" for i in range(players)], levels, strict=True))
    names = [f"P{i + 1}" for i in range(players)]
    bots = {n: make_bot(lv, seed=rng.getrandbits(64)) for n, lv in zip(names, levels, strict=True)}
    mine = {n for n, lv in zip(names, levels, strict=True) if lv is challenger}
    ids = {n: i for i, n in enumerate(names)}
    match = Match(rules, [(n, stack, ids[n]) for n in names])
    table = Table(match, bots)
    need = max(rules.ante + rules.dealer_ante, 1)
    seen_departed = 0
    samples: list[DealSample] = []
    while len(samples) < deals:
        for name, _chips in match.departed[seen_departed:]:
            match.join(name, stack, player_id=ids[name])
        for seat in list(match.seats):
            if seat.stack < need:
                match.leave(seat.name)
                match.join(seat.name, stack, player_id=ids[seat.name])
        seen_departed = len(match.departed)
        events = table.start_deal(seed=rng.getrandbits(63))
        events += table.play_policies()
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
            features = luck_features(record, held, rules)
            if actions:
                seated = [level_of[n] for n in start.names]
                features.append(action_correction(record, seated, held, playouts))
            samples.append(DealSample(won / k, tuple(features)))
    return samples


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

    @property
    def deals_per_second(self) -> float:
        """Deals played per second of wall time."""
        return self.deals / self.elapsed_seconds if self.elapsed_seconds > 0 else 0.0


def _fit(rows: list[list[DealSample]]) -> npt.NDArray[np.float64]:
    """Least-squares coefficients of the chips on the luck features over ``rows``' deals."""
    x = np.array([s.features for block in rows for s in block], dtype=np.float64)
    y = np.array([s.chips for block in rows for s in block], dtype=np.float64)
    beta, *_ = np.linalg.lstsq(x, y - y.mean(), rcond=None)
    return np.asarray(beta, dtype=np.float64)


def evaluate_lineup(
    lineup: Sequence[BotLevel | str],
    *,
    deals: int = 20_000,
    seed: int = 0,
    rules: Rules | None = None,
    stack: int = DEFAULT_STACK,
    block_deals: int = 250,
    actions: bool = True,
) -> Evaluation:
    """Every rotation of ``lineup`` over the same blocks of ``block_deals`` deals, about
    ``deals`` deals in all; the margin of the line-up's first level against the others.
    ``actions`` adds the action terms to the correction (:func:`play_block`)."""
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
    blocks: list[list[list[DealSample]]] = []
    began = time.perf_counter()
    for b in range(deals // per_block):
        block_seed = seed * 1_000_003 + b
        blocks.append(
            [
                play_block(
                    s, block_deals, block_seed, table, challenger, stack=stack, actions=actions
                )
                for s in seatings
            ]
        )
    elapsed = time.perf_counter() - began
    plain = [sum(s.chips for s in m) / len(m) for block in blocks for m in block]
    duplicate = [sum(s.chips for m in block for s in m) / sum(map(len, block)) for block in blocks]
    fits = [_fit([m for b in blocks[1 - parity :: 2] for m in b]) for parity in (0, 1)]
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
    )


__all__ = [
    "CATEGORIES",
    "DealSample",
    "Estimate",
    "Evaluation",
    "deal_means",
    "draw_expectation",
    "evaluate_lineup",
    "luck_features",
    "one_hot",
    "play_block",
    "rotations",
]
