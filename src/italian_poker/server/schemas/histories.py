"""The hand histories' models: a player's finished deals, and one deal step by step (the hand
replayer)."""

from __future__ import annotations

from pydantic import Field

from italian_poker.server.protocol import card_codes, cards_label
from italian_poker.server.schemas.base import Model
from italian_poker.table.narration import Line
from italian_poker.table.replay_frames import Frame, FrameAward, FrameSeat, HandFrames


class Hands(Model):
    """``GET /api/tables/{invite}/histories``: the finished deals of the token's holder."""

    hands: list[int]


class Words(Model):
    """A sentence or a label in both languages."""

    en: str
    it: str

    @classmethod
    def of(cls, line: Line) -> Words:
        """A narration :class:`~italian_poker.table.narration.Line`."""
        return cls(en=line.en, it=line.it)


class ReplaySeat(Model):
    """A seat at one step of the replayer, as this viewer sees it."""

    seat: int
    """The seat in the deal (0 to n-1, table order)."""
    name: str
    stack: int
    bet: int
    """Chips bet in the betting round under way."""
    status: str = Field(json_schema_extra={"enum": ["active", "folded"]})
    cards: list[str]
    """The seat's cards this viewer sees: its own, or those shown at the showdown."""
    cards_label: Words | None
    """``cards`` in words; None when none is seen."""
    hidden: int
    """How many cards it holds face down to this viewer (0 once folded)."""
    changed: int | None
    """Cards changed at the draw, once drawn (0: *servito*)."""

    @classmethod
    def of(cls, seat: int, entry: FrameSeat) -> ReplaySeat:
        """A seat of a :class:`~italian_poker.table.replay_frames.Frame`."""
        return cls(
            seat=seat,
            name=entry.name,
            stack=entry.stack,
            bet=entry.bet,
            status="folded" if entry.folded else "active",
            cards=card_codes(entry.cards),
            cards_label=Words(**cards_label(entry.cards)) if entry.cards else None,
            hidden=0 if entry.folded else entry.held - len(entry.cards),
            changed=entry.changed,
        )


class ReplayAction(Model):
    """The step that led to a frame: a draw shows how many cards were changed, the discards
    only when this viewer may see them (their own, or face up under 003)."""

    seat: int
    kind: str
    """An ``ActionKind`` value (``open``, ``call``, ``draw``, ...)."""
    amount: int | None
    cards_changed: int | None
    discards: list[str]
    split: bool
    """The opener announced a split opening (4.4)."""
    phase: str
    """The phase it was played in."""


class ReplayFrame(Model):
    """The deal after ``index`` actions (0: as dealt, the antes in the pot)."""

    index: int
    phase: str
    """The phase the deal is in now (a ``Phase`` value; ``complete`` on the last frame)."""
    action: ReplayAction | None
    """None on frame 0."""
    line: Words
    """The step in words, as the table's log says it (frame 0: who deals, what opens)."""
    pot: int
    """Every chip in the middle; on the last frame, what is carried to the next deal."""
    current_bet: int
    to_act: int | None
    opener: int | None
    seats: list[ReplaySeat]
    proof: list[str]
    """The opener's proof, public once the deal is over (3.3, 4.4)."""
    blind: bool
    """A blind has been bet: the deal needs no opening (2, blind)."""

    @classmethod
    def of(cls, frame: Frame) -> ReplayFrame:
        """A :class:`~italian_poker.table.replay_frames.Frame`."""
        action = frame.action
        return cls(
            index=frame.index,
            phase=frame.phase.value,
            action=None
            if action is None
            else ReplayAction(
                seat=action.seat,
                kind=action.kind.value,
                amount=action.amount,
                cards_changed=action.cards_changed,
                discards=card_codes(action.discards),
                split=action.split,
                phase=action.phase.value,
            ),
            line=Words.of(frame.line),
            pot=frame.pot,
            current_bet=frame.current_bet,
            to_act=frame.actor,
            opener=frame.opener,
            seats=[ReplaySeat.of(i, seat) for i, seat in enumerate(frame.seats)],
            proof=card_codes(frame.proof),
            blind=frame.blind,
        )


class ReplayStreet(Model):
    """A phase the deal went through, and its first frame."""

    phase: str
    frame: int


class ReplayAward(Model):
    """A pot awarded at the deal's end, as the table's ``result.awards`` give it (the seats
    are the deal's, as in ``frames``)."""

    amount: int
    winners: list[int]
    shares: list[int]
    """Each winner's chips, in the order of ``winners``."""
    line: Words
    """Who won it, with what and why (the report's sentence)."""

    @classmethod
    def of(cls, award: FrameAward) -> ReplayAward:
        """A :class:`~italian_poker.table.replay_frames.FrameAward`."""
        return cls(
            amount=award.amount,
            winners=list(award.winners),
            shares=list(award.shares),
            line=Words.of(award.line),
        )


class HandReplay(Model):
    """``GET /api/tables/{invite}/histories/{hand}/frames``: a finished deal step by step,
    as the token's holder may see it: their own view if they were dealt in, else what
    everyone at the table saw (no hidden card)."""

    hand: int
    you: int | None
    """The viewer's seat in the deal; None: the public view."""
    dealer: int
    requirement: Words
    """What opened the deal (3.2)."""
    streets: list[ReplayStreet]
    frames: list[ReplayFrame]
    awards: list[ReplayAward]
    """The pots awarded at the end (none after a passed deal or a parol: the last frame's
    pot is carried); the page shows them on the last frame, as the table does after a
    deal."""
    result: list[Words]
    """The result explained, a sentence a line (the table's after-deal report)."""
    download: str | None
    """The deal's hand history (``.phh``) for this viewer; None for the public view."""

    @classmethod
    def of(cls, frames: HandFrames, invite: str) -> HandReplay:
        """The replayer's answer for ``frames`` of the table at ``invite``."""
        viewer = frames.viewer if isinstance(frames.viewer, int) else None
        requirement = frames.requirement
        return cls(
            hand=frames.number,
            you=viewer,
            dealer=frames.dealer,
            requirement=Words(en=requirement.describe("en"), it=requirement.describe("it")),
            streets=[ReplayStreet(phase=p.value, frame=i) for p, i in frames.streets()],
            frames=[ReplayFrame.of(frame) for frame in frames.frames],
            awards=[ReplayAward.of(award) for award in frames.awards],
            result=[Words.of(line) for line in frames.result],
            download=None
            if viewer is None
            else f"/api/tables/{invite}/histories/{frames.number}.phh",
        )
