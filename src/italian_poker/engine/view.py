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


_PUBLIC_LOGS: WeakKeyDictionary[Deal, list[PublicAction]] = WeakKeyDictionary()
"""Per deal, the actions as everyone saw them (grown as the deal goes on)."""


def _as_seen(record: ActionRecord, face_up: bool, own: bool) -> PublicAction:
    action = record.action
    changed: int | None = None
    discards: tuple[Card, ...] = ()
    if action.kind is ActionKind.DRAW:
        changed = len(action.cards)
        if own or face_up:
            discards = action.cards
    return PublicAction(record.seat, action.kind, action.amount, changed, discards, record.phase)


def _public_actions(deal: Deal, seat: int) -> tuple[PublicAction, ...]:
    """The deal's actions as ``seat`` saw them: a draw shows its cards only to the player who
    drew, unless the discards are face up (003)."""
    log = _PUBLIC_LOGS.setdefault(deal, [])
    face_up = deal.rules.discards_face_up
    for record in deal.actions[len(log) :]:
        log.append(_as_seen(record, face_up, own=False))
    seen = list(log)
    if not face_up:
        for i, record in enumerate(deal.actions):
            if record.seat == seat and record.action.kind is ActionKind.DRAW:
                seen[i] = _as_seen(record, face_up, own=True)
    return tuple(seen)


def seat_view(deal: Deal, seat: int) -> SeatView:
    """The view of ``deal`` for ``seat``."""
    if not 0 <= seat < deal.n:
        raise ValueError(f"seat must be 0 to {deal.n - 1}, got {seat}")
    shown = {s: tuple(deal.hands[s]) for s in deal.shown}
    result = deal.result
    proof = result.proof if result is not None else ()
    return SeatView(
        seat=seat,
        names=deal.names,
        rules=deal.rules,
        phase=deal.phase,
        dealer=deal.dealer,
        actor=deal.actor,
        hand=tuple(deal.hands[seat]),
        stacks=tuple(deal.stacks),
        round_bets=tuple(deal.round_bet),
        committed=tuple(deal.committed),
        pot=deal.pot,
        current_bet=deal.current_bet,
        folded=tuple(deal.folded),
        cards_held=tuple(len(h) for h in deal.hands),
        cards_changed=tuple(deal.drawn),
        shown=shown,
        shown_ranks=dict(deal.shown),
        requirement=deal.requirement,
        opener=deal.opener,
        blinders=tuple(deal.blinders),
        parols=tuple(sorted(deal.parols)),
        checked=deal.checked,
        actions=_public_actions(deal, seat),
        legal_actions=deal.legal_actions() if deal.actor == seat else (),
        result=result,
        proof=proof,
        kept_apart=deal.kept_apart if deal.opener == seat else (),
    )
