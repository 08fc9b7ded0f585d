"""One deal of Italian Poker as an explicit state machine.

A :class:`Deal` goes through the phases of :class:`Phase`: blinds (Art. 2), the deal and the
opening (Art. 3), the first betting round, the draw (Art. 4), the second betting round
(Art. 5), the showdown (Art. 6-7) and the award. ``actor`` is the seat to act,
``legal_actions()`` lists what it may do and :meth:`Deal.apply` applies one action. An illegal
action raises a subclass of :class:`~italian_poker.engine.errors.IllegalActionError` and leaves
the deal exactly as it was: every check happens before anything changes.

Seats are numbered 0..n-1 in table order; "the next player" / "the dealer's left" follow
``Rules.direction``.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar

from italian_poker.engine.actions import Action, ActionKind, LegalAction
from italian_poker.engine.cards import Card, Rank
from italian_poker.engine.deck import Deck
from italian_poker.engine.errors import (
    ActionNotAvailableError,
    DealOverError,
    IllegalActionError,
    InvalidAmountError,
    InvalidDrawError,
    NotYourTurnError,
    OpeningRequirementError,
    SeatError,
)
from italian_poker.engine.hand_rank import HandRank, StraightFlushClass, best_ranks, evaluate
from italian_poker.engine.opening import OpeningRequirement, opening_combination
from italian_poker.engine.pot import Pot, build_pots, split_amount
from italian_poker.engine.rules import (
    AllPassPolicy,
    BettingStructure,
    BlindSize,
    Direction,
    OddChip,
    Rules,
    SecondRoundStarter,
    ShowdownOrder,
)

MAX_DRAW = 4
"""4.1: a player changes from none to four cards."""


_SIMPLE = {kind: LegalAction(kind) for kind in ActionKind}
"""Shared instances of the legal actions that carry no amount."""
_DRAW_ONLY = (LegalAction(ActionKind.DRAW, max_cards=MAX_DRAW),)


class Phase(StrEnum):
    """The phases of a deal, in order."""

    BLINDS = "blinds"
    OPENING = "opening"
    FIRST_ROUND = "first-round"
    DRAW = "draw"
    SECOND_ROUND = "second-round"
    SHOWDOWN = "showdown"
    COMPLETE = "complete"


class Outcome(StrEnum):
    """How a deal ended."""

    WON = "won"
    """The pot was won: uncalled (3.7, 5.4(c)) or at a showdown (5.4(b), 5.4(d))."""
    PASSED = "passed"
    """Every player passed (3.5): nobody opened."""
    PAROL = "parol"
    """Every player said parol (5.4(a)): the pot carries to the next deal (5.5)."""


@dataclass(frozen=True, slots=True)
class DealStart:
    """Everything a deal needs to begin; a :class:`~italian_poker.engine.match.Match` builds it.

    ``names`` and ``stacks`` are the seats dealt in, in table order; ``stacks`` are before
    antes. ``carried`` chips are in the pot from earlier deals; ``makeups`` are 5.5 make-up
    contributions paid now (dead chips, one per seat). ``min_pair`` is the pair needed to open
    in this deal. ``blinds_allowed`` is false on the deal after a parol (5.5). ``deck`` stacks
    the deck (a permutation of the stripped deck for these players); otherwise it is shuffled
    with ``seed`` or, by default, securely. ``reshuffles`` replays recorded reshuffles (4.3).
    """

    rules: Rules
    names: tuple[str, ...]
    stacks: tuple[int, ...]
    dealer: int = 0
    carried: int = 0
    min_pair: Rank | None = None
    blinds_allowed: bool = True
    makeups: tuple[int, ...] = ()
    deck: tuple[Card, ...] | None = None
    seed: int | None = None
    reshuffles: tuple[tuple[Card, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """An applied action, with amounts filled in (a call records the new round total)."""

    seat: int
    action: Action
    phase: Phase


@dataclass(frozen=True, slots=True)
class PotAward:
    """One pot and who won it."""

    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[int, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class DealResult:
    """The end of a deal: final stacks, pots awarded, chips carried forward.

    ``returned`` are antes handed back after an all-pass deal under the 003 reading.
    ``makeups`` (after a parol) are what each first-round folder must pay to play the next
    deal (5.5); ``None`` for seats not concerned.
    """

    outcome: Outcome
    stacks: tuple[int, ...]
    awards: tuple[PotAward, ...]
    carried: int
    returned: tuple[int, ...]
    shown: dict[int, HandRank] = field(default_factory=dict)
    makeups: tuple[int | None, ...] = ()
    proof: tuple[Card, ...] = ()

    @property
    def winnings(self) -> dict[int, int]:
        """Chips won by each seat across pots."""
        won: dict[int, int] = {}
        for award in self.awards:
            for seat, share in zip(award.winners, award.shares, strict=True):
                won[seat] = won.get(seat, 0) + share
        return won


class Deal:
    """The state of one deal. See the module docstring for the protocol."""

    def __init__(self, start: DealStart) -> None:
        rules = start.rules
        n = len(start.names)
        if n < 2 or n > 9:
            raise SeatError(f"a deal needs 2 to 9 players, got {n}")
        if len(start.stacks) != n:
            raise SeatError("give one stack per player")
        if len(set(start.names)) != n:
            raise SeatError("player names must be different")
        if not 0 <= start.dealer < n:
            raise SeatError(f"the dealer must be a seat from 0 to {n - 1}")
        makeups = start.makeups or (0,) * n
        if len(makeups) != n or any(m < 0 for m in makeups):
            raise SeatError("give one make-up contribution (0 or more) per player")
        self.start = start
        self.rules = rules
        self.n = n
        self.dealer = start.dealer
        self.step = 1 if rules.direction is Direction.CLOCKWISE else -1
        self.deck = Deck(n)
        self.requirement = OpeningRequirement(
            start.min_pair or rules.min_pair, rules.four_straight_flush_opens
        )
        if start.deck is not None:
            order = tuple(start.deck)
            if sorted(c.index for c in order) != [c.index for c in self.deck.cards]:
                raise SeatError(
                    f"a stacked deck must be the {len(self.deck)} cards of the deck for "
                    f"{n} players, each once"
                )
        else:
            order = self.deck.shuffled(seed=start.seed)
        self.deck_order: tuple[Card, ...] = order
        self._rng: random.Random | None = None  # for reshuffles (4.3), made when needed
        self._replay_reshuffles = list(start.reshuffles)
        self.reshuffles: list[tuple[Card, ...]] = []
        self.stock: list[Card] = list(order)
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.stacks = list(start.stacks)
        self.committed = [0] * n
        self.round_bet = [0] * n
        self.folded = [False] * n
        self.dead = start.carried
        self.actions: list[ActionRecord] = []
        self.phase = Phase.BLINDS
        self.actor: int | None = None
        self.result: DealResult | None = None
        # Blinds (Art. 2).
        self.blinders: list[int] = []
        # Opening and first round (Art. 3).
        self.opener: int | None = None
        self.opening_hand: tuple[Card, ...] = ()
        self.first_round_starter: int | None = None
        self.first_round_put = [0] * n
        self.first_round_folded = [False] * n
        self.last_raiser: dict[Phase, int] = {}
        self.first_bettor: int | None = None
        self.last_aggressor: int | None = None
        # Betting round bookkeeping.
        self.current_bet = 0
        self.last_raise = 0
        self.raises = 0
        self.pending: set[int] = set()
        self.may_raise: set[int] = set()
        self.raise_locked = False
        # Draw (Art. 4).
        self.drawn: list[int | None] = [None] * n
        self.discards: list[tuple[Card, ...]] = [()] * n
        self.muck: list[tuple[int, Card]] = []
        self.kept_apart: tuple[Card, ...] = ()
        self.split_announced = False
        self.fourth_due: list[int] = []
        self._discarded_by: dict[Card, int] = {}  # reshuffled cards and who threw them
        # Second round (Art. 5).
        self.checked = False
        self.parols: set[int] = set()
        # Showdown.
        self.showdown_order: list[int] = []
        self.shown: dict[int, HandRank] = {}
        self.mucked: set[int] = set()
        self._showdown_pots: list[Pot] = []
        self._final_ranks: dict[int, HandRank] = {}
        self._legal: tuple[LegalAction, ...] | None = None

        for i in range(n):
            extra = rules.dealer_ante if i == self.dealer else 0
            need = rules.ante + extra + makeups[i]
            if self.stacks[i] < need:
                raise SeatError(
                    f"{start.names[i]} has {self.stacks[i]} chips but must put {need} in the pot"
                )
            self.stacks[i] -= need
            self.committed[i] += rules.ante
            # The dealer's extra ante (003) and make-ups (5.5) are dead chips of the main pot.
            self.dead += extra + makeups[i]
        if start.blinds_allowed and rules.blind_allowed:
            self._offer_blind(self.next_seat(self.dealer))
        else:
            self._deal_cards()

    # --- seats and order ------------------------------------------------------------------

    def next_seat(self, seat: int) -> int:
        """The next seat in the direction of play (the player "to the left")."""
        return (seat + self.step) % self.n

    def order_from(self, seat: int) -> list[int]:
        """All seats in the direction of play, starting with ``seat``."""
        return [(seat + k * self.step) % self.n for k in range(self.n)]

    def in_hand(self, seat: int) -> bool:
        """Whether ``seat`` has not folded."""
        return not self.folded[seat]

    def can_act(self, seat: int) -> bool:
        """Whether ``seat`` is in the hand with chips behind."""
        return not self.folded[seat] and self.stacks[seat] > 0

    @property
    def pot(self) -> int:
        """All chips in the pot, including this round's bets."""
        return self.dead + sum(self.committed)

    @property
    def names(self) -> tuple[str, ...]:
        """Player names by seat."""
        return self.start.names

    @property
    def is_over(self) -> bool:
        """Whether the deal has ended."""
        return self.phase is Phase.COMPLETE

    # --- blinds (Art. 2) ------------------------------------------------------------------

    def _blind_amount(self, level: int) -> int:
        if level == 0:
            factor = 2 if self.rules.blind_size is BlindSize.DOUBLE_POT else 1
            return factor * self.pot
        return 2 * self.round_bet[self.blinders[-1]]

    def _offer_blind(self, seat: int) -> None:
        level = len(self.blinders)
        allowed = (
            level == 0
            or (level == 1 and self.rules.controbuio_allowed)
            or (level == 2 and self.rules.over_allowed)
        )
        if (
            level < 3
            and allowed
            and seat not in self.blinders
            and self.stacks[seat] >= self._blind_amount(level)
        ):
            self.phase = Phase.BLINDS
            self.actor = seat
        else:
            self._deal_cards()

    # --- deal and opening (Art. 3) --------------------------------------------------------

    def _deal_cards(self) -> None:
        """3.1: five cards each, one at a time, starting at the dealer's left."""
        order = self.order_from(self.next_seat(self.dealer))
        dealt = len(order) * 5
        for k, card in enumerate(self.stock[:dealt]):
            self.hands[order[k % len(order)]].append(card)
        del self.stock[:dealt]
        if self.blinders:
            # 2.4: the round starts left of the last blind bettor; calls only until they act.
            last = self.blinders[-1]
            self.phase = Phase.FIRST_ROUND
            self.current_bet = self.round_bet[last]
            previous = self.round_bet[self.blinders[-2]] if len(self.blinders) > 1 else 0
            self.last_raise = self.current_bet - previous
            self.raise_locked = True
            # The last blind bettor keeps the option (2.5) unless all-in.
            self.pending = {s for s in range(self.n) if self.can_act(s)}
            self.may_raise = {last}
            self.first_round_starter = self.next_seat(last)
            if self.pending:
                self.actor = self._next_pending(last)
            else:
                self._end_round()
                self._start_draw()
        else:
            self.phase = Phase.OPENING
            self.pending = set(range(self.n))
            self.first_round_starter = self.next_seat(self.dealer)
            self.actor = self.first_round_starter

    # --- legal actions --------------------------------------------------------------------

    def legal_actions(self) -> tuple[LegalAction, ...]:
        """What the seat to act may do now (empty once the deal is over)."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def _compute_legal(self) -> tuple[LegalAction, ...]:
        seat = self.actor
        if seat is None:
            return ()
        phase = self.phase
        if phase is Phase.BLINDS:
            kind = (ActionKind.BLIND, ActionKind.CONTROBUIO, ActionKind.OVER)[len(self.blinders)]
            amount = self._blind_amount(len(self.blinders))
            return (LegalAction(kind, amount, amount), _SIMPLE[ActionKind.DECLINE])
        if phase is Phase.OPENING:
            legal = [_SIMPLE[ActionKind.PASS]]
            if self.stacks[seat] > 0 and self.requirement.is_met(self.hands[seat], players=self.n):
                low, high = self._bet_range(seat)
                legal.append(LegalAction(ActionKind.OPEN, low, high))
            return tuple(legal)
        if phase is Phase.DRAW:
            return _DRAW_ONLY
        if phase is Phase.SHOWDOWN:
            legal = [_SIMPLE[ActionKind.SHOW]]
            if self._may_muck(seat):
                legal.append(_SIMPLE[ActionKind.MUCK])
            return tuple(legal)
        # Betting rounds.
        to_call = self.current_bet - self.round_bet[seat]
        legal = []
        if to_call > 0:
            legal.append(_SIMPLE[ActionKind.FOLD])
            amount = min(self.current_bet, self.round_bet[seat] + self.stacks[seat])
            legal.append(LegalAction(ActionKind.CALL, amount, amount))
            raise_range = self._raise_range(seat)
            if raise_range is not None:
                legal.append(LegalAction(ActionKind.RAISE, *raise_range))
            return tuple(legal)
        if phase is Phase.FIRST_ROUND:
            # The last blind bettor's option (2.5): end the round or raise.
            legal.append(_SIMPLE[ActionKind.CHECK])
            raise_range = self._raise_range(seat)
            if raise_range is not None:
                legal.append(LegalAction(ActionKind.RAISE, *raise_range))
            return tuple(legal)
        # Second round before any bet (5.2).
        low, high = self._bet_range(seat)
        legal.append(LegalAction(ActionKind.BET, low, high))
        legal.append(_SIMPLE[ActionKind.CHECK])
        if self._parol_available():
            legal.append(_SIMPLE[ActionKind.PAROL])
        return tuple(legal)

    def _structure_sizes(self) -> tuple[int, int | None]:
        """(smallest bet or raise, largest or None) for the current round's structure."""
        r = self.rules
        second = self.phase is Phase.SECOND_ROUND
        if r.structure is BettingStructure.FIXED_LIMIT:
            size = r.big_bet if second else r.small_bet
            return size, size
        factor = 2 if second and r.second_round_doubled else 1
        if r.structure is BettingStructure.SPREAD_LIMIT:
            return r.min_bet * factor, r.max_bet * factor
        return r.min_bet * factor, None

    def _bet_range(self, seat: int) -> tuple[int, int]:
        """Open or bet: new round totals allowed (all-in for less is always allowed)."""
        low, high = self._structure_sizes()
        if self.rules.structure is BettingStructure.POT_LIMIT:
            high = max(low, self.pot)
        all_in = self.round_bet[seat] + self.stacks[seat]
        top = all_in if high is None else min(high, all_in)
        return min(low, top), top

    def _raise_range(self, seat: int) -> tuple[int, int] | None:
        if self.raise_locked and seat not in self.may_raise:
            return None
        if seat not in self.may_raise:
            return None
        cap = self.rules.raise_cap
        if cap is not None and self.raises >= cap:
            return None
        if not any(self.can_act(s) for s in range(self.n) if s != seat):
            return None
        all_in = self.round_bet[seat] + self.stacks[seat]
        if all_in <= self.current_bet:
            return None
        low, high = self._structure_sizes()
        structure = self.rules.structure
        if structure in (BettingStructure.POT_LIMIT, BettingStructure.NO_LIMIT):
            low = max(low, self.last_raise)
        if structure is BettingStructure.POT_LIMIT:
            to_call = self.current_bet - self.round_bet[seat]
            high = max(low, self.pot + to_call)
        min_to = self.current_bet + low
        max_to = all_in if high is None else min(self.current_bet + high, all_in)
        return min(min_to, max_to), max_to

    def _parol_available(self) -> bool:
        """5.2(c): until someone bets or checks; decided: not with a player all-in."""
        return (
            self.rules.parol_allowed
            and not self.checked
            and self.current_bet == 0
            and all(self.stacks[s] > 0 for s in range(self.n) if not self.folded[s])
        )

    def _may_muck(self, seat: int) -> bool:
        """002: a losing hand may be mucked: one beaten, in every pot it could win, by a hand
        already shown."""
        if not self.rules.muck_allowed or not self.shown:
            return False
        mine = self._rank(seat)
        for pot in self._showdown_pots:
            if seat not in pot.eligible:
                continue
            rivals = [s for s in pot.eligible if s in self.shown]
            ranks = [mine, *(self.shown[s] for s in rivals)]
            if 0 in best_ranks(ranks):
                return False
        return True

    def _rank(self, seat: int) -> HandRank:
        """The final hand of ``seat``, evaluated when the showdown begins."""
        return self._final_ranks[seat]

    # --- applying actions -----------------------------------------------------------------

    def apply(self, action: Action, seat: int | None = None) -> ActionRecord:
        """Apply ``action`` for the seat to act (``seat``, if given, must be that seat).

        Raises an :class:`~italian_poker.engine.errors.IllegalActionError` subclass, leaving the
        deal unchanged, when the action is not allowed now.
        """
        if self.phase is Phase.COMPLETE or self.actor is None:
            raise DealOverError("the deal is over: no more actions")
        actor = self.actor
        if seat is not None and seat != actor:
            raise NotYourTurnError(
                f"it is {self.names[actor]}'s turn, not {self._seat_name(seat)}'s"
            )
        kind = action.kind
        for legal in self._legal or self.legal_actions():
            if legal.kind is kind:
                break
        else:
            raise self._unavailable(kind)
        record = self._validate(actor, action, legal)
        self._legal = None
        self.actions.append(record)
        self._HANDLERS[kind](self, actor, record.action)
        return record

    def _seat_name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < self.n else f"seat {seat}"

    def _unavailable(self, kind: ActionKind) -> IllegalActionError:
        allowed = ", ".join(str(la) for la in self.legal_actions())
        if kind is ActionKind.OPEN and self.phase is Phase.OPENING:
            return OpeningRequirementError(
                f"you cannot open: you need {self.requirement.describe()}; you may: {allowed}"
            )
        if kind is ActionKind.PAROL and self.phase is Phase.SECOND_ROUND and self.checked:
            return ActionNotAvailableError(
                f"parol is no longer available once a player has checked (5.2(b)); "
                f"you may: {allowed}"
            )
        return ActionNotAvailableError(
            f"{kind.value} is not allowed now ({self.phase.value}); you may: {allowed}"
        )

    def _validate(self, seat: int, action: Action, legal: LegalAction) -> ActionRecord:
        kind = action.kind
        if kind is ActionKind.DRAW:
            if action.amount is not None:
                raise InvalidAmountError("a draw names the cards to change, not an amount")
            self._check_draw(seat, action)
            return ActionRecord(seat, action, self.phase)
        if action.cards or action.split:
            raise ActionNotAvailableError(f"{kind.value} takes no cards")
        if kind in (ActionKind.OPEN, ActionKind.BET, ActionKind.RAISE):
            amount = action.amount
            low, high = legal.min_amount, legal.max_amount
            assert low is not None and high is not None
            if amount is None or isinstance(amount, bool) or not isinstance(amount, int):
                raise InvalidAmountError(
                    f"say how much: {kind.value} to a total of {low} to {high} chips"
                )
            if not low <= amount <= high:
                raise InvalidAmountError(
                    f"{kind.value} must make your bet {low} to {high} chips in this round, "
                    f"not {amount}"
                )
            return ActionRecord(seat, action, self.phase)
        if action.amount != legal.min_amount:
            if action.amount is not None:
                raise InvalidAmountError(
                    f"{kind.value} is for exactly {legal.min_amount} chips, not {action.amount}"
                    if legal.min_amount is not None
                    else f"{kind.value} takes no amount"
                )
            action = Action(kind, legal.min_amount)
        return ActionRecord(seat, action, self.phase)

    def _check_draw(self, seat: int, action: Action) -> None:
        cards = action.cards
        if len(cards) > MAX_DRAW:
            raise InvalidDrawError(f"you may change at most {MAX_DRAW} cards, not {len(cards)}")
        if len(set(cards)) != len(cards):
            raise InvalidDrawError("each discarded card must be named once")
        hand = self.hands[seat]
        missing = [str(c) for c in cards if c not in hand]
        if missing:
            raise InvalidDrawError(f"you do not hold {', '.join(missing)}")
        if action.split and seat != self.opener:
            raise InvalidDrawError("only the opener announces a split opening (4.4)")
        if seat == self.opener and self.opening_hand:
            kept = [c for c in hand if c not in cards]
            broken = not self.requirement.kept_proves(kept)
            if broken and not self.rules.opener_may_split:
                raise InvalidDrawError(
                    "these rules do not let the opener break the opening combination"
                )
            if broken and not action.split:
                raise InvalidDrawError(
                    "you are discarding part of your opening: announce the split (4.4) "
                    "so your discards are kept apart for the proof"
                )

    # --- handlers -------------------------------------------------------------------------

    def _put(self, seat: int, total: int) -> None:
        """Make ``seat``'s bet in this round ``total`` chips."""
        add = total - self.round_bet[seat]
        self.stacks[seat] -= add
        self.round_bet[seat] = total
        self.committed[seat] += add

    def _on_blind(self, seat: int, action: Action) -> None:
        assert action.amount is not None
        self._put(seat, action.amount)
        self.blinders.append(seat)
        self.last_aggressor = seat
        self._offer_blind(self.next_seat(seat))

    def _on_decline(self, seat: int, action: Action) -> None:
        self._deal_cards()

    def _on_pass(self, seat: int, action: Action) -> None:
        self.pending.discard(seat)
        if not self.pending:
            self._finish_passed()
            return
        self.actor = self._next_pending(seat)

    def _on_open(self, seat: int, action: Action) -> None:
        assert action.amount is not None
        self.opener = seat
        self.opening_hand = tuple(self.hands[seat])
        self.phase = Phase.FIRST_ROUND
        if not self.rules.passed_players_may_play:
            for s in range(self.n):
                if s != seat and s not in self.pending:
                    self._fold(s)
        self._bet_to(seat, action.amount)
        self._advance_betting(seat)

    def _bet_to(self, seat: int, total: int) -> None:
        """A bet or raise to ``total``: everyone else still able to act must respond."""
        increment = total - self.current_bet
        full = increment >= self.last_raise or self.current_bet == 0
        self._put(seat, total)
        self.last_aggressor = seat
        if self.current_bet == 0 and self.phase is Phase.SECOND_ROUND:
            self.first_bettor = seat
        elif self.current_bet > 0:
            self.raises += 1
            self.last_raiser[self.phase] = seat
        self.current_bet = total
        others = {s for s in range(self.n) if s != seat and self.can_act(s)}
        if full:
            self.last_raise = max(increment, self.last_raise)
            self.may_raise = set(others)
        else:
            # An all-in raise short of a full raise does not reopen the betting.
            self.may_raise &= others
        self.pending = others
        self.raise_locked = False

    def _on_raise(self, seat: int, action: Action) -> None:
        assert action.amount is not None
        self._bet_to(seat, action.amount)
        self._advance_betting(seat)

    def _on_bet(self, seat: int, action: Action) -> None:
        assert action.amount is not None
        self._bet_to(seat, action.amount)
        self._advance_betting(seat)

    def _on_call(self, seat: int, action: Action) -> None:
        assert action.amount is not None
        self._put(seat, action.amount)
        self.pending.discard(seat)
        self.may_raise.discard(seat)
        self._advance_betting(seat)

    def _on_check(self, seat: int, action: Action) -> None:
        self.pending.discard(seat)
        self.may_raise.discard(seat)
        if self.phase is Phase.SECOND_ROUND:
            self.checked = True
        self._advance_betting(seat)

    def _on_parol(self, seat: int, action: Action) -> None:
        self.parols.add(seat)
        self.pending.discard(seat)
        self.may_raise.discard(seat)
        self._advance_betting(seat)

    def _on_fold(self, seat: int, action: Action) -> None:
        self._fold(seat)
        self._advance_betting(seat)

    def _fold(self, seat: int) -> None:
        self.folded[seat] = True
        self.pending.discard(seat)
        self.may_raise.discard(seat)
        if self.phase in (Phase.OPENING, Phase.FIRST_ROUND):
            self.first_round_folded[seat] = True
        self.muck.extend((seat, c) for c in self.hands[seat])

    def _next_pending(self, seat: int) -> int:
        s = self.next_seat(seat)
        while s not in self.pending:
            s = self.next_seat(s)
        return s

    def _advance_betting(self, seat: int) -> None:
        if self.folded.count(False) == 1:
            # 3.7 / 5.4(c): all but one folded; the survivor takes the pot without showing.
            self._end_round()
            self._award(shown=False)
            return
        if self.pending:
            self.actor = self._next_pending(seat)
            return
        self._end_round()
        if self.phase is Phase.FIRST_ROUND:
            self._start_draw()
        elif self.current_bet == 0 and self.parols and self.parols >= set(self._actors()):
            self._finish_parol()  # 5.4(a)
        else:
            self._start_showdown()  # 5.4(b), 5.4(d)

    def _actors(self) -> list[int]:
        return [s for s in range(self.n) if self.can_act(s)]

    def _end_round(self) -> None:
        if self.phase in (Phase.OPENING, Phase.FIRST_ROUND):
            self.first_round_put = list(self.round_bet)
        self.round_bet = [0] * self.n
        self.current_bet = 0
        self.last_raise = 0
        self.raises = 0
        self.pending = set()
        self.may_raise = set()
        self.raise_locked = False

    # --- draw (Art. 4) --------------------------------------------------------------------

    def _start_draw(self) -> None:
        self.phase = Phase.DRAW
        order = [s for s in self.order_from(self.next_seat(self.dealer)) if not self.folded[s]]
        self.pending = set(order)
        self.actor = order[0]

    def _on_draw(self, seat: int, action: Action) -> None:
        cards = action.cards
        hand = self.hands[seat]
        for card in cards:
            hand.remove(card)
        self.drawn[seat] = len(cards)
        self.discards[seat] = cards
        if action.split:
            self.split_announced = True
            self.kept_apart = cards  # 4.4: kept apart for the proof
        served_now = min(len(cards), MAX_DRAW - 1)
        hand.extend(self._take(served_now, seat))
        if len(cards) == MAX_DRAW:
            self.fourth_due.append(seat)  # 4.2: the fourth card after everyone else
        if not action.split:
            self.muck.extend((seat, c) for c in cards)
        self.pending.discard(seat)
        if self.pending:
            self.actor = self._next_pending(seat)
            return
        for late in self.fourth_due:
            self.hands[late].extend(self._take(1, late))
        self._start_second_round()

    def _take(self, count: int, seat: int) -> list[Card]:
        """Serve ``count`` cards to ``seat`` from the stock.

        4.3: when the stock runs out the discards are shuffled in. A player is never served
        a card they discarded while another card is available; only when nothing else is
        left are their own discards, and last the opener's cards kept apart, served.
        """
        served = self._from_stock(count, seat)
        if len(served) < count and self.muck:
            self._shuffle_in(self.muck)
            self.muck = []
            served += self._from_stock(count - len(served), seat)
        if len(served) < count:
            served += self._from_stock(count - len(served), None)
        if len(served) < count and self.kept_apart:
            # The proof comes from the recorded opening hand, so these may be used.
            self._shuffle_in([(seat, c) for c in self.kept_apart])
            self.kept_apart = ()
            served += self._from_stock(count - len(served), None)
        return served

    def _from_stock(self, count: int, seat: int | None) -> list[Card]:
        """Up to ``count`` cards from the top of the stock, skipping ``seat``'s discards."""
        stock = self.stock
        if seat is None or not self._discarded_by:
            taken = stock[:count]
            del stock[:count]
            return taken
        taken = []
        i = 0
        while len(taken) < count and i < len(stock):
            if self._discarded_by.get(stock[i]) == seat:
                i += 1
            else:
                taken.append(stock.pop(i))
        return taken

    def _shuffle_in(self, entries: Sequence[tuple[int, Card]]) -> None:
        """4.3: shuffle discards (with who discarded them) under the stock; recorded."""
        pool = [c for _, c in entries]
        for owner, card in entries:
            self._discarded_by[card] = owner
        if self._replay_reshuffles:
            order = self._replay_reshuffles.pop(0)
            if sorted(c.index for c in order) != sorted(c.index for c in pool):
                raise SeatError("a recorded reshuffle does not match the discards")
            pool = list(order)
        else:
            if self._rng is None:
                seed = self.start.seed
                self._rng = secrets.SystemRandom() if seed is None else random.Random(seed + 1)
            self._rng.shuffle(pool)
        self.reshuffles.append(tuple(pool))
        self.stock.extend(pool)

    # --- second round (Art. 5) ------------------------------------------------------------

    def _start_second_round(self) -> None:
        self.phase = Phase.SECOND_ROUND
        actors = self._actors()
        if len(actors) < 2:
            self._start_showdown()
            return
        first = self._second_round_first()
        self.pending = set(actors)
        self.may_raise = set(actors)
        self.actor = first

    def _second_round_first(self) -> int:
        rule = self.rules.second_round_starter
        anchor: int | None
        last_blind = self.blinders[-1] if self.blinders else None
        opener = self.opener if self.opener is not None else last_blind
        if rule is SecondRoundStarter.LAST_RAISER:
            anchor = self.last_raiser.get(Phase.FIRST_ROUND, opener)
        elif rule is SecondRoundStarter.FIRST_ROUND_STARTER:
            anchor = self.first_round_starter
        else:
            anchor = opener
        if anchor is None:
            anchor = self.next_seat(self.dealer)
        # Decided: if that player folded or is all-in, the next one able to act begins.
        for s in self.order_from(anchor):
            if self.can_act(s):
                return s
        raise AssertionError("no player can act")  # pragma: no cover

    # --- showdown (Art. 6-7) --------------------------------------------------------------

    def _start_showdown(self) -> None:
        self.phase = Phase.SHOWDOWN
        live = [s for s in range(self.n) if not self.folded[s]]
        first = self._first_to_show()
        self.showdown_order = [s for s in self.order_from(first) if s in live]
        self._showdown_pots = build_pots(self.committed, [not f for f in self.folded], self.dead)
        tiebreak = self.rules.tiebreak
        self._final_ranks = {
            s: evaluate(self.hands[s], players=self.n, tiebreak=tiebreak) for s in live
        }
        self.pending = set(self.showdown_order)
        self.actor = self.showdown_order[0]

    def _first_to_show(self) -> int:
        """002: the last raiser, else the first bettor, of the second round; 001: the last
        player who bet in the deal. Otherwise the first live player after the dealer."""
        if self.rules.showdown_order is ShowdownOrder.LAST_AGGRESSOR:
            candidate = self.last_raiser.get(Phase.SECOND_ROUND, self.first_bettor)
        else:
            candidate = self.last_aggressor
        if candidate is None or self.folded[candidate]:
            for s in self.order_from(self.next_seat(self.dealer)):
                if not self.folded[s]:
                    return s
        assert candidate is not None
        return candidate

    def _on_show(self, seat: int, action: Action) -> None:
        self.shown[seat] = self._rank(seat)
        self._next_shower(seat)

    def _on_muck(self, seat: int, action: Action) -> None:
        self.mucked.add(seat)
        self._next_shower(seat)

    def _next_shower(self, seat: int) -> None:
        self.pending.discard(seat)
        if self.pending:
            self.actor = self._next_pending(seat)
        else:
            self._award(shown=True)

    # --- endings --------------------------------------------------------------------------

    def _award(self, *, shown: bool) -> None:
        live = [not self.folded[s] and s not in self.mucked for s in range(self.n)]
        pots = build_pots(self.committed, live, self.dead)
        awards = tuple(self._award_pot(pot, shown) for pot in pots)
        for award in awards:
            for seat, share in zip(award.winners, award.shares, strict=True):
                self.stacks[seat] += share
        self._complete(Outcome.WON, awards, carried=0, returned=(0,) * self.n)

    def _award_pot(self, pot: Pot, shown: bool) -> PotAward:
        if len(pot.eligible) == 1 or not shown:
            winners = list(pot.eligible)
            reason = "uncalled" if not shown else "only eligible hand"
        else:
            ranks = [self.shown[s] for s in pot.eligible]
            winners = [pot.eligible[i] for i in best_ranks(ranks)]
            reason = _reason(ranks, [pot.eligible.index(w) for w in winners])
        ordered = self._odd_chip_order(winners)
        shares = split_amount(pot.amount, ordered)
        return PotAward(
            amount=pot.amount,
            eligible=pot.eligible,
            winners=tuple(sorted(winners)),
            shares=tuple(shares[w] for w in sorted(winners)),
            reason=reason,
        )

    def _odd_chip_order(self, winners: list[int]) -> list[int]:
        order = self.order_from(self.next_seat(self.dealer))
        by_position = sorted(winners, key=order.index)
        if self.rules.odd_chip is OddChip.HIGHEST_SUIT and all(w in self.shown for w in winners):
            return sorted(by_position, key=self._deciding_suit, reverse=True)
        return by_position

    def _deciding_suit(self, seat: int) -> int:
        suit = self.shown[seat].suit
        return -1 if suit is None else int(suit)

    def _finish_passed(self) -> None:
        """3.5: nobody opened. The pot stays (000) or the antes go back (003)."""
        self.actor = None
        if self.rules.all_pass is AllPassPolicy.RETURN_BETS:
            extra = self.rules.dealer_ante
            returned = tuple(
                c + (extra if s == self.dealer else 0) for s, c in enumerate(self.committed)
            )
            for s in range(self.n):
                self.stacks[s] += returned[s]
            self._complete(Outcome.PASSED, (), carried=self.dead - extra, returned=returned)
        else:
            self._complete(Outcome.PASSED, (), carried=self.pot, returned=(0,) * self.n)

    def _finish_parol(self) -> None:
        """5.4(a): the cards are thrown in; the pot carries to the next deal (5.5)."""
        stayed = [self.first_round_put[s] for s in range(self.n) if not self.first_round_folded[s]]
        level = max(stayed, default=0)
        makeups = tuple(
            level - self.first_round_put[s] if self.first_round_folded[s] else None
            for s in range(self.n)
        )
        self._complete(Outcome.PAROL, (), carried=self.pot, returned=(0,) * self.n, makeups=makeups)

    def _complete(
        self,
        outcome: Outcome,
        awards: tuple[PotAward, ...],
        *,
        carried: int,
        returned: tuple[int, ...],
        makeups: tuple[int | None, ...] = (),
    ) -> None:
        self.phase = Phase.COMPLETE
        self.actor = None
        self.pending = set()
        proof: tuple[Card, ...] = ()
        if self.opener is not None and self.rules.opener_must_prove:
            proof = opening_combination(self.opening_hand, self.requirement, players=self.n)
        self.result = DealResult(
            outcome=outcome,
            stacks=tuple(self.stacks),
            awards=awards,
            carried=carried,
            returned=returned,
            shown=dict(self.shown),
            makeups=makeups,
            proof=proof,
        )

    _HANDLERS: ClassVar[dict[ActionKind, Callable[[Deal, int, Action], None]]] = {
        ActionKind.BLIND: _on_blind,
        ActionKind.CONTROBUIO: _on_blind,
        ActionKind.OVER: _on_blind,
        ActionKind.DECLINE: _on_decline,
        ActionKind.PASS: _on_pass,
        ActionKind.OPEN: _on_open,
        ActionKind.FOLD: _on_fold,
        ActionKind.CALL: _on_call,
        ActionKind.RAISE: _on_raise,
        ActionKind.CHECK: _on_check,
        ActionKind.BET: _on_bet,
        ActionKind.PAROL: _on_parol,
        ActionKind.DRAW: _on_draw,
        ActionKind.SHOW: _on_show,
        ActionKind.MUCK: _on_muck,
    }


def _reason(ranks: list[HandRank], winner_indices: list[int]) -> str:
    """Why the winners won, e.g. ``la minima batte la massima``."""
    classes = {r.straight_flush_class for r in ranks if r.straight_flush_class is not None}
    if len(winner_indices) == 3 and len(classes) == 3:
        return "three straight flushes, minimum, medium and maximum: the pot is split (7.3)"
    best = ranks[winner_indices[0]]
    if best.straight_flush_class is StraightFlushClass.MINIMUM and (
        StraightFlushClass.MAXIMUM in classes
    ):
        return "la minima batte la massima (7.2)"
    return f"best hand: {best.description}"
