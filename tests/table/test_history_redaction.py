"""A hand history as one player may see it: no deck, the others' hidden cards as ``??``."""

from __future__ import annotations

import re

from italian_poker.engine.actions import Action, ActionKind, draw, open_
from italian_poker.engine.history import HandHistory, dumps_redacted, redacted_record
from italian_poker.engine.match import Match, MatchPhase
from italian_poker.engine.rules import preset
from italian_poker.table.defaults import default_action


def _play(seed: int, rules_name: str) -> HandHistory:
    """One deal where whoever can open opens, everyone calls and draws two cards."""
    match = Match(preset(rules_name, players=3), [("A", 50), ("B", 50), ("C", 50)], seed=seed)
    match.start_deal()
    while match.phase is MatchPhase.IN_DEAL:
        deal = match.deal
        assert deal is not None and deal.actor is not None
        legal = {o.kind: o for o in match.legal_actions()}
        action: Action
        if ActionKind.DRAW in legal:
            action = draw(*deal.hands[deal.actor][:2])
        elif ActionKind.OPEN in legal and legal[ActionKind.OPEN].min_amount is not None:
            action = open_(legal[ActionKind.OPEN].min_amount)
        elif ActionKind.CALL in legal:
            action = Action(ActionKind.CALL)
        else:
            action = default_action(match.legal_actions())
        try:
            match.apply(action)
        except Exception:
            match.apply(default_action(match.legal_actions()))
    return HandHistory.from_completed(match.completed[-1])


def _with_draws(rules_name: str = "standard") -> HandHistory:
    for seed in range(1, 200):
        history = _play(seed, rules_name)
        if sum(1 for a in history.actions if a.action.kind is ActionKind.DRAW) >= 2:
            return history
    raise AssertionError("no deal with two draws in 200 seeds")


def _hidden_from(history: HandHistory, viewer: int) -> set[str]:
    """Cards dealt to other seats that were never shown."""
    shown = {str(c) for a in history.actions for c in a.shown}
    dealt = {str(c) for d in history.dealt if d.seat != viewer for c in d.cards}
    return dealt - shown


def test_redacted_text_hides_others_cards_and_the_deck() -> None:
    history = _with_draws()
    for viewer in range(len(history.names)):
        text = dumps_redacted(history, viewer)
        body = text.split("[_rules]")[0]
        written = set(re.findall(r"(?:10|[2-9TJQKA])[hdcs]", body))
        assert not _hidden_from(history, viewer) & written
        assert "_deck" not in text and "_reshuffles" not in text
        assert f'_viewer = "p{viewer + 1}"' in text
        own = {str(c) for d in history.dealt if d.seat == viewer for c in d.cards}
        assert own <= written


def test_redacted_record_keeps_counts_not_cards() -> None:
    history = _with_draws()
    record = redacted_record(history, 0)
    for dealt in record["dealt"]:
        assert (dealt["cards"] is None) == (dealt["seat"] != 0)
    assert [d["count"] for d in record["dealt"]] == [len(d.cards) for d in history.dealt]
    assert [d["count"] for d in record["dealt"]][:3] == [5, 5, 5]  # 3.1
    draws = [a for a in record["actions"] if a["kind"] == "draw"]
    for entry in draws:
        assert ("cards" in entry) == (entry["seat"] == 0)
    changed = [len(a.action.cards) for a in history.actions if a.action.kind is ActionKind.DRAW]
    assert [entry["count"] for entry in draws] == changed
    assert sum(changed) >= 4  # two draws of two cards


def test_face_up_discards_stay_visible() -> None:
    # 003: discards stay face up in front of the player.
    history = _with_draws("003")
    record = redacted_record(history, 0)
    draws = [a for a in record["actions"] if a["kind"] == "draw"]
    assert draws and all("cards" in entry for entry in draws)
