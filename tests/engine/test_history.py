"""Hand histories (docs/hand-history.md): PHH-based text that round-trips and replays exactly.

Random legal play drives matches across every preset and 2 to 9 players; every finished (and
one unfinished) deal is written, read back and replayed, and the replay must reproduce the
recorded stacks and awards. Tampered histories must fail, naming the offending action.
"""

from __future__ import annotations

import json
import random
import re
import tomllib
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from history_examples import (
    HISTORIES,
    NAMES,
    apply_random,
    choose,
    docs_examples,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from italian_poker.cli.app import app
from italian_poker.engine.actions import Action, ActionKind
from italian_poker.engine.card_source import SeededSource
from italian_poker.engine.cards import parse_cards
from italian_poker.engine.deal import Deal, DealStart, Outcome
from italian_poker.engine.deck import Deck
from italian_poker.engine.errors import ItalianPokerError
from italian_poker.engine.history import (
    HandHistory,
    HistoryAction,
    HistoryError,
    HistoryResult,
    action_notation,
    describe,
    dumps,
    loads,
    replay,
    summary,
    toml_string,
)
from italian_poker.engine.rules import preset

# --- round trips ----------------------------------------------------------------------------


def test_random_deals_cover_the_italian_features() -> None:
    """The random deals include blinds (Art. 2), 4-card draws (4.2), reshuffles (4.3), split
    openings (4.4), parols (5.4(a)), passed deals (3.5), make-ups (5.5) and showdowns."""
    seen: Counter[str] = Counter()
    for history in HISTORIES:
        assert history.result is not None
        seen[history.result.outcome.value] += 1
        seen["reshuffle"] += bool(history.reshuffled_after)
        seen["late"] += any(d.late for d in history.dealt)
        seen["make-up"] += any(history.makeups)
        for entry in history.actions:
            seen[entry.action.kind.value] += 1
            seen["split"] += entry.action.split
    for feature in (
        "won",
        "passed",
        "parol",
        "reshuffle",
        "late",
        "make-up",
        "split",
        "blind",
        "controbuio",
        "over",
        "show",
        "muck",
        "open",
        "bet",
        "raise",
    ):
        assert seen[feature] > 0, feature


@pytest.mark.parametrize("index", range(len(HISTORIES)))
def test_round_trip_and_replay(index: int) -> None:
    """loads(dumps(h)) == h, the text is stable, and the replay reproduces the result."""
    history = HISTORIES[index]
    text = dumps(history)
    again = loads(text)
    assert again == history
    assert dumps(again) == text
    deal = replay(again)
    assert deal.result is not None and history.result is not None
    assert deal.result.stacks == history.result.stacks
    assert deal.result.awards == history.result.awards
    assert deal.result.carried == history.result.carried
    assert tomllib.loads(text)["variant"] == "ITA"


def test_unfinished_deal_round_trips() -> None:
    """A deal still under way is recorded without a result and replays to the same point."""
    rng = random.Random(5)
    deal = Deal(DealStart(preset("standard", players=9), NAMES, (100,) * 9), SeededSource(5))
    while deal.phase.value not in ("second-round", "complete"):
        apply_random(deal.apply, choose(deal.legal_actions(), deal.hands[deal.actor or 0], rng))
    history = HandHistory.from_deal(deal)
    assert loads(dumps(history)) == history
    again = replay(loads(dumps(history)))
    assert again.phase is deal.phase
    assert again.hands == deal.hands
    assert again.stacks == deal.stacks
    assert summary(history, again)["complete"] is (deal.result is not None)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.text(min_size=1, max_size=12).filter(str.strip), min_size=2, max_size=4, unique=True
    )
)
def test_any_player_names_round_trip(names: list[str]) -> None:
    """Names with quotes, backslashes, control characters or any Unicode survive the TOML
    (any name the engine takes: not blank)."""
    deal = Deal(DealStart(preset("standard"), tuple(names), (50,) * len(names)), SeededSource(1))
    deal.apply(Action(ActionKind.DECLINE))
    history = HandHistory.from_deal(deal)
    assert loads(dumps(history)).names == tuple(names)


@pytest.mark.parametrize("text", ["plain", 'qu"ote', "back\\slash", "tab\tnew\nline", "\x00\x7f"])
def test_toml_strings_read_back(text: str) -> None:
    assert tomllib.loads(f"x = {toml_string(text)}")["x"] == text


# --- tampering ------------------------------------------------------------------------------


def _with_action(text: str, old: str, new: str) -> str:
    assert f'"{old}"' in text, old
    return text.replace(f'"{old}"', f'"{new}"', 1)


def _find(predicate: Callable[[HandHistory, HistoryAction], bool]) -> tuple[HandHistory, int]:
    for history in HISTORIES:
        for i, entry in enumerate(history.actions):
            if predicate(history, entry):
                return history, i
    raise AssertionError("no such action in the random deals")


