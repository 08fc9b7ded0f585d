"""``italian-poker verify``: a line per deal (verified, unrevealed, failed, no fair deck), the
reveal files found beside the histories or named, the exit codes (docs/fairness.md)."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

from typer.testing import CliRunner, Result

from italian_poker.cli.app import app
from italian_poker.engine.cards import parse_card
from italian_poker.engine.history import HandHistory, dumps
from italian_poker.engine.history.fairness import dumps_reveals

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
from test_fair_deck import fair_match


def verify(*args: str) -> Result:
    return CliRunner().invoke(app, ["verify", *args])


def write_deals(folder: Path, *, reveal: bool) -> list[Path]:
    """The deals of a five-player fair match as histories in ``folder``, with the seeds
    (``reveal``) or without."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for done, source in fair_match(5, 5):
        history = HandHistory.from_completed(done)
        path = folder / f"deal-{done.number:04d}.phh"
        path.write_text(dumps(dataclasses.replace(history, fair=source.record(reveal=reveal))))
        paths.append(path)
    return paths


def test_revealed_deals_are_verified(tmp_path: Path) -> None:
    paths = write_deals(tmp_path / "session", reveal=True)
    result = verify(str(tmp_path))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[:-1] == [f"deal {k + 1}: verified ({p})" for k, p in enumerate(paths)]
    assert lines[-1] == f"{len(paths)} verified"


def test_unrevealed_deals_wait_for_a_reveal_file_found_or_named(tmp_path: Path) -> None:
    paths = write_deals(tmp_path / "session", reveal=False)
    result = verify(str(tmp_path))
    assert result.exit_code == 0
    assert f"deal 1: unrevealed: the seed is not revealed ({paths[0]})" in result.output
    reveal = tmp_path / "elsewhere" / "seeds.reveal"
    reveal.parent.mkdir()
    reveal.write_text(dumps_reveals(s.record(reveal=True) for _, s in fair_match(5, 5)))
    named = verify(str(paths[1]), str(reveal))
    assert named.exit_code == 0 and named.output.splitlines() == [
        f"deal 2: verified ({paths[1]})",
        "1 verified",
    ]
    reveal.rename(paths[0].parent / "seeds.reveal")
    found = verify(str(tmp_path))
    assert found.output.splitlines()[-1] == f"{len(paths)} verified"


def test_a_swapped_card_fails_naming_the_deal_and_the_card(tmp_path: Path) -> None:
    path = write_deals(tmp_path, reveal=True)[0]
    text = path.read_text()
    line = next(line for line in text.splitlines() if line.startswith('  "d dh p'))
    held = line.split()[3]
    other = next(c for c in ("6s", "6c", "6d", "6h", "7s", "7c") if c not in held)
    path.write_text(text.replace(line, line.replace(held[:2], other, 1), 1))
    result = verify(str(path))
    assert result.exit_code == 1
    first = parse_card(held[:2]).symbol
    assert result.output.startswith(
        f"deal 1: failed: card 1 (the deal to seat {line.split()[2][1:]}, "
    )
    assert f") is {parse_card(other).symbol}, the deck gives {first} ({path})" in result.output
    assert result.output.splitlines()[-1] == "0 verified, 1 failed"


def test_a_history_without_a_fair_deck_fails(tmp_path: Path) -> None:
    path = tmp_path / "plain.phh"
    path.write_text(dumps(HandHistory.from_completed(fair_match(5, 5)[0][0])))
    result = verify(str(path))
    assert result.exit_code == 1
    assert "deal 1: no fair deck: the history records no commitment" in result.output


def test_a_bad_reveal_file_fails(tmp_path: Path) -> None:
    write_deals(tmp_path, reveal=False)
    (tmp_path / "seeds.reveal").write_text('variant = "ITA"\n')
    result = verify(str(tmp_path))
    assert result.exit_code == 1
    assert "seeds.reveal: failed: not a reveal file" in result.output


def test_a_missing_path_or_no_history_is_a_usage_error(tmp_path: Path) -> None:
    missing = verify(str(tmp_path / "nowhere"))
    assert missing.exit_code == 2 and "no such file or folder" in missing.output
    empty = verify(str(tmp_path))
    assert empty.exit_code == 2 and "no .phh files in" in empty.output
