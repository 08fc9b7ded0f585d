"""Malformed actions and deal starts are refused with a specific engine error, leaving the state
exactly as it was: amounts are whole chips (an ``int``, never a bool, float, Decimal or
Fraction), kinds are ``ActionKind`` members, discards are a tuple of cards, and every
``DealStart`` value is checked before a deal begins."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from engine_helpers import cards, new_deal, new_match, rules, snapshot, stacked_deck

from italian_poker import (
    Action,
    ActionKind,
    Deal,
    DealStart,
    IllegalActionError,
    InvalidAmountError,
    Match,
    MatchPhase,
    Rules,
)
from italian_poker.engine.actions import call, check_action, draw, fold, open_, pass_
from italian_poker.engine.card_source import SeededSource, StackedSource
from italian_poker.engine.errors import CardSourceError, DealStartError, MalformedActionError
from italian_poker.engine.history import HandHistory, dumps, loads

BAD_AMOUNTS: list[Any] = [4.0, True, Decimal(4), Fraction(4), "4", 1.5]
JJ = "Jh Jc 7d 8s Ac"


def blind_deal() -> Deal:
    """Standard rules, blinds on: seat 1 (the dealer's left) is offered the buio of 4."""
    return new_deal(Rules(), {1: JJ})


@pytest.mark.parametrize("amount", BAD_AMOUNTS, ids=repr)
def test_blind_with_an_amount_that_is_not_whole_chips_is_refused(amount: Any) -> None:
    """Art. 2: the buio is a bet of whole chips. ``Action(BLIND, 4.0)`` used to be taken (4.0
    equals 4) and written to the history as ``buio 4.0``, which the reader then rejected."""
    deal = blind_deal()
    (blind,) = [la for la in deal.legal_actions() if la.kind is ActionKind.BLIND]
    assert blind.min_amount == 4
    before = snapshot(deal)
    with pytest.raises(InvalidAmountError, match="whole number of chips"):
        deal.apply(Action(ActionKind.BLIND, amount))
    assert snapshot(deal) == before
    deal.apply(Action(ActionKind.BLIND, 4))  # the int is fine
    assert deal.actions[-1].action.amount == 4


@pytest.mark.parametrize("amount", [True, 1.0, Decimal(1), Fraction(1)], ids=repr)
def test_call_with_true_or_another_non_int_amount_is_refused(amount: Any) -> None:
    """``Action(CALL, True)``: True equals 1, the call amount, and was recorded as ``True``."""
    deal = new_deal(rules(min_bet=1), {1: JJ})
    deal.apply(open_(1))
    assert deal.legal_actions()[1].kind is ActionKind.CALL
    before = snapshot(deal)
    with pytest.raises(InvalidAmountError):
        deal.apply(Action(ActionKind.CALL, amount))
    assert snapshot(deal) == before


@pytest.mark.parametrize("amount", BAD_AMOUNTS, ids=repr)
def test_open_with_an_amount_that_is_not_whole_chips_is_refused(amount: Any) -> None:
    deal = new_deal(rules(), {1: JJ})
    before = snapshot(deal)
    with pytest.raises(InvalidAmountError):
        deal.apply(Action(ActionKind.OPEN, amount))
    assert snapshot(deal) == before


@pytest.mark.parametrize("bad", ["fold", "pass", None, 3, ActionKind.FOLD.value.upper()])
def test_action_of_a_kind_that_is_not_an_action_kind_is_refused(bad: Any) -> None:
    """``Action("fold")`` raised ``AttributeError: 'str' object has no attribute 'value'``."""
    deal = new_deal(rules(), {1: JJ})
    before = snapshot(deal)
    with pytest.raises(MalformedActionError, match="ActionKind"):
        deal.apply(Action(bad))
    assert snapshot(deal) == before


@pytest.mark.parametrize("bad", ["fold", None, 3])
def test_an_action_of_a_kind_that_is_not_an_action_kind_still_prints(bad: Any) -> None:
    """``str(Action("fold"))`` raised ``AttributeError``; it prints the kind's repr."""
    assert str(Action(bad)) == repr(bad)
    assert str(Action(bad, 4)) == f"{bad!r} 4"


@pytest.mark.parametrize("bad", [None, "fold", ActionKind.FOLD, ("fold",), pass_])
def test_apply_of_something_that_is_not_an_action_is_refused(bad: Any) -> None:
    """``deal.apply(None)`` and ``match.apply(None)`` raised ``AttributeError``."""
    deal = new_deal(rules(), {1: JJ})
    before = snapshot(deal)
    with pytest.raises(MalformedActionError, match="Action"):
        deal.apply(bad)
    assert snapshot(deal) == before
    match = new_match(rules())
    match.start_deal(seed=1)
    before = snapshot(match)
    with pytest.raises(MalformedActionError):
        match.apply(bad)
    assert snapshot(match) == before


def test_draw_with_discards_that_are_not_a_tuple_of_cards_is_refused() -> None:
    """4.1: discards are cards of the hand, as a tuple (a list would be recorded as is)."""
    deal = new_deal(rules(), {1: JJ, 2: "7s 9c Jd Kh Ad"})
    deal.apply(open_(2))
    deal.apply(call())
    deal.apply(fold())
    deal.apply(fold())
    hand = deal.hands[1]
    before = snapshot(deal)
    for bad in (
        Action(ActionKind.DRAW, cards=list(hand[:2])),  # type: ignore[arg-type]
        Action(ActionKind.DRAW, cards=("Ac",)),  # type: ignore[arg-type]
        Action(ActionKind.DRAW, cards=(hand[0],), split="yes"),  # type: ignore[arg-type]
    ):
        with pytest.raises(MalformedActionError):
            deal.apply(bad)
        assert snapshot(deal) == before
    deal.apply(draw(*cards("7d 8s")))


def test_non_draw_with_empty_list_of_cards_is_refused() -> None:
    """An action with ``cards=[]`` is not the plain action: it is refused, not recorded."""
    deal = new_deal(rules(), {1: JJ})
    before = snapshot(deal)
    with pytest.raises(MalformedActionError):
        deal.apply(Action(ActionKind.PASS, cards=[]))  # type: ignore[arg-type]
    assert snapshot(deal) == before


@pytest.mark.parametrize("amount", [2.0, True, Decimal(2), Fraction(2)], ids=repr)
def test_make_up_with_an_amount_that_is_not_whole_chips_is_refused(amount: Any) -> None:
    """5.5: the make-up is whole chips too."""
    match = new_match(rules())
    match.start_deal(deck=stacked_deck(4, {1: JJ, 2: "7s 9c Jd Kh Ad"}))
    for action in (open_(2), call(), fold(), fold(), draw(), draw()):
        match.apply(action)
    match.apply(Action(ActionKind.PAROL))
    match.apply(Action(ActionKind.PAROL))
    match.start_deal(seed=1)
    assert match.phase is MatchPhase.MAKE_UP
    before = snapshot(match)
    with pytest.raises(InvalidAmountError):
        match.apply(Action(ActionKind.MAKE_UP, amount))
    with pytest.raises(InvalidAmountError):
        match.apply(Action(ActionKind.SIT_OUT, 2))
    assert snapshot(match) == before


def test_history_of_a_deal_holds_only_whole_chip_amounts() -> None:
    """The defect's end: a deal that took ``4.0`` wrote a history its own reader rejected. The
    float is refused, so the history written after the int blind reads back."""
    match = Match(Rules(), [(f"P{i}", 100) for i in range(4)], seed=3)
    match.start_deal(seed=3)
    with pytest.raises(InvalidAmountError):
        match.apply(Action(ActionKind.BLIND, 4.0))  # type: ignore[arg-type]
    match.apply(Action(ActionKind.BLIND, 4))
    while match.actor is not None:
        legal = {la.kind: la for la in match.legal_actions()}
        for kind in (ActionKind.DECLINE, ActionKind.FOLD, ActionKind.CHECK, ActionKind.SHOW):
            if kind in legal:
                match.apply(Action(kind))
                break
        else:
            match.apply(Action(next(iter(legal))))
    text = dumps(HandHistory.from_completed(match.completed[-1]))
    assert "4.0" not in text
    assert loads(text).actions


def test_check_action_accepts_every_well_formed_action() -> None:
    for action in (fold(), call(), open_(3), draw(), draw(*cards("Ah Kh"), split=True)):
        check_action(action)


# --- DealStart ----------------------------------------------------------------------------


def start(**changes: Any) -> DealStart:
    values: dict[str, Any] = {
        "rules": rules(),
        "names": ("a", "b", "c", "d"),
        "stacks": (50, 50, 50, 50),
        "dealer": 0,
    }
    values.update(changes)
    return DealStart(**values)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("carried", -100),
        ("carried", 4.0),
        ("carried", True),
        ("stacks", (50, 50, 50, -1)),
        ("stacks", (50, 50, 50, 50.0)),
        ("stacks", (50, 50, 50, Decimal(50))),
        ("stacks", [50, 50, 50, 50]),
        ("stacks", (50, 50, 50)),
        ("makeups", (0, 0, 0, -2)),
        ("makeups", (0, 0, 0, 2.0)),
        ("makeups", (0, 0, 0)),
        ("dealer", True),
        ("dealer", 4),
        ("dealer", -1),
        ("dealer", 1.0),
        ("names", ("a", "b", "c", "")),
        ("names", ("a", "b", "c", 4)),
        ("names", ("a", "a", "c", "d")),
        ("min_pair", "K"),
        ("blinds_allowed", "no"),
        ("rules", {"ante": 1}),
    ],
)
def test_deal_start_values_are_checked(field: str, value: Any) -> None:
    """Every DealStart value is checked: ``carried=-100`` used to be accepted and offered a
    blind of -96."""
    with pytest.raises(DealStartError):
        Deal(start(**{field: value}))


