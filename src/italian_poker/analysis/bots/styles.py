"""Rival styles: which known way of playing explains a rival's actions, learnt over a match.

A rival may play like the strong bot (bets that follow the cards) or like the simple one (bets
that do not: it raises, folds and bets at fixed rates whatever it holds). Read as strong, a
simple rival's random raise looks like strength and drives the expert out of pots it wins; read
as simple, a strong rival's raise says nothing. Each :class:`Style` is a
:class:`~italian_poker.analysis.bots.chance.KnownPolicy`, so the chance that it takes an action
with given cards is exact (:func:`~italian_poker.analysis.bots.chance.action_distribution`).

:func:`action_chances` gives, for one sampled world (a full deal consistent with a view), the
chance each style gives every rival's actions seen so far. Averaged over the worlds, it is the
likelihood of the rival's actions under each style; :class:`StyleBook` adds up the logarithms
over the match's deals, by player id, and turns them into beliefs (Bayes' rule from equal
priors). The expert weighs each world by the rivals' mixture and plays each rival in its
playouts with a style drawn from the posterior for that world.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from italian_poker.analysis.bots.chance import KnownPolicy, action_distribution
from italian_poker.analysis.bots.simple import SimplePolicy
from italian_poker.analysis.bots.strong import StrongPolicy
from italian_poker.engine.actions import Action, ActionKind
from italian_poker.engine.card_source import SECURE, StackedSource
from italian_poker.engine.cards import Card
from italian_poker.engine.deal import Deal, DealStart, Phase
from italian_poker.engine.observer import PublicAction, SeatView, seat_view
from italian_poker.engine.policy import Policy

READ_FLOOR = 0.05
"""The least chance a style gives one action (nobody plays exactly like a bot: an action the
style would not take leaves the world possible)."""

MAX_DEAL_EVIDENCE = 4.0
"""The most one deal moves a rival's log-odds between two styles (the likelihoods are
estimated from a few dozen worlds: one deal must not decide the match)."""

_READ_PHASES = (Phase.OPENING, Phase.FIRST_ROUND, Phase.SECOND_ROUND, Phase.DRAW)


@dataclass(frozen=True, slots=True)
class Style:
    """A way of playing: ``reader`` gives its exact odds, ``player`` makes a bot that plays it."""

    name: str
    reader: KnownPolicy
    player: Callable[[random.Random], Policy]


STYLES: tuple[Style, ...] = (
    Style("strong", StrongPolicy(random.Random(0), shared_tables=True), StrongPolicy),
    Style("simple", SimplePolicy(random.Random(0)), SimplePolicy),
)
"""The styles a rival is read as, the strong one first (the readers' generators are unused)."""

STRONG_ONLY: tuple[float, ...] = tuple(1.0 if i == 0 else 0.0 for i in range(len(STYLES)))
"""Beliefs that every rival plays the strong style."""


def action_chances(
    start: DealStart, actions: Sequence[Action], view: SeatView, deck: Sequence[Card]
) -> dict[int, tuple[float, ...]]:
    """Per rival still in the hand (by seat), the chance each style (:data:`STYLES`) gives
    the rival's actions in the deal ``start`` dealt from ``deck`` (stacked) followed by
    ``actions`` (a world of ``view``):
    the product over their decisions of the style's exact odds of the action seen (a bet's
    amount counted as near as it is, :func:`resemblance`), each at least :data:`READ_FLOOR`.
    A rival who has folded is left out (their cards matter no more)."""
    deal = Deal(start, StackedSource(deck, then=SECURE))
    chances = {
        s: [1.0] * len(STYLES) for s in range(view.players) if s != view.seat and not view.folded[s]
    }
    for action in actions:
        seat = deal.actor
        if seat in chances and deal.phase in _READ_PHASES:
            seen = seat_view(deal, seat)
            row = chances[seat]
            for i, style in enumerate(STYLES):
                odds = action_distribution(style.reader, seen)
                chance = sum(p * resemblance(a, action, seen.pot) for a, p in odds)
                row[i] *= max(chance, READ_FLOOR)
        deal.apply(action)
    return {seat: tuple(row) for seat, row in chances.items()}


def resemblance(decided: Action, taken: Action, pot: int) -> float:
    """How far ``decided`` (by a style) is the action ``taken``: 0 for another kind or draw
    count, 1 for the same; a bet's amount counts for less the further it lies, by
    ``exp(-gap / scale)`` with the scale a seventh of the pot (at least two chips)."""
    if decided.kind is not taken.kind:
        return 0.0
    if taken.kind is ActionKind.DRAW:
        return 1.0 if len(decided.cards) == len(taken.cards) else 0.0
    if decided.amount is None or taken.amount is None:
        return 1.0
    return math.exp(-abs(decided.amount - taken.amount) / max(2.0, pot / 7))


def mixed(chances: Sequence[float], beliefs: Sequence[float]) -> float:
    """The chance of a rival's actions when their style is ``beliefs``' mixture."""
    return sum(b * c for b, c in zip(beliefs, chances, strict=True))


def drawn_style(chances: Sequence[float], beliefs: Sequence[float], rng: random.Random) -> int:
    """A style for a rival in one world, drawn from the posterior: each style's belief times
    the chance it gives the rival's actions in that world."""
    weights = [b * c for b, c in zip(beliefs, chances, strict=True)]
    if sum(weights) <= 0:
        return 0
    return rng.choices(range(len(STYLES)), weights)[0]


@dataclass(slots=True)
class StyleBook:
    """What a seat has learnt of each rival's style over a match, by player id.

    :meth:`observe` takes the likelihoods of a deal's actions seen so far (each later call in
    the same deal replaces them, as it has seen more); when a new deal begins they count for
    good. :meth:`beliefs` is the posterior over :data:`STYLES` from equal priors."""

    evidence: dict[int, list[float]] = field(default_factory=dict)
    """Per player id, the summed log-likelihood of each style over the finished deals."""
    _deal: tuple[int, tuple[int, ...], tuple[PublicAction, ...]] | None = None
    _pending: dict[int, tuple[float, ...]] = field(default_factory=dict)

    def beliefs(self, player_id: int) -> tuple[float, ...]:
        """The chance of each style for this rival from the finished deals (this deal's
        actions are read in each world with :func:`mixed`: counting them here too would
        count them twice)."""
        logs = self.evidence.get(player_id, [0.0] * len(STYLES))
        top = max(logs)
        weights = [math.exp(x - top) for x in logs]
        total = sum(weights)
        return tuple(w / total for w in weights)

    def observe(self, view: SeatView, likelihoods: Mapping[int, Sequence[float]]) -> None:
        """Record, by seat, the likelihood of each rival's actions in ``view``'s deal under
        each style (averaged over worlds); a view of a new deal first banks the last one's."""
        self._start(view)
        for seat, row in likelihoods.items():
            if min(row) <= 0:
                continue
            base = math.log(row[0])
            bound = MAX_DEAL_EVIDENCE
            self._pending[view.player_ids[seat]] = tuple(
                max(-bound, min(bound, math.log(x) - base)) for x in row
            )

    def _start(self, view: SeatView) -> None:
        """Bank the pending evidence if ``view`` is of another deal than the last one seen."""
        key = (view.dealer, view.player_ids, view.actions)
        last = self._deal
        same = (
            last is not None
            and last[0] == key[0]
            and last[1] == key[1]
            and key[2][: len(last[2])] == last[2]
        )
        if not same:
            for player_id, logs in self._pending.items():
                total = self.evidence.setdefault(player_id, [0.0] * len(STYLES))
                for i, x in enumerate(logs):
                    total[i] += x
            self._pending = {}
        self._deal = key


__all__ = [
    "MAX_DEAL_EVIDENCE",
    "READ_FLOOR",
    "STRONG_ONLY",
    "STYLES",
    "Style",
    "StyleBook",
    "action_chances",
    "drawn_style",
    "mixed",
    "resemblance",
]
