"""An independent referee for the property tests of ``test_referee.py``.

It knows the rules from the rulebook (000) and docs/rules.md, not from the engine: it follows
each betting round from the public records of the actions and says, for the player to act,
whether a raise is allowed and with what amounts; it says whether an opener's draw breaks the
opening (4.4); and it reads where every card is from the views alone.

Where the documents admit more than one reading, the referee answers ``MAYBE`` and the test
checks nothing there (a short all-in opening bet facing players who passed; the increment a
pot- or no-limit raise must reach after a blind). The raise cap follows the options that
docs/rules.md decides: a short all-in counts toward it only with ``short_all_in_is_raise``, and
it binds between two players not all-in only with ``raise_cap_heads_up`` or when it was reached
with three or more.

**Full raise** (000 Art. 2-3, docs/rules.md "Betting structures" and "All-in and side pots"):
a raise is full when its increment over the current bet is at least: spread limit, the round's
minimum bet (``min_bet``, doubled in the second round with ``second_round_doubled``); fixed
limit, the round's bet size (``small_bet``, ``big_bet``); pot and no limit, the largest bet or
raise increment of the round so far (at least the minimum bet). A smaller raise is legal only
all-in and is *short*: a player who has already acted, and since then faces only short raises
that together come to less than a full raise, may call or fold but not raise (several short
all-ins that together make a full raise re-open the betting: the cardroom convention); a player
who has not acted yet in the round may raise. After a blind (000 Art. 2) nobody may raise until
the last blind bettor acts again; he may then check or raise, and his raise starts a normal
round.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum

from italian_poker import ActionKind, BettingStructure, Card, Phase, Rank, Rules

AMOUNT_FREE = frozenset({ActionKind.OPEN, ActionKind.BET, ActionKind.RAISE})
"""Kinds whose amount the player chooses: the new round total."""
BLIND_KINDS = frozenset({ActionKind.BLIND, ActionKind.CONTROBUIO, ActionKind.OVER})
FIRST_ROUND_PHASES = frozenset({Phase.BLINDS, Phase.OPENING, Phase.FIRST_ROUND})


class Answer(Enum):
    """The referee's answer: yes, no, or a point the documents do not settle."""

    YES = "yes"
    NO = "no"
    MAYBE = "maybe"


def _at_least(value: int, lo: int, hi: int) -> Answer:
    """Whether ``value`` reaches a threshold known to lie in ``lo..hi``."""
    if value >= hi:
        return Answer.YES
    if value < lo:
        return Answer.NO
    return Answer.MAYBE


def round_minimum(rules: Rules, second: bool) -> int:
    """The smallest bet of a round: fixed limit, the round's bet size; otherwise ``min_bet``,
    doubled in the second round with ``second_round_doubled`` (001)."""
    if rules.structure is BettingStructure.FIXED_LIMIT:
        return rules.big_bet if second else rules.small_bet
    return rules.min_bet * (2 if second and rules.second_round_doubled else 1)


def round_maximum(rules: Rules, second: bool) -> int:
    """Spread limit: the largest bet or raise increment of the round."""
    return rules.max_bet * (2 if second and rules.second_round_doubled else 1)


@dataclass
class Acted:
    """A seat's last action in the round: the bet it then faced (or made) and the full-raise
    increment in force then (as bounds)."""

    level: int
    need_lo: int
    need_hi: int


