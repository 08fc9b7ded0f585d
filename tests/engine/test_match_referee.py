"""A referee's checks on a match between deals: the 5.5 make-up questions with a stacked deck, a
refused ``start_deal`` that must change nothing, and the 003 preset read as an Italian table
plays it (the *piatto di parole* of 3.5, its kings-only deal, 4 to 6 players)."""

from __future__ import annotations

from typing import Any

import pytest
from engine_helpers import new_match, parol_deal, stacked_deck
from hypothesis import given, settings
from hypothesis import strategies as st

from italian_poker import (
    Action,
    ActionKind,
    Direction,
    IllegalActionError,
    ItalianPokerError,
    Match,
    MatchPhase,
    Phase,
    Rank,
    Rules,
    SeatError,
    preset,
)
from italian_poker.engine.actions import fold, open_, pass_
from italian_poker.engine.card_source import StackedSource
from italian_poker.engine.operations import HandsDealt

SIT_OUT = Action(ActionKind.SIT_OUT)
MAKE_UP = Action(ActionKind.MAKE_UP)


def observable(match: Match) -> dict[str, Any]:
    """Everything a player, a host or a front end can see of ``match``: the phase, who is to
    act and what they may do, every view of the current (or last) deal, the seats and stacks,
    the button, the pot carried and its requirement, the pending 5.5 questions, the deals
    recorded and the players gone."""
    state: dict[str, Any] = {
        "phase": match.phase,
        "actor": match.actor,
        "legal": match.legal_actions(),
        "seats": [(s.name, s.stack, s.sitting_out, s.player_id) for s in match.seats],
        "dealer": match.dealer_name,
        "carried": match.carried,
        "min_pair": match.min_pair,
        "deal_seats": list(match.deal_seats),
        "completed": len(match.completed),
        "departed": list(match.departed),
        "passed_in_a_row": match.passed_in_a_row,
        "views": {name: match.view(name) for name in match.deal_seats},
    }
    # The 5.5 questions still to ask: each asked player in turn, as the actor sees them.
    state["questions"] = tuple(match._makeup_queue)
    return state


def refused(match: Match, call: Any, error: type[Exception] = ItalianPokerError) -> None:
    """``call()`` raises ``error`` and leaves ``match`` exactly as it was."""
    before = observable(match)
    with pytest.raises(error):
        call()
    assert observable(match) == before


def after_parol(dealer: int = 0) -> Match:
    """Four players, a deal abandoned by parol: two first-round folders owe a make-up (5.5)."""
    match = new_match(Rules(), dealer=dealer)
    parol_deal(match)
    return match


def deck_for(players: int, dealer: int = 0) -> tuple[Any, ...]:
    """A deck stacked for ``players`` players (its cards in deck order)."""
    return stacked_deck(players, {}, dealer=dealer)


# --- 5.5: the make-up questions with a stacked deck ------------------------------------------


def test_5_5_a_sit_out_the_stacked_deck_cannot_serve_is_refused_and_the_question_stays() -> None:
    """5.5: a deck stacked for the four seats is accepted while four may be dealt in; a folder's
    sit-out would deal three, which the deck does not fit: ``can`` says so, ``apply`` refuses
    with the match unchanged, the question stays pending, and making up deals the four in."""
    match = after_parol()
    match.start_deal(deck=deck_for(4, dealer=1))
    assert match.phase is MatchPhase.MAKE_UP
    asked = match.actor
    assert asked is not None
    assert not match.can(SIT_OUT, asked)
    assert [la.kind for la in match.legal_actions()] == [ActionKind.MAKE_UP]
    refused(match, lambda: match.apply(SIT_OUT, asked), IllegalActionError)
    assert match.actor == asked
    match.apply(MAKE_UP, asked)
    second = match.actor
    assert second is not None and second != asked
    refused(match, lambda: match.apply(SIT_OUT, second), IllegalActionError)
    match.apply(MAKE_UP, second)
    assert match.phase is MatchPhase.IN_DEAL
    assert match.deal_seats == ["P0", "P1", "P2", "P3"]
    assert match.legal_actions()


def test_5_5_a_make_up_the_stacked_deck_cannot_serve_is_refused() -> None:
    """5.5: with a deck stacked for three, the second folder may not make up once the first
    has (four would be dealt in); sitting out deals the three the deck is for."""
    match = after_parol()
    match.start_deal(deck=deck_for(3, dealer=1))
    first = match.actor
    assert first is not None
    match.apply(MAKE_UP, first)
    second = match.actor
    assert second is not None
    assert not match.can(MAKE_UP, second)
    refused(match, lambda: match.apply(MAKE_UP, second), IllegalActionError)
    match.apply(SIT_OUT, second)
    assert match.phase is MatchPhase.IN_DEAL and len(match.deal_seats) == 3


