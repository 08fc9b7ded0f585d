"""Where a deal's cards come from: chance as an input.

A :class:`~italian_poker.engine.deal.Deal` takes every card through one step: the five cards
of each player (3.1), the cards served at the draw (4.1), the late fourth card of a draw of
four (4.2) and, once the stock has run out, the discards shuffled back in (4.3). At that step
the deal says what is due as a :class:`CardsDue`: how many cards, for whom, and which cards
the rules allow (the candidates). A :class:`CardSource` chooses them; the deal checks the
choice and logs it as an operation (engine/operations.py). A deal without a source stops
there (``deal.cards_due()``) until the caller gives the cards (``deal.deal_cards``), which is
how the OpenSpiel game's chance node drives it.

The sources:

- :class:`SecureSource`: the operating system's secure random source (live play);
- :class:`SeededSource`: reproducible from a seed (simulations, tests);
- :class:`StackedSource`: given cards, served in order (scenarios, tests);
- :class:`RecordedSource`: the cards a deal's log recorded, exactly (replays, restarts).
"""

from __future__ import annotations

import _random
import random
import secrets
import struct
from collections.abc import Iterable, Sequence
from enum import StrEnum
from functools import cache
from operator import itemgetter
from typing import NamedTuple, Protocol

from italian_poker.engine.cards import Card, format_cards
from italian_poker.engine.errors import CardSourceError
from italian_poker.engine.operations import CardsDrawn, FourthCardDealt, HandsDealt
from italian_poker.engine.seeds import derive_seed

__all__ = [
    "CHANCE",
    "CardOperation",
    "CardSource",
    "CardsDue",
    "ExplicitChance",
    "RecordedSource",
    "SecureSource",
    "SeededSource",
    "StackedSource",
    "Why",
]


class Why(StrEnum):
    """Why cards are due."""

    DEAL = "deal"
    """3.1: five cards to each player, one at a time from the dealer's left."""
    DRAW = "draw"
    """4.1: the cards served for those a player discarded (at most three at once)."""
    FOURTH = "fourth"
    """4.2: the fourth card of a draw of four, after everyone else has drawn."""


class CardsDue(NamedTuple):
    """Cards a deal needs now. ``number`` of the ``candidates`` go to ``seats``: for the deal
    (3.1) card ``k`` goes to ``seats[k % len(seats)]``, the seats from the dealer's left;
    otherwise ``seats`` is the one seat served. ``candidates`` are the cards the rules allow
    (the stock; after a reshuffle, 4.3, without the player's own discards while others are
    left). ``shuffled_in`` are the discards shuffled into the stock just before (4.3), in the
    order they were thrown."""

    why: Why
    seats: tuple[int, ...]
    number: int
    candidates: tuple[Card, ...]
    shuffled_in: tuple[Card, ...] = ()

    @property
    def seat(self) -> int | None:
        """The seat served, or ``None`` for the deal to everyone (3.1)."""
        return None if self.why is Why.DEAL else self.seats[0]


class CardSource(Protocol):
    """Chooses the cards a deal takes (see the module docstring)."""

    def take(self, due: CardsDue) -> tuple[Card, ...] | None:
        """``due.number`` different cards of ``due.candidates``, in the order they are dealt;
        ``None`` to leave the choice to the caller (the deal waits: ``deal.cards_due()``)."""
        ...


class ExplicitChance:
    """A source that never chooses: the deal stops at every chance step until it is given the
    cards (``deal.deal_cards``), as a game tree's chance node is resolved (OpenSpiel)."""

    __slots__ = ()

    def take(self, due: CardsDue) -> None:
        return None

    def __eq__(self, other: object) -> bool:
        return type(other) is ExplicitChance

    def __hash__(self) -> int:
        return hash(ExplicitChance)

    def __deepcopy__(self, memo: object) -> ExplicitChance:
        return self

    def __repr__(self) -> str:
        return "CHANCE"


CHANCE = ExplicitChance()
"""The :class:`ExplicitChance` source: a deal that waits for its cards."""


_KEY = itemgetter(0)


@cache
def _keys_format(order: str, size: int) -> struct.Struct:
    """``size`` unsigned 64-bit keys, big-endian (``">"``) or little-endian (``"<"``)."""
    return struct.Struct(f"{order}{size}Q")


def _sorted_by(keys: Sequence[int], cards: Sequence[Card]) -> list[Card]:
    return [card for _, card in sorted(zip(keys, cards, strict=True), key=_KEY)]


def secure_order(cards: Sequence[Card]) -> list[Card]:
    """``cards`` in a uniformly random order from :mod:`secrets`: each card gets an
    independent 64-bit key and the cards are sorted by key (one call to the source)."""
    size = len(cards)
    return _sorted_by(_keys_format(">", size).unpack(secrets.token_bytes(8 * size)), cards)


