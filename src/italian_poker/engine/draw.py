"""The draw (Art. 4): each player in the hand changes up to four cards.

A :class:`Draw` holds who changed how many cards and which, the players still owed the fourth
card of a draw of four (4.2), the discards reshuffled into the stock when it runs out (4.3) and
the cards an opener keeps apart after splitting the opening (4.4). It says which cards may
serve a player now (:meth:`Draw.due`, reshuffling the discards when the stock has run out) of
the table it is given, seen through :class:`DrawTable` (the deal, engine/deal.py, is one; this
module does not know it); the deal's card source chooses among them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from italian_poker.engine.actions import Action, ActionKind, LegalAction, check_action
from italian_poker.engine.card_source import CardsDue, Why
from italian_poker.engine.cards import Card
from italian_poker.engine.errors import InvalidAmountError, InvalidDrawError, SplitError
from italian_poker.engine.operations import CardsDrawn, FourthCardDealt, Reshuffled

if TYPE_CHECKING:
    from italian_poker.engine.rules import Rules


class DrawLog(Protocol):
    """Where the draw writes what it did: the deal's operations log."""

    def append(self, operation: CardsDrawn | FourthCardDealt | Reshuffled, /) -> None: ...


class DrawTable(Protocol):
    """What the draw reads and moves of its deal: the hands, the stock and the muck (the
    discards not kept apart, 4.3), the opener and the groups that show the opening (4.4)
    and the operations log."""

    rules: Rules
    hands: list[list[Card]]
    muck: list[tuple[int, Card]]
    opener: int | None
    opening_hand: tuple[Card, ...]
    opening_groups: tuple[tuple[Card, ...], ...]

    @property
    def stock(self) -> list[Card]: ...

    @property
    def operations(self) -> DrawLog: ...


MAX_DRAW = 4
"""4.1: a player changes from none to four cards."""

DRAW_ONLY = (LegalAction(ActionKind.DRAW, max_cards=MAX_DRAW),)

_NOTHING_OWED: tuple[tuple[Why, int, int], ...] = ()
"""What a player may do at the draw: change 0 to 4 cards."""


