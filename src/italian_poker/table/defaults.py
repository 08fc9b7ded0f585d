"""The action a table plays for a player: when their time runs out, or when their policy
chooses an action the rules do not allow now."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from italian_poker.engine.actions import Action, ActionKind, LegalAction

_DEFAULT_ORDER = (
    ActionKind.CHECK,
    ActionKind.PASS,
    ActionKind.DECLINE,
    ActionKind.DRAW,
    ActionKind.SHOW,
    ActionKind.SIT_OUT,
    ActionKind.FOLD,
)


def default_action(legal: Sequence[LegalAction]) -> Action:
    """The action played for a player who does not act in time, or whose policy chose an
    illegal action: the first allowed of check, pass, decline a blind, stand pat at the draw,
    show at the showdown (cards speak), sit out a make-up (5.5), fold. It never puts a chip in
    the pot when that can be helped, and never gives up a hand that costs nothing to keep."""
    kinds = {la.kind for la in legal}
    for kind in _DEFAULT_ORDER:
        if kind in kinds:
            return Action(kind)
    if not legal:
        raise ValueError("no legal action to fall back on")
    first = legal[0]
    return Action(first.kind, first.min_amount)


def forced_action(legal: Sequence[LegalAction]) -> Action | None:
    """The action a table plays at once for a player the rules leave no choice: a show at the
    showdown (5.4) when the hand may not be mucked (002); None when the player has a choice.
    Only a show: whether it is forced follows from the hands already shown, so playing it at
    once tells nobody anything, where a pass played at once would tell everyone that the
    player could not open (3.3)."""
    if len(legal) == 1 and legal[0].kind is ActionKind.SHOW:
        return Action(ActionKind.SHOW)
    return None


class DefaultReason(StrEnum):
    """Why the table played :func:`default_action` for a player."""

    TIMEOUT = "timeout"
    """The player's time ran out."""
    ILLEGAL = "illegal"
    """The player's policy chose an action the rules do not allow now."""


__all__ = ["DefaultReason", "default_action", "forced_action"]
