"""Bots: policies that play a seat from its :class:`~italian_poker.engine.observer.SeatView` alone.

Four levels, by :class:`BotLevel`: ``random`` (:class:`RandomPolicy`, any legal action),
``simple`` (:class:`SimplePolicy`, a loose plausible player), ``strong``
(:class:`StrongPolicy`, exact draw odds, hand strength and pot odds) and ``expert``
(:class:`ExpertPolicy`, playouts of sampled deals guided by the strong policy).
:func:`make_bot` builds one.
"""

from __future__ import annotations

import random
from enum import StrEnum

from italian_poker.analysis.bots.expert import ExpertPolicy
from italian_poker.analysis.bots.simple import (
    RandomPolicy,
    SimplePolicy,
    choose_amount,
    draw_action,
    draw_keep,
)
from italian_poker.analysis.bots.strong import StrongPolicy
from italian_poker.engine.policy import Policy, makeup_due

LIVE_DECISION_SECONDS = 0.4
"""The expert's time limit a decision in live play (a bot made without a seed), counted from
the decision's start: its search begins no world that would likely end after it
(:attr:`ExpertPolicy.time_limit`). A seeded expert (tests, replays, benchmarks) has none and is
deterministic."""


class BotLevel(StrEnum):
    """How well a bot plays."""

    RANDOM = "random"
    """Any legal action, uniformly."""
    SIMPLE = "simple"
    """A loose, plausible player (:class:`SimplePolicy`)."""
    STRONG = "strong"
    """Exact draw odds, hand strength and pot odds (:class:`StrongPolicy`)."""
    EXPERT = "expert"
    """Search: playouts of deals sampled from the view, by the strong policy
    (:class:`ExpertPolicy`); up to about half a second a decision."""


class UnknownBotLevelError(ValueError):
    """A bot level that is not one of :class:`BotLevel`'s."""


def bot_level(level: BotLevel | str) -> BotLevel:
    """``level`` as a :class:`BotLevel`; raises :class:`UnknownBotLevelError` naming the
    valid levels if it is none of them."""
    try:
        return BotLevel(level.strip().lower() if isinstance(level, str) else level)
    except ValueError:
        choices = ", ".join(m.value for m in BotLevel)
        raise UnknownBotLevelError(
            f"unknown bot level {level!r}; choose one of {choices}"
        ) from None


def make_bot(level: BotLevel | str, *, seed: int | None = None) -> Policy:
    """A bot of ``level``: deterministic for a given ``seed``, else with a fresh
    :class:`random.Random` (and an expert then limited to :data:`LIVE_DECISION_SECONDS` a
    decision)."""
    chosen = bot_level(level)
    rng = random.Random(seed) if seed is not None else random.Random()
    if chosen is BotLevel.RANDOM:
        return RandomPolicy(rng)
    if chosen is BotLevel.SIMPLE:
        return SimplePolicy(rng)
    if chosen is BotLevel.EXPERT:
        return ExpertPolicy(rng, time_limit=LIVE_DECISION_SECONDS if seed is None else None)
    return StrongPolicy(rng)


__all__ = [
    "LIVE_DECISION_SECONDS",
    "BotLevel",
    "ExpertPolicy",
    "Policy",
    "RandomPolicy",
    "SimplePolicy",
    "StrongPolicy",
    "UnknownBotLevelError",
    "bot_level",
    "choose_amount",
    "draw_action",
    "draw_keep",
    "make_bot",
    "makeup_due",
]