@dataclass(slots=True)
class Draw:
    """The draw of one deal. ``drawn[seat]`` is how many cards the seat changed (``None``
    before it drew), ``discards[seat]`` which; ``turns`` are the seats still to draw, in
    order. ``reshuffles`` records the discards of each reshuffle into the stock (4.3), in the
    order they were thrown."""

    drawn: list[int | None]
    discards: list[tuple[Card, ...]]
    turns: list[int] = field(default_factory=list)
    fourth_due: list[int] = field(default_factory=list)
    """4.2: who changed four cards and gets the fourth after everyone else."""
    kept_apart: tuple[Card, ...] = ()
    """4.4: the opener's cards kept apart for the proof: the discards of a split, and the
    hand he folded. They are never reshuffled into the stock (4.3)."""
    split_announced: bool = False
    reshuffles: list[tuple[Card, ...]] = field(default_factory=list)
    discarded_by: dict[Card, int] = field(default_factory=dict)
    thrown: tuple[tuple[int, Card], ...] = ()
    """The discards of the player being served, for the muck once he is served (4.3)."""
    """Reshuffled cards and who threw them (4.3: never served back to them if avoidable)."""

    @classmethod
    def prepare(cls, players: int) -> Draw:
        """The draw of a deal, before anyone draws."""
        return cls([None] * players, [()] * players)

    def keep_apart(self, cards: Sequence[Card]) -> None:
        """4.4: the opener's folded hand is kept apart with his split discards, if any."""
        self.kept_apart += tuple(cards)

    def choices(self, deal: DrawTable, seat: int) -> tuple[LegalAction, ...]:
        """Change 0 to 4 cards; for the opener, with the groups that keep the opening (4.4)."""
        if seat != deal.opener or not deal.opening_hand:
            return DRAW_ONLY
        groups = deal.opening_groups
        return (LegalAction(ActionKind.DRAW, max_cards=MAX_DRAW, split_unless_kept=groups),)

    def check(self, deal: DrawTable, seat: int, action: Action, legal: LegalAction) -> None:
        """Raise :class:`InvalidDrawError` unless ``action`` is a draw ``seat`` may make;
        ``legal`` is the draw offered (:meth:`choices`)."""
        if action.amount is not None:
            raise InvalidAmountError("a draw names the cards to change, not an amount")
        cards = action.cards
        if type(cards) is not tuple or type(action.split) is not bool:
            check_action(action)  # raises
        if cards:
            for card in cards:
                if type(card) is not Card:
                    check_action(action)  # raises
            if len(cards) > MAX_DRAW:
                raise InvalidDrawError(f"you may change at most {MAX_DRAW} cards, not {len(cards)}")
            if len(set(cards)) != len(cards):
                raise InvalidDrawError("each discarded card must be named once")
            hand = deal.hands[seat]
            missing = [str(c) for c in cards if c not in hand]
            if missing:
                raise InvalidDrawError(f"you do not hold {', '.join(missing)}")
        if action.split:
            self._check_split(deal, seat, cards, legal)
        if cards and legal.breaks_opening(cards):  # standing pat never breaks it
            if not deal.rules.opener_may_split:
                raise InvalidDrawError(
                    "these rules do not let the opener break the opening combination"
                )
            if not action.split:
                raise InvalidDrawError(
                    "you are discarding part of your opening: announce the split (4.4) "
                    "so your discards are kept apart for the proof"
                )

    @staticmethod
    def _check_split(
        deal: DrawTable, seat: int, cards: tuple[Card, ...], legal: LegalAction
    ) -> None:
        """4.4: raise :class:`SplitError` unless announcing a split is the opener's, with a
        draw that breaks the opening."""
        if seat != deal.opener:
            raise SplitError("only the opener announces a split opening (4.4)")
        if not legal.breaks_opening(cards):
            kept = "you change no card" if not cards else "the cards you keep still open"
            raise SplitError(
                f"a split (4.4) announces that you break your opening, and {kept}: "
                f"draw without announcing a split"
            )

    def change(self, deal: DrawTable, seat: int, action: Action) -> Sequence[tuple[Why, int, int]]:
        """``seat`` discards ``action.cards``: return the cards it is owed, ``(why, seat,
        count)``, in the order they are served: as many as it changed but the fourth card of
        a draw of four, which waits until everyone else has drawn (4.2), and, after the last
        draw, those fourth cards."""
        self.turns.remove(seat)
        cards = action.cards
        self.drawn[seat] = len(cards)
        self.discards[seat] = cards
        if action.split:
            self.split_announced = True
            self.kept_apart = cards  # 4.4: kept apart for the proof
        if not cards and self.turns:
            return _NOTHING_OWED
        owed: list[tuple[Why, int, int]] = []
        if cards:
            hand = deal.hands[seat]
            for card in cards:
                hand.remove(card)
            owed.append((Why.DRAW, seat, min(len(cards), MAX_DRAW - 1)))
            if len(cards) == MAX_DRAW:
                self.fourth_due.append(seat)  # 4.2: the fourth card after everyone else
            if not action.split:
                # To the muck once the player is served: never reshuffled into his own serve.
                self.thrown = tuple([(seat, c) for c in cards])
        if not self.turns:
            owed += [(Why.FOURTH, late, 1) for late in self.fourth_due]
        return owed

    def due(self, deal: DrawTable, why: Why, seat: int, count: int) -> CardsDue:
        """The cards that may serve ``seat`` now, up to ``count`` of them.

        4.3: when the stock runs out the discards are shuffled in (done here, and logged),
        never the opener's cards kept apart (4.4). A player is never served a card they
        discarded while another card is available; only when nothing else is left are their
        own discards served. So the candidates are the stock without the player's own
        reshuffled discards (fewer than ``count`` of them are all taken, and the rest is due
        next), else, the discards shuffled in, the same, else their own. The stock and the
        discards always suffice: a deck for ``n`` players has ``4n + 16`` cards, and fewer
        than ``5n`` are held by the players in the hand (the one served holds fewer than
        five) while at most four, the discards of a split, are kept apart (a folded opener's
        five are in place of his hand): ``4n + 16 > 5n + 3`` up to nine players.
        """
        stock = deal.stock
        discarded_by = self.discarded_by
        allowed = [c for c in stock if discarded_by.get(c) != seat] if discarded_by else stock
        shuffled_in: tuple[Card, ...] = ()
        if not allowed and deal.muck:
            shuffled_in = self._shuffle_in(deal, deal.muck)
            deal.muck = []
            allowed = [c for c in stock if discarded_by.get(c) != seat]
        if not allowed:
            allowed = stock
        return CardsDue(why, (seat,), min(count, len(allowed)), tuple(allowed), shuffled_in)

    def served(self, deal: DrawTable, why: Why, seat: int, cards: tuple[Card, ...]) -> None:
        """Log the cards ``seat`` was served, all of one draw (4.1) or a fourth card (4.2)."""
        if why is Why.DRAW:
            deal.operations.append(CardsDrawn(seat, cards))
            deal.muck.extend(self.thrown)
            self.thrown = ()
        else:
            deal.operations.append(FourthCardDealt(seat, cards[0]))

    def _shuffle_in(self, deal: DrawTable, entries: Sequence[tuple[int, Card]]) -> tuple[Card, ...]:
        """4.3: shuffle discards (with who discarded them) under the stock; logged, and
        returned in the order they were thrown (their new order is the card source's). A
        folded hand's cards leave the folded seat's hand as they are shuffled in, so no card
        is held in two places once they are dealt on."""
        hands = deal.hands
        for owner, card in entries:
            self.discarded_by[card] = owner
            held = hands[owner]
            if card in held:  # thrown in with a fold: a drawn discard left the hand already
                held.remove(card)
        pool = tuple([c for _, c in entries])
        self.reshuffles.append(pool)
        deal.operations.append(Reshuffled(pool))
        deal.stock.extend(pool)
        return pool
