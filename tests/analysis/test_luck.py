"""The luck features (analysis/luck.py): the deck's tables agree with the engine, the final
hands read from a record are the hands shown, and the sampled expectations of the dealt set and
of the draw are the exact ones (brute force on small cases)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from italian_poker.analysis.batch_evaluation import CATEGORY_SHIFT, all_hands, batch_evaluator
from italian_poker.analysis.bots import make_bot
from italian_poker.analysis.luck import (
    DEALT_FEATURES,
    DRAW_FEATURES,
    LUCK_FEATURES,
    OPENERS,
    _dealt_basis,
    _draw_basis,
    dealt_features,
    draw_features,
    hand_categories,
    hand_indices,
    luck_features,
    opening_hands,
    pot_at_draw,
    record_final_hands,
)
from italian_poker.engine.actions import ActionKind
from italian_poker.engine.cards import Card, Rank
from italian_poker.engine.deck import stripped_deck
from italian_poker.engine.hand_rank import Tiebreak
from italian_poker.engine.match import CompletedDeal, Match
from italian_poker.engine.opening import opening_requirement
from italian_poker.engine.operations import HandsDealt
from italian_poker.engine.rules import Rules


def played(players: int, deals: int, seed: int) -> list[CompletedDeal]:
    rules = Rules().with_options(players=players)
    names = [f"P{i}" for i in range(players)]
    bots = {n: make_bot("simple", seed=seed + i) for i, n in enumerate(names)}
    match = Match(rules, [(n, 500) for n in names])
    for deal in range(deals):
        match.start_deal(seed=seed * 1000 + deal)
        while (actor := match.actor) is not None:
            match.apply(bots[actor].act(match.view(actor)), actor)
    return list(match.completed)


@pytest.mark.parametrize("min_pair", [Rank.JACK, Rank.KING])
@pytest.mark.parametrize("four_straight_flush", [True, False])
def test_opening_hands_is_the_engines_test_on_every_hand(
    min_pair: Rank, four_straight_flush: bool
) -> None:
    requirement = opening_requirement(min_pair, four_straight_flush)
    table = opening_hands(requirement, 2)
    hands = all_hands(2)
    for row, opens in zip(hands, table, strict=True):
        cards = [Card.from_index(int(i)) for i in row]
        assert bool(opens) == requirement.is_met(cards, players=2)


def test_hand_indices_find_each_hand_in_any_order() -> None:
    hands = all_hands(3)
    assert np.array_equal(hand_indices(hands, 3), np.arange(len(hands)))
    shuffled = hands[:, ::-1]
    assert np.array_equal(hand_indices(shuffled, 3), np.arange(len(hands)))
    categories = hand_categories(3, Tiebreak.STANDARD)
    assert np.array_equal(categories, batch_evaluator(3).table >> CATEGORY_SHIFT)


def test_final_hands_of_a_record_are_the_hands_after_the_draw() -> None:
    checked = 0
    for record in played(3, 30, 4):
        drew = [r for r in record.actions if r.action.kind is ActionKind.DRAW]
        if not drew:
            continue
        hands = next(op.hands for op in record.operations if isinstance(op, HandsDealt))
        discards = {r.seat: set(r.action.cards) for r in drew}
        final = record_final_hands(record, hands, discards)
        for seat, cards in enumerate(final):
            assert len(cards) == 5
            if seat in discards:
                kept = {c.index for c in hands[seat]} - {c.index for c in discards[seat]}
                assert kept <= set(cards)
        shown = record.result.shown if record.result is not None else {}
        for seat, rank in shown.items():
            value = batch_evaluator(3).evaluate(np.array([final[seat]]))[0]
            assert value == rank.value
        checked += 1
    assert checked >= 5


def test_every_feature_is_there_and_zero_where_nothing_was_drawn() -> None:
    rules = Rules().with_options(players=3)
    rng = np.random.default_rng(1)
    for record in played(3, 10, 2):
        held = [True, False, False][: len(record.start.names)]
        features = luck_features(record, held, rules, rng, samples=64)
        assert len(features) == LUCK_FEATURES
        if not any(r.action.kind is ActionKind.DRAW for r in record.actions):
            assert draw_features(record, held, rules, rng, 64) == [0.0] * DRAW_FEATURES


def test_the_dealt_sets_sampled_expectation_is_the_exact_one() -> None:
    """With many samples, the expected number of hands that may open is 3 times the share of
    the deck's hands that may (the hands of a deal are each a uniform hand of the deck)."""
    record = played(3, 1, 9)[0]
    rules = Rules().with_options(players=3)
    requirement = opening_requirement(Rank.JACK, True)
    opens = opening_hands(requirement, 3)
    category = hand_categories(3, Tiebreak.STANDARD)
    dealt = next(op.hands for op in record.operations if isinstance(op, HandsDealt))
    actual = _dealt_basis(
        hand_indices(np.array([[c.index for c in h] for h in dealt]), 3)[None, :], opens, category
    )[0]
    features = np.array(dealt_features(record, rules, np.random.default_rng(3), samples=40_000))
    assert len(features) == DEALT_FEATURES
    expected = actual - features  # the sampled means
    openers = expected[:OPENERS]
    assert openers.sum() == pytest.approx(1.0)
    mean_openers = float(np.dot(np.arange(OPENERS), openers))
    assert mean_openers == pytest.approx(3 * float(opens.mean()), abs=0.02)


