"""The luck of the cards in a finished deal, as features whose expectation is 0.

The evaluation harness (:mod:`~italian_poker.analysis.evaluation`) subtracts a fitted multiple
of these features from the chips won (AIVAT's chance terms). Each feature is ``f(h.c) -
E_c[f(h.c)]`` for a chance event ``c`` (the deal of the hands, 3.1; the replacement cards of
the draw, Art. 4), ``h`` the history before it and ``E_c`` the expectation over the event's
equally likely outcomes given ``h``; whatever ``f`` is, ``E[f(h.c) - E_c f(h.c) | h] = 0``.
Three families, all from the cards the evaluator sees (every hand, the deck as dealt):

* per seat, exact (:func:`seat_features`): the category of the five cards each seat is dealt
  and of its hand after its draw, one-hot, signed ``+1/k`` for the ``k`` challenger seats and
  ``-1/(n-k)`` for the others; and whether a drawer's new hand beats every live rival's as it
  stands (plain and times the pot at the draw). ``E_c`` is exact: every five-card hand of the
  deck (:func:`deal_means`); every set of replacements from the stock
  (:func:`draw_expectation`, :func:`ahead_chance`).
* the hands dealt as a set, sampled (:func:`dealt_features`): whoever holds them, how many may
  open (3.3: none to four or more, one-hot) and the categories of the best and the second-best
  hand (one-hot): with more hands worth playing, the stronger level has more to win. ``E_c``
  is estimated from ``samples`` deals of the same deck drawn at random apart from the deal: an
  unbiased estimate, so the feature's expectation stays exactly 0 (its own noise is small).
* the draw as a whole, sampled (:func:`draw_features`): the replacement cards of every draw of
  the deal at once. A seat chooses its discards from its own hand and what the others did,
  never from the cards served to them, so given the hands and the discards the replacements
  are a uniformly random draw of the stock, served in order (the fourth card of a four-card
  draw last, 4.2). Per side (the challenger's seats, the others'): its share of the best final
  hand among the seats still in at the draw, plain and times the pot at the draw, and the
  categories of its final hands (one-hot) times their share. ``E_c`` is estimated from
  ``samples`` random draws of the stock.

Which features: the ones that took most of the variance out of 10,000 deals of the strong bot
against the simple one, each family tried with and without (docs/performance.md, "Bots").

An event is used only where that is decided before it happens: a draw is skipped once a
reshuffle (4.3) has been made or may be needed (more cards to serve than the stock holds);
the per-seat draw feature also when the cards are not served at once (4.2).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from math import comb

import numpy as np
import numpy.typing as npt

from italian_poker.analysis.batch_evaluation import CATEGORY_SHIFT, all_hands, batch_evaluator
from italian_poker.analysis.draw_odds import DrawDistribution, draw_distributions, hand_ladder
from italian_poker.engine.actions import ActionKind
from italian_poker.engine.cards import Card
from italian_poker.engine.deal import Phase
from italian_poker.engine.deck import stripped_deck
from italian_poker.engine.hand_rank import Category, Tiebreak, evaluate
from italian_poker.engine.match import CompletedDeal
from italian_poker.engine.opening import OpeningRequirement
from italian_poker.engine.operations import (
    AntesPaid,
    CardsDrawn,
    FourthCardDealt,
    HandsDealt,
    Reshuffled,
)
from italian_poker.engine.rules import Rules

CATEGORIES = len(Category)
"""Features per seat and chance event: one per hand category."""

SAMPLES = 512
"""Random outcomes drawn to estimate the expectation of a sampled feature."""

OPENERS = 5
"""The one-hot of how many hands may open: none, one, two, three, four or more."""

SEAT_FEATURES = 2 * CATEGORIES + 2
DEALT_FEATURES = OPENERS + 2 * CATEGORIES
DRAW_FEATURES = 2 * (2 + CATEGORIES)
LUCK_FEATURES = SEAT_FEATURES + DEALT_FEATURES + DRAW_FEATURES

Floats = npt.NDArray[np.float64]

_BEFORE_DRAW = frozenset({Phase.BLINDS, Phase.OPENING, Phase.FIRST_ROUND})
_BELOW_ACES = np.uint64((1 << 48) - 1)


# --- per seat, exact --------------------------------------------------------------------


@cache
def deal_means(players: int, tiebreak: Tiebreak) -> Floats:
    """The exact chance of each category for a five-card hand dealt from the deck (3.1)."""
    ladder = hand_ladder(players, tiebreak)
    values, counts = np.unique(batch_evaluator(players, tiebreak).table, return_counts=True)
    assert np.array_equal(values, ladder.values)
    means = np.zeros(CATEGORIES, dtype=np.float64)
    np.add.at(means, ladder.categories.astype(np.intp), counts.astype(np.float64))
    out: Floats = means / float(counts.sum())
    return out


def one_hot(cards: Sequence[Card], players: int, tiebreak: Tiebreak) -> Floats:
    """The category of ``cards`` as a one-hot vector (one entry per :class:`Category`)."""
    out = np.zeros(CATEGORIES, dtype=np.float64)
    out[int(evaluate(cards, players=players, tiebreak=tiebreak).category)] = 1.0
    return out


def _pot_at_deal(record: CompletedDeal) -> float:
    """The chips in the pot before any card is dealt: carried, antes and make-ups."""
    pot = record.start.carried
    for op in record.operations:
        if isinstance(op, AntesPaid):
            pot += sum(op.antes) + sum(op.makeups)
    return float(pot)


def pot_at_draw(record: CompletedDeal) -> float:
    """The chips in the pot when the draw begins (carried, antes, make-ups and first-round
    stakes, each seat's largest first-round total): known before any replacement card."""
    stakes: dict[int, int] = {}
    for r in record.actions:
        if r.phase in _BEFORE_DRAW and r.action.amount is not None:
            stakes[r.seat] = max(stakes.get(r.seat, 0), r.action.amount)
    return _pot_at_deal(record) + sum(stakes.values())


def _folded_before_draw(record: CompletedDeal) -> set[int]:
    return {
        r.seat
        for r in record.actions
        if r.action.kind is ActionKind.FOLD and r.phase in _BEFORE_DRAW
    }


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
) -> Floats:
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


