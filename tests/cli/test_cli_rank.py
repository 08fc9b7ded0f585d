"""The ``italian-poker`` command line: ``rank`` and the ``play`` placeholder."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner, Result

from italian_poker.cli.app import app, main

runner = CliRunner()


def run(*args: str) -> Result:
    return runner.invoke(app, list(args))


def test_rank_issue_example() -> None:
    """7.2: the maximum beats the medium; both hands are described in English and Italian.

    The issue's medium was 7h-Jh, which shares the 10 and the jack with the maximum: hands at
    one table come from one deck, so it is in diamonds here."""
    result = run("rank", "--players", "4", "Ah Kh Qh Jh Th", "7d 8d 9d Td Jd")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines == [
        "1. Ah Kh Qh Jh Th  Maximum straight flush, Ace high, hearts / "
        "Scala reale massima all'Asso di cuori",
        "2. 7d 8d 9d Td Jd  Medium straight flush, Jack high, diamonds / "
        "Scala reale media al Jack di quadri",
        "Winner: hand 1",
    ]


def test_rank_minimum_beats_maximum() -> None:
    """7.2: la minima batte la massima."""
    result = run("rank", "--players", "4", "Ac Kc Qc Jc Tc", "Ah 7h 8h 9h 10h")
    assert result.exit_code == 0, result.output
    assert "Scala reale minima" in result.stdout
    assert "Minimum straight flush" in result.stdout
    assert result.stdout.splitlines()[-1] == "Winner: hand 2"


def test_rank_three_way_split() -> None:
    """7.3: one minimum, one medium and one maximum split the pot."""
    result = run("rank", "--players", "4", "Ah 7h 8h 9h Th", "7d 8d 9d Td Jd", "Ac Kc Qc Jc Tc")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == "Split pot: hands 1, 2, 3"


def test_rank_flush_beats_full_house() -> None:
    """6: Colore beats Full."""
    result = run("rank", "--players", "4", "Ac Ad As Kc Kd", "Kh Jh 9h 8h 7h")
    assert result.exit_code == 0, result.output
    assert "Full house, Aces full of Kings / Full di Assi e Re" in result.stdout
    assert "Flush, King high, hearts / Colore di cuori al Re" in result.stdout
    assert result.stdout.splitlines()[-1] == "Winner: hand 2"


def test_rank_one_hand_names_no_winner() -> None:
    result = run("rank", "Jh Jc 7d 8s Ac")
    assert result.exit_code == 0, result.output
    assert result.stdout == "1. Jh Jc 7d 8s Ac  Pair of Jacks / Coppia di Jack\n"


def test_rank_defaults_to_four_players() -> None:
    """The default deck is 7..A: a six is not in it."""
    assert run("rank", "Ah 7d 8c 9s Th").exit_code == 0
    assert run("rank", "6h 7d 8c 9s Th").exit_code == 2


def test_rank_other_deck_sizes() -> None:
    """Article on aces: with five players A-6-7-8-9 is the lowest straight."""
    result = run("rank", "--players", "5", "Ah 6d 7c 8s 9h", "6h 7d 8c 9s Th")
    assert result.exit_code == 0, result.output
    assert "Straight, 9 high / Scala al 9" in result.stdout
    assert result.stdout.splitlines()[-1] == "Winner: hand 2"


def test_rank_accepts_symbols() -> None:
    result = run("rank", "A♥ K♥ Q♥ J♥ 10♥")
    assert result.exit_code == 0, result.output
    assert "Maximum straight flush" in result.stdout


def test_rank_fantini_tiebreak() -> None:
    """002, Fantini/Santelia: K-K-J-9-8 against K-K-J-9-8 is decided by the jack's suit."""
    hands = ("Kc Ks Jh 9c 8c", "Kh Kd Jd 9h 8h")
    standard = run("rank", *hands)
    fantini = run("rank", "--tiebreak", "fantini", *hands)
    assert standard.exit_code == fantini.exit_code == 0
    assert standard.stdout.splitlines()[-1] == "Winner: hand 2"
    assert fantini.stdout.splitlines()[-1] == "Winner: hand 1"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["Ah Xh Qh Jh Th"], "cannot read card 'Xh'"),
        (["Ah Kh Qh Jh"], "five cards, got 4"),
        (["Ah Kh Qh Jh Th 9h"], "five cards, got 6"),
        (["Ah Ah Qh Jh Th"], "more than once"),
        (["2h 8h 9h Th Jh"], "not in the 32-card deck for 4 players"),
        (["--players", "10", "Ah Kh Qh Jh Th"], "2 to 9 players, got 10"),
        (["--players", "1", "Ah Kh Qh Jh Th"], "2 to 9 players, got 1"),
        (["Ah Kh Qh Jh Th", "Ac Kc Qc Jc"], "five cards, got 4"),
    ],
)
def test_rank_bad_input_exits_with_code_2(args: list[str], message: str) -> None:
    result = run("rank", *args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert result.stderr.startswith("error: ")
    assert result.stdout == ""
    assert "Traceback" not in result.output


def test_rank_refuses_a_card_in_two_hands() -> None:
    """Issue: the same card in two hands was ranked as a split pot and exited 0; it is bad
    input, as a card twice in one hand is (hands at one table come from one deck)."""
    result = run("rank", "Ah Kh Qh Jh Th", "Ah Kh Qh Jh Th")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == "error: card Ah is in hands 1 and 2: a card can be in only one hand\n"
    result = run("rank", "Ah Kh Qh Jh Th", "7c 8c 9c Tc Jc", "9d Kd Ad Jd Th")
    assert result.exit_code == 2
    assert result.stderr == "error: card Th is in hands 1 and 3: a card can be in only one hand\n"


def test_rank_names_the_hand_at_fault() -> None:
    result = run("rank", "Ah Kh Qh Jh Th", "Ac Kc Qc Jc")
    assert result.exit_code == 2
    assert result.stderr == "error: hand 2: a hand has exactly five cards, got 4\n"
    result = run("rank", "--players", "10", "Ah Kh Qh Jh Th", "Ac Kc Qc Jc")
    assert result.stderr == "error: Italian Poker is for 2 to 9 players, got 10\n"


@pytest.mark.parametrize(
    "args",
    [
        ["--players", "abc", "Ah Kh Qh Jh Th"],
        ["--tiebreak", "bogus", "Ah Kh Qh Jh Th"],
        [],
    ],
)
def test_rank_usage_errors_exit_with_code_2(args: list[str]) -> None:
    result = run("rank", *args)
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ")
    assert result.stderr.endswith(" (see: italian-poker rank --help)\n")


def test_help_lists_the_commands() -> None:
    result = run("--help")
    assert result.exit_code == 0
    assert "rank" in result.stdout
    assert "play" in result.stdout


def test_main_runs_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.argv", ["italian-poker", "rank", "Ah Kh Qh Jh Th"])
    with pytest.raises(SystemExit) as info:
        main()
    assert info.value.code == 0
