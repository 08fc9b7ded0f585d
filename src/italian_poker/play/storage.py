"""Where the terminal game keeps its files: every completed deal's hand history.

The data directory is the table layer's (:func:`~italian_poker.table.paths.data_dir`:
``$ITALIAN_POKER_DATA_DIR`` or the platform's). Each session writes its
deals into its own folder ``histories/<date>_<time>/deal-0001.phh``, ... whose names sort
by time, and which
``italian-poker replay`` verifies file by file or as a folder; :func:`replay_command` names
that command as the player can type it where they are. The seeds of the session's fair decks
go to ``seeds.reveal`` in that folder when the table closes (``italian-poker verify``,
docs/fairness.md).
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path

from italian_poker.engine.fair_source import FairDeck
from italian_poker.engine.history import HandHistory, dumps
from italian_poker.engine.history.fairness import dumps_reveals
from italian_poker.engine.match import CompletedDeal
from italian_poker.table.paths import APP_NAME, data_dir


def histories_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The folder holding one sub-folder of hand histories per session."""
    return data_dir(environ) / "histories"


REVEAL_FILENAME = "seeds.reveal"
"""The session folder's reveal file: the seeds of its fair decks, written at the table's close
(docs/fairness.md)."""


def history_filename(number: int) -> str:
    """The file name of deal ``number`` of a session: ``deal-0001.phh``."""
    return f"deal-{number:04d}.phh"


@dataclass(slots=True)
class HistoryStore:
    """Saves a session's completed deals in ``root/<started>`` (created at the first save;
    a ``-2``, ``-3``, ... suffix keeps two sessions started in the same second apart)."""

    root: Path
    started: datetime = field(default_factory=datetime.now)
    directory: Path | None = None
    """The session's folder once created."""

    @classmethod
    def default(cls, environ: Mapping[str, str] | None = None) -> HistoryStore:
        """A store under :func:`histories_dir`."""
        return cls(histories_dir(environ))

    @property
    def session_name(self) -> str:
        """The session folder's base name, e.g. ``2025-01-31_21-05-09``."""
        return self.started.strftime("%Y-%m-%d_%H-%M-%S")

    def session_directory(self) -> Path:
        """The session's folder, created on first use."""
        if self.directory is not None:
            return self.directory
        self.root.mkdir(parents=True, exist_ok=True)
        base = self.session_name
        suffix = 1
        while True:
            candidate = self.root / (base if suffix == 1 else f"{base}-{suffix}")
            try:
                candidate.mkdir()
            except FileExistsError:
                suffix += 1
                continue
            self.directory = candidate
            return candidate

    def save(self, completed: CompletedDeal, *, fair: FairDeck | None = None) -> Path:
        """Write ``completed`` as a hand history (docs/hand-history.md), with the record of
        its ``fair`` deck if any (docs/fairness.md); returns its path. Raises
        :class:`OSError` if the file cannot be written."""
        history = HandHistory.from_completed(completed)
        if fair is not None:
            history = replace(history, fair=fair)
        path = self.session_directory() / history_filename(completed.number)
        return _write(path, dumps(history))

    def save_reveals(self, decks: Sequence[FairDeck]) -> Path:
        """Write the seeds of ``decks`` to the session's reveal file, ``seeds.reveal``
        (docs/fairness.md); returns its path. Raises :class:`OSError` if it cannot be
        written."""
        return _write(self.session_directory() / REVEAL_FILENAME, dumps_reveals(decks))


def _write(path: Path, text: str) -> Path:
    """Write ``text`` to ``path`` whole (through a ``.part`` file renamed)."""
    partial = path.with_name(path.name + ".part")
    partial.write_text(text, encoding="utf-8")
    partial.replace(path)
    return path


def replay_command(
    argv0: str | None = None,
    *,
    cwd: Path | None = None,
    environ: Mapping[str, str] | None = None,
    which: Callable[[str], str | None] = shutil.which,
    executable: str | None = None,
) -> str:
    """The command that runs this program, as the player can type it in their shell, for
    the replay hint: ``italian-poker`` when that name on the PATH is this very program;
    otherwise the path of the program that is running (``sys.argv[0]``, e.g.
    ``.venv/bin/italian-poker`` after ``make play``, which puts nothing on the PATH),
    relative to the current folder when it lies inside it and the player's shell is there
    too (``$PWD``; not so after ``make -C``), else absolute; quoted for the shell. Started
    some other way than as the script, the script beside the running Python is named."""
    argv0 = sys.argv[0] if argv0 is None else argv0
    here = Path.cwd() if cwd is None else cwd
    env = os.environ if environ is None else environ
    program = Path(argv0)
    if program.name.removesuffix(".exe") != APP_NAME:
        beside = Path(sys.executable if executable is None else executable).parent / APP_NAME
        if not beside.is_file():
            return APP_NAME
        program = beside
    elif not any(sep and sep in argv0 for sep in (os.sep, os.altsep)):
        return APP_NAME  # a bare name: the shell found it on the PATH
    program = Path(os.path.normpath(here / program))  # keeps the venv's own links
    found = which(APP_NAME)
    if found is not None and _same_file(Path(found), program):
        return APP_NAME
    shell = env.get("PWD", "")
    shell_here = not shell or _same_file(Path(shell), here)
    try:
        relative = program.relative_to(here) if shell_here else None
    except ValueError:
        relative = None
    if relative is None:
        return shlex.quote(str(program))
    text = str(relative)
    return shlex.quote(text if os.sep in text else f".{os.sep}{text}")


def _same_file(one: Path, other: Path) -> bool:
    """Whether two paths name the same file (False if either is missing)."""
    try:
        return os.path.samefile(one, other)
    except OSError:
        return False
