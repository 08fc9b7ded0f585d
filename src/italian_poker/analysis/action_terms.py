"""AIVAT's action terms: the luck of the bots' own random choices, taken out of a deal's chips.

A bot of a known level (:class:`~italian_poker.analysis.bots.chance.KnownPolicy`: random,
simple, strong) says the exact probability of each action it may take at a view
(:func:`~italian_poker.analysis.bots.chance.action_distribution`). At each of its decisions
in a finished deal, with ``h`` the deal so far and ``X`` the deck's order, the term is

    v(h.a) - sum over a' of pi(a' | view) v(h.a')

where ``a`` is the action taken and ``v(h.a)`` the challenger's chips (per seat it holds) when
the rest of the deal is played out from ``h.a`` with the same deck, every seat by a fresh bot
of its level (the strong policy for a level without known odds), from one playout seed for
all the actions compared (common random numbers). The bot chose ``a`` from its view and its
own random numbers alone, independently of ``X`` and of the playout seed, so the term has
expectation 0 given ``h`` and ``X``, whatever ``v`` is: subtracting any fixed multiple of it
leaves an estimate unbiased, and a good ``v`` removes the chips the bot's dice won or lost.

A second value, with no noise of its own, makes a second term from the same decisions:
``c(h.a)``, the challenger's chips when the deal goes on from ``h.a`` with the same deck and
every seat playing it down (:func:`check_down`: check or call, open at the least where it may,
the plain draw, show), so that who holds the best cards decides the pot as it then stands. It
misses what later bets add, the playout misses nothing but is one roll of the bots' dice; the
evaluation fits both.

The sum over ``a'`` is exact for the :data:`EXACT_ACTIONS` likeliest actions; the rest (the
odd bet sizes a bot draws uniformly) is stood for by one of them drawn by its probability,
times their total probability: an unbiased estimate of their part. A decision with a single
possible action has no term. The cards taken before the decision are replayed as recorded
(a :class:`~italian_poker.engine.card_source.RecordedSource`); after it the playouts are served
the cards the deal took next, in that order, and what those do not cover (a reshuffle's, 4.3)
from the playout seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

from italian_poker.analysis.bots import BotLevel, make_bot
from italian_poker.analysis.bots.chance import KnownPolicy, action_distribution
from italian_poker.analysis.bots.simple import draw_action, draw_keep
from italian_poker.engine.actions import Action, ActionKind
from italian_poker.engine.card_source import RecordedSource, SeededSource, StackedSource
from italian_poker.engine.cards import Card
from italian_poker.engine.deal import ActionRecord, Deal, Phase
from italian_poker.engine.match import CompletedDeal
from italian_poker.engine.observer import SeatView, observe
from italian_poker.engine.operations import CardsDrawn, FourthCardDealt, HandsDealt
from italian_poker.engine.policy import Policy

EXACT_ACTIONS = 4
"""Actions whose playout enters the expectation exactly; the rest by one sampled action."""


class PolicyMismatchError(ValueError):
    """A recorded action the seat's known policy could not have taken."""


@cache
def _template(level: BotLevel) -> KnownPolicy | None:
    """A bot of ``level`` whose odds are known (its own random numbers are not used)."""
    policy = make_bot(level, seed=0)
    return policy if isinstance(policy, KnownPolicy) else None


def _playout_bot(level: BotLevel, seed: int) -> Policy:
    """The bot that plays ``level``'s seat in a playout: the strong one without known odds."""
    known = _template(level) is not None
    return make_bot(level if known else BotLevel.STRONG, seed=seed)


def same_action(decided: Action, recorded: Action) -> bool:
    """Whether ``recorded`` (amounts filled in by the engine) is the action ``decided``."""
    return (
        decided.kind is recorded.kind
        and (decided.amount is None or decided.amount == recorded.amount)
        and set(decided.cards) == set(recorded.cards)
        and decided.split == recorded.split
    )


def check_down(view: SeatView) -> Action:
    """Playing the deal down: decline a blind, check, call, open at the least where the hand
    may (pass where it may not), the plain draw (:func:`~.bots.simple.draw_keep`), show."""
    legal = {la.kind: la for la in view.legal_actions}
    if view.phase is Phase.DRAW:
        keep = draw_keep(view.hand, view.players)
        legal_draw = legal[ActionKind.DRAW]
        discards = tuple(c for c in view.hand if c not in keep)[: legal_draw.max_cards]
        return draw_action(view, discards)
    for kind in (ActionKind.DECLINE, ActionKind.SHOW, ActionKind.CHECK, ActionKind.CALL):
        if kind in legal:
            return Action(kind)
    opening = legal.get(ActionKind.OPEN)
    if opening is not None:
        return Action(ActionKind.OPEN, opening.min_amount)
    for kind in (ActionKind.PASS, ActionKind.FOLD):
        if kind in legal:
            return Action(kind)
    first = view.legal_actions[0]
    return Action(first.kind, first.min_amount)