def _signs(challenger: Sequence[bool]) -> list[float]:
    """``+1/k`` for each of the ``k`` challenger seats, ``-1/(n-k)`` for the others."""
    k = sum(challenger)
    return [1.0 / k if c else -1.0 / (len(challenger) - k) for c in challenger]


def seat_features(record: CompletedDeal, challenger: Sequence[bool], rules: Rules) -> list[float]:
    """The :data:`SEAT_FEATURES` per-seat features of one deal (module docstring): the deal's
    category one-hots, then the draws', then whether the drawer's new hand beats every live
    rival's as it stands (less its exact chance), plain and times the pot at the draw.
    ``challenger`` says, per seat dealt in (``record.start.names`` order), whether a
    challenger holds it."""
    players, tiebreak = len(record.start.names), rules.tiebreak
    sign = _signs(challenger)
    dealt = np.zeros(CATEGORIES, dtype=np.float64)
    drawn = np.zeros(CATEGORIES, dtype=np.float64)
    ahead = [0.0, 0.0]
    pot = pot_at_draw(record)
    folded = _folded_before_draw(record)
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
            stock = len(_deck_of(record)) - len(gone)
            # Decided before the cards come: no reshuffle so far, enough stock, served at once.
            if cards and not reshuffled and stock >= len(discards) == len(cards):
                hand = hands[seat]
                known = [c for c in gone if c not in hand]
                expect = draw_expectation(hand, discards, known, players, tiebreak)
                final = [c for c in hand if c not in discards] + list(cards)
                luck = sign[seat] * (one_hot(final, players, tiebreak) - expect)
                drawn += luck
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
    return [*dealt.tolist(), *drawn.tolist(), *ahead]


# --- the deck's hands as index tables ---------------------------------------------------


@lru_cache(maxsize=4)
def _binomials(players: int) -> tuple[int, npt.NDArray[np.int64]]:
    """The deck's lowest card index and ``C(x, r)`` for its offsets ``x`` and ``r`` 0..5."""
    first = int(all_hands(players)[0].min())
    size = 52 - first
    return first, np.array([[comb(x, r) for r in range(6)] for x in range(size)], dtype=np.int64)


def hand_indices(cards: npt.NDArray[np.integer], players: int) -> npt.NDArray[np.intp]:
    """The position in :func:`~.batch_evaluation.all_hands` of each row of five card indices
    (``Card.index``, in any order), for the deck for ``players``."""
    first, binomials = _binomials(players)
    offsets = np.sort(np.asarray(cards, dtype=np.int64) - first, axis=-1)
    index = np.zeros(offsets.shape[:-1], dtype=np.int64)
    for place in range(5):
        index += binomials[offsets[..., place], place + 1]
    return index.astype(np.intp)


@lru_cache(maxsize=4)
def hand_categories(players: int, tiebreak: Tiebreak) -> npt.NDArray[np.intp]:
    """The :class:`Category` of every hand of the deck, by :func:`hand_indices`."""
    table = batch_evaluator(players, tiebreak).table
    return (table >> CATEGORY_SHIFT).astype(np.intp)


