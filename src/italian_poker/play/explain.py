"""The terminal game's session summary: the table layer's (:mod:`italian_poker.table.narration`)
with a replay hint that names the command that works where the player is
(:func:`italian_poker.play.storage.replay_command`)."""

from __future__ import annotations

from italian_poker.play.storage import replay_command
from italian_poker.table import narration
from italian_poker.table.events import SessionSummary
from italian_poker.table.vocabulary import Language


def summary_lines(
    summary: SessionSummary, lang: Language, *, command: str | None = None
) -> list[str]:
    """The session summary shown on quitting (after an error, it says so first).
    ``command`` is how the replay hint names the program (default: :func:`replay_command`,
    the command that works where the player is)."""
    program = replay_command() if command is None else command
    return narration.summary_lines(summary, lang, command=program)
