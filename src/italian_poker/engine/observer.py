"""The observer: what a viewer may know about a deal. The only place that decides it.

A viewer is a seat (a player) or :data:`PUBLIC` (a spectator, a public channel, a history
everyone may read). :func:`observe` gives a seat its :class:`SeatView` and the public a
:class:`PublicView`, a type without any hidden field; :func:`observe_operations` gives the
operations log (engine/operations.py) as the viewer saw it. Bots, front ends, narration and
redacted hand histories use these and nothing else.

The rules of visibility, each in one function below:

- a player's hand is seen by that player only (:func:`sees_hand`) until it is shown at the
  showdown, when everyone sees it; the cards served at the draw likewise;
- discards are seen by the player who discarded them, and by everyone when the rules put
  them face up (003, :func:`sees_discards`);
- the opener's cards kept apart after a split (4.4) are the opener's (:func:`sees_kept_apart`)
  until the proof, which everyone sees at the end of the deal (3.3, 4.4);
- the order of the stock, and of reshuffled discards (4.3), is seen by nobody;
- everything else (chips, bets, how many cards each player changed, who folded, the result)
  is public.
"""

from __future__ import annotations

from dataclasses import dataclass, field, make_dataclass
from enum import Enum
from functools import lru_cache
from typing import Any, Final, NamedTuple, overload

from italian_poker.engine.actions import ActionKind, LegalAction, check_seat
from italian_poker.engine.cards import Card
from italian_poker.engine.deal import ActionRecord, Deal, DealResult, Operation, Phase
from italian_poker.engine.hand_rank import HandRank
from italian_poker.engine.opening import OpeningRequirement
from italian_poker.engine.operations import (
    CardsDrawn,
    FourthCardDealt,
    HandsDealt,
    Reshuffled,
)
from italian_poker.engine.rules import Rules


class Public(Enum):
    """The public viewer: someone who sees only what every player sees."""

    PUBLIC = "public"


PUBLIC: Final = Public.PUBLIC
"""The public viewer (a spectator)."""

Viewer = int | Public
"""A seat number, or :data:`PUBLIC`."""


# --- the rules of visibility -----------------------------------------------------------------


def sees_hand(viewer: Viewer, seat: int) -> bool:
    """Whether ``viewer`` sees the face-down cards of ``seat`` (its hand, the cards it is
    served): only the seat itself. Shown hands (the showdown) are public."""
    return viewer == seat


def sees_discards(viewer: Viewer, seat: int, rules: Rules) -> bool:
    """Whether ``viewer`` sees the cards ``seat`` discarded at the draw: the seat itself, and
    everyone when discards lie face up (003)."""
    return viewer == seat or rules.discards_face_up


def sees_kept_apart(viewer: Viewer, opener: int | None) -> bool:
    """4.4: whether ``viewer`` sees the opener's discards kept apart, before the proof."""
    return opener is not None and viewer == opener


# --- views -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PublicAction:
    """An action as the viewer saw it: a draw shows only how many cards were changed, unless
    the discards are face up (003) or it is the viewer's own draw, and whether the opener
    announced a split (4.4)."""

    seat: int
    kind: ActionKind
    amount: int | None
    cards_changed: int | None
    discards: tuple[Card, ...]
    phase: Phase
    split: bool = False
    """4.4: the opener announced that this draw breaks the opening (said aloud: public)."""


class PublicView(NamedTuple):
    """What everyone may know about a deal: no hand, no face-down discard, no legal action.
    ``shown`` are the hands shown at the showdown; ``proof`` the opening's proof at the end.

    An immutable record (a :class:`~typing.NamedTuple`: a view is made before every decision,
    and a tuple is made in one step where a frozen dataclass sets each field through
    ``object.__setattr__``; docs/performance.md). ``view._replace(...)`` makes a changed copy;
    ``dataclasses.replace``, ``dataclasses.fields`` and ``dataclasses.asdict`` work on it too,
    as when views were frozen dataclasses."""

    names: tuple[str, ...]
    player_ids: tuple[int, ...]
    rules: Rules
    phase: Phase
    dealer: int
    actor: int | None
    stacks: tuple[int, ...]
    round_bets: tuple[int, ...]
    committed: tuple[int, ...]
    pot: int
    current_bet: int
    folded: tuple[bool, ...]
    cards_held: tuple[int, ...]
    cards_changed: tuple[int | None, ...]
    shown: dict[int, tuple[Card, ...]]
    shown_ranks: dict[int, HandRank]
    requirement: OpeningRequirement
    opener: int | None
    blinders: tuple[int, ...]
    parols: tuple[int, ...]
    checked: bool
    actions: tuple[PublicAction, ...]
    result: DealResult | None
    proof: tuple[Card, ...]

    @property
    def players(self) -> int:
        """Players dealt in (the deck is stripped for them)."""
        return len(self.names)


