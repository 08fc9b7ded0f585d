"""``italian-poker replay`` as a user meets it: histories written by the library and by the
terminal game's store, and the files and folders that are not histories. Every failure is
exit code 2 and one line ``error: ...``."""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from italian_poker.analysis.bots import make_bot
from italian_poker.cli.app import app
from italian_poker.engine.actions import Action, ActionKind
from italian_poker.engine.card_source import SeededSource
from italian_poker.engine.deal import Deal, DealStart
from italian_poker.engine.history import HandHistory, HistoryError, dumps, dumps_redacted, loads
from italian_poker.engine.match import Match
from italian_poker.engine.rules import Rules, preset
from italian_poker.play.storage import HistoryStore

DOCS = Path(__file__).resolve().parents[2] / "docs" / "hand-history.md"
NAMES = ["Anna", "Bruno", "Carla"]


def replay(*args: str) -> Result:
    return CliRunner().invoke(app, ["replay", *args])


def example() -> str:
    return re.findall(r"```toml\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S)[0]


def one_error_line(result: Result) -> str:
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.output
    return lines[0]


def played_match(rules: str, deals: int) -> Match:
    match = Match(preset(rules, players=3), [(n, 80) for n in NAMES], seed=9)
    bots = {name: make_bot("simple", seed=i) for i, name in enumerate(NAMES)}
    for _ in range(deals):
        match.start_deal()
        while match.actor is not None:
            actor = match.actor
            match.apply(bots[actor].act(match.view(actor)), actor)
    return match


@pytest.mark.parametrize("rules", ["standard", "001", "003"])
def test_replay_verifies_a_session_the_game_saved(tmp_path: Path, rules: str) -> None:
    """The terminal game's store writes one folder per session; replay takes the folder."""
    match = played_match(rules, 4)
    store = HistoryStore(tmp_path, started=datetime(2026, 12, 1, 10, 0, 0))
    for completed in match.completed:
        store.save(completed)
    assert store.directory is not None
    result = replay(str(store.directory), "--json")
    assert result.exit_code == 0, result.output
    assert [s["final_stacks"] for s in json.loads(result.stdout)] == [
        list(c.result.stacks) for c in match.completed
    ]
    text = replay(str(store.directory / "deal-0001.phh"))
    assert text.exit_code == 0, text.output
    assert text.stdout.splitlines()[-1].startswith("Verified: every action replays")


def test_replay_of_the_games_histories_folder_names_its_session_folders(tmp_path: Path) -> None:
    """The folder of all sessions holds folders, not files: say where the files are."""
    store = HistoryStore(tmp_path, started=datetime(2026, 12, 1, 10, 0, 0))
    store.save(played_match("standard", 1).completed[0])
    line = one_error_line(replay(str(tmp_path)))
    assert line == (
        f"error: no .phh files in {tmp_path}; its folders hold some "
        f"(replay one of them, e.g. {tmp_path / '2026-12-01_10-00-00'})"
    )


def test_replay_of_an_empty_folder_or_a_missing_file(tmp_path: Path) -> None:
    assert one_error_line(replay(str(tmp_path))) == f"error: no .phh files in {tmp_path}"
    missing = tmp_path / "nope.phh"
    line = one_error_line(replay(str(missing)))
    assert line == f"error: {missing}: cannot read: No such file or directory"


def test_replay_refuses_one_players_view_clearly(tmp_path: Path) -> None:
    """The server's download of a history is one player's view (others' cards ``??``, no
    deck): it cannot replay, and the error said only that _deck was not an array of cards."""
    history = HandHistory.from_completed(played_match("standard", 1).completed[0])
    text = dumps_redacted(history, 0)
    message = (
        "this history is one player's view of the deal (_redacted = true): the others' "
        "cards and the deck are left out, so it cannot be replayed"
    )
    with pytest.raises(HistoryError) as info:
        loads(text)
    assert str(info.value) == message
    path = tmp_path / "mine.phh"
    path.write_text(text, encoding="utf-8")
    assert one_error_line(replay(str(path))) == f"error: {path}: {message}"


def test_replay_reads_a_file_saved_with_a_byte_order_mark(tmp_path: Path) -> None:
    """Some Windows editors start UTF-8 files with a byte order mark: it was 'not valid TOML:
    Invalid statement (at line 1, column 1)'."""
    path = tmp_path / "bom.phh"
    path.write_bytes(b"\xef\xbb\xbf" + example().encode("utf-8"))
    result = replay(str(path))
    assert result.exit_code == 0, result.output
    assert loads("\ufeff" + example()) == loads(example())


def test_replay_of_a_binary_file_says_it_is_not_text(tmp_path: Path) -> None:
    """It printed Python's "'utf-8' codec can't decode byte 0xff in position 0: invalid
    start byte"."""
    path = tmp_path / "photo.phh"
    path.write_bytes(b"\xff\xd8\xff\xe0 not a history")
    line = one_error_line(replay(str(path)))
    assert line == f"error: {path}: not a text file (UTF-8): byte 0xff at position 0"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "missing field variant"),
        ("root:x:0:0:root:/root:/bin/bash\n", "not valid TOML: "),
        ('variant = "ITA"\n', "missing table [_rules]"),
    ],
)
def test_replay_of_a_file_that_is_no_history(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "x.phh"
    path.write_text(content, encoding="utf-8")
    assert one_error_line(replay(str(path))).startswith(f"error: {path}: {message}")


def test_replay_of_a_folder_named_like_a_history(tmp_path: Path) -> None:
    folder = tmp_path / "inner.phh"
    folder.mkdir()
    assert one_error_line(replay(str(folder))) == f"error: no .phh files in {folder}"
    (tmp_path / "a.phh").write_text(example(), encoding="utf-8")
    result = replay(str(tmp_path), "--json")  # the folder is no file: passed over
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["file"] == str(tmp_path / "a.phh")


def test_replay_of_an_unfinished_deal_does_not_claim_a_result(tmp_path: Path) -> None:
    """It said "the result matches" of a deal that has no result yet."""
    deal = Deal(DealStart(Rules(), tuple(NAMES), (20, 20, 20)), SeededSource(3))
    deal.apply(Action(ActionKind.DECLINE))
    path = tmp_path / "unfinished.phh"
    path.write_text(dumps(HandHistory.from_deal(deal)), encoding="utf-8")
    result = replay(str(path))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-2:] == [
        "The deal is not over.",
        "Verified: every action replays (unfinished.phh); the deal is not over, so there is "
        "no result to check.",
    ]
