"""The draw at the online table. 4.4: the opener's draw in the ``state`` message lists the
groups of cards that show the opening, as the engine's ``LegalAction.split_unless_kept`` does,
so the page announces the split itself (the browser's tick box is gone); nobody else's draw
carries them. 003: the public log names the discards only when they lie face up."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from italian_poker.engine.actions import Action, ActionKind, LegalAction
from italian_poker.engine.cards import Card
from italian_poker.engine.deal import Deal, Phase
from italian_poker.engine.rules import preset
from italian_poker.server.event_kinds import EventKind
from italian_poker.server.event_payloads import action_payload
from italian_poker.server.protocol import Clock, LogText, public_state, state_text
from italian_poker.server.table_state import TableState
from italian_poker.table.narration import cards_text

NAMES = ("Anna", "Bruno", "Carla")


def _apply(state: TableState, kind: EventKind, payload: dict[str, Any]) -> None:
    state.apply(state.seq + 1, kind, payload)


def _legal_of(state: TableState, slot: int) -> list[dict[str, Any]]:
    part = public_state(state, invite="i", connected=set(), clock=Clock(None, None), log=LogText())
    legal: list[dict[str, Any]] = json.loads(state_text(part, slot, host=False))["state"]["legal"]
    return legal


Drawer = Callable[[TableState, int, Deal, LegalAction], Action]
"""What a seat at the draw does: ``(state, slot, deal, the engine's legal draw)``."""


def play_draws(name: str, draws: int, drawer: Drawer, seed: int) -> TableState:
    """A table of three playing seeded deals of preset ``name`` until ``draws`` draws were
    made: open at the minimum when allowed, else decline, call, check or pass; at the draw,
    what ``drawer`` says."""
    options = {"preset": name, "seats": 3, "stack": 200}
    state = TableState("T", preset(name, players=3), options, log_size=1000)  # the whole log
    for seat, nickname in enumerate(NAMES):
        _apply(state, EventKind.SEAT, {"seat": seat, "nickname": nickname, "bot": None})
    _apply(state, EventKind.START, {})
    rng = random.Random(seed)
    made = 0
    for _ in range(1000):
        if made >= draws:
            return state
        slot = state.actor_slot()
        if slot is None:
            _apply(state, EventKind.DEAL, {"seed": rng.randrange(1 << 40)})
            continue
        deal = state.match.deal if state.match is not None else None
        assert deal is not None
        legal = state.legal_actions()
        kinds = {option.kind for option in legal}
        if deal.phase is Phase.DRAW:
            (offered,) = [o for o in legal if o.kind is ActionKind.DRAW]
            action = drawer(state, slot, deal, offered)
            made += 1
        elif ActionKind.OPEN in kinds:
            option = next(o for o in legal if o.kind is ActionKind.OPEN)
            action = Action(ActionKind.OPEN, option.min_amount)
        else:
            order = (ActionKind.DECLINE, ActionKind.CALL, ActionKind.CHECK, ActionKind.PASS)
            action = Action(next((k for k in order if k in kinds), legal[0].kind))
        for entry in _legal_of(state, slot):
            assert entry["kind"] == "draw" or "split_unless_kept" not in entry
        _apply(state, EventKind.ACTION, action_payload(slot, action, False))
    raise AssertionError(f"fewer than {draws} draws in 1000 steps")


def test_the_openers_draw_lists_the_groups_that_show_the_opening_and_no_one_elses() -> None:
    seen = {"opener": 0, "other": 0}

    def drawer(state: TableState, slot: int, deal: Deal, offered: LegalAction) -> Action:
        (sent,) = [e for e in _legal_of(state, slot) if e["kind"] == "draw"]
        if deal.opener != deal.actor:
            assert "split_unless_kept" not in sent
            seen["other"] += 1
            return Action(ActionKind.DRAW)
        assert offered.split_unless_kept
        groups = [[str(card) for card in group] for group in offered.split_unless_kept]
        assert sent["split_unless_kept"] == groups
        seen["opener"] += 1
        # Discard a card of each group: the opening is broken, the split announced.
        discards = tuple(dict.fromkeys(g[0] for g in offered.split_unless_kept))[:4]
        assert offered.breaks_opening(discards)
        return Action(ActionKind.DRAW, cards=discards, split=True)

    play_draws("standard", 12, drawer, seed=4)
    assert seen["opener"] >= 3 and seen["other"] >= 3, seen


def test_the_public_log_names_discards_only_when_they_lie_face_up() -> None:
    """003 puts discards face up: the online table's public log names them; under the
    standard rules it says only how many cards were changed (the observer's rule)."""
    for name, face_up in (("003", True), ("standard", False)):
        discarded: list[tuple[Card, ...]] = []

        def drawer(state: TableState, slot: int, deal: Deal, offered: LegalAction) -> Action:
            assert deal.actor is not None
            if deal.actor == deal.opener:
                return Action(ActionKind.DRAW)  # stand pat: no split to announce
            cards = tuple(deal.hands[deal.actor][-2:])
            discarded.append(cards)  # noqa: B023 - called within this iteration only
            return Action(ActionKind.DRAW, cards=cards)

        state = play_draws(name, 6, drawer, seed=9)
        # The draws' lines (the showdown's report names the hands shown, rightly).
        text = " ".join(e.line.en for e in state.log if " changes " in e.line.en)
        assert len(discarded) >= 3
        assert text.count("changes 2") == len(discarded), text
        for cards in discarded:
            for card in cards:
                shown = cards_text((card,))  # as the log writes a card: J♠
                assert (shown in text) is face_up, (name, card, text)