class SeatView(NamedTuple):
    """One seat's view of a deal: the public view's fields (in the same order), then the
    seat, its own hand, on its turn its legal actions, and the cards it keeps apart as opener
    (4.4). Its own discards are in ``actions``. An immutable record, as :class:`PublicView`."""

    names: tuple[str, ...]
    player_ids: tuple[int, ...]
    rules: Rules
    phase: Phase
    dealer: int
    actor: int | None
    stacks: tuple[int, ...]
    round_bets: tuple[int, ...]
    committed: tuple[int, ...]
    pot: int
    current_bet: int
    folded: tuple[bool, ...]
    cards_held: tuple[int, ...]
    cards_changed: tuple[int | None, ...]
    shown: dict[int, tuple[Card, ...]]
    shown_ranks: dict[int, HandRank]
    requirement: OpeningRequirement
    opener: int | None
    blinders: tuple[int, ...]
    parols: tuple[int, ...]
    checked: bool
    actions: tuple[PublicAction, ...]
    result: DealResult | None
    proof: tuple[Card, ...]
    seat: int
    hand: tuple[Card, ...]
    legal_actions: tuple[LegalAction, ...]
    kept_apart: tuple[Card, ...]

    @property
    def players(self) -> int:
        """Players dealt in (the deck is stripped for them)."""
        return len(self.names)

    @property
    def is_my_turn(self) -> bool:
        """Whether this seat is the one to act."""
        return self.actor == self.seat

    @property
    def to_call(self) -> int:
        """Chips this seat must add to call."""
        return self.current_bet - self.round_bets[self.seat]


def _as_dataclass(cls: type[Any]) -> None:
    """Let ``dataclasses.fields``, ``replace`` and ``asdict`` keep working on the views of
    ``cls``, which were frozen dataclasses before they were records (an added name only: the
    views stay tuples, ``_replace`` is their own way)."""
    twin = make_dataclass(cls.__name__, list(cls.__annotations__.items()), frozen=True)
    cls.__dataclass_fields__ = twin.__dataclass_fields__  # type: ignore[attr-defined]
    cls.__dataclass_params__ = twin.__dataclass_params__  # type: ignore[attr-defined]


_as_dataclass(PublicView)
_as_dataclass(SeatView)


@dataclass(slots=True)
class _PublicLog:
    """A deal's actions as everyone saw them, grown as the deal goes on; ``own_draws`` are
    the positions of draws whose cards only the player who drew may see."""

    actions: list[PublicAction]
    own_draws: dict[int, int]
    seen: tuple[PublicAction, ...] = ()
    own_seen: dict[int, tuple[PublicAction, ...]] = field(default_factory=dict)
    """Per seat with an own draw, the actions as that seat saw them (for ``seen``)."""


_DRAW = ActionKind.DRAW


def _as_seen(record: ActionRecord, discards_seen: bool) -> PublicAction:
    action = record.action
    cards = action.cards
    if not cards:
        return _seen_without_cards(record.seat, action.kind, action.amount, record.phase)
    return PublicAction(
        record.seat,
        action.kind,
        action.amount,
        len(cards),
        cards if discards_seen else (),
        record.phase,
        action.split,
    )


@lru_cache(maxsize=4096, typed=True)
def _seen_without_cards(
    seat: int, kind: ActionKind, amount: int | None, phase: Phase
) -> PublicAction:
    """An action without cards as everyone sees it, shared (as the deal shares its record):
    a draw of none shows that none was changed."""
    return PublicAction(seat, kind, amount, 0 if kind is _DRAW else None, (), phase)


def _public_actions(deal: Deal, viewer: Viewer) -> tuple[PublicAction, ...]:
    """The deal's actions as ``viewer`` saw them (:func:`sees_discards`), kept with the deal
    and grown by the actions taken since its last view."""
    log: _PublicLog | None = deal._seen
    if log is None:
        log = deal._seen = _PublicLog([], {})
    records = deal.actions
    public = log.actions
    if len(public) < len(records):
        rules = deal.rules
        for record in records[len(public) :]:
            seen = sees_discards(PUBLIC, record.seat, rules)
            if record.action.kind is _DRAW and record.action.cards and not seen:
                log.own_draws[record.seat] = len(public)
            public.append(_as_seen(record, seen))
        log.seen = tuple(public)
        log.own_seen.clear()
    if not log.own_draws or viewer is PUBLIC:
        return log.seen
    own = log.own_draws.get(viewer)
    if own is None:
        return log.seen
    mine = log.own_seen.get(viewer)
    if mine is None:
        seen_log = list(log.seen)
        seen_log[own] = _as_seen(records[own], sees_discards(viewer, viewer, deal.rules))
        mine = log.own_seen[viewer] = tuple(seen_log)
    return mine


_FIVE_EACH: dict[int, tuple[int, ...]] = {}
"""Per number of players, five cards held by each (3.1): shared, as most views show it."""


def _five_each(players: int) -> tuple[int, ...]:
    held = _FIVE_EACH.get(players)
    if held is None:
        held = _FIVE_EACH[players] = (5,) * players
    return held


_made = tuple.__new__
"""Makes a view from its values in one step (what ``cls._make`` does, without its check)."""


