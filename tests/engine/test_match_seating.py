"""Seat changes between deals and the deal after a parol: the dealer button (000 Art. 1), who is
dealt in while a parol pot is carried (5.5 and the `parol_latecomers` decision) and when a match
is over. Regression tests for the defects found by a random seat-change fuzz."""

from __future__ import annotations

import pytest
from engine_helpers import new_match, parol_deal, rules, stacked_deck, table_chips

from italian_poker import (
    Action,
    ActionKind,
    Direction,
    Match,
    MatchPhase,
    Outcome,
    ParolLatecomers,
    Rules,
    RulesError,
    SeatError,
    preset,
)
from italian_poker.engine.actions import pass_

JJ = "Jh Jc 7d 8s Ac"
N1 = "7s 9c Jd Kh Ad"
N2 = "8h Tc Qd Ah 7c"
N3 = "9s Js Kd 7h 8d"
MAKE_UP = Action(ActionKind.MAKE_UP)
SIT_OUT = Action(ActionKind.SIT_OUT)


def pass_all(match: Match) -> None:
    while match.phase is MatchPhase.IN_DEAL:
        match.apply(pass_())


# --- the dealer button (000 Art. 1) ----------------------------------------------------------


def test_dealer_who_leaves_while_the_others_sit_out_passes_the_deal_to_the_left() -> None:
    """000 Art. 1: the deal passes to the left. The dealer leaving while everyone else sits out
    used to leave the button with a player no longer seated, and every later ``start_deal``
    raised a bare ``ValueError: 'A' is not in list``."""
    match = Match(
        Rules(blind_allowed=False, controbuio_allowed=False, over_allowed=False),
        [("A", 50), ("B", 50), ("C", 50)],
        seed=1,
    )
    match.sit_out("B")
    match.sit_out("C")
    match.leave("A")
    assert match.dealer_name == "B"  # A's left
    match.sit_in("B")
    match.sit_in("C")
    match.start_deal()
    assert match.phase is MatchPhase.IN_DEAL
    assert match.deal is not None and match.deal_seats[match.deal.dealer] == "B"


def test_dealer_who_leaves_hands_the_button_to_the_next_seat_counter_clockwise() -> None:
    """000 Art. 1 with 003's direction: the next seat is the dealer's right."""
    match = Match(preset("003", blind_allowed=False), [("A", 50), ("B", 50), ("C", 50), ("D", 50)])
    assert match.rules.direction is Direction.COUNTER_CLOCKWISE
    match.leave("A")
    assert match.dealer_name == "D"


def test_last_player_leaving_then_new_players_take_the_button() -> None:
    """An emptied table gives the button to the first player who sits down again."""
    match = new_match(rules(players=2))
    match.leave("P0")
    match.leave("P1")
    match.join("X", 30)
    match.join("Y", 30)
    match.start_deal(seed=3)
    assert match.deal is not None and match.deal_seats[match.deal.dealer] == "X"


def test_busted_dealer_passes_the_button_to_the_left() -> None:
    """000 Art. 1: a dealer who busts leaves, and the next deal is dealt from their left."""
    match = new_match(rules(), stacks=(1, 100, 100, 100))
    pass_all_once = stacked_deck(4, {})
    match.start_deal(deck=pass_all_once)  # P0 deals and is all-in with the ante
    pass_all(match)
    # Nobody opened: P0 (ante paid, no chips left) leaves; the deal passes to P1.
    assert [name for name, _ in match.departed] == ["P0"]
    assert match.dealer_name == "P1"


# --- the deal after a parol (5.5) -------------------------------------------------------------


def test_parol_pot_not_stranded_when_the_remaining_folders_sit_out() -> None:
    """After a parol, a player who stayed sits out and the first-round folders sit the next
    deal out: there is no deal, but the match is not over (three players with chips are seated)
    and the carried pot waits; the questions are asked again on the next attempt."""
    match = new_match(rules())
    total = table_chips(match)
    parol_deal(match)  # P1, P2 stay; P3, P0 fold
    carried = match.carried
    match.sit_out("P2")
    match.start_deal(seed=2)
    assert match.phase is MatchPhase.MAKE_UP
    match.apply(SIT_OUT, "P3")
    match.apply(SIT_OUT, "P0")
    assert match.phase is MatchPhase.BETWEEN_DEALS  # not OVER
    assert match.carried == carried
    assert table_chips(match) == total
    match.start_deal(seed=2)  # asked again
    assert match.phase is MatchPhase.MAKE_UP and match.actor == "P3"
    match.apply(MAKE_UP, "P3")
    match.apply(SIT_OUT, "P0")
    assert match.phase is MatchPhase.IN_DEAL
    assert match.deal_seats == ["P1", "P3"]
    assert match.deal is not None and match.deal.pot == carried + 2 + 2
    assert table_chips(match) == total


