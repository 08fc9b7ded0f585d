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

from collections.abc import Sequence

from rich.text import Text
from textual import events
from textual.timer import Timer
from textual.widgets import Button, Input, RichLog, Static

from italian_poker.engine.actions import AMOUNT_KINDS, Action, ActionKind, LegalAction
from italian_poker.engine.cards import format_cards
from italian_poker.engine.draw import MAX_DRAW
from italian_poker.engine.errors import IllegalActionError
from italian_poker.engine.match import MatchPhase
from italian_poker.play.explain import summary_lines
from italian_poker.play.i18n import tr
from italian_poker.play.keys import ADVICE_KEY, REBUY_KEY, pressed_name
from italian_poker.play.screens import HELP_SCREEN, SummaryScreen
from italian_poker.play.session import Session, SessionState
from italian_poker.play.table_display import TableDisplay, seat_columns
from italian_poker.play.widgets import ActionButton, CommandButton, needs_amount, set_content
from italian_poker.table.advice import ADVICE_SHOWN, AdviceItem, Advisor
from italian_poker.table.catalogue import decimal
from italian_poker.table.events import Event
from italian_poker.table.machine_events import NoDeal
from italian_poker.table.narration import deal_report, describe_event
from italian_poker.table.vocabulary import ACTION_KEYS, Language, action_label, key_label


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


class TableScreen(TableDisplay):
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
        super().__init__(session, lang, four_colour)
        self.advisor = advisor
        """Gives the advice at the human's draw; None: advice is off."""
        self.delay = delay
        self._timer: Timer | None = None
        self._bot_due = False
        self._reported = len(session.finished)
        self._announced_deal = 0
        self._no_deal_logged: NoDeal | None = None
        self.message = ""

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
            elif key == REBUY_KEY and self.session.can_rebuy:
                chips = self.session.rebuy()
                self._say(tr(self.lang, "rebought", chips=chips))
                self.refresh_table()
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
