"""A betting round: the blinds (Art. 2), the opening and the first round (Art. 3), the second
round (Art. 5).

A :class:`BettingRound` holds one round's bets and who still has to act; its methods apply the
betting rules (the blind, controbuio and over, the opening bet, calls, raises and their cap,
the betting structures, check and parol) to the table whose chips they move, seen through
:class:`BettingTable`: what of its deal a round may read and move, and nothing else. The deal
(engine/deal.py) is such a table; this module does not know it. The deal decides what follows
the end of a round.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Protocol

from italian_poker.engine.actions import ActionKind, LegalAction
from italian_poker.engine.rules import BettingStructure, BlindSize, Rules

if TYPE_CHECKING:
    from italian_poker.engine.cards import Card
    from italian_poker.engine.opening import OpeningRequirement


class BettingTable(Protocol):
    """What a betting round reads and moves of its deal: the stacks and the chips committed
    (moved by :meth:`BettingRound.put`), who folded and who bet blind, the hands and the
    requirement (to offer the opening, 3.3), the pot (blinds, pot limit) and the last
    aggressor (recorded for the showdown's order)."""

    rules: Rules
    n: int
    stacks: list[int]
    committed: list[int]
    folded: list[bool]
    blinders: list[int]
    hands: list[list[Card]]
    requirement: OpeningRequirement
    last_aggressor: int | None

    @property
    def pot(self) -> int: ...


BLIND_KINDS = (ActionKind.BLIND, ActionKind.CONTROBUIO, ActionKind.OVER)
"""Art. 2: the blind (buio), then the controbuio and the over, each doubling the last."""

_PASS_ACTION = LegalAction(ActionKind.PASS)
_PASS = (_PASS_ACTION,)
_DECLINE = LegalAction(ActionKind.DECLINE)
_FOLD = LegalAction(ActionKind.FOLD)
_CHECK = LegalAction(ActionKind.CHECK)
_PAROL = LegalAction(ActionKind.PAROL)
# Members used on every decision, looked up once (an enum attribute costs ~0.1 µs on 3.11).
_OPEN, _CALL, _RAISE, _BET = ActionKind.OPEN, ActionKind.CALL, ActionKind.RAISE, ActionKind.BET
_POT_LIMIT, _NO_LIMIT = BettingStructure.POT_LIMIT, BettingStructure.NO_LIMIT
_FIXED_LIMIT, _SPREAD_LIMIT = BettingStructure.FIXED_LIMIT, BettingStructure.SPREAD_LIMIT
_DOUBLE_POT = BlindSize.DOUBLE_POT
_ANTES = BlindSize.ANTES


@lru_cache(maxsize=4096, typed=True)
def offer(kind: ActionKind, low: int, high: int) -> LegalAction:
    """The legal action ``kind`` for ``low`` to ``high`` chips; shared, as it is immutable."""
    return LegalAction(kind, low, high)


def structure_sizes(rules: Rules, *, second: bool) -> tuple[int, int | None]:
    """(smallest bet or raise, largest or ``None``) of a round under the betting structure."""
    if rules.structure is _FIXED_LIMIT:
        size = rules.big_bet if second else rules.small_bet
        return size, size
    factor = 2 if second and rules.second_round_doubled else 1
    if rules.structure is _SPREAD_LIMIT:
        return rules.min_bet * factor, rules.max_bet * factor
    return rules.min_bet * factor, None


def full_raise(structure: BettingStructure, smallest: int, last_raise: int) -> int:
    """The least increment of a full bet or raise (000 Art. 2, 3, 5; docs/rules.md, "Full
    raises and short all-ins"): the round's minimum bet in spread limit, the bet size in fixed
    limit, and in pot and no limit the last full increment of the round, never less than the
    minimum bet. Only an all-in may put in less: a short all-in, which does not re-open the
    betting.

    ``smallest`` is the round's smallest bet (:func:`structure_sizes`) and ``last_raise`` the
    last full increment of the round (0 before any bet)."""
    if (structure is _POT_LIMIT or structure is _NO_LIMIT) and last_raise > smallest:
        return last_raise
    return smallest


@dataclass(slots=True)
class BettingRound:
    """One betting round. ``bets`` are each seat's chips put in during the round (the first
    round's include the blinds); ``pending`` are the seats that must still act and
    ``may_raise`` those who may still raise: the seats that have not acted since the last full
    bet or raise (:func:`full_raise`), and those a short all-in left facing a full raise.
    ``smallest`` and ``largest`` are the structure's bet sizes for this round (``largest`` is
    ``None`` without a limit)."""

    second: bool
    """Whether this is the second round (Art. 5), after the draw."""
    bets: list[int]
    smallest: int
    largest: int | None
    current_bet: int = 0
    last_raise: int = 0
    """The increment of the last full bet or raise (after the blinds, of the last blind)."""
    raises: int = 0
    """The raises that count toward ``raise_cap`` (a short all-in only with
    ``short_all_in_is_raise``); the opening, a blind and a second-round bet are not raises."""
    capped: bool = False
    """The cap was reached with three or more players not all-in: a fold that leaves two does
    not lift it."""
    pending: set[int] = field(default_factory=set)
    may_raise: set[int] = field(default_factory=set)
    raise_locked: bool = False
    """2.4: after the blinds, the others may only call until the last blind bettor acts."""
    last_raiser: int | None = None
    """The last seat that raised, short all-ins included (002's showdown order)."""
    last_counted_raiser: int | None = None
    """The last seat whose raise counts toward the cap: who begins the second round (5.1)."""
    first_bettor: int | None = None
    """5.2(a): who bet first in the second round."""
    checked: bool = False
    """5.2(b): someone checked in the second round, so parol is no longer available."""
    parols: set[int] = field(default_factory=set)
    """5.2(c): who said parol."""
    parol_open: bool = False
    """5.2(c): the second round began with parol allowed and nobody in the hand all-in."""

    @classmethod
    def begin(cls, rules: Rules, players: int, *, second: bool) -> BettingRound:
        """A round with no bets yet."""
        smallest, largest = structure_sizes(rules, second=second)
        return cls(second, [0] * players, smallest, largest)

    # --- chips ----------------------------------------------------------------------------

    def put(self, deal: BettingTable, seat: int, total: int) -> None:
        """Make ``seat``'s bet in this round ``total`` chips."""
        add = total - self.bets[seat]
        deal.stacks[seat] -= add
        deal.committed[seat] += add
        self.bets[seat] = total

    def close(self) -> None:
        """End the round: the bets are in the pot and nobody is to act."""
        self.bets = [0] * len(self.bets)
        self.current_bet = 0
        self.last_raise = 0
        self.raises = 0
        self.capped = False
        self.pending = set()
        self.may_raise = set()
        self.raise_locked = False

    # --- blinds (Art. 2) ------------------------------------------------------------------

    def blind_amount(self, deal: BettingTable) -> int:
        """The next blind: the pot (000 Art. 2), twice it (003) or ``blind_antes`` antes (a
        house rule), then each time twice the last blind."""
        if not deal.blinders:
            rules = deal.rules
            if rules.blind_size is _ANTES:
                return rules.blind_antes * rules.ante
            factor = 2 if rules.blind_size is _DOUBLE_POT else 1
            return factor * deal.pot
        return 2 * self.bets[deal.blinders[-1]]

    def blind_offered(self, deal: BettingTable, seat: int) -> bool:
        """Whether ``seat`` may now put the next blind: the rules allow that level, the seat
        has not put one yet and has the chips."""
        level = len(deal.blinders)
        rules = deal.rules
        allowed = (
            level == 0
            or (level == 1 and rules.controbuio_allowed)
            or (level == 2 and rules.over_allowed)
        )
        return (
            level < 3
            and allowed
            and seat not in deal.blinders
            and deal.stacks[seat] >= self.blind_amount(deal)
        )

    def blind_choices(self, deal: BettingTable) -> tuple[LegalAction, ...]:
        """The blind offered (at its fixed amount) or declining it."""
        amount = self.blind_amount(deal)
        return (offer(BLIND_KINDS[len(deal.blinders)], amount, amount), _DECLINE)

    def after_blinds(self, deal: BettingTable, last: int) -> None:
        """2.4, 2.5: the round goes on from the blinds; the others may only call or fold until
        the last blind bettor, who keeps the option to raise, has acted."""
        blinders = deal.blinders
        self.current_bet = self.bets[last]
        previous = self.bets[blinders[-2]] if len(blinders) > 1 else 0
        self.last_raise = self.current_bet - previous
        self.raise_locked = True
        folded, stacks = deal.folded, deal.stacks
        self.pending = {s for s in range(deal.n) if not folded[s] and stacks[s] > 0}
        self.may_raise = {last}

    # --- what the seat to act may do ------------------------------------------------------

    def opening_choices(self, deal: BettingTable, seat: int) -> tuple[LegalAction, ...]:
        """3.2, 3.3: pass, or open if the hand meets the requirement and has chips."""
        if deal.stacks[seat] > 0 and deal.requirement.is_met(deal.hands[seat], players=deal.n):
            low, high = self.bet_range(deal, seat)
            return (_PASS_ACTION, offer(_OPEN, low, high))
        return _PASS

    def choices(self, deal: BettingTable, seat: int) -> tuple[LegalAction, ...]:
        """After the opening: fold, call or raise a bet; with nothing to call, the last blind
        bettor's option (2.5) or, in the second round, bet, check or parol (5.2)."""
        bet = self.bets[seat]
        current = self.current_bet
        if current > bet:
            all_in = bet + deal.stacks[seat]
            amount = current if current <= all_in else all_in
            call = offer(_CALL, amount, amount)
            raise_range = self.raise_range(deal, seat)
            if raise_range is None:
                return (_FOLD, call)
            return (_FOLD, call, offer(_RAISE, *raise_range))
        if not self.second:
            raise_range = self.raise_range(deal, seat)
            if raise_range is None:
                return (_CHECK,)
            return (_CHECK, offer(_RAISE, *raise_range))
        low, high = self.bet_range(deal, seat)
        if self.parol_available(deal):
            return (offer(_BET, low, high), _CHECK, _PAROL)
        return (offer(_BET, low, high), _CHECK)

    def bet_range(self, deal: BettingTable, seat: int) -> tuple[int, int]:
        """Open or bet: the new round totals allowed (all-in for less is always allowed)."""
        low, high = self.smallest, self.largest
        if deal.rules.structure is _POT_LIMIT:
            high = max(low, deal.pot)
        all_in = self.bets[seat] + deal.stacks[seat]
        top = all_in if high is None or high > all_in else high
        return (low if low < top else top), top

    def full_raise(self, rules: Rules) -> int:
        """The least increment of a full raise now (:func:`full_raise`)."""
        return full_raise(rules.structure, self.smallest, self.last_raise)

    def cap_binds(self, deal: BettingTable) -> bool:
        """Whether the raise cap forbids another raise: it is reached, and it was reached with
        three or more players not all-in, or three or more are left, or the rules keep it
        heads-up (``raise_cap_heads_up``)."""
        rules = deal.rules
        cap = rules.raise_cap
        if cap is None or self.raises < cap:
            return False
        return self.capped or rules.raise_cap_heads_up or _betting_players(deal) > 2

    def raise_range(self, deal: BettingTable, seat: int) -> tuple[int, int] | None:
        """Raise: the new round totals allowed, or ``None`` if ``seat`` may not raise (the
        betting is not open to it, the cap binds, nobody could answer, no chips). The least
        raise is a full raise (:func:`full_raise`); a smaller one is an all-in."""
        rules = deal.rules
        cap = rules.raise_cap  # read here: below the cap, cap_binds need not be asked
        if seat not in self.may_raise or (
            cap is not None and self.raises >= cap and self.cap_binds(deal)
        ):
            return None
        folded, stacks = deal.folded, deal.stacks
        for s in range(deal.n):
            if s != seat and not folded[s] and stacks[s] > 0:
                break  # someone could answer the raise
        else:
            return None
        current = self.current_bet
        all_in = self.bets[seat] + stacks[seat]
        if all_in <= current:
            return None
        low, high = full_raise(rules.structure, self.smallest, self.last_raise), self.largest
        if rules.structure is _POT_LIMIT:
            high = max(low, deal.pot + current - self.bets[seat])
        min_to = current + low
        max_to = all_in if high is None or current + high > all_in else current + high
        return (min_to if min_to <= max_to else max_to), max_to

    def everyone_said_parol(self) -> bool:
        """5.4(a): the round ended with every player saying parol: nobody bet (a parol answered
        by a bet must be called or folded, 5.4(c), 5.4(d)) and nobody checked (5.2(b))."""
        return self.first_bettor is None and not self.checked and bool(self.parols)

    def parol_available(self, deal: BettingTable) -> bool:
        """5.2(c): until someone bets or checks; decided: not with a player all-in. Nobody's
        chips move and nobody folds before the first bet, so who is all-in is known from the
        start of the round (:attr:`parol_open`)."""
        return self.parol_open and not self.checked and self.current_bet == 0

    # --- actions --------------------------------------------------------------------------

    def bet_to(self, deal: BettingTable, seat: int, total: int) -> None:
        """An opening, bet or raise to ``total``: everyone else still able to act must respond.
        A full bet or raise (:func:`full_raise`) re-opens the betting to all of them; a short
        all-in only to those who had not acted yet and, with ``short_all_ins_add_up``, to those
        it leaves facing at least a full raise since they acted."""
        rules = deal.rules
        current = self.current_bet
        increment = total - current
        least = full_raise(rules.structure, self.smallest, self.last_raise)
        full = increment >= least
        # Before the first bet, the seats still to act have not acted; after it, those who
        # may raise are those who have not acted since the last full bet or raise.
        not_acted = self.pending if current == 0 else self.may_raise
        self.put(deal, seat, total)
        deal.last_aggressor = seat
        if current == 0:
            if self.second:
                self.first_bettor = seat
        else:
            self.last_raiser = seat
            if full or rules.short_all_in_is_raise:
                self.raises += 1
                self.last_counted_raiser = seat
        self.current_bet = total
        folded, stacks, bets = deal.folded, deal.stacks, self.bets
        others = {s for s in range(deal.n) if s != seat and not folded[s] and stacks[s] > 0}
        if full:
            self.last_raise = increment
            self.may_raise = others
        else:
            reopened = not_acted & others
            if rules.short_all_ins_add_up:
                # What a seat must add to call is what it faces since it last acted.
                reopened |= {s for s in others if total - bets[s] >= least}
            self.may_raise = reopened
        cap = rules.raise_cap
        if cap is not None and self.raises >= cap and _betting_players(deal) > 2:
            self.capped = True
        self.pending = set(others)
        self.raise_locked = False

    def call(self, deal: BettingTable, seat: int, total: int) -> None:
        """Match the current bet (or go all-in for less): ``total`` is the new round total."""
        self.put(deal, seat, total)
        self.acted(seat)

    def check(self, seat: int) -> None:
        """Check: busso in the second round (5.2(b)), the last blind bettor's option (2.5)."""
        self.acted(seat)
        if self.second:
            self.checked = True

    def parol(self, seat: int) -> None:
        """5.2(c): propose to abandon the hand."""
        self.parols.add(seat)
        self.acted(seat)

    def acted(self, seat: int) -> None:
        """``seat`` has answered the current bet (or left the round)."""
        self.pending.discard(seat)
        self.may_raise.discard(seat)


def _betting_players(deal: BettingTable) -> int:
    """The players in the hand who are not all-in (who could still bet)."""
    folded, stacks = deal.folded, deal.stacks
    return sum(1 for s in range(deal.n) if not folded[s] and stacks[s] > 0)
