"""Mucking at the showdown (002: "if their hands are losing hands, they don't have to show")
with the cyclic straight flush (7.2: the minimum beats the maximum; 7.3: a minimum, a medium
and a maximum in one showdown split the pot): a hand may be mucked only when it can win nothing
whatever the hands still to show turn out to be, judged from the hands shown alone."""

from __future__ import annotations

import pytest
from engine_helpers import kinds, new_deal, play, rules
from hypothesis import given, settings
from hypothesis import strategies as st

from italian_poker import ActionKind, ActionNotAvailableError, Deal, Phase
from italian_poker.engine.actions import Action, call, check, draw, fold, open_
from italian_poker.engine.hand_rank import best_ranks, evaluate

SHOW, MUCK = Action(ActionKind.SHOW), Action(ActionKind.MUCK)
BOTH = {ActionKind.SHOW, ActionKind.MUCK}

# Four players: the deck runs 7..A (section 1).
SF_MIN = "As 7s 8s 9s Ts"  # 7.1(a): the minimum (ace low)
SF_MED = "8h 9h Th Jh Qh"  # 7.1(c): a medium, queen high
SF_MED_KING = "9c Tc Jc Qc Kc"  # 7.1(c): a medium, king high
SF_MAX = "Td Jd Qd Kd Ad"  # 7.1(b): the maximum
KINGS = "Kh Ks 7c 8c 9d"  # a pair of kings: no straight flush
NOTHING = "7h Js Qs Ac 8d"  # the dealer's, who folds


def at_the_showdown(hands: dict[int, str]) -> Deal:
    """Seats 1, 2 and 3 hold ``hands``; seat 1 opens, 2 and 3 call, the dealer (0) folds;
    everyone stands pat and checks: they show in the order 1, 2, 3 (002)."""
    deal = new_deal(rules(), {**hands, 0: NOTHING})
    play(deal, (1, open_(2)), (2, call()), (3, call()), (0, fold()))
    play(deal, (1, draw()), (2, draw()), (3, draw()))
    play(deal, (1, check()), (2, check()), (3, check()))
    assert deal.phase is Phase.SHOWDOWN and deal.showdown_order == [1, 2, 3]
    return deal


def test_a_maximum_beaten_by_a_shown_minimum_shows_while_a_medium_may_come() -> None:
    """7.2, 7.3, 002: the minimum shown beats the maximum, but a medium still to show would
    split the pot three ways with both: the maximum may win a share, so it is shown."""
    deal = at_the_showdown({1: SF_MIN, 2: SF_MAX, 3: SF_MED})
    play(deal, (1, SHOW))
    assert kinds(deal) == {ActionKind.SHOW}
    with pytest.raises(ActionNotAvailableError):
        deal.apply(MUCK, 2)
    play(deal, (2, SHOW), (3, SHOW))
    assert deal.result is not None and deal.result.awards[0].winners == (1, 2, 3)


def test_a_medium_beaten_by_a_shown_maximum_shows_while_a_minimum_may_come() -> None:
    """7.2, 7.3, 002: the maximum beats the medium, until a minimum makes it three ways."""
    deal = at_the_showdown({1: SF_MAX, 2: SF_MED, 3: SF_MIN})
    play(deal, (1, SHOW))
    assert kinds(deal) == {ActionKind.SHOW}
    play(deal, (2, SHOW), (3, SHOW))
    assert deal.result is not None and deal.result.awards[0].winners == (1, 2, 3)


def test_a_minimum_beaten_by_a_shown_medium_shows_while_a_maximum_may_come() -> None:
    """7.2, 7.3, 002: the medium beats the minimum, until a maximum makes it three ways."""
    deal = at_the_showdown({1: SF_MED, 2: SF_MIN, 3: KINGS})
    play(deal, (1, SHOW))
    assert kinds(deal) == {ActionKind.SHOW}  # seat 3 might hold a maximum: it does not
    play(deal, (2, SHOW), (3, SHOW))
    assert deal.result is not None and deal.result.awards[0].winners == (1,)


def test_a_straight_flush_beaten_in_its_own_class_may_muck() -> None:
    """7.3, 002: only the best of each class shares a three-way split: a medium beaten by a
    higher medium wins nothing, whatever is still to show."""
    deal = at_the_showdown({1: SF_MED_KING, 2: SF_MED, 3: SF_MIN})
    play(deal, (1, SHOW))
    assert kinds(deal) == BOTH
    play(deal, (2, MUCK), (3, SHOW))
    assert deal.result is not None and deal.result.awards[0].winners == (1,)


def test_a_straight_flush_beaten_with_nothing_left_to_show_may_muck() -> None:
    """7.2, 002: the minimum shown beats the maximum, and every other hand has been shown or
    mucked: nothing can make the maximum share, so it may be mucked; the kings, beaten by a
    straight flush, may be mucked whatever comes."""
    deal = at_the_showdown({1: SF_MIN, 2: KINGS, 3: SF_MAX})
    play(deal, (1, SHOW))
    assert kinds(deal) == BOTH
    play(deal, (2, MUCK))
    assert kinds(deal) == BOTH
    play(deal, (3, MUCK))
    assert deal.result is not None and deal.result.awards[0].winners == (1,)


def test_the_offer_tells_nothing_of_the_hands_still_to_show() -> None:
    """The muck is offered from the shown hands alone: the maximum behind a shown minimum is
    refused it whether the hand still to show is a medium or nothing at all."""
    for last in (SF_MED, KINGS):
        deal = at_the_showdown({1: SF_MIN, 2: SF_MAX, 3: last})
        play(deal, (1, SHOW))
        assert kinds(deal) == {ActionKind.SHOW}


HANDS = (SF_MIN, SF_MED, SF_MED_KING, SF_MAX, KINGS)


@settings(max_examples=60, deadline=None)
@given(st.permutations(HANDS).map(lambda hands: hands[:3]))
def test_a_hand_offered_the_muck_wins_nothing_if_it_shows(hands: tuple[str, ...]) -> None:
    """002 with 7.2-7.3, at every turn of the showdown: a hand offered the muck would win
    nothing if it and every hand after it were shown."""
    deal = at_the_showdown(dict(zip((1, 2, 3), hands, strict=True)))
    ranks = {seat: evaluate(deal.hands[seat], players=4) for seat in (1, 2, 3)}
    shown: list[int] = []
    while deal.phase is Phase.SHOWDOWN:
        seat = deal.actor
        assert seat is not None
        if ActionKind.MUCK in kinds(deal):
            contenders = [*shown, *deal.showdown_order[deal.showdown_order.index(seat) :]]
            winners = best_ranks([ranks[s] for s in contenders])
            assert contenders.index(seat) not in winners, (hands, seat)
        play(deal, (seat, SHOW))
        shown.append(seat)