def seeded_order(cards: Sequence[Card], seed: int) -> list[Card]:
    """``cards`` in a random order reproducible from ``seed``: the 64-bit keys of
    :func:`secure_order` drawn from a Mersenne Twister seeded with ``seed``, in one call."""
    size = len(cards)
    # An int seeds the C generator under random.Random directly, as random.Random does.
    bits = _random.Random(seed).getrandbits(64 * size)
    return _sorted_by(_keys_format("<", size).unpack(bits.to_bytes(8 * size, "little")), cards)


class SecureSource:
    """Cards chosen with the operating system's secure random source (:mod:`secrets`): live
    play. Holds nothing, so one source serves any number of deals."""

    __slots__ = ()

    deals_from_candidates = True
    """Its cards are always the candidates' (the deal need not check them again)."""

    def take(self, due: CardsDue) -> tuple[Card, ...]:
        return tuple(secure_order(due.candidates)[: due.number])

    def __eq__(self, other: object) -> bool:
        return type(other) is SecureSource

    def __hash__(self) -> int:
        return hash(SecureSource)

    def __deepcopy__(self, memo: object) -> SecureSource:
        return self

    def __repr__(self) -> str:
        return "SecureSource()"


SECURE = SecureSource()
"""The shared :class:`SecureSource`, a deal's source unless it is given another."""


