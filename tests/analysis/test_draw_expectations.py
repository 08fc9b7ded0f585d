"""Expectations over every draw from sums over the deck (analysis/draw_expectations.py): the
same figures as the enumeration of analysis/draw_odds.py for every keep of random hands, and
a strong bot reading with shared tables decides as the exact one does."""

from __future__ import annotations

import random

import numpy as np
import pytest

from italian_poker.analysis.bots import StrongPolicy
from italian_poker.analysis.bots.chance import action_distribution
from italian_poker.analysis.draw_expectations import TABLES_KEPT, draw_expectations
from italian_poker.analysis.draw_odds import draw_distributions, hand_ladder
from italian_poker.engine.deal import Phase
from italian_poker.engine.deck import Deck
from italian_poker.engine.match import Match
from italian_poker.engine.observer import SeatView
from italian_poker.engine.rules import preset


@pytest.mark.parametrize(
    ("players", "tiebreak"), [(2, "standard"), (4, "standard"), (5, "fantini")]
)
def test_every_keep_matches_the_enumeration(players: int, tiebreak: str) -> None:
    ladder = hand_ladder(players, tiebreak)
    table = np.random.default_rng(players).random(len(ladder))
    sums = draw_expectations(table, players, tiebreak)
    deck = list(Deck(players).cards)
    rng = random.Random(players)
    for max_discards in (4, 3, 0):
        for _ in range(12):
            hand = rng.sample(deck, 5)
            fast = {
                frozenset(kept): (set(thrown), e) for kept, thrown, e in sums.of(hand, max_discards)
            }
            exact = draw_distributions(
                hand, players=players, max_discards=max_discards, tiebreak=tiebreak
            )
            assert len(fast) == len(exact)
            for dist in exact:
                thrown, expectation = fast[frozenset(dist.kept)]
                assert thrown == set(dist.discards)
                assert expectation == pytest.approx(dist.expectation(table), abs=1e-12)


def test_keeps_come_most_cards_kept_first_and_tables_are_reused() -> None:
    table = np.linspace(0.0, 1.0, len(hand_ladder(4)))
    sums = draw_expectations(table, 4)
    assert draw_expectations(table.copy(), 4) is sums  # the same contents: the same sums
    keeps = [len(kept) for kept, _thrown, _e in sums.of(list(Deck(4).cards)[:5])]
    assert keeps == sorted(keeps, reverse=True) and keeps[0] == 5 and len(keeps) == 31
    for i in range(TABLES_KEPT):
        draw_expectations(np.full(len(table), i / TABLES_KEPT), 4)
    assert draw_expectations(table, 4) is not sums  # pushed out by newer ones


def views_before_the_draw(players: int, deals: int) -> list[SeatView]:
    """Views of strong bots' decisions before the draw, in a seeded match."""
    match = Match(preset("standard", players=players), [(f"P{i}", 500) for i in range(players)])
    bots = {f"P{i}": StrongPolicy(random.Random(i)) for i in range(players)}
    found = []
    for deal in range(deals):
        match.start_deal(seed=deal)
        while (actor := match.actor) is not None:
            view = match.view(actor)
            if view.phase in (Phase.OPENING, Phase.FIRST_ROUND, Phase.DRAW):
                found.append(view)
            match.apply(bots[actor].act(view), actor)
    return found


def test_a_strong_bot_with_shared_tables_decides_as_the_exact_one() -> None:
    exact = StrongPolicy(random.Random(0))
    shared = StrongPolicy(random.Random(0), shared_tables=True)
    views = views_before_the_draw(4, 12)
    assert len(views) > 40
    for view in views:
        odds = action_distribution(exact, view)
        fast = action_distribution(shared, view)
        assert [(a.kind, a.amount, len(a.cards)) for a, _p in odds] == [
            (a.kind, a.amount, len(a.cards)) for a, _p in fast
        ]
        assert [p for _a, p in odds] == pytest.approx([p for _a, p in fast])
