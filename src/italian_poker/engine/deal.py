"""One deal of Italian Poker as an explicit state machine.

A :class:`Deal` goes through the phases of :class:`Phase`: blinds (Art. 2), the deal and the
opening (Art. 3), the first betting round, the draw (Art. 4), the second betting round
(Art. 5), the showdown (Art. 6-7) and the award. ``actor`` is the seat to act,
``legal_actions()`` lists what it may do and :meth:`Deal.apply` applies one action. An illegal
action raises a subclass of :class:`~italian_poker.engine.errors.IllegalActionError` and leaves
the deal exactly as it was: every check happens before anything changes.

Every card comes through one step, chance: the deal says what is due (``cards_due()``, a
:class:`~italian_poker.engine.card_source.CardsDue`) and takes the cards from its card source
(engine/card_source.py), or, with :data:`~italian_poker.engine.card_source.CHANCE`, waits for
:meth:`Deal.deal_cards` (``actor`` is ``None`` meanwhile).

The deal holds what belongs to the whole table (seats, stacks, the chips in the pot, the hands,
the stock and the muck, the actions taken) and hands over, phase by phase, to the objects that
hold the rest of the rules: a :class:`~italian_poker.engine.betting_round.BettingRound` for the
blinds, the opening and each betting round, the :class:`~italian_poker.engine.draw.Draw` and
the :class:`~italian_poker.engine.showdown.Showdown`, which also awards the pots.

Seats are numbered 0..n-1 in table order; "the next player" / "the dealer's left" follow
``Rules.direction``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache, lru_cache
from typing import Any, ClassVar, NamedTuple, cast

from italian_poker.engine.actions import (
    AMOUNT_KINDS,
    Action,
    ActionKind,
    LegalAction,
    check_action,
    check_seat,
)
from italian_poker.engine.betting_round import BettingRound
from italian_poker.engine.card_source import SECURE, CardsDue, CardSource, Why
from italian_poker.engine.cards import Card, Rank, format_cards
from italian_poker.engine.deck import HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, stripped_deck
from italian_poker.engine.draw import MAX_DRAW, Draw
from italian_poker.engine.errors import (
    ActionNotAvailableError,
    CardsNotAvailableError,
    DealOverError,
    DealStartError,
    IllegalActionError,
    InvalidAmountError,
    NotYourTurnError,
    OpeningRequirementError,
    SeatError,
)
from italian_poker.engine.hand_rank import HandRank
from italian_poker.engine.opening import OpeningRequirement, opening_groups, opening_requirement
from italian_poker.engine.operations import (
    AntesPaid,
    AntesReturned,
    CardsDrawn,
    FourthCardDealt,
    HandsDealt,
    Reshuffled,
)
from italian_poker.engine.rules import AllPassPolicy, Direction, Rules, SecondRoundStarter
from italian_poker.engine.showdown import PotAward, Showdown, award_pots, opening_proof
from italian_poker.engine.wording import count

__all__ = [
    "MAX_DRAW",
    "ActionRecord",
    "Deal",
    "DealResult",
    "DealStart",
    "Operation",
    "Outcome",
    "Phase",
    "PotAward",
]


class Phase(StrEnum):
    """The phases of a deal, in order."""

    BLINDS = "blinds"
    OPENING = "opening"
    FIRST_ROUND = "first-round"
    DRAW = "draw"
    SECOND_ROUND = "second-round"
    SHOWDOWN = "showdown"
    COMPLETE = "complete"


# The phases under module-level names for the code that runs on every action: looking up an
# enum member as a class attribute costs about 0.1 µs on Python 3.11.
_BLINDS, _OPENING, _FIRST_ROUND = Phase.BLINDS, Phase.OPENING, Phase.FIRST_ROUND
_DRAW, _SECOND_ROUND, _SHOWDOWN, _COMPLETE = (
    Phase.DRAW,
    Phase.SECOND_ROUND,
    Phase.SHOWDOWN,
    Phase.COMPLETE,
)
_KIND_DRAW = ActionKind.DRAW
_WHY_DEAL = Why.DEAL
_CLOCKWISE = Direction.CLOCKWISE
_LAST_RAISER, _FIRST_ROUND_STARTER = (
    SecondRoundStarter.LAST_RAISER,
    SecondRoundStarter.FIRST_ROUND_STARTER,
)


@cache
def _seat_order(seat: int, players: int, step: int) -> tuple[int, ...]:
    """All ``players`` seats in the direction ``step`` (1 or -1), starting with ``seat``."""
    return tuple((seat + k * step) % players for k in range(players))


@cache
def _deck_bits(players: int) -> int:
    """The cards of the deck for ``players`` players, as a set of bits (``Card.bit``)."""
    bits = 0
    for card in stripped_deck(players).cards:
        bits |= card.bit
    return bits


@lru_cache(maxsize=4096, typed=True)
def _filled_in(kind: ActionKind, amount: int | None) -> Action:
    """``kind`` for exactly ``amount`` chips, as recorded; shared, as actions are immutable."""
    return Action(kind, amount)


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
    in this deal; ``two_pair``: no single pair opens it (the ``j-q-k-two-pair`` ladder, 3.5);
    ``four_straight_flush``: 3.3(b) opens it, if the rules allow 3.3(b) (false after a passed
    deal or a parol under ``four_straight_flush_always=False``).
    ``blinds_allowed`` is false on the deal after a parol (5.5). The cards are
    not part of it: they come from the deal's card source (engine/card_source.py).
    ``player_ids`` name the person in each seat for good (a match's ``Seat.player_id``;
    default ``0..n-1``).
    """

    rules: Rules
    names: tuple[str, ...]
    stacks: tuple[int, ...]
    dealer: int = 0
    carried: int = 0
    min_pair: Rank | None = None
    blinds_allowed: bool = True
    makeups: tuple[int, ...] = ()
    player_ids: tuple[int, ...] = ()
    two_pair: bool = False
    four_straight_flush: bool = True

    @property
    def requirement(self) -> OpeningRequirement:
        """What opens this deal (3.3, 3.5, 5.5)."""
        rules = self.rules
        return opening_requirement(
            self.min_pair or rules.min_pair,
            rules.four_straight_flush_opens and self.four_straight_flush,
            self.two_pair,
        )

    def __post_init__(self) -> None:
        if not self.player_ids:
            # Without ids, the seats themselves (0..n-1) name the players.
            object.__setattr__(self, "player_ids", tuple(range(len(self.names))))