def _fails_at(text: str, index: int) -> HistoryError:
    with pytest.raises(HistoryError) as caught:
        replay(loads(text))
    assert caught.value.index == index
    assert str(caught.value).startswith(f"action {index + 1} (")
    return caught.value


def test_changed_amount_is_named() -> None:
    history, i = _find(lambda h, e: e.action.kind is ActionKind.RAISE)
    entry = history.actions[i]
    bad = replace(entry.action, amount=(entry.action.amount or 0) + 1000)
    notation = action_notation(entry)
    text = _with_action(dumps(history), notation, action_notation(replace(entry, action=bad)))
    error = _fails_at(text, i)
    assert error.seat == entry.seat and "cbr" in (error.notation or "")


def test_changed_blind_amount_is_named() -> None:
    """Art. 2: the buio is exactly the pot; any other amount is refused."""
    history, i = _find(lambda h, e: e.action.kind is ActionKind.BLIND)
    entry = history.actions[i]
    bad = replace(entry.action, amount=(entry.action.amount or 0) + 1)
    text = _with_action(
        dumps(history), action_notation(entry), action_notation(replace(entry, action=bad))
    )
    assert "exactly" in str(_fails_at(text, i))


def test_discard_not_in_hand_is_named() -> None:
    history, i = _find(lambda h, e: e.action.kind is ActionKind.DRAW and len(e.action.cards) == 1)
    entry = history.actions[i]
    deal = replay(history)
    held = set(deal.hands[entry.seat]) | set(entry.action.cards)
    stranger = next(c for c in Deck(len(history.names)).cards if c not in held)
    bad = replace(entry.action, cards=(stranger,))
    text = _with_action(
        dumps(history), action_notation(entry), action_notation(replace(entry, action=bad))
    )
    assert "do not hold" in str(_fails_at(text, i))


def test_action_out_of_turn_is_named() -> None:
    history, i = _find(lambda h, e: e.action.kind is ActionKind.CALL)
    entry = history.actions[i]
    other = (entry.seat + 1) % len(history.names)
    text = _with_action(
        dumps(history), action_notation(entry), action_notation(replace(entry, seat=other))
    )
    assert "turn" in str(_fails_at(text, i))


def test_unannounced_split_is_named() -> None:
    """4.4: breaking the opening without announcing it is refused."""
    history, i = _find(lambda h, e: e.action.split)
    entry = history.actions[i]
    text = _with_action(dumps(history), action_notation(entry), action_notation(entry)[:-7])
    assert "split" in str(_fails_at(text, i))


def test_wrong_shown_cards_are_named() -> None:
    history, i = _find(lambda h, e: e.action.kind is ActionKind.SHOW)
    entry = history.actions[i]
    stranger = next(c for c in Deck(len(history.names)).cards if c not in entry.shown)
    bad = replace(entry, shown=(stranger, *entry.shown[1:]))
    text = _with_action(dumps(history), action_notation(entry), action_notation(bad))
    assert "holds" in str(_fails_at(text, i))


def test_altered_result_is_reported() -> None:
    history, _ = _find(lambda h, e: e.action.kind is ActionKind.SHOW)
    assert history.result is not None
    stacks = list(history.result.stacks)
    stacks[0] += 5
    tampered = replace(history, result=replace(history.result, stacks=tuple(stacks)))
    with pytest.raises(HistoryError, match="final stacks"):
        replay(loads(dumps(tampered)))
    awards = history.result.awards
    wrong = replace(awards[0], shares=tuple(s + 1 for s in awards[0].shares))
    tampered = replace(history, result=replace(history.result, awards=(wrong, *awards[1:])))
    with pytest.raises(HistoryError, match="pot awards"):
        replay(loads(dumps(tampered)))
    with pytest.raises(HistoryError, match="outcome"):
        replay(replace(history, result=replace(history.result, outcome=Outcome.PAROL)))


def test_altered_dealer_lines_are_reported() -> None:
    """A dealer line that deals a card held elsewhere, a line moved, a line missing: the
    replay deals exactly the recorded cards, so each is refused where it happens."""
    history = next(h for h in HISTORIES if h.reshuffled_after)
    n = len(history.names)
    first, later = history.dealt[0], history.dealt[n]
    held = history.dealt[1].cards[0]  # dealt to another seat at the start
    wrong = replace(later, cards=(held, *later.cards[1:]))
    with pytest.raises(HistoryError, match="not available"):
        replay(replace(history, dealt=(*history.dealt[:n], wrong, *history.dealt[n + 1 :])))
    moved = replace(later, after=later.after + 1)
    with pytest.raises(HistoryError, match="dealer line"):
        replay(replace(history, dealt=(*history.dealt[:n], moved, *history.dealt[n + 1 :])))
    with pytest.raises(HistoryError):
        replay(replace(history, dealt=history.dealt[:-1]))
    with pytest.raises(HistoryError, match=r"not all of one size|cannot start"):
        replay(replace(history, dealt=(replace(first, cards=first.cards[1:]), *history.dealt[1:])))


