"""The hand history's model: one deal told completely, as its operations log records it.

A :class:`HandHistory` holds the rules, the seats and their stacks before the antes, the
dealer, what the deal inherited (carried chips, the pair needed, 5.5 make-ups, whether blinds
were allowed), every player action, the dealer's lines (every card taken: dealt, drawn, the
late fourth cards) and, for a finished deal, the result. It is read off a deal's operations
log (:func:`from_operations`); nothing is replayed to write it. A replay starts the same deal
with a :class:`~italian_poker.engine.card_source.RecordedSource` of the dealer's lines
(:meth:`HandHistory.source`). A deal dealt from a fair deck also keeps its commitment
(:attr:`HandHistory.fair`), attached by whoever knows the source.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from italian_poker.engine.actions import Action, ActionKind
from italian_poker.engine.card_source import RecordedSource
from italian_poker.engine.cards import Card, Rank
from italian_poker.engine.deal import (
    ActionRecord,
    Deal,
    DealResult,
    DealStart,
    Operation,
    Outcome,
    Phase,
    PotAward,
)
from italian_poker.engine.errors import ItalianPokerError
from italian_poker.engine.fair_source import FairDeck
from italian_poker.engine.match import CompletedDeal
from italian_poker.engine.operations import CardsDrawn, FourthCardDealt, HandsDealt, Reshuffled
from italian_poker.engine.rules import Direction, Rules

VARIANT = "ITA"
"""The PHH ``variant`` code of Italian Poker (not one of PHH's own codes: a PHH reader such as
PokerKit will not replay it)."""

FORMAT_VERSION = 2
"""``_format``: the version of the Italian extensions to PHH written by :func:`dumps`. Version
1 also recorded the whole deck order (``_deck``) and each reshuffle's order (``_reshuffles``);
version 2 records the cards taken only, in the dealer's lines."""


class HistoryError(ItalianPokerError, ValueError):
    """A hand history that cannot be read or does not replay.

    ``index`` is the 0-based position of the offending player action in
    :attr:`HandHistory.actions`, which counts player actions only (``None`` when the problem
    is not one player action, e.g. a dealer line); :func:`loads` and :func:`replay` number
    them alike, and the message starts ``action {index + 1} ({notation}):``. ``seat`` is its
    seat (``None`` if unreadable) and ``notation`` its text, e.g. ``"p2 cbr 9"``.
    """

    def __init__(
        self,
        message: str,
        *,
        index: int | None = None,
        seat: int | None = None,
        notation: str | None = None,
    ) -> None:
        if index is not None:
            message = f"action {index + 1} ({notation}): {message}"
        super().__init__(message)
        self.index = index
        self.seat = seat
        self.notation = notation


@dataclass(frozen=True, slots=True)
class HistoryAction:
    """One player action: ``seat`` (0-based) and the action. Calls carry no amount (the
    engine fills it in); ``shown`` are the cards of a show at the showdown."""

    seat: int
    action: Action
    shown: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class Dealt:
    """Cards the dealer gave a seat, after ``after`` player actions: the five-card deal (3.1),
    the cards of a draw or, when ``late``, the fourth card of a draw of four (4.2). A replay
    deals exactly these cards (:meth:`HandHistory.source`)."""

    after: int
    seat: int
    cards: tuple[Card, ...]
    late: bool = False


@dataclass(frozen=True, slots=True)
class HistoryResult:
    """How the deal ended: outcome, final stacks, pots awarded, chips carried forward."""

    outcome: Outcome
    stacks: tuple[int, ...]
    awards: tuple[PotAward, ...]
    carried: int

    @property
    def winnings(self) -> tuple[int, ...]:
        """Chips won by each seat across pots (PHH ``winnings``)."""
        won = [0] * len(self.stacks)
        for award in self.awards:
            for seat, share in zip(award.winners, award.shares, strict=True):
                won[seat] += share
        return tuple(won)


@dataclass(frozen=True, slots=True)
class HandHistory:
    """Everything needed to replay one deal exactly, and how it ended (``result`` is ``None``
    for a deal not yet over). Seats are 0-based here and ``p1``..``pN`` in the text."""

    rules: Rules
    names: tuple[str, ...]
    stacks: tuple[int, ...]
    """Stacks before the antes."""
    dealer: int
    carried: int
    min_pair: Rank
    blinds_allowed: bool
    makeups: tuple[int, ...]
    actions: tuple[HistoryAction, ...]
    result: HistoryResult | None = None
    dealt: tuple[Dealt, ...] = ()
    number: int | None = None
    phases: tuple[Phase, ...] = field(default=(), compare=False)
    """The phase of each action, when known from the deal (the text keeps them as comments
    only, so a history read back has none until it is replayed)."""
    reshuffled_after: tuple[int, ...] = field(default=(), compare=False)
    """After how many player actions each reshuffle (4.3) came, when known from the deal."""
    two_pair: bool = False
    """No single pair opened the deal: two pair or better (the ``j-q-k-two-pair`` ladder, 3.5)."""
    four_straight_flush: bool = True
    """3.3(b) opened the deal if the rules allow it (``four_straight_flush_always``)."""
    fair: FairDeck | None = None
    """The fair deck the cards came from (docs/fairness.md): the commitment, the players'
    values and, once revealed, the seed; ``None`` for a deal dealt otherwise."""

    @classmethod
    def from_deal(cls, deal: Deal, *, number: int | None = None) -> HandHistory:
        """The history of ``deal`` so far (finished or not), from its operations log."""
        return from_operations(
            deal.start,
            deal.operations,
            deal.result,
            number,
        )

    @classmethod
    def from_completed(cls, completed: CompletedDeal) -> HandHistory:
        """The history of a deal a :class:`~italian_poker.engine.match.Match` recorded."""
        return from_operations(
            completed.start,
            completed.operations,
            completed.result,
            completed.number,
        )

    def start(self) -> DealStart:
        """The :class:`DealStart` that begins this deal again (its cards: :meth:`source`)."""
        return DealStart(
            rules=self.rules,
            names=self.names,
            stacks=self.stacks,
            dealer=self.dealer,
            carried=self.carried,
            min_pair=self.min_pair,
            blinds_allowed=self.blinds_allowed,
            makeups=self.makeups,
            two_pair=self.two_pair,
            four_straight_flush=self.four_straight_flush,
        )

    def source(self) -> RecordedSource:
        """The card source that deals exactly the recorded cards (the dealer's lines): the
        first line of each seat, up to one line per seat, is the deal (3.1); the rest are
        the draws (4.1) and the late fourth cards (4.2)."""
        return RecordedSource(card_operations(self.dealt, len(self.names)))


