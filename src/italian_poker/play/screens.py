"""The screens over the table: the help (the keys and the rules in the chosen language) and
the session summary shown on quitting."""

from __future__ import annotations

from importlib import resources
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown, Static

from italian_poker.engine.actions import ActionKind
from italian_poker.play.i18n import tr
from italian_poker.play.keys import ADVICE_KEY
from italian_poker.table.vocabulary import ACTION_KEYS, Language, action_label, key_label


def help_markdown(lang: Language) -> str:
    """The help text: the keys, then the rules (``play/help/<lang>.md``)."""
    rows = [
        f"| {key_label(ACTION_KEYS[kind])} | {action_label(kind, lang)} |"
        for kind in ACTION_KEYS
        if kind is not ActionKind.DRAW
    ]
    rows += [
        f"| 1-5 | {tr(lang, 'help_key_cards')} |",
        f"| Enter | {tr(lang, 'help_key_enter')} |",
        f"| Esc | {tr(lang, 'help_key_escape')} |",
        f"| {ADVICE_KEY} | {tr(lang, 'help_key_advice')} |",
        f"| ? | {tr(lang, 'help_key_help')} |",
        f"| q | {tr(lang, 'help_key_quit')} |",
    ]
    header = f"| {tr(lang, 'help_key')} | {tr(lang, 'help_action')} |"
    keys = "\n".join([f"## {tr(lang, 'help_keys')}", "", header, "| --- | --- |", *rows])
    try:
        rules = (
            resources.files("italian_poker.play")
            .joinpath("help", f"{lang.value}.md")
            .read_text(encoding="utf-8")
        )
    except OSError:
        rules = tr(lang, "help_missing")
    return f"{keys}\n\n{rules}"


HELP_SCREEN = "help"
"""The name of the installed :class:`HelpScreen`."""


class HelpScreen(ModalScreen[None]):
    """The rules in the chosen language and the keys."""

    BINDINGS: ClassVar[list[BindingType]] = [
        ("escape", "close"),
        ("q", "close"),
        ("question_mark", "close"),
    ]

    def __init__(self, lang: Language) -> None:
        super().__init__()
        self.lang = lang

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box"):
            yield Static(tr(self.lang, "help_title"), id="help-title")
            with VerticalScroll(id="help-scroll"):
                yield Markdown(help_markdown(self.lang), open_links=False)
            yield Static(tr(self.lang, "help_close"), id="help-close")

    def action_close(self) -> None:
        """Back to the table."""
        self.dismiss(None)


class SummaryScreen(ModalScreen[None]):
    """The session summary, shown on quitting."""

    BINDINGS: ClassVar[list[BindingType]] = [
        ("escape", "close"),
        ("q", "close"),
        ("enter", "close"),
    ]

    def __init__(self, lines: list[str], lang: Language) -> None:
        super().__init__()
        self.lines = lines
        self.lang = lang

    def compose(self) -> ComposeResult:
        with Vertical(id="summary-box"):
            yield Static(self.lines[0], id="summary-title")
            yield Static("\n".join(self.lines[1:]), id="summary-text")
            yield Static(tr(self.lang, "summary_close"), id="summary-close")

    def action_close(self) -> None:
        """Leave the game."""
        self.dismiss(None)