def test_history_error_is_an_engine_value_error() -> None:
    assert issubclass(HistoryError, ItalianPokerError)
    assert issubclass(HistoryError, ValueError)


# --- malformed text -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t + "\nthis is = = not toml\n", "not valid TOML"),
        (lambda t: re.sub(r"(?m)^starting_stacks = .*$", "", t), "missing field starting_stacks"),
        (lambda t: t.replace('"p2 pass"', '"p2 jump"'), "unknown action 'jump'"),
        (lambda t: t.replace('"p3 open 2"', '"p3 open two"'), "needs one amount"),
        (lambda t: t.replace('"p3 open 2"', '"p7 open 2"'), "not a player"),
        (lambda t: t.replace('"p3 sd Jc !split"', '"p3 sd Zz"'), "cannot read card"),
        (lambda t: t.replace('variant = "ITA"', 'variant = "NT"'), "not Italian Poker"),
        (lambda t: t.replace('structure = "spread-limit"', 'structure = "x"'), "structure"),
        (lambda t: t.replace("antes = [1, 1, 1, 1]", "antes = [2, 1, 1, 1]"), "antes"),
        (lambda t: t.replace("winnings = [0, 0, 26, 0]", "winnings = [0, 0, 27, 0]"), "winnings"),
        (lambda t: t.replace('_outcome = "won"', '_outcome = "draw"'), "_outcome"),
    ],
)
def test_malformed_text_is_a_history_error(change: Callable[[str], str], message: str) -> None:
    text = change(docs_examples()[0])
    with pytest.raises(HistoryError, match=message):
        loads(text)


# --- the documented examples ----------------------------------------------------------------


def test_documented_examples_replay() -> None:
    """The first example: a blind declined, a split opening (4.4), a draw of four with the late
    fourth card (4.2) and a showdown; the second: buio and controbuio (Art. 2)."""
    first, second = (loads(text) for text in docs_examples()[:2])
    deal = replay(first)
    kinds = [e.action.kind for e in first.actions]
    assert ActionKind.DECLINE in kinds and any(e.action.split for e in first.actions)
    assert any(d.late for d in first.dealt)
    assert deal.result is not None and deal.result.shown
    assert dumps(first) == docs_examples()[0]
    deal = replay(second)
    kinds = [e.action.kind for e in second.actions]
    assert ActionKind.BLIND in kinds and ActionKind.CONTROBUIO in kinds
    assert dumps(second) == docs_examples()[1]
    lines = describe(second, deal)
    assert any("(buio)" in line for line in lines)


# --- the replay command ---------------------------------------------------------------------

runner = CliRunner()


def test_cli_replay_text_and_json(tmp_path: Path) -> None:
    path = tmp_path / "deal.phh"
    path.write_text(docs_examples()[0], encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "Carla opens for 2 (apro)" in result.stdout
    assert "split opening" in result.stdout
    assert "the fourth card, after everyone else" in result.stdout
    assert "Straight, Queen high / Scala alla Donna" in result.stdout
    assert "Verified" in result.stdout
    result = runner.invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    history = loads(docs_examples()[0])
    assert history.result is not None
    assert data["final_stacks"] == list(history.result.stacks)
    assert data["awards"][0]["winners"] == ["Carla"]


def test_cli_replay_directory(tmp_path: Path) -> None:
    for k, text in enumerate(docs_examples()[:2]):
        (tmp_path / f"{k}.phh").write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["replay", str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    assert [d["outcome"] for d in json.loads(result.stdout)] == ["won", "won"]


def test_cli_replay_tampered_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "bad.phh"
    path.write_text(docs_examples()[0].replace('"p4 cbr 8"', '"p4 cbr 80"'), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    assert "action 11 (p4 cbr 80)" in result.stderr
    missing = runner.invoke(app, ["replay", str(tmp_path / "nope.phh")])
    assert missing.exit_code == 2


def test_result_of_history_matches_winnings() -> None:
    """PHH ``winnings`` are the chips each seat collected from the pots."""
    for history in HISTORIES[:20]:
        assert history.result is not None
        result: HistoryResult = history.result
        assert sum(result.winnings) == sum(a.amount for a in result.awards)


def test_cards_dealt_are_of_the_stripped_deck() -> None:
    """Section 1: every card dealt is of the stripped deck for the players dealt in."""
    for history in HISTORIES[:40]:
        deck = Deck(len(history.names))
        assert all(c in deck for line in history.dealt for c in line.cards)
    assert parse_cards("Ah")[0] in Deck(2)
