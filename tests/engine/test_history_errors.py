"""Hand-history errors name the action at fault the documented way (docs/hand-history.md):
``action K (NOTATION): ...`` where K counts the player actions from 1, dealer lines and
comments not counted, whether ``loads`` (the form of the text) or ``replay`` (legality) finds
the fault; a bad dealer line is ``dealer line D (NOTATION): ...``, D counting dealer lines.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from italian_poker.cli.app import app
from italian_poker.engine.history import HistoryError, loads, replay

DOCS = Path(__file__).resolve().parents[2] / "docs" / "hand-history.md"


def example() -> str:
    """The first example of docs/hand-history.md: Carla's `p3 open 2` is the third player
    action but the seventh string of `actions` (four dealer lines come before it)."""
    return re.findall(r"```toml\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S)[0]


def load_error(old: str, new: str) -> HistoryError:
    text = example()
    assert text.count(old) == 1
    with pytest.raises(HistoryError) as caught:
        loads(text.replace(old, new))
    return caught.value


def replay_error(old: str, new: str) -> HistoryError:
    text = example()
    assert text.count(old) == 1
    with pytest.raises(HistoryError) as caught:
        replay(loads(text.replace(old, new)))
    return caught.value


def test_load_errors_count_player_actions_as_replay_errors_do() -> None:
    """Issue: load errors were numbered by the TOML array index (dealer lines included) with
    ``index=None``; replay errors say ``action K``. Both now say ``action K``."""
    error = load_error('"p3 open 2"', '"p3 open two"')
    assert str(error) == "action 3 (p3 open two): open needs one amount in whole chips"
    assert (error.index, error.seat, error.notation) == (2, 2, "p3 open two")


def test_the_same_action_has_the_same_number_at_load_and_at_replay() -> None:
    """Example 1's eleventh player action, Dario's raise (the twentieth string of actions)."""
    at_replay = replay_error('"p4 cbr 8"', '"p4 cbr 80"')
    at_load = load_error('"p4 cbr 8"', '"p4 cbr eighty"')
    assert str(at_replay).startswith("action 11 (p4 cbr 80): ")
    assert str(at_load) == "action 11 (p4 cbr eighty): cbr needs one amount in whole chips"
    assert at_load.index == at_replay.index == 10
    assert at_load.seat == at_replay.seat == 3


@pytest.mark.parametrize(
    ("old", "new", "message", "seat"),
    [
        (
            '"p2 pass"',
            '"p2 jump"',
            "action 2 (p2 jump): unknown action 'jump'; known: buio, controbuio, over, "
            "decline, pass, open, f, cc, cbr, parol, sd, sm",
            1,
        ),
        ('"p3 open 2"', '"p7 open 2"', "action 3 (p7 open 2): 'p7' is not a player p1..p4", None),
        ('"p2 decline"', '"p2"', "action 1 (p2): an action reads 'pN code [arguments]'", None),
        ('"p2 f"', '"p2 f now"', "action 6 (p2 f now): f takes no arguments", 1),
        (
            '"p3 sd Jc !split"',
            '"p3 sm Jc !split"',
            "action 7 (p3 sm Jc !split): only a draw (sd) may announce a split",
            2,
        ),
        (
            '"p4 sd 7hQs8c"',
            '"p4 sd 7hQsZz"',
            "action 8 (p4 sd 7hQsZz): cannot read card 'Zz' in '7hQsZz': write a rank (2-9, T "
            "or 10, J, Q, K, A) followed by a suit (h, d, c, s or ♥ ♦ ♣ ♠), e.g. 'Ah 10d 7c'",
            3,
        ),
    ],
)
def test_every_load_error_in_a_player_action_is_numbered_alike(
    old: str, new: str, message: str, seat: int | None
) -> None:
    error = load_error(old, new)
    assert str(error) == message
    assert error.seat == seat
    assert error.notation == new.strip('"')
    assert error.index == int(message.split()[1]) - 1


def test_comments_and_empty_strings_are_not_counted() -> None:
    """PHH no-ops ("" and "# ...") and TOML comments are not actions."""
    text = example().replace('  "p2 pass",\n', '  "",\n  "# a remark",\n  "p2 pass",\n')
    with pytest.raises(HistoryError, match=r"^action 3 \(p3 open two\)"):
        loads(text.replace('"p3 open 2"', '"p3 open two"'))


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            '"d dh p3 JcJd8h9hTh"',
            '"d dh p3 JcJd8h9hXx"',
            "dealer line 2 (d dh p3 JcJd8h9hXx): cannot read card 'Xx' in 'JcJd8h9hXx': "
            "write a rank (2-9, T or 10, J, Q, K, A) followed by a suit (h, d, c, s or ♥ ♦ ♣ "
            "♠), e.g. 'Ah 10d 7c'",
        ),
        (
            '"d dh p1 8sTdQh"',
            '"d dh p9 8sTdQh"',
            "dealer line 7 (d dh p9 8sTdQh): 'p9' is not a player p1..p4",
        ),
        (
            '"d dh p4 Kc7dAs"',
            '"d p4 Kc7dAs"',
            "dealer line 6 (d p4 Kc7dAs): a dealer line reads 'd dh pN cards'",
        ),
    ],
)
def test_a_bad_dealer_line_is_numbered_among_dealer_lines(old: str, new: str, message: str) -> None:
    """As replay numbers them ("dealer line 1 gives ..."); a dealer line is no player action."""
    error = load_error(old, new)
    assert str(error) == message
    assert error.index is None


def test_a_dealer_line_before_any_action_says_so() -> None:
    """Replay: the five-card deal of example 2 comes after the blinds (Art. 2), the first
    dealer line of example 1 after action 1; a line moved before every action says so."""
    text = example()
    moved = text.replace(
        '  "p2 decline",\n  "d dh p2 7c8dKs9sAh",\n', '  "d dh p2 7c8dKs9sAh",\n  "p2 decline",\n'
    )
    assert moved != text
    with pytest.raises(HistoryError) as caught:
        replay(loads(moved))
    assert str(caught.value) == (
        "dealer line 1 gives p2 7c 8d Ks 9s Ah before any action, but the deal deals "
        "p2 7c 8d Ks 9s Ah after action 1"
    )


def test_cli_replay_names_the_action_as_the_library_does(tmp_path: Path) -> None:
    path = tmp_path / "bad.phh"
    path.write_text(example().replace('"p3 open 2"', '"p3 open two"'), encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    assert result.stderr == (
        f"error: {path}: action 3 (p3 open two): open needs one amount in whole chips\n"
    )


@pytest.mark.parametrize(("value", "read"), [("[]", []), ('"yes"', "yes"), ("1", 1)])
@pytest.mark.parametrize("option", ["four_straight_flush_opens", "opener_must_prove"])
def test_a_rules_option_that_is_not_true_or_false_is_refused_at_load(
    option: str, value: str, read: object
) -> None:
    """A garbled ``[_rules]`` switch (``four_straight_flush_opens = []``) reached the deal and
    crashed it with ``TypeError: unhashable type: 'list'``; ``"yes"`` passed as true."""
    error = load_error(f"{option} = true", f"{option} = {value}")
    assert str(error) == f"[_rules]: {option} must be true or false, got {read!r}"
    assert error.index is None


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('"p2 f"', '"p² f"', "action 6 (p² f): 'p²' is not a player p1..p4"),
        (
            '"p3 open 2"',
            '"p3 open ²"',
            "action 3 (p3 open ²): open needs one amount in whole chips",
        ),
        (
            '"p3 open 2"',
            '"p3 open ٢"',
            "action 3 (p3 open ٢): open needs one amount in whole chips",
        ),
        (
            'winners = ["p3"]',
            'winners = ["p³"]',
            "field _awards[0].winners: 'p³' is not a player p1..p4",
        ),
    ],
)
def test_players_and_amounts_are_written_in_ascii_digits(old: str, new: str, message: str) -> None:
    """``"p²".isdigit()`` is true but ``int("²")`` fails: a ValueError escaped ``loads``; an
    amount in Arabic-Indic digits was read as a number."""
    assert str(load_error(old, new)) == message
