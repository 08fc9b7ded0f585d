"""The ``state`` messages built from one shared public part: each seat still gets only its
own cards, building one seat's message changes nothing in another's, and the log's text kept
per table is always the log as it is now."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from italian_poker.analysis.bots import make_bot
from italian_poker.engine.cards import ALL_CARDS, parse_card
from italian_poker.engine.deck import HAND_SIZE
from italian_poker.engine.draw import MAX_DRAW
from italian_poker.engine.match import MatchPhase
from italian_poker.engine.rules import preset
from italian_poker.server.event_kinds import EventKind
from italian_poker.server.event_payloads import action_payload
from italian_poker.server.i18n import page_strings
from italian_poker.server.protocol import (
    Clock,
    LogText,
    PublicState,
    card_label,
    public_state,
    state_text,
)
from italian_poker.server.table_state import LogLine, TableState
from italian_poker.table.defaults import default_action
from italian_poker.table.narration import Line, shown_cards
from italian_poker.table.vocabulary import Language

NICKNAMES = ("Anna", "Núria", "Bruno", "Ça va", "Eve")

STATIC = Path(__file__).resolve().parents[2] / "src" / "italian_poker" / "server" / "static"


def _apply(state: TableState, kind: EventKind, payload: dict[str, Any]) -> None:
    state.apply(state.seq + 1, kind, payload)


def _table(name: str, players: int, log_size: int) -> TableState:
    options = {"preset": name, "seats": players, "stack": 300, "turn_seconds": None, "lang": "it"}
    state = TableState("Tàvolo", preset(name, players=players), options, log_size)
    for seat in range(players):
        bot = "simple" if seat == players - 1 else None
        _apply(state, EventKind.SEAT, {"seat": seat, "nickname": NICKNAMES[seat], "bot": bot})
    _apply(state, EventKind.START, {})
    return state


def _played(state: TableState, steps: int, seed: int) -> Iterator[int]:
    """Play ``state`` on, pausing (yielding its seq) before each of ``steps`` events: deals,
    and every seat's moves chosen by bots."""
    rng = random.Random(seed)
    bots = {seat: make_bot("simple", seed=seed + seat) for seat in range(len(state.slots))}
    for _ in range(steps):
        yield state.seq
        actor = state.actor_slot()
        match = state.match
        if actor is None:
            if match is not None and match.phase is MatchPhase.OVER:
                return
            _apply(state, EventKind.DEAL, {"seed": rng.randrange(1 << 62)})
            continue
        view = state.view(actor)
        live = match is not None and match.phase is MatchPhase.IN_DEAL
        action = bots[actor].act(view) if view is not None and live else None
        action = action or default_action(state.legal_actions())
        _apply(state, EventKind.ACTION, action_payload(actor, action))


def _public(state: TableState, log: LogText) -> PublicState:
    return public_state(state, invite="invite", connected={0, 1}, clock=Clock(None, None), log=log)


@pytest.mark.parametrize(("name", "players"), [("standard", 3), ("003", 4), ("fantini", 5)])
def test_each_seat_sees_only_its_own_cards_from_the_shared_part(name: str, players: int) -> None:
    state = _table(name, players, log_size=50)
    log = LogText()
    seen_own = seen_shown = 0
    for _ in _played(state, 400, seed=players):
        public = _public(state, log)
        shown_view = state.public_view()
        shown = shown_view.shown if shown_view is not None else {}
        for seat in range(players):
            message = json.loads(state_text(public, seat, host=seat == 0))
            assert message["type"] == "state" and message["seq"] == state.seq
            view = message["state"]
            assert view["you"] == seat and view["host"] is (seat == 0)
            own = state.view(seat)
            for other, entry in enumerate(view["seats"]):
                index = state.deal_index(other)
                if other == seat and own is not None and own.hand:
                    assert entry["cards"] == [str(c) for c in own.hand]
                    seen_own += 1
                elif index is not None and index in shown:
                    # Shown at the showdown: public to every seat, in the hand's order.
                    assert shown_view is not None
                    assert entry["cards"] == [str(c) for c in shown_cards(shown_view, index)]
                    assert sorted(entry["cards"]) == sorted(str(c) for c in shown[index])
                    seen_shown += 1
                else:
                    assert entry["cards"] is None and entry["cards_label"] is None
            if view["hand"] is not None:
                assert own is not None and view["hand"]["cards"] == [str(c) for c in own.hand]
            if view["legal"]:
                assert state.actor_slot() == seat
    assert seen_own and seen_shown, "the game never dealt or never reached a showdown"


