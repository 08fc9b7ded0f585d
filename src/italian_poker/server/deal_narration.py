"""What the table tells of its deals: the public log's line for a player's action, and the
settling of a finished deal (its report, its pots and the ledger's ``result`` rows). Pure
functions of what the table machine reported.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from italian_poker.engine.actions import Action, ActionKind
from italian_poker.engine.match import CompletedDeal
from italian_poker.engine.observer import PUBLIC, PublicView, sees_discards
from italian_poker.engine.opening import OpeningRequirement
from italian_poker.engine.rules import Rules
from italian_poker.server.ledger import RESULT, LedgerEntry
from italian_poker.table.events import Event, FinishedDeal
from italian_poker.table.narration import Line, action_line, award_lines, event_line, report_lines


@dataclass(frozen=True, slots=True)
class DealOutcome:
    """The public result of the last deal: narration and pots (winners as seat numbers)."""

    hand: int
    lines: tuple[Line, ...]
    awards: tuple[dict[str, Any], ...]


@dataclass(frozen=True, slots=True)
class Narrated:
    """An action as the table tells it: the public log's line, the short line shown at the
    player's seat and, for a draw, the number of cards changed."""

    line: Line
    last_action: Line
    changed: int | None


def narrate(
    nickname: str,
    action: Action,
    rules: Rules,
    *,
    auto: bool,
    seat: int | None,
    added: int | None = None,
) -> Narrated:
    """``nickname``'s ``action`` from deal seat ``seat``: its discards only when everyone
    sees them (the observer's rule, 003); ``added``, the chips a bet added; ``auto``, an
    action the table played for the player."""
    changed = len(action.cards) if action.kind is ActionKind.DRAW else None
    public = seat is not None and sees_discards(PUBLIC, seat, rules)
    event = Event(
        player=nickname,
        kind=action.kind,
        amount=action.amount,
        cards_changed=changed,
        discards=action.cards if public and action.kind is ActionKind.DRAW else (),
        split=action.split,
        added=added,
    )
    return Narrated(
        event_line(event, automatic=auto), action_line(action.kind, action.amount, added), changed
    )


def settle(
    completed: CompletedDeal,
    view: PublicView,
    requirement: OpeningRequirement,
    deal_slots: Sequence[int],
    deal_players: Sequence[int],
) -> tuple[DealOutcome, list[LedgerEntry]]:
    """Finished deal ``completed``, whose public view is ``view``: its outcome (the report,
    the pots with their winners as the table's seats ``deal_slots``) and each person's
    (``deal_players``) net ``result`` row."""
    finished = FinishedDeal(completed.number, view, False, requirement)
    lines = report_lines(finished)
    result = completed.result
    explained = award_lines(finished)
    awards = tuple(
        {
            "amount": award.amount,
            "winners": [deal_slots[w] for w in award.winners],
            "shares": list(award.shares),
            "reason": award.reason,
            "line": explained[i].as_json() if i < len(explained) else None,
        }
        for i, award in enumerate(result.awards)
    )
    rows = [
        LedgerEntry(
            name,
            deal_players[i],
            RESULT,
            result.stacks[i] - completed.start.stacks[i],
            completed.number,
        )
        for i, name in enumerate(completed.start.names)
    ]
    return DealOutcome(completed.number, tuple(lines), awards), rows