class ActionRecord(NamedTuple):
    """An applied action, with amounts filled in (a call records the new round total)."""

    seat: int
    action: Action
    phase: Phase


@lru_cache(maxsize=4096, typed=True)
def _record(
    seat: int, kind: ActionKind, amount: int | None, split: bool, phase: Phase
) -> ActionRecord:
    """The record of an action without cards, shared: records are immutable, and a match keeps
    every deal's records, which the garbage collector walks over again and again."""
    return ActionRecord(seat, Action(kind, amount, (), split), phase)


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


_NO_CARDS: tuple[Card, ...] = ()


def _as_offered(action: Action, offered: tuple[LegalAction, ...]) -> Action | None:
    """``action`` (an :class:`Action` with an amount, without cards or split) when it is one
    of the ``offered`` actions exactly as offered: the fixed amount of a call or blind, or an
    amount within the range of an open, bet or raise. ``None`` for anything else, which
    :meth:`Deal.verify` checks in full: a wrong amount, a kind not offered, a malformed
    action."""
    kind = action.kind
    for legal in offered:
        if legal.kind is kind:
            break
    else:
        return None
    amount = action.amount
    low = legal.min_amount
    if type(amount) is not int or low is None:
        return None
    if kind in AMOUNT_KINDS:
        high = legal.max_amount
        assert high is not None
        return action if low <= amount <= high else None
    return action if amount == low else None


def _chips(value: object) -> bool:
    """Whether ``value`` is a whole number of chips, 0 or more (an ``int``, not a bool)."""
    return type(value) is int and value >= 0


# Each check below is one loop, not a generator under all() or a function mapped over the
# values: every deal is checked as it begins.


def _all_chips(values: tuple[object, ...]) -> bool:
    """Whether every one of ``values`` is a whole number of chips, 0 or more."""
    for value in values:  # noqa: SIM110 (a loop: no generator per deal)
        if type(value) is not int or value < 0:
            return False
    return True


def _all_names(values: tuple[object, ...]) -> bool:
    """Whether every one of ``values`` is a player name (a ``str`` not all blanks)."""
    for value in values:  # noqa: SIM110 (a loop: no generator per deal)
        if type(value) is not str or not value.strip():
            return False
    return True


