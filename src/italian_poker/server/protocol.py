"""The WebSocket messages: the per-seat ``state`` built from a :class:`SeatView`, and the
checks on what a client sends.

A seat's own cards come only from its own view; other seats' cards only from ``shown`` (the
showdown). The Deal itself is never read here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from italian_poker.engine.actions import ActionKind, LegalAction
from italian_poker.engine.cards import Card
from italian_poker.engine.hand_rank import evaluate
from italian_poker.engine.match import MatchPhase
from italian_poker.engine.view import SeatView
from italian_poker.play.i18n import ACTION_KEYS, Language, action_label, suit_name
from italian_poker.server.table_state import Line, TableState, TableStatus

MESSAGE_TYPES = frozenset({"hello", "action", "sit_out", "sit_in", "ping"})


class BadMessage(ValueError):
    """A client message that is not valid JSON of a known shape."""


@dataclass(frozen=True, slots=True)
class Clock:
    """The turn timer of the seat to act, as sent to clients."""

    deadline: float | None
    time_bank: float | None


_RANK_NAMES = (
    "Two", "Three", "Four", "Five", "Six", "Seven", "Eight",
    "Nine", "Ten", "Jack", "Queen", "King", "Ace",
)


def card_label(card: Card, lang: Language) -> str:
    """``Ace of hearts`` / ``Asso di cuori``."""
    if lang is Language.IT:
        return f"{card.rank.italian} di {suit_name(card.suit, lang)}"
    return f"{_RANK_NAMES[card.rank - 2]} of {suit_name(card.suit, lang)}"


def cards_label(cards: tuple[Card, ...]) -> dict[str, str]:
    """Text labels of ``cards`` in both languages."""
    return {
        lang.value: ", ".join(card_label(c, lang) for c in cards)
        for lang in (Language.EN, Language.IT)
    }


def _legal(options: tuple[LegalAction, ...]) -> list[dict[str, Any]]:
    return [
        {
            "kind": option.kind.value,
            "min": option.min_amount,
            "max": option.max_amount,
            "max_cards": option.max_cards,
            "label": {
                "en": action_label(option.kind, Language.EN),
                "it": action_label(option.kind, Language.IT),
            },
            "key": ACTION_KEYS.get(option.kind),
        }
        for option in options
    ]


def _seat_status(state: TableState, slot: int, public: SeatView | None) -> str:
    seat = state.slots[slot]
    if seat is None:
        return "empty"
    index = state.deal_index(slot)
    match = state.match
    live = match is not None and match.phase is MatchPhase.IN_DEAL
    if live and public is not None and index is not None:
        return "folded" if public.folded[index] else "active"
    if seat.sitting_out:
        return "sitting_out"
    if live or (seat.chips_due is None and match is not None and state.stack(slot) == 0):
        return "out"
    return "active"


def state_payload(
    state: TableState,
    slot: int | None,
    *,
    invite: str,
    host: bool,
    connected: set[int],
    clock: Clock,
) -> dict[str, Any]:
    """The ``state`` object for the player in ``slot``: only what that seat may know."""
    own = state.view(slot) if slot is not None else None
    public = state.public_view()
    match = state.match
    live = match is not None and match.phase is MatchPhase.IN_DEAL
    seats = []
    for i, seat in enumerate(state.slots):
        index = state.deal_index(i)
        entry: dict[str, Any] = {
            "seat": i,
            "name": seat.nickname if seat else None,
            "bot": seat.bot if seat else None,
            "stack": state.stack(i),
            "bet": 0,
            "status": _seat_status(state, i, public),
            "connected": seat is not None and (seat.bot is not None or i in connected),
            "last_action": seat.last_action.as_json() if seat and seat.last_action else None,
            "changed": seat.changed if seat else None,
            "cards": None,
            "cards_label": None,
        }
        if public is not None and index is not None:
            if live:
                entry["bet"] = public.round_bets[index]
            shown = public.shown.get(index)
            if shown:
                entry["cards"] = [str(c) for c in shown]
                entry["cards_label"] = cards_label(shown)
        if own is not None and i == slot and own.hand and (live or index is not None):
            entry["cards"] = [str(c) for c in own.hand]
            entry["cards_label"] = cards_label(own.hand)
        seats.append(entry)
    hand: dict[str, Any] | None = None
    if own is not None and own.hand:
        hand = {"cards": [str(c) for c in own.hand], "category": None}
        if len(own.hand) == 5:
            rank = evaluate(own.hand, players=own.players, tiebreak=own.rules.tiebreak)
            hand["category"] = {"en": rank.describe("en"), "it": rank.describe("it")}
    actor = state.actor_slot()
    legal: list[dict[str, Any]] = []
    if slot is not None and actor == slot and state.status is TableStatus.PLAYING:
        if own is not None and live:
            legal = _legal(own.legal_actions)
        elif match is not None and match.phase is MatchPhase.MAKE_UP:
            legal = _legal(state.legal_actions())
    requirement = state.requirement()
    dealer = None
    if public is not None and state.deal_slots:
        dealer = state.deal_slots[public.dealer]
    outcome = state.outcome
    return {
        "table": {
            "name": state.name,
            "invite": invite,
            "status": state.status.value,
            "preset": state.options.get("preset"),
            "options": state.options,
            "turn_seconds": state.options.get("turn_seconds"),
            "lang": state.options.get("lang", "it"),
        },
        "you": slot,
        "host": host,
        "dealer": dealer,
        "to_act": actor,
        "deadline": clock.deadline,
        "time_bank": clock.time_bank,
        "phase": (public.phase.value if live and public is not None else _between(state)),
        "pot": public.pot if live and public is not None else (match.carried if match else 0),
        "requirement": {"en": requirement.describe("en"), "it": requirement.describe("it")},
        "seats": seats,
        "hand": hand if live or (own is not None and outcome is not None) else None,
        "legal": legal,
        "log": [{"seq": e.seq, **e.line.as_json()} for e in state.log],
        "result": None
        if outcome is None or live
        else {
            "hand": outcome.hand,
            "lines": [line.as_json() for line in outcome.lines],
            "awards": list(outcome.awards),
        },
    }


def _between(state: TableState) -> str:
    match = state.match
    if state.status is TableStatus.LOBBY or match is None:
        return "lobby"
    if match.phase is MatchPhase.MAKE_UP:
        return "make-up"
    if match.phase is MatchPhase.OVER:
        return "over"
    return "between-deals"


def event_message(seq: int, line: Line) -> dict[str, Any]:
    """A public event for the live region."""
    return {"type": "event", "seq": seq, "en": line.en, "it": line.it}


def error_message(code: str, message: str) -> dict[str, Any]:
    """A refusal; the client keeps its view."""
    return {"type": "error", "code": code, "message": message}


def parse_message(text: str) -> dict[str, Any]:
    """A client message: a JSON object with a known ``type``; raises :class:`BadMessage`."""
    try:
        data = json.loads(text)
    except ValueError:
        raise BadMessage("a message must be a JSON object") from None
    if not isinstance(data, dict):
        raise BadMessage("a message must be a JSON object")
    kind = data.get("type")
    if kind not in MESSAGE_TYPES:
        raise BadMessage(f"unknown message type {kind!r}; use one of {sorted(MESSAGE_TYPES)}")
    if kind == "action":
        for key in ("hand", "seq"):
            value = data.get(key)
            if isinstance(value, bool) or not isinstance(value, int):
                raise BadMessage(f"an action needs {key!r} as a whole number")
        if not isinstance(data.get("action"), dict):
            raise BadMessage("an action needs an 'action' object")
        kind_text = data["action"].get("kind")
        if kind_text not in {k.value for k in ActionKind}:
            raise BadMessage(f"unknown action kind {kind_text!r}")
    return data