class StackedSource:
    """Serves ``cards`` in the order given: each take gets the first of them that are among
    the candidates (the others wait for a later take). When too few are left, the rest come
    from ``then`` or, without it, the take raises :class:`CardSourceError`.

    A whole deck order stacks a deal as a dealer would: the five cards of each player from the
    dealer's left, then the stock from the top (a player never gets back his own reshuffled
    discards while others are left: the next of the others comes first). :meth:`extend` adds
    cards at the end, e.g. the order of a reshuffle (4.3)."""

    __slots__ = ("_cards", "then")

    def __init__(self, cards: Iterable[Card], then: CardSource | None = None) -> None:
        self._cards = list(cards)
        for card in self._cards:
            if type(card) is not Card:
                raise CardSourceError(f"a stacked source holds cards, not {card!r}")
        self.then = then

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards not served yet, in order."""
        return tuple(self._cards)

    def extend(self, cards: Iterable[Card]) -> None:
        """Add ``cards`` after those not served yet."""
        more = list(cards)
        for card in more:
            if type(card) is not Card:
                raise CardSourceError(f"a stacked source holds cards, not {card!r}")
        self._cards += more

    def take(self, due: CardsDue) -> tuple[Card, ...]:
        count, stacked = due.number, self._cards
        allowed = set(due.candidates)
        head = stacked[:count]
        if len(head) == count and allowed.issuperset(head):
            # The first cards are the ones due (the deal, 3.1, and the draws from the stock).
            del stacked[:count]
            return tuple(head)
        picked: list[int] = []
        for i, card in enumerate(stacked):
            if card in allowed:
                allowed.discard(card)
                picked.append(i)
                if len(picked) == count:
                    break
        served = [stacked[i] for i in picked]
        for i in reversed(picked):
            del stacked[i]
        if len(served) < count:
            if self.then is None:
                raise CardSourceError(
                    f"the stacked cards hold {len(served)} of the {count} cards due "
                    f"({due.why.value}): stack more"
                )
            rest = CardsDue(
                due.why,
                due.seats,
                count - len(served),
                tuple(c for c in due.candidates if c not in set(served)),
                due.shuffled_in,
            )
            more = self.then.take(rest)
            if more is None:
                raise CardSourceError("the stacked cards are used up and nothing follows them")
            served += more
        return tuple(served)

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is StackedSource and other._cards == self._cards and other.then == self.then
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"StackedSource({format_cards(self._cards)!r})"


class SeededSource:
    """Cards reproducible from ``seed``: the first take (the deal, 3.1) orders all the
    candidates, the deck, with :func:`seeded_order` (or takes ``order``, a stacked deck) and
    serves them as a :class:`StackedSource` would; each reshuffle (4.3) puts the discards
    shuffled in after them, in an order from a stream of its own
    (``derive_seed(seed, "reshuffle")``, engine/seeds.py). One source serves one deal."""

    __slots__ = ("_reshuffles", "_stack", "deals_from_candidates", "seed")

    def __init__(self, seed: int, *, order: Iterable[Card] | None = None) -> None:
        if type(seed) is not int:
            raise CardSourceError(f"a seed is a whole number, not {seed!r}")
        self.seed = seed
        self._stack = None if order is None else StackedSource(order)
        self.deals_from_candidates = order is None
        """Whether it deals the five cards each (3.1) from the candidates by construction (an
        order of its own, not a stacked deck)."""
        self._reshuffles: random.Random | None = None

    def take(self, due: CardsDue) -> tuple[Card, ...]:
        stack = self._stack
        if stack is None:
            # The first take orders the whole deck: its first cards are the ones due.
            order = seeded_order(due.candidates, self.seed)
            count = due.number
            stack = self._stack = StackedSource.__new__(StackedSource)
            stack._cards, stack.then = order[count:], None
            return tuple(order[:count])
        if due.shuffled_in:
            if self._reshuffles is None:
                self._reshuffles = random.Random(derive_seed(self.seed, "reshuffle"))
            pool = list(due.shuffled_in)
            self._reshuffles.shuffle(pool)
            stack.extend(pool)
        return stack.take(due)

    def __eq__(self, other: object) -> bool:
        if type(other) is not SeededSource:
            return False
        mine, theirs = self._reshuffles, other._reshuffles
        return (
            other.seed == self.seed
            and other._stack == self._stack
            and (mine is None) == (theirs is None)
            and (mine is None or theirs is None or mine.getstate() == theirs.getstate())
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"SeededSource({self.seed})"


CardOperation = HandsDealt | CardsDrawn | FourthCardDealt
"""An operation that records cards taken (engine/operations.py)."""


class RecordedSource:
    """Serves exactly the cards a deal's log recorded (its :data:`CardOperation` entries, in
    order; other operations are passed over): a replay, or a restart in the middle of a deal.

    Each take checks the recorded cards first: they must be for the seat served, as many as
    due, and among the candidates; otherwise it raises :class:`CardSourceError` and serves
    nothing. Once the recorded cards are used up the rest come from ``then`` (a restarted deal
    goes on live) or, without it, a take raises :class:`CardSourceError`. :meth:`extend`
    adds operations recorded later (a replica following a log)."""

    __slots__ = ("_queue", "then")

    def __init__(self, operations: Iterable[object] = (), then: CardSource | None = None) -> None:
        self._queue: list[CardOperation] = []
        self.then = then
        self.extend(operations)

    def extend(self, operations: Iterable[object]) -> None:
        """Add the cards of ``operations`` (those that take cards) after the others."""
        for op in operations:
            if isinstance(op, HandsDealt | FourthCardDealt) or (
                isinstance(op, CardsDrawn) and op.cards
            ):
                self._queue.append(op)

    @property
    def pending(self) -> tuple[CardOperation, ...]:
        """The recorded operations not served yet (the rest of one served in part first)."""
        return tuple(self._queue)

    def take(self, due: CardsDue) -> tuple[Card, ...] | None:
        queue = self._queue
        if not queue:
            if self.then is None:
                raise CardSourceError(
                    f"no more recorded cards: {due.number} are due ({due.why.value})"
                )
            return self.then.take(due)
        op = queue[0]
        rest: CardOperation | None = None
        if isinstance(op, HandsDealt):
            if due.why is not Why.DEAL:
                raise CardSourceError(
                    f"the record deals the hands (3.1) where the deal serves {due.why.value}"
                )
            served = _interleaved(op.hands, due.seats)
        else:
            cards = op.cards if isinstance(op, CardsDrawn) else (op.card,)
            if due.why is Why.DEAL or op.seat != due.seats[0]:
                whom = "everyone" if due.why is Why.DEAL else f"seat {due.seats[0]}"
                raise CardSourceError(
                    f"the record serves seat {op.seat} {format_cards(cards)} where the deal "
                    f"serves {whom} ({due.why.value})"
                )
            served = tuple(cards[: due.number])
            if len(served) < len(cards):
                rest = CardsDrawn(op.seat, tuple(cards[len(served) :]))
        if len(served) != due.number:
            raise CardSourceError(
                f"the record gives {len(served)} cards where the deal takes {due.number}"
            )
        allowed = set(due.candidates)
        missing = [c for c in served if c not in allowed]
        if missing or len(set(served)) != len(served):
            raise CardSourceError(
                f"the recorded cards {format_cards(served)} are not available now "
                f"({due.why.value}): {format_cards(missing) or 'a card twice'}"
            )
        if rest is None:
            queue.pop(0)
        else:
            queue[0] = rest
        return served

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is RecordedSource
            and other._queue == self._queue
            and other.then == self.then
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"RecordedSource({len(self._queue)} operations)"


def _interleaved(hands: Sequence[Sequence[Card]], seats: Sequence[int]) -> tuple[Card, ...]:
    """The recorded hands (by seat) in the order the deal deals them: one card at a time to
    ``seats``, from the dealer's left (3.1)."""
    if len(hands) != len(seats):
        raise CardSourceError(f"the record deals {len(hands)} hands to {len(seats)} players")
    size = len(hands[0]) if hands else 0
    if any(len(hand) != size for hand in hands):
        raise CardSourceError("the recorded hands are not all of one size")
    return tuple(hands[s][k] for k in range(size) for s in seats)