def test_parol_pot_with_too_few_players_to_ask_is_refused_without_change() -> None:
    """5.5: when fewer than two players could be dealt in at all, ``start_deal`` refuses with a
    SeatError and leaves the match as it was (between deals, pot carried)."""
    match = new_match(rules(), stacks=(100, 100, 100, 100))
    parol_deal(match)
    match.sit_out("P2")
    match.sit_out("P3")
    match.sit_out("P0")
    assert match.phase is MatchPhase.OVER  # only P1 could be dealt in now
    match.sit_in("P0")
    assert match.phase is MatchPhase.BETWEEN_DEALS
    match.seat("P0").stack = 2  # cannot pay the make-up (2) and the ante (1)
    with pytest.raises(SeatError, match="parol pot"):
        match.start_deal(seed=1)
    assert match.phase is MatchPhase.BETWEEN_DEALS and match.carried > 0


def test_art5_5_make_up_questions_asked_in_play_order_from_the_dealers_left() -> None:
    """5.5: the make-up questions go round the table from the dealer's left, as every other
    turn does, not by seat number. Dealer P0: P1 opens, P2 calls, P3 and P0 fold. The button
    passes to P1, so play goes P2, P3, P0: P3 is asked before P0, the lower seat number."""
    match = new_match(rules())
    parol_deal(match)
    assert match.dealer_name == "P1"
    match.start_deal(seed=4)
    asked = []
    while match.phase is MatchPhase.MAKE_UP:
        asked.append(match.actor)
        match.apply(MAKE_UP)
    assert asked == ["P3", "P0"]


def test_art5_5_make_up_questions_follow_the_direction_of_play_counter_clockwise() -> None:
    """5.5 with 003's counter-clockwise play: from the dealer's right."""
    table = preset("003", blind_allowed=False)
    match = Match(table, [(f"P{i}", 100) for i in range(4)], dealer=0)
    parol_deal(match)  # dealer P0: P3 opens, P2 calls, P1 and P0 fold
    assert match.dealer_name == "P3"  # the deal passed to the right
    match.start_deal(seed=4)
    asked = []
    while match.phase is MatchPhase.MAKE_UP:
        asked.append(match.actor)
        match.apply(MAKE_UP)
    assert asked == ["P1", "P0"]  # P2 (stayed), then P1, then P0


def test_parol_latecomer_makes_up_a_stayers_contribution() -> None:
    """``parol_latecomers="make-up"`` (decided, default): a player who joins between a parol and
    the next deal pays what a player who stayed for the draw put in (the ante and the first-round
    bet of 2) before being dealt in, as the folders pay their 5.5 make-up."""
    match = new_match(rules(players=5), stacks=(100, 100, 100, 100))
    total = table_chips(match)
    parol_deal(match)
    match.join("Late", 60)
    match.start_deal(seed=9)
    while match.phase is MatchPhase.MAKE_UP:
        assert match.actor != "Late"  # joining is the decision: nothing to ask
        match.apply(MAKE_UP)
    assert match.deal is not None and "Late" in match.deal_seats
    makeups = dict(zip(match.deal_seats, match.deal.start.makeups, strict=True))
    assert makeups == {"P0": 2, "P1": 0, "P2": 0, "P3": 2, "Late": 3}
    assert match.seat("Late").stack == 60 - 3 - 1
    assert table_chips(match) == total + 60


def test_parol_latecomer_who_sat_out_the_abandoned_hand_makes_up_too() -> None:
    """The same for a player who sat out while the hand was abandoned and then sits in."""
    match = new_match(rules(players=5), stacks=(100, 100, 100, 100))
    match.join("Out", 50)
    match.sit_out("Out")
    parol_deal(match)
    match.sit_in("Out")
    match.start_deal(seed=9)
    while match.phase is MatchPhase.MAKE_UP:
        match.apply(MAKE_UP)
    assert match.deal is not None
    makeups = dict(zip(match.deal_seats, match.deal.start.makeups, strict=True))
    assert makeups["Out"] == 3


