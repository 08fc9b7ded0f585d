"""Deal.restack and Deal.deck_cards_taken: a deck stacked further as its cards are revealed
(the OpenSpiel game's chance), and how many cards of the stock a draw takes (4.1-4.3)."""

from __future__ import annotations

import random

import pytest

from italian_poker.engine.actions import Action, ActionKind
from italian_poker.engine.deal import Deal, DealStart, Phase
from italian_poker.engine.errors import SeatError
from italian_poker.engine.rules import Rules


def _start(players: int, seed: int) -> DealStart:
    names = tuple(f"P{p}" for p in range(players))
    return DealStart(Rules(players=players), names, (500,) * players, seed=seed)


def _play(deal: Deal, rng: random.Random) -> None:
    """One random action of the seat to act (a draw of 0 to 4 cards, no split)."""
    legal = deal.legal_actions()
    offer = rng.choice(legal)
    hand = deal.hands[deal.actor] if deal.actor is not None else []
    if offer.kind is ActionKind.DRAW:
        cards = tuple(rng.sample(hand, rng.randint(0, 4)))
        action = Action(ActionKind.DRAW, cards=cards)
        if not deal.can(action):
            action = Action(ActionKind.DRAW)
    elif offer.min_amount is not None and offer.kind is not ActionKind.CALL:
        action = Action(offer.kind, offer.min_amount)
    else:
        action = Action(offer.kind)
    deal.apply(action)


@pytest.mark.parametrize("players", [2, 4, 6, 9])
def test_deck_cards_taken_is_what_a_draw_takes_from_the_stock(players: int) -> None:
    rng = random.Random(players)
    checked = unknown = 0
    for seed in range(150):
        deal = Deal(_start(players, seed))
        while deal.phase is not Phase.COMPLETE:
            if deal.phase is Phase.DRAW:
                stock = len(deal.stock)
                hand = deal.hands[deal.actor] if deal.actor is not None else []
                cards = tuple(rng.sample(hand, rng.randint(0, 4)))
                action = Action(ActionKind.DRAW, cards=cards)
                if not deal.can(action):
                    continue  # an opener's breaking draw: not a plain one
                taken = deal.deck_cards_taken(action)
                reshuffles = len(deal.reshuffles)
                deal.apply(action)
                if taken is None:
                    unknown += 1
                else:
                    # 4.1, 4.2: served from the top of the stock, no reshuffle (4.3).
                    assert stock - len(deal.stock) == taken
                    assert len(deal.reshuffles) == reshuffles
                    checked += 1
            else:
                _play(deal, rng)
    assert checked > 50
    if players == 9:
        assert unknown > 0  # 7 cards in the stock: reshuffles happen


def test_a_restacked_deal_is_the_deal_stacked_so_from_the_start() -> None:
    rng = random.Random(7)
    for seed in range(40):
        deal = Deal(_start(4, seed))
        top = rng.sample(deal.stock, 20)
        deal.restack(top)
        assert deal.stock[:20] == top
        stacked = Deal(DealStart(**{**_fields(_start(4, seed)), "deck": deal.deck_order}))
        actions = random.Random(seed)
        while deal.phase is not Phase.COMPLETE:
            if deal.phase is Phase.DRAW and deal.draw.reshuffles == [] and deal.stock:
                later = rng.sample(deal.stock, min(3, len(deal.stock)))
                deal.restack(later)
                stacked = Deal(DealStart(**{**_fields(_start(4, seed)), "deck": deal.deck_order}))
                for record in deal.actions:
                    stacked.apply(record.action)
            state = actions.getstate()
            _play(deal, actions)
            actions.setstate(state)
            _play(stacked, actions)
            assert stacked.hands == deal.hands and stacked.stock == deal.stock
        assert stacked.operations == deal.operations


def test_restack_refuses_cards_not_in_the_stock() -> None:
    deal = Deal(_start(4, 1))
    while deal.phase is not Phase.OPENING and deal.phase is not Phase.FIRST_ROUND:
        deal.apply(Action(ActionKind.DECLINE))
    before = (list(deal.stock), deal.deck_order)
    with pytest.raises(SeatError):
        deal.restack([deal.hands[0][0]])  # a card already dealt
    with pytest.raises(SeatError):
        deal.restack([deal.stock[0], deal.stock[0]])
    assert (deal.stock, deal.deck_order) == before


def _fields(start: DealStart) -> dict[str, object]:
    return {name: getattr(start, name) for name in DealStart.__slots__}
