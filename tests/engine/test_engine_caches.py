"""The engine's speed-ups keep what a front end reads exact: the seats' stacks of a match after
every action, and views made from the observer's per-deal caches equal views of a fresh copy
of the deal (no cache), for every seat and the public, after every action."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random

import pytest

from italian_poker.engine.actions import Action, ActionKind, LegalAction
from italian_poker.engine.cards import Card, parse_card
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


def test_an_action_of_a_kind_alone_is_shared_and_behaves_as_a_frozen_dataclass() -> None:
    """``Action(kind)`` is one shared object per kind (a policy makes one per decision); it
    still compares, copies, pickles, replaces and refuses assignment as a frozen dataclass."""
    for kind in ActionKind:
        action = Action(kind)
        assert action is Action(kind) is Action(kind=kind)
        assert (action.kind, action.amount, action.cards, action.split) == (kind, None, (), False)
        assert pickle.loads(pickle.dumps(action)) is action
        assert copy.copy(action) is action and copy.deepcopy(action) is action
    opened = Action(ActionKind.OPEN, 5)
    assert opened is not Action(ActionKind.OPEN, 5) and opened == Action(ActionKind.OPEN, 5)
    assert pickle.loads(pickle.dumps(opened)) == opened == copy.deepcopy(opened)
    assert dataclasses.replace(Action(ActionKind.OPEN), amount=5) == opened
    assert dataclasses.replace(opened, amount=None) is Action(ActionKind.OPEN)
    assert Action(ActionKind.DRAW, split=True).split is True
    assert Action(ActionKind.DRAW, cards=(parse_card("As"),)).cards == (parse_card("As"),)
    with pytest.raises(dataclasses.FrozenInstanceError):
        Action(ActionKind.CALL).amount = 3  # type: ignore[misc]


def test_a_look_alike_kind_is_not_taken_for_the_shared_action() -> None:
    """The string ``"call"`` equals ``ActionKind.CALL`` (a ``StrEnum``) but is not a kind: its
    action is not the shared one, so the engine still refuses it (check_action)."""
    look_alike = Action("call")  # type: ignore[arg-type]
    assert look_alike is not Action(ActionKind.CALL)
    assert type(look_alike.kind) is str