@dataclass
class BettingReferee:
    """Follows one deal's betting rounds from the recorded actions."""

    rules: Rules
    n: int
    second: bool = False
    bets: list[int] = field(default_factory=list)
    current: int = 0
    inc_lo: int = 0
    inc_hi: int = 0
    acted: dict[int, Acted] = field(default_factory=dict)
    unsure: set[int] = field(default_factory=set)
    raises_full: int = 0
    raises_other: int = 0
    capped: bool = False
    blind_lock: bool = False
    last_blinder: int | None = None
    opened: bool = False
    log: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._start_round(second=False)

    def _start_round(self, *, second: bool) -> None:
        self.second = second
        self.bets = [0] * self.n
        self.current = 0
        self.inc_lo = self.inc_hi = round_minimum(self.rules, second)
        self.acted = {}
        self.unsure = set()
        self.raises_full = self.raises_other = 0
        self.capped = False
        self.blind_lock = False
        self.opened = False

    def sync_phase(self, phase: Phase) -> None:
        """Start the second round when the deal reaches it."""
        if phase is Phase.SECOND_ROUND and not self.second:
            self._start_round(second=True)

    @property
    def structure(self) -> BettingStructure:
        return self.rules.structure

    def _classify(self, increment: int) -> Answer:
        """Whether a raise (or the first bet) of ``increment`` is full."""
        if self.structure in (BettingStructure.SPREAD_LIMIT, BettingStructure.FIXED_LIMIT):
            return Answer.YES if increment >= round_minimum(self.rules, self.second) else Answer.NO
        return _at_least(increment, self.inc_lo, self.inc_hi)

    def _mark(self, seat: int) -> None:
        self.acted[seat] = Acted(self.current, self.inc_lo, self.inc_hi)
        self.unsure.discard(seat)

    def record(
        self,
        seat: int,
        kind: ActionKind,
        amount: int | None,
        phase: Phase,
        stack_after: int,
        betting_players: int = 0,
    ) -> None:
        """Take in one recorded action (``amount`` as recorded: the seat's new round total
        for bets, calls and blinds), the seat's stack after it and how many players still in
        are not all-in after it."""
        self.sync_phase(phase)
        self.log.append(f"{phase.value}: seat {seat} {kind.value} {amount if amount else ''}")
        if kind in BLIND_KINDS:
            assert amount is not None
            self.bets[seat] = amount
            self.current = amount
            self.last_blinder = seat
            self.blind_lock = True
            self.opened = True
            if self.structure in (BettingStructure.POT_LIMIT, BettingStructure.NO_LIMIT):
                # Whether a blind counts as the round's largest bet is not settled: the
                # increment lies between the minimum bet and the last blind.
                self.inc_hi = max(self.inc_hi, amount)
            return
        if kind in (ActionKind.PASS, ActionKind.CHECK, ActionKind.PAROL):
            self._mark(seat)
            if kind is ActionKind.CHECK and self.blind_lock and seat == self.last_blinder:
                self.blind_lock = False
            return
        if kind is ActionKind.FOLD:
            self.acted.pop(seat, None)
            return
        if kind is ActionKind.CALL:
            assert amount is not None
            self.bets[seat] = amount
            self._mark(seat)
            return
        if kind in (ActionKind.OPEN, ActionKind.BET):
            assert amount is not None
            full = self._classify(amount)
            self.bets[seat] = amount
            self.current = amount
            self.opened = True
            cap = self.rules.raise_cap
            if cap is not None and self.raise_count() >= cap and betting_players > 2:
                self.capped = True  # a cap of no raises is reached by the first bet
            if full is Answer.YES:
                if self.structure in (BettingStructure.POT_LIMIT, BettingStructure.NO_LIMIT):
                    self.inc_lo = self.inc_hi = max(amount, self.inc_lo)
            else:
                # A short all-in first bet: whether a player who passed or checked may then
                # raise is not settled by the documents.
                self.unsure |= set(self.acted)
            self._mark(seat)
            return
        if kind is ActionKind.RAISE:
            assert amount is not None
            increment = amount - self.current
            full = self._classify(increment)
            if full is Answer.YES:
                self.raises_full += 1
                if self.structure in (BettingStructure.POT_LIMIT, BettingStructure.NO_LIMIT):
                    self.inc_lo = self.inc_hi = increment
            else:
                self.raises_other += 1
            cap = self.rules.raise_cap
            if cap is not None and self.raise_count() >= cap and betting_players > 2:
                self.capped = True  # reached with three or more: a fold does not lift it
            if self.blind_lock and seat == self.last_blinder:
                self.blind_lock = False
            self.bets[seat] = amount
            self.current = amount
            self._mark(seat)
            return

    def raise_count(self) -> int:
        """The raises that count toward the cap: full ones, and short all-ins where
        ``short_all_in_is_raise``."""
        short = self.raises_other if self.rules.short_all_in_is_raise else 0
        return self.raises_full + short

    def may_raise(
        self, seat: int, stacks: Sequence[int], folded: Sequence[bool], live: int
    ) -> Answer:
        """Whether ``seat``, to act, may raise now. ``live`` counts the players still in."""
        stack = stacks[seat]
        to_call = self.current - self.bets[seat]
        if not self.opened or self.current == 0:
            return Answer.NO  # nothing to raise: the first bet is an open or a bet
        if stack <= to_call:
            return Answer.NO  # can only call (all-in) or fold
        if not any(stacks[s] > 0 for s in range(self.n) if s != seat and not folded[s]):
            return Answer.NO  # everyone else still in is all-in
        cap = self.rules.raise_cap
        if cap is not None and self.raise_count() >= cap:
            betting = sum(1 for s in range(self.n) if not folded[s] and stacks[s] > 0)
            if self.capped or self.rules.raise_cap_heads_up or betting > 2:
                return Answer.NO  # the cap binds (heads-up only if reached with three)
        if self.blind_lock:
            right = Answer.YES if seat == self.last_blinder else Answer.NO
        elif seat not in self.acted:
            right = Answer.YES
        elif seat in self.unsure:
            right = Answer.MAYBE
        else:
            last = self.acted[seat]
            right = _at_least(self.current - last.level, last.need_lo, last.need_hi)
        if right is Answer.NO:
            return Answer.NO
        if right is Answer.MAYBE:
            return Answer.MAYBE
        return Answer.YES

    def raise_bounds(self, seat: int, stack: int, pot: int) -> tuple[tuple[int, int], int] | None:
        """The bounds of the smallest raise total allowed (a range where the increment is not
        settled) and the largest, or None where the structure leaves them unsettled."""
        all_in = self.bets[seat] + stack
        s = self.structure
        lo = min(self.current + self.inc_lo, all_in)
        hi = min(self.current + self.inc_hi, all_in)
        if s is BettingStructure.FIXED_LIMIT:
            top = min(self.current + round_minimum(self.rules, self.second), all_in)
            return (top, top), top
        if s is BettingStructure.SPREAD_LIMIT:
            low = min(self.current + round_minimum(self.rules, self.second), all_in)
            return (low, low), min(self.current + round_maximum(self.rules, self.second), all_in)
        if s is BettingStructure.NO_LIMIT:
            return (lo, hi), all_in
        # Pot limit: at most the pot after calling, on top of the call.
        to_call = self.current - self.bets[seat]
        return (lo, hi), min(self.current + pot + to_call, all_in)


