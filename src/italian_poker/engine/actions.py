"""Actions a seat may take, and the legal actions offered to the seat whose turn it is."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from italian_poker.engine.cards import Card, format_cards
from italian_poker.engine.errors import InvalidAmountError, MalformedActionError, SeatNumberError


class ActionKind(StrEnum):
    """Every kind of action in a deal, named after the game's own terms."""

    BLIND = "blind"
    """*Buio*: a blind bet equal to the pot (or double), before the cards are seen (Art. 2)."""
    CONTROBUIO = "controbuio"
    """Twice the buio, by the next player (Art. 2)."""
    OVER = "over"
    """*Contro-controbuio*: twice the controbuio, by the next player (Art. 2)."""
    DECLINE = "decline"
    """Decline the blind, controbuio or over offered."""
    PASS = "pass"
    """*Passo* before the pot is opened (3.2)."""
    OPEN = "open"
    """*Apro*: the first bet, needing the opening requirement (3.3)."""
    FOLD = "fold"
    """Give up the hand (*passo* after the opening)."""
    CALL = "call"
    """*Vedo*: match the current bet."""
    RAISE = "raise"
    """*Rilancio*: raise the current bet; the amount is the new total bet for the round."""
    CHECK = "check"
    """*Busso* in the second round (5.2(b)); the last blind bettor ending the first round."""
    BET = "bet"
    """*Punto*: the first bet of the second round (5.2(a))."""
    PAROL = "parol"
    """Propose to abandon the hand (5.2(c))."""
    DRAW = "draw"
    """Change 0 to 4 cards (Art. 4)."""
    SHOW = "show"
    """Show the hand at the showdown."""
    MUCK = "muck"
    """Concede at the showdown without showing a losing hand (002)."""
    MAKE_UP = "make-up"
    """5.5: a first-round folder of an abandoned hand pays in to play the next deal."""
    SIT_OUT = "sit-out"
    """5.5: a first-round folder of an abandoned hand sits the next deal out."""


AMOUNT_KINDS = frozenset({ActionKind.OPEN, ActionKind.BET, ActionKind.RAISE})
"""Kinds whose ``amount`` the player chooses (the new total bet for the round)."""


_new = object.__new__
_set = object.__setattr__


@dataclass(frozen=True, slots=True, init=False)
class Action:
    """One action. ``amount`` is the player's total bet in the round after an open, bet or
    raise (chosen) or a call or blind (filled in by the engine in the record). ``cards`` are the
    discards of a draw; ``split`` announces that the opener breaks the opening (4.4).

    An action of a kind alone (``Action(ActionKind.CALL)``) is one shared object: actions are
    immutable, and a policy makes one per decision (a frozen dataclass's own ``__init__`` sets
    each field through ``object.__setattr__``; docs/performance.md)."""

    kind: ActionKind
    amount: int | None
    cards: tuple[Card, ...]
    split: bool

    def __new__(
        cls,
        kind: ActionKind,
        amount: int | None = None,
        cards: tuple[Card, ...] = (),
        split: bool = False,
    ) -> Action:
        plain = amount is None and cards == () and split is False
        if plain and cls is Action and type(kind) is ActionKind:
            return _PLAIN[kind]
        return _holding(_new(cls), kind, amount, cards, split)

    def __reduce__(
        self,
    ) -> tuple[type[Action], tuple[ActionKind, int | None, tuple[Card, ...], bool]]:
        # Pickled and copied through the constructor (which shares plain actions).
        return (type(self), (self.kind, self.amount, self.cards, self.split))

    def __str__(self) -> str:
        # A malformed kind (refused when applied) still prints, as its repr.
        kind = self.kind
        text = kind.value if type(kind) is ActionKind else repr(kind)
        if self.amount is not None:
            text += f" {self.amount}"
        if self.kind is ActionKind.DRAW:
            text += f" {len(self.cards)}" + (f" [{format_cards(self.cards)}]" if self.cards else "")
            if self.split:
                text += " split"
        return text


def _holding(
    action: Action, kind: ActionKind, amount: int | None, cards: tuple[Card, ...], split: bool
) -> Action:
    """``action``, a new instance, with its fields set."""
    _set(action, "kind", kind)
    _set(action, "amount", amount)
    _set(action, "cards", cards)
    _set(action, "split", split)
    return action


_PLAIN: Final[dict[ActionKind, Action]] = {
    kind: _holding(_new(Action), kind, None, (), False) for kind in ActionKind
}
"""Per kind, the action of that kind alone, shared."""


