"""One player's hand history: the deal as that seat may know it, for reading only.

Who sees what is the observer's (:mod:`italian_poker.engine.observer`): a seat sees its own
cards, the others' only when shown at the showdown, and the others' discards only when they lie
face up (003); every hidden card is written ``??``. A redacted history does not replay. It
keeps a fair deck's commitment and values, never its seed (which gives every card).
"""

from __future__ import annotations

from typing import Any

from italian_poker.engine.actions import Action, ActionKind
from italian_poker.engine.history.fairness import fair_lines
from italian_poker.engine.history.file_format import (
    result_and_rules_lines,
    seat_text,
    table_lines,
    toml_string,
)
from italian_poker.engine.history.model import FORMAT_VERSION, VARIANT, HandHistory, HistoryAction
from italian_poker.engine.history.notation import UNKNOWN_CARD, action_notation, cards_text
from italian_poker.engine.observer import sees_discards, sees_hand


def _visible_action(history: HandHistory, viewer: int, entry: HistoryAction) -> HistoryAction:
    """``entry`` as ``viewer`` saw it: another seat's discards are hidden (unless face up,
    003) and replaced by as many unknown cards."""
    action = entry.action
    if action.kind is ActionKind.DRAW and not sees_discards(viewer, entry.seat, history.rules):
        return HistoryAction(entry.seat, Action(ActionKind.DRAW, split=action.split), ())
    return entry


def redacted_record(history: HandHistory, viewer: int) -> dict[str, Any]:
    """The deal as seat ``viewer`` may know it, as JSON-ready values: its own cards, the
    others' only when shown at the showdown; other draws show only how many cards changed
    (their discards when they lie face up, 003)."""
    rules = history.rules
    actions = []
    for entry in history.actions:
        action = entry.action
        item: dict[str, Any] = {
            "seat": entry.seat,
            "kind": action.kind.value,
            "amount": action.amount,
        }
        if action.kind is ActionKind.DRAW:
            item["count"] = len(action.cards)
            item["split"] = action.split
            if sees_discards(viewer, entry.seat, rules):
                item["cards"] = [str(c) for c in action.cards]
        if action.kind is ActionKind.SHOW:
            item["cards"] = [str(c) for c in entry.shown]
        actions.append(item)
    dealt = [
        {
            "after": d.after,
            "seat": d.seat,
            "count": len(d.cards),
            "cards": [str(c) for c in d.cards] if sees_hand(viewer, d.seat) else None,
            "late": d.late,
        }
        for d in history.dealt
    ]
    result = history.result
    return {
        "hand": history.number,
        "you": viewer,
        "names": list(history.names),
        "dealer": history.dealer,
        "stacks": list(history.stacks),
        "carried": history.carried,
        "min_pair": history.min_pair.label,
        "rules": history.rules.to_dict(),
        "dealt": dealt,
        "actions": actions,
        "result": None
        if result is None
        else {
            "outcome": result.outcome.value,
            "stacks": list(result.stacks),
            "winnings": list(result.winnings),
            "carried": result.carried,
            "awards": [
                {
                    "amount": a.amount,
                    "winners": list(a.winners),
                    "shares": list(a.shares),
                    "reason": a.reason,
                }
                for a in result.awards
            ],
        },
    }


def _redacted_action_line(history: HandHistory, viewer: int, entry: HistoryAction) -> str:
    visible = _visible_action(history, viewer, entry)
    text = action_notation(visible)
    if visible is not entry:
        hidden = UNKNOWN_CARD * len(entry.action.cards)
        head = f"p{entry.seat + 1} sd"
        text = head + (f" {hidden}" if hidden else "") + text[len(head) :]
    return text


def dumps_redacted(history: HandHistory, viewer: int) -> str:
    """The history in the hand-history text format as seat ``viewer`` may see it: cards
    dealt to the others and their hidden discards are written ``??`` (PHH's unknown card).
    For reading only: it does not replay."""
    lines = [
        "# Italian Poker hand history (docs/hand-history.md), as one player saw it:",
        "# the others' hidden cards are written ??; it does not replay.",
        f"variant = {toml_string(VARIANT)}",
        f"_format = {FORMAT_VERSION}",
        "_redacted = true",
        f"_viewer = {toml_string(seat_text(viewer))}",
    ]
    lines += [
        *table_lines(history),
        "actions = [",
    ]
    dealt = list(history.dealt)
    for i in range(len(history.actions) + 1):
        while dealt and dealt[0].after == i:
            d = dealt.pop(0)
            cards = (
                cards_text(d.cards) if sees_hand(viewer, d.seat) else UNKNOWN_CARD * len(d.cards)
            )
            late = " # late fourth card (4.2)" if d.late else ""
            lines.append(f"  {toml_string(f'd dh p{d.seat + 1} {cards}{late}')},")
        if i < len(history.actions):
            entry = history.actions[i]
            lines.append(f"  {toml_string(_redacted_action_line(history, viewer, entry))},")
    lines.append("]")
    lines += result_and_rules_lines(history)
    if history.fair is not None:  # the commitment and the values; never the seed (every card)
        lines += fair_lines(history.fair.without_seed())
    return "\n".join(lines) + "\n"
