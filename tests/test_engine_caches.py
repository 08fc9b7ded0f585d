"""The engine's speed-ups keep what a front end reads exact: the seats' stacks of a match after
every action, and views made from the observer's per-deal caches equal views of a fresh copy
of the deal (no cache), for every seat and the public, after every action."""

from __future__ import annotations

import copy
import random

from italian_poker.engine.actions import Action, ActionKind, LegalAction
from italian_poker.engine.cards import Card
from italian_poker.engine.match import Match
from italian_poker.engine.observer import PUBLIC, observe
from italian_poker.engine.rules import Rules, preset


def _policy(legal: tuple[LegalAction, ...], hand: tuple[Card, ...], rng: random.Random) -> Action:
    """Open or bet at random amounts, change cards (so that own draws are hidden), show."""
    kinds = {la.kind: la for la in legal}
    for kind in (ActionKind.OPEN, ActionKind.BET, ActionKind.RAISE):
        la = kinds.get(kind)
        if la is not None and la.min_amount is not None and rng.random() < 0.5:
            high = la.max_amount if la.max_amount is not None else la.min_amount
            return Action(kind, rng.randint(la.min_amount, min(high, la.min_amount + 10)))
    if ActionKind.DRAW in kinds:
        changed = tuple(hand[: rng.randint(0, 3)])
        return Action(ActionKind.DRAW, cards=changed)
    for kind in (ActionKind.CALL, ActionKind.CHECK, ActionKind.SHOW, ActionKind.MAKE_UP):
        if kind in kinds:
            return Action(kind)
    return Action(next(iter(kinds)))


def _play(rules: Rules, seed: int, deals: int) -> None:
    rng = random.Random(seed)
    match = Match(rules, [(f"P{i}", 500) for i in range(4)], seed=seed)
    for _ in range(deals):
        if match.phase.value == "over":
            break
        match.start_deal()
        while (actor := match.actor) is not None:
            deal = match.deal
            assert deal is not None
            fresh = copy.deepcopy(deal)  # a new deal object: nothing cached for it
            for seat in range(deal.n):
                assert observe(deal, seat) == observe(fresh, seat)
            assert observe(deal, PUBLIC) == observe(fresh, PUBLIC)
            view = match.view(actor)
            # A draw may be refused (a split to announce): then stand pat.
            action = _policy(view.legal_actions, view.hand, rng)
            if not match.can(action):
                action = Action(ActionKind.DRAW)
            match.apply(action, actor)
            if match.deal is deal and deal.result is None:
                for seat, name in enumerate(match.deal_seats):
                    assert match.seat(name).stack == deal.stacks[seat]


def test_views_and_stacks_after_every_action_standard() -> None:
    _play(Rules(), seed=11, deals=25)


def test_views_and_stacks_after_every_action_003() -> None:
    _play(preset("003"), seed=12, deals=25)
