"""The terminal game (Textual): the app that plays a :class:`Session` full screen on the table
(:mod:`~italian_poker.play.table_screen`), its style, and the run that returns the session
summary."""

from __future__ import annotations

import dataclasses
import os
import sys

from textual.app import App
from textual.screen import Screen

from italian_poker.play.i18n import tr
from italian_poker.play.screens import HELP_SCREEN, HelpScreen
from italian_poker.play.session import Session
from italian_poker.play.table_screen import TableScreen
from italian_poker.table.advice import Advisor
from italian_poker.table.events import SessionSummary
from italian_poker.table.vocabulary import Language

CSS = """
TableScreen { background: #10241b; color: #d8dee9; }
#status { height: auto; background: #1b3a2c; color: #e5e9f0; padding: 0 1; }
#seats { layout: grid; grid-size: 4; grid-gutter: 0 1; height: auto; padding: 0 1; }
SeatBox { border: round #4c6b5c; height: 7; padding: 0 1; background: #143024; }
SeatBox.human { border: round #7aa2f7; }
SeatBox.actor { border: heavy #e0af68; background: #1d3b2d; }
SeatBox.folded { color: #7a8a82; }
SeatBox.out { color: #5a6a62; border: round #2f4a3e; }
#centre { height: 1; margin: 1 0 0 0; content-align: center middle; }
#hand-row { height: 6; padding: 0 1; margin: 1 0 0 0; }
CardBox { width: 11; height: 5; border: round #a9a49a; background: #f4f1ea; padding: 0 1;
          margin-right: 1; border-subtitle-color: #1a1b26; border-subtitle-style: bold; }
CardBox.selected { border: heavy #e0af68; background: #fff1c2; }
CardBox.empty { background: #10241b; border: round #2f4a3e; }
CardBox.back { background: #24283b; border: round #7aa2f7; }
CardBox.pending { border: round #e0af68; }
#hand-info { width: 1fr; padding: 1 2; }
#prompt { height: auto; min-height: 1; padding: 0 1; color: #e5e9f0; }
#actions { height: 3; padding: 0 1; }
#actions Button { margin-right: 1; min-width: 8; height: 3; }
#actions .command { background: #2e4a3d; }
#amount { width: 26; display: none; }
#amount.visible { display: block; }
#message { height: auto; min-height: 1; padding: 0 1; color: #f7768e; }
#bottom { height: 1fr; }
#log { width: 1fr; border: round #2f4a3e; background: #0c1c15;
       scrollbar-size-vertical: 1; scrollbar-background: #0c1c15; scrollbar-color: #2f4a3e; }
#report { width: 1fr; height: 1fr; border: round #2f4a3e; padding: 0 1; background: #0c1c15; }
#hint { height: 1; dock: bottom; background: #1b3a2c; color: #b7c4bd; padding: 0 1; }
HelpScreen, SummaryScreen { align: center middle; }
#help-box, #summary-box { width: 90%; height: 90%; border: round #7aa2f7;
                          background: #141d2b; padding: 0 1; }
#summary-box { height: auto; max-height: 90%; }
#help-title, #summary-title { text-style: bold; height: 1; color: #e0af68; }
#help-scroll { height: 1fr; }
#help-close, #summary-close { height: 1; color: #b7c4bd; }
"""


TERMINAL_CHECK_SECONDS = 1.0
"""How often the game looks whether its terminal is still there."""


def terminal_open() -> bool:
    """Whether the game's terminal (standard input, which Textual reads) is still there: a
    closed window or a dropped connection hangs it up, and it is no terminal any more."""
    stream = sys.__stdin__
    try:
        return stream is not None and os.isatty(stream.fileno())
    except (OSError, ValueError):
        return False


class PokerApp(App[SessionSummary]):
    """The terminal game. ``delay`` is the pause before each bot action (0 in tests);
    ``advisor`` gives the advice at the human's draw (None: off); the app's return value is
    the session summary."""

    CSS = CSS
    TITLE = "Italian Poker"

    def __init__(
        self,
        session: Session,
        *,
        lang: Language = Language.EN,
        four_colour: bool = False,
        delay: float = 0.7,
        advisor: Advisor | None = None,
    ) -> None:
        super().__init__()
        self.session = session
        self.advisor = advisor
        self.lang = lang
        self.four_colour = four_colour
        self.delay = delay
        self.title = tr(lang, "title")

    def on_mount(self) -> None:
        # The help is built once and kept: opening it again is instant.
        self.install_screen(HelpScreen(self.lang), name=HELP_SCREEN)
        # A hang-up reaches only the terminal's first process: run by another (`make play`,
        # a shell script), the game missed it and spun for ever on the dead terminal, whose
        # reads end at once (Textual reads on). So the game looks, and leaves.
        if not self.is_headless and terminal_open():
            self.set_interval(TERMINAL_CHECK_SECONDS, self._leave_if_terminal_closed)

    def _leave_if_terminal_closed(self) -> None:
        if not terminal_open():
            self.exit(self.session.summary())

    def get_default_screen(self) -> Screen[None]:
        """The table."""
        return TableScreen(self.session, self.lang, self.four_colour, self.delay, self.advisor)

    @property
    def table(self) -> TableScreen:
        """The table screen (the bottom of the screen stack)."""
        screen = self.screen_stack[0]
        assert isinstance(screen, TableScreen)
        return screen


def run_game(
    session: Session,
    *,
    lang: Language = Language.EN,
    four_colour: bool = False,
    delay: float = 0.7,
    advisor: Advisor | None = None,
) -> SessionSummary:
    """Play ``session`` full screen until the human quits; returns the session summary.
    ``advisor`` (None: advice off) gives the advice the advice key shows at the human's draw.

    If the app dies of an exception (Textual then prints the traceback and sets a non-zero
    :attr:`App.return_code`), the summary is the session as it stood, with
    :attr:`SessionSummary.error` saying what went wrong: the caller must exit non-zero."""
    app = PokerApp(session, lang=lang, four_colour=four_colour, delay=delay, advisor=advisor)
    summary = app.run()
    return finished_summary(app, summary)


def finished_summary(app: PokerApp, returned: SessionSummary | None) -> SessionSummary:
    """The summary of a finished run of ``app`` whose :meth:`App.run` gave ``returned``:
    marked with the error when the app stopped on one (a non-zero return code)."""
    code = app.return_code
    if not code:
        return returned if returned is not None else app.session.summary()
    problem = app._exception  # Textual keeps the exception that stopped the app
    error = f"exit status {code}" if problem is None else f"{type(problem).__name__}: {problem}"
    return dataclasses.replace(app.session.summary(), error=error)
