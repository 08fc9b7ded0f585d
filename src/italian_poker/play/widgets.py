"""The table's widgets: cards, seats, the action bar; and the text they show.

The ``*_text`` functions turn a seat view into Rich text and hold all the formatting (they are
pure and tested without a terminal); the widgets only display it.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import Button, Static

from italian_poker.engine.actions import AMOUNT_KINDS, ActionKind, LegalAction
from italian_poker.engine.cards import Card, Suit
from italian_poker.engine.observer import PublicAction, PublicView, SeatView
from italian_poker.play.i18n import tr
from italian_poker.table.narration import shown_cards
from italian_poker.table.vocabulary import (
    ACTION_KEYS,
    Language,
    action_label,
    amount_text,
    key_label,
    phase_label,
)

TWO_COLOURS: dict[Suit, str] = {
    Suit.HEARTS: "#c8102e",
    Suit.DIAMONDS: "#c8102e",
    Suit.CLUBS: "#111111",
    Suit.SPADES: "#111111",
}
FOUR_COLOURS: dict[Suit, str] = {
    Suit.HEARTS: "#c8102e",
    Suit.DIAMONDS: "#1f5fd1",
    Suit.CLUBS: "#138a36",
    Suit.SPADES: "#111111",
}
CARD_WIDTH = 7
"""Inner width of a drawn card."""


def suit_colour(suit: Suit, four_colour: bool) -> str:
    """The ink of a suit: red and black, or red, blue, green and black (four-colour deck)."""
    return (FOUR_COLOURS if four_colour else TWO_COLOURS)[suit]


def card_face(card: Card, four_colour: bool) -> Text:
    """A card drawn in three lines: rank top left, suit symbol in the middle, rank bottom
    right."""
    style = f"bold {suit_colour(card.suit, four_colour)}"
    label = card.rank.label
    face = Text(style=style, no_wrap=True)
    face.append(f"{label}{card.suit.symbol}".ljust(CARD_WIDTH) + "\n")
    face.append(card.suit.symbol.center(CARD_WIDTH) + "\n")
    face.append(f"{card.suit.symbol}{label}".rjust(CARD_WIDTH))
    return face


def card_back() -> Text:
    """The back of a card."""
    return Text("\n".join(["░" * CARD_WIDTH] * 3), style="#7aa2f7", no_wrap=True)


def mini_cards(cards: Sequence[Card], four_colour: bool) -> Text:
    """Cards in one line, each on a white chip: `` A♥  10♦ ``."""
    text = Text(no_wrap=True)
    for i, card in enumerate(cards):
        if i:
            text.append(" ")
        colour = suit_colour(card.suit, four_colour)
        text.append(f"{card.rank.label}{card.suit.symbol}", style=f"bold {colour} on #f4f1ea")
    return text


def public_action_text(action: PublicAction, lang: Language) -> str:
    """A seat's last action in a few words: ``Vedo 4``, ``cambia 3``, ``servito``."""
    if action.kind is ActionKind.DRAW:
        count = action.cards_changed or 0
        if count == 0:
            return tr(lang, "stood_pat")
        return tr(lang, "changed", count=count)
    label = action_label(action.kind, lang)
    return f"{label} {action.amount}" if action.amount is not None else label


def seat_text(
    view: SeatView | PublicView,
    seat: int,
    last: PublicAction | None,
    lang: Language,
    four_colour: bool,
) -> Text:
    """What a seat box shows: chips, this round's bet, the last action, the cards (how many
    held or changed; the hand once shown, with its category)."""
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(tr(lang, "stack", stack=view.stacks[seat]), style="bold")
    bet = view.round_bets[seat]
    if bet:
        text.append("  ")
        text.append(tr(lang, "bet_in_round", amount=bet), style="#e0af68")
    text.append("\n")
    if view.folded[seat]:
        text.append(tr(lang, "folded"), style="italic #888888")
    elif last is not None:
        text.append(public_action_text(last, lang), style="#9ece6a")
    text.append("\n")
    if seat in view.shown:
        text.append_text(mini_cards(shown_cards(view, seat), four_colour))
        text.append("\n")
        text.append(view.shown_ranks[seat].describe(lang), style="italic")
    else:
        changed = view.cards_changed[seat]
        held = view.cards_held[seat]
        if held and not view.folded[seat]:
            text.append("🂠 " * min(held, 5), style="#7aa2f7")
        if (
            changed is not None
            and not view.folded[seat]
            and last is not None
            and (last.kind is not ActionKind.DRAW)
        ):
            words = tr(lang, "stood_pat") if changed == 0 else tr(lang, "changed", count=changed)
            text.append(f"\n{words}", style="#bbbbbb")
    return text


