"""Rival styles (issue 15): the style book banks each deal's evidence once and bounds it, the
chances of a simple rival's bets do not depend on its cards, and the expert learns over a match
whether its rivals play like the strong or the simple bot."""

from __future__ import annotations

import math
import random

import pytest

from italian_poker import Match, preset
from italian_poker.analysis.bots import ExpertPolicy, make_bot
from italian_poker.analysis.bots.expert import sample_world
from italian_poker.analysis.bots.styles import (
    MAX_DEAL_EVIDENCE,
    READ_FLOOR,
    STRONG_ONLY,
    STYLES,
    StyleBook,
    action_chances,
    drawn_style,
    mixed,
    resemblance,
)
from italian_poker.engine.actions import Action, ActionKind
from italian_poker.engine.deal import Phase
from italian_poker.engine.observer import SeatView

SIMPLE = [s.name for s in STYLES].index("simple")
STRONG = [s.name for s in STYLES].index("strong")


def views_of_a(rival: str, deals: int, seed: int) -> list[SeatView]:
    """Seat A's views at its turns in a match of strong bots against three ``rival`` bots."""
    names = ["A", "B", "C", "D"]
    bots = {
        n: make_bot("strong" if n == "A" else rival, seed=seed + i) for i, n in enumerate(names)
    }
    match = Match(preset("standard"), [(n, 1000) for n in names])
    found = []
    for deal in range(deals):
        match.start_deal(seed=seed * 100 + deal)
        while (actor := match.actor) is not None:
            view = match.view(actor)
            if actor == "A":
                found.append(view)
            match.apply(bots[actor].act(view), actor)
    return found


def test_the_book_banks_a_deal_once_when_the_next_begins() -> None:
    views = views_of_a("strong", 3, seed=1)
    first = [v for v in views if v.dealer == views[0].dealer]
    later = next(v for v in views if v.dealer != views[0].dealer)
    rival = first[0].player_ids[1]
    book = StyleBook()
    book.observe(first[0], {1: (0.2, 0.1)})
    assert book.beliefs(rival) == pytest.approx((0.5, 0.5))  # this deal is read per world
    book.observe(first[-1], {1: (0.1, 0.4)})  # the same deal, seen further: replaces
    book.observe(later, {})
    assert book.beliefs(rival)[SIMPLE] == pytest.approx(0.8)
    book.observe(later, {})  # nothing pending: nothing banked twice
    assert book.beliefs(rival)[SIMPLE] == pytest.approx(0.8)


def test_one_deal_moves_the_odds_by_a_bounded_amount() -> None:
    views = views_of_a("strong", 3, seed=2)
    later = next(v for v in views if v.dealer != views[0].dealer)
    book = StyleBook()
    book.observe(views[0], {1: (1e-12, 1.0), 2: (0.0, 0.3)})  # a zero says nothing
    book.observe(later, {})
    beliefs = book.beliefs(views[0].player_ids[1])
    assert math.log(beliefs[SIMPLE] / beliefs[STRONG]) == pytest.approx(MAX_DEAL_EVIDENCE)
    assert book.beliefs(views[0].player_ids[2]) == pytest.approx((0.5, 0.5))


def test_a_simple_rivals_bets_say_nothing_of_its_cards() -> None:
    """In every world of a first-round decision, the simple style gives the first-round bets
    of a rival who neither opened nor passed the same chance (its rates ignore the cards);
    every chance lies between 0 and 1."""
    checked = 0
    for view in views_of_a("simple", 30, seed=3):
        bets = [a for a in view.actions if a.seat != view.seat and a.kind is not ActionKind.PASS]
        if view.phase is not Phase.FIRST_ROUND or not bets:
            continue
        opener = view.opener
        rng = random.Random(checked)
        worlds = [w for w in (sample_world(view, rng, relaxed=False) for _ in range(8)) if w]
        rows = [action_chances(w.start, w.actions, view, w.deck) for w in worlds]
        passed = {a.seat for a in view.actions if a.kind is ActionKind.PASS}
        for seat in rows[0]:
            if seat == opener or seat in passed:
                continue  # whether it could open depends on the cards (3.3)
            simple = {round(row[seat][SIMPLE], 12) for row in rows}
            assert len(simple) == 1
        for row in rows:
            for chances in row.values():
                assert all(0 < c <= 1.0 for c in chances)
        checked += 1
    assert checked >= 5


def test_mixture_and_draw_follow_the_beliefs() -> None:
    assert mixed((0.2, 0.6), (0.25, 0.75)) == pytest.approx(0.5)
    assert mixed((0.2, 0.6), STRONG_ONLY) == pytest.approx(0.2)
    rng = random.Random(1)
    draws = [drawn_style((0.2, 0.6), (0.5, 0.5), rng) for _ in range(4000)]
    assert draws.count(SIMPLE) / len(draws) == pytest.approx(0.75, abs=0.03)
    assert drawn_style((0.0, 0.0), (0.5, 0.5), rng) == STRONG
    assert READ_FLOOR > 0


def test_resemblance_of_actions() -> None:
    bet = Action(ActionKind.BET, 10)
    assert resemblance(Action(ActionKind.CHECK), bet, 20) == 0.0
    assert resemblance(bet, bet, 20) == 1.0
    assert 0 < resemblance(Action(ActionKind.BET, 14), bet, 20) < 1.0


@pytest.mark.parametrize(("rival", "style"), [("simple", SIMPLE), ("strong", STRONG)])
def test_the_expert_learns_its_rivals_styles(rival: str, style: int) -> None:
    """Over 16 deals the expert comes to believe each rival plays the style it does."""
    names = ["A", "B", "C", "D"]
    bots = {n: make_bot("expert" if n == "A" else rival, seed=7 + i) for i, n in enumerate(names)}
    expert = bots["A"]
    assert isinstance(expert, ExpertPolicy)
    match = Match(preset("standard"), [(n, 100) for n in names])
    for deal in range(16):
        match.start_deal(seed=500 + deal)
        while (actor := match.actor) is not None:
            match.apply(bots[actor].act(match.view(actor)), actor)
    ids = match.view("A").player_ids[1:]
    assert all(expert.book.beliefs(pid)[style] > 0.9 for pid in ids)


def test_an_expert_told_not_to_learn_reads_every_rival_as_strong() -> None:
    names = ["A", "B", "C"]
    expert = ExpertPolicy(random.Random(2), learn_styles=False)
    bots = {"A": expert, "B": make_bot("simple", seed=1), "C": make_bot("simple", seed=2)}
    match = Match(preset("standard").with_options(players=3), [(n, 100) for n in names])
    for deal in range(3):
        match.start_deal(seed=deal)
        while (actor := match.actor) is not None:
            match.apply(bots[actor].act(match.view(actor)), actor)
    assert expert.book.evidence == {}
