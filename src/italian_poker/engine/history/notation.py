"""The action notation of the hand-history text: PHH's codes with the Italian additions.

``p2 cbr 9``, ``p1 sd Jc !split``, ``d dh p3 AhKh7c``: :func:`action_notation` writes a player
action, :func:`dealt_notation` a dealer line; :func:`parse_line` reads one string of the
``actions`` array and :func:`resolve` turns it into an engine action (``docs/hand-history.md``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from italian_poker.engine.actions import Action, ActionKind
from italian_poker.engine.cards import Card, parse_cards
from italian_poker.engine.deal import Deal
from italian_poker.engine.errors import ItalianPokerError
from italian_poker.engine.history.model import Dealt, HistoryAction, HistoryError

UNKNOWN_CARD = "??"
"""PHH's notation for a card the writer did not see."""

_AMOUNT_CODES = {
    ActionKind.BLIND: "buio",
    ActionKind.CONTROBUIO: "controbuio",
    ActionKind.OVER: "over",
    ActionKind.OPEN: "open",
    ActionKind.BET: "cbr",
    ActionKind.RAISE: "cbr",
}
_PLAIN_CODES = {
    ActionKind.DECLINE: "decline",
    ActionKind.PASS: "pass",
    ActionKind.FOLD: "f",
    ActionKind.CALL: "cc",
    ActionKind.CHECK: "cc",
    ActionKind.PAROL: "parol",
    ActionKind.MUCK: "sm",
}
_BY_CODE = {
    "buio": ActionKind.BLIND,
    "controbuio": ActionKind.CONTROBUIO,
    "over": ActionKind.OVER,
    "open": ActionKind.OPEN,
    "decline": ActionKind.DECLINE,
    "pass": ActionKind.PASS,
    "f": ActionKind.FOLD,
    "parol": ActionKind.PAROL,
}
SPLIT_FLAG = "!split"


def cards_text(cards: Sequence[Card]) -> str:
    """PHH card notation: cards concatenated without separators."""
    return "".join(str(c) for c in cards)


def action_notation(entry: HistoryAction) -> str:
    """The PHH-style notation of a player action, e.g. ``"p2 cbr 9"``, ``"p1 sd Jc !split"``."""
    actor = f"p{entry.seat + 1}"
    action = entry.action
    kind = action.kind
    if kind is ActionKind.DRAW:
        text = f"{actor} sd"
        if action.cards:
            text += " " + cards_text(action.cards)
        return text + (f" {SPLIT_FLAG}" if action.split else "")
    if kind is ActionKind.SHOW:
        return f"{actor} sm {cards_text(entry.shown)}"
    if kind in _AMOUNT_CODES:
        return f"{actor} {_AMOUNT_CODES[kind]} {action.amount}"
    return f"{actor} {_PLAIN_CODES[kind]}"


def dealt_notation(dealt: Dealt) -> str:
    text = f"d dh p{dealt.seat + 1} {cards_text(dealt.cards)}"
    return text + (" # late fourth card (4.2)" if dealt.late else "")


def digits(text: str) -> bool:
    """Whether ``text`` is a whole number in ASCII digits (``"²".isdigit()`` is true too)."""
    return text.isascii() and text.isdigit()


@dataclass(frozen=True, slots=True)
class RawAction:
    """A parsed player line before ``cc`` and ``cbr`` are resolved against the deal."""

    seat: int
    code: str
    amount: int | None
    cards: tuple[Card, ...]
    split: bool
    text: str


def parse_line(text: str, players: int, action: int, dealer_line: int) -> RawAction | Dealt | None:
    """One string of ``actions``: a player action (the ``action``-th, from 0, if it is one), a
    dealer line (the ``dealer_line``-th, from 0) or a no-op. Errors number them as replay does:
    ``action K (NOTATION): ...``, ``dealer line D (NOTATION): ...``, counting from 1."""
    body = text.split("#", 1)[0].split()
    if not body:
        return None  # a PHH no-op: empty or a commentary
    notation = text.strip()
    dealer = body[0] == "d"
    seat: int | None = None

    def fail(message: str) -> HistoryError:
        if dealer:
            return HistoryError(f"dealer line {dealer_line + 1} ({notation}): {message}")
        return HistoryError(message, index=action, seat=seat, notation=notation)

    def seat_of(token: str) -> int:
        if token[:1] == "p" and digits(token[1:]) and 1 <= int(token[1:]) <= players:
            return int(token[1:]) - 1
        raise fail(f"{token!r} is not a player p1..p{players}")

    def cards_of(tokens: list[str]) -> tuple[Card, ...]:
        try:
            return parse_cards(" ".join(tokens))
        except ItalianPokerError as error:
            raise fail(str(error)) from None

    if dealer:
        if len(body) < 4 or body[1] != "dh":
            raise fail("a dealer line reads 'd dh pN cards'")
        return Dealt(-1, seat_of(body[2]), cards_of(body[3:]), late="late fourth" in text)
    if len(body) < 2:
        raise fail("an action reads 'pN code [arguments]'")
    seat = seat_of(body[0])
    code, args = body[1], body[2:]
    if code in ("sd", "sm"):
        split = SPLIT_FLAG in args
        if split and code == "sm":
            raise fail("only a draw (sd) may announce a split")
        cards = cards_of([a for a in args if a != SPLIT_FLAG])
        return RawAction(seat, code, None, cards, split, text)
    if code in ("cbr", "buio", "controbuio", "over", "open"):
        if len(args) != 1 or not digits(args[0]):
            raise fail(f"{code} needs one amount in whole chips")
        return RawAction(seat, code, int(args[0]), (), False, text)
    if code in ("cc", *_BY_CODE):
        if args:
            raise fail(f"{code} takes no arguments")
        return RawAction(seat, code, None, (), False, text)
    raise fail(
        f"unknown action {code!r}; known: buio, controbuio, over, decline, pass, open, "
        "f, cc, cbr, parol, sd, sm"
    )


def resolve(raw: RawAction, deal: Deal | None) -> HistoryAction:
    """The engine action of a parsed line. PHH's ``cc`` (check or call) and ``cbr`` (bet or
    raise) are resolved by what the deal offers at that point; without a deal to ask (after an
    illegal action), as call and raise."""
    kinds = {la.kind for la in deal.legal_actions()} if deal is not None else set()
    if raw.code == "cc":
        kind = ActionKind.CHECK if ActionKind.CHECK in kinds else ActionKind.CALL
        return HistoryAction(raw.seat, Action(kind))
    if raw.code == "cbr":
        kind = ActionKind.BET if ActionKind.BET in kinds else ActionKind.RAISE
        return HistoryAction(raw.seat, Action(kind, raw.amount))
    if raw.code == "sd":
        return HistoryAction(raw.seat, Action(ActionKind.DRAW, cards=raw.cards, split=raw.split))
    if raw.code == "sm":
        if raw.cards:
            return HistoryAction(raw.seat, Action(ActionKind.SHOW), raw.cards)
        return HistoryAction(raw.seat, Action(ActionKind.MUCK))
    return HistoryAction(raw.seat, Action(_BY_CODE[raw.code], raw.amount))