def check_start(start: DealStart) -> None:
    """Raise :class:`DealStartError` unless every value of ``start`` is one a deal can begin
    from."""
    if not isinstance(start.rules, Rules):
        raise DealStartError(f"rules must be a Rules, not {start.rules!r}")
    names = start.names
    if type(names) is not tuple or not _all_names(names):
        raise DealStartError(f"names must be a tuple of player names, not {names!r}")
    n = len(names)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise DealStartError(f"a deal needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got {n}")
    if len(set(names)) != n:
        raise DealStartError("player names must be different")
    stacks = start.stacks
    if type(stacks) is not tuple or len(stacks) != n or not _all_chips(stacks):
        raise DealStartError(
            f"give one stack per player, each a whole number of chips (0 or more): {stacks!r}"
        )
    if type(start.dealer) is not int or not 0 <= start.dealer < n:
        raise DealStartError(f"the dealer must be a seat from 0 to {n - 1}, not {start.dealer!r}")
    if not _chips(start.carried):
        raise DealStartError(
            f"chips carried must be a whole number of chips (0 or more), not {start.carried!r}"
        )
    makeups = start.makeups
    if type(makeups) is not tuple or (makeups and (len(makeups) != n or not _all_chips(makeups))):
        raise DealStartError(
            f"give one make-up contribution per player, each a whole number of chips "
            f"(0 or more): {makeups!r}"
        )
    if start.min_pair is not None and (
        type(start.min_pair) is not Rank or start.min_pair < Rank.JACK
    ):
        raise DealStartError(f"the pair to open must be a Rank from J to A, not {start.min_pair!r}")
    if (
        type(start.blinds_allowed) is not bool
        or type(start.two_pair) is not bool
        or type(start.four_straight_flush) is not bool
    ):
        for flag in ("blinds_allowed", "two_pair", "four_straight_flush"):
            if type(getattr(start, flag)) is not bool:
                raise DealStartError(f"{flag} is True or False, not {getattr(start, flag)!r}")
    ids = start.player_ids
    if type(ids) is not tuple or len(ids) != n or not _all_chips(ids) or len(set(ids)) != n:
        raise DealStartError(f"give one different player id (0 or more) per player: {ids!r}")


Operation = (
    AntesPaid
    | HandsDealt
    | ActionRecord
    | CardsDrawn
    | FourthCardDealt
    | Reshuffled
    | AntesReturned
    | PotAward
    | DealResult
)
"""One entry of ``Deal.operations``: every change a deal makes (engine/operations.py)."""