def _values(deal: Deal, viewer: Viewer) -> tuple[Any, ...]:
    """The values of ``viewer``'s view, in the order of its fields, read straight off the deal
    and its parts: the fields every viewer shares (with the actions as ``viewer`` saw them),
    then, for a seat, the seat's own (:class:`SeatView`)."""
    showdown = deal.showdown
    hands = deal.hands
    betting = deal.round
    result = deal.result
    start = deal.start
    committed = deal.committed
    shown: dict[int, tuple[Card, ...]] = {}
    shown_ranks: dict[int, HandRank] = {}
    if showdown is not None and showdown.shown:
        # The showdown: shown hands are public.
        shown_ranks = dict(showdown.shown)
        shown = {s: tuple(hands[s]) for s in shown_ranks}
    for hand in hands:
        if len(hand) != 5:
            cards_held = tuple([len(hand) for hand in hands])
            break
    else:
        cards_held = _five_each(len(hands))  # five each (3.1), the usual case: shared
    parols = betting.parols
    shared = (
        start.names,
        start.player_ids,
        deal.rules,
        deal.phase,
        deal.dealer,
        deal.actor,
        tuple(deal.stacks),
        tuple(betting.bets),
        tuple(committed),
        deal.dead + sum(committed),
        betting.current_bet,
        tuple(deal.folded),
        cards_held,
        tuple(deal.draw.drawn),
        shown,
        shown_ranks,
        deal.requirement,
        deal.opener,
        tuple(deal.blinders),
        tuple(sorted(parols)) if parols else (),
        betting.checked,
        _public_actions(deal, viewer),
        result,
        # 3.3, 4.4: the proof is public once the deal is over.
        result.proof if result is not None else (),
    )
    if viewer is PUBLIC:
        return shared
    # The seat's own: its hand (sees_hand: a seat sees its own), its legal actions on its
    # turn, the cards it keeps apart as opener (sees_kept_apart).
    return (
        *shared,
        viewer,
        tuple(hands[viewer]),
        deal.legal_actions() if deal.actor == viewer else (),
        deal.draw.kept_apart if viewer == deal.opener else (),
    )


@overload
def observe(deal: Deal, viewer: int) -> SeatView: ...


@overload
def observe(deal: Deal, viewer: Public) -> PublicView: ...


def observe(deal: Deal, viewer: Viewer) -> SeatView | PublicView:
    """What ``viewer`` may know about ``deal``: a seat's :class:`SeatView`, or for
    :data:`PUBLIC` a :class:`PublicView`, which has no hidden field at all."""
    if viewer is PUBLIC:
        return _made(PublicView, _values(deal, PUBLIC))
    if type(viewer) is not int or not 0 <= viewer < deal.n:
        check_seat(viewer, deal.n, what="a viewer", other=" or PUBLIC")
    return _made(SeatView, _values(deal, viewer))


def seat_view(deal: Deal, seat: int) -> SeatView:
    """The view of ``deal`` for ``seat`` (:func:`observe` for a seat)."""
    return observe(deal, check_seat(seat, deal.n))


# --- the operations log as seen ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Unseen:
    """Cards that went face down where the viewer may not see them: ``count`` cards served to
    ``seat`` at the draw (4.1, 4.2), or, with ``seat`` ``None``, reshuffled under the stock
    (4.3)."""

    seat: int | None
    count: int


ObservedOperation = Operation | PublicAction | Unseen
"""An entry of the operations log as a viewer saw it."""


def observe_operations(
    operations: tuple[Operation, ...] | list[Operation], viewer: Viewer, rules: Rules
) -> tuple[ObservedOperation, ...]:
    """The operations log as ``viewer`` saw it: each action as a :class:`PublicAction`; the
    hands dealt with every hand the viewer may not see left empty (each held five cards,
    3.1); cards served out of the viewer's sight, and every reshuffle, as :class:`Unseen`.
    Chips, awards and the result are public and stay as they are."""
    seen: list[ObservedOperation] = []
    for op in operations:
        if isinstance(op, ActionRecord):
            seen.append(_as_seen(op, sees_discards(viewer, op.seat, rules)))
        elif isinstance(op, HandsDealt):
            seen.append(
                HandsDealt(
                    tuple(
                        hand if sees_hand(viewer, seat) else ()
                        for seat, hand in enumerate(op.hands)
                    )
                )
            )
        elif isinstance(op, CardsDrawn):
            seen.append(op if sees_hand(viewer, op.seat) else Unseen(op.seat, len(op.cards)))
        elif isinstance(op, FourthCardDealt):
            seen.append(op if sees_hand(viewer, op.seat) else Unseen(op.seat, 1))
        elif isinstance(op, Reshuffled):
            seen.append(Unseen(None, len(op.cards)))
        else:
            seen.append(op)
    return tuple(seen)


__all__ = [
    "PUBLIC",
    "ObservedOperation",
    "Public",
    "PublicAction",
    "PublicView",
    "SeatView",
    "Unseen",
    "Viewer",
    "observe",
    "observe_operations",
    "seat_view",
    "sees_discards",
    "sees_hand",
    "sees_kept_apart",
]