def check_action(action: object) -> None:
    """Raise unless ``action`` is a well-formed :class:`Action`: an :class:`ActionKind`, an
    amount that is ``None`` or a whole number of chips (an ``int``, not a bool, float or
    decimal), discards as a tuple of :class:`Card` and ``split`` a bool. Whether it is legal
    now is for the deal to say."""
    if type(action) is not Action:
        raise MalformedActionError(
            f"an action is an Action, such as Action(ActionKind.FOLD), not {action!r}"
        )
    if type(action.kind) is not ActionKind:
        choices = ", ".join(kind.name for kind in ActionKind)
        raise MalformedActionError(
            f"{action.kind!r} is not an action kind: use ActionKind.<name>, one of {choices}"
        )
    amount = action.amount
    if amount is not None and type(amount) is not int:
        raise InvalidAmountError(f"an amount is a whole number of chips, not {amount!r}")
    if type(action.cards) is not tuple or any(type(c) is not Card for c in action.cards):
        raise MalformedActionError(
            f"the cards of an action are a tuple of Card, not {action.cards!r}"
        )
    if type(action.split) is not bool:
        raise MalformedActionError(f"split is True or False, not {action.split!r}")


def check_seat(seat: object, players: int, *, what: str = "a seat", other: str = "") -> int:
    """Return ``seat`` if it is a seat number of a deal of ``players`` players (an ``int`` from
    0 to ``players - 1``, not a bool, float or text), else raise :class:`SeatNumberError`,
    saying ``what`` was given and the ``other`` values allowed besides a seat."""
    if type(seat) is not int or not 0 <= seat < players:
        raise SeatNumberError(
            f"{what} is a seat number from 0 to {players - 1}{other}, not {seat!r}"
        )
    return seat


def fold() -> Action:
    """Fold."""
    return Action(ActionKind.FOLD)


def call() -> Action:
    """Call (*vedo*)."""
    return Action(ActionKind.CALL)


def check() -> Action:
    """Check (*busso*)."""
    return Action(ActionKind.CHECK)


def pass_() -> Action:
    """Pass before the opening (*passo*)."""
    return Action(ActionKind.PASS)


def open_(amount: int) -> Action:
    """Open (*apro*) for ``amount``."""
    return Action(ActionKind.OPEN, amount)


def bet(amount: int) -> Action:
    """Bet (*punto*) ``amount`` in the second round."""
    return Action(ActionKind.BET, amount)


def raise_to(amount: int) -> Action:
    """Raise (*rilancio*) to a total round bet of ``amount``."""
    return Action(ActionKind.RAISE, amount)


def parol() -> Action:
    """Say parol."""
    return Action(ActionKind.PAROL)


def draw(*cards: Card, split: bool = False) -> Action:
    """Discard ``cards`` (0 to 4) and receive as many."""
    return Action(ActionKind.DRAW, cards=tuple(cards), split=split)


@dataclass(frozen=True, slots=True)
class LegalAction:
    """An action the seat to act may take now. For open, bet and raise, any ``amount`` from
    ``min_amount`` to ``max_amount`` (new total round bet) is allowed; for call and blinds the
    amount is fixed. For a draw, up to ``max_cards`` cards from the hand; for the opener's draw,
    ``split_unless_kept`` says which draws break the opening (4.4)."""

    kind: ActionKind
    min_amount: int | None = None
    max_amount: int | None = None
    max_cards: int = 0
    split_unless_kept: tuple[tuple[Card, ...], ...] | None = None
    """The opener's draw (4.4): the groups of cards that show the opening by themselves
    (:func:`~italian_poker.engine.opening.opening_groups`). A draw that keeps every card of one
    group keeps the opening; any other draw breaks it and must announce the split
    (``split=True``), or is refused where the rules forbid a split. ``None`` for everyone but
    the opener, whose draw never needs an announcement."""

    def breaks_opening(self, discards: Collection[Card]) -> bool:
        """4.4: whether drawing ``discards`` breaks the opening (the opener must announce the
        split); always false when there is no opening to keep, or nothing is discarded."""
        groups = self.split_unless_kept
        if groups is None or not discards:
            return False
        return all(any(card in discards for card in group) for group in groups)

    def __str__(self) -> str:
        if self.min_amount is None:
            return self.kind.value
        if self.min_amount == self.max_amount:
            return f"{self.kind.value} {self.min_amount}"
        return f"{self.kind.value} {self.min_amount}-{self.max_amount}"