class Deal:
    """The state of one deal. See the module docstring for the protocol."""

    # Slotted: the attributes of a deal are read on every action and view, and a slot is read
    # in one step (a deal has more attributes than CPython's shared instance dicts hold).
    __slots__ = (
        "__weakref__",
        "_dealt_cards",
        "_due",
        "_got",
        "_legal",
        "_owed",
        "_seen",
        "_stock",
        "actions",
        "actor",
        "blinders",
        "committed",
        "dead",
        "dealer",
        "deck",
        "draw",
        "first_round_folded",
        "first_round_put",
        "first_round_starter",
        "folded",
        "hands",
        "last_aggressor",
        "muck",
        "n",
        "opener",
        "opening_groups",
        "opening_hand",
        "operations",
        "phase",
        "requirement",
        "result",
        "round",
        "rules",
        "showdown",
        "source",
        "stacks",
        "start",
        "step",
    )

    def __init__(self, start: DealStart, source: CardSource | None = None) -> None:
        """The deal ``start`` describes, its cards taken from ``source`` (by default the
        operating system's secure random source; :data:`~italian_poker.engine.card_source.
        CHANCE` to give them with :meth:`deal_cards`)."""
        check_start(start)
        if source is not None and not callable(getattr(source, "take", None)):
            raise DealStartError(f"a deal's cards come from a card source, not {source!r}")
        rules = start.rules
        n = len(start.names)
        makeups = start.makeups or (0,) * n
        self.start = start
        self.rules = rules
        self.n = n
        self.dealer = start.dealer
        self.step = 1 if rules.direction is _CLOCKWISE else -1
        self.deck = stripped_deck(n)
        self.requirement = start.requirement
        self.source: CardSource = SECURE if source is None else source
        self._due: CardsDue | None = None
        self._owed: list[tuple[Why, int, int]] = []
        """Cards owed at the draw, in the order served: ``(why, seat, count)`` (4.1, 4.2)."""
        self._got: tuple[Card, ...] = ()
        """The cards served so far to the first of ``_owed`` (a reshuffle may split them)."""
        self._stock: list[Card] | None = None
        self._dealt_cards: tuple[Card, ...] = ()
        """The cards of the deal (3.1): the stock is the rest, made when first read
        (:attr:`stock`)."""
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.muck: list[tuple[int, Card]] = []
        """Discards and folded hands, with who threw them."""
        self.stacks = list(start.stacks)
        self.committed = [0] * n
        self.folded = [False] * n
        self.dead = start.carried
        self.actions: list[ActionRecord] = []
        self.operations: list[Operation] = []
        """Every change, in order (engine/operations.py)."""
        self.phase = _BLINDS
        self.actor: int | None = None
        self.result: DealResult | None = None
        # Blinds (Art. 2).
        self.blinders: list[int] = []
        # Opening and first round (Art. 3).
        self.opener: int | None = None
        self.opening_hand: tuple[Card, ...] = ()
        self.opening_groups: tuple[tuple[Card, ...], ...] = ()
        """4.4: the groups of the opener's cards that show the opening by themselves
        (:func:`~italian_poker.engine.opening.opening_groups`)."""
        self.first_round_starter: int | None = None
        self.first_round_put = [0] * n
        self.first_round_folded = [False] * n
        self.last_aggressor: int | None = None
        # The parts of the deal, each with its own rules.
        self.round = BettingRound.begin(rules, n, second=False)
        """The betting round under way (the last one between rounds)."""
        self.draw = Draw.prepare(n)
        self.showdown: Showdown | None = None
        self._legal: tuple[LegalAction, ...] | None = None
        self._seen: Any = None
        """The observer's record of the actions as seen (engine/observer.py), made on the
        first view: not part of the deal's state (:meth:`__getstate__`)."""

        stacks, committed = self.stacks, self.committed
        ante, dealer_ante = rules.ante, rules.dealer_ante
        for i in range(n):
            extra = dealer_ante if i == self.dealer else 0
            need = ante + extra + makeups[i]
            if stacks[i] < need:
                raise SeatError(
                    f"{start.names[i]} has {count(stacks[i], 'chip')} "
                    f"but must put {need} in the pot"
                )
            stacks[i] -= need
            committed[i] += ante
            # The dealer's extra ante (003) and make-ups (5.5) are dead chips of the main pot.
            self.dead += extra + makeups[i]
        antes = [ante] * n
        antes[self.dealer] += dealer_ante
        self.operations.append(AntesPaid(tuple(antes), makeups))
        if start.blinds_allowed and rules.blind_allowed:
            self._offer_blind(self.next_seat(self.dealer))
        else:
            self._deal_cards()

    def __getstate__(self) -> tuple[None, dict[str, object]]:
        """The deal's state, for copies and pickles: every slot but the observer's record,
        which a copy makes afresh on its first view."""
        _, slots = cast(tuple[None, dict[str, object]], object.__getstate__(self))
        slots["_seen"] = None
        return None, slots

    # --- seats and order ------------------------------------------------------------------

    def next_seat(self, seat: int) -> int:
        """The next seat in the direction of play (the player "to the left")."""
        return (seat + self.step) % self.n

    def order_from(self, seat: int) -> list[int]:
        """All seats in the direction of play, starting with ``seat``."""
        return list(_seat_order(seat, self.n, self.step))

    def seats_from(self, seat: int) -> tuple[int, ...]:
        """:meth:`order_from` as a shared tuple, for reading only."""
        return _seat_order(seat, self.n, self.step)

    def in_hand(self, seat: int) -> bool:
        """Whether ``seat`` has not folded."""
        return not self.folded[seat]

    def can_act(self, seat: int) -> bool:
        """Whether ``seat`` is in the hand with chips behind."""
        return not self.folded[seat] and self.stacks[seat] > 0

    def _next_of(self, seats: set[int], seat: int) -> int:
        """The first of ``seats`` after ``seat`` in the direction of play."""
        n, step = self.n, self.step
        s = (seat + step) % n
        while s not in seats:
            s = (s + step) % n
        return s

    def _actors(self) -> list[int]:
        """The seats in the hand with chips behind."""
        folded, stacks = self.folded, self.stacks
        return [s for s in range(self.n) if not folded[s] and stacks[s] > 0]

    @property
    def stock(self) -> list[Card]:
        """The cards that may still be dealt: not dealt yet (in deck order), then the
        discards reshuffled in (4.3)."""
        stock = self._stock
        if stock is None:
            dealt = 0
            for card in self._dealt_cards:
                dealt |= card.bit
            stock = self._stock = [c for c in self.deck.cards if not c.bit & dealt]
        return stock

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
        return self.phase is _COMPLETE

    # --- what the parts hold, read here for convenience -------------------------------------

    @property
    def round_bet(self) -> list[int]:
        """Each seat's bet in the betting round under way."""
        return self.round.bets

    @property
    def current_bet(self) -> int:
        """The bet to match in the betting round under way."""
        return self.round.current_bet

    @property
    def checked(self) -> bool:
        """5.2(b): someone checked in the second round."""
        return self.round.checked

    @property
    def parols(self) -> set[int]:
        """5.2(c): the seats that said parol in the second round."""
        return self.round.parols

    @property
    def drawn(self) -> list[int | None]:
        """How many cards each seat changed (``None`` before it drew)."""
        return self.draw.drawn

    @property
    def discards(self) -> list[tuple[Card, ...]]:
        """The cards each seat changed."""
        return self.draw.discards

    @property
    def fourth_due(self) -> list[int]:
        """4.2: the seats owed the fourth card of a draw of four."""
        return self.draw.fourth_due

    @property
    def kept_apart(self) -> tuple[Card, ...]:
        """4.4: the opener's discards kept apart for the proof after a split."""
        return self.draw.kept_apart

    @property
    def reshuffles(self) -> list[tuple[Card, ...]]:
        """4.3: the discards of each reshuffle into the stock, in the order thrown."""
        return self.draw.reshuffles

    @property
    def showdown_order(self) -> list[int]:
        """The order in which hands are shown (empty before the showdown)."""
        return self.showdown.order if self.showdown is not None else []

    @property
    def shown(self) -> dict[int, HandRank]:
        """The hands shown so far at the showdown, in the order shown."""
        return self.showdown.shown if self.showdown is not None else {}

    @property
    def mucked(self) -> set[int]:
        """The seats that conceded at the showdown without showing (002)."""
        return self.showdown.mucked if self.showdown is not None else set()

    # --- chance: the cards (3.1, 4.1-4.3) ----------------------------------------------------

    def cards_due(self) -> CardsDue | None:
        """The cards the deal waits for (``actor`` is ``None`` meanwhile), or ``None``."""
        return self._due

    def verify_cards(self, cards: Sequence[Card]) -> tuple[Card, ...]:
        """Check that ``cards`` are cards due now (as many as due, each once, each a
        candidate) without dealing them; raise :class:`CardsNotAvailableError` otherwise."""
        due = self._due
        if due is None:
            raise CardsNotAvailableError("no cards are due now")
        if not isinstance(cards, tuple | list):
            raise CardsNotAvailableError(f"give the cards as a sequence of Card, not {cards!r}")
        chosen = 0  # the cards as a set of bits: a Card's hash is slow to work out
        for card in cards:
            if type(card) is not Card:
                raise CardsNotAvailableError(f"give the cards as Card, not {card!r}")
            chosen |= card.bit
        count = due.number
        if len(cards) != count or chosen.bit_count() != count:
            raise CardsNotAvailableError(
                f"{count} different cards are due ({due.why.value}), not {len(cards)}"
            )
        if due.why is _WHY_DEAL:
            allowed = _deck_bits(self.n)
        else:
            allowed = 0
            for card in due.candidates:
                allowed |= card.bit
        if chosen & ~allowed:
            wrong = [c for c in cards if not c.bit & allowed]
            raise CardsNotAvailableError(
                f"{format_cards(wrong)} may not be dealt now ({due.why.value})"
            )
        return cards if type(cards) is tuple else tuple(cards)

    def can_deal(self, cards: Sequence[Card]) -> bool:
        """Whether :meth:`deal_cards` would accept ``cards`` now; the deal is never changed."""
        try:
            self.verify_cards(cards)
        except CardsNotAvailableError:
            return False
        return True

    def deal_cards(self, cards: Sequence[Card]) -> None:
        """Deal ``cards``, the cards due (:meth:`cards_due`), and go on: the next cards due
        come from the card source, or the deal waits for them again. Raises
        :class:`CardsNotAvailableError`, the deal unchanged, if they are not the cards due."""
        self._take(self.verify_cards(cards))
        self._resolve()

    def _resolve(self) -> None:
        """Take the cards due from the card source until none are due or it leaves them to
        the caller (:meth:`deal_cards`). The source's choice is checked as given cards are,
        but the five-card deal (3.1) of a source that deals it from the candidates by
        construction (``deals_from_candidates``: the engine's secure and seeded sources)."""
        source = self.source
        while (due := self._due) is not None:
            cards = source.take(due)
            if cards is None:
                return
            if due.why is not _WHY_DEAL or not getattr(source, "deals_from_candidates", False):
                cards = self.verify_cards(cards)
            self._take(cards)

    def _take(self, cards: tuple[Card, ...]) -> None:
        """Deal ``cards``, checked to be the cards due, and go on to what follows."""
        due = self._due
        assert due is not None
        self._due = None
        self._legal = None  # asked while the cards were due: none then
        if due.why is _WHY_DEAL:
            self._dealt(due.seats, cards)
            return
        seat = due.seats[0]
        self.hands[seat] += cards
        stock = self.stock
        for card in cards:
            stock.remove(card)
        why, _, count = self._owed[0]
        got = self._got + cards
        if len(got) < count:
            self._got = got  # the rest after a reshuffle (4.3)
        else:
            self._got = ()
            del self._owed[0]
            self.draw.served(self, why, seat, got)
        self._serve_owed()

    def _serve_owed(self) -> None:
        """The next cards owed at the draw, or, when all are served, the next drawer or the
        second round (Art. 5)."""
        owed = self._owed
        if owed:
            why, seat, count = owed[0]
            self.actor = None
            self._due = self.draw.due(self, why, seat, count - len(self._got))
            return
        turns = self.draw.turns
        if turns:
            self.actor = turns[0]
        else:
            self._start_second_round()

    # --- blinds (Art. 2) and the deal (3.1) -------------------------------------------------

    def _offer_blind(self, seat: int) -> None:
        if self.round.blind_offered(self, seat):
            self.phase = _BLINDS
            self.actor = seat
        else:
            self._deal_cards()

    def _deal_cards(self) -> None:
        """3.1: five cards each, one at a time, starting at the dealer's left: due now."""
        self.actor = None
        n = self.n
        self._due = CardsDue(
            Why.DEAL, self.seats_from(self.next_seat(self.dealer)), HAND_SIZE * n, self.deck.cards
        )
        self._resolve()

    def _dealt(self, order: tuple[int, ...], cards: tuple[Card, ...]) -> None:
        """3.1: ``cards`` dealt one at a time to the seats in ``order``; then the first
        round."""
        n = self.n
        hands = self.hands
        for i, seat in enumerate(order):
            hands[seat].extend(cards[i::n])
        self._stock = None
        self._dealt_cards = cards
        self.operations.append(HandsDealt(tuple([tuple(hand) for hand in hands])))
        if self.blinders:
            # 2.4: the round starts left of the last blind bettor; calls only until they act.
            last = self.blinders[-1]
            self.phase = _FIRST_ROUND
            self.round.after_blinds(self, last)
            self.first_round_starter = self.next_seat(last)
            if self.round.pending:
                self.actor = self._next_of(self.round.pending, last)
            else:
                self._end_round()
                self._start_draw()
        else:
            self.phase = _OPENING
            self.round.pending = set(range(n))
            self.first_round_starter = self.next_seat(self.dealer)
            self.actor = self.first_round_starter

    # --- legal actions --------------------------------------------------------------------

    def legal_actions(self) -> tuple[LegalAction, ...]:
        """What the seat to act may do now (empty once the deal is over); worked out once per
        turn by the part of the deal under way."""
        legal = self._legal
        if legal is not None:
            return legal
        seat = self.actor
        phase = self.phase
        if seat is None:
            legal = ()
        elif phase is _DRAW:
            legal = self.draw.choices(self, seat)
        elif phase is _SHOWDOWN:
            assert self.showdown is not None
            legal = self.showdown.choices(self, seat)
        elif phase is _OPENING:
            legal = self.round.opening_choices(self, seat)
        elif phase is _BLINDS:
            legal = self.round.blind_choices(self)
        else:
            legal = self.round.choices(self, seat)
        self._legal = legal
        return legal

    # --- applying actions -----------------------------------------------------------------

    def verify(self, action: Action, seat: int | None = None) -> Action:
        """Check ``action`` for the seat to act (``seat``, if given, must be that seat) without
        applying it: return it as :meth:`apply` would record it (the fixed amount of a call or
        blind filled in), or raise the
        :class:`~italian_poker.engine.errors.IllegalActionError` subclass :meth:`apply` would
        raise. The deal is never changed."""
        if seat is not None:
            check_seat(seat, self.n)
        actor = self.actor
        if actor is None or self.phase is _COMPLETE:
            if self._due is not None:
                raise NotYourTurnError(
                    f"cards are due ({self._due.why.value}): nobody acts until they are dealt"
                )
            raise DealOverError("the deal is over: no more actions")
        if seat is not None and seat != actor:
            raise NotYourTurnError(
                f"it is {self.names[actor]}'s turn, not {self._seat_name(seat)}'s"
            )
        if type(action) is not Action:
            check_action(action)
        kind = action.kind
        for legal in self._legal or self.legal_actions():
            if legal.kind is kind:
                break
        else:
            check_action(action)
            raise self._unavailable(kind)
        amount = action.amount
        if amount is not None and type(amount) is not int:
            check_action(action)
        if kind is _KIND_DRAW:
            self.draw.check(self, actor, action, legal)
        elif amount != legal.min_amount or action.cards != () or action.split is not False:
            # Anything but a plain action as offered: check it, or fill in the amount.
            action = self._checked(action, legal)
        elif kind in AMOUNT_KINDS:
            self._checked(action, legal)
        return action

    def can(self, action: Action, seat: int | None = None) -> bool:
        """Whether :meth:`apply` would accept ``action`` now (the same checks as
        :meth:`verify`); the deal is never changed."""
        try:
            self.verify(action, seat)
        except IllegalActionError:
            return False
        return True

    def apply(self, action: Action, seat: int | None = None) -> ActionRecord:
        """Apply ``action`` for the seat to act (``seat``, if given, must be that seat).

        Raises an :class:`~italian_poker.engine.errors.IllegalActionError` subclass, leaving the
        deal unchanged, when the action is not allowed now (:meth:`verify` makes the checks;
        :meth:`can` asks without raising).
        """
        offered = self._legal
        if (
            offered
            and seat is None
            and type(action) is Action
            and action.cards is _NO_CARDS
            and action.split is False
        ):
            # An action exactly as offered (of a kind offered, without an amount or with one
            # allowed) needs no second check; anything else is verified in full.
            applied: Action | None = action
            if action.amount is None:
                kind = action.kind
                for legal in offered:
                    if legal.kind is kind:
                        low = legal.min_amount
                        if low is not None:  # a call or blind: its amount filled in
                            applied = None if kind in AMOUNT_KINDS else _filled_in(kind, low)
                        break
                else:
                    applied = None  # not offered: verify says why
            else:
                applied = _as_offered(action, offered)
            action = applied or self.verify(action)
        else:
            action = self.verify(action, seat)
        actor = self.actor
        assert actor is not None
        if action.cards:
            record = ActionRecord(actor, action, self.phase)
        else:
            record = _record(actor, action.kind, action.amount, action.split, self.phase)
        self._legal = None
        self.actions.append(record)
        self.operations.append(record)
        self._HANDLERS[action.kind](self, actor, action)
        return record

    def _seat_name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < self.n else f"seat {seat}"

    def _unavailable(self, kind: ActionKind) -> IllegalActionError:
        allowed = ", ".join(str(la) for la in self.legal_actions())
        if kind is ActionKind.OPEN and self.phase is _OPENING:
            return OpeningRequirementError(
                f"you cannot open: you need {self.requirement.describe()}; you may: {allowed}"
            )
        if kind is ActionKind.PAROL and self.phase is _SECOND_ROUND and self.round.checked:
            return ActionNotAvailableError(
                f"parol is no longer available once a player has checked (5.2(b)); "
                f"you may: {allowed}"
            )
        return ActionNotAvailableError(
            f"{kind.value} is not allowed now ({self.phase.value}); you may: {allowed}"
        )

    def _checked(self, action: Action, legal: LegalAction) -> Action:
        """``action`` (of the kind of ``legal``, not a draw) as recorded, with the fixed amount
        of a call or blind filled in; raises if its cards or amount are not allowed."""
        kind = action.kind
        if type(action.cards) is not tuple or type(action.split) is not bool:
            check_action(action)
        if action.cards or action.split:
            raise ActionNotAvailableError(f"{kind.value} takes no cards")
        amount = action.amount
        if kind in AMOUNT_KINDS:
            low, high = legal.min_amount, legal.max_amount
            assert low is not None and high is not None
            if amount is None or isinstance(amount, bool) or not isinstance(amount, int):
                raise InvalidAmountError(
                    f"say how much: {kind.value} to a total of {low} to {count(high, 'chip')}"
                )
            if not low <= amount <= high:
                raise InvalidAmountError(
                    f"{kind.value} must make your bet {low} to {count(high, 'chip')} "
                    f"in this round, not {amount}"
                )
            return action
        if amount != legal.min_amount:
            if amount is not None:
                raise InvalidAmountError(
                    f"{kind.value} is for exactly {count(legal.min_amount, 'chip')}, not {amount}"
                    if legal.min_amount is not None
                    else f"{kind.value} takes no amount"
                )
            return _filled_in(kind, legal.min_amount)
        return action

    # --- blinds, opening and betting (Art. 2, 3, 5) ----------------------------------------

    def _on_blind(self, seat: int, action: Action) -> None:
        assert action.amount is not None
        self.round.put(self, seat, action.amount)
        self.blinders.append(seat)
        self.last_aggressor = seat
        self._offer_blind(self.next_seat(seat))

    def _on_decline(self, seat: int, action: Action) -> None:
        self._deal_cards()

    def _on_pass(self, seat: int, action: Action) -> None:
        pending = self.round.pending
        pending.discard(seat)
        if not pending:
            self._finish_passed()
            return
        self.actor = self._next_of(pending, seat)

    def _on_open(self, seat: int, action: Action) -> None:
        assert action.amount is not None
        self.opener = seat
        self.opening_hand = tuple(self.hands[seat])
        self.opening_groups = opening_groups(self.opening_hand, self.requirement)
        self.phase = _FIRST_ROUND
        if not self.rules.passed_players_may_play:
            passed = self.round.pending
            for s in range(self.n):
                if s != seat and s not in passed:
                    self._fold(s)
        self.round.bet_to(self, seat, action.amount)
        self._after_bet(seat)

    def _on_bet(self, seat: int, action: Action) -> None:
        """A bet (5.2(a)) or a raise to ``action.amount``."""
        assert action.amount is not None
        self.round.bet_to(self, seat, action.amount)
        self._after_bet(seat)

    def _on_call(self, seat: int, action: Action) -> None:
        assert action.amount is not None
        self.round.call(self, seat, action.amount)
        self._after_bet(seat)

    def _on_check(self, seat: int, action: Action) -> None:
        self.round.check(seat)
        self._after_bet(seat)

    def _on_parol(self, seat: int, action: Action) -> None:
        self.round.parol(seat)
        self._after_bet(seat)

    def _on_fold(self, seat: int, action: Action) -> None:
        self._fold(seat)
        self._after_bet(seat)

    def _fold(self, seat: int) -> None:
        self.folded[seat] = True
        self.round.acted(seat)
        if not self.round.second:
            self.first_round_folded[seat] = True
        if seat == self.opener:
            # 4.4: the opener's cards are kept apart so that the opening can be proved.
            self.draw.keep_apart(self.hands[seat])
        else:
            self.muck.extend((seat, c) for c in self.hands[seat])

    def _after_bet(self, seat: int) -> None:
        """Who acts next in the round, or, once it is over, what follows it."""
        if self.folded.count(False) == 1:
            # 3.7 / 5.4(c): all but one folded; the survivor takes the pot without showing.
            self._end_round()
            self._award()
            return
        betting = self.round
        if betting.pending:
            self.actor = self._next_of(betting.pending, seat)
            return
        self._end_round()
        if self.phase is _FIRST_ROUND:
            self._start_draw()
        elif betting.everyone_said_parol():
            self._finish_parol()  # 5.4(a)
        else:
            self._start_showdown()  # 5.4(b), 5.4(d)

    def _end_round(self) -> None:
        if not self.round.second:
            self.first_round_put = list(self.round.bets)
        self.round.close()

    # --- draw (Art. 4) --------------------------------------------------------------------

    def _start_draw(self) -> None:
        self.phase = _DRAW
        folded = self.folded
        turns = [s for s in self.seats_from(self.next_seat(self.dealer)) if not folded[s]]
        self.draw.turns = turns
        self.actor = turns[0]

    def _on_draw(self, seat: int, action: Action) -> None:
        owed = self.draw.change(self, seat, action)
        if owed:
            self._owed = list(owed)
            self._serve_owed()
            self._resolve()
            return
        turns = self.draw.turns  # stood pat, others still to draw: nothing is due
        if turns:
            self.actor = turns[0]
        else:
            self._start_second_round()

    # --- second round (Art. 5) ------------------------------------------------------------

    def _start_second_round(self) -> None:
        self.phase = _SECOND_ROUND
        first_round = self.round
        self.round = BettingRound.begin(self.rules, self.n, second=True)
        actors = self._actors()
        if len(actors) < 2:
            self._start_showdown()
            return
        second = self.round
        second.pending = set(actors)
        second.may_raise = set(actors)
        # 5.2(c), decided: no parol with a player all-in (every live seat has chips).
        second.parol_open = self.rules.parol_allowed and len(actors) == self.folded.count(False)
        self.actor = self._second_round_first(first_round)

    def _second_round_first(self, first_round: BettingRound) -> int:
        """5.1: who begins the second round (by the rules' reading)."""
        rule = self.rules.second_round_starter
        anchor: int | None
        last_blind = self.blinders[-1] if self.blinders else None
        opener = self.opener if self.opener is not None else last_blind
        if rule is _LAST_RAISER:
            anchor = first_round.last_counted_raiser
            if anchor is None:
                anchor = opener
        elif rule is _FIRST_ROUND_STARTER:
            anchor = self.first_round_starter
        else:
            anchor = opener
        if anchor is None:
            anchor = self.next_seat(self.dealer)
        # Decided: if that player folded or is all-in, the next one able to act begins.
        for s in self.seats_from(anchor):
            if self.can_act(s):
                return s
        raise AssertionError("no player can act")  # pragma: no cover

    # --- showdown (Art. 6-7) --------------------------------------------------------------

    def _start_showdown(self) -> None:
        self.phase = _SHOWDOWN
        self.showdown = Showdown.begin(self)
        self.actor = self.showdown.actor

    def _on_show(self, seat: int, action: Action) -> None:
        assert self.showdown is not None
        self.showdown.show(seat)
        self._next_shower()

    def _on_muck(self, seat: int, action: Action) -> None:
        assert self.showdown is not None
        self.showdown.muck(seat)
        self._next_shower()

    def _next_shower(self) -> None:
        assert self.showdown is not None
        self.actor = self.showdown.actor
        if self.actor is None:
            self._award()

    # --- endings --------------------------------------------------------------------------

    def _award(self) -> None:
        """The pots go to their winners: at the showdown, or uncalled."""
        awards = award_pots(self, self.showdown)
        stacks = self.stacks
        for award in awards:
            for seat, share in zip(award.winners, award.shares, strict=True):
                stacks[seat] += share
        self._complete(Outcome.WON, awards, carried=0, returned=(0,) * self.n)

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
            self.operations.append(AntesReturned(returned))
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
        self.phase = _COMPLETE
        self.actor = None
        result = DealResult(
            outcome,
            tuple(self.stacks),
            awards,
            carried,
            returned,
            dict(self.shown),
            makeups,
            opening_proof(self),
        )
        self.result = result
        operations = self.operations
        operations.extend(awards)
        operations.append(result)

    _HANDLERS: ClassVar[dict[ActionKind, Callable[[Deal, int, Action], None]]] = {
        ActionKind.BLIND: _on_blind,
        ActionKind.CONTROBUIO: _on_blind,
        ActionKind.OVER: _on_blind,
        ActionKind.DECLINE: _on_decline,
        ActionKind.PASS: _on_pass,
        ActionKind.OPEN: _on_open,
        ActionKind.FOLD: _on_fold,
        ActionKind.CALL: _on_call,
        ActionKind.RAISE: _on_bet,
        ActionKind.CHECK: _on_check,
        ActionKind.BET: _on_bet,
        ActionKind.PAROL: _on_parol,
        ActionKind.DRAW: _on_draw,
        ActionKind.SHOW: _on_show,
        ActionKind.MUCK: _on_muck,
    }
