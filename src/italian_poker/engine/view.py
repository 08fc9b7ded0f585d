"""What one seat may know about a deal: its own cards, and others' only once shown.

Bots, the terminal game and the server only ever receive a :class:`SeatView`; there is no
other path from them to hidden cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from weakref import WeakKeyDictionary

from italian_poker.engine.actions import ActionKind, LegalAction
from italian_poker.engine.cards import Card
from italian_poker.engine.deal import ActionRecord, Deal, DealResult, Phase
from italian_poker.engine.hand_rank import HandRank
from italian_poker.engine.opening import OpeningRequirement
from italian_poker.engine.rules import Rules


@dataclass(frozen=True, slots=True)
class PublicAction:
    """An action as the viewing seat saw it: a draw shows only how many cards were changed,
    unless the discards are face up (003) or it is the viewer's own draw."""

    seat: int
    kind: ActionKind
    amount: int | None
    cards_changed: int | None
    discards: tuple[Card, ...]
    phase: Phase


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat's view of a deal."""

    seat: int
    names: tuple[str, ...]
    rules: Rules
    phase: Phase
    dealer: int
    actor: int | None
    hand: tuple[Card, ...]
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
    legal_actions: tuple[LegalAction, ...]
    result: DealResult | None
    proof: tuple[Card, ...]
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


@dataclass(slots=True)
class _PublicLog:
    """A deal's actions as everyone saw them, grown as the deal goes on; ``own_draws`` are
    the positions of draws whose cards only the player who drew may see."""

    actions: list[PublicAction]
    own_draws: dict[int, int]
    seen: tuple[PublicAction, ...] = ()


_PUBLIC_LOGS: WeakKeyDictionary[Deal, _PublicLog] = WeakKeyDictionary()
"""Per deal, the actions as everyone saw them."""

_DRAW = ActionKind.DRAW


def _as_seen(record: ActionRecord, face_up: bool, own: bool) -> PublicAction:
    action = record.action
    changed: int | None = None
    discards: tuple[Card, ...] = ()
    if action.kind is _DRAW:
        changed = len(action.cards)
        if own or face_up:
            discards = action.cards
    return PublicAction(record.seat, action.kind, action.amount, changed, discards, record.phase)


def _public_actions(deal: Deal, seat: int) -> tuple[PublicAction, ...]:
    """The deal's actions as ``seat`` saw them: a draw shows its cards only to the player who
    drew, unless the discards are face up (003)."""
    log = _PUBLIC_LOGS.get(deal)
    if log is None:
        log = _PUBLIC_LOGS[deal] = _PublicLog([], {})
    records = deal.actions
    public = log.actions
    if len(public) < len(records):
        face_up = deal.rules.discards_face_up
        for record in records[len(public) :]:
            if record.action.kind is _DRAW and record.action.cards and not face_up:
                log.own_draws[record.seat] = len(public)
            public.append(_as_seen(record, face_up, own=False))
        log.seen = tuple(public)
    own = log.own_draws.get(seat)
    if own is None:
        return log.seen
    seen = list(log.seen)
    seen[own] = _as_seen(records[own], face_up=False, own=True)
    return tuple(seen)


def seat_view(deal: Deal, seat: int) -> SeatView:
    """The view of ``deal`` for ``seat``."""
    if not 0 <= seat < deal.n:
        raise ValueError(f"seat must be 0 to {deal.n - 1}, got {seat}")
    showdown = deal.showdown
    shown_ranks = showdown.shown if showdown is not None else {}
    hands = deal.hands
    betting = deal.round
    draw = deal.draw
    result = deal.result
    return SeatView(
        seat=seat,
        names=deal.start.names,
        rules=deal.rules,
        phase=deal.phase,
        dealer=deal.dealer,
        actor=deal.actor,
        hand=tuple(hands[seat]),
        stacks=tuple(deal.stacks),
        round_bets=tuple(betting.bets),
        committed=tuple(deal.committed),
        pot=deal.pot,
        current_bet=betting.current_bet,
        folded=tuple(deal.folded),
        cards_held=tuple([len(h) for h in hands]),
        cards_changed=tuple(draw.drawn),
        shown={s: tuple(hands[s]) for s in shown_ranks} if shown_ranks else {},
        shown_ranks=dict(shown_ranks),
        requirement=deal.requirement,
        opener=deal.opener,
        blinders=tuple(deal.blinders),
        parols=tuple(sorted(betting.parols)) if betting.parols else (),
        checked=betting.checked,
        actions=_public_actions(deal, seat),
        legal_actions=deal.legal_actions() if deal.actor == seat else (),
        result=result,
        proof=result.proof if result is not None else (),
        kept_apart=draw.kept_apart if deal.opener == seat else (),
    )