def test_5_5_a_stacked_deck_no_answer_can_serve_is_refused_when_given() -> None:
    """5.5: a deck for five players, when two to four may be dealt in, is refused by
    ``start_deal`` with the match unchanged; the match goes on."""
    match = after_parol()
    refused(match, lambda: match.start_deal(deck=deck_for(5)), SeatError)
    match.start_deal(seed=3)
    assert match.phase is MatchPhase.MAKE_UP


def test_5_5_the_deal_begun_by_the_last_answer_takes_the_source_given() -> None:
    """5.5: the card source given to ``start_deal`` deals the deal that the last make-up
    answer begins."""
    match = after_parol()
    order = deck_for(3, dealer=1)
    match.start_deal(StackedSource(order))
    first = match.actor
    assert first is not None
    match.apply(SIT_OUT, first)
    second = match.actor
    assert second is not None
    match.apply(MAKE_UP, second)
    assert match.phase is MatchPhase.IN_DEAL and match.deal is not None
    dealt = match.deal.operations[1]
    assert isinstance(dealt, HandsDealt)
    assert {c for hand in dealt.hands for c in hand} == set(order[:15])


@pytest.mark.parametrize(
    "start",
    [
        {"deck": [1, 2, 3]},
        {"deck": 5},
        {"seed": 1.5},
        {"seed": True},
        {"source": 7},
        {"source": "a deck"},
    ],
)
def test_5_5_start_deal_with_bad_values_changes_nothing(start: dict[str, Any]) -> None:
    """A ``start_deal`` given what cannot begin a deal raises an ItalianPokerError at once,
    before the 5.5 questions, the match unchanged."""
    match = after_parol()
    refused(match, lambda: match.start_deal(**start), SeatError)
    fresh = new_match(Rules())
    refused(fresh, lambda: fresh.start_deal(**start), SeatError)


def test_art1_a_refused_start_deal_does_not_move_the_button() -> None:
    """000 Art. 1: the button passes only when a deal is dealt. A dealer sitting out and a
    deck that fits nobody: ``start_deal`` is refused and the button stays where it was."""
    match = new_match(Rules())
    match.sit_out("P0")
    refused(match, lambda: match.start_deal(deck=deck_for(4)), SeatError)
    assert match.dealer_name == "P0"
    match.start_deal(deck=deck_for(3))
    assert match.dealer_name == "P1"


@settings(max_examples=25, deadline=None)
@given(
    dealer=st.integers(0, 3),
    deck_players=st.sampled_from([None, 2, 3, 4]),
    answers=st.lists(st.booleans(), min_size=2, max_size=2),
)
def test_5_5_can_agrees_with_apply_on_every_make_up_answer(
    dealer: int, deck_players: int | None, answers: list[bool]
) -> None:
    """5.5: on every make-up answer, ``can`` agrees with ``apply``; a refused answer leaves the
    match unchanged, and the match never sticks: a deal begins, or the match waits between
    deals."""
    match = after_parol(dealer)
    if deck_players is None:
        match.start_deal(seed=9)
    else:
        try:
            match.start_deal(deck=deck_for(deck_players))
        except SeatError:
            return
    for make_up in answers:
        if match.phase is not MatchPhase.MAKE_UP:
            break
        asked = match.actor
        assert asked is not None
        for action in (MAKE_UP if make_up else SIT_OUT, SIT_OUT if make_up else MAKE_UP):
            before = observable(match)
            if match.can(action, asked):
                assert action.kind in {la.kind for la in match.legal_actions()}
                match.apply(action, asked)
                break
            assert action.kind not in {la.kind for la in match.legal_actions()}
            with pytest.raises(IllegalActionError):
                match.apply(action, asked)
            assert observable(match) == before
        else:
            pytest.fail("neither make-up answer is accepted: the match is stuck")
    assert match.phase in (MatchPhase.IN_DEAL, MatchPhase.BETWEEN_DEALS)
    if match.phase is MatchPhase.IN_DEAL:
        assert match.actor is not None and match.legal_actions()


# --- 003: the piatto di parole, its kings-only deal, 4 to 6 players ---------------------------


def pass_all(match: Match) -> None:
    """Every player passes (declining a blind if offered)."""
    while match.phase is MatchPhase.IN_DEAL:
        offered = {la.kind for la in match.legal_actions()}
        match.apply(Action(ActionKind.DECLINE) if ActionKind.DECLINE in offered else pass_())


