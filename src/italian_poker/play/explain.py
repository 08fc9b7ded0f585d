"""Words for what happened, for the terminal game: the table layer's narration.

Everything here is :mod:`italian_poker.table.narration` (re-exported so that the names the
terminal game has always had keep working), except :func:`summary_lines`, whose replay hint
names the command that works where the player is
(:func:`italian_poker.play.storage.replay_command`).
"""

from __future__ import annotations

from italian_poker.play.storage import replay_command
from italian_poker.table import narration
from italian_poker.table.events import SessionSummary
from italian_poker.table.narration import AwardExplanation as AwardExplanation
from italian_poker.table.narration import WinReason as WinReason
from italian_poker.table.narration import award_line as award_line
from italian_poker.table.narration import cards_text as cards_text
from italian_poker.table.narration import deal_report as deal_report
from italian_poker.table.narration import describe_event as describe_event
from italian_poker.table.narration import explain_award as explain_award
from italian_poker.table.narration import reason_text as reason_text
from italian_poker.table.vocabulary import Language


def summary_lines(
    summary: SessionSummary, lang: Language, *, command: str | None = None
) -> list[str]:
    """The session summary shown on quitting (after an error, it says so first).
    ``command`` is how the replay hint names the program (default: :func:`replay_command`,
    the command that works where the player is)."""
    program = replay_command() if command is None else command
    return narration.summary_lines(summary, lang, command=program)
