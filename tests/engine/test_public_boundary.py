"""The public boundary: every value a caller hands the engine is checked where it comes in, and
anything wrong raises an :class:`ItalianPokerError` subclass (docs/api.md, "Errors"); ``can``
answers False and never raises. A seat is a seat number of the deal (3.1 deals to seats 0 to
n - 1), not a bool, a float or text."""

from __future__ import annotations

from typing import Any

import pytest
from engine_helpers import new_deal, new_match, rules, snapshot
from hypothesis import given, settings
from hypothesis import strategies as st

from italian_poker import (
    Action,
    ActionKind,
    Deal,
    IllegalActionError,
    ItalianPokerError,
    Match,
    Rules,
    RulesError,
    SeatError,
    SeatNumberError,
    observe,
    preset,
    seat_view,
)

PASS = Action(ActionKind.PASS)
NOT_SEATS: list[object] = ["x", "1", True, False, 1.0, 0.0, -1, 4, 7, None.__class__, (1,), [1]]


def fresh_deal() -> Deal:
    """Four seats at the opening (3.2): seat 1, the dealer's left, is to act."""
    deal = new_deal(rules(), {})
    assert deal.actor == 1
    return deal


@pytest.mark.parametrize("seat", NOT_SEATS)
def test_a_deal_refuses_a_seat_that_is_not_a_seat_number(seat: object) -> None:
    """``verify`` and ``apply`` raise :class:`SeatNumberError` (an ItalianPokerError) for a
    seat that is not 0 to n - 1 as an int; ``can`` answers False; nothing changes. ``True``
    and ``1.0`` are not seat 1, even when seat 1 is to act."""
    deal = fresh_deal()
    before = snapshot(deal)
    with pytest.raises(SeatNumberError):
        deal.verify(PASS, seat)  # type: ignore[arg-type]
    with pytest.raises(SeatNumberError):
        deal.apply(PASS, seat)  # type: ignore[arg-type]
    assert deal.can(PASS, seat) is False  # type: ignore[arg-type]
    assert snapshot(deal) == before
    assert deal.can(PASS, 1)


@settings(max_examples=60, deadline=None)
@given(seat=st.one_of(st.integers(), st.text(max_size=3), st.floats(), st.booleans(), st.none()))
def test_can_never_raises_whatever_the_seat(seat: object) -> None:
    """``Deal.can`` answers True or False for any seat value; a refused one is an
    ItalianPokerError from ``verify``."""
    deal = fresh_deal()
    answer = deal.can(PASS, seat)  # type: ignore[arg-type]
    assert answer is (seat is None or (type(seat) is int and seat == 1))
    if not answer:
        with pytest.raises(IllegalActionError):
            deal.verify(PASS, seat)  # type: ignore[arg-type]


@pytest.mark.parametrize("seat", [7, 4, -1, True, 1.0, "0"])
def test_observe_refuses_a_viewer_outside_the_deal(seat: object) -> None:
    """A view asked for a seat the deal does not have raises :class:`SeatNumberError`, an
    ItalianPokerError (and still a ValueError)."""
    deal = fresh_deal()
    with pytest.raises(SeatNumberError):
        observe(deal, seat)  # type: ignore[call-overload]
    with pytest.raises(SeatNumberError):
        seat_view(deal, seat)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        observe(deal, seat)  # type: ignore[call-overload]


@pytest.mark.parametrize(
    "seats",
    [
        [("A",), ("B", 10)],
        [("A", 10, 0, "extra"), ("B", 10)],
        ["AB", ("C", 10)],
        [("A", 10), None],
        5,
        "AB",
        [{"name": "A"}, ("B", 10)],
    ],
)
def test_a_match_refuses_seats_that_are_not_name_and_stack(seats: Any) -> None:
    """``Match(rules, seats)``: each seat is (name, stack) or (name, stack, player id); anything
    else raises :class:`SeatError`."""
    with pytest.raises(SeatError):
        Match(Rules(), seats)


@pytest.mark.parametrize("dealer", [True, 1.0, "0", None])
def test_a_match_refuses_a_dealer_that_is_not_a_seat_index(dealer: Any) -> None:
    """The dealer is a seat index (an int); ``True`` is not seat 1."""
    with pytest.raises(SeatError):
        Match(Rules(), [("A", 10), ("B", 10)], dealer=dealer)


@pytest.mark.parametrize("table", [None, "standard", {"players": 4}])
def test_a_match_refuses_rules_that_are_not_rules(table: Any) -> None:
    with pytest.raises(RulesError):
        Match(table, [("A", 10), ("B", 10)])


@pytest.mark.parametrize("player", [5, True, None.__class__, ("P1",)])
def test_a_match_answers_false_for_a_player_that_is_not_a_name(player: Any) -> None:
    """``Match.can`` with a player that is not a name answers False; ``apply`` and ``verify``
    raise an IllegalActionError and change nothing."""
    match = new_match(rules())
    match.start_deal(seed=1)
    assert match.can(PASS) is True
    assert match.can(PASS, player) is False
    with pytest.raises(IllegalActionError):
        match.verify(PASS, player)
    with pytest.raises(IllegalActionError):
        match.apply(PASS, player)
    assert match.can(PASS)


@pytest.mark.parametrize("data", [[], "players=4", None, 4, {4: 4}])
def test_rules_from_dict_refuses_what_is_not_a_mapping_of_options(data: Any) -> None:
    with pytest.raises(RulesError):
        Rules.from_dict(data)


@pytest.mark.parametrize("name", [None, 3, "", "   "])
def test_rules_need_a_name(name: Any) -> None:
    with pytest.raises(RulesError):
        Rules(name=name)


@pytest.mark.parametrize("name", [None, ["003"], 3])
def test_preset_refuses_a_name_that_is_not_text(name: Any) -> None:
    with pytest.raises(RulesError):
        preset(name)


def test_every_boundary_error_is_an_italian_poker_error() -> None:
    """The classes raised above are all ItalianPokerError (docs/api.md)."""
    assert issubclass(SeatNumberError, ItalianPokerError)
    assert issubclass(SeatNumberError, IllegalActionError)
    assert issubclass(SeatNumberError, SeatError)