def seat_title(view: SeatView | PublicView, seat: int, lang: Language, *, you: bool = False) -> str:
    """A seat box's title: the name, marked when it is the human's."""
    name = view.names[seat]
    return f"{name} ({tr(lang, 'you')})" if you else name


def seat_marks(view: SeatView | PublicView, seat: int, lang: Language) -> str:
    """A seat box's subtitle: the dealer button and the opener's mark."""
    marks = []
    if seat == view.dealer:
        marks.append(f"◉ {tr(lang, 'dealer')}")
    if view.opener == seat:
        marks.append(tr(lang, "opener"))
    return " · ".join(marks)


def centre_text(view: SeatView | PublicView, lang: Language) -> Text:
    """The middle of the table: the pot, the bet to match, the phase."""
    text = Text(justify="center", no_wrap=True)
    text.append(f" {tr(lang, 'pot', pot=view.pot)} ", style="bold #1a1b26 on #e0af68")
    if view.current_bet:
        text.append("   ")
        text.append(tr(lang, "current_bet", bet=view.current_bet), style="#e0af68")
    text.append("   ")
    text.append(phase_label(view.phase, lang), style="bold #7dcfff")
    return text


def action_button_label(legal: LegalAction, lang: Language, already: int = 0) -> str:
    """A button's label: key, name and amount or range, e.g. ``R  Rilancio 3-12``; with
    chips ``already`` in the round, what the player adds and what the bet becomes:
    ``V  Call 10 (to 20)``, ``R  Raise 1-10 (to 5-14)``."""
    label = f"{key_label(ACTION_KEYS[legal.kind])}  {action_label(legal.kind, lang)}"
    low, high = legal.min_amount, legal.max_amount
    if low is not None and high is not None:
        label += " " + amount_text(low, high, already, lang)
    elif legal.kind is ActionKind.DRAW:
        label += " (1-5)"
    return label


def needs_amount(legal: LegalAction) -> bool:
    """Whether choosing ``legal`` asks for an amount (a range to choose from)."""
    return (
        legal.kind in AMOUNT_KINDS
        and legal.min_amount is not None
        and legal.max_amount is not None
        and legal.min_amount != legal.max_amount
    )


def set_content(widget: Static, content: str | Text) -> None:
    """Show ``content`` in ``widget``, unless it shows it already: an unchanged table is not
    laid out again."""
    if widget.content != content:
        widget.update(content)


class CardBox(Static):
    """One of the human's five cards, with its position number below."""

    def show(
        self,
        card: Card | None,
        *,
        position: int,
        selected: bool,
        back: bool,
        four_colour: bool,
        pending: bool = False,
    ) -> None:
        """Display ``card`` (None: an empty place or, with ``back``, a card face down;
        ``pending``: the card still to come of a draw of four, 4.2)."""
        self.update_classes(
            {
                "empty": card is None and not back,
                "selected": selected,
                "back": back,
                "pending": pending,
            }
        )
        if card is not None:
            set_content(self, card_face(card, four_colour))
        elif back:
            set_content(self, card_back())
        else:
            set_content(self, "")
        mark = "↻" if selected else " "
        if pending:
            self.border_subtitle = f" {position}…"
        else:
            self.border_subtitle = f"{mark}{position}{mark}" if card is not None else ""


class SeatBox(Static):
    """A seat: name, dealer button, chips, bet, last action, cards."""


class ActionButton(Button, can_focus=False):
    """A button for one legal action; never takes the focus, so keys stay with the table."""

    def __init__(self, legal: LegalAction, lang: Language, already: int = 0) -> None:
        super().__init__(
            action_button_label(legal, lang, already), classes=f"act-{legal.kind.value}"
        )
        self.legal = legal


class CommandButton(Button, can_focus=False):
    """A button standing for a key that is not an action (next deal, help, quit)."""

    def __init__(self, label: str, key: str) -> None:
        super().__init__(f"{key_label(key)}  {label}", classes="command")
        self.key = key
