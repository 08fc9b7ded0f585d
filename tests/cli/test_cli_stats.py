"""``italian-poker stats FOLDER`` as a user meets it: the folder of every session the terminal
game saved (one sub-folder a session, a group's tables), in English and Italian, as JSON;
files that cannot be counted are left out with a warning naming them, and a folder with
nothing to count is one line ``error: ...``, exit code 2."""

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
from italian_poker.engine.history import HandHistory, dumps, dumps_redacted
from italian_poker.engine.match import Match
from italian_poker.engine.rules import Rules, preset
from italian_poker.play.storage import HistoryStore
from italian_poker.table.statistics import statistics_lines, statistics_of
from italian_poker.table.vocabulary import Language

NAMES = ["Anna", "Bruno", "Carla"]


def stats(*args: str) -> Result:
    return CliRunner().invoke(app, ["stats", *args])


def played_match(seed: int, deals: int, names: list[str] = NAMES) -> Match:
    match = Match(preset("standard", players=len(names)), [(n, 80) for n in names], seed=seed)
    bots = {name: make_bot("simple", seed=seed + i) for i, name in enumerate(names)}
    for _ in range(deals):
        match.start_deal()
        while match.actor is not None:
            actor = match.actor
            match.apply(bots[actor].act(match.view(actor)), actor)
    return match


def saved_sessions(root: Path) -> list[HandHistory]:
    """Two sessions the game's store saved under ``root`` (two tables, players in common);
    their histories, in the order of the files."""
    histories = []
    tables = ((1, 4, NAMES), (2, 3, ["Anna", "Dario", "Bruno"]))
    for second, (seed, deals, names) in enumerate(tables):
        store = HistoryStore(root, started=datetime(2026, 12, 1, 10, 0, second))
        for completed in played_match(seed, deals, names).completed:
            store.save(completed)
            histories.append(HandHistory.from_completed(completed))
    return histories


def one_error_line(result: Result) -> str:
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.output
    return lines[0]


def test_stats_of_every_session_in_the_games_folder(tmp_path: Path) -> None:
    """The folder of all sessions holds one folder a session: read them all, together."""
    histories = saved_sessions(tmp_path)
    result = stats(str(tmp_path), "--lang", "en")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    expected = statistics_of(histories)
    assert result.stdout.splitlines() == [
        f"7 hand histories in {tmp_path}",
        *statistics_lines(expected, Language.EN),
    ]
    names = [row.name for row in expected.players]
    assert names == ["Anna", "Bruno", "Carla", "Dario"]
    assert expected.totals.deals == 7
    anna = next(row for row in expected.players if row.name == "Anna")
    assert anna.played == 7


def test_stats_as_json(tmp_path: Path) -> None:
    histories = saved_sessions(tmp_path)
    result = stats(str(tmp_path), "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report == {
        "folder": str(tmp_path),
        "files": 7,
        "skipped": [],
        **statistics_of(histories).to_dict(),
    }
    assert sum(row["net"] for row in report["players"]) == report["totals"]["net"]


def test_stats_in_italian(tmp_path: Path) -> None:
    histories = saved_sessions(tmp_path)
    result = stats(str(tmp_path), "--lang", "it")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == f"7 cronologie di mani in {tmp_path}"
    assert lines[1:] == statistics_lines(statistics_of(histories), Language.IT)
    assert lines[2].startswith("Giocatore  Mani giocate  Aperture")


def test_the_language_follows_the_locale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    saved_sessions(tmp_path)
    monkeypatch.setenv("LC_ALL", "it_IT.UTF-8")
    assert stats(str(tmp_path)).stdout.splitlines()[1] == "Statistiche"
    monkeypatch.setenv("LC_ALL", "C")
    assert stats(str(tmp_path)).stdout.splitlines()[1] == "Statistics"


def test_one_history_file(tmp_path: Path) -> None:
    histories = saved_sessions(tmp_path)
    first = sorted(tmp_path.rglob("*.phh"))[0]
    report = json.loads(stats(str(first), "--json").stdout)
    assert report["totals"]["deals"] == 1
    assert report["players"] == statistics_of(histories[:1]).to_dict()["players"]


def unfinished_history() -> str:
    deal = Deal(DealStart(Rules(), tuple(NAMES), (20, 20, 20)), SeededSource(3))
    deal.apply(Action(ActionKind.DECLINE))
    return dumps(HandHistory.from_deal(deal))