def _value(
    record: CompletedDeal,
    prefix: Sequence[ActionRecord],
    action: Action,
    challenger: Sequence[bool],
    seed: int,
    bots: Sequence[Policy] | None,
) -> float:
    """The challenger's chips per seat when the deal, replayed to ``prefix``, goes on with
    ``action`` and then ``bots`` (fresh, from playout seed ``seed``), or :func:`check_down`
    at every seat when ``bots`` is None."""
    deal = Deal(record.start, playout_source(record, len(prefix), seed))
    for done in prefix:
        deal.apply(done.action, done.seat)
    deal.apply(action)
    while (actor := deal.actor) is not None:
        view = observe(deal, actor)
        deal.apply(check_down(view) if bots is None else bots[actor].act(view), actor)
    result = deal.result
    assert result is not None
    mine = [s for s, held in enumerate(challenger) if held]
    won = sum(result.stacks[s] - record.start.stacks[s] for s in mine)
    return won / len(mine)


def playout_source(record: CompletedDeal, actions: int, seed: int) -> RecordedSource:
    """The cards of a playout that goes on from the deal's first ``actions`` actions: those
    taken before them as recorded, the five-card deal (3.1) as recorded whenever it comes, then
    the cards the deal took later, in order, then the playout seed's."""
    before: list[object] = []
    later: list[Card] = []
    seen = 0
    for op in record.operations:
        if isinstance(op, ActionRecord):
            seen += 1
        elif isinstance(op, HandsDealt) or (seen < actions and isinstance(op, CardsDrawn)):
            before.append(op)
        elif isinstance(op, CardsDrawn):
            later += op.cards
        elif isinstance(op, FourthCardDealt):
            if seen < actions:
                before.append(op)
            else:
                later.append(op.card)
    return RecordedSource(before, then=StackedSource(later, then=SeededSource(seed)))


def action_terms(
    record: CompletedDeal,
    levels: Sequence[BotLevel],
    challenger: Sequence[bool],
    rng: random.Random,
) -> tuple[float, float]:
    """The sums of the deal's action terms (module docstring) in the challenger's chips per
    seat, by playouts and by playing down; ``levels`` and ``challenger`` per seat dealt in
    (``record.start.names`` order). Raises :class:`PolicyMismatchError` when a known bot's
    recorded action is not one it could take (the deal was not played by those bots)."""
    deal = Deal(record.start, RecordedSource(record.operations))
    played = checked = 0.0
    actions = record.actions
    for index, done in enumerate(actions):
        policy = _template(levels[done.seat])
        if policy is not None and deal.actor == done.seat:
            odds = action_distribution(policy, observe(deal, done.seat))
            taken = [a for a, _p in odds if same_action(a, done.action)]
            if not taken:
                raise PolicyMismatchError(
                    f"seat {done.seat + 1}'s {done.action.kind.value} is not an action a "
                    f"{levels[done.seat].value} bot takes there"
                )
            if len(odds) > 1:
                terms = _terms(record, actions[:index], taken[0], odds, levels, challenger, rng)
                played += terms[0]
                checked += terms[1]
        deal.apply(done.action, done.seat)
    return played, checked


def action_correction(
    record: CompletedDeal,
    levels: Sequence[BotLevel],
    challenger: Sequence[bool],
    rng: random.Random,
) -> float:
    """The playout terms of :func:`action_terms` alone."""
    return action_terms(record, levels, challenger, rng)[0]


def _terms(
    record: CompletedDeal,
    prefix: Sequence[ActionRecord],
    taken: Action,
    odds: Sequence[tuple[Action, float]],
    levels: Sequence[BotLevel],
    challenger: Sequence[bool],
    rng: random.Random,
) -> tuple[float, float]:
    """One decision's terms: the value of the action taken less its expectation, by playouts
    and by playing down."""
    seed = rng.getrandbits(62)
    head, tail = odds[:EXACT_ACTIONS], odds[EXACT_ACTIONS:]
    weighted = list(head)
    if tail:
        mass = sum(p for _a, p in tail)
        stand_in = rng.choices([a for a, _p in tail], weights=[p for _a, p in tail])[0]
        weighted.append((stand_in, mass))
    distinct = list(dict.fromkeys([taken, *(a for a, _p in weighted)]))
    out = []
    for playout in (True, False):
        values = {}
        for action in distinct:
            bots = (
                [_playout_bot(level, seed + i) for i, level in enumerate(levels)]
                if playout
                else None
            )
            values[action] = _value(record, prefix, action, challenger, seed, bots)
        expected = sum(p * values[a] for a, p in weighted)
        out.append(values[taken] - expected)
    return out[0], out[1]


__all__ = [
    "EXACT_ACTIONS",
    "PolicyMismatchError",
    "action_correction",
    "action_terms",
    "check_down",
    "same_action",
]