def card_operations(
    dealt: Sequence[Dealt], players: int
) -> list[HandsDealt | CardsDrawn | FourthCardDealt]:
    """The dealer's lines as the operations that took the cards: the first ``players`` lines,
    one per seat, are the deal (3.1); each later line is a draw's cards (4.1) or, when late, a
    fourth card (4.2)."""
    if len(dealt) < players or len({d.seat for d in dealt[:players]}) != players:
        # No complete deal recorded: the lines are served as they come (a replay refuses).
        return [CardsDrawn(d.seat, d.cards) for d in dealt]
    hands: list[tuple[Card, ...]] = [()] * players
    for line in dealt[:players]:
        hands[line.seat] = line.cards
    ops: list[HandsDealt | CardsDrawn | FourthCardDealt] = [HandsDealt(tuple(hands))]
    for line in dealt[players:]:
        if line.late and len(line.cards) == 1:
            ops.append(FourthCardDealt(line.seat, line.cards[0]))
        else:
            ops.append(CardsDrawn(line.seat, line.cards))
    return ops


def from_operations(
    start: DealStart,
    operations: Sequence[Operation],
    result: DealResult | None,
    number: int | None,
) -> HandHistory:
    """The history of a deal read off its operations log (engine/operations.py): the dealer's
    lines from the cards dealt and drawn, each action with its phase (a show names the cards
    held), the reshuffle points. Nothing is replayed."""
    n = len(start.names)
    step = 1 if start.rules.direction is Direction.CLOCKWISE else -1
    from_left = [(start.dealer + step * (k + 1)) % n for k in range(n)]
    hands: list[list[Card]] = [[] for _ in range(n)]
    actions: list[HistoryAction] = []
    phases: list[Phase] = []
    dealt: list[Dealt] = []
    reshuffled_after: list[int] = []
    for op in operations:
        if isinstance(op, ActionRecord):
            action = op.action
            shown: tuple[Card, ...] = ()
            if action.kind is ActionKind.CALL:
                action = Action(ActionKind.CALL)  # the text leaves the amount to the engine
            elif action.kind is ActionKind.SHOW:
                shown = tuple(hands[op.seat])
            elif action.kind is ActionKind.DRAW:
                for card in action.cards:
                    hands[op.seat].remove(card)
            actions.append(HistoryAction(op.seat, action, shown))
            phases.append(op.phase)
        elif isinstance(op, HandsDealt | CardsDrawn | FourthCardDealt):
            for line in dealer_lines(op, len(actions), from_left):
                hands[line.seat].extend(line.cards)
                dealt.append(line)
        elif isinstance(op, Reshuffled):
            reshuffled_after.append(len(actions))
    return HandHistory(
        rules=start.rules,
        names=start.names,
        stacks=start.stacks,
        dealer=start.dealer,
        carried=start.carried,
        min_pair=start.min_pair or start.rules.min_pair,
        blinds_allowed=start.blinds_allowed,
        makeups=start.makeups or (0,) * n,
        actions=tuple(actions),
        result=None if result is None else result_of(result),
        dealt=tuple(dealt),
        number=number,
        phases=tuple(phases),
        reshuffled_after=tuple(reshuffled_after),
        two_pair=start.two_pair,
        four_straight_flush=start.four_straight_flush,
    )


def dealer_lines(
    op: HandsDealt | CardsDrawn | FourthCardDealt, after: int, from_left: Sequence[int]
) -> tuple[Dealt, ...]:
    """The dealer's lines of one dealing operation, after ``after`` player actions: the five
    cards of each seat from the dealer's left (3.1, ``from_left``), the cards of a draw
    (4.1) or the late fourth card (4.2). The cards are the operation's own, whatever the
    seat held or discarded before."""
    if isinstance(op, HandsDealt):
        return tuple(Dealt(after, seat, op.hands[seat]) for seat in from_left)
    if isinstance(op, CardsDrawn):
        return (Dealt(after, op.seat, op.cards),)
    return (Dealt(after, op.seat, (op.card,), late=True),)


def result_of(result: DealResult) -> HistoryResult:
    """What a history keeps of a deal's result."""
    return HistoryResult(result.outcome, result.stacks, result.awards, result.carried)
