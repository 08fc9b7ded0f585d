"""Replaying a hand history: the check that it is legal and comes out as recorded.

:func:`replay` starts the :class:`~italian_poker.engine.deal.Deal` of a
:class:`~italian_poker.engine.history.model.HandHistory` again with a
:class:`~italian_poker.engine.card_source.RecordedSource` of its dealer's lines, re-applies
every action and checks when the cards were dealt and the result. Writing a
history never needs it; reading one from text calls it to verify.
"""

from __future__ import annotations

from collections.abc import Sequence

from italian_poker.engine.actions import ActionKind
from italian_poker.engine.cards import Card, format_cards
from italian_poker.engine.deal import Deal, Phase, PotAward
from italian_poker.engine.errors import ItalianPokerError
from italian_poker.engine.history.model import (
    Dealt,
    HandHistory,
    HistoryError,
    HistoryResult,
    dealer_lines,
    result_of,
)
from italian_poker.engine.history.notation import action_notation
from italian_poker.engine.operations import CardsDrawn, FourthCardDealt, HandsDealt
from italian_poker.engine.wording import count


def replay(history: HandHistory) -> Deal:
    """Start the deal again with the recorded cards, re-apply every action and check the
    recorded dealing and result. Raises :class:`HistoryError` naming the offending
    action (an illegal or tampered one) or the result that differs."""
    deal, dealt = _run(history)
    if not any(d.after == 0 for d in history.dealt):
        # Histories written before the deal at the start got its dealer lines (no blinds
        # offered, 3.1) are read as they were written.
        dealt = tuple(d for d in dealt if d.after > 0)
    if history.dealt and _dealt_key(dealt) != _dealt_key(history.dealt):
        for i, (recorded, actual) in enumerate(zip(history.dealt, dealt, strict=False)):
            if _dealt_key((recorded,)) != _dealt_key((actual,)):
                raise HistoryError(
                    f"dealer line {i + 1} gives p{recorded.seat + 1} "
                    f"{format_cards(recorded.cards)} {_after(recorded.after)}, but the deal "
                    f"deals p{actual.seat + 1} {format_cards(actual.cards)} "
                    f"{_after(actual.after)}"
                )
        raise HistoryError(
            f"the history records {count(len(history.dealt), 'dealer line')}, "
            f"the deal deals {len(dealt)}"
        )
    if history.result is not None:
        if deal.result is None:
            raise HistoryError("the history records a result, but the deal is not over")
        _check_result(history.result, result_of(deal.result), history.names)
    return deal


def _after(actions: int) -> str:
    """When a dealer line comes: ``after action K`` (player actions counted from 1)."""
    return f"after action {actions}" if actions else "before any action"


def _dealt_key(dealt: Sequence[Dealt]) -> list[tuple[int, int, tuple[Card, ...]]]:
    """What a replay checks of the dealer lines (``late`` is only a comment)."""
    return [(d.after, d.seat, d.cards) for d in dealt]


def _run(history: HandHistory) -> tuple[Deal, tuple[Dealt, ...]]:
    """Replay the actions, collecting the cards dealt after each step."""
    try:
        deal = Deal(history.start(), history.source())
    except ItalianPokerError as error:
        raise HistoryError(f"the deal cannot start: {error}") from None
    from_left = deal.order_from(deal.next_seat(deal.dealer))
    dealt: list[Dealt] = []
    # Without blinds to bet first (Art. 2) the five cards are dealt as the deal starts (3.1).
    logged = _collect_dealt(deal, 0, 0, from_left, dealt)
    for i, entry in enumerate(history.actions):
        notation = action_notation(entry)
        if deal.is_over:
            raise HistoryError(
                "the deal is already over", index=i, seat=entry.seat, notation=notation
            )
        if entry.seat != deal.actor:
            actor = deal.actor
            raise HistoryError(
                f"it is p{(actor or 0) + 1}'s turn ({deal.names[actor or 0]}), "
                f"not p{entry.seat + 1}'s",
                index=i,
                seat=entry.seat,
                notation=notation,
            )
        if entry.action.kind is ActionKind.SHOW and _indices(entry.shown) != _indices(
            deal.hands[entry.seat]
        ):
            raise HistoryError(
                f"p{entry.seat + 1} holds {format_cards(deal.hands[entry.seat])}, "
                f"not {format_cards(entry.shown)}",
                index=i,
                seat=entry.seat,
                notation=notation,
            )
        if entry.shown and entry.action.kind is not ActionKind.SHOW:
            raise HistoryError(
                "only a show names cards", index=i, seat=entry.seat, notation=notation
            )
        try:
            deal.apply(entry.action, seat=entry.seat)
        except ItalianPokerError as error:
            raise HistoryError(str(error), index=i, seat=entry.seat, notation=notation) from None
        logged = _collect_dealt(deal, logged, i + 1, from_left, dealt)
    return deal, tuple(dealt)


