"""The online table's ``state`` says what the terminal says: a call's label gives what the
player adds and what the bet becomes, a deal played on a blind needs no opening (Art. 2),
and a hand shown at the showdown comes in the hand's own order."""

from __future__ import annotations

import json
import random
from typing import Any

from italian_poker.engine.actions import Action, ActionKind
from italian_poker.engine.cards import parse_card
from italian_poker.engine.hand_rank import evaluate
from italian_poker.engine.rules import preset
from italian_poker.server.event_kinds import EventKind
from italian_poker.server.event_payloads import action_payload
from italian_poker.server.protocol import Clock, LogText, public_state, state_text
from italian_poker.server.table_state import TableState
from italian_poker.table.narration import hand_order

NAMES = ("Anna", "Bruno", "Carla")
K = ActionKind


def _state_of(state: TableState, slot: int) -> dict[str, Any]:
    part = public_state(state, invite="i", connected=set(), clock=Clock(None, None), log=LogText())
    message: dict[str, Any] = json.loads(state_text(part, slot, host=False))["state"]
    return message


def _table() -> TableState:
    options = {"preset": "standard", "seats": 3, "stack": 200}
    state = TableState("T", preset("standard", players=3), options, log_size=1000)
    for seat, nickname in enumerate(NAMES):
        state.apply(
            state.seq + 1, EventKind.SEAT, {"seat": seat, "nickname": nickname, "bot": None}
        )
    state.apply(state.seq + 1, EventKind.START, {})
    return state


def _choose(kinds: set[ActionKind], legal: dict[ActionKind, Any], raised: bool) -> Action:
    """Blind when offered, open at the least, raise once a deal at the least, else call,
    check or pass; stand pat; show."""
    for kind in (K.BLIND, K.OPEN, K.RAISE, K.CALL, K.CHECK, K.PASS, K.DRAW, K.SHOW, K.MAKE_UP):
        if kind not in kinds or (kind is K.RAISE and raised):
            continue
        amount = legal[kind].min_amount if kind in (K.OPEN, K.RAISE) else None
        return Action(kind, amount)
    return Action(sorted(kinds)[0])


def test_the_state_says_the_call_the_blind_and_the_shown_hands_as_the_terminal() -> None:
    state = _table()
    rng = random.Random(5)
    seen = {"call_to": 0, "blind": 0, "shown": 0}
    raised = False
    for _ in range(600):
        slot = state.actor_slot()
        if slot is None:
            state.apply(state.seq + 1, EventKind.DEAL, {"seed": rng.randrange(1 << 40)})
            raised = False
            continue
        message = _state_of(state, slot)
        deal = state.match.deal if state.match is not None else None
        if deal is not None and deal.blinders:
            assert message["blind"] is True
            seen["blind"] += 1
        elif deal is not None:
            assert message["blind"] is False
        for seat in message["seats"]:
            if seat["cards"] and seat["seat"] != slot:
                cards = [parse_card(code) for code in seat["cards"]]
                rank = evaluate(cards, players=3)
                assert seat["cards"] == [str(c) for c in hand_order(cards, rank)]
                seen["shown"] += 1
        mine = next(s for s in message["seats"] if s["seat"] == slot)
        for entry in message["legal"]:
            if entry["kind"] == "call" and mine["bet"]:
                added = entry["min"] - mine["bet"]
                assert entry["label"] == {
                    "en": f"Call {added} (to {entry['min']})",
                    "it": f"Vedo {added} (a {entry['min']})",
                }
                seen["call_to"] += 1
        legal = {option.kind: option for option in state.legal_actions()}
        action = _choose(set(legal), legal, raised)
        raised = raised or action.kind is K.RAISE
        state.apply(state.seq + 1, EventKind.ACTION, action_payload(slot, action, False))
    assert all(seen.values()), seen
