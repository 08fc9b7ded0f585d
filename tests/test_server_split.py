"""The draw at the online table. 4.4: the opener's draw in the ``state`` message lists the
groups of cards that show the opening, as the engine's ``LegalAction.split_unless_kept`` does,
so the page announces the split itself (the browser's tick box is gone); nobody else's draw
carries them. 003: the public log names the discards only when they lie face up."""

from __future__ import annotations

import json
import random
from typing import Any

from italian_poker.engine.actions import Action, ActionKind
from italian_poker.engine.cards import parse_card
from italian_poker.engine.deal import Phase
from italian_poker.engine.rules import preset
from italian_poker.server.protocol import Clock, LogText, public_state, state_text
from italian_poker.server.table_state import EventKind, TableState, action_payload
from italian_poker.table.narration import cards_text

NAMES = ("Anna", "Bruno", "Carla")


def _apply(state: TableState, kind: EventKind, payload: dict[str, Any]) -> None:
    state.apply(state.seq + 1, kind, payload)


def _legal_of(state: TableState, slot: int) -> list[dict[str, Any]]:
    part = public_state(state, invite="i", connected=set(), clock=Clock(None, None), log=LogText())
    legal: list[dict[str, Any]] = json.loads(state_text(part, slot, host=False))["state"]["legal"]
    return legal


def test_the_openers_draw_lists_the_groups_that_show_the_opening_and_no_one_elses() -> None:
    rules = preset("standard", players=3)
    state = TableState("T", rules, {"preset": "standard", "seats": 3, "stack": 200})
    for seat, name in enumerate(NAMES):
        _apply(state, EventKind.SEAT, {"seat": seat, "nickname": name, "bot": None})
    _apply(state, EventKind.START, {})
    rng = random.Random(4)
    seen = {"opener": 0, "other": 0}
    for _ in range(400):
        if seen["opener"] >= 3 and seen["other"] >= 3:
            break
        slot = state.actor_slot()
        if slot is None:
            _apply(state, EventKind.DEAL, {"seed": rng.randrange(1 << 40)})
            continue
        deal = state.match.deal if state.match is not None else None
        assert deal is not None
        legal = state.legal_actions()
        kinds = {option.kind for option in legal}
        if deal.phase is Phase.DRAW:
            (engine_draw,) = [o for o in legal if o.kind is ActionKind.DRAW]
            (sent,) = [e for e in _legal_of(state, slot) if e["kind"] == "draw"]
            if deal.opener == deal.actor:
                assert engine_draw.split_unless_kept
                groups = [[str(card) for card in group] for group in engine_draw.split_unless_kept]
                assert sent["split_unless_kept"] == groups
                seen["opener"] += 1
                # Discard a card of each group: the opening is broken, the split announced.
                discards = tuple(dict.fromkeys(g[0] for g in engine_draw.split_unless_kept))
                assert engine_draw.breaks_opening(discards)
                action = Action(ActionKind.DRAW, cards=discards[:4], split=True)
            else:
                assert "split_unless_kept" not in sent
                seen["other"] += 1
                action = Action(ActionKind.DRAW)
        elif ActionKind.OPEN in kinds:
            option = next(o for o in legal if o.kind is ActionKind.OPEN)
            action = Action(ActionKind.OPEN, option.min_amount)
        else:
            order = (ActionKind.DECLINE, ActionKind.CALL, ActionKind.CHECK, ActionKind.PASS)
            kind = next((k for k in order if k in kinds), legal[0].kind)
            action = Action(kind)
        for entry in _legal_of(state, slot):
            if entry["kind"] != "draw":
                assert "split_unless_kept" not in entry
        _apply(state, EventKind.ACTION, action_payload(slot, action, False))
    assert seen["opener"] >= 3 and seen["other"] >= 3, seen


def _draw_lines(name: str) -> tuple[list[str], list[tuple[str, ...]]]:
    """Play seeded deals of preset ``name`` at a table of three (every draw changes two
    cards) until three draws were made; the public log's lines for them, and the cards."""
    rules = preset(name, players=3)
    state = TableState("T", rules, {"preset": name, "seats": 3, "stack": 200})
    for seat, nickname in enumerate(NAMES):
        _apply(state, EventKind.SEAT, {"seat": seat, "nickname": nickname, "bot": None})
    _apply(state, EventKind.START, {})
    rng = random.Random(9)
    lines: list[str] = []
    discarded: list[tuple[str, ...]] = []
    for _ in range(600):
        if len(discarded) >= 3:
            break
        slot = state.actor_slot()
        if slot is None:
            _apply(state, EventKind.DEAL, {"seed": rng.randrange(1 << 40)})
            continue
        deal = state.match.deal if state.match is not None else None
        assert deal is not None
        legal = state.legal_actions()
        kinds = {option.kind for option in legal}
        if deal.phase is Phase.DRAW:
            cards = tuple(deal.hands[deal.actor][-2:]) if deal.actor != deal.opener else ()
            action = Action(ActionKind.DRAW, cards=cards)
        elif ActionKind.OPEN in kinds:
            option = next(o for o in legal if o.kind is ActionKind.OPEN)
            action = Action(ActionKind.OPEN, option.min_amount)
        else:
            order = (ActionKind.DECLINE, ActionKind.CALL, ActionKind.CHECK, ActionKind.PASS)
            action = Action(next((k for k in order if k in kinds), legal[0].kind))
        before = len(state.log)
        _apply(state, EventKind.ACTION, action_payload(slot, action, False))
        if action.kind is ActionKind.DRAW and action.cards:
            lines.extend(entry.line.en for entry in list(state.log)[before:])
            discarded.append(tuple(str(card) for card in action.cards))
    assert len(discarded) >= 3
    return lines, discarded


def test_the_public_log_names_discards_only_when_they_lie_face_up() -> None:
    """003 puts discards face up: the online table's public log names them; under the
    standard rules it says only how many cards were changed (the observer's rule)."""
    for name, face_up in (("003", True), ("standard", False)):
        lines, discarded = _draw_lines(name)
        text = " ".join(lines)
        assert text.count("changes 2") == len(discarded), text
        for cards in discarded:
            for code in cards:
                shown = cards_text((parse_card(code),))  # as the log writes a card: J♠
                assert (shown in text) is face_up, (name, code, text)
