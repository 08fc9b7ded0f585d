"""A match: many deals at one table, with seats, the dealer button and what carries over.

Between deals the match rotates the dealer (000 Art. 1), carries the pot of a passed deal or a
parol (3.5, 5.4(a)), escalates the opening requirement (3.5), runs the 5.5 make-up decisions
after a parol, removes busted players and lets players join, sit out and return.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from enum import StrEnum

from italian_poker.engine.actions import Action, ActionKind, LegalAction, check_action
from italian_poker.engine.card_source import (
    SECURE,
    CardsDue,
    CardSource,
    SeededSource,
    StackedSource,
)
from italian_poker.engine.cards import Card, Rank
from italian_poker.engine.deal import (
    ActionRecord,
    Deal,
    DealResult,
    DealStart,
    Operation,
    Outcome,
)
from italian_poker.engine.deck import MAX_PLAYERS, MIN_PLAYERS, stripped_deck
from italian_poker.engine.errors import (
    ActionNotAvailableError,
    CardsNotAvailableError,
    DealOverError,
    DealStartError,
    IllegalActionError,
    InvalidAmountError,
    NotYourTurnError,
    RulesError,
    SeatError,
)
from italian_poker.engine.observer import SeatView, observe
from italian_poker.engine.opening import OpeningRequirement, opening_requirement
from italian_poker.engine.rules import (
    AllPassPolicy,
    Direction,
    Escalation,
    ParolLatecomers,
    Rules,
)
from italian_poker.engine.seeds import derive_seed
from italian_poker.engine.wording import count


class MatchPhase(StrEnum):
    """Where a match stands."""

    BETWEEN_DEALS = "between-deals"
    MAKE_UP = "make-up"
    """5.5: first-round folders of an abandoned hand decide whether to pay in and play."""
    IN_DEAL = "in-deal"
    OVER = "over"
    """Fewer players than the rules' ``min_players`` (2; 003: 4) can be dealt in; players who
    join or sit in start it again."""


# Read on every action: an enum member looked up as a class attribute costs ~0.1 µs on 3.11.
_MAKE_UP, _IN_DEAL = MatchPhase.MAKE_UP, MatchPhase.IN_DEAL
_BETWEEN_DEALS, _OVER = MatchPhase.BETWEEN_DEALS, MatchPhase.OVER
_WON, _PASSED = Outcome.WON, Outcome.PASSED


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
    actions: tuple[ActionRecord, ...]
    result: DealResult
    operations: tuple[Operation, ...] = ()
    """Every change the deal made, in order (engine/operations.py), every card taken included:
    a :class:`~italian_poker.engine.card_source.RecordedSource` of them replays the deal."""


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
    two_pair: bool = False
    """The ``j-q-k-two-pair`` ladder's top step: two pair or better opens (3.5)."""
    unopened: bool = False
    """The last deal was passed or abandoned (3.5, 5.4(a)): under
    ``four_straight_flush_always=False``, 3.3(b) does not open the next."""


_NO_CARRY = _Carry()
"""Nothing carried: what follows a deal that was won."""

