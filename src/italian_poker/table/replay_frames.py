"""A finished deal step by step, as one viewer may see it: the frames of a hand replayer.

:func:`hand_frames` replays a :class:`~italian_poker.engine.history.HandHistory` through the
engine (the history is checked by :func:`~italian_poker.engine.history.replay`, then its
:class:`~italian_poker.engine.deal.Deal` is started again with the recorded cards,
``history.source()``, and each action applied in turn) and reads the observer's view
(:func:`~italian_poker.engine.observer.observe`) for the viewer before the first action and
after every one: nothing here decides what the viewer may see. A seat sees its own cards,
the others' once shown at the showdown (and their discards only when they lie face up, 003);
:data:`~italian_poker.engine.observer.PUBLIC`, a spectator, sees no hidden card at all.

Each :class:`Frame` holds the phase the deal is in, the step that led there (who did what, how
many cards were changed, in words in both languages: :func:`~italian_poker.table.narration.
event_line`), the pot, and each seat's stack, bet in the round, whether it folded and the
cards the viewer sees. The last frame is the deal's end: its pot is what is carried to the
next deal (the rest was awarded), :attr:`HandFrames.awards` are the pots awarded, each with
its winners and its sentence of the report (as the table's felt shows them after a deal:
:func:`~italian_poker.table.narration.award_lines`), and :attr:`HandFrames.result` explains
the result with the after-deal report (:func:`~italian_poker.table.narration.report_lines`).
No I/O.
"""

from __future__ import annotations

from dataclasses import dataclass

from italian_poker.engine.actions import ActionKind
from italian_poker.engine.cards import Card
from italian_poker.engine.deal import Deal, Phase
from italian_poker.engine.history import HandHistory, HistoryError, replay
from italian_poker.engine.observer import PublicAction, PublicView, SeatView, Viewer, observe
from italian_poker.engine.opening import OpeningRequirement
from italian_poker.table.events import Event, FinishedDeal, chips_added, round_bet_before
from italian_poker.table.narration import (
    Line,
    award_lines,
    both,
    event_line,
    report_lines,
    shown_cards,
)
from italian_poker.table.vocabulary import tr

STREETS: tuple[Phase, ...] = (
    Phase.BLINDS,
    Phase.OPENING,
    Phase.FIRST_ROUND,
    Phase.DRAW,
    Phase.SECOND_ROUND,
    Phase.SHOWDOWN,
    Phase.COMPLETE,
)
"""The phases a replayer jumps to, in the order of a deal (Art. 2 to 7)."""


@dataclass(frozen=True, slots=True)
class FrameSeat:
    """One seat at one step: ``cards`` are those of its cards the viewer sees (its own, or
    shown at the showdown), ``held`` how many it holds (the others face down); ``changed``
    how many it changed at the draw, once it has drawn (0: *servito*)."""

    name: str
    stack: int
    bet: int
    folded: bool
    cards: tuple[Card, ...]
    held: int
    changed: int | None


@dataclass(frozen=True, slots=True)
class FrameAction:
    """The step that led to a frame, as the viewer saw it: a draw shows how many cards were
    changed, the discards only when the viewer may see them; ``phase`` is the phase it was
    played in."""

    seat: int
    kind: ActionKind
    amount: int | None
    cards_changed: int | None
    discards: tuple[Card, ...]
    split: bool
    phase: Phase


@dataclass(frozen=True, slots=True)
class Frame:
    """The deal as the viewer sees it after ``index`` actions (0: as dealt, the antes in the
    pot). ``line`` tells the step in words (for frame 0, who deals and what opens);
    ``pot`` is every chip in the middle, on the last frame what is carried to the next deal;
    ``proof`` is the opener's proof, public once the deal is over (3.3, 4.4)."""

    index: int
    phase: Phase
    action: FrameAction | None
    line: Line
    pot: int
    current_bet: int
    actor: int | None
    opener: int | None
    seats: tuple[FrameSeat, ...]
    proof: tuple[Card, ...]
    blind: bool = False
    """A blind has been bet: the deal needs no opening (Art. 2)."""


@dataclass(frozen=True, slots=True)
class FrameAward:
    """A pot awarded at the deal's end: its chips, the seats that won it and each one's
    share, and the report's sentence for it (who won it, with what and why)."""

    amount: int
    winners: tuple[int, ...]
    shares: tuple[int, ...]
    line: Line