@lru_cache(maxsize=16)
def opening_hands(requirement: OpeningRequirement, players: int) -> npt.NDArray[np.bool_]:
    """Whether each hand of the deck (by :func:`hand_indices`) may open under
    ``requirement`` (3.3): two pair or better; a pair of at least its ``min_pair`` (unless it
    needs two pair, 3.5); four to a
    straight flush without the ace, where it counts (the same test as
    :meth:`OpeningRequirement.is_met`, on every hand at once)."""
    hands = all_hands(players).astype(np.int64)
    category = hand_categories(players, Tiebreak.STANDARD)
    ranks = np.sort(hands // 4 + 2, axis=1)
    paired = np.where(ranks[:, 1:] == ranks[:, :-1], ranks[:, 1:], 0).max(axis=1)
    opens = (category >= Category.TWO_PAIR) | (
        (category == Category.ONE_PAIR)
        & (paired >= int(requirement.min_pair))
        & (not requirement.two_pair)
    )
    if requirement.four_straight_flush:
        held = np.zeros(len(hands), dtype=np.uint64)
        for place in range(5):
            held |= np.left_shift(np.uint64(1), hands[:, place].astype(np.uint64))
        held &= _BELOW_ACES
        run = held & (held >> np.uint64(4)) & (held >> np.uint64(8)) & (held >> np.uint64(12))
        opens |= run != 0
    out: npt.NDArray[np.bool_] = opens
    out.flags.writeable = False
    return out


# --- the hands dealt as a set, sampled --------------------------------------------------


def _dealt_basis(
    hands: npt.NDArray[np.intp], opens: npt.NDArray[np.bool_], category: npt.NDArray[np.intp]
) -> Floats:
    """Per row of hand indices (one deal): how many may open (one-hot), the best and the
    second-best category (one-hot)."""
    rows = np.arange(len(hands))
    openers = np.zeros((len(hands), OPENERS), dtype=np.float64)
    openers[rows, np.minimum(opens[hands].sum(axis=1), OPENERS - 1)] = 1.0
    ranked = np.sort(category[hands], axis=1)
    best = np.zeros((len(hands), CATEGORIES), dtype=np.float64)
    best[rows, ranked[:, -1]] = 1.0
    second = np.zeros((len(hands), CATEGORIES), dtype=np.float64)
    if hands.shape[1] > 1:
        second[rows, ranked[:, -2]] = 1.0
    return np.concatenate([openers, best, second], axis=1)


def dealt_features(
    record: CompletedDeal, rules: Rules, rng: np.random.Generator, samples: int = SAMPLES
) -> list[float]:
    """The :data:`DEALT_FEATURES` features of the hands dealt as a set (module docstring):
    how many may open (under the deal's requirement, 3.3, which a passed deal raises) one-hot,
    then the best and the second-best category one-hot; each less its mean over ``samples``
    random deals of the deck (``rng``)."""
    players = len(record.start.names)
    dealt = next((op.hands for op in record.operations if isinstance(op, HandsDealt)), None)
    if dealt is None:
        return [0.0] * DEALT_FEATURES
    requirement = record.start.requirement
    opens = opening_hands(requirement, players)
    category = hand_categories(players, rules.tiebreak)
    actual = hand_indices(np.array([[c.index for c in h] for h in dealt]), players)
    deck = np.array([c.index for c in _deck_of(record)], dtype=np.int64)
    order = np.argsort(rng.random((samples, len(deck))), axis=1)[:, : 5 * players]
    sampled = hand_indices(deck[order].reshape(samples, players, 5), players)
    luck = _dealt_basis(actual[None, :], opens, category)[0] - _dealt_basis(
        sampled, opens, category
    ).mean(axis=0)
    return [float(x) for x in luck]


# --- the draw as a whole, sampled -------------------------------------------------------


def _draw_basis(
    values: npt.NDArray[np.int64],
    category: npt.NDArray[np.intp],
    live: npt.NDArray[np.bool_],
    challenger: npt.NDArray[np.bool_],
    pot: float,
) -> Floats:
    """Per row of final hand values by seat (one draw): per side, its share of the best hand
    among the live seats, that times ``pot``, and its final categories (one-hot) times their
    seat's share; each side's sums divided by its number of seats."""
    rows = len(values)
    shown = np.where(live[None, :], values, -1)
    best = shown.max(axis=1, keepdims=True)
    wins = (shown == best) & live[None, :]
    share = wins / wins.sum(axis=1, keepdims=True)
    held = np.zeros((rows, values.shape[1], CATEGORIES), dtype=np.float64)
    np.put_along_axis(held, category[:, :, None], 1.0, axis=2)
    out = []
    for side in (challenger, ~challenger):
        seats = max(int(side.sum()), 1)
        mine = share[:, side].sum(axis=1) / seats
        out += [
            mine[:, None],
            (mine * pot)[:, None],
            (held[:, side] * share[:, side, None]).sum(axis=1) / seats,
        ]
    return np.concatenate(out, axis=1)


def draw_features(
    record: CompletedDeal,
    challenger: Sequence[bool],
    rules: Rules,
    rng: np.random.Generator,
    samples: int = SAMPLES,
) -> list[float]:
    """The :data:`DRAW_FEATURES` features of the draw as a whole (module docstring), each
    less its mean over ``samples`` random draws of the stock (``rng``); zeros where no seat
    drew, fewer than two were still in, or a reshuffle was made or may be needed (4.3)."""
    zero = [0.0] * DRAW_FEATURES
    players = len(record.start.names)
    hands: list[tuple[Card, ...]] | None = None
    served: list[tuple[int, int]] = []  # (seat, cards) in the order served
    for op in record.operations:
        if isinstance(op, HandsDealt):
            hands = list(op.hands)
        elif isinstance(op, Reshuffled):
            return zero
        elif isinstance(op, CardsDrawn) and op.cards:
            served.append((op.seat, len(op.cards)))
        elif isinstance(op, FourthCardDealt):
            served.append((op.seat, 1))
    folded = _folded_before_draw(record)
    live = np.array([s not in folded for s in range(players)])
    drew = any(r.action.kind is ActionKind.DRAW for r in record.actions)
    if hands is None or not drew or live.sum() < 2:
        return zero
    dealt = {c for h in hands for c in h}
    stock = np.array([c.index for c in _deck_of(record) if c not in dealt], dtype=np.int64)
    needed = sum(n for _seat, n in served)
    if needed > len(stock):
        return zero
    discards = {
        r.seat: set(r.action.cards) for r in record.actions if r.action.kind is ActionKind.DRAW
    }
    kept = [[c.index for c in h if c not in discards.get(s, ())] for s, h in enumerate(hands)]
    slots: list[list[int]] = [[] for _ in range(players)]
    place = 0
    for seat, n in served:
        slots[seat] += range(place, place + n)
        place += n
    evaluator = batch_evaluator(players, rules.tiebreak)
    actual_cards = record_final_hands(record, hands, discards)
    order = np.argsort(rng.random((samples + 1, len(stock))), axis=1)[:, :needed]
    drawn = stock[order]
    values = np.empty((samples + 1, players), dtype=np.int64)
    for seat in range(players):
        if len(kept[seat]) + len(slots[seat]) != 5:
            return zero  # a hand not made up again by the draw (never under the rules)
        own = np.tile(np.array(kept[seat], dtype=np.int64), (samples + 1, 1))
        values[:, seat] = evaluator.evaluate(np.concatenate([own, drawn[:, slots[seat]]], axis=1))
    values[0] = evaluator.evaluate(np.array(actual_cards, dtype=np.int64))
    category = (values >> CATEGORY_SHIFT).astype(np.intp)
    side = np.array(challenger, dtype=bool)
    basis = _draw_basis(values, category, live, side, pot_at_draw(record))
    luck: Floats = basis[0] - basis[1:].mean(axis=0)
    return [float(x) for x in luck]


def record_final_hands(
    record: CompletedDeal,
    hands: Sequence[Sequence[Card]],
    discards: dict[int, set[Card]],
) -> list[list[int]]:
    """Each seat's five cards after the draw (card indices), as the record served them."""
    got: list[list[int]] = [[] for _ in hands]
    for op in record.operations:
        if isinstance(op, CardsDrawn):
            got[op.seat] += [c.index for c in op.cards]
        elif isinstance(op, FourthCardDealt):
            got[op.seat].append(op.card.index)
    return [
        [c.index for c in h if c not in discards.get(s, ())] + got[s] for s, h in enumerate(hands)
    ]


def luck_features(
    record: CompletedDeal,
    challenger: Sequence[bool],
    rules: Rules,
    rng: np.random.Generator,
    samples: int = SAMPLES,
) -> list[float]:
    """Every luck feature of one deal, :data:`LUCK_FEATURES` in all: :func:`seat_features`,
    :func:`dealt_features`, :func:`draw_features` (``rng`` draws the samples)."""
    return [
        *seat_features(record, challenger, rules),
        *dealt_features(record, rules, rng, samples),
        *draw_features(record, challenger, rules, rng, samples),
    ]


__all__ = [
    "CATEGORIES",
    "DEALT_FEATURES",
    "DRAW_FEATURES",
    "LUCK_FEATURES",
    "OPENERS",
    "SAMPLES",
    "SEAT_FEATURES",
    "ahead_chance",
    "deal_means",
    "dealt_features",
    "draw_expectation",
    "draw_features",
    "hand_categories",
    "hand_indices",
    "luck_features",
    "one_hot",
    "opening_hands",
    "pot_at_draw",
    "seat_features",
]


def _deck_of(record: CompletedDeal) -> tuple[Card, ...]:
    """The stripped deck of the deal's players (section 1), in index order."""
    return stripped_deck(len(record.start.names)).cards
