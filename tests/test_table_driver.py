"""The table driver (table/driver.py): a match played by people and policies, with typed events
that carry the slice of the operations log each step made, and one default action for a
player whose time ran out or whose policy answered illegally."""

from __future__ import annotations

import random

import pytest
from engine_helpers import new_match, parol_deal, rules, snapshot, stacked_deck

from italian_poker import (
    Action,
    ActionKind,
    LegalAction,
    Match,
    MatchPhase,
    NotYourTurnError,
    SeatView,
)
from italian_poker.analysis.bots import make_bot
from italian_poker.engine.observer import PUBLIC, PublicAction, Unseen, observe_operations
from italian_poker.engine.operations import CardsDrawn, FourthCardDealt, HandsDealt, Reshuffled
from italian_poker.table.driver import (
    ActionTaken,
    DealFinished,
    DealStarted,
    DefaultReason,
    MakeUpAnswered,
    MakeUpAsked,
    NoDeal,
    Table,
    default_action,
)

K = ActionKind


class Always:
    """A policy that always answers the same action."""

    def __init__(self, action: Action) -> None:
        self.action = action

    def act(self, view: SeatView) -> Action:
        return self.action


@pytest.mark.parametrize(
    ("kinds", "expected"),
    [
        ((K.FOLD, K.CALL, K.RAISE), Action(K.FOLD)),
        ((K.BET, K.CHECK, K.PAROL), Action(K.CHECK)),
        ((K.PASS, K.OPEN), Action(K.PASS)),
        ((K.BLIND, K.DECLINE), Action(K.DECLINE)),
        ((K.DRAW,), Action(K.DRAW)),
        ((K.SHOW, K.MUCK), Action(K.SHOW)),  # cards speak: a hand that may win is shown
        ((K.MAKE_UP, K.SIT_OUT), Action(K.SIT_OUT)),
    ],
)
def test_default_action_costs_nothing_and_keeps_what_is_free(
    kinds: tuple[ActionKind, ...], expected: Action
) -> None:
    legal = tuple(
        LegalAction(kind, 2, 2) if kind is K.CALL else LegalAction(kind) for kind in kinds
    )
    assert default_action(legal) == expected


def test_default_action_needs_something_to_fall_back_on() -> None:
    with pytest.raises(ValueError):
        default_action(())


def test_a_match_played_by_policies_reports_every_operation_once() -> None:
    """Bots play whole deals: the events' operations, joined, are each deal's log."""
    match = Match(rules(), [(f"P{i}", 60) for i in range(4)], seed=5)
    table = Table(match, {f"P{i}": make_bot("simple", seed=i) for i in range(4)})
    for _ in range(6):
        events = table.start_deal()
        events += table.play_policies()
        assert isinstance(events[0], DealStarted)
        assert isinstance(events[-1], DealFinished)
        deal = match.deal
        assert deal is not None
        logged = []
        for event in events:
            if isinstance(event, DealStarted | ActionTaken):
                logged.extend(event.operations)
        assert logged == deal.operations
        taken = [e for e in events if isinstance(e, ActionTaken)]
        assert [e.record for e in taken] == deal.actions
        assert all(e.default is None for e in taken)


def test_a_person_acts_in_turn_and_an_illegal_action_changes_nothing() -> None:
    match = new_match(rules())
    table = Table(match, {"P2": Always(Action(K.PASS)), "P3": Always(Action(K.PASS))})
    table.start_deal(deck=stacked_deck(4, {1: "Jh Jc 7d 8s Ac"}))
    assert table.actor == "P1" and not table.policy_to_act
    before = snapshot(match)
    with pytest.raises(NotYourTurnError):
        table.act("P0", Action(K.PASS))
    with pytest.raises(NotYourTurnError):
        table.step()  # a person is to act
    assert snapshot(match) == before
    (event,) = table.act("P1", Action(K.OPEN, 2))
    assert isinstance(event, ActionTaken) and event.seat == 1 and event.action.amount == 2
    events = table.play_policies()
    assert [e.player for e in events if isinstance(e, ActionTaken)] == ["P2", "P3"]
    assert table.actor == "P0"


def test_an_illegal_policy_answer_is_replaced_by_the_default_and_reported() -> None:
    match = new_match(rules())
    table = Table(match, {f"P{i}": Always(Action(K.RAISE, 999)) for i in range(4)})
    table.start_deal(deck=stacked_deck(4, {1: "Jh Jc 7d 8s Ac"}))
    (event,) = table.step()
    assert isinstance(event, ActionTaken)
    assert event.default is DefaultReason.ILLEGAL and event.action == Action(K.PASS)
    assert event.refused is not None and event.refused.startswith("raise 999")


def test_a_timeout_plays_the_default_action() -> None:
    match = new_match(rules())
    table = Table(match)
    table.start_deal(deck=stacked_deck(4, {1: "Jh Jc 7d 8s Ac"}))
    (event,) = table.play_default()
    assert isinstance(event, ActionTaken)
    assert event.default is DefaultReason.TIMEOUT and event.action == Action(K.PASS)


def test_make_up_questions_and_answers_are_events() -> None:
    """5.5: the table asks each first-round folder in turn, then deals."""
    match = new_match(rules())
    parol_deal(match)
    table = Table(match, {"P0": Always(Action(K.MAKE_UP))})
    events = table.start_deal(seed=2)
    assert events == [MakeUpAsked("P3", 2)]
    events = table.act("P3", Action(K.SIT_OUT))
    assert events == [MakeUpAnswered("P3", Action(K.SIT_OUT)), MakeUpAsked("P0", 2)]
    events = table.step()
    assert events[0] == MakeUpAnswered("P0", Action(K.MAKE_UP, 2))
    assert isinstance(events[1], DealStarted) and events[1].start.makeups == (2, 0, 0)


def test_answers_that_leave_too_few_players_report_no_deal() -> None:
    match = new_match(rules())
    parol_deal(match)
    match.sit_out("P2")
    table = Table(match, {"P3": Always(Action(K.SIT_OUT)), "P0": Always(Action(K.SIT_OUT))})
    table.start_deal(seed=2)
    events = table.play_policies()
    assert events[-1] == NoDeal(match.carried) and match.phase is MatchPhase.BETWEEN_DEALS


def test_what_a_spectator_gets_from_the_events_holds_no_hidden_card() -> None:
    """Every operation of every event, the deal starts included (they carry the hands dealt,
    3.1), seen by the public, holds no hidden card: each hand dealt is empty, the cards served
    at the draw (4.1, 4.2) and each reshuffle (4.3) are unseen, and no discard is face up
    (000: the discards are not shown)."""
    rng = random.Random(3)
    match = Match(rules(), [(f"P{i}", 60) for i in range(4)], seed=9)
    table = Table(match, {f"P{i}": make_bot("random", seed=rng.randrange(99)) for i in range(4)})
    seen: list[object] = []
    for _ in range(6):
        events = table.start_deal() + table.play_policies()
        for event in events:
            if isinstance(event, DealStarted | ActionTaken):
                seen.extend(observe_operations(event.operations, PUBLIC, match.rules))
    dealt = [op for op in seen if isinstance(op, HandsDealt)]
    assert len(dealt) == 6
    assert all(hand == () for op in dealt for hand in op.hands)
    assert not [op for op in seen if isinstance(op, CardsDrawn | FourthCardDealt | Reshuffled)]
    served = [op for op in seen if isinstance(op, Unseen)]
    assert any(op.seat is not None for op in served)  # a draw was played
    draws = [op for op in seen if isinstance(op, PublicAction) and op.kind is K.DRAW]
    assert draws and all(op.discards == () for op in draws)