def test_the_draws_sampled_expectation_is_the_exact_one() -> None:
    """A deal where the draw serves one or two cards: the sampled mean of the draw's basis
    matches the mean over every ordered draw of the stock."""
    rules = Rules().with_options(players=2)
    for record in played(2, 40, 6):
        drew = [r for r in record.actions if r.action.kind is ActionKind.DRAW]
        needed = sum(len(r.action.cards) for r in drew)
        folded = any(r.action.kind is ActionKind.FOLD for r in record.actions)
        if folded or not 1 <= needed <= 2:
            continue
        held = [True, False]
        hands = next(op.hands for op in record.operations if isinstance(op, HandsDealt))
        discards = {r.seat: set(r.action.cards) for r in drew}
        dealt = {c for h in hands for c in h}
        stock = [c for c in stripped_deck(2).cards if c not in dealt]
        served = [s for r in drew for s in [r.seat] * len(r.action.cards)]
        evaluator = batch_evaluator(2)
        rows = []
        for cards in itertools.permutations(stock, needed):
            got: dict[int, list[int]] = {0: [], 1: []}
            for seat, card in zip(served, cards, strict=True):
                got[seat].append(card.index)
            hand = [
                [c.index for c in hands[s] if c not in discards.get(s, ())] + got[s] for s in (0, 1)
            ]
            rows.append(evaluator.evaluate(np.array(hand)))
        values = np.array(rows, dtype=np.int64)
        live = np.array([True, True])
        side = np.array(held)
        pot = pot_at_draw(record)
        exact = _draw_basis(values, values >> CATEGORY_SHIFT, live, side, pot).mean(axis=0)
        actual_hands = np.array(record_final_hands(record, hands, discards))
        actual = evaluator.evaluate(actual_hands)[None, :].astype(np.int64)
        first = _draw_basis(actual, actual >> CATEGORY_SHIFT, live, side, pot)[0]
        features = draw_features(record, held, rules, np.random.default_rng(4), samples=20_000)
        sampled = first - np.array(features)
        scale = np.maximum(1.0, np.abs(exact))  # the pot-sized features
        np.testing.assert_array_less(np.abs(sampled - exact) / scale, 0.03)
        return
    pytest.fail("no deal served one or two cards")


def test_the_same_generator_gives_the_same_features() -> None:
    rules = Rules().with_options(players=3)
    record = played(3, 3, 5)[-1]
    held = [True, False, False][: len(record.start.names)]
    one = luck_features(record, held, rules, np.random.default_rng(8), samples=32)
    two = luck_features(record, held, rules, np.random.default_rng(8), samples=32)
    assert one == two