def test_parol_latecomer_waits_under_the_wait_option() -> None:
    """``parol_latecomers="wait"``: a newcomer is dealt in only once the parol pot is won."""
    match = new_match(rules(players=5, parol_latecomers=ParolLatecomers.WAIT), (100,) * 4)
    parol_deal(match)
    match.join("Late", 60)
    match.start_deal(seed=9)
    while match.phase is MatchPhase.MAKE_UP:
        match.apply(MAKE_UP)
    assert "Late" not in match.deal_seats
    assert match.seat("Late").stack == 60  # no ante either


def test_parol_latecomer_plays_for_the_ante_under_the_ante_option() -> None:
    """``parol_latecomers="ante"``: a newcomer plays for the carried pot for the ante alone
    (the engine's earlier reading)."""
    match = new_match(rules(players=5, parol_latecomers="ante"), (100,) * 4)
    parol_deal(match)
    match.join("Late", 60)
    match.start_deal(seed=9)
    while match.phase is MatchPhase.MAKE_UP:
        match.apply(MAKE_UP)
    assert match.deal is not None and "Late" in match.deal_seats
    makeups = dict(zip(match.deal_seats, match.deal.start.makeups, strict=True))
    assert makeups["Late"] == 0


def test_folder_who_sat_out_owes_the_missed_ante_after_a_passed_deal() -> None:
    """5.5 read further (make-up, default): a folder who sat out the deal after the parol,
    which was passed, pays the make-up and the ante they missed when next dealt in, so every
    player in the parol pot has put the same into it."""
    match = new_match(rules())
    total = table_chips(match)
    parol_deal(match)  # folders P3, P0 owe 2
    match.start_deal(seed=5)
    match.apply(SIT_OUT, "P3")
    match.apply(MAKE_UP, "P0")
    pass_all(match)  # nobody opens: the 5.5 conditions hold
    assert match.last_result is not None and match.last_result.outcome is Outcome.PASSED
    match.start_deal(seed=6)
    assert match.phase is MatchPhase.IN_DEAL  # nobody is asked again
    assert match.deal is not None
    makeups = dict(zip(match.deal_seats, match.deal.start.makeups, strict=True))
    assert makeups == {"P0": 0, "P1": 0, "P2": 0, "P3": 3}
    assert table_chips(match) == total


# --- stable player identity ----------------------------------------------------------------


def test_a_newcomer_with_a_departed_players_name_is_not_that_player() -> None:
    """What a player owes or has paid toward a parol pot belongs to the person (the player
    id), not the name: a folder who leaves and a newcomer who takes the name are two people.
    The newcomer is not asked the folder's 5.5 question; they pay what any latecomer pays."""
    match = new_match(rules(players=5), stacks=(100, 100, 100, 100))
    parol_deal(match)  # P3 and P0 folded: each asked to make up 2
    old_id = match.seat("P3").player_id
    match.leave("P3")
    match.join("P3", 80)
    assert match.seat("P3").player_id != old_id
    match.start_deal(seed=3)
    asked = []
    while match.phase is MatchPhase.MAKE_UP:
        asked.append(match.actor)
        match.apply(MAKE_UP)
    assert asked == ["P0"]
    assert match.deal is not None
    makeups = dict(zip(match.deal_seats, match.deal.start.makeups, strict=True))
    assert makeups["P3"] == 3  # a latecomer's due: the ante and the bet of 2 of a stayer


def test_player_ids_are_stable_unique_and_reach_the_views() -> None:
    match = Match(rules(), [("A", 50, 7), ("B", 50, 3), ("C", 50)])
    assert [s.player_id for s in match.seats] == [7, 3, 8]
    with pytest.raises(SeatError, match="already seated"):
        match.join("D", 50, player_id=3)
    with pytest.raises(SeatError, match="player id"):
        match.join("D", 50, player_id=-1)
    match.join("D", 50)
    assert match.seat_of(9).name == "D"
    match.start_deal(seed=1)
    assert match.deal is not None and match.deal.start.player_ids == (7, 3, 8, 9)
    assert match.view("B").player_ids == (7, 3, 8, 9)
    with pytest.raises(SeatError):
        match.seat_of(42)