@dataclass(frozen=True, slots=True)
class HandFrames:
    """A finished deal for one viewer: a frame before the first action and one after each,
    the pots awarded at its end (none after a passed deal or a parol, whose pot is carried)
    and the result explained (the after-deal report, one :class:`Line` a sentence)."""

    number: int
    viewer: Viewer
    names: tuple[str, ...]
    dealer: int
    requirement: OpeningRequirement
    """What opened this deal (3.2)."""
    frames: tuple[Frame, ...]
    awards: tuple[FrameAward, ...]
    result: tuple[Line, ...]

    def won(self) -> dict[int, int]:
        """The chips each winning seat took from the pots awarded."""
        won: dict[int, int] = {}
        for award in self.awards:
            for seat, share in zip(award.winners, award.shares, strict=True):
                won[seat] = won.get(seat, 0) + share
        return won

    def streets(self) -> tuple[tuple[Phase, int], ...]:
        """Each phase the deal went through (:data:`STREETS` order) and its first frame."""
        first: dict[Phase, int] = {}
        for frame in self.frames:
            first.setdefault(frame.phase, frame.index)
        return tuple((phase, first[phase]) for phase in STREETS if phase in first)


def hand_frames(
    history: HandHistory, viewer: Viewer, next_requirement: OpeningRequirement
) -> HandFrames:
    """The frames of the finished deal ``history`` for ``viewer`` (a seat of the deal, or
    ``PUBLIC``); ``next_requirement`` is what the next deal needed to open, which the result
    of a passed deal or a parol tells (3.5, 5.5). Raises
    :class:`~italian_poker.engine.history.HistoryError` for a history that does not replay or
    is not over, and :class:`ValueError` for a viewer who is no seat of the deal."""
    if history.number is None:
        raise HistoryError("the history has no hand number (hand = N)")
    replay(history)
    deal = Deal(history.start(), history.source())
    view = observe(deal, viewer)
    requirement = view.requirement
    frames = [_frame(0, view, None, _deal_line(history, view))]
    for index, entry in enumerate(history.actions, start=1):
        before = round_bet_before(deal, entry.seat, entry.action.kind)
        deal.apply(entry.action, seat=entry.seat)  # legal: replay() checked it
        view = observe(deal, viewer)
        seen = view.actions[-1]
        action = FrameAction(
            seen.seat,
            seen.kind,
            seen.amount,
            seen.cards_changed,
            seen.discards,
            seen.split,  # announced (4.4): public
            seen.phase,
        )
        added = chips_added(seen.amount, before)
        frames.append(_frame(index, view, action, _action_line(view, seen, action, added)))
    if view.result is None:
        raise HistoryError("the deal is not over: only a finished deal is replayed")
    finished = FinishedDeal(history.number, view, isinstance(view, SeatView), next_requirement)
    awards = tuple(
        FrameAward(award.amount, award.winners, award.shares, said)
        for award, said in zip(view.result.awards, award_lines(finished), strict=True)
    )
    return HandFrames(
        number=history.number,
        viewer=viewer,
        names=history.names,
        dealer=history.dealer,
        requirement=requirement,
        frames=tuple(frames),
        awards=awards,
        result=tuple(report_lines(finished)),
    )


def _frame(
    index: int,
    view: SeatView | PublicView,
    action: FrameAction | None,
    said: Line,
) -> Frame:
    """The frame of ``view``: the pot and the seats as the viewer sees them."""
    own, hand = (view.seat, view.hand) if isinstance(view, SeatView) else (None, ())
    result = view.result
    over = result is not None
    seats = tuple(
        FrameSeat(
            name=name,
            stack=view.stacks[seat],
            bet=0 if over else view.round_bets[seat],
            folded=view.folded[seat],
            cards=hand if seat == own else shown_cards(view, seat),
            held=view.cards_held[seat],
            changed=view.cards_changed[seat],
        )
        for seat, name in enumerate(view.names)
    )
    return Frame(
        index=index,
        phase=view.phase,
        action=action,
        line=said,
        pot=result.carried if result is not None else view.pot,
        current_bet=0 if over else view.current_bet,
        actor=view.actor,
        opener=view.opener,
        seats=seats,
        proof=view.proof,
        blind=bool(view.blinders),
    )


def _deal_line(history: HandHistory, view: SeatView | PublicView) -> Line:
    """Frame 0 in words: who deals, and what opens."""
    dealer = view.names[view.dealer]
    requirement = view.requirement
    return both(
        lambda lang: tr(
            lang,
            "log_deal_start",
            number=history.number,
            dealer=dealer,
            requirement=requirement.describe(lang),
        )
    )


def _action_line(
    view: SeatView | PublicView, seen: PublicAction, action: FrameAction, added: int | None
) -> Line:
    """A step in words, as the table's log tells it (:func:`event_line`); ``added``, the
    chips a bet added."""
    return event_line(
        Event(
            player=view.names[seen.seat],
            kind=action.kind,
            amount=action.amount,
            cards_changed=action.cards_changed,
            discards=action.discards,
            split=action.split,
            added=added,
        )
    )


__all__ = [
    "STREETS",
    "Frame",
    "FrameAction",
    "FrameAward",
    "FrameSeat",
    "HandFrames",
    "hand_frames",
]
