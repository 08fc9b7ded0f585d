"""The four endings of the second round after a parol (5.4), with stacked decks.

A parol (5.2(c)) only proposes to abandon the hand: the deal ends as a parol (5.4(a)) only if
every player says it. A bet after a parol must be answered like any other: called, it goes to a
showdown (5.4(d)); folded to, the bettor takes the pot (5.4(c)). That holds when the bettor or
the caller is all-in. Seats are 0..n-1; the dealer is seat 0 unless said, so seat 1 acts first.
"""

from __future__ import annotations

from engine_helpers import new_deal, play, rules

from italian_poker import Action, ActionKind, Deal, Outcome, Phase
from italian_poker.engine.actions import bet, call, draw, fold, open_, parol, pass_, raise_to
from italian_poker.engine.history import HandHistory, dumps, loads, replay

# Four players: the deck runs 7..A (section 1).
JJ = "Jh Jc 7d 8s Ac"  # a pair of jacks: opens (3.3(a)) and wins every showdown below
N1 = "7s 9c Jd Kh Ad"  # nothing, ace-king high
N2 = "8h Tc Qd Ah 7c"  # nothing, ace-queen high
N3 = "9s Js Kd 7h 8d"  # nothing
STD = {1: JJ, 2: N1, 3: N2, 0: N3}
SHOW = Action(ActionKind.SHOW)


def heads_up(stacks: tuple[int, ...] = (100,) * 4) -> Deal:
    """Seat 1 opens for 2, seat 2 calls, 3 and 0 fold; both stand pat. Pot: 4 antes + 4."""
    deal = new_deal(rules(), STD, stacks=stacks)
    play(deal, (1, open_(2)), (2, call()), (3, fold()), (0, fold()), (1, draw()), (2, draw()))
    assert deal.phase is Phase.SECOND_ROUND and deal.actor == 1
    return deal


def three_way(stacks: tuple[int, ...] = (100,) * 4) -> Deal:
    """Seat 1 opens for 2, seats 2 and 3 call, 0 folds; all stand pat. Pot: 4 antes + 6."""
    deal = new_deal(rules(), STD, stacks=stacks)
    play(deal, (1, open_(2)), (2, call()), (3, call()), (0, fold()))
    play(deal, (1, draw()), (2, draw()), (3, draw()))
    assert deal.phase is Phase.SECOND_ROUND and deal.actor == 1
    return deal


def replays_identically(deal: Deal) -> None:
    """The finished deal's history, written and read back, replays to the same result."""
    history = HandHistory.from_deal(deal)
    again = replay(loads(dumps(history)))
    assert again.result == deal.result


# --- 5.4(a): everyone says parol ---------------------------------------------------------------


def test_art5_4_a_three_players_all_say_parol() -> None:
    """5.4(a): all three say parol: the cards are thrown in and the pot carries (5.5); the
    first-round folder owes the make-up to the level of those who stayed."""
    deal = three_way()
    play(deal, (1, parol()), (2, parol()), (3, parol()))
    assert deal.result is not None
    assert deal.result.outcome is Outcome.PAROL
    assert deal.result.carried == 4 + 6
    assert deal.result.awards == ()
    assert deal.result.makeups == (2, None, None, None)
    replays_identically(deal)


# --- 5.4(d): a bet after a parol, called: showdown ----------------------------------------------


def test_art5_4_d_parol_then_bet_then_call_goes_to_showdown() -> None:
    """5.4(d): a parol, then a bet, then a call: showdown, not a parol; the pot is won."""
    deal = heads_up()
    play(deal, (1, parol()), (2, bet(5)), (1, call()))
    assert deal.phase is Phase.SHOWDOWN
    play(deal, (2, SHOW), (1, SHOW))  # 002: the first bettor shows first
    assert deal.result is not None
    assert deal.result.outcome is Outcome.WON
    assert deal.result.carried == 0
    assert deal.result.winnings == {1: 8 + 10}
    replays_identically(deal)


