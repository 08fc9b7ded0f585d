"""The operations log (engine/operations.py): every change a deal makes, in order. From the log
alone one can tell each player's cards at every moment, every chip moved, and the end."""

from __future__ import annotations

import random

import pytest
from engine_helpers import apply_random, cards, new_deal, play, rules

from italian_poker import (
    PRESETS,
    Action,
    ActionKind,
    ActionRecord,
    Deal,
    DealResult,
    DealStart,
    Match,
    MatchPhase,
    Outcome,
    PotAward,
    preset,
)
from italian_poker.engine.actions import call, draw, fold, open_
from italian_poker.engine.card_source import SeededSource
from italian_poker.engine.operations import (
    AntesPaid,
    AntesReturned,
    CardsDrawn,
    FourthCardDealt,
    HandsDealt,
    Reshuffled,
)


def hands_from_operations(deal: Deal) -> list[list[object]]:
    """Each seat's hand rebuilt from the log: dealt, less discards, plus cards drawn."""
    hands: list[list[object]] = [[] for _ in range(deal.n)]
    for op in deal.operations:
        if isinstance(op, HandsDealt):
            hands = [list(hand) for hand in op.hands]
        elif isinstance(op, ActionRecord) and op.action.cards:
            for card in op.action.cards:
                hands[op.seat].remove(card)
        elif isinstance(op, CardsDrawn):
            hands[op.seat].extend(op.cards)
        elif isinstance(op, FourthCardDealt):
            hands[op.seat].append(op.card)
    return hands


def test_a_full_deal_logs_antes_cards_actions_draws_awards_and_the_end() -> None:
    deal = new_deal(rules(), {1: "Jh Jc 7d 8s Ac", 2: "7s 9c Jd Kh Ad"}, stock="Js Ah 9d")
    play(deal, (1, open_(2)), (2, call()), (3, fold()), (0, fold()))
    play(deal, (1, draw(*cards("7d 8s Ac"))), (2, draw()))
    kinds = [type(op).__name__ for op in deal.operations]
    assert kinds[:2] == ["AntesPaid", "HandsDealt"]
    assert kinds[2:6] == ["ActionRecord"] * 4
    assert kinds[6:9] == ["ActionRecord", "CardsDrawn", "ActionRecord"]
    drawn = deal.operations[7]
    assert isinstance(drawn, CardsDrawn) and drawn.seat == 1 and drawn.cards == cards("Js Ah 9d")
    finish(deal)
    assert isinstance(deal.operations[-1], DealResult)
    assert isinstance(deal.operations[-2], PotAward)
    assert deal.operations[0] == AntesPaid((1, 1, 1, 1), (0, 0, 0, 0))


def finish(deal: Deal) -> None:
    """Check, call or show until the deal ends."""
    while deal.actor is not None:
        kinds = {la.kind for la in deal.legal_actions()}
        kind = next(k for k in (ActionKind.CHECK, ActionKind.CALL, ActionKind.SHOW) if k in kinds)
        deal.apply(Action(kind))


def test_the_late_fourth_card_is_logged_after_everyone_has_drawn() -> None:
    """4.2: a draw of four logs three cards at once and the fourth after the other draws."""
    deal = new_deal(rules(), {1: "Jh Jc 7d 8s Ac", 2: "7s 9c Jd Kh Ad"})
    play(deal, (1, open_(2)), (2, call()), (3, fold()), (0, fold()))
    play(deal, (1, draw()), (2, draw(*cards("7s 9c Jd Kh"))))
    tail = deal.operations[-3:]
    assert isinstance(tail[0], ActionRecord)
    assert isinstance(tail[1], CardsDrawn) and len(tail[1].cards) == 3
    assert isinstance(tail[2], FourthCardDealt) and tail[2].seat == 2
    assert hands_from_operations(deal)[2] == deal.hands[2]


def test_003_antes_handed_back_are_logged() -> None:
    table = preset("003", blind_allowed=False)
    deal = Deal(DealStart(table, ("a", "b", "c", "d"), (20,) * 4), SeededSource(4))
    while deal.actor is not None:
        deal.apply(Action(ActionKind.PASS))
    assert deal.result is not None and deal.result.outcome is Outcome.PASSED
    returned = [op for op in deal.operations if isinstance(op, AntesReturned)]
    assert returned and returned[0].amounts == deal.result.returned


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("players", [2, 4, 6, 9])
def test_random_deals_the_log_accounts_for_every_card_and_chip(name: str, players: int) -> None:
    """In random play: the log's hands are the deal's hands at every step; every chip put in
    (antes, make-ups, bets) is awarded, carried or handed back; reshuffles are the deal's."""
    rng = random.Random(players * 31 + len(name))
    table = preset(name, players=players)
    match = Match(table, [(f"P{i}", 60) for i in range(players)], seed=rng.randrange(10**6))
    for _ in range(12):
        if match.phase is MatchPhase.OVER:
            break
        match.start_deal()
        while match.actor is not None:
            if match.phase is MatchPhase.IN_DEAL:
                assert match.deal is not None
                deal = match.deal
                live = [s for s in range(deal.n) if not deal.folded[s]]
                rebuilt = hands_from_operations(deal)
                for seat in live:
                    assert rebuilt[seat] == deal.hands[seat]
            if match.phase is MatchPhase.MAKE_UP:
                match.apply(Action(ActionKind.MAKE_UP))
                continue
            apply_random(match, rng)
        if match.deal is None or match.deal.result is None:
            continue
        deal = match.deal
        ops = deal.operations
        start = deal.start
        (paid,) = [op for op in ops if isinstance(op, AntesPaid)]
        antes = [table.ante] * deal.n
        antes[deal.dealer] += table.dealer_ante
        assert paid == AntesPaid(tuple(antes), start.makeups or (0,) * deal.n)
        result = ops[-1]
        assert isinstance(result, DealResult)
        awards = [op for op in ops if isinstance(op, PotAward)]
        assert tuple(awards) == result.awards
        assert sum(award.amount for award in awards) == sum(result.winnings.values())
        # Every chip is in a stack or carried, before and after.
        assert sum(start.stacks) + start.carried == sum(result.stacks) + result.carried
        assert tuple(op.cards for op in ops if isinstance(op, Reshuffled)) == tuple(deal.reshuffles)
        assert [op for op in ops if isinstance(op, ActionRecord)] == deal.actions
        assert match.completed[-1].operations == tuple(ops)