_NOBODY: frozenset[str] = frozenset()
"""Nobody sitting out a deal only (read, never changed)."""


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
        "_pending_source",
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
        if not isinstance(rules, Rules):
            raise RulesError(f"a match is played under Rules, not {rules!r}")
        if not isinstance(seats, list | tuple) or not 2 <= len(seats) <= rules.players:
            raise SeatError(f"a match at this table needs a list of 2 to {rules.players} seats")
        self.rules = rules
        self.seats: list[Seat] = []
        self._next_player_id = 0
        for entry in seats:
            self._add_seat(*_seat_entry(entry))
        if type(dealer) is not int or not 0 <= dealer < len(self.seats):
            raise SeatError(f"the dealer is seat 0 to {len(self.seats) - 1}, not {dealer!r}")
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

    def set_rules(self, rules: Rules) -> None:
        """Play the next deals under ``rules`` (between deals): a schedule raising the ante
        and the bet limits (000 Art. 1: agreed before play). The seats and who may be dealt
        in (``players``, ``min_players``) stay as they are. A player left with fewer chips
        than the new antes is not dealt in and leaves at the end of the next deal, as a
        busted player does."""
        self._between_deals("the rules change")
        if not isinstance(rules, Rules):
            raise RulesError(f"a match is played under Rules, not {rules!r}")
        if (rules.players, rules.min_players) != (self.rules.players, self.rules.min_players):
            raise RulesError(
                f"new rules keep the table's {self.rules.players} seats and its "
                f"{self.rules.min_players} players needed to deal"
            )
        self.rules = rules
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

    def chips_to_play(self, name: str) -> int:
        """The chips player ``name`` needs to be dealt in the next deal: the most one deal's
        ante may ask (the dealer's extra ante included), and while a parol pot is carried
        what 5.5 asks of them first (their make-up, or what a latecomer owes; under
        ``parol_latecomers="wait"`` a latecomer waits for the pot to be won, whatever his
        chips)."""
        seat = self.seat(name)
        need = self.rules.chips_to_be_dealt_in
        if self._carry.after_parol:
            need += self._parol_owed(seat)
        return need

    def _can_be_dealt(self, seat: Seat) -> bool:
        return not seat.sitting_out and seat.stack >= self.rules.chips_to_be_dealt_in

    def _update_over(self) -> None:
        """Between deals, the match is over while fewer than ``min_players`` can be dealt
        in, counting what 5.5 asks of each player while a parol pot is carried."""
        phase = self.phase
        if phase is _BETWEEN_DEALS or phase is _OVER:
            once = self._parol_dues()[1] if self._carry.after_parol else _NOBODY
            few = len(self._playing(once)) < self.rules.min_players
            self.phase = _OVER if few else _BETWEEN_DEALS

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
    def requirement(self) -> OpeningRequirement:
        """What opens the next (or current) deal (3.3, 3.5, 5.5)."""
        carry = self._carry
        rules = self.rules
        return opening_requirement(
            carry.min_pair or rules.min_pair,
            rules.four_straight_flush_opens
            and (rules.four_straight_flush_always or not carry.unopened),
            carry.two_pair,
        )

    @property
    def carried(self) -> int:
        """Chips waiting in the pot for the next deal."""
        return self._carry.chips

    # --- dealing --------------------------------------------------------------------------

    def start_deal(
        self,
        source: CardSource | None = None,
        *,
        deck: Sequence[Card] | None = None,
        seed: int | None = None,
    ) -> None:
        """Begin the next deal (after the 5.5 make-up decisions, if a parol is pending).

        The deal takes its cards from ``source`` (engine/card_source.py). Without one: from
        a :class:`~italian_poker.engine.card_source.StackedSource` of ``deck``, a whole deck
        for the players who will be dealt in (the discards reshuffled, 4.3, by ``seed`` or
        securely), from a :class:`~italian_poker.engine.card_source.SeededSource` of
        ``seed``, or of the match seed and the deal's number (engine/seeds.py), else
        securely.
        """
        phase = self.phase
        if phase is _OVER:
            carried = " while the parol pot is carried (5.5)" if self._carry.after_parol else ""
            raise SeatError(
                f"fewer than {self.rules.min_players} players can be dealt in{carried}: the "
                "match waits for players to join, sit in or make up"
            )
        if phase is not _BETWEEN_DEALS:
            raise SeatError("a deal is already under way")
        pending_deck = _stacked_deck(deck)
        if seed is not None and type(seed) is not int:
            raise DealStartError(f"a seed is a whole number, not {seed!r}")
        if source is not None and not callable(getattr(source, "take", None)):
            raise DealStartError(f"a card source has a take method: not {source!r}")
        if source is None and pending_deck is not None:
            source = (
                StackedSource(pending_deck, then=SECURE)
                if seed is None
                else SeededSource(seed, order=pending_deck)
            )
        elif source is None and seed is not None:
            source = SeededSource(seed)
        # Everything is worked out first; the match changes only once the start is accepted.
        if self._carry.after_parol:
            joining, once, queue = self._parol_dues()
        else:
            joining, once, queue = {}, set(), []
        playing = self._playing(once)
        if len(playing) < self.rules.min_players:
            raise SeatError(
                f"fewer than {self.rules.min_players} players can be dealt in while the parol "
                f"pot is carried (not dealt in: {', '.join(sorted(once)) or 'nobody'}; 5.5): "
                "the pot waits for players to sit in, join or make up"
            )
        if queue:
            self._check_deck_fits(pending_deck, len(playing) - len(queue), len(playing))
            self._joining, self._sitting_out_once, self._makeup_queue = joining, once, queue
            self._pending_deck = pending_deck
            self._pending_source = source
            self.phase = MatchPhase.MAKE_UP
            return
        self._check_deck_fits(pending_deck, len(playing), len(playing))
        self._pending_deck = pending_deck
        self._pending_source = source
        self._begin_deal(joining, once, playing)

    def _check_deck_fits(self, deck: tuple[Card, ...] | None, low: int, high: int) -> None:
        """Raise :class:`DealStartError` unless a stacked ``deck`` (None: a shuffle) is the
        whole deck (section 1) for some number of players from ``low`` to ``high``, the
        players the pending 5.5 answers may deal in (or no deal begins)."""
        if deck is None or self._deck_serves(deck, low, high):
            return
        players = _deck_players(deck)
        made_for = f"the deck for {players} players" if players else "no deck of this game"
        dealt = f"{low}" if low == high else f"{low} to {high}"
        raise DealStartError(
            f"a stacked deck of {len(deck)} cards is {made_for}, but {dealt} players may be "
            "dealt in: give the whole stripped deck for them, each card once (section 1)"
        )

    def _deck_serves(self, deck: tuple[Card, ...] | None, low: int, high: int) -> bool:
        """Whether the stacked ``deck`` can serve a deal to ``low`` to ``high`` players: it is
        their deck for one of those numbers, or one of them begins no deal."""
        if deck is None or low < self.rules.min_players:
            return True
        return low <= _deck_players(deck) <= high

    def _has_seat(self, name: str) -> bool:
        return any(s.name == name for s in self.seats)

    def _from_dealers_left(self) -> list[str]:
        """Every seated name in the direction of play from the dealer's left, dealer last
        (in table order while the button is at no seat: everyone has left)."""
        if not self._has_seat(self.dealer_name):
            return [s.name for s in self.seats]
        order = self._order_from(self.dealer_name)
        return order[1:] + order[:1]

    def _parol_dues(self) -> tuple[dict[str, int], set[str], list[str]]:
        """5.5, before a deal while a parol pot is carried: the players who pay what they owe
        on being dealt in, those not dealt in this time (who cannot afford their due, or wait:
        ``parol_latecomers``), and the first-round folders of the abandoned hand to ask (in
        play order from the dealer's left, like every turn)."""
        carry = self._carry
        latecomers = self.rules.parol_latecomers
        limit = self.rules.chips_to_be_dealt_in
        joining: dict[str, int] = {}
        once: set[str] = set()
        queue: list[str] = []
        for name in self._from_dealers_left():
            seat = self.seat(name)
            if not self._can_be_dealt(seat):
                continue
            asked = carry.makeups.get(seat.player_id)
            owed = self._parol_owed(seat)
            if owed <= 0:
                continue
            if seat.stack < owed + limit or (asked is None and latecomers is ParolLatecomers.WAIT):
                once.add(name)
            elif asked is not None:
                queue.append(name)
            else:
                joining[name] = owed  # sat down (or in) knowing the pot is carried
        return joining, once, queue

    def _parol_owed(self, seat: Seat) -> int:
        """5.5: what ``seat`` pays on being dealt in while a parol pot is carried: a
        first-round folder's make-up, or what a player who had no part in the abandoned hand
        owes (nothing under ``parol_latecomers="ante"``)."""
        carry = self._carry
        asked = carry.makeups.get(seat.player_id)
        if asked is not None:
            return max(asked, 0)
        if self.rules.parol_latecomers is ParolLatecomers.ANTE:
            return 0
        return max(carry.stake - carry.paid.get(seat.player_id, 0), 0)

    def _playing(self, once: AbstractSet[str]) -> list[Seat]:
        """The seats to deal in now, in table order (:meth:`_can_be_dealt`, and not in
        ``once``, the players sitting out this deal only)."""
        limit = self.rules.chips_to_be_dealt_in
        return [
            s for s in self.seats if not s.sitting_out and s.stack >= limit and s.name not in once
        ]

    def _begin_deal(
        self, joining: dict[str, int], once: set[str], playing: list[Seat] | None = None
    ) -> None:
        """Deal in the players who can play (``playing``, if already worked out), ``once``
        (sitting out this deal) aside, with the make-ups of ``joining``. The deal is made
        before anything changes: if it cannot begin, it raises and the match is as it was."""
        if playing is None:
            playing = self._playing(once)
        if len(playing) < self.rules.min_players:
            # 5.5 (decided): the make-up answers leave too few players. No deal: the carried
            # pot and its questions wait for the next attempt; the match goes on.
            self._joining, self._sitting_out_once, self._makeup_queue = {}, set(), []
            self.phase = MatchPhase.BETWEEN_DEALS
            self._update_over()
            return
        names = tuple([s.name for s in playing])
        dealer_name = self.dealer_name
        if dealer_name not in names:
            dealer_name = next(name for name in self._order_from(dealer_name) if name in names)
        source = self._deal_source(len(self.completed) + 1)
        carry = self._carry
        # 5.5: no blinds while a parol pot is carried; 003: none on the kings-only deal after
        # a piatto di parole (``blind_after_all_pass``).
        blinds = not carry.after_parol and (
            self.rules.blind_after_all_pass or self.passed_in_a_row == 0
        )
        start = DealStart(
            rules=self.rules,
            names=names,
            stacks=tuple([s.stack for s in playing]),
            player_ids=tuple([s.player_id for s in playing]),
            dealer=names.index(dealer_name),
            carried=carry.chips,
            min_pair=carry.min_pair,
            two_pair=carry.two_pair,
            four_straight_flush=self.rules.four_straight_flush_always or not carry.unopened,
            blinds_allowed=blinds,
            makeups=tuple([joining.get(name, 0) for name in names])
            if joining
            else (0,) * len(names),
        )
        deal = Deal(start, source)
        self.deal = deal
        self.deal_seats = list(names)
        self._dealt_in = playing
        self.dealer_name = dealer_name
        self._joining, self._sitting_out_once, self._makeup_queue = joining, once, []
        self.phase = _IN_DEAL
        self._sync_stacks()
        if deal.result is not None:
            self._after_action()

    def _deal_source(self, number: int) -> CardSource:
        """The card source of deal ``number`` (:meth:`start_deal`)."""
        if self._pending_source is not None:
            return self._pending_source
        if self.seed is not None:
            return SeededSource(derive_seed(self.seed, "deal", number))
        return SECURE

    def cards_due(self) -> CardsDue | None:
        """The cards the deal under way waits for (a deal whose source is
        :data:`~italian_poker.engine.card_source.CHANCE`), or ``None``."""
        deal = self.deal
        return deal.cards_due() if deal is not None and self.phase is _IN_DEAL else None

    def deal_cards(self, cards: Sequence[Card]) -> None:
        """Deal ``cards``, the cards due (:meth:`cards_due`), as :meth:`Deal.deal_cards` does;
        raises :class:`~italian_poker.engine.errors.CardsNotAvailableError`, nothing changed,
        if they are not the cards due."""
        deal = self.deal
        if deal is None or self.phase is not _IN_DEAL:
            raise CardsNotAvailableError("no cards are due now: no deal is under way")
        deal.deal_cards(cards)
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

    @property
    def make_up_due(self) -> int | None:
        """During the 5.5 questions, what the player asked must pay to play (even when a
        stacked deck leaves sitting out the only answer); None otherwise."""
        if self.phase is not _MAKE_UP:
            return None
        return self._carry.makeups[self.seat(self._makeup_queue[0]).player_id]

    def legal_actions(self) -> tuple[LegalAction, ...]:
        """What the player to act may do."""
        phase = self.phase
        deal = self.deal
        if phase is _IN_DEAL and deal is not None:
            return deal.legal_actions()
        if phase is _MAKE_UP:
            amount = self._carry.makeups[self.seat(self._makeup_queue[0]).player_id]
            offered: list[LegalAction] = []
            if self._answer_fits(make_up=True):
                offered.append(LegalAction(ActionKind.MAKE_UP, amount, amount))
            if self._answer_fits(make_up=False):
                offered.append(LegalAction(ActionKind.SIT_OUT))
            return tuple(offered)
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
        name, *queue = self._makeup_queue
        joining, once = dict(self._joining), set(self._sitting_out_once)
        if action.kind is ActionKind.MAKE_UP:
            joining[name] = self._carry.makeups[self.seat(name).player_id]
        else:
            once.add(name)
        if queue:
            self._joining, self._sitting_out_once, self._makeup_queue = joining, once, queue
        else:
            self._begin_deal(joining, once)  # raises before any change if it cannot begin

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
            self._check_answer_fits(make_up=True)
            return Action(ActionKind.MAKE_UP, amount)
        if action.kind is ActionKind.SIT_OUT:
            if action.amount is not None:
                raise InvalidAmountError("sit-out takes no amount")
            self._check_answer_fits(make_up=False)
            return action
        raise ActionNotAvailableError(
            f"after a parol you first decide: make up {count(amount, 'chip')} to play (5.5), "
            "or sit out this deal"
        )

    def _answer_fits(self, *, make_up: bool) -> bool:
        """Whether the 5.5 answer of the player asked (make up, or sit out) leaves a number
        of players the stacked deck can serve (always, with no stacked deck)."""
        playing = len(self._playing(self._sitting_out_once)) - (0 if make_up else 1)
        unanswered = len(self._makeup_queue) - 1
        return self._deck_serves(self._pending_deck, playing - unanswered, playing)

    def _check_answer_fits(self, *, make_up: bool) -> None:
        """Raise :class:`ActionNotAvailableError` unless :meth:`_answer_fits`."""
        if not self._answer_fits(make_up=make_up):
            other = "sit out" if make_up else "make up"
            players = _deck_players(self._pending_deck or ())
            raise ActionNotAvailableError(
                f"the deck stacked for this deal is for {players} players, which this answer "
                f"cannot leave (5.5): {other}, or give the deck for the players it leaves"
            )

    def view(self, player: str) -> SeatView:
        """What ``player`` may know about the current (or last) deal. A player asked the 5.5
        make-up question sees it as their turn: the legal actions are ``MAKE_UP`` (with the
        amount) and ``SIT_OUT``."""
        deal = self.deal
        try:
            seat = self.deal_seats.index(player)
        except ValueError:
            seat = -1
        if deal is None or seat < 0:
            raise SeatError(f"{player!r} is not in the current deal")
        view = observe(deal, seat)
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
        limit = self.rules.chips_to_be_dealt_in
        dealer = None
        for seat in self.seats:
            if seat.name == self.dealer_name:
                dealer = seat
                break
        if (
            result.outcome is _PASSED
            and self.rules.all_pass_same_dealer
            and dealer is not None
            and self._can_be_dealt(dealer)
        ):
            button: str | None = self.dealer_name  # 003: a deal not played is dealt again
        else:
            button = self._seat_after(
                self.dealer_name, lambda s: not s.sitting_out and s.stack >= limit
            ) or self._seat_after(self.dealer_name, lambda s: s.stack >= limit)
        busted = [s for s in self.seats if s.stack < limit]
        if busted:
            self.departed.extend((s.name, s.stack) for s in busted)
            self.seats = [s for s in self.seats if s.stack >= limit]
        if button is not None:
            self.dealer_name = button
        self.phase = _BETWEEN_DEALS
        self._update_over()

    def _next_carry(self, deal: Deal) -> _Carry:
        result = deal.result
        assert result is not None
        rules = self.rules
        carry = self._carry
        if result.outcome is _WON:
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
            return _Carry(
                result.carried, rules.parol_min_pair, True, makeups, stake, paid, unopened=True
            )
        # Every player passed (3.5).
        self.passed_in_a_row += 1
        if carry.after_parol:
            # Decided: the 5.5 conditions hold until the parol pot is opened; its questions are
            # asked on the first deal after the parol only.
            for player in ids:
                paid[player] += ante
            return _Carry(
                result.carried, carry.min_pair, True, {}, carry.stake + ante, paid, unopened=True
            )
        if rules.all_pass is AllPassPolicy.ESCALATE:
            pair, two_pair = next_step(rules, self.min_pair, two_pair=carry.two_pair)
            return _Carry(result.carried, pair, two_pair=two_pair, unopened=True)
        if rules.all_pass is AllPassPolicy.RETURN_BETS:
            # 003: the next deal opens only with kings or better.
            return _Carry(result.carried, rules.parol_min_pair, unopened=True)
        return _Carry(result.carried, unopened=True)

    @property
    def last_result(self) -> DealResult | None:
        """The result of the last completed deal."""
        return self.completed[-1].result if self.completed else None


