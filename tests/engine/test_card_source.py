"""The card sources (engine/card_source.py): every card a deal takes comes through one step,
chance, and each source serves it as it says; a recorded source refuses cards that are not
available before any is dealt."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from italian_poker import (
    CHANCE,
    Action,
    ActionKind,
    CardsDue,
    CardSourceError,
    Deal,
    DealStart,
    Deck,
    RecordedSource,
    Rules,
    SecureSource,
    SeededSource,
    StackedSource,
    Why,
)
from italian_poker.engine.operations import CardsDrawn, FourthCardDealt, HandsDealt

NO_BLINDS = Rules(blind_allowed=False, controbuio_allowed=False, over_allowed=False)


def play_out(deal: Deal, rng: random.Random) -> Deal:
    """Random legal actions to the end, heavy draws included (4.1-4.3)."""
    while deal.actor is not None:
        legal = deal.legal_actions()
        option = rng.choice(legal)
        if option.kind is ActionKind.DRAW:
            hand = deal.hands[deal.actor]
            action = Action(ActionKind.DRAW, cards=tuple(hand[: rng.choice((0, 3, 4, 4))]))
            if not deal.can(action):
                action = Action(ActionKind.DRAW)
        elif option.min_amount is not None and option.kind is not ActionKind.CALL:
            action = Action(option.kind, option.min_amount)
        else:
            action = Action(option.kind)
        deal.apply(action)
    return deal


def deck_due(players: int) -> CardsDue:
    deck = Deck(players).cards
    seats = tuple((1 + k) % players for k in range(players))
    return CardsDue(Why.DEAL, seats, 5 * players, deck)


def test_each_source_serves_the_number_due_from_the_candidates() -> None:
    due = deck_due(4)
    for source in (SecureSource(), SeededSource(5), StackedSource(reversed(due.candidates))):
        cards = source.take(due)
        assert cards is not None and len(set(cards)) == 20 and set(cards) <= set(due.candidates)
    assert CHANCE.take(due) is None


def test_a_seeded_source_serves_the_same_cards_for_the_same_seed() -> None:
    assert SeededSource(9).take(deck_due(5)) == SeededSource(9).take(deck_due(5))
    assert SeededSource(9).take(deck_due(5)) != SeededSource(10).take(deck_due(5))


def test_a_stacked_source_serves_the_first_candidates_and_then_its_follower() -> None:
    deck = Deck(2).cards
    source = StackedSource(deck[:3])
    due = CardsDue(Why.DRAW, (0,), 2, (deck[1], deck[2], deck[5]))
    assert source.take(due) == (deck[1], deck[2])
    assert source.cards == (deck[0],)
    with pytest.raises(CardSourceError, match="stack more"):
        source.take(due)
    assert StackedSource((), then=StackedSource((deck[5],))).take(
        CardsDue(Why.DRAW, (0,), 1, (deck[5],))
    ) == (deck[5],)


def test_a_recorded_source_refuses_a_card_not_available_and_keeps_its_record() -> None:
    deck = Deck(2).cards
    source = RecordedSource([CardsDrawn(0, (deck[0], deck[1]))])
    due = CardsDue(Why.DRAW, (0,), 2, deck[1:])
    with pytest.raises(CardSourceError, match="not available"):
        source.take(due)
    with pytest.raises(CardSourceError, match="seat 0"):
        source.take(CardsDue(Why.DRAW, (1,), 2, deck))
    assert source.pending == (CardsDrawn(0, (deck[0], deck[1])),)
    assert source.take(CardsDue(Why.DRAW, (0,), 1, deck)) == (deck[0],)  # a part, then the rest
    assert source.take(CardsDue(Why.DRAW, (0,), 1, deck)) == (deck[1],)
    with pytest.raises(CardSourceError, match="no more recorded cards"):
        source.take(due)
    assert RecordedSource([], then=StackedSource(deck)).take(due) == deck[1:3]


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 9), st.integers(0, 10**6))
def test_a_deal_replays_from_its_operations_log(players: int, seed: int) -> None:
    """Any deal, reshuffles (4.3) and late fourth cards (4.2) included, started again with a
    RecordedSource of its operations and given the same actions, takes the same cards."""
    start = DealStart(NO_BLINDS, tuple(f"P{i}" for i in range(players)), (200,) * players)
    played = play_out(Deal(start, SeededSource(seed)), random.Random(seed))
    again = Deal(start, RecordedSource(played.operations))
    for record in played.actions:
        again.apply(record.action, record.seat)
    assert again.operations == played.operations and again.hands == played.hands
    taken = [op for op in played.operations if isinstance(op, HandsDealt | CardsDrawn)]
    assert taken and isinstance(taken[0], HandsDealt)


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 9), st.integers(0, 10**6))
def test_a_deal_dealt_by_hand_is_the_deal_its_source_deals(players: int, seed: int) -> None:
    """One mechanism: a deal without a source, given each due's cards by the same seeded
    source, is the deal that source deals itself."""
    start = DealStart(NO_BLINDS, tuple(f"P{i}" for i in range(players)), (200,) * players)
    itself = play_out(Deal(start, SeededSource(seed)), random.Random(seed))
    by_hand = Deal(start, CHANCE)
    source = SeededSource(seed)
    while not by_hand.is_over:
        due = by_hand.cards_due()
        if due is not None:
            cards = source.take(due)
            assert cards is not None
            by_hand.deal_cards(cards)
            continue
        index = len(by_hand.actions)
        by_hand.apply(itself.actions[index].action, itself.actions[index].seat)
    assert by_hand.operations == itself.operations


def test_the_fourth_card_comes_last_and_is_logged_as_such() -> None:
    """4.2: a draw of four is served three cards, the fourth after everyone else drew."""
    rng = random.Random(1)
    for seed in range(40):
        start = DealStart(NO_BLINDS, ("a", "b", "c"), (200,) * 3)
        deal = play_out(Deal(start, SeededSource(seed)), rng)
        fourth = [op for op in deal.operations if isinstance(op, FourthCardDealt)]
        if fourth:
            draws = [i for i, op in enumerate(deal.operations) if isinstance(op, CardsDrawn)]
            assert deal.operations.index(fourth[0]) > max(draws)
            return
    raise AssertionError("no draw of four in 40 deals")


@pytest.mark.parametrize("seed", range(6))
def test_legal_actions_asked_while_cards_are_due_are_offered_again_once_dealt(seed: int) -> None:
    """While the deal waits for cards nobody may act (``legal_actions()`` is empty); once they
    are dealt (3.1, 4.1), the seat to act is offered what it may do, as with a source."""
    start = DealStart(Rules(), ("a", "b", "c", "d"), (200,) * 4)
    itself = play_out(Deal(start, SeededSource(seed)), random.Random(seed))
    by_hand = Deal(start, CHANCE)
    source = SeededSource(seed)
    waits = 0
    while not by_hand.is_over:
        due = by_hand.cards_due()
        if due is not None:
            assert by_hand.actor is None and by_hand.legal_actions() == ()
            cards = source.take(due)
            assert cards is not None
            by_hand.deal_cards(cards)
            waits += 1
            continue
        assert by_hand.legal_actions() != ()
        index = len(by_hand.actions)
        by_hand.apply(itself.actions[index].action, itself.actions[index].seat)
    assert waits >= 1 and by_hand.operations == itself.operations
