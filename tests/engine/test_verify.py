"""Asking without applying: ``verify`` and ``can`` beside ``apply`` (the same checks, nothing
changes); the opener's draw says which draws break the opening (4.4); the 5.5 make-up is an
ordinary legal action in the asked player's view."""

from __future__ import annotations

from itertools import combinations

import pytest
from engine_helpers import cards, new_deal, new_match, parol_deal, play, rules, snapshot

from italian_poker import (
    Action,
    ActionKind,
    ActionNotAvailableError,
    Deal,
    DealOverError,
    InvalidAmountError,
    InvalidDrawError,
    LegalAction,
    MatchPhase,
    NotYourTurnError,
    OpeningRequirement,
    Rank,
)
from italian_poker.engine.actions import call, draw, fold, open_
from italian_poker.engine.opening import opening_groups
from italian_poker.engine.policy import makeup_due

JJ = "Jh Jc 7d 8s Ac"
STD = {1: JJ, 2: "7s 9c Jd Kh Ad", 3: "8h Tc Qd Ah 7c", 0: "9s Js Kd 7h 8d"}


def test_verify_returns_the_action_as_recorded_and_changes_nothing() -> None:
    deal = new_deal(rules(), STD)
    deal.apply(open_(3))
    before = snapshot(deal)
    assert deal.verify(Action(ActionKind.CALL)) == Action(ActionKind.CALL, 3)  # filled in
    assert deal.can(Action(ActionKind.CALL), 2)
    assert not deal.can(Action(ActionKind.CALL), 3)  # not seat 3's turn
    assert not deal.can(Action(ActionKind.RAISE, 99))
    assert not deal.can(Action(ActionKind.CALL, 2.0))  # type: ignore[arg-type]
    assert snapshot(deal) == before
    record = deal.apply(Action(ActionKind.CALL))
    assert record.action == Action(ActionKind.CALL, 3)


@pytest.mark.parametrize(
    ("action", "seat", "error"),
    [
        (Action(ActionKind.CALL), 3, NotYourTurnError),
        (Action(ActionKind.RAISE, 99), None, InvalidAmountError),
        (Action(ActionKind.PAROL), None, ActionNotAvailableError),
    ],
)
def test_verify_raises_what_apply_raises(action: Action, seat: int | None, error: type) -> None:
    deal = new_deal(rules(), STD)
    deal.apply(open_(3))
    with pytest.raises(error) as verified:
        deal.verify(action, seat)
    with pytest.raises(error) as applied:
        deal.apply(action, seat)
    assert str(verified.value) == str(applied.value)


def test_verify_after_the_deal_is_over() -> None:
    deal = new_deal(rules(), STD)
    play(deal, (1, open_(2)), (2, fold()), (3, fold()), (0, fold()))
    with pytest.raises(DealOverError):
        deal.verify(Action(ActionKind.FOLD))
    assert not deal.can(Action(ActionKind.FOLD))


def test_match_verify_and_can_during_the_make_up() -> None:
    """5.5 answers are checked the same way; the amount is filled in."""
    match = new_match(rules())
    parol_deal(match)
    match.start_deal(seed=1)
    assert match.phase is MatchPhase.MAKE_UP
    before = snapshot(match)
    assert match.verify(Action(ActionKind.MAKE_UP)) == Action(ActionKind.MAKE_UP, 2)
    assert match.can(Action(ActionKind.SIT_OUT))
    assert not match.can(Action(ActionKind.MAKE_UP, 3))
    assert not match.can(Action(ActionKind.FOLD))
    assert snapshot(match) == before


# --- the opener's draw (4.4) -----------------------------------------------------------


def opener_at_the_draw(hand: str = JJ) -> tuple[Deal, LegalAction]:
    deal = new_deal(rules(), {1: hand})
    play(deal, (1, open_(2)), (2, call()), (3, fold()), (0, fold()))
    (legal,) = deal.legal_actions()
    return deal, legal


def test_openers_draw_says_which_draws_break_the_opening() -> None:
    """4.4: the opener with Jh Jc keeps the opening while both jacks stay; the draw offered
    names the jacks, so a front end knows when to ask for the split announcement."""
    _, legal = opener_at_the_draw()
    assert legal.kind is ActionKind.DRAW
    assert legal.split_unless_kept == (cards("Jh Jc"),)
    assert not legal.breaks_opening(cards("7d 8s Ac"))
    assert legal.breaks_opening(cards("Jc 7d"))
    assert not legal.breaks_opening(())


def test_other_players_draws_carry_no_opening() -> None:
    deal, _ = opener_at_the_draw()
    deal.apply(draw())
    (legal,) = deal.legal_actions()
    assert legal.split_unless_kept is None and not legal.breaks_opening(cards("7s 9c"))


@pytest.mark.parametrize(
    "hand",
    [
        "Jh Jc 7d 8s Ac",
        "Jh Js 9h 9s Ac",
        "9h 9s 9d Kc 7c",
        "9h 9s 8d 8c Ac",
        "7h 8h 9h Th Ac",
        "Kh Ks Kd 8c 8s",
        "Qh Qs Jd Jc 7c",
    ],
)
def test_breaks_opening_agrees_with_the_draw_check_for_every_discard(hand: str) -> None:
    """For every discard of one to four cards, the legal action's answer is exactly what
    the draw accepts: without the split when it keeps the opening, only with it otherwise."""
    for size in range(1, 5):
        for discards in combinations(cards(hand), size):
            deal, legal = opener_at_the_draw(hand)
            breaks = legal.breaks_opening(discards)
            kept = [c for c in cards(hand) if c not in discards]
            assert breaks is not deal.requirement.kept_proves(kept)
            plain = Action(ActionKind.DRAW, cards=tuple(discards))
            assert deal.can(plain) is not breaks
            if breaks:
                with pytest.raises(InvalidDrawError):
                    deal.verify(plain)
                assert deal.can(draw(*discards, split=True))


def test_opening_groups_are_the_smallest_sets_that_prove() -> None:
    requirement = OpeningRequirement(Rank.JACK)
    assert opening_groups(cards("Kh Ks Kd 8c 8s"), requirement) == (
        cards("Kh Ks"),
        cards("Kh Kd"),
        cards("Ks Kd"),
    )
    # Full house of low ranks: the trips alone, or any two nines with the eights.
    low_full = opening_groups(cards("9h 9s 9d 8c 8s"), requirement)
    assert cards("9h 9s 9d") in low_full and cards("9h 9s 8c 8s") in low_full
    assert opening_groups(cards("7h 8c 9h Th Jd"), requirement) == ()  # a straight: all five


# --- the make-up in the view (5.5) -------------------------------------------------------


def test_make_up_is_a_legal_action_in_the_asked_players_view() -> None:
    """5.5: the player asked sees their turn, with MAKE_UP (the amount) and SIT_OUT, as any
    other decision; the others' views offer nothing."""
    match = new_match(rules())
    parol_deal(match)
    match.start_deal(seed=1)
    asked = match.actor
    assert asked is not None
    view = match.view(asked)
    assert view.is_my_turn
    assert [(la.kind, la.min_amount) for la in view.legal_actions] == [
        (ActionKind.MAKE_UP, 2),
        (ActionKind.SIT_OUT, None),
    ]
    assert makeup_due(view) == 2
    other = next(n for n in match.deal_seats if n != asked)
    assert match.view(other).legal_actions == ()
