"""The bot interface: a :class:`Policy` turns a seat's view into an action.

Every bot and front end acts through this protocol and sees only what its seat may know (the
:class:`SeatView`): its own hand, the public actions and the legal actions offered. The bots
themselves live in layer 4, :mod:`italian_poker.analysis.bots`.

A match also asks a first-round folder after a parol for the 5.5 make-up decision: the view
is then of the abandoned deal, whose legal actions are ``MAKE_UP`` (for the amount to pay)
and ``SIT_OUT``; :func:`makeup_due` reads the amount.
"""

from __future__ import annotations

from typing import Protocol

from italian_poker.engine.actions import Action, ActionKind
from italian_poker.engine.deal import Outcome
from italian_poker.engine.observer import SeatView


class Policy(Protocol):
    """Anything that turns a seat's view into an action."""

    def act(self, view: SeatView) -> Action:
        """The action to take; ``view`` is the acting seat's view."""
        ...


def makeup_due(view: SeatView) -> int | None:
    """5.5: the make-up this seat is asked for after a parol, or None if none is due."""
    for legal in view.legal_actions:
        if legal.kind is ActionKind.MAKE_UP:
            return legal.min_amount
    result = view.result
    if view.legal_actions or result is None or result.outcome is not Outcome.PAROL:
        return None
    if not result.makeups:
        return None
    return result.makeups[view.seat]


__all__ = ["Policy", "makeup_due"]
