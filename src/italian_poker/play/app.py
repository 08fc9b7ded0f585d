"""The full-screen terminal table (Textual): the human plays a :class:`Session` with keys.

The table screen shows the seats (names, chips, dealer button, bets, each player's last action,
how many cards each changed, shown hands), the pot, the phase and the opening requirement,
the human's five cards, the legal actions as buttons with one-key shortcuts, an amount entry
with the allowed range, the action log and the last deal's report. ``?`` opens the help
screen (the rules in the chosen language and the keys), ``q`` the session summary. With an
advisor (``italian-poker play --advice``), ``h`` at the human's draw shows the best keeps with
their chances in the message area; without one it says how to turn advice on.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from collections.abc import Sequence
from importlib import resources
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widgets import Button, Input, Markdown, RichLog, Static

from italian_poker.engine.actions import AMOUNT_KINDS, Action, ActionKind, LegalAction
from italian_poker.engine.cards import format_cards
from italian_poker.engine.deal import Phase
from italian_poker.engine.draw import MAX_DRAW
from italian_poker.engine.errors import IllegalActionError
from italian_poker.engine.match import MatchPhase
from italian_poker.engine.observer import SeatView
from italian_poker.play.explain import summary_lines
from italian_poker.play.i18n import tr
from italian_poker.play.session import (
    Session,
    SessionState,
    TableView,
    breaks_opening,
    cards_to_come,
    last_actions,
)
from italian_poker.play.widgets import (
    ActionButton,
    CardBox,
    CommandButton,
    SeatBox,
    centre_text,
    needs_amount,
    seat_marks,
    seat_text,
    seat_title,
    set_content,
)
from italian_poker.table.advice import ADVICE_SHOWN, AdviceItem, Advisor
from italian_poker.table.catalogue import decimal
from italian_poker.table.events import Event, SessionSummary, hand_rank
from italian_poker.table.machine_events import NoDeal
from italian_poker.table.narration import deal_report, describe_event
from italian_poker.table.vocabulary import (
    ACTION_KEYS,
    Language,
    action_label,
    either,
    key_label,
    phase_label,
)

AMOUNT_PATTERN = r"[0-9]*"
"""What the amount field accepts: a whole number of chips."""

MAX_SEAT_COLUMNS = 5
"""The most seats in a row of the table."""

ADVICE_KEY = "h"
"""The key that shows the advice at the human's draw (a hint)."""

