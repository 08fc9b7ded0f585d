"""The saved hand histories the analysis commands read (``stats``, ``review``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from italian_poker.engine.errors import ItalianPokerError
from italian_poker.engine.vocabulary import Language

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from italian_poker.engine.history import HandHistory


def history_files(
    target: str, stop: Callable[..., typer.Exit], missing: str, empty: str
) -> list[Path]:
    """The saved histories ``target`` names: that file, or every ``.phh`` file in that folder
    and its sub-folders, sorted; raises ``stop(missing)`` or ``stop(empty)`` (with
    ``path=target``) when there is no such path or no history in it."""
    from pathlib import Path

    path = Path(target)
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise stop(missing, path=target)
    files = sorted(f for f in path.rglob("*.phh") if f.is_file())
    if not files:
        raise stop(empty, path=target)
    return files


def read_history(
    file: Path, language: Language, *, redacted: str | None = None
) -> HandHistory | str:
    """The history saved in ``file``, replayed by the rules; or, in ``language``, why it can't
    be read (with ``redacted``, the vocabulary's reason for a redacted player's view)."""
    import tomllib

    from italian_poker.analysis.i18n import tr
    from italian_poker.engine.history import loads
    from italian_poker.engine.history import replay as replay_history

    try:
        text = file.read_text(encoding="utf-8")
        if redacted is not None:
            try:
                hidden = tomllib.loads(text.removeprefix("\ufeff")).get("_redacted") is True
            except tomllib.TOMLDecodeError:
                hidden = False  # loads names the problem
            if hidden:
                return tr(language, redacted)
        history = loads(text)
        replay_history(history)  # what is read is what the rules allow
    except OSError as error:
        return tr(language, "stats_cannot_read", reason=error.strerror or str(error))
    except UnicodeDecodeError as error:
        byte, position = error.object[error.start], error.start
        return tr(language, "stats_not_text", byte=byte, position=position)
    except ItalianPokerError as error:
        return str(error)
    return history