# --- stacks set between deals (a host's adjustment, a rebuy) ---------------------------------


def test_set_stack_gives_a_player_exactly_that_many_chips_between_deals() -> None:
    match = Match(Rules(), [("A", 50), ("B", 50), ("C", 50)], seed=1)
    match.set_stack("B", 80)
    assert [s.stack for s in match.seats] == [50, 80, 50]
    match.start_deal()
    assert match.deal is not None and match.deal.start.stacks[match.deal_seats.index("B")] == 80


def test_set_stack_to_nothing_deals_the_player_out_and_the_deal_busts_them() -> None:
    no_blinds = Rules(blind_allowed=False, controbuio_allowed=False, over_allowed=False)
    match = Match(no_blinds, [("A", 50), ("B", 50), ("C", 50)], seed=1)
    match.set_stack("C", 0)
    match.set_stack("C", 30)  # changed again before the deal: dealt in
    match.start_deal()
    assert "C" in match.deal_seats
    pass_all(match)
    match.set_stack("C", 0)
    match.start_deal()
    assert "C" not in match.deal_seats
    pass_all(match)
    assert "C" not in [s.name for s in match.seats] and ("C", 0) in match.departed


def test_set_stack_with_two_players_left_with_nothing_ends_the_match() -> None:
    match = Match(Rules(), [("A", 50), ("B", 50), ("C", 50)], seed=1)
    match.set_stack("B", 0)
    match.set_stack("C", 0)
    assert match.phase is MatchPhase.OVER
    match.set_stack("C", 10)
    assert match.phase is MatchPhase.BETWEEN_DEALS


@pytest.mark.parametrize("bad", [-1, 2.0, True, "10", None])
def test_set_stack_refuses_what_is_not_whole_chips_and_changes_nothing(bad: object) -> None:
    match = Match(Rules(), [("A", 50), ("B", 50), ("C", 50)], seed=1)
    with pytest.raises(SeatError, match="whole number of chips"):
        match.set_stack("A", bad)  # type: ignore[arg-type]
    assert [s.stack for s in match.seats] == [50, 50, 50]


def test_set_stack_during_a_deal_or_of_a_stranger_is_refused() -> None:
    match = Match(Rules(), [("A", 50), ("B", 50), ("C", 50)], seed=1)
    with pytest.raises(SeatError, match="no player called 'Z'"):
        match.set_stack("Z", 10)
    match.start_deal()
    during = [s.stack for s in match.seats]
    with pytest.raises(SeatError, match="between deals"):
        match.set_stack("A", 10)
    assert [s.stack for s in match.seats] == during


# --- new rules between deals (a schedule raising the ante, 000 Art. 1) -----------------------


def test_set_rules_between_deals_plays_the_next_deal_under_the_new_ante() -> None:
    match = Match(rules(), [("A", 50), ("B", 50), ("C", 3)], seed=1)
    match.start_deal()
    assert match.deal is not None and match.deal.pot == 3
    pass_all(match)
    higher = rules(ante=5, min_bet=5, max_bet=50)
    match.set_rules(higher)
    assert match.rules is higher and match.chips_to_play("A") == 5
    match.start_deal()
    assert "C" not in match.deal_seats  # 2 chips left: fewer than the new ante
    assert match.deal is not None and match.deal.pot == 3 + 10
    pass_all(match)
    assert "C" not in [s.name for s in match.seats] and ("C", 2) in match.departed
    assert table_chips(match) == 103


def test_set_rules_during_a_deal_or_with_other_seats_is_refused_and_changes_nothing() -> None:
    match = Match(rules(), [("A", 50), ("B", 50)], seed=1)
    before = match.rules
    with pytest.raises(RulesError, match="keep the table's 4 seats"):
        match.set_rules(rules(players=5))
    with pytest.raises(RulesError, match="under Rules"):
        match.set_rules("standard")  # type: ignore[arg-type]
    match.start_deal()
    with pytest.raises(SeatError, match="between deals"):
        match.set_rules(rules(ante=2))
    assert match.rules is before


def test_set_rules_leaving_too_few_able_to_pay_ends_the_match() -> None:
    match = Match(rules(), [("A", 50), ("B", 4)], seed=1)
    match.set_rules(rules(ante=5, min_bet=5, max_bet=50))
    assert match.phase is MatchPhase.OVER