def test_card_sources_check_what_they_are_given() -> None:
    """A deal's source is a card source, a seed a whole number, stacked cards cards."""
    with pytest.raises(DealStartError, match="card source"):
        Deal(start(), "a deck")  # type: ignore[arg-type]
    with pytest.raises(CardSourceError, match="seed"):
        SeededSource(1.5)  # type: ignore[arg-type]
    with pytest.raises(CardSourceError, match="cards"):
        StackedSource(("Ah",) * 32)  # type: ignore[arg-type]


def test_negative_carried_pot_no_longer_offers_a_negative_blind() -> None:
    with pytest.raises(DealStartError, match="chips carried"):
        Deal(DealStart(Rules(), ("a", "b", "c", "d"), (50,) * 4, carried=-100))


def test_illegal_action_errors_share_one_base() -> None:
    assert issubclass(MalformedActionError, IllegalActionError)
    assert issubclass(DealStartError, ValueError)


def test_amount_errors_say_one_chip_not_one_chips() -> None:
    """English plurals in the engine's messages: "exactly 1 chip", never "1 chips"."""
    deal = new_deal(rules(min_bet=1), {1: JJ})
    deal.apply(open_(1))
    with pytest.raises(InvalidAmountError) as error:
        deal.apply(Action(ActionKind.CALL, 5))
    assert "exactly 1 chip," in str(error.value)


@pytest.mark.parametrize(
    "ids", [(0, 0, 1, 2), (0, 1, 2), (0, 1, 2, -3), (0, 1, 2, True), [0, 1, 2, 3]]
)
def test_deal_start_player_ids_are_checked(ids: Any) -> None:
    with pytest.raises(DealStartError, match="player id"):
        Deal(start(player_ids=ids))