def test_files_that_cannot_be_counted_are_left_out_with_a_warning(tmp_path: Path) -> None:
    """A binary file, a file that is no history, a tampered history, one player's download
    from the server (redacted) and a deal not over: each is named with the reason, on the
    error output; the others are counted and the command succeeds."""
    histories = saved_sessions(tmp_path)
    odd = tmp_path / "odd"
    odd.mkdir()
    (odd / "photo.phh").write_bytes(b"\xff\xd8\xff\xe0 not a history")
    (odd / "notes.phh").write_text("root:x:0:0\n", encoding="utf-8")
    tampered = dumps(histories[0]).replace("finishing_stacks = [", "finishing_stacks = [1")
    (odd / "tampered.phh").write_text(tampered, encoding="utf-8")
    (odd / "mine.phh").write_text(dumps_redacted(histories[0], 0), encoding="utf-8")
    (odd / "unfinished.phh").write_text(unfinished_history(), encoding="utf-8")
    (odd / "folder.phh").mkdir()  # a folder named like a history: passed over
    (odd / "deal-0009.phh.part").write_text("half written", encoding="utf-8")  # not a .phh
    result = stats(str(tmp_path), "--lang", "en")
    assert result.exit_code == 0, result.output
    warnings = result.stderr.splitlines()
    assert histories[0].result is not None
    anna = histories[0].result.stacks[0]  # replay finds the edited stack (a "1" before it)
    assert warnings == [
        f"warning: {odd / 'mine.phh'}: this history is one player's view of the deal "
        "(_redacted = true): the others' cards and the deck are left out, so it cannot be "
        "replayed; left out",
        f"warning: {odd / 'notes.phh'}: not valid TOML: "
        + warnings[1].split("not valid TOML: ", 1)[1],
        f"warning: {odd / 'photo.phh'}: not a text file (UTF-8): byte 0xff at position 0; left out",
        f"warning: {odd / 'tampered.phh'}: the recorded final stacks differ from the replay: "
        f"p1 (Anna) {anna} not 1{anna}; left out",
        f"warning: {odd / 'unfinished.phh'}: the deal is not over; left out",
    ]
    lines = result.stdout.splitlines()
    assert lines[0] == f"12 hand histories in {tmp_path}"
    assert lines[1:] == statistics_lines(statistics_of(histories), Language.EN)
    report = json.loads(stats(str(tmp_path), "--json").stdout)
    assert [item["file"] for item in report["skipped"]] == [
        str(odd / name) for name in ("mine.phh", "notes.phh", "photo.phh")
    ] + [str(odd / "tampered.phh"), str(odd / "unfinished.phh")]
    assert report["skipped"][-1]["reason"] == "the deal is not over"
    assert report["totals"]["deals"] == 7
    italian = stats(str(tmp_path), "--lang", "it").stderr.splitlines()
    assert italian[-1] == f"attenzione: {odd / 'unfinished.phh'}: la mano non è finita; esclusa"


def test_a_file_the_system_refuses_is_left_out_with_its_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    saved_sessions(tmp_path)
    locked = sorted(tmp_path.rglob("*.phh"))[0]
    read_text = Path.read_text

    def refuse(path: Path, *args: object, **kwargs: object) -> str:
        if path == locked:
            raise PermissionError(13, "Permission denied", str(path))
        return read_text(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "read_text", refuse)
    result = stats(str(tmp_path), "--lang", "en")
    assert result.exit_code == 0, result.output
    assert result.stderr == f"warning: {locked}: cannot read: Permission denied; left out\n"
    assert "6 deals:" in result.stdout


def test_a_missing_folder(tmp_path: Path) -> None:
    missing = tmp_path / "nope"
    assert one_error_line(stats(str(missing), "--lang", "en")) == (
        f"error: no such folder: {missing}"
    )
    assert one_error_line(stats(str(missing), "--lang", "it")) == (
        f"errore: cartella inesistente: {missing}"
    )


def test_a_folder_without_histories(tmp_path: Path) -> None:
    (tmp_path / "inner").mkdir()
    (tmp_path / "notes.txt").write_text("no history here", encoding="utf-8")
    assert one_error_line(stats(str(tmp_path), "--lang", "en")) == (
        f"error: no hand histories (*.phh) in {tmp_path} or its folders"
    )


def test_a_folder_where_nothing_can_be_counted(tmp_path: Path) -> None:
    (tmp_path / "a.phh").write_text("", encoding="utf-8")
    (tmp_path / "b.phh").write_text(unfinished_history(), encoding="utf-8")
    result = stats(str(tmp_path), "--lang", "en")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        f"warning: {tmp_path / 'a.phh'}: missing field variant; left out",
        f"warning: {tmp_path / 'b.phh'}: the deal is not over; left out",
        f"error: none of the 2 hand histories in {tmp_path} could be counted",
    ]


def test_a_bad_language(tmp_path: Path) -> None:
    assert one_error_line(stats(str(tmp_path), "--lang", "fr")) == (
        "error: --lang must be it or en, got 'fr'"
    )


def test_the_command_is_listed() -> None:
    result = CliRunner().invoke(app, ["--help"])
    assert "stats" in result.stdout
    help_text = CliRunner().invoke(app, ["stats", "--help"]).stdout
    assert "--json" in help_text and "--lang" in help_text


def test_the_documented_example_is_what_the_command_prints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/playing.md's example: the two deals of docs/hand-history.md in a folder."""
    root = Path(__file__).resolve().parents[2] / "docs"
    deals = re.findall(r"```toml\n(.*?)```", (root / "hand-history.md").read_text("utf-8"), re.S)
    folder = tmp_path / "histories" / "table-1"
    folder.mkdir(parents=True)
    for number, text in enumerate(deals[:2], start=1):
        (folder / f"deal-{number:04d}.phh").write_text(text, encoding="utf-8")
    example = re.search(
        r"```console\n\$ italian-poker stats (.*?)\n(.*?)```",
        (root / "playing.md").read_text("utf-8"),
        re.S,
    )
    assert example is not None
    monkeypatch.chdir(tmp_path)
    result = stats(*example.group(1).split())
    assert result.exit_code == 0, result.output
    assert result.stdout == example.group(2)
