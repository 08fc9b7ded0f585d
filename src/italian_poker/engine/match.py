"""A match: many deals at one table, with seats, the dealer button and what carries over.

Between deals the match rotates the dealer (000 Art. 1), carries the pot of a passed deal or a
parol (3.5, 5.4(a)), escalates the opening requirement (3.5), runs the 5.5 make-up decisions
after a parol, removes busted players and lets players join, sit out and return.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from italian_poker.engine.actions import Action, ActionKind, LegalAction, check_action
from italian_poker.engine.cards import Card, Rank
from italian_poker.engine.deal import (
    ActionRecord,
    Deal,
    DealResult,
    DealStart,
    Operation,
    Outcome,
)
from italian_poker.engine.errors import (
    ActionNotAvailableError,
    DealOverError,
    IllegalActionError,
    InvalidAmountError,
    NotYourTurnError,
    SeatError,
)
from italian_poker.engine.observer import SeatView, observe
from italian_poker.engine.rules import AllPassPolicy, Direction, ParolLatecomers, Rules
from italian_poker.engine.seeds import derive_seed
from italian_poker.engine.wording import count


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
    """A seat at the table. ``player_id`` names the person for good: unlike a name, it is
    never given to another player (a new player may take a departed player's name)."""

    name: str
    stack: int
    sitting_out: bool = False
    player_id: int = 0


@dataclass(frozen=True, slots=True)
class CompletedDeal:
    """A finished deal as the match recorded it: how it began, what was done, how it ended."""

    number: int
    start: DealStart
    deck: tuple[Card, ...]
    reshuffles: tuple[tuple[Card, ...], ...]
    actions: tuple[ActionRecord, ...]
    result: DealResult
    operations: tuple[Operation, ...] = ()
    """Every change the deal made, in order (engine/operations.py)."""


@dataclass(frozen=True, slots=True)
class _Carry:
    """What the next deal inherits.

    After a parol (5.4(a)), while its pot is carried: ``makeups`` are the 5.5 questions still
    to ask (first-round folders of the abandoned hand and what each must pay), ``stake`` is
    what a player who stayed for the draw has put toward the carried pot, and ``paid`` what each
    player has put toward it so far; a player owes ``stake - paid`` (``parol_latecomers``)."""

    chips: int = 0
    min_pair: Rank | None = None
    after_parol: bool = False
    makeups: dict[int, int] = field(default_factory=dict)
    stake: int = 0
    paid: dict[int, int] = field(default_factory=dict)
    """By player id: a player who leaves and a newcomer who takes the name are not one."""


_NO_CARRY = _Carry()
"""Nothing carried: what follows a deal that was won."""


class Match:
    """Deals at one table. Use :meth:`start_deal`, then :attr:`actor`,
    :meth:`legal_actions` and :meth:`apply` until :attr:`phase` is ``BETWEEN_DEALS``."""

    # Slotted, as Deal: the attributes of a match are read on every action and view, and a
    # slot is read in one step.
    __slots__ = (
        "__weakref__",
        "_carry",
        "_dealt_in",
        "_joining",
        "_makeup_queue",
        "_next_player_id",
        "_pending_deck",
        "_pending_reshuffles",
        "_pending_seed",
        "_sitting_out_once",
        "completed",
        "deal",
        "deal_seats",
        "dealer_name",
        "departed",
        "passed_in_a_row",
        "phase",
        "rules",
        "seats",
        "seed",
    )

    def __init__(
        self,
        rules: Rules,
        seats: Sequence[tuple[str, int] | tuple[str, int, int]],
        *,
        dealer: int = 0,
        seed: int | None = None,
    ) -> None:
        if not 2 <= len(seats) <= rules.players:
            raise SeatError(f"a match at this table needs 2 to {rules.players} players")
        self.rules = rules
        self.seats: list[Seat] = []
        self._next_player_id = 0
        for entry in seats:
            name, stack = entry[0], entry[1]
            self._add_seat(name, stack, entry[2] if len(entry) > 2 else None)
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
        self._carry = _NO_CARRY
        self._makeup_queue: list[str] = []
        self._joining: dict[str, int] = {}
        self._sitting_out_once: set[str] = set()
        self.phase = MatchPhase.BETWEEN_DEALS
        self._update_over()

    # --- seats ----------------------------------------------------------------------------

    def _add_seat(
        self, name: str, stack: int, player_id: int | None, position: int | None = None
    ) -> None:
        """Check a new player and seat them after the last seat (or at ``position``)."""
        if not isinstance(name, str) or not name.strip():
            raise SeatError("a player needs a name")
        if any(s.name == name for s in self.seats):
            raise SeatError(f"there is already a player called {name!r}")
        if isinstance(stack, bool) or not isinstance(stack, int) or stack <= 0:
            raise SeatError(f"a stack must be a positive number of chips, got {stack!r}")
        if player_id is None:
            player_id = self._next_player_id
        elif type(player_id) is not int or player_id < 0:
            raise SeatError(f"a player id is a whole number, 0 or more, not {player_id!r}")
        if any(s.player_id == player_id for s in self.seats):
            raise SeatError(f"player id {player_id} is already seated")
        self._next_player_id = max(self._next_player_id, player_id + 1)
        seat = Seat(name, stack, player_id=player_id)
        self.seats.insert(len(self.seats) if position is None else position, seat)

    def seat_of(self, player_id: int) -> Seat:
        """The seat of the player with ``player_id``."""
        for s in self.seats:
            if s.player_id == player_id:
                return s
        raise SeatError(f"no player with id {player_id!r} at this table")

    def seat(self, name: str) -> Seat:
        """The seat of player ``name``."""
        for s in self.seats:
            if s.name == name:
                return s
        raise SeatError(f"no player called {name!r} at this table")

    def _between_deals(self, what: str) -> None:
        if self.phase in (MatchPhase.IN_DEAL, MatchPhase.MAKE_UP):
            raise SeatError(f"{what} only between deals")

    def join(
        self, name: str, stack: int, *, player_id: int | None = None, position: int | None = None
    ) -> None:
        """Seat a new player (between deals) after the last seat, or before the seat now at
        index ``position`` of :attr:`seats` (a table whose seats are numbered). ``player_id``
        names the person for good (default: the next unused id); a player coming back may be
        given their own id again, never a seated player's."""
        self._between_deals("players join")
        if len(self.seats) >= self.rules.players:
            raise SeatError(f"the table is full ({self.rules.players} seats)")
        if position is not None and not 0 <= position <= len(self.seats):
            raise SeatError(f"a position is 0 to {len(self.seats)}, not {position!r}")
        self._add_seat(name, stack, player_id, position)
        if not self._has_seat(self.dealer_name):
            self.dealer_name = name  # the button of an empty table goes to the first to sit
        self._update_over()

    def leave(self, name: str) -> int:
        """Remove a player (between deals); returns the chips they take away."""
        self._between_deals("players leave")
        seat = self.seat(name)
        if seat.name == self.dealer_name:
            # 000 Art. 1: the deal passes to the left, to the next player seated there.
            self.dealer_name = self._seat_after(name, lambda s: s is not seat) or name
        self.seats.remove(seat)
        self.departed.append((seat.name, seat.stack))
        self._update_over()
        return seat.stack

    def set_stack(self, name: str, stack: int) -> None:
        """Give player ``name`` exactly ``stack`` chips (between deals): a host's adjustment,
        a rebuy. With fewer chips than the antes the player is not dealt in, and leaves the
        match at the end of the next deal, as a busted player does."""
        self._between_deals("stacks change")
        seat = self.seat(name)
        if type(stack) is not int or stack < 0:
            raise SeatError(f"a stack is a whole number of chips, 0 or more, not {stack!r}")
        seat.stack = stack
        self._update_over()

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
            limit = self._ante_limit()
            dealable = [s for s in self.seats if not s.sitting_out and s.stack >= limit]
            self.phase = MatchPhase.OVER if len(dealable) < 2 else MatchPhase.BETWEEN_DEALS

    def _order_from(self, name: str) -> list[str]:
        """All seated names in the direction of play, starting with ``name``."""
        names = [s.name for s in self.seats]
        start = names.index(name)
        step = 1 if self.rules.direction is Direction.CLOCKWISE else -1
        return [names[(start + k * step) % len(names)] for k in range(len(names))]

    def _seat_after(self, name: str, accept: Callable[[Seat], bool]) -> str | None:
        """The first seated player after ``name`` (a seated player) in the direction of play,
        ``name`` itself last, whom ``accept`` takes; None if it takes nobody."""
        seats = self.seats
        start = 0
        for start, s in enumerate(seats):  # noqa: B007 (the index of ``name`` is wanted)
            if s.name == name:
                break
        step = 1 if self.rules.direction is Direction.CLOCKWISE else -1
        for k in range(1, len(seats) + 1):
            candidate = seats[(start + k * step) % len(seats)]
            if accept(candidate):
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

    def start_deal(
        self,
        *,
        deck: Sequence[Card] | None = None,
        seed: int | None = None,
        reshuffles: Sequence[Sequence[Card]] = (),
    ) -> None:
        """Begin the next deal (after the 5.5 make-up decisions, if a parol is pending).

        ``deck`` stacks the deck for the players who will be dealt in; ``seed`` makes the
        shuffle reproducible (default: the match seed advanced by the deal number, or a secure
        shuffle when the match has no seed). ``reshuffles`` replays the 4.3 reshuffles recorded
        when the deal was first played (with ``deck``, a deal resumes exactly).
        """
        if self.phase is MatchPhase.OVER:
            raise SeatError("fewer than two players can be dealt in: the match is over")
        if self.phase is not MatchPhase.BETWEEN_DEALS:
            raise SeatError("a deal is already under way")
        pending_deck = tuple(deck) if deck is not None else None
        pending_reshuffles = tuple(tuple(r) for r in reshuffles)
        if self._carry.after_parol:
            self._parol_dues()
            if len(self._playing()) < 2:
                waiting = sorted(self._sitting_out_once)
                self._joining, self._sitting_out_once, self._makeup_queue = {}, set(), []
                raise SeatError(
                    "fewer than two players can be dealt in while the parol pot is carried "
                    f"(not dealt in: {', '.join(waiting) or 'nobody'}; 5.5): the pot waits "
                    "for players to sit in, join or make up"
                )
        # Kept for the deal once it can begin (a refused start changes nothing).
        self._pending_deck = pending_deck
        self._pending_seed = seed
        self._pending_reshuffles = pending_reshuffles
        if self._carry.after_parol and self._makeup_queue:
            self.phase = MatchPhase.MAKE_UP
            return
        self._begin_deal()

    def replay_recorded(
        self, *, deck: Sequence[Card] | None = None, reshuffles: Sequence[Sequence[Card]] = ()
    ) -> None:
        """What the next event of a log being followed one event at a time recorded, given
        before that event is replayed: ``deck``, the order of the deal that begins once the
        last 5.5 make-up answer comes (as if :meth:`start_deal` had been given it), and
        ``reshuffles``, the 4.3 reshuffles the next action made (the deal replays them in
        order). A whole log replayed at once can give both to :meth:`start_deal` instead."""
        if deck is not None:
            if self.phase is not MatchPhase.MAKE_UP:
                raise SeatError("a recorded deck is given before the deal it begins")
            self._pending_deck = tuple(deck)
        if reshuffles:
            if self.phase is MatchPhase.MAKE_UP:
                self._pending_reshuffles += tuple(tuple(r) for r in reshuffles)
            elif self.deal is not None and self.phase is MatchPhase.IN_DEAL:
                self.deal.replay_reshuffles(reshuffles)
            else:
                raise SeatError("recorded reshuffles are given while no deal is under way")

    def _has_seat(self, name: str) -> bool:
        return any(s.name == name for s in self.seats)

    def _from_dealers_left(self) -> list[str]:
        """Every seated name in the direction of play from the dealer's left, dealer last."""
        order = self._order_from(self.dealer_name)
        return order[1:] + order[:1]

    def _parol_dues(self) -> None:
        """5.5, before a deal while a parol pot is carried: the first-round folders of the
        abandoned hand to ask (in play order from the dealer's left, like every turn), the
        players who pay what they owe on being dealt in, and those not dealt in this time
        (who cannot afford their due, or wait: ``parol_latecomers``)."""
        carry = self._carry
        latecomers = self.rules.parol_latecomers
        limit = self._ante_limit()
        self._joining, self._sitting_out_once, self._makeup_queue = {}, set(), []
        for name in self._from_dealers_left():
            seat = self.seat(name)
            if not self._can_be_dealt(seat):
                continue
            asked = carry.makeups.get(seat.player_id)
            owed = asked if asked is not None else carry.stake - carry.paid.get(seat.player_id, 0)
            if owed <= 0 or (asked is None and latecomers is ParolLatecomers.ANTE):
                continue
            if seat.stack < owed + limit or (asked is None and latecomers is ParolLatecomers.WAIT):
                self._sitting_out_once.add(name)
            elif asked is not None:
                self._makeup_queue.append(name)
            else:
                self._joining[name] = owed  # sat down (or in) knowing the pot is carried

    def _playing(self) -> list[Seat]:
        """The seats to deal in now, in table order (:meth:`_can_be_dealt`, and not sitting
        out this deal only)."""
        limit = self._ante_limit()
        once = self._sitting_out_once
        return [
            s for s in self.seats if not s.sitting_out and s.stack >= limit and s.name not in once
        ]

    def _begin_deal(self) -> None:
        playing = self._playing()
        if len(playing) < 2:
            # 5.5 (decided): the make-up answers leave fewer than two players. No deal: the
            # carried pot and its questions wait for the next attempt; the match goes on.
            self._joining, self._sitting_out_once = {}, set()
            self.phase = MatchPhase.BETWEEN_DEALS
            self._update_over()
            return
        names = tuple([s.name for s in playing])
        if self.dealer_name not in names:
            order = self._order_from(self.dealer_name)
            self.dealer_name = next(name for name in order if name in names)
        joining = self._joining
        makeups = tuple([joining.get(name, 0) for name in names])
        number = len(self.completed) + 1
        seed = self._pending_seed
        if seed is None and self.seed is not None:
            seed = derive_seed(self.seed, "deal", number)
        start = DealStart(
            rules=self.rules,
            names=names,
            stacks=tuple([s.stack for s in playing]),
            player_ids=tuple([s.player_id for s in playing]),
            dealer=names.index(self.dealer_name),
            carried=self._carry.chips,
            min_pair=self._carry.min_pair,
            blinds_allowed=not self._carry.after_parol,
            makeups=makeups,
            deck=self._pending_deck,
            seed=seed,
            reshuffles=self._pending_reshuffles,
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
        phase = self.phase
        if phase is _IN_DEAL and self.deal is not None:
            return self.deal.legal_actions()
        if phase is _MAKE_UP:
            amount = self._carry.makeups[self.seat(self._makeup_queue[0]).player_id]
            return (
                LegalAction(ActionKind.MAKE_UP, amount, amount),
                LegalAction(ActionKind.SIT_OUT),
            )
        return ()

    def verify(self, action: Action, player: str | None = None) -> Action:
        """Check ``action`` for the player to act (``player``, if given, must be them) without
        applying it: return it as it would be recorded, or raise the
        :class:`~italian_poker.engine.errors.IllegalActionError` :meth:`apply` would raise.
        Nothing changes."""
        actor = self.actor
        if actor is None:
            raise DealOverError("nobody is to act: start the next deal")
        if player is not None and player != actor:
            raise NotYourTurnError(f"it is {actor}'s turn, not {player}'s")
        if self.phase is _MAKE_UP:
            return self._verified_makeup(actor, action)
        assert self.deal is not None
        return self.deal.verify(action)

    def can(self, action: Action, player: str | None = None) -> bool:
        """Whether :meth:`apply` would accept ``action`` now; nothing changes."""
        try:
            self.verify(action, player)
        except IllegalActionError:
            return False
        return True

    def apply(self, action: Action, player: str | None = None) -> None:
        """Apply ``action`` for the player to act (``player``, if given, must be them); an
        illegal action raises as :meth:`verify` does and changes nothing."""
        deal = self.deal
        if self.phase is not _IN_DEAL or deal is None:
            self._apply_between(action, player)
            return
        if player is not None:
            actor = self.actor
            if player != actor:
                raise NotYourTurnError(f"it is {actor}'s turn, not {player}'s")
        seat = deal.apply(action).seat
        # An action moves the chips of the seat that acted only; the end of the deal (awards,
        # antes handed back) moves everyone's.
        self._dealt_in[seat].stack = deal.stacks[seat]
        if deal.result is not None:
            self._after_action()

    def _apply_between(self, action: Action, player: str | None) -> None:
        """:meth:`apply` outside a deal: a 5.5 make-up answer, else nobody is to act."""
        if self.phase is not _MAKE_UP:
            raise DealOverError("nobody is to act: start the next deal")
        action = self.verify(action, player)
        name = self._makeup_queue.pop(0)
        if action.kind is ActionKind.MAKE_UP:
            self._joining[name] = self._carry.makeups[self.seat(name).player_id]
        else:
            self._sitting_out_once.add(name)
        if not self._makeup_queue:
            self._begin_deal()

    def _verified_makeup(self, name: str, action: Action) -> Action:
        """5.5: the make-up answer of ``name`` (make up the amount asked, or sit out), with
        the amount filled in."""
        check_action(action)
        if action.cards or action.split:
            raise ActionNotAvailableError(f"{action.kind.value} takes no cards")
        amount = self._carry.makeups[self.seat(name).player_id]
        if action.kind is ActionKind.MAKE_UP:
            if action.amount is not None and action.amount != amount:
                raise ActionNotAvailableError(
                    f"the make-up contribution is {count(amount, 'chip')}"
                )
            return Action(ActionKind.MAKE_UP, amount)
        if action.kind is ActionKind.SIT_OUT:
            if action.amount is not None:
                raise InvalidAmountError("sit-out takes no amount")
            return action
        raise ActionNotAvailableError(
            f"after a parol you first decide: make up {count(amount, 'chip')} to play (5.5), "
            "or sit out this deal"
        )

    def view(self, player: str) -> SeatView:
        """What ``player`` may know about the current (or last) deal. A player asked the 5.5
        make-up question sees it as their turn: the legal actions are ``MAKE_UP`` (with the
        amount) and ``SIT_OUT``."""
        deal = self.deal
        if deal is None or player not in self.deal_seats:
            raise SeatError(f"{player!r} is not in the current deal")
        view = observe(deal, self.deal_seats.index(player))
        if self.phase is _MAKE_UP and self._makeup_queue[0] == player:
            view = view._replace(actor=view.seat, legal_actions=self.legal_actions())
        return view

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
                operations=tuple(deal.operations),
            )
        )
        self._carry = self._next_carry(deal)
        self._joining = {}
        self._sitting_out_once = set()
        # 000 Art. 1: the deal passes one place to the left, to the next player who can be
        # dealt in (or, if nobody else can, who stays seated). Players who cannot pay an ante
        # any more leave the table.
        limit = self._ante_limit()
        button = self._seat_after(self.dealer_name, self._can_be_dealt) or self._seat_after(
            self.dealer_name, lambda s: s.stack >= limit
        )
        busted = [s for s in self.seats if s.stack < limit]
        if busted:
            self.departed.extend((s.name, s.stack) for s in busted)
            self.seats = [s for s in self.seats if s.stack >= limit]
        if button is not None:
            self.dealer_name = button
        self.phase = MatchPhase.BETWEEN_DEALS
        self._update_over()

    def _next_carry(self, deal: Deal) -> _Carry:
        result = deal.result
        assert result is not None
        rules = self.rules
        carry = self._carry
        if result.outcome is Outcome.WON:
            self.passed_in_a_row = 0
            return _NO_CARRY
        ids = deal.start.player_ids
        # What each player dealt in has now put toward a parol pot: their make-up, and the
        # ante unless it was handed back (003).
        ante = rules.ante if rules.all_pass is not AllPassPolicy.RETURN_BETS else 0
        paid = dict(carry.paid) if carry.after_parol else {}
        for i, player in enumerate(ids):
            made_up = deal.start.makeups[i] if deal.start.makeups else 0
            paid[player] = paid.get(player, 0) + made_up
        if result.outcome is Outcome.PAROL:
            self.passed_in_a_row = 0
            stayed = [
                put
                for put, folded in zip(deal.first_round_put, deal.first_round_folded, strict=True)
                if not folded
            ]
            stake = (carry.stake if carry.after_parol else 0) + rules.ante + max(stayed)
            for i, player in enumerate(ids):
                paid[player] += rules.ante + deal.first_round_put[i]
            makeups = {
                ids[i]: amount for i, amount in enumerate(result.makeups) if amount is not None
            }
            return _Carry(result.carried, rules.parol_min_pair, True, makeups, stake, paid)
        # Every player passed (3.5).
        self.passed_in_a_row += 1
        if carry.after_parol:
            # Decided: the 5.5 conditions hold until the parol pot is opened; its questions are
            # asked on the first deal after the parol only.
            for player in ids:
                paid[player] += ante
            return _Carry(result.carried, carry.min_pair, True, {}, carry.stake + ante, paid)
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
