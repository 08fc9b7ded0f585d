"""The draw (Art. 4): each player in the hand changes up to four cards.

A :class:`Draw` holds who changed how many cards and which, the players still owed the fourth
card of a draw of four (4.2), the discards reshuffled into the stock when it runs out (4.3) and
the cards an opener keeps apart after splitting the opening (4.4). It serves the cards from the
stock of the table it is given, seen through :class:`DrawTable` (the deal, engine/deal.py, is
one; this module does not know it).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from italian_poker.engine.actions import Action, ActionKind, LegalAction, check_action
from italian_poker.engine.cards import Card, format_cards
from italian_poker.engine.errors import (
    InvalidAmountError,
    InvalidDrawError,
    ReshuffleMismatchError,
    SplitError,
)
from italian_poker.engine.operations import CardsDrawn, FourthCardDealt, Reshuffled

if TYPE_CHECKING:
    from italian_poker.engine.rules import Rules


class DrawLog(Protocol):
    """Where the draw writes what it did: the deal's operations log."""

    def append(self, operation: CardsDrawn | FourthCardDealt | Reshuffled, /) -> None: ...


class DrawTable(Protocol):
    """What the draw reads and moves of its deal: the hands, the stock and the muck (the
    discards not kept apart, 4.3), the opener and the groups that show the opening (4.4),
    the source of reshuffles and the operations log."""

    rules: Rules
    hands: list[list[Card]]
    stock: list[Card]
    muck: list[tuple[int, Card]]
    opener: int | None
    opening_hand: tuple[Card, ...]
    opening_groups: tuple[tuple[Card, ...], ...]

    @property
    def operations(self) -> DrawLog: ...

    def reshuffle_random(self) -> random.Random: ...


MAX_DRAW = 4
"""4.1: a player changes from none to four cards."""

DRAW_ONLY = (LegalAction(ActionKind.DRAW, max_cards=MAX_DRAW),)
"""What a player may do at the draw: change 0 to 4 cards."""


