"""The replay hint of the session summary names a command that works where the player is:
after ``make play`` the program is ``.venv/bin/italian-poker`` and ``italian-poker`` is not on
the PATH, so the hint must not say ``italian-poker replay``."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

from test_play_session import FULL_DEAL_HANDS, FULL_DEAL_STOCK, deck, new_session, play_full_deal

from italian_poker.play.explain import summary_lines
from italian_poker.play.storage import HistoryStore, replay_command
from italian_poker.table.vocabulary import Language

INSTALLED = Path(sys.executable).parent / "italian-poker"
"""The script this test run's environment installed (beside its Python)."""


def script(folder: Path) -> Path:
    """A stand-in for the installed script in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "italian-poker"
    path.write_text("#!/bin/sh\n", encoding="utf-8")
    return path


def nowhere(name: str) -> str | None:
    """A PATH on which nothing is found."""
    return None


def test_replay_hint_after_make_play_names_the_venv_script(tmp_path: Path) -> None:
    script(tmp_path / ".venv" / "bin")
    command = replay_command(
        ".venv/bin/italian-poker", cwd=tmp_path, environ={"PWD": str(tmp_path)}, which=nowhere
    )
    assert command == ".venv/bin/italian-poker"


def test_replay_hint_is_the_bare_name_when_the_path_finds_this_program(tmp_path: Path) -> None:
    program = script(tmp_path / "bin")
    command = replay_command(
        str(program), cwd=tmp_path / "elsewhere", environ={}, which=lambda _: str(program)
    )
    assert command == "italian-poker"


def test_replay_hint_is_a_path_when_the_path_finds_another_install(tmp_path: Path) -> None:
    mine = script(tmp_path / "project" / ".venv" / "bin")
    other = script(tmp_path / "usr" / "bin")
    command = replay_command(
        str(mine), cwd=tmp_path / "project", environ={}, which=lambda _: str(other)
    )
    assert command == ".venv/bin/italian-poker"


def test_replay_hint_is_absolute_outside_the_current_folder(tmp_path: Path) -> None:
    program = script(tmp_path / "project" / ".venv" / "bin")
    here = tmp_path / "home"
    here.mkdir()
    assert replay_command(str(program), cwd=here, environ={}, which=nowhere) == str(program)


def test_replay_hint_is_absolute_when_the_shell_is_in_another_folder(tmp_path: Path) -> None:
    """``make -C project play``: the program runs in ``project`` but the player's shell (PWD)
    is elsewhere, so a path relative to ``project`` would not work for them."""
    program = script(tmp_path / "project" / ".venv" / "bin")
    command = replay_command(
        ".venv/bin/italian-poker",
        cwd=tmp_path / "project",
        environ={"PWD": str(tmp_path)},
        which=nowhere,
    )
    assert command == str(program)


def test_replay_hint_in_the_current_folder_starts_with_dot_slash(tmp_path: Path) -> None:
    script(tmp_path)
    # A bare name is what the shell found on the PATH.
    assert replay_command("italian-poker", cwd=tmp_path, environ={}, which=nowhere) == (
        "italian-poker"
    )
    assert replay_command("./italian-poker", cwd=tmp_path, environ={}, which=nowhere) == (
        "./italian-poker"
    )


def test_replay_hint_quotes_a_path_with_spaces(tmp_path: Path) -> None:
    program = script(tmp_path / "my games" / "bin")
    command = replay_command(str(program), cwd=tmp_path / "x", environ={}, which=nowhere)
    assert shlex.split(command) == [str(program)]


def test_replay_hint_when_not_started_as_the_script(tmp_path: Path) -> None:
    """Started some other way (``python -c``, a test runner): the script beside the running
    Python, else the bare name."""
    program = script(tmp_path / "venv" / "bin")
    python = program.parent / "python"
    command = replay_command(
        "-c", cwd=tmp_path / "x", environ={}, which=nowhere, executable=str(python)
    )
    assert command == str(program)
    lonely = tmp_path / "lonely" / "python"
    assert (
        replay_command("-c", cwd=tmp_path, environ={}, which=nowhere, executable=str(lonely))
        == "italian-poker"
    )


def test_summary_hint_names_the_given_command(tmp_path: Path) -> None:
    session, _ = new_session(store=HistoryStore(tmp_path))
    session.start_deal(deck=deck(FULL_DEAL_HANDS, FULL_DEAL_STOCK))
    play_full_deal(session)
    summary = session.summary()
    assert summary.histories is not None
    for lang in Language:
        (line,) = [
            line
            for line in summary_lines(summary, lang, command=".venv/bin/italian-poker")
            if str(summary.histories) in line
        ]
        assert f".venv/bin/italian-poker replay {summary.histories}" in line


def test_the_hinted_command_replays_the_session(tmp_path: Path) -> None:
    """The command named for this very environment, run from the project folder as the
    hint says, verifies the saved deals."""
    session, _ = new_session(store=HistoryStore(tmp_path / "histories"))
    session.start_deal(deck=deck(FULL_DEAL_HANDS, FULL_DEAL_STOCK))
    play_full_deal(session)
    folder = session.summary().histories
    assert folder is not None
    project = Path.cwd()
    relative = os.path.relpath(INSTALLED, project)
    command = replay_command(relative, cwd=project, environ={"PWD": str(project)}, which=nowhere)
    assert command == (str(INSTALLED) if relative.startswith("..") else relative)
    result = subprocess.run(
        [*shlex.split(command), "replay", str(folder)],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Verified" in result.stdout
