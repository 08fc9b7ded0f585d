"""Simple bots: :class:`RandomPolicy` and :class:`SimplePolicy`, acting from a :class:`SeatView`.

A policy sees only what its seat may know (the view): its own hand, the public actions and the
legal actions offered. :class:`RandomPolicy` picks uniformly among the legal actions;
:class:`SimplePolicy` plays a plausible, loose game. Both are deterministic given their
:class:`random.Random`, and both answer the 5.5 make-up decision (see
:func:`~italian_poker.engine.policy.makeup_due`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from italian_poker.analysis.bots.chance import Chance, Draws
from italian_poker.engine.actions import AMOUNT_KINDS, Action, ActionKind, LegalAction
from italian_poker.engine.cards import Card
from italian_poker.engine.deal import Phase
from italian_poker.engine.hand_rank import Category, evaluate
from italian_poker.engine.observer import SeatView
from italian_poker.engine.opening import opening_combination
from italian_poker.engine.policy import makeup_due


def choose_amount(legal: LegalAction, chance: Chance, *, big: float = 0.2) -> int:
    """An amount for an open, bet or raise: usually the least allowed, sometimes any."""
    low, high = legal.min_amount, legal.max_amount
    assert low is not None and high is not None
    if high > low and chance.happens(big):
        return chance.integer(low, high)
    return low


def draw_keep(hand: Sequence[Card], players: int) -> tuple[Card, ...]:
    """The cards a plain draw keeps: a made straight, flush or better whole; otherwise the
    pairs, trips or quads; otherwise four to a flush; otherwise the highest card (Art. 4)."""
    rank = evaluate(hand, players=players)
    if rank.category in (
        Category.STRAIGHT,
        Category.FLUSH,
        Category.FULL_HOUSE,
        Category.STRAIGHT_FLUSH,
    ):
        return tuple(hand)
    counts = Counter(c.rank for c in hand)
    grouped = tuple(c for c in hand if counts[c.rank] >= 2)
    if grouped:
        return grouped
    suits = Counter(c.suit for c in hand)
    suit, count = suits.most_common(1)[0]
    if count >= 4:
        return tuple(c for c in hand if c.suit is suit)
    return (max(hand, key=lambda c: (c.rank, c.suit)),)


def _find(view: SeatView, kind: ActionKind) -> LegalAction | None:
    return next((la for la in view.legal_actions if la.kind is kind), None)


def _with_amount(legal: LegalAction, chance: Chance) -> Action:
    if legal.kind in AMOUNT_KINDS:
        return Action(legal.kind, choose_amount(legal, chance, big=0.5))
    return Action(legal.kind)


@dataclass(slots=True)
class RandomPolicy:
    """Uniform among the legal actions; draws a random number of random cards."""

    rng: random.Random

    def act(self, view: SeatView) -> Action:
        """A uniformly random legal action (see the module docstring for make-ups)."""
        return self.decide(view, Draws(self.rng))

    def decide(self, view: SeatView, chance: Chance) -> Action:
        """:meth:`act` with its random choices drawn from ``chance``."""
        due = makeup_due(view)
        if due is not None:
            return Action(ActionKind.MAKE_UP if chance.happens(0.5) else ActionKind.SIT_OUT)
        if not view.legal_actions:
            raise ValueError("this seat has nothing to do: it is not its turn")
        legal = chance.pick(view.legal_actions)
        if legal.kind is not ActionKind.DRAW:
            return _with_amount(legal, chance)
        count = chance.integer(0, legal.max_cards)
        discards = tuple(chance.sample(view.hand, count))
        return draw_action(view, discards)


def draw_action(view: SeatView, discards: tuple[Card, ...]) -> Action:
    """A draw of ``discards``, announcing the split (4.4) when the opener breaks the opening."""
    split = False
    if view.opener == view.seat:
        kept = [c for c in view.hand if c not in discards]
        if not view.requirement.kept_proves(kept):
            if not view.rules.opener_may_split:
                proof = opening_combination(view.hand, view.requirement, players=view.players)
                discards = tuple(c for c in discards if c not in proof)
            else:
                split = True
    return Action(ActionKind.DRAW, cards=discards, split=split)


@dataclass(slots=True)
class SimplePolicy:
    """A loose, plausible player: blinds rarely, opens when allowed, mostly calls or checks,
    raises sometimes, keeps pairs, trips and four-flushes, says parol sometimes and shows at
    the showdown (mucking a beaten hand sometimes, where 002 allows it).

    Each rate is the chance of the action when it is legal; the rest follows the rules.
    """

    rng: random.Random
    blind_rate: float = 0.08
    open_rate: float = 0.9
    raise_rate: float = 0.1
    fold_rate: float = 0.12
    bet_rate: float = 0.25
    parol_rate: float = 0.15
    split_rate: float = 0.05
    muck_rate: float = 0.5
    makeup_rate: float = 0.7

    def act(self, view: SeatView) -> Action:
        """The action for ``view`` (see the module docstring for make-ups)."""
        return self.decide(view, Draws(self.rng))

    def decide(self, view: SeatView, chance: Chance) -> Action:
        """:meth:`act` with its random choices drawn from ``chance``."""
        due = makeup_due(view)
        if due is not None:
            kind = ActionKind.MAKE_UP if chance.happens(self.makeup_rate) else ActionKind.SIT_OUT
            return Action(kind)
        legal = {la.kind: la for la in view.legal_actions}
        if not legal:
            raise ValueError("this seat has nothing to do: it is not its turn")
        phase = view.phase
        if phase is Phase.BLINDS:
            for kind in (ActionKind.BLIND, ActionKind.CONTROBUIO, ActionKind.OVER):
                if kind in legal and chance.happens(self.blind_rate):
                    return Action(kind)
            return Action(ActionKind.DECLINE)
        if phase is Phase.OPENING:
            opening = legal.get(ActionKind.OPEN)
            if opening is not None and chance.happens(self.open_rate):
                return Action(ActionKind.OPEN, choose_amount(opening, chance))
            return Action(ActionKind.PASS)
        if phase is Phase.DRAW:
            return self._draw(view, chance)
        if phase is Phase.SHOWDOWN:
            if ActionKind.MUCK in legal and chance.happens(self.muck_rate):
                return Action(ActionKind.MUCK)
            return Action(ActionKind.SHOW)
        return self._bet(legal, chance)

    def _bet(self, legal: dict[ActionKind, LegalAction], chance: Chance) -> Action:
        raising = legal.get(ActionKind.RAISE)
        if raising is not None and chance.happens(self.raise_rate):
            return Action(ActionKind.RAISE, choose_amount(raising, chance))
        if ActionKind.CALL in legal:
            if chance.happens(self.fold_rate):
                return Action(ActionKind.FOLD)
            return Action(ActionKind.CALL)
        if ActionKind.PAROL in legal and chance.happens(self.parol_rate):
            return Action(ActionKind.PAROL)  # 5.2(c)
        betting = legal.get(ActionKind.BET)
        if betting is not None and chance.happens(self.bet_rate):
            return Action(ActionKind.BET, choose_amount(betting, chance))
        return Action(ActionKind.CHECK)

    def _draw(self, view: SeatView, chance: Chance) -> Action:
        hand = view.hand
        keep = draw_keep(hand, view.players)
        if view.opener == view.seat and keep and chance.happens(self.split_rate):
            # Sometimes the opener breaks the opening to chase something else (4.4): each
            # kept card is dropped with chance 1/len(keep), on its own (2^n random paths for
            # action_distribution, where a pick of one of n per card made n^n).
            drop = 1.0 / len(keep)
            keep = tuple(c for c in keep if not chance.happens(drop))
        discards = tuple(c for c in hand if c not in keep)
        if len(discards) > 4:
            discards = discards[:4]
        return draw_action(view, discards)


__all__ = [
    "RandomPolicy",
    "SimplePolicy",
    "choose_amount",
    "draw_action",
    "draw_keep",
]
