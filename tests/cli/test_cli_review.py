"""``italian-poker review FILE_OR_FOLDER`` as a user meets it: the terminal game's folder of
sessions, the player by name or seat, English and Italian, JSON, and one line ``error: ...``
(exit code 2) for what cannot be reviewed; files that cannot be replayed (a redacted view)
are named and left out."""

from __future__ import annotations

import json
from pathlib import Path

from review_fixtures import bot_session, flush_deal, write
from typer.testing import CliRunner, Result

from italian_poker.analysis.review import review, review_lines
from italian_poker.cli.app import app
from italian_poker.engine.history import dumps_redacted, loads
from italian_poker.table.vocabulary import Language


def run(*args: str) -> Result:
    return CliRunner().invoke(app, ["review", *args])


def one_error_line(result: Result) -> str:
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.output
    return lines[0]


def test_review_of_the_games_folder_names_the_player_the_game_saves(tmp_path: Path) -> None:
    """No --player: the terminal game's own name (Player / Giocatore) is reviewed."""
    paths = bot_session(tmp_path, deals=5)
    result = run(str(tmp_path), "--lang", "en")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    histories = [(str(p), loads(p.read_text(encoding="utf-8"))) for p in paths]
    expected = review(histories, "Player")
    assert result.stdout.splitlines() == [
        f"5 hand histories in {tmp_path}",
        *review_lines(expected, Language.EN),
    ]


def test_the_known_deal_shows_the_flush_thrown_away(tmp_path: Path) -> None:
    file = write(tmp_path / "flush.phh", flush_deal())
    result = run(str(file), "--player", "P2", "--lang", "en")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[1] == "Review of P2: 1 deal, 3 decisions reviewed, 2 as advised"
    assert lines[4].startswith(f"- {file}, action 6: kept Jh Qh Kh (win ")
    assert "the advisor keeps 7h 9h Jh Qh Kh" in lines[4]
    by_seat = run(str(file), "--seat", "3", "--lang", "en")  # P2 sits in p3
    assert by_seat.stdout == result.stdout


def test_review_as_json(tmp_path: Path) -> None:
    file = write(tmp_path / "flush.phh", flush_deal())
    report = json.loads(run(str(file), "--player", "P2", "--json").stdout)
    assert set(report) == {
        "path", "files", "skipped", "player", "deals", "decisions", "matched", "loss",
        "loss_per_deal", "worst", "reviewed",
    }  # fmt: skip
    assert (report["files"], report["deals"], report["decisions"], report["matched"]) == (
        1,
        1,
        3,
        2,
    )
    draw = report["reviewed"][1]
    assert set(draw) == {
        "deal", "number", "action", "phase", "reference", "done", "advised", "value",
        "best_value", "pot", "to_call", "matched", "loss", "kept", "best_keep",
    }  # fmt: skip
    assert draw["reference"] == "draw" and draw["kept"] == ["Jh", "Qh", "Kh"]
    assert draw["best_keep"] == ["7h", "9h", "Jh", "Qh", "Kh"]
    assert report["worst"] == [draw]
    assert report["loss"] == draw["loss"] > 0
    assert all("kept" not in d for d in report["reviewed"] if d["reference"] != "draw")


def test_review_in_italian(tmp_path: Path) -> None:
    file = write(tmp_path / "flush.phh", flush_deal())
    lines = run(str(file), "--player", "P2", "--lang", "it").stdout.splitlines()
    assert lines[0] == f"1 cronologia di mano in {file}"
    assert lines[1] == "Revisione di P2: 1 mano, 3 decisioni riviste, 2 come consigliato"
    assert lines[3] == "Decisioni più costose:"
    assert "il consigliere tiene 7h 9h Jh Qh Kh" in lines[4]


def test_a_redacted_history_is_named_and_left_out(tmp_path: Path) -> None:
    history = flush_deal()
    write(tmp_path / "full.phh", history)
    (tmp_path / "mine.phh").write_text(dumps_redacted(history, 2), encoding="utf-8")
    result = run(str(tmp_path), "--player", "P2", "--lang", "en")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [
        f"warning: {tmp_path / 'mine.phh'}: one player's view of the deal (the others' cards "
        "and the deck are unknown): it cannot be replayed, so it cannot be reviewed; "
        "not reviewed"
    ]
    assert result.stdout.splitlines()[-1] == "1 file not reviewed (named above)"
    report = json.loads(run(str(tmp_path), "--player", "P2", "--json").stdout)
    assert [s["file"] for s in report["skipped"]] == [str(tmp_path / "mine.phh")]
    only = tmp_path / "only"
    only.mkdir()
    (only / "mine.phh").write_text(dumps_redacted(history, 2), encoding="utf-8")
    alone = run(str(only), "--lang", "en")
    assert alone.exit_code == 2 and alone.stdout == ""
    warning, error = alone.stderr.splitlines()
    assert warning.startswith(f"warning: {only / 'mine.phh'}: one player's view of the deal")
    assert error == f"error: none of the 1 hand history in {only} could be reviewed"


def test_errors(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    assert one_error_line(run(str(missing), "--lang", "en")) == (
        f"error: no such file or folder: {missing}"
    )
    assert one_error_line(run(str(tmp_path), "--lang", "it")) == (
        f"errore: nessuna cronologia di mano (*.phh) in {tmp_path} né nelle sue cartelle"
    )
    write(tmp_path / "flush.phh", flush_deal())
    assert one_error_line(run(str(tmp_path), "--player", "Zoe", "--lang", "en")) == (
        "error: 'Zoe' was dealt in none of these deals; the histories name: P0, P1, P2, P3 "
        "(choose one with --player)"
    )
    assert one_error_line(run(str(tmp_path), "--lang", "en")) == (
        "error: 'Player' was dealt in none of these deals; the histories name: P0, P1, P2, P3 "
        "(choose one with --player)"
    )
    assert one_error_line(run(str(tmp_path), "--seat", "5", "--lang", "en")) == (
        "error: --seat must be 1 to 4, got 5"
    )
    assert one_error_line(run(str(tmp_path), "--seat", "1", "--player", "P0", "--lang", "en")) == (
        "error: give --player or --seat, not both"
    )


def test_unreadable_and_tampered_files_are_named_and_left_out(tmp_path: Path) -> None:
    history = flush_deal()
    write(tmp_path / "a.phh", history)
    (tmp_path / "b.phh").write_bytes(b"\xff\xfe binary")
    tampered = (
        (tmp_path / "a.phh")
        .read_text(encoding="utf-8")
        .replace("finishing_stacks = [", "finishing_stacks = [1")
    )
    (tmp_path / "c.phh").write_text(tampered, encoding="utf-8")
    result = run(str(tmp_path), "--player", "P2", "--lang", "it")
    assert result.exit_code == 0, result.output
    warnings = result.stderr.splitlines()
    assert [w.split(": ")[1] for w in warnings] == [
        str(tmp_path / "b.phh"),
        str(tmp_path / "c.phh"),
    ]
    assert warnings[0].startswith("attenzione: ") and warnings[0].endswith("; non rivista")
    assert "non è un file di testo (UTF-8): byte 0xff alla posizione 0" in warnings[0]
    lines = result.stdout.splitlines()
    assert lines[1] == "Revisione di P2: 1 mano, 3 decisioni riviste, 2 come consigliato"
    assert lines[-1] == "2 file non rivisti (indicati sopra)"