def test_one_seats_message_leaves_the_others_unchanged() -> None:
    """Built from one shared part in any order, each seat's message is the one a fresh part
    gives: adding a seat's own cards never writes into what the others get."""
    state = _table("standard", 4, log_size=50)
    log = LogText()
    for _ in _played(state, 150, seed=4):
        public = _public(state, log)
        backwards = {s: state_text(public, s, host=s == 0) for s in reversed(range(4))}
        for seat in range(4):
            fresh = state_text(_public(state, LogText()), seat, host=seat == 0)
            assert state_text(public, seat, host=seat == 0) == backwards[seat] == fresh


def _fresh_log(state: TableState) -> list[dict[str, Any]]:
    return [{"seq": e.seq, "en": e.line.en, "it": e.line.it} for e in state.log]


def test_log_text_follows_the_log_as_it_wraps_around() -> None:
    state = _table("standard", 3, log_size=6)
    log = LogText()
    lengths = set()
    for _ in _played(state, 120, seed=7):
        lengths.add(len(state.log))
        assert json.loads(log.text(state.log)) == _fresh_log(state)
    assert 6 in lengths and state.seq > 20  # the log was full and kept moving


def test_log_text_of_a_rebuilt_table_is_rebuilt() -> None:
    """Same length, other lines (a table rebuilt from its events after a failed commit is a
    new state with new line objects): the text is made again, not reused."""
    log = LogText()
    first = [LogLine(1, _line("one")), LogLine(2, _line("two"))]
    assert json.loads(log.text(first))[1]["en"] == "two"
    second = [LogLine(1, _line("one")), LogLine(3, _line("three"))]
    assert [entry["en"] for entry in json.loads(log.text(second))] == ["one", "three"]
    assert log.text([]) == "[]"


def _line(text: str) -> Line:
    return Line(text, text.upper())


def test_card_labels_name_ranks_in_words_as_the_browser_does() -> None:
    """The server's card labels (``cards_label``) and the browser's own (static/i18n.js,
    from the strings the server sends it, ``page_strings``) say the same, so a screen reader
    hears one name per card: ``Dieci di cuori``, not ``10``."""
    for lang in (Language.EN, Language.IT):
        words = page_strings(lang)
        for card in ALL_CARDS:
            code = str(card)
            rank, suit = ("T" if code.startswith("10") else code[0]), code[-1]
            spoken = words["card"].format(rank=words["ranks"][rank], suit=words["suits"][suit])
            assert card_label(card, lang) == spoken, (card, lang)
    assert card_label(parse_card("Th"), Language.IT) == "Dieci di cuori"
    assert card_label(parse_card("Qs"), Language.EN) == "Queen of spades"


def test_the_page_reads_the_rules_numbers_from_the_state() -> None:
    """3.1 and 4.1: the state sends the engine's hand size and draw limit, and no page script
    restates them (``static/draw_rules.js`` once kept a copy of the four-card limit)."""
    state = _table("standard", 3, log_size=10)
    table = json.loads(state_text(_public(state, LogText()), 0, host=True))["state"]["table"]
    assert (table["hand_size"], table["max_draw"]) == (HAND_SIZE, MAX_DRAW) == (5, 4)
    for script in STATIC.glob("*.js"):
        text = script.read_text(encoding="utf-8")
        assert "MAX_DRAW =" not in text and "n: 5 }" not in text, script.name