def next_step(rules: Rules, current: Rank, *, two_pair: bool) -> tuple[Rank, bool]:
    """3.5: the step of the ``escalation`` ladder after a passed deal at ``current`` (a pair,
    or two pair when ``two_pair``), as ``(pair, two_pair)``. The pairs climb one rank from
    ``min_pair`` to kings (``j-q-k``, 000) or aces (``j-q-k-a``); ``j-q-k-two-pair`` adds two
    pair after kings; past the top the ladder returns to ``min_pair`` (000: "after a third
    passed deal it returns to jacks"). A ``min_pair`` above the top pair stays."""
    top = Rank.ACE if rules.escalation is Escalation.ACES else Rank.KING
    if two_pair:
        return rules.min_pair, False
    if current < top:
        return Rank(current + 1), False
    if rules.escalation is Escalation.TWO_PAIR and current == top:
        return current, True
    return rules.min_pair, False


def _seat_entry(entry: object) -> tuple[str, int, int | None]:
    """A seat given to :class:`Match`: ``(name, stack)`` or ``(name, stack, player_id)``."""
    if not isinstance(entry, tuple | list) or not 2 <= len(entry) <= 3:
        raise SeatError(f"a seat is (name, stack) or (name, stack, player id), not {entry!r}")
    return entry[0], entry[1], entry[2] if len(entry) == 3 else None


def _cards(values: object, what: str) -> tuple[Card, ...]:
    """``values`` as a tuple of cards, or :class:`DealStartError` naming ``what`` they are."""
    if not isinstance(values, tuple | list) or any(type(c) is not Card for c in values):
        raise DealStartError(f"{what} is a sequence of Card, not {values!r}")
    return tuple(values)


def _stacked_deck(deck: object) -> tuple[Card, ...] | None:
    """A stacked deck given to a match, checked to be cards (None: a shuffle)."""
    return None if deck is None else _cards(deck, "a stacked deck")


def _deck_players(deck: Sequence[Card]) -> int:
    """The number of players whose whole stripped deck ``deck`` is, each card once (section
    1: four cards a rank, ranks from ``11 - players``); 0 if it is nobody's."""
    players = len(deck) // 4 - 4
    if len(deck) % 4 or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        return 0
    if sorted(c.index for c in deck) != [c.index for c in stripped_deck(players).cards]:
        return 0
    return players