def _indices(cards: Sequence[Card]) -> list[int]:
    return sorted(c.index for c in cards)


def _collect_dealt(
    deal: Deal, logged: int, after: int, from_left: Sequence[int], out: list[Dealt]
) -> int:
    """Add to ``out`` the dealer's lines of the operations ``deal`` logged from position
    ``logged`` on, after ``after`` player actions; return the length of the log read."""
    operations = deal.operations
    for op in operations[logged:]:
        if isinstance(op, HandsDealt | CardsDrawn | FourthCardDealt):
            out.extend(dealer_lines(op, after, from_left))
    return len(operations)


def _check_result(recorded: HistoryResult, actual: HistoryResult, names: Sequence[str]) -> None:
    if recorded.outcome is not actual.outcome:
        raise HistoryError(
            f"the recorded outcome is {recorded.outcome.value}, the replay gives "
            f"{actual.outcome.value}"
        )
    if recorded.stacks != actual.stacks:
        diffs = ", ".join(
            f"p{s + 1} ({names[s]}) {a} not {b}"
            for s, (a, b) in enumerate(zip(actual.stacks, recorded.stacks, strict=True))
            if a != b
        )
        raise HistoryError(f"the recorded final stacks differ from the replay: {diffs}")
    if recorded.carried != actual.carried:
        raise HistoryError(
            f"the recorded carried pot is {recorded.carried}, the replay gives {actual.carried}"
        )
    key = [(a.amount, a.eligible, a.winners, a.shares) for a in recorded.awards]
    real = [(a.amount, a.eligible, a.winners, a.shares) for a in actual.awards]
    if key != real:
        raise HistoryError(
            f"the recorded pot awards differ from the replay: recorded "
            f"{_awards_text(recorded.awards)}, replay {_awards_text(actual.awards)}"
        )


def _awards_text(awards: Sequence[PotAward]) -> str:
    if not awards:
        return "none"
    return "; ".join(
        f"{a.amount} to "
        + ", ".join(f"p{w + 1} {s}" for w, s in zip(a.winners, a.shares, strict=True))
        for a in awards
    )


def phases_of(history: HandHistory) -> list[Phase]:
    """The phase of each action: recorded from the deal, or (a history read from text, where
    the phase is only a comment) by a replay."""
    if len(history.phases) == len(history.actions):
        return list(history.phases)
    phases: list[Phase] = []
    try:
        deal = Deal(history.start(), history.source())
        for entry in history.actions:
            phases.append(deal.phase)
            deal.apply(entry.action, seat=entry.seat)
        return phases
    except ItalianPokerError:
        return phases + [Phase.COMPLETE] * (len(history.actions) - len(phases))


def reshuffle_points(history: HandHistory) -> set[int]:
    """After how many player actions each reshuffle (4.3) came: recorded from the deal, or
    (a history read from text, where they are only comments) by a replay."""
    if len(history.phases) == len(history.actions):
        return set(history.reshuffled_after)
    positions: set[int] = set()
    try:
        deal = Deal(history.start(), history.source())
        for i, entry in enumerate(history.actions):
            count = len(deal.reshuffles)
            deal.apply(entry.action, seat=entry.seat)
            if len(deal.reshuffles) > count:
                positions.add(i + 1)
    except ItalianPokerError:
        pass
    return positions
