"""The table's widgets and their drawing: what the terminal table shows of a :class:`Session`."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Button, Input, RichLog, Static

from italian_poker.engine.actions import ActionKind, LegalAction
from italian_poker.engine.deal import Phase
from italian_poker.engine.match import MatchPhase
from italian_poker.engine.observer import SeatView
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
    seat_marks,
    seat_text,
    seat_title,
    set_content,
)
from italian_poker.table.events import hand_rank
from italian_poker.table.narration import deal_report
from italian_poker.table.vocabulary import ACTION_KEYS, Language, action_label, either, phase_label

AMOUNT_PATTERN = r"[0-9]*"
"""What the amount field accepts: a whole number of chips."""

MAX_SEAT_COLUMNS = 5
"""The most seats in a row of the table."""


class TableDisplay(Screen[None]):
    """The table's widgets, drawn from the session as it stands (:meth:`refresh_table`): the
    seats, the centre, the human's cards, the prompt, the action buttons, the footer and the
    last deal's report. :class:`~italian_poker.play.table_screen.TableScreen` plays on it."""

    def __init__(self, session: Session, lang: Language, four_colour: bool) -> None:
        super().__init__()
        self.session = session
        self.lang = lang
        self.four_colour = four_colour
        self.selected: set[int] = set()
        """Positions (0-based) of the cards marked for the draw."""
        self.amount_for: LegalAction | None = None
        """The action whose amount is being typed."""
        self._action_signature: tuple[object, ...] = ()
        self._report_shown = -1
        """How many finished deals the report was last drawn for."""

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

    # --- drawing the table ----------------------------------------------------------------

    def refresh_table(self) -> None:
        """Show the table as it stands."""
        session = self.session
        lang = self.lang
        view = session.table_view()
        state = session.state
        status = self.query_one("#status", Static)
        match_format = format_text(session, lang)
        if view is None or (state is SessionState.BETWEEN_DEALS and not session.finished):
            set_content(
                status,
                tr(
                    lang,
                    "status_idle",
                    rules=session.rules.name,
                    players=len(session.players),
                    deck=4 * (len(session.players) + 4),
                )
                + match_format,
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
                    )
                    + match_format,
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
            if self.session.can_rebuy:
                keys.append(f"r: {tr(lang, 'rebuy_button')}")
            keys.append(f"Enter: {tr(lang, 'summary_title')}")
        return "   ".join(keys)

    def _prompt(self, view: SeatView | None) -> Text:
        session = self.session
        lang = self.lang
        state = session.state
        if state is SessionState.OVER:
            if session.can_rebuy:
                return Text(tr(lang, "game_over_rebuy"), style="bold")
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


def format_text(session: Session, lang: Language) -> str:
    """The match format on the status line: the level in force and the next one with the
    deal it starts with, the deals left of a fixed-length match ("" in a cash game)."""
    machine = session.machine
    parts: list[str] = []
    status = machine.level
    if status is not None:
        level = status.level
        parts.append(
            tr(
                lang,
                "status_level",
                number=status.number,
                of=status.of,
                ante=level.ante,
                low=level.min_bet,
                high=level.max_bet,
            )
        )
        if status.following is not None and status.at_deal is not None:
            parts.append(
                tr(lang, "status_next_level", ante=status.following.ante, deal=status.at_deal)
            )
    left = machine.deals_left
    if left is not None:
        parts.append(tr(lang, "status_deals_left", left=left))
    return "".join(f" · {part}" for part in parts)


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
