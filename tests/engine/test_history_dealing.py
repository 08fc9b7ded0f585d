"""Dealer lines of a hand history (docs/hand-history.md, "Actions"): every card dealt, the
five-card deal (3.1) included, is written so that a reader sees each player's cards."""

from __future__ import annotations

from pathlib import Path

from italian_poker.engine.actions import Action, ActionKind
from italian_poker.engine.card_source import SeededSource
from italian_poker.engine.deal import Deal, DealStart
from italian_poker.engine.history import HandHistory, describe, dumps, loads, replay
from italian_poker.engine.history.notation import dealt_notation
from italian_poker.engine.rules import preset

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "histories"

NAMES = ("Anna", "Bruno", "Carla")


def drawn_deal(rules_name: str, **start: object) -> Deal:
    """Three players, seed 4: everyone passes or calls to the draw, each changes one card."""
    deal = Deal(
        DealStart(preset(rules_name, players=3), NAMES, (50, 50, 50), **start), SeededSource(4)
    )  # type: ignore[arg-type]
    while deal.actor is not None:
        kinds = [la.kind for la in deal.legal_actions()]
        if ActionKind.DRAW in kinds:
            deal.apply(Action(ActionKind.DRAW, cards=(deal.hands[deal.actor][0],)))
            continue
        for kind in (ActionKind.DECLINE, ActionKind.OPEN, ActionKind.CALL, ActionKind.CHECK):
            if kind in kinds:
                legal = next(la for la in deal.legal_actions() if la.kind is kind)
                amount = legal.min_amount if kind is ActionKind.OPEN else None
                deal.apply(Action(kind, amount))
                break
        else:
            deal.apply(Action(kinds[0]))
    return deal


def test_a_deal_without_blinds_records_the_five_card_deal() -> None:
    """001 and 002 offer no blind, so the cards are dealt as the deal starts (3.1): the
    history had dealer lines for the draw only, and a reader saw no hand until the showdown."""
    for name in ("001", "002"):
        start = Deal(DealStart(preset(name, players=3), NAMES, (50, 50, 50)), SeededSource(4))
        first = [(0, s, tuple(start.hands[s])) for s in (1, 2, 0)]  # from the dealer's left
        history = HandHistory.from_deal(drawn_deal(name))
        assert [(d.after, d.seat, d.cards) for d in history.dealt[:3]] == first
        text = dumps(history)
        deal_lines = text[text.index("actions = [") :].splitlines()[1:4]
        assert deal_lines == [
            f'  "d dh p{s + 1} {"".join(map(str, cards))}",' for _, s, cards in first
        ]
        lines = describe(history, replay(loads(text)))
        actions = lines.index("Actions:")
        assert lines[actions + 1].startswith("     dealer gives Bruno ")


def test_the_deal_after_a_parol_records_the_five_card_deal() -> None:
    """5.5: no blind on the deal after a parol, so its cards too are dealt at once."""
    history = HandHistory.from_deal(drawn_deal("standard", blinds_allowed=False))
    assert [d.after for d in history.dealt[:3]] == [0, 0, 0]
    assert replay(loads(dumps(history))).result == replay(history).result


def test_a_history_written_without_the_five_card_deal_still_replays() -> None:
    """Version 1 files written before the five-card deal of a deal dealt at once had its
    dealer lines (no blinds, 3.1) still replay: the recorded deck deals it, and the history is
    read with those lines."""
    text = (FIXTURES / "showdown_001_6p.phh").read_text(encoding="utf-8")
    history = loads(text)
    opening = [f'  "{dealt_notation(d)}",\n' for d in history.dealt if d.after == 0]
    legacy = text
    for line in opening:
        legacy = legacy.replace(line, "", 1)
    assert len(opening) == 6 and legacy != text
    read = loads(legacy)
    assert read == history
    assert replay(read).result == replay(history).result
