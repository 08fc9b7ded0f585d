"""SeatView: a seat sees its own cards and never another seat's hidden cards, before and after
the showdown (every field is scanned, the action history included)."""

from __future__ import annotations

import random

import pytest
from engine_helpers import (
    cards,
    cards_in,
    new_deal,
    new_match,
    play,
    play_randomly,
    rules,
    visible_to,
)

from italian_poker import (
    PRESETS,
    Action,
    ActionKind,
    Deal,
    Phase,
    SeatError,
    preset,
    seat_view,
)
from italian_poker.engine.actions import call, check, draw, fold, open_, pass_

SHOW = Action(ActionKind.SHOW)
MUCK = Action(ActionKind.MUCK)


def check_views(deal: Deal) -> None:
    """Every seat's view holds its own hand and no card it may not know."""
    for seat in range(deal.n):
        view = seat_view(deal, seat)
        assert view.hand == tuple(deal.hands[seat])
        leaked = set(cards_in(view)) - visible_to(deal, seat)
        assert not leaked, f"seat {seat} sees {sorted(map(str, leaked))} in phase {deal.phase}"
        assert set(view.shown) == set(deal.shown)
        if deal.phase is not Phase.SHOWDOWN and deal.result is None:
            assert view.shown == {}
        assert view.legal_actions == (deal.legal_actions() if deal.actor == seat else ())


CASES = [
    (name, players, seed) for name in PRESETS for players, seed in ((2, 1), (4, 2), (6, 3), (9, 4))
]


@pytest.mark.parametrize(("name", "players", "seed"), CASES)
def test_views_never_leak_hidden_cards_in_random_play(name: str, players: int, seed: int) -> None:
    """Random legal play: at every step, no view holds another seat's hidden card."""
    rng = random.Random(seed)
    match = new_match(preset(name, players=players))

    def check(deal: Deal) -> None:
        check_views(deal)
        for seat, player in enumerate(match.deal_seats):
            assert match.view(player).hand == tuple(deal.hands[seat])

    play_randomly(match, rng, check)


def test_view_before_and_after_the_showdown_with_a_muck() -> None:
    """Before the showdown nobody sees other hands; after it, shown hands are public and a
    mucked hand stays hidden."""
    hands = {1: "Jh Jc 7d 8s Ac", 2: "7s 9c Jd Kh Ad", 3: "8h Tc Qd Ah 7c", 0: "9s Js Kd 7h 8d"}
    deal = new_deal(rules(), hands)
    play(deal, (1, open_(2)), (2, call()), (3, fold()), (0, fold()))
    play(deal, (1, draw()), (2, draw(*cards("7s 9c"))))
    check_views(deal)
    play(deal, (1, check()), (2, check()))
    assert deal.phase is Phase.SHOWDOWN
    check_views(deal)
    play(deal, (1, SHOW))
    view2 = seat_view(deal, 2)
    assert view2.shown == {1: cards("Jh Jc 7d 8s Ac")}
    check_views(deal)
    play(deal, (2, MUCK))
    assert deal.result is not None
    check_views(deal)
    seat2_hand = set(deal.hands[2])
    for seat in (0, 1, 3):
        assert not seat2_hand & set(cards_in(seat_view(deal, seat)))
    # Folded hands stay hidden after the end too.
    folded_hand = set(deal.hands[3])
    assert not folded_hand & set(cards_in(seat_view(deal, 0)))


def test_003_discards_face_up_are_public() -> None:
    """003: discards stay face up, so every seat sees them; otherwise only the count."""
    hands = {1: "Jh Jc 7d 8s Ac", 2: "7s 9c Jd Kh Ad"}
    for face_up in (False, True):
        deal = new_deal(rules(discards_face_up=face_up), hands)
        play(deal, (1, open_(2)), (2, call()), (3, fold()), (0, fold()))
        play(deal, (1, draw()), (2, draw(*cards("7s 9c"))))
        (record,) = [a for a in seat_view(deal, 1).actions if a.seat == 2 and a.cards_changed]
        assert record.cards_changed == 2
        assert record.discards == (cards("7s 9c") if face_up else ())
        (own,) = [a for a in seat_view(deal, 2).actions if a.seat == 2 and a.cards_changed]
        assert own.discards == cards("7s 9c")
        check_views(deal)


def test_kept_apart_cards_only_in_the_openers_view() -> None:
    """4.4: the opener's kept-apart cards are in the opener's view only (until the proof)."""
    hands = {1: "Jh Jc 7d 8s Ac", 2: "7s 9c Jd Kh Ad"}
    deal = new_deal(rules(), hands)
    play(deal, (1, open_(2)), (2, call()), (3, fold()), (0, fold()))
    play(deal, (1, draw(*cards("Jc 7d"), split=True)))
    assert seat_view(deal, 1).kept_apart == cards("Jc 7d")
    assert seat_view(deal, 2).kept_apart == ()
    check_views(deal)
    play(deal, (2, draw()), (1, check()), (2, check()), (1, SHOW), (2, SHOW))
    assert set(seat_view(deal, 2).proof) == set(cards("Jh Jc"))
    check_views(deal)


def test_view_errors() -> None:
    """A seat outside the deal has no view."""
    deal = new_deal(rules(), {})
    with pytest.raises(ValueError):
        seat_view(deal, 4)
    match = new_match(rules())
    with pytest.raises(SeatError):
        match.view("P0")
    match.start_deal(seed=1)
    match.apply(pass_())
    assert match.view("P0").seat == 0
    with pytest.raises(SeatError):
        match.view("nobody")
