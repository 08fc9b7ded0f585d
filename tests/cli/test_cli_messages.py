"""English messages of the command line, the simulation and hand histories: plurals are
built by one helper, ``italian_poker.engine.wording.count`` ("1 chip", "2 chips")."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from italian_poker.analysis.simulation import head_to_head, seat_levels, simulate
from italian_poker.cli.app import app
from italian_poker.engine.card_source import SeededSource
from italian_poker.engine.deal import Deal, DealStart
from italian_poker.engine.history import HandHistory, HistoryError, describe, loads, replay
from italian_poker.engine.rules import Rules
from italian_poker.engine.wording import count


@pytest.mark.parametrize(
    ("number", "noun", "plural", "text"),
    [
        (0, "chip", None, "0 chips"),
        (1, "chip", None, "1 chip"),
        (2, "chip", None, "2 chips"),
        (1, "reshuffle", None, "1 reshuffle"),
        (3, "dealer line", None, "3 dealer lines"),
        (1, "match", "matches", "1 match"),
        (2, "match", "matches", "2 matches"),
    ],
)
def test_count_names_one_in_the_singular(
    number: int, noun: str, plural: str | None, text: str
) -> None:
    assert count(number, noun, plural) == text


def test_simulate_says_at_least_1_chip() -> None:
    """Issue: "the starting stack must be at least 1 chips"."""
    with pytest.raises(ValueError) as info:
        simulate(10, 4, stack=0)
    assert str(info.value) == "the starting stack must be at least 1 chip, got 0"
    with pytest.raises(ValueError, match="at least 2 chips, got 1"):
        simulate(10, 4, rules=Rules(ante=2), stack=1)


def test_cli_simulate_says_at_least_1_chip() -> None:
    result = CliRunner().invoke(app, ["simulate", "--stack", "-5"])
    assert result.exit_code == 2
    assert result.stderr == "error: the starting stack must be at least 1 chip, got -5\n"


def test_bot_levels_message_counts_in_english() -> None:
    with pytest.raises(ValueError, match="2 seats, 3 levels"):
        seat_levels(["strong", "simple", "random"], 2)


def test_a_stack_of_one_chip_is_described_as_1_chip() -> None:
    """describe() printed "p1 Anna: 1 chips, ante 1" for a player with one chip."""
    rules = Rules(players=2, blind_allowed=False, controbuio_allowed=False, over_allowed=False)
    deal = Deal(DealStart(rules, ("Anna", "Bruno"), (1, 20)), SeededSource(3))
    history = HandHistory.from_deal(deal)
    lines = describe(history, replay(history))
    assert "  p1 Anna: 1 chip, ante 1" in lines
    assert "  p2 Bruno: 20 chips, ante 1" in lines


def test_replay_counts_dealer_lines_and_reshuffles_in_english() -> None:
    """ "the history records 1 dealer lines": the counts in the replay's messages."""
    rules = Rules(players=2, blind_allowed=False, controbuio_allowed=False, over_allowed=False)
    deal = Deal(DealStart(rules, ("Anna", "Bruno"), (20, 20)), SeededSource(3))
    history = HandHistory.from_deal(deal)
    assert len(history.dealt) == 2  # the five-card deal, one line per player
    extra = replace(history.dealt[0], cards=history.dealt[0].cards[:1])
    with pytest.raises(HistoryError) as info:
        replay(replace(history, dealt=(*history.dealt, extra)))
    assert str(info.value) == "the history records 3 dealer lines, the deal deals 2"


def test_a_field_of_one_number_per_player_counts_in_english() -> None:
    """A history of one player asked for "an array of 1 numbers"."""
    docs = Path(__file__).resolve().parents[2] / "docs" / "hand-history.md"
    example = re.findall(r"```toml\n(.*?)```", docs.read_text(encoding="utf-8"), re.S)[0]
    one = 'players = ["Anna", "Bruno", "Carla", "Dario"]'
    assert one in example
    with pytest.raises(HistoryError) as info:
        loads(example.replace(one, 'players = ["Anna"]'))
    assert str(info.value) == (
        "field starting_stacks must be an array of 1 number (one per player), "
        "got [100, 100, 100, 100]"
    )


@pytest.mark.parametrize("match_deals", [0, -1])
def test_head_to_head_refuses_matches_of_no_deals(match_deals: int) -> None:
    """``match_deals=0`` divided by zero (ZeroDivisionError)."""
    with pytest.raises(ValueError) as info:
        head_to_head("strong", "simple", deals=1000, match_deals=match_deals)
    assert str(info.value) == f"a match has at least 1 deal, got {match_deals}"


def test_head_to_head_asks_for_two_pairs_in_english() -> None:
    with pytest.raises(ValueError) as info:
        head_to_head("strong", "simple", deals=3, match_deals=1)
    assert str(info.value) == "play at least two duplicate pairs: 4 deals or more, got 3"


@pytest.mark.parametrize("bots", ["", ",", "strong,", "strong,,simple"])
def test_cli_simulate_names_an_empty_bot_level(bots: str) -> None:
    """It said "unknown bot level ''", as if '' were a level someone had typed."""
    result = CliRunner().invoke(app, ["simulate", "--bots", bots])
    assert result.exit_code == 2
    assert result.stderr == (
        f"error: --bots: a bot level is missing in {bots!r}; give one level for every seat "
        "or one for all, separated by commas (e.g. strong,simple,simple,simple)\n"
    )
