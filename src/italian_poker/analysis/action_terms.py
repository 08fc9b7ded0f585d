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

The sum over ``a'`` is exact for the :data:`EXACT_ACTIONS` likeliest actions; the rest (the
odd bet sizes a bot draws uniformly) is stood for by one of them drawn by its probability,
times their total probability: an unbiased estimate of their part. A decision with a single
possible action has no term. Reshuffles (4.3) made before the decision are replayed as
recorded; the playouts draw any later one from the playout seed.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from functools import cache

from italian_poker.analysis.bots import BotLevel, make_bot
from italian_poker.analysis.bots.chance import KnownPolicy, action_distribution
from italian_poker.engine.actions import Action
from italian_poker.engine.deal import ActionRecord, Deal
from italian_poker.engine.match import CompletedDeal
from italian_poker.engine.observer import observe
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


def _value(
    record: CompletedDeal,
    prefix: Sequence[ActionRecord],
    action: Action,
    levels: Sequence[BotLevel],
    challenger: Sequence[bool],
    seed: int,
) -> float:
    """The challenger's chips per seat when the deal, replayed to ``prefix``, goes on with
    ``action`` and then fresh bots of each seat's level (playout seed ``seed``)."""
    start = dataclasses.replace(record.start, deck=record.deck, reshuffles=(), seed=seed)
    deal = Deal(start)
    deal.replay_reshuffles(record.reshuffles)
    for done in prefix:
        deal.apply(done.action, done.seat)
    deal.draw.replay.clear()  # reshuffles after this point come from the playout seed
    deal.apply(action)
    bots = [_playout_bot(level, seed + i) for i, level in enumerate(levels)]
    while (actor := deal.actor) is not None:
        deal.apply(bots[actor].act(observe(deal, actor)), actor)
    result = deal.result
    assert result is not None
    mine = [s for s, held in enumerate(challenger) if held]
    won = sum(result.stacks[s] - record.start.stacks[s] for s in mine)
    return won / len(mine)


def action_correction(
    record: CompletedDeal,
    levels: Sequence[BotLevel],
    challenger: Sequence[bool],
    rng: random.Random,
) -> float:
    """The sum of the deal's action terms (module docstring), in the challenger's chips per
    seat; ``levels`` and ``challenger`` per seat dealt in (``record.start.names`` order).
    Raises :class:`PolicyMismatchError` when a known bot's recorded action is not one it
    could take (the deal was not played by those bots)."""
    deal = Deal(dataclasses.replace(record.start, deck=record.deck, reshuffles=()))
    deal.replay_reshuffles(record.reshuffles)
    total = 0.0
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
                total += _term(record, actions[:index], taken[0], odds, levels, challenger, rng)
        deal.apply(done.action, done.seat)
    return total


def _term(
    record: CompletedDeal,
    prefix: Sequence[ActionRecord],
    taken: Action,
    odds: Sequence[tuple[Action, float]],
    levels: Sequence[BotLevel],
    challenger: Sequence[bool],
    rng: random.Random,
) -> float:
    """One decision's term: the playout of the action taken less the expected playout."""
    seed = rng.getrandbits(62)
    values: dict[Action, float] = {}

    def value(action: Action) -> float:
        if action not in values:
            values[action] = _value(record, prefix, action, levels, challenger, seed)
        return values[action]

    head, tail = odds[:EXACT_ACTIONS], odds[EXACT_ACTIONS:]
    expected = sum(p * value(a) for a, p in head)
    if tail:
        mass = sum(p for _a, p in tail)
        stand_in = rng.choices([a for a, _p in tail], weights=[p for _a, p in tail])[0]
        expected += mass * value(stand_in)
    return value(taken) - expected


__all__ = [
    "EXACT_ACTIONS",
    "PolicyMismatchError",
    "action_correction",
    "same_action",
]