def test_003_after_a_piatto_di_parole_the_same_dealer_deals_again() -> None:
    """003 (3.5): after a *piatto di parole* "la mano si considera non giocata": the deal was
    not played, so the button stays and the same dealer deals the kings-only deal."""
    match = new_match(preset("003", blind_allowed=False))
    assert match.dealer_name == "P0"
    match.start_deal(seed=1)
    pass_all(match)
    assert match.min_pair is Rank.KING
    assert match.dealer_name == "P0"
    match.start_deal(seed=2)
    assert match.deal is not None and match.deal.dealer == 0


def test_003_the_kings_only_deal_offers_no_blind() -> None:
    """003 (3.5): the deal after a *piatto di parole* "potra' pero' essere aperta solo con una
    coppia di Re o di Assi": a blind, which opens without a pair, is not offered on it; once
    a deal is won the blind is offered again."""
    match = new_match(preset("003"))
    match.start_deal(seed=1)
    assert match.legal_actions()[0].kind is ActionKind.BLIND
    pass_all(match)
    match.start_deal(
        deck=stacked_deck(4, {3: "Kh Kc 7d 8s Ac"}, dealer=0, direction=Direction.COUNTER_CLOCKWISE)
    )
    assert match.deal is not None and match.deal.phase is Phase.OPENING
    assert ActionKind.BLIND not in {la.kind for la in match.legal_actions()}
    match.apply(open_(2), "P3")
    for name in ("P2", "P1", "P0"):
        match.apply(fold(), name)
    match.start_deal(seed=3)
    assert match.legal_actions()[0].kind is ActionKind.BLIND


def test_003_deals_four_to_six_players_never_heads_up() -> None:
    """003: "i giocatori ammessi variano da 4 a 6". With three players able to play the
    match waits (``OVER`` until a fourth sits in); the preset is refused below four seats."""
    match = new_match(preset("003"))
    match.sit_out("P3")
    assert match.phase is MatchPhase.OVER
    refused(match, lambda: match.start_deal(seed=1), SeatError)
    match.sit_in("P3")
    match.start_deal(seed=1)
    assert len(match.deal_seats) == 4
    two = Match(preset("003"), [("A", 50), ("B", 50)])
    assert two.phase is MatchPhase.OVER
    with pytest.raises(SeatError):
        two.start_deal()
    with pytest.raises(ItalianPokerError):
        Rules(players=3, min_players=4)
    # A house that seats fewer on purpose deals to all its seats.
    assert preset("003", players=3).min_players == 3
    assert preset("003").with_options(players=2).min_players == 2


def test_5_5_a_parol_pot_nobody_can_make_up_leaves_the_match_over() -> None:
    """5.5: when the players left cannot pay the make-up and the ante, no deal can begin: the
    match says so (``OVER``) instead of offering a start that it then refuses."""
    match = new_match(Rules(ante=2), stacks=(5, 5, 5, 5))
    parol_deal(match)  # the opener and the caller keep 1 chip, short of the ante: they leave
    assert [name for name, _ in match.departed] == ["P1", "P2"]
    assert [s.stack for s in match.seats] == [3, 3]  # the folders owe 2 more and the ante
    assert match.phase is MatchPhase.OVER
    refused(match, lambda: match.start_deal(), SeatError)


def test_5_5_everyone_leaves_while_a_parol_pot_is_carried() -> None:
    """Every player leaving between deals while a parol pot is carried (5.5) empties the table
    without error, the dealer last; the match is over and says who left with what."""
    match = after_parol()
    dealer = match.dealer_name
    for name in [s.name for s in match.seats if s.name != dealer] + [dealer]:
        match.leave(name)
    assert match.phase is MatchPhase.OVER
    assert not match.seats
    assert [name for name, _ in match.departed][-1] == dealer


def test_5_5_chips_to_play_count_the_make_up() -> None:
    """What a player needs to be dealt in: the ante, and after a parol a first-round folder's
    make-up first (5.5): here the two who stayed need the ante (1), the two folders 1 + 2."""
    match = new_match(Rules())
    assert {match.chips_to_play(s.name) for s in match.seats} == {1}
    parol_deal(match)
    needs = sorted(match.chips_to_play(s.name) for s in match.seats)
    assert needs == [1, 1, 3, 3]
    rich = preset("standard", dealer_ante=2)
    assert new_match(rich).chips_to_play("P0") == 3  # the dealer's extra ante may be asked
