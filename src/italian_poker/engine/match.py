"""A match: many deals at one table, with seats, the dealer button and what carries over.

Between deals the match rotates the dealer (000 Art. 1), carries the pot of a passed deal or a
parol (3.5, 5.4(a)), escalates the opening requirement (3.5), runs the 5.5 make-up decisions
after a parol, removes busted players and lets players join, sit out and return.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from italian_poker.engine.actions import Action, ActionKind, LegalAction
from italian_poker.engine.cards import Card, Rank
from italian_poker.engine.deal import ActionRecord, Deal, DealResult, DealStart, Outcome
from italian_poker.engine.errors import (
    ActionNotAvailableError,
    DealOverError,
    NotYourTurnError,
    SeatError,
)
from italian_poker.engine.rules import AllPassPolicy, Direction, Rules
from italian_poker.engine.view import SeatView, seat_view


class MatchPhase(StrEnum):
    """Where a match stands."""

    BETWEEN_DEALS = "between-deals"
    MAKE_UP = "make-up"
    """5.5: first-round folders of an abandoned hand decide whether to pay in and play."""
    IN_DEAL = "in-deal"
    OVER = "over"
    """Fewer than two players can be dealt in."""


# Read on every action: an enum member looked up as a class attribute costs ~0.1 µs on 3.11.
_MAKE_UP, _IN_DEAL = MatchPhase.MAKE_UP, MatchPhase.IN_DEAL


@dataclass(slots=True)
class Seat:
    """A seat at the table."""

    name: str
    stack: int
    sitting_out: bool = False


@dataclass(frozen=True, slots=True)
class CompletedDeal:
    """A finished deal as the match recorded it: how it began, what was done, how it ended."""

    number: int
    start: DealStart
    deck: tuple[Card, ...]
    reshuffles: tuple[tuple[Card, ...], ...]
    actions: tuple[ActionRecord, ...]
    result: DealResult


@dataclass(slots=True)
class _Carry:
    """What the next deal inherits."""

    chips: int = 0
    min_pair: Rank | None = None
    after_parol: bool = False
    makeups: dict[str, int] = field(default_factory=dict)


class Match:
    """Deals at one table. Use :meth:`start_deal`, then :attr:`actor`,
    :meth:`legal_actions` and :meth:`apply` until :attr:`phase` is ``BETWEEN_DEALS``."""

    def __init__(
        self,
        rules: Rules,
        seats: Sequence[tuple[str, int]],
        *,
        dealer: int = 0,
        seed: int | None = None,
    ) -> None:
        if not 2 <= len(seats) <= rules.players:
            raise SeatError(f"a match at this table needs 2 to {rules.players} players")
        self.rules = rules
        self.seats: list[Seat] = []
        for name, stack in seats:
            self._check_new_seat(name, stack)
            self.seats.append(Seat(name, stack))
        if not 0 <= dealer < len(self.seats):
            raise SeatError(f"the dealer must be seat 0 to {len(self.seats) - 1}")
        self.dealer_name = self.seats[dealer].name
        self.seed = seed
        self.deal: Deal | None = None
        self.deal_seats: list[str] = []
        self._dealt_in: list[Seat] = []
        """The seats of the current (or last) deal, in deal order."""
        self.completed: list[CompletedDeal] = []
        self.departed: list[tuple[str, int]] = []
        """Players who left or busted, with the chips they took."""
        self.passed_in_a_row = 0
        self._carry = _Carry()
        self._makeup_queue: list[str] = []
        self._joining: dict[str, int] = {}
        self._sitting_out_once: set[str] = set()
        self.phase = MatchPhase.BETWEEN_DEALS
        self._update_over()

    # --- seats ----------------------------------------------------------------------------

    def _check_new_seat(self, name: str, stack: int) -> None:
        if not isinstance(name, str) or not name.strip():
            raise SeatError("a player needs a name")
        if any(s.name == name for s in self.seats):
            raise SeatError(f"there is already a player called {name!r}")
        if isinstance(stack, bool) or not isinstance(stack, int) or stack <= 0:
            raise SeatError(f"a stack must be a positive number of chips, got {stack!r}")

    def seat(self, name: str) -> Seat:
        """The seat of player ``name``."""
        for s in self.seats:
            if s.name == name:
                return s
        raise SeatError(f"no player called {name!r} at this table")

    def _between_deals(self, what: str) -> None:
        if self.phase in (MatchPhase.IN_DEAL, MatchPhase.MAKE_UP):
            raise SeatError(f"{what} only between deals")

    def join(self, name: str, stack: int) -> None:
        """Seat a new player (between deals) after the last seat."""
        self._between_deals("players join")
        if len(self.seats) >= self.rules.players:
            raise SeatError(f"the table is full ({self.rules.players} seats)")
        self._check_new_seat(name, stack)
        self.seats.append(Seat(name, stack))
        self._update_over()

    def leave(self, name: str) -> int:
        """Remove a player (between deals); returns the chips they take away."""
        self._between_deals("players leave")
        seat = self.seat(name)
        if seat.name == self.dealer_name:
            self.dealer_name = self._next_active(seat.name, include_self=False) or seat.name
        self.seats.remove(seat)
        self.departed.append((seat.name, seat.stack))
        self._update_over()
        return seat.stack

    def sit_out(self, name: str) -> None:
        """Keep a player's seat but deal them out until :meth:`sit_in` (between deals)."""
        self._between_deals("players sit out")
        self.seat(name).sitting_out = True
        self._update_over()

    def sit_in(self, name: str) -> None:
        """Deal a sitting-out player in again from the next deal."""
        self._between_deals("players return")
        self.seat(name).sitting_out = False
        self._update_over()

    def _ante_limit(self) -> int:
        """The most a player may have to ante in one deal (the dealer's ante included)."""
        return max(self.rules.ante + self.rules.dealer_ante, 1)

    def _can_be_dealt(self, seat: Seat) -> bool:
        return not seat.sitting_out and seat.stack >= self._ante_limit()

    def _update_over(self) -> None:
        if self.phase is MatchPhase.BETWEEN_DEALS or self.phase is MatchPhase.OVER:
            dealable = sum(1 for s in self.seats if self._can_be_dealt(s))
            self.phase = MatchPhase.OVER if dealable < 2 else MatchPhase.BETWEEN_DEALS

    def _order_from(self, name: str) -> list[str]:
        """All seated names in the direction of play, starting with ``name``."""
        names = [s.name for s in self.seats]
        start = names.index(name)
        step = 1 if self.rules.direction is Direction.CLOCKWISE else -1
        return [names[(start + k * step) % len(names)] for k in range(len(names))]

    def _next_active(self, name: str, *, include_self: bool) -> str | None:
        names = [s.name for s in self.seats]
        start = names.index(name)
        step = 1 if self.rules.direction is Direction.CLOCKWISE else -1
        for k in range(0 if include_self else 1, len(names) + 1):
            candidate = self.seats[(start + k * step) % len(names)]
            if self._can_be_dealt(candidate):
                return candidate.name
        return None

    # --- requirement ----------------------------------------------------------------------

    @property
    def min_pair(self) -> Rank:
        """The pair needed to open in the next (or current) deal."""
        return self._carry.min_pair or self.rules.min_pair

    @property
    def carried(self) -> int:
        """Chips waiting in the pot for the next deal."""
        return self._carry.chips

    # --- dealing --------------------------------------------------------------------------

    def start_deal(self, *, deck: Sequence[Card] | None = None, seed: int | None = None) -> None:
        """Begin the next deal (after the 5.5 make-up decisions, if a parol is pending).

        ``deck`` stacks the deck for the players who will be dealt in; ``seed`` makes the
        shuffle reproducible (default: the match seed advanced by the deal number, or a secure
        shuffle when the match has no seed).
        """
        if self.phase is MatchPhase.OVER:
            raise SeatError("fewer than two players can be dealt in: the match is over")
        if self.phase is not MatchPhase.BETWEEN_DEALS:
            raise SeatError("a deal is already under way")
        self._pending_deck = tuple(deck) if deck is not None else None
        self._pending_seed = seed
        if self._carry.after_parol:
            self._joining = {}
            self._sitting_out_once = set()
            self._makeup_queue = [
                name
                for name, amount in self._carry.makeups.items()
                if amount > 0 and self._has_seat(name) and self._can_be_dealt(self.seat(name))
            ]
            for name in list(self._makeup_queue):
                if self.seat(name).stack < self._carry.makeups[name] + self._ante_limit():
                    self._makeup_queue.remove(name)  # cannot afford to come back in
                    self._sitting_out_once.add(name)
            if self._makeup_queue:
                self.phase = MatchPhase.MAKE_UP
                return
        self._begin_deal()

    def _has_seat(self, name: str) -> bool:
        return any(s.name == name for s in self.seats)

    def _begin_deal(self) -> None:
        playing = [
            s for s in self.seats if self._can_be_dealt(s) and s.name not in self._sitting_out_once
        ]
        if len(playing) < 2:
            # Not enough players to deal: the match cannot go on.
            self.phase = MatchPhase.OVER
            return
        in_deal = {s.name for s in playing}
        order = self._order_from(self.dealer_name)
        self.dealer_name = next(name for name in order if name in in_deal)
        names = tuple(s.name for s in playing)
        makeups = tuple(self._joining.get(s.name, 0) for s in playing)
        number = len(self.completed) + 1
        seed = self._pending_seed
        if seed is None and self.seed is not None:
            seed = self.seed * 1_000_003 + number
        start = DealStart(
            rules=self.rules,
            names=names,
            stacks=tuple(s.stack for s in playing),
            dealer=names.index(self.dealer_name),
            carried=self._carry.chips,
            min_pair=self._carry.min_pair,
            blinds_allowed=not self._carry.after_parol,
            makeups=makeups,
            deck=self._pending_deck,
            seed=seed,
        )
        self.deal = Deal(start)
        self.deal_seats = list(names)
        self._dealt_in = playing
        self.phase = MatchPhase.IN_DEAL
        self._sync_stacks()
        self._after_action()

    def _sync_stacks(self) -> None:
        assert self.deal is not None
        for seat, stack in zip(self._dealt_in, self.deal.stacks, strict=True):
            seat.stack = stack

    # --- acting ---------------------------------------------------------------------------

    @property
    def actor(self) -> str | None:
        """Name of the player to act, or None."""
        phase = self.phase
        if phase is _MAKE_UP:
            return self._makeup_queue[0]
        deal = self.deal
        if phase is _IN_DEAL and deal is not None and deal.actor is not None:
            return self.deal_seats[deal.actor]
        return None

    def legal_actions(self) -> tuple[LegalAction, ...]:
        """What the player to act may do."""
        if self.phase is MatchPhase.MAKE_UP:
            amount = self._carry.makeups[self._makeup_queue[0]]
            return (
                LegalAction(ActionKind.MAKE_UP, amount, amount),
                LegalAction(ActionKind.SIT_OUT),
            )
        if self.phase is _IN_DEAL and self.deal is not None:
            return self.deal.legal_actions()
        return ()

    def apply(self, action: Action, player: str | None = None) -> None:
        """Apply ``action`` for the player to act (``player``, if given, must be them)."""
        actor = self.actor
        if actor is None:
            raise DealOverError("nobody is to act: start the next deal")
        if player is not None and player != actor:
            raise NotYourTurnError(f"it is {actor}'s turn, not {player}'s")
        if self.phase is _MAKE_UP:
            self._apply_makeup(actor, action)
            return
        assert self.deal is not None
        self.deal.apply(action)
        self._sync_stacks()
        self._after_action()

    def _apply_makeup(self, name: str, action: Action) -> None:
        amount = self._carry.makeups[name]
        if action.kind is ActionKind.MAKE_UP:
            if action.amount is not None and action.amount != amount:
                raise ActionNotAvailableError(f"the make-up contribution is {amount} chips")
            self._joining[name] = amount
        elif action.kind is ActionKind.SIT_OUT:
            self._sitting_out_once.add(name)
        else:
            raise ActionNotAvailableError(
                f"after a parol you first decide: make up {amount} chips to play (5.5), "
                "or sit out this deal"
            )
        self._makeup_queue.pop(0)
        if not self._makeup_queue:
            self._begin_deal()

    def view(self, player: str) -> SeatView:
        """What ``player`` may know about the current (or last) deal."""
        if player not in self.deal_seats or self.deal is None:
            raise SeatError(f"{player!r} is not in the current deal")
        return seat_view(self.deal, self.deal_seats.index(player))

    def _after_action(self) -> None:
        deal = self.deal
        if deal is None or deal.result is None:
            return
        result = deal.result
        self._sync_stacks()
        self.completed.append(
            CompletedDeal(
                number=len(self.completed) + 1,
                start=deal.start,
                deck=deal.deck_order,
                reshuffles=tuple(deal.reshuffles),
                actions=tuple(deal.actions),
                result=result,
            )
        )
        self._carry = self._next_carry(result)
        self._joining = {}
        self._sitting_out_once = set()
        # The deal passes one place to the left (000 Art. 1).
        nxt = self._next_active(self.dealer_name, include_self=False)
        # Busted players leave: those who cannot pay an ante any more.
        for s in self.seats:
            if s.stack < self._ante_limit():
                self.departed.append((s.name, s.stack))
        self.seats = [s for s in self.seats if s.stack >= self._ante_limit()]
        if nxt is not None and self._has_seat(nxt):
            self.dealer_name = nxt
        elif self.seats:
            self.dealer_name = self.seats[0].name
        self.phase = MatchPhase.BETWEEN_DEALS
        self._update_over()

    def _next_carry(self, result: DealResult) -> _Carry:
        rules = self.rules
        if result.outcome is Outcome.WON:
            self.passed_in_a_row = 0
            return _Carry()
        if result.outcome is Outcome.PAROL:
            self.passed_in_a_row = 0
            names = self.deal_seats
            makeups = {
                names[i]: amount for i, amount in enumerate(result.makeups) if amount is not None
            }
            return _Carry(result.carried, rules.parol_min_pair, True, makeups)
        # Every player passed (3.5).
        self.passed_in_a_row += 1
        if self._carry.after_parol:
            # Decided: the 5.5 conditions hold until the parol pot is opened.
            return _Carry(result.carried, self._carry.min_pair, True, {})
        if rules.all_pass is AllPassPolicy.ESCALATE:
            # 3.5: J -> Q -> K -> J; a table starting higher cycles from its own minimum.
            current = self.min_pair
            nxt = Rank(current + 1) if current < Rank.KING else rules.min_pair
            return _Carry(result.carried, nxt)
        if rules.all_pass is AllPassPolicy.RETURN_BETS:
            # 003: the next deal opens only with kings or better.
            return _Carry(result.carried, rules.parol_min_pair)
        return _Carry(result.carried)

    @property
    def last_result(self) -> DealResult | None:
        """The result of the last completed deal."""
        return self.completed[-1].result if self.completed else None