def bet_bounds(rules: Rules, second: bool, stack: int, pot: int) -> tuple[int, int]:
    """The range of an opening or first bet (docs/rules.md "Opening bet size"): fixed limit,
    the round's bet; spread, ``min_bet`` to ``max_bet``; pot limit, up to the pot; no limit, up
    to the stack; anything less all-in."""
    low = round_minimum(rules, second)
    s = rules.structure
    if s is BettingStructure.FIXED_LIMIT:
        top = low
    elif s is BettingStructure.SPREAD_LIMIT:
        top = round_maximum(rules, second)
    elif s is BettingStructure.POT_LIMIT:
        top = max(pot, low)
    else:
        top = stack
    return min(low, stack), min(top, stack)


# --- 4.4: does a draw break the opening? --------------------------------------------------------


def opening_kept(
    kept: Sequence[Card], min_pair: Rank, four_straight_flush: bool, lowest: Rank
) -> bool:
    """Whether the cards an opener keeps (at most four, one discard or more) still show an
    opening (3.3): a pair of ``min_pair`` or better, two pair, three or four of a kind, or
    (3.3(b)) four consecutive cards of one suit without the ace, in the stripped deck whose
    lowest rank is ``lowest``."""
    counts: dict[Rank, int] = {}
    for card in kept:
        counts[card.rank] = counts.get(card.rank, 0) + 1
    pairs = [rank for rank, k in counts.items() if k >= 2]
    if any(k >= 3 for k in counts.values()) or len(pairs) >= 2:
        return True
    if any(rank >= min_pair for rank in pairs):
        return True
    if four_straight_flush and len(kept) >= 4:
        by_suit: dict[object, set[int]] = {}
        for card in kept:
            if card.rank != Rank.ACE:
                by_suit.setdefault(card.suit, set()).add(int(card.rank))
        for ranks in by_suit.values():
            for low in ranks:
                if all(low + k in ranks for k in range(4)) and low >= lowest:
                    return True
    return False


# --- where every card is ---------------------------------------------------------------------


@dataclass(frozen=True)
class Place:
    """Where a view shows a card: ``what`` (hand, folded hand, kept apart, shown, proof) and
    whose it is."""

    what: str
    seat: int
    seen_by: str

    def __str__(self) -> str:
        return f"{self.what} of seat {self.seat} (in the view of {self.seen_by})"


def places(seat_views: Iterable[object], public_view: object) -> dict[Card, set[Place]]:
    """Every card the views show, with each place they show it in."""
    found: dict[Card, set[Place]] = {}
    seat_views = list(seat_views)

    def put(cards: Iterable[Card], place: Place) -> None:
        for card in cards:
            found.setdefault(card, set()).add(place)

    for view in seat_views:
        me = view.seat  # type: ignore[attr-defined]
        who = f"seat {me}"
        folded = view.folded[me]  # type: ignore[attr-defined]
        put(view.hand, Place("folded hand" if folded else "hand", me, who))  # type: ignore[attr-defined]
        if view.opener is not None:  # type: ignore[attr-defined]
            put(view.kept_apart, Place("kept apart", view.opener, who))  # type: ignore[attr-defined]
    for view, who in [(v, f"seat {v.seat}") for v in seat_views] + [(public_view, "public")]:  # type: ignore[attr-defined]
        for shower, cards in view.shown.items():  # type: ignore[attr-defined]
            put(cards, Place("shown hand", shower, who))
        if view.proof and view.opener is not None:  # type: ignore[attr-defined]
            put(view.proof, Place("proof", view.opener, who))  # type: ignore[attr-defined]
    return found