CSS = """
TableScreen { background: #10241b; color: #d8dee9; }
#status { height: 1; background: #1b3a2c; color: #e5e9f0; padding: 0 1; }
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


def advice_text(advice: Sequence[AdviceItem], lang: Language) -> str:
    """The best :data:`ADVICE_SHOWN` choices of ``advice`` (best first), one line each: the
    cards kept, how many changed, the chance of winning and of improving, the 4.4 split."""
    lines = [tr(lang, "advice_title")]
    for rank, item in enumerate(advice[:ADVICE_SHOWN], start=1):
        line = tr(
            lang,
            "advice_line",
            rank=rank,
            kept=format_cards(item.kept),
            count=len(item.discards),
            win=decimal(100 * item.ev, lang),
            improve=decimal(100 * item.improve, lang),
        )
        lines.append(line + (tr(lang, "advice_split") if item.split else ""))
    return "\n".join(lines)


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


class TableScreen(Screen[None]):
    """The table: see the module docstring."""

    AUTO_FOCUS = None

    def __init__(
        self,
        session: Session,
        lang: Language,
        four_colour: bool,
        delay: float,
        advisor: Advisor | None = None,
    ):
        super().__init__()
        self.session = session
        self.advisor = advisor
        """Gives the advice at the human's draw; None: advice is off."""
        self.lang = lang
        self.four_colour = four_colour
        self.delay = delay
        self.selected: set[int] = set()
        """Positions (0-based) of the cards marked for the draw."""
        self.amount_for: LegalAction | None = None
        """The action whose amount is being typed."""
        self._timer: Timer | None = None
        self._bot_due = False
        self._reported = len(session.finished)
        self._announced_deal = 0
        self._no_deal_logged: NoDeal | None = None
        self._action_signature: tuple[object, ...] = ()
        self._report_shown = -1
        """How many finished deals the report was last drawn for."""
        self.message = ""

    # --- layout ---------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="seats"):
            for i, name in enumerate(self.session.players):
                box = SeatBox(name=name, id=f"seat-{i}")
                if name == self.session.human:
                    box.add_class("human")
                yield box
        yield Static(id="centre")
        with Horizontal(id="hand-row"):
            for _ in range(5):
                yield CardBox()
            yield Static(id="hand-info")
        yield Static(id="prompt")
        with Horizontal(id="actions"):
            # Digits only, with a plain pattern: Textual's "integer" type checks each key with
            # a pattern that backtracks exponentially on a long run of digits and a letter.
            yield Input(id="amount", restrict=AMOUNT_PATTERN, disabled=True)
        yield Static(id="message")
        with Horizontal(id="bottom"):
            yield RichLog(id="log", wrap=True, markup=False, min_width=20)
            yield Static(id="report")
        yield Static(id="hint")

    def on_mount(self) -> None:
        self.query_one("#seats").styles.grid_size_columns = seat_columns(len(self.session.players))
        if self.session.state is SessionState.BETWEEN_DEALS and not self.session.finished:
            self.session.start_deal()
        self._advance()

    # --- driving the session --------------------------------------------------------------

    def _advance(self) -> None:
        """Let the bots act (one every ``delay`` seconds) until the human is to act, the deal
        ends or the game is over; then show the table."""
        self._timer = None
        while self.session.state is SessionState.BOT_TURN:
            self._announce_deal()
            if self.delay > 0 and not self._bot_due:
                self._bot_due = True
                self._timer = self.set_timer(self.delay, self._advance)
                self.refresh_table()
                return
            self._bot_due = False
            self._record(self.session.step(), *self.session.shows)
            if self.delay <= 0:
                # Without a pause the table is still drawn after every action, so every
                # state a player could see is drawn (and tested) at least once.
                self.refresh_table()
        self._announce_deal()
        self._announce_no_deal()
        self.refresh_table()

    def _announce_no_deal(self) -> None:
        """5.5: say once in the log that the make-up answers left too few to deal."""
        no_deal = self.session.no_deal
        if no_deal is None or no_deal is self._no_deal_logged:
            return
        self._no_deal_logged = no_deal
        log = self.query_one("#log", RichLog)
        log.write(Text(tr(self.lang, "no_deal", pot=no_deal.carried), style="#e0af68"))

    def _record(self, *events: Event) -> None:
        """Log ``events`` (a decision and the shows the table played after it, 5.4), then
        the report of each deal that ended."""
        log = self.query_one("#log", RichLog)
        for event in events:
            for line in describe_event(event, self.lang):
                style = "bold #7aa2f7" if event.player == self.session.human else ""
                log.write(Text(line, style=style))
        while self._reported < len(self.session.finished):
            finished = self.session.finished[self._reported]
            self._reported += 1
            lines = deal_report(finished, self.lang)
            for i, line in enumerate(lines):
                log.write(Text(line, style="bold #e0af68" if i == 0 else "#e0af68"))
            if finished.history_path is not None:
                log.write(Text(tr(self.lang, "log_saved", path=finished.history_path), style="dim"))
            if finished.save_error is not None:
                log.write(
                    Text(tr(self.lang, "log_save_failed", error=finished.save_error), style="red")
                )

    def _announce_deal(self) -> None:
        session = self.session
        if session.match.phase is not MatchPhase.IN_DEAL:
            return
        number = session.deal_number
        if number == self._announced_deal:
            return
        self._announced_deal = number
        view = session.table_view()
        assert view is not None
        self.query_one("#log", RichLog).write(
            Text(
                tr(
                    self.lang,
                    "log_deal_start",
                    number=number,
                    dealer=view.names[view.dealer],
                    requirement=session.requirement.describe(self.lang),
                ),
                style="bold #7dcfff",
            )
        )

    def _act(self, action: Action) -> None:
        try:
            event = self.session.act(action)
        except IllegalActionError as error:
            self._say(str(error))
            return
        self.selected.clear()
        self._say("")
        self._record(event, *self.session.shows)
        self._advance()

    def _say(self, message: str) -> None:
        self.message = message
        set_content(self.query_one("#message", Static), message)

    # --- keys and buttons -----------------------------------------------------------------

    def on_key(self, event: events.Key) -> None:
        """Every key of the table (the amount entry handles its own typing)."""
        if self.amount_for is not None:
            if event.key == "escape":
                event.stop()
                self._close_amount()
                self._say("")
            return
        event.stop()
        self.press(event.key, event.character)

    def press(self, key: str, character: str | None = None) -> None:
        """Handle one key: help, quit, next deal, a card for the draw or an action."""
        if character == "?" or key == "question_mark":
            self.app.push_screen(HELP_SCREEN)
            return
        if key == "q":
            self.quit_game()
            return
        if key == ADVICE_KEY:
            self._advise()
            return
        state = self.session.state
        if state is SessionState.OVER:
            if key == "enter":
                self.quit_game()
            else:
                self._say(tr(self.lang, "game_over"))
            return
        if state is SessionState.BETWEEN_DEALS:
            if key == "enter":
                self._say("")
                self.session.start_deal()
                self._advance()
            else:
                self._say(tr(self.lang, "next_deal"))
            return
        if state is not SessionState.HUMAN_TURN:
            return
        legal = self.session.legal_actions()
        if legal and legal[0].kind is ActionKind.DRAW:
            if key.isdigit() and len(key) == 1:
                self._toggle(int(key) - 1)
                return
            if key == "enter":
                self._confirm_draw()
                return
        for option in legal:
            if ACTION_KEYS[option.kind] == key:
                self.choose(option)
                return
        keys = ", ".join(
            f"{key_label(ACTION_KEYS[o.kind])}={action_label(o.kind, self.lang)}" for o in legal
        )
        self._say(tr(self.lang, "key_not_available", key=pressed_name(key, character), keys=keys))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """A click on an action or command button does what its key does."""
        button = event.button
        if isinstance(button, ActionButton):
            if button.legal.kind is ActionKind.DRAW:
                self._confirm_draw()
            else:
                self.choose(button.legal)
        elif isinstance(button, CommandButton):
            self.press(button.key)

    def choose(self, legal: LegalAction) -> None:
        """The human picks ``legal``: ask for an amount if there is a range, else act."""
        if needs_amount(legal):
            self._open_amount(legal)
            return
        if legal.kind is ActionKind.DRAW:
            self._confirm_draw()
            return
        # A single allowed amount (fixed limit) needs no entry; calls and blinds take none.
        amount = legal.min_amount if legal.kind in AMOUNT_KINDS else None
        self._act(Action(legal.kind, amount))

    # --- amounts --------------------------------------------------------------------------

    def _open_amount(self, legal: LegalAction) -> None:
        assert legal.min_amount is not None and legal.max_amount is not None
        self.amount_for = legal
        field = self.query_one("#amount", Input)
        field.placeholder = tr(
            self.lang, "amount_placeholder", low=legal.min_amount, high=legal.max_amount
        )
        # One digit more than the largest amount, so that too many digits get the
        # out-of-range message rather than being silently dropped.
        field.max_length = len(str(legal.max_amount)) + 1
        field.value = ""
        field.disabled = False
        field.add_class("visible")
        field.focus()
        self._say("")
        self.refresh_table()

    def _close_amount(self) -> None:
        self.amount_for = None
        field = self.query_one("#amount", Input)
        field.value = ""
        field.disabled = True
        field.remove_class("visible")
        self.set_focus(None)
        self.refresh_table()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Check the typed amount: a clear message and the same prompt if it is not allowed."""
        event.stop()
        legal = self.amount_for
        if legal is None:
            return
        low, high = legal.min_amount, legal.max_amount
        assert low is not None and high is not None
        text = event.value.strip()
        try:
            amount = int(text)
        except ValueError:
            self._say(tr(self.lang, "amount_not_number", text=text, low=low, high=high))
            event.input.value = ""
            return
        if not low <= amount <= high:
            self._say(tr(self.lang, "amount_out_of_range", amount=amount, low=low, high=high))
            event.input.value = ""
            return
        kind = legal.kind
        self._close_amount()
        self._act(Action(kind, amount))

    # --- the draw -------------------------------------------------------------------------

    def _toggle(self, position: int) -> None:
        view = self.session.human_view()
        if view is None or not 0 <= position < len(view.hand):
            self._say(tr(self.lang, "key_not_available", key=str(position + 1), keys="1-5, Enter"))
            return
        if position in self.selected:
            self.selected.discard(position)
        elif len(self.selected) >= MAX_DRAW:
            self._say(tr(self.lang, "too_many_cards", max=MAX_DRAW))
            return
        else:
            self.selected.add(position)
        self._say("")
        self.refresh_table()

    def _advise(self) -> None:
        """Show the advice for the human's draw, or say why there is none."""
        if self.advisor is None:
            self._say(tr(self.lang, "advice_off"))
            return
        legal = self.session.legal_actions()
        view = self.session.human_view()
        drawing = self.session.state is SessionState.HUMAN_TURN and bool(legal)
        if view is None or not drawing or legal[0].kind is not ActionKind.DRAW:
            self._say(tr(self.lang, "advice_not_now"))
            return
        try:
            advice = self.advisor(view)
        except ValueError as error:
            self._say(str(error))
            return
        self._say(advice_text(advice, self.lang))

    def _confirm_draw(self) -> None:
        try:
            action = self.session.draw_action(self.selected)
        except IllegalActionError as error:
            self._say(str(error))
            return
        self._act(action)

    # --- quitting -------------------------------------------------------------------------

    def quit_game(self) -> None:
        """Show the session summary, then leave."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        summary = self.session.summary()
        lines = summary_lines(summary, self.lang)

        def leave(_: None) -> None:
            self.app.exit(summary)

        self.app.push_screen(SummaryScreen(lines, self.lang), leave)

    # --- drawing the table ----------------------------------------------------------------

    def refresh_table(self) -> None:
        """Show the table as it stands."""
        session = self.session
        lang = self.lang
        view = session.table_view()
        state = session.state
        status = self.query_one("#status", Static)
        if view is None or (state is SessionState.BETWEEN_DEALS and not session.finished):
            set_content(
                status,
                tr(
                    lang,
                    "status_idle",
                    rules=session.rules.name,
                    players=len(session.players),
                    deck=4 * (len(session.players) + 4),
                ),
            )
        else:
            set_content(
                status,
                Text(
                    tr(
                        lang,
                        "status",
                        rules=session.rules.name,
                        number=session.deal_number,
                        phase=phase_label(view.phase, lang),
                        opening=opening_text(view, session.requirement.describe(lang), lang),
                    ),
                    style="bold",
                ),
            )
        # One view for the whole table: the human's own when dealt in, else the public one.
        mine = view if isinstance(view, SeatView) else None
        self._render_seats(view)
        centre = self.query_one("#centre", Static)
        set_content(centre, centre_text(view, lang) if view is not None else "")
        self._render_hand(mine)
        self._render_actions()
        set_content(self.query_one("#prompt", Static), self._prompt(mine))
        set_content(self.query_one("#hint", Static), self._footer())
        if self._report_shown != len(session.finished):  # the report changes once a deal
            self._report_shown = len(session.finished)
            report = self.query_one("#report", Static)
            if session.finished:
                lines = deal_report(session.finished[-1], lang)
                text = Text(lines[0] + "\n", style="bold #e0af68")
                text.append("\n".join(lines[1:]))
                set_content(report, text)
            else:
                set_content(report, Text(tr(lang, "report_empty"), style="italic #7a8a82"))

    def _render_seats(self, view: TableView | None) -> None:
        session = self.session
        seated = {s.name: s for s in session.match.seats}
        latest = last_actions(view) if view is not None else {}
        making_up = session.match.phase is MatchPhase.MAKE_UP
        for box in self.query(SeatBox):
            name = box.name or ""
            # Each class is set once to what it should be: toggling restyles the table.
            actor = making_up and session.match.actor == name
            folded = out = False
            if view is not None and name in view.names:
                seat = view.names.index(name)
                box.border_title = seat_title(view, seat, self.lang, you=name == session.human)
                set_content(
                    box, seat_text(view, seat, latest.get(seat), self.lang, self.four_colour)
                )
                actor = actor or view.actor == seat
                folded = view.folded[seat]
                box.border_subtitle = seat_marks(view, seat, self.lang)
            else:
                box.border_title = name
                box.border_subtitle = ""
                seat_info = seated.get(name)
                if seat_info is None:
                    out = True
                    set_content(box, tr(self.lang, "busted"))
                else:
                    set_content(
                        box,
                        f"{tr(self.lang, 'stack', stack=seat_info.stack)}\n"
                        f"{tr(self.lang, 'sitting_out') if view is not None else ''}",
                    )
            box.update_classes({"actor": actor, "folded": folded, "out": out})

    def _render_hand(self, view: SeatView | None) -> None:
        boxes = list(self.query(CardBox))
        info = self.query_one("#hand-info", Static)
        in_blinds = view is not None and view.phase is Phase.BLINDS
        hand = view.hand if view is not None else ()
        # 4.2: after a draw of four the hand holds four cards until the others have drawn.
        due = cards_to_come(view) if view is not None else 0
        for i, box in enumerate(boxes):
            card = hand[i] if i < len(hand) else None
            pending = card is None and i < len(hand) + due
            box.show(
                card,
                position=i + 1,
                selected=i in self.selected,
                back=in_blinds or pending,
                four_colour=self.four_colour,
                pending=pending,
            )
        if view is None:
            set_content(info, Text(tr(self.lang, "not_in_deal"), style="italic"))
            return
        if not hand:
            set_content(info, Text(tr(self.lang, "no_cards_yet"), style="italic"))
            return
        text = Text(tr(self.lang, "your_hand") + "\n", style="bold")
        rank = hand_rank(view)
        if rank is None:
            # The hand is named only once it has its five cards.
            text.append(tr(self.lang, "hand_pending", held=len(hand), due=due), style="italic")
            set_content(info, text)
            return
        text.append(rank.describe(self.lang), style="bold #e0af68")
        if self.selected:
            discards = [hand[p] for p in self.selected if p < len(hand)]
            if breaks_opening(view, discards) and view.rules.opener_may_split:
                text.append("\n" + tr(self.lang, "prompt_draw_split"), style="#f7768e")
        set_content(info, text)

    def _render_actions(self) -> None:
        bar = self.query_one("#actions", Horizontal)
        state = self.session.state
        legal = self.session.legal_actions()
        signature: tuple[object, ...] = (state, legal, self.amount_for)
        if signature == self._action_signature:
            return
        self._action_signature = signature
        for button in list(bar.query(Button)):
            button.remove()
        buttons: list[Button] = []
        if self.amount_for is None:
            if state is SessionState.HUMAN_TURN:
                already = round_bet(self.session.human_view())
                buttons = [ActionButton(option, self.lang, already) for option in legal]
            elif state is SessionState.BETWEEN_DEALS:
                buttons = [CommandButton(tr(self.lang, "next_deal_button"), "enter")]
            elif state is SessionState.OVER:
                buttons = [CommandButton(tr(self.lang, "summary_title"), "enter")]
        amount = self.query_one("#amount", Input)
        if buttons:
            bar.mount(*buttons, before=amount)

    def _footer(self) -> str:
        """The footer: help and quit, and the keys that work now beyond the buttons' (the
        cards and Enter at the draw, Enter for the next deal or the summary)."""
        lang = self.lang
        keys = [f"? {tr(lang, 'footer_help')}", f"q {tr(lang, 'footer_quit')}"]
        state = self.session.state
        if self.amount_for is not None:
            keys.append(f"Enter: {tr(lang, 'footer_confirm')}   Esc: {tr(lang, 'footer_cancel')}")
        elif state is SessionState.HUMAN_TURN:
            legal = self.session.legal_actions()
            if legal and legal[0].kind is ActionKind.DRAW:
                keys.append(f"1-5 / Enter: {action_label(ActionKind.DRAW, lang)}")
        elif state is SessionState.BETWEEN_DEALS:
            keys.append(f"Enter: {tr(lang, 'next_deal_button')}")
        elif state is SessionState.OVER:
            keys.append(f"Enter: {tr(lang, 'summary_title')}")
        return "   ".join(keys)

    def _prompt(self, view: SeatView | None) -> Text:
        session = self.session
        lang = self.lang
        state = session.state
        if state is SessionState.OVER:
            return Text(tr(lang, "game_over"), style="bold")
        if state is SessionState.BETWEEN_DEALS:
            if session.no_deal is not None:
                said = tr(lang, "no_deal", pot=session.no_deal.carried)
                return Text(f"{said} {tr(lang, 'next_deal')}", style="bold")
            return Text(tr(lang, "next_deal"), style="bold")
        if state is SessionState.BOT_TURN:
            actor = session.actor or ""
            return Text(tr(lang, "thinking", name=actor), style="italic #b7c4bd")
        legal = session.legal_actions()
        kinds = {option.kind for option in legal}
        if self.amount_for is not None:
            low, high = self.amount_for.min_amount, self.amount_for.max_amount
            assert low is not None and high is not None
            already = round_bet(view)
            words = tr(
                lang,
                "prompt_amount_added" if already else "prompt_amount",
                action=action_label(self.amount_for.kind, lang),
                low=low,
                high=high,
                added_low=low - already,
                added_high=high - already,
            )
            return Text(words, style="bold #e0af68")
        text = Text(tr(lang, "your_turn") + ": ", style="bold #e0af68")
        if ActionKind.MAKE_UP in kinds:
            amount = legal[0].min_amount
            text.append(tr(lang, "prompt_makeup", amount=amount))
        elif view is None:
            pass
        elif view.phase is Phase.BLINDS:
            text.append(
                tr(
                    lang,
                    "prompt_blind",
                    kind=action_label(legal[0].kind, lang),
                    amount=legal[0].min_amount,
                    key=ACTION_KEYS[legal[0].kind],
                    decline=ACTION_KEYS[ActionKind.DECLINE],
                )
            )
        elif view.phase is Phase.OPENING:
            requirement = session.requirement.describe(lang)
            key = "prompt_opening" if ActionKind.OPEN in kinds else "prompt_cannot_open"
            text.append(tr(lang, key, requirement=requirement))
        elif view.phase is Phase.DRAW:
            text.append(tr(lang, "prompt_draw"))
        elif view.phase is Phase.SHOWDOWN:
            key = "prompt_showdown" if ActionKind.MUCK in kinds else "prompt_showdown_show"
            text.append(tr(lang, key))
        else:
            # A betting round: what there is to call, and the choices.
            choices = either([action_label(option.kind, lang) for option in legal], lang)
            if view.to_call > 0:
                text.append(
                    tr(
                        lang,
                        "prompt_call_to" if round_bet(view) else "prompt_call",
                        amount=view.to_call,
                        total=view.current_bet,
                        choices=choices,
                    )
                )
            else:
                text.append(tr(lang, "prompt_no_bet", choices=choices))
        return text


def seat_columns(players: int) -> int:
    """How many seats a row of the table holds: at most :data:`MAX_SEAT_COLUMNS`, the rows
    as even as can be (six players sit three and three, not five and one)."""
    rows = -(-players // MAX_SEAT_COLUMNS)
    return -(-players // max(rows, 1))


def round_bet(view: SeatView | None) -> int:
    """What the human has in the betting round under way (0 when not dealt in)."""
    return view.round_bets[view.seat] if view is not None else 0


def opening_text(view: TableView, requirement: str, lang: Language) -> str:
    """What the status line says of the opening: what opens, or, once a blind is bet, that
    no opening is needed (Art. 2)."""
    if view.blinders:
        return tr(lang, "status_blind")
    return tr(lang, "status_to_open", requirement=requirement)


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


def pressed_name(key: str, character: str | None) -> str:
    """A pressed key as a player would name it: its character (``z``, ``7``), else its name
    (``Enter``, ``Tab``, ``Backspace``: a terminal sends Enter as a carriage return)."""
    if character and character.isprintable() and not character.isspace():
        return character
    return key_label(key) if key == "enter" else key.replace("_", " ").capitalize()