def test_art5_4_d_parols_then_bet_raise_and_call_goes_to_showdown() -> None:
    """5.4(d): two parols, a bet, a raise by a player who said parol, a call: showdown among
    those who stayed."""
    deal = three_way()
    play(deal, (1, parol()), (2, parol()), (3, bet(3)), (1, raise_to(6)), (2, fold()))
    play(deal, (3, call()))
    assert deal.phase is Phase.SHOWDOWN
    assert set(deal.showdown_order) == {1, 3}


# --- 5.4(c): a bet after a parol, everyone folds: the bettor wins --------------------------------


def test_art5_4_c_parols_then_bet_then_all_fold_bettor_wins() -> None:
    """5.4(c): two parols, a bet, both fold: the bettor takes the pot without showing."""
    deal = three_way()
    play(deal, (1, parol()), (2, parol()), (3, bet(5)), (1, fold()), (2, fold()))
    assert deal.result is not None
    assert deal.result.outcome is Outcome.WON
    assert deal.result.carried == 0
    assert deal.result.winnings == {3: 4 + 6 + 5}
    assert deal.result.shown == {}
    replays_identically(deal)


# --- all-in bets after a parol ------------------------------------------------------------------


def test_art5_4_d_parol_then_all_in_bet_called_heads_up() -> None:
    """5.4(d): after a parol the other player bets his last chip and is called: showdown (the
    all-in bettor cannot act any more, yet the deal is no parol)."""
    deal = new_deal(
        rules(players=2),
        {0: "9h Th Qc Kd As", 1: "Ah Ad 9d Td Jc"},
        dealer=1,
        stacks=(3, 100),
    )
    play(deal, (0, pass_()), (1, open_(1)), (0, call()), (0, draw()), (1, draw()))
    play(deal, (1, parol()), (0, bet(1)), (1, call()))
    assert deal.stacks[0] == 0
    assert deal.phase is Phase.SHOWDOWN
    play(deal, (0, SHOW), (1, SHOW))
    assert deal.result is not None
    assert deal.result.outcome is Outcome.WON
    assert deal.result.carried == 0
    assert deal.result.winnings == {1: 6}  # the pair of aces
    assert deal.result.stacks == (0, 103)
    replays_identically(deal)


def test_art5_4_d_parols_then_all_in_bet_called_three_way() -> None:
    """5.4(d): two parols, then an all-in bet; one calls, one folds: showdown between the
    caller and the all-in bettor, though only the caller could still act."""
    deal = three_way(stacks=(100, 100, 100, 5))  # seat 3 has 2 chips left for the second round
    play(deal, (1, parol()), (2, parol()), (3, bet(2)), (1, call()), (2, fold()))
    assert deal.stacks[3] == 0
    assert deal.phase is Phase.SHOWDOWN
    play(deal, (3, SHOW), (1, SHOW))
    assert deal.result is not None
    assert deal.result.outcome is Outcome.WON
    assert deal.result.winnings == {1: 4 + 6 + 4}
    replays_identically(deal)


def test_art5_4_c_parols_then_all_in_bet_everyone_folds() -> None:
    """5.4(c): two parols, then an all-in bet that both fold to: the bettor wins uncalled."""
    deal = three_way(stacks=(100, 100, 100, 5))
    play(deal, (1, parol()), (2, parol()), (3, bet(2)), (1, fold()), (2, fold()))
    assert deal.result is not None
    assert deal.result.outcome is Outcome.WON
    assert deal.result.winnings == {3: 4 + 6 + 2}
    assert deal.result.shown == {}


def test_art5_4_d_parol_then_bet_called_all_in_for_less() -> None:
    """5.4(d): a parol, then a bet larger than the parol player's stack, called all-in for
    less: showdown; the uncalled part of the bet is a side pot only the bettor can win."""
    deal = heads_up(stacks=(100, 6, 100, 100))  # seat 1 has 3 chips left for the second round
    play(deal, (1, parol()), (2, bet(10)), (1, call()))
    assert deal.stacks[1] == 0
    assert deal.phase is Phase.SHOWDOWN
    play(deal, (2, SHOW), (1, SHOW))
    assert deal.result is not None
    assert deal.result.outcome is Outcome.WON
    assert deal.result.winnings == {1: 8 + 6, 2: 7}
    replays_identically(deal)