@dataclass(slots=True)
class Draw:
    """The draw of one deal. ``drawn[seat]`` is how many cards the seat changed (``None``
    before it drew), ``discards[seat]`` which; ``turns`` are the seats still to draw, in
    order. ``reshuffles`` records each reshuffle of discards into the stock (4.3); ``replay``
    holds recorded reshuffles still to be replayed."""

    drawn: list[int | None]
    discards: list[tuple[Card, ...]]
    replay: list[tuple[Card, ...]]
    turns: list[int] = field(default_factory=list)
    fourth_due: list[int] = field(default_factory=list)
    """4.2: who changed four cards and gets the fourth after everyone else."""
    kept_apart: tuple[Card, ...] = ()
    """4.4: the opener's cards kept apart for the proof: the discards of a split, and the
    hand he folded. They are never reshuffled into the stock (4.3)."""
    split_announced: bool = False
    reshuffles: list[tuple[Card, ...]] = field(default_factory=list)
    discarded_by: dict[Card, int] = field(default_factory=dict)
    """Reshuffled cards and who threw them (4.3: never served back to them if avoidable)."""

    @classmethod
    def prepare(cls, players: int, replay: Sequence[tuple[Card, ...]] = ()) -> Draw:
        """The draw of a deal, before anyone draws."""
        return cls([None] * players, [()] * players, list(replay))

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
        if self.replay and self.deck_cards_taken(deal, seat, len(cards)) is None:
            self._rehearse(deal, seat, action)

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

    def _rehearse(self, deal: DrawTable, seat: int, action: Action) -> None:
        """Make ``seat``'s draw, and the fourth cards it may complete (4.2), on copies of the
        draw and of the table: raise :class:`ReshuffleMismatchError` if a recorded reshuffle
        it uses (4.3) is not the discards it shuffles in. Only while recorded reshuffles
        are to be replayed and the stock may run out."""
        table = _Rehearsal(
            deal.rules,
            [list(hand) for hand in deal.hands],
            list(deal.stock),
            list(deal.muck),
            deal.opener,
            deal.opening_hand,
            deal.opening_groups,
        )
        draw = Draw(
            list(self.drawn),
            list(self.discards),
            list(self.replay),
            list(self.turns),
            list(self.fourth_due),
            self.kept_apart,
            self.split_announced,
            [],
            dict(self.discarded_by),
        )
        draw.change(table, seat, action)
        if not draw.turns:
            draw.serve_fourth_cards(table)

    def deck_cards_taken(self, deal: DrawTable, seat: int, changed: int) -> int | None:
        """How many cards from the top of the stock ``seat``'s draw of ``changed`` cards
        takes when ``seat`` is to draw: those served now (4.1) and, after the last draw, the
        fourth cards owed (4.2). ``None`` when the stock may not hold them (a reshuffle may
        follow, 4.3, or has been made): only the draw itself then tells."""
        total = min(changed, MAX_DRAW - 1)
        if self.turns == [seat]:
            total += len(self.fourth_due) + (changed == MAX_DRAW)
        if self.reshuffles or total > len(deal.stock):
            return None
        return total

    def change(self, deal: DrawTable, seat: int, action: Action) -> None:
        """``seat`` discards ``action.cards`` and is served as many, except the fourth card of
        a draw of four, which waits until everyone else has drawn (4.2)."""
        self.turns.remove(seat)
        cards = action.cards
        self.drawn[seat] = len(cards)
        self.discards[seat] = cards
        if action.split:
            self.split_announced = True
            self.kept_apart = cards  # 4.4: kept apart for the proof
        if not cards:
            return
        hand = deal.hands[seat]
        for card in cards:
            hand.remove(card)
        served = self.take(deal, min(len(cards), MAX_DRAW - 1), seat)
        hand.extend(served)
        deal.operations.append(CardsDrawn(seat, tuple(served)))
        if len(cards) == MAX_DRAW:
            self.fourth_due.append(seat)  # 4.2: the fourth card after everyone else
        if not action.split:
            deal.muck.extend((seat, c) for c in cards)

    def serve_fourth_cards(self, deal: DrawTable) -> None:
        """4.2: the fourth card of each draw of four, once everyone has drawn."""
        for late in self.fourth_due:
            served = self.take(deal, 1, late)
            deal.hands[late].extend(served)
            if served:
                deal.operations.append(FourthCardDealt(late, served[0]))

    def take(self, deal: DrawTable, count: int, seat: int) -> list[Card]:
        """Serve ``count`` cards to ``seat`` from the stock.

        4.3: when the stock runs out the discards are shuffled in, never the opener's cards
        kept apart (4.4). A player is never served a card they discarded while another card
        is available; only when nothing else is left are their own discards served. The
        stock and the discards always suffice: a deck for ``n`` players has ``4n + 16``
        cards, and fewer than ``5n`` are held by the players in the hand (the one served
        holds fewer than five) while at most four, the discards of a split, are kept apart
        (a folded opener's five are in place of his hand): ``4n + 16 > 5n + 3`` up to nine
        players.
        """
        served = self._from_stock(deal.stock, count, seat)
        if len(served) < count and deal.muck:
            self._shuffle_in(deal, deal.muck)
            deal.muck = []
            served += self._from_stock(deal.stock, count - len(served), seat)
        if len(served) < count:
            served += self._from_stock(deal.stock, count - len(served), None)
        return served

    def _from_stock(self, stock: list[Card], count: int, seat: int | None) -> list[Card]:
        """Up to ``count`` cards from the top of the stock, skipping ``seat``'s discards."""
        discarded_by = self.discarded_by
        if seat is None or not discarded_by:
            taken = stock[:count]
            del stock[:count]
            return taken
        taken = []
        i = 0
        while len(taken) < count and i < len(stock):
            if discarded_by.get(stock[i]) == seat:
                i += 1
            else:
                taken.append(stock.pop(i))
        return taken

    def _shuffle_in(self, deal: DrawTable, entries: Sequence[tuple[int, Card]]) -> None:
        """4.3: shuffle discards (with who discarded them) under the stock; recorded. A
        folded hand's cards leave the folded seat's hand as they are shuffled in, so no card
        is held in two places once they are dealt on."""
        pool = [c for _, c in entries]
        hands = deal.hands
        for owner, card in entries:
            self.discarded_by[card] = owner
            held = hands[owner]
            if card in held:  # thrown in with a fold: a drawn discard left the hand already
                held.remove(card)
        if self.replay:
            order = self.replay.pop(0)
            if sorted(c.index for c in order) != sorted(c.index for c in pool):
                raise ReshuffleMismatchError(
                    f"the recorded reshuffle {format_cards(order)} is not the discards "
                    f"shuffled in (4.3): {format_cards(sorted(pool, key=_index))}"
                )
            pool = list(order)
        else:
            deal.reshuffle_random().shuffle(pool)
        order = tuple(pool)
        self.reshuffles.append(order)
        deal.operations.append(Reshuffled(order))
        deal.stock.extend(pool)


def _index(card: Card) -> int:
    return card.index


@dataclass(slots=True)
class _Rehearsal:
    """A :class:`DrawTable` made of copies, on which :meth:`Draw.check` makes a draw before
    the deal does: its reshuffles not recorded are any order (only the recorded ones are
    checked), drawn from a source of its own that leaves the deal's untouched."""

    rules: Rules
    hands: list[list[Card]]
    stock: list[Card]
    muck: list[tuple[int, Card]]
    opener: int | None
    opening_hand: tuple[Card, ...]
    opening_groups: tuple[tuple[Card, ...], ...]
    operations: list[CardsDrawn | FourthCardDealt | Reshuffled] = field(default_factory=list)

    def reshuffle_random(self) -> random.Random:
        return random.Random(0)
