"""Full raises and short all-ins (000 Art. 2, 3, 5; docs/rules.md, "Full raises and short
all-ins"): a full bet or raise re-opens the betting to every player who had acted; only an
all-in for less than a full raise, a short all-in, may leave it closed to them. What a full raise
is depends on the betting structure: at least the round's minimum bet in spread limit (000:
bets between the agreed minimum and maximum), the bet size in fixed limit, and in pot and no
limit at least the last full increment (002's structures). The readings the documents leave
open are Rules options: short all-ins that add up (``short_all_ins_add_up``), whether a short
all-in counts as a raise (``short_all_in_is_raise``) and the raise cap heads-up
(``raise_cap_heads_up``).

Four players, the dealer is seat 0, so seat 1 acts first; only seat 1 holds an opening hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from engine_helpers import new_deal, play, rules
from hypothesis import given, settings
from hypothesis import strategies as st

from italian_poker import (
    Action,
    ActionKind,
    BettingStructure,
    Deal,
    DealStart,
    Phase,
    Rules,
    RulesError,
    preset,
)
from italian_poker.engine.actions import call, check, draw, fold, open_, raise_to
from italian_poker.engine.betting_round import full_raise
from italian_poker.engine.card_source import SeededSource

JJ = "Jh Jc 7d 8s Ac"  # a pair of jacks: opens (3.3(a))
N1 = "7s 9c Jd Kh Ad"
N2 = "8h Tc Qd Ah 7c"
N3 = "9s Js Kd 7h 8d"
HANDS = {1: JJ, 2: N1, 3: N2, 0: N3}

BLIND = Action(ActionKind.BLIND)
DECLINE = Action(ActionKind.DECLINE)

SPREAD, FIXED = BettingStructure.SPREAD_LIMIT, BettingStructure.FIXED_LIMIT
POT, NO_LIMIT = BettingStructure.POT_LIMIT, BettingStructure.NO_LIMIT


def raise_offer(deal: Deal) -> tuple[int | None, int | None] | None:
    """The raise offered to the seat to act, as (least, most) round totals, or ``None``."""
    for legal in deal.legal_actions():
        if legal.kind is ActionKind.RAISE:
            return legal.min_amount, legal.max_amount
    return None


def stacks(**short: int) -> list[int]:
    """100 chips a seat, except the seats named ``s0``..``s3``, which start with fewer."""
    chips = [100] * 4
    for name, value in short.items():
        chips[int(name[1:])] = value
    return chips


def deal_of(stack: list[int] | None = None, *, carried: int = 0, **changes: Any) -> Deal:
    """A deal without blinds under the standard rules with ``changes``, ``carried`` chips in
    the pot from earlier deals (so that pot limit allows the bets wanted)."""
    return new_deal(rules(**changes), HANDS, stacks=stack, carried=carried)


# --- the definition, in one place ---------------------------------------------------------------


def test_full_raise_per_structure() -> None:
    """Spread limit: the round's minimum bet (000: agreed minimum and maximum bets); fixed
    limit: the bet size; pot and no limit: the last full increment, at least the minimum bet
    (002's structures)."""
    assert full_raise(SPREAD, 1, 9) == 1
    assert full_raise(FIXED, 2, 2) == 2
    assert full_raise(POT, 1, 6) == 6
    assert full_raise(NO_LIMIT, 1, 6) == 6
    assert full_raise(NO_LIMIT, 5, 3) == 5
    assert full_raise(POT, 5, 0) == 5


# --- spread limit (000 Art. 3, the default) -----------------------------------------------------


def test_spread_a_raise_smaller_than_the_last_reopens_the_betting() -> None:
    """000 Art. 3, spread limit 1-10: open 10, raise to 11 (a raise of 1, the minimum bet: a
    full raise), two folds: the opener may raise again (the engine offered only fold or call)."""
    deal = deal_of()
    play(deal, (1, open_(10)), (2, raise_to(11)), (3, fold()), (0, fold()))
    assert raise_offer(deal) == (12, 21)
    play(deal, (1, raise_to(12)))
    assert raise_offer(deal) == (13, 22)


def test_spread_a_small_raise_after_a_large_one_reopens_for_everyone() -> None:
    """000 Art. 3: open 2, raise to 12, raise to 13: the last raise is by the minimum bet, so
    the opener and the first raiser may both raise again."""
    deal = deal_of()
    play(deal, (1, open_(2)), (2, raise_to(12)), (3, raise_to(13)), (0, fold()))
    assert raise_offer(deal) == (14, 23)
    play(deal, (1, call()))
    assert raise_offer(deal) == (14, 23)


def test_spread_a_raise_starts_at_the_minimum_bet_not_the_last_raise() -> None:
    """000 Art. 3: in spread limit every raise may be from the minimum bet to the maximum."""
    deal = deal_of(min_bet=2, max_bet=10)
    play(deal, (1, open_(10)))
    assert raise_offer(deal) == (12, 20)


def test_spread_a_short_all_in_does_not_reopen() -> None:
    """Spread limit 5-10: open 10, all-in to 13 (a raise of 3, short of the minimum bet 5):
    the opener, who had acted, may only call or fold."""
    deal = deal_of(stacks(s2=14), min_bet=5)
    play(deal, (1, open_(10)))
    assert raise_offer(deal) == (13, 13)  # all-in for less
    play(deal, (2, raise_to(13)))
    assert raise_offer(deal) == (18, 23)  # seat 3 had not acted: a full raise over 13
    play(deal, (3, fold()), (0, fold()))
    assert deal.stacks[2] == 0
    assert {legal.kind for legal in deal.legal_actions()} == {ActionKind.FOLD, ActionKind.CALL}


def test_spread_after_a_blind_a_raise_by_two_reopens() -> None:
    """000 Art. 2: the last blind bettor may "raise and start a normal betting round": after
    his raise by 2 over the buio of 4, the others may raise again."""
    deal = new_deal(Rules(), HANDS)
    play(deal, (1, BLIND), (2, DECLINE), (2, call()), (3, call()), (0, call()))
    assert raise_offer(deal) == (5, 14)
    play(deal, (1, raise_to(6)))
    assert raise_offer(deal) == (7, 16)
    play(deal, (2, raise_to(7)), (3, fold()), (0, fold()))
    assert raise_offer(deal) == (8, 17)


def test_a_short_all_in_bet_does_not_reopen_to_who_checked() -> None:
    """5.2 with spread limit 5-10: the opener checks, the next player bets all-in for 3, less
    than the minimum bet: a player who had not acted may raise (by at least 5), the opener who
    checked may only call or fold."""
    deal = deal_of(stacks(s2=9), min_bet=5)
    play(deal, (1, open_(5)), (2, call()), (3, call()), (0, fold()))
    play(deal, (1, draw()), (2, draw()), (3, draw()))
    play(deal, (1, check()), (2, Action(ActionKind.BET, 3)))
    assert deal.stacks[2] == 0
    assert raise_offer(deal) == (8, 13)
    play(deal, (3, call()))
    assert {legal.kind for legal in deal.legal_actions()} == {ActionKind.FOLD, ActionKind.CALL}


# --- fixed limit (002) --------------------------------------------------------------------------


def test_fixed_after_a_blind_a_raise_by_the_bet_size_reopens() -> None:
    """000 Art. 2 with 002's fixed limit: the last blind bettor's raise by the bet size is a
    full raise; nobody could ever re-raise it before."""
    deal = new_deal(Rules(structure=FIXED, small_bet=2, big_bet=4), HANDS)
    play(deal, (1, BLIND), (2, DECLINE), (2, call()), (3, call()), (0, call()))
    assert raise_offer(deal) == (6, 6)
    play(deal, (1, raise_to(6)))
    assert raise_offer(deal) == (8, 8)
    play(deal, (2, raise_to(8)), (3, call()), (0, fold()))
    assert raise_offer(deal) == (10, 10)


def test_fixed_a_raise_by_the_bet_size_reopens() -> None:
    """002 fixed limit: open 2, raise to 4, folds: the opener may raise to 6."""
    deal = deal_of(structure=FIXED, small_bet=2, big_bet=4)
    play(deal, (1, open_(2)), (2, raise_to(4)), (3, fold()), (0, fold()))
    assert raise_offer(deal) == (6, 6)


def test_fixed_a_short_all_in_does_not_reopen() -> None:
    """002 fixed limit 2: open 2, all-in to 3 (short of the bet size): the opener may only
    call or fold; a player who had not acted may still raise (to 5)."""
    deal = deal_of(stacks(s2=4), structure=FIXED, small_bet=2, big_bet=4)
    play(deal, (1, open_(2)), (2, raise_to(3)))
    assert raise_offer(deal) == (5, 5)
    play(deal, (3, call()), (0, fold()))
    assert raise_offer(deal) is None


# --- pot limit and no limit (002) ---------------------------------------------------------------


@pytest.mark.parametrize("structure", [POT, NO_LIMIT])
def test_big_bet_a_raise_of_the_last_increment_reopens(structure: BettingStructure) -> None:
    """002 pot and no limit: open 4, raise to 8 (by the last increment, 4): the opener may
    raise again, by at least 4."""
    deal = deal_of(structure=structure)
    play(deal, (1, open_(4)), (2, raise_to(8)), (3, fold()), (0, fold()))
    offer = raise_offer(deal)
    assert offer is not None and offer[0] == 12


@pytest.mark.parametrize("structure", [POT, NO_LIMIT])
def test_big_bet_a_short_all_in_does_not_reopen(structure: BettingStructure) -> None:
    """002 pot and no limit: open 4, raise to 10 (by 6), all-in to 13 (by 3, short of 6): the
    raiser to 10, who faces only the short all-in, may call or fold; the opener, who faces the
    full raise, may raise (by at least 6 over 13)."""
    deal = deal_of(stacks(s3=14), structure=structure)
    play(deal, (1, open_(4)), (2, raise_to(10)), (3, raise_to(13)), (0, fold()))
    offer = raise_offer(deal)
    assert offer is not None and offer[0] == 19
    play(deal, (1, call()))
    assert raise_offer(deal) is None


@pytest.mark.parametrize("structure", [POT, NO_LIMIT])
def test_big_bet_after_a_blind_the_least_raise_is_the_blind(structure: BettingStructure) -> None:
    """000 Art. 2 with 002's pot and no limit: the buio (4) is the last full increment, so the
    last blind bettor raises by at least 4, and that raise re-opens the betting."""
    deal = new_deal(Rules(structure=structure), HANDS)
    play(deal, (1, BLIND), (2, DECLINE), (2, call()), (3, call()), (0, fold()))
    offer = raise_offer(deal)
    assert offer is not None and offer[0] == 8
    play(deal, (1, raise_to(8)))
    offer = raise_offer(deal)
    assert offer is not None and offer[0] == 12


# --- (a) short all-ins that add up to a full raise ----------------------------------------------


def test_fixed_two_short_all_ins_make_a_full_raise() -> None:
    """Fixed limit 2: open 2, all-in to 3, all-in to 4, a call: the opener faces 2 more, a
    full raise, and may raise again (``short_all_ins_add_up``, the cardroom convention)."""
    deal = deal_of(stacks(s2=4, s3=5), structure=FIXED, small_bet=2, big_bet=4)
    play(deal, (1, open_(2)), (2, raise_to(3)), (3, raise_to(4)), (0, call()))
    assert raise_offer(deal) == (6, 6)


@pytest.mark.parametrize("structure", [POT, NO_LIMIT])
def test_big_bet_two_short_all_ins_make_a_full_raise(structure: BettingStructure) -> None:
    """Pot and no limit: open 10, all-in to 15 (by 5), all-in to 21 (by 6): each is short of
    10, but the opener faces 11: he may raise (by at least 10). The player who called 21 faces
    nothing more."""
    deal = deal_of(stacks(s2=16, s3=22), structure=structure, carried=40)
    play(deal, (1, open_(10)), (2, raise_to(15)), (3, raise_to(21)), (0, call()))
    offer = raise_offer(deal)
    assert offer is not None and offer[0] == 31


def test_short_all_ins_that_add_up_do_not_reopen_when_the_option_is_off() -> None:
    """``short_all_ins_add_up=False``: only one full raise re-opens the betting."""
    deal = deal_of(
        stacks(s2=4, s3=5),
        structure=FIXED,
        small_bet=2,
        big_bet=4,
        short_all_ins_add_up=False,
    )
    play(deal, (1, open_(2)), (2, raise_to(3)), (3, raise_to(4)), (0, call()))
    assert raise_offer(deal) is None


def test_short_all_ins_reopen_only_for_who_faces_a_full_raise() -> None:
    """No limit: open 10, all-in to 15, a call of 15, all-in to 21: the opener faces 11 (a full
    raise), the caller of 15 only 6: only the opener may raise."""
    deal = deal_of(stacks(s2=16, s0=22), structure=NO_LIMIT, carried=40)
    play(deal, (1, open_(10)), (2, raise_to(15)), (3, call()), (0, raise_to(21)))
    offer = raise_offer(deal)
    assert offer is not None and offer[0] == 31
    play(deal, (1, call()))
    assert deal.actor == 3 and raise_offer(deal) is None


# --- (b) a short all-in and the raise cap, and 5.1 ----------------------------------------------


def test_a_short_all_in_does_not_count_toward_the_cap() -> None:
    """000 Art. 1 (a cap agreed before play), cap 1 in fixed limit: a short all-in is not a
    raise, so the next player may still make the one raise allowed."""
    deal = deal_of(stacks(s2=4), structure=FIXED, small_bet=2, big_bet=4, raise_cap=1)
    play(deal, (1, open_(2)), (2, raise_to(3)))
    assert raise_offer(deal) == (5, 5)
    play(deal, (3, raise_to(5)))
    assert raise_offer(deal) is None


def test_a_short_all_in_counts_toward_the_cap_under_the_option() -> None:
    """``short_all_in_is_raise=True``: the short all-in uses up the cap of 1."""
    deal = deal_of(
        stacks(s2=4),
        structure=FIXED,
        small_bet=2,
        big_bet=4,
        raise_cap=1,
        short_all_in_is_raise=True,
    )
    play(deal, (1, open_(2)), (2, raise_to(3)))
    assert raise_offer(deal) is None


def _second_round_after_a_short_all_in(**changes: Any) -> Deal:
    """Fixed limit 2: seat 1 opens 2, seat 2 raises to 4, seat 3 is all-in to 5 (short), seat
    0 folds, both call; nobody draws."""
    deal = deal_of(stacks(s3=6), structure=FIXED, small_bet=2, big_bet=4, **changes)
    play(deal, (1, open_(2)), (2, raise_to(4)), (3, raise_to(5)), (0, fold()))
    play(deal, (1, call()), (2, call()), (1, draw()), (2, draw()), (3, draw()))
    assert deal.phase is Phase.SECOND_ROUND
    return deal


def test_art5_1_the_last_full_raiser_begins_the_second_round() -> None:
    """5.1: "the last player who raised" is the last full raiser (seat 2), not the short
    all-in (seat 3, after whom seat 1 would begin)."""
    assert _second_round_after_a_short_all_in().actor == 2


def test_art5_1_a_short_all_in_is_the_last_raiser_under_the_option() -> None:
    """``short_all_in_is_raise=True``: the short all-in (seat 3) is the last raiser; being
    all-in, the next player able to act (seat 1) begins."""
    assert _second_round_after_a_short_all_in(short_all_in_is_raise=True).actor == 1


# --- (c) the raise cap heads-up -----------------------------------------------------------------


def test_the_cap_is_lifted_heads_up() -> None:
    """002: the cap "is often put out of play when only two players remain": cap 1, the opener
    and one player left, who raises: the opener may raise again, and so on."""
    deal = deal_of(structure=FIXED, small_bet=2, big_bet=4, raise_cap=1)
    play(deal, (1, open_(2)), (2, fold()), (3, fold()), (0, raise_to(4)))
    assert raise_offer(deal) == (6, 6)
    play(deal, (1, raise_to(6)))
    assert raise_offer(deal) == (8, 8)


def test_the_cap_binds_heads_up_under_the_option() -> None:
    """``raise_cap_heads_up=True``: the cap binds with two players too."""
    deal = deal_of(structure=FIXED, small_bet=2, big_bet=4, raise_cap=1, raise_cap_heads_up=True)
    play(deal, (1, open_(2)), (2, fold()), (3, fold()), (0, raise_to(4)))
    assert raise_offer(deal) is None


def test_a_cap_reached_three_handed_is_not_lifted_by_a_fold() -> None:
    """The cap reached with three or more players binds for the rest of the round, even when
    folds leave two (the cardroom rule)."""
    deal = deal_of(structure=FIXED, small_bet=2, big_bet=4, raise_cap=1)
    play(deal, (1, open_(2)), (2, raise_to(4)), (3, fold()), (0, fold()))
    assert raise_offer(deal) is None
    play(deal, (1, call()))
    assert deal.phase is Phase.DRAW


def test_heads_up_counts_the_players_who_are_not_all_in() -> None:
    """Three in the hand, one of them all-in: the two others play heads-up, without the cap."""
    deal = deal_of(stacks(s2=3), structure=FIXED, small_bet=2, big_bet=4, raise_cap=1)
    play(deal, (1, open_(2)), (2, call()), (3, fold()), (0, raise_to(4)))
    assert deal.stacks[2] == 0
    assert raise_offer(deal) == (6, 6)


def test_a_second_round_bet_and_check_do_not_count_as_raises() -> None:
    """5.2: the second round's first bet is not a raise: with cap 1 one raise follows it."""
    deal = deal_of(structure=FIXED, small_bet=2, big_bet=4, raise_cap=1)
    play(deal, (1, open_(2)), (2, call()), (3, call()), (0, fold()))
    play(deal, (1, draw()), (2, draw()), (3, draw()))
    play(deal, (1, check()), (2, Action(ActionKind.BET, 4)))
    assert raise_offer(deal) == (8, 8)


# --- the options --------------------------------------------------------------------------------


def test_the_options_round_trip_and_are_checked() -> None:
    """The three readings are options of Rules, with 002's reading of the cap the default."""
    table = Rules(raise_cap_heads_up=True, short_all_in_is_raise=True, short_all_ins_add_up=False)
    assert Rules.from_dict(table.to_dict()) == table
    assert not preset("002").raise_cap_heads_up
    assert Rules().short_all_ins_add_up and not Rules().short_all_in_is_raise
    with pytest.raises(RulesError, match="true or false"):
        Rules(short_all_ins_add_up="yes")  # type: ignore[arg-type]


# --- a referee: random betting in every structure -----------------------------------------------


@dataclass
class Referee:
    """The full-raise rule restated independently of the engine, from the cardroom wording: a
    seat may raise if it has not acted in the round, or if what it must now add to call, since
    it last acted, is at least a full raise; the raise cap counts full raises, binds with three
    or more players not all-in and stays bound once reached so; after the blinds only the last
    blind bettor may raise until he has acted (000 Art. 2)."""

    rules: Rules
    acted: dict[int, int] = field(default_factory=dict)
    """The bet to match when each seat last acted in the round."""
    last_full: int = 0
    raises: int = 0
    capped: bool = False
    locked_for: int | None = None

    def new_round(self) -> None:
        self.acted, self.last_full, self.raises, self.capped = {}, 0, 0, False
        self.locked_for = None

    def least(self, deal: Deal) -> int:
        rules = self.rules
        if rules.structure is FIXED:
            return rules.big_bet if deal.phase is Phase.SECOND_ROUND else rules.small_bet
        if rules.structure is SPREAD:
            return rules.min_bet
        return max(rules.min_bet, self.last_full)

    def may_raise(self, deal: Deal, seat: int) -> bool:
        current, n = deal.current_bet, len(deal.stacks)
        betting = [s for s in range(n) if not deal.folded[s] and deal.stacks[s] > 0]
        if self.locked_for is not None and seat != self.locked_for:
            return False
        cap = self.rules.raise_cap
        if cap is not None and self.raises >= cap and (self.capped or len(betting) > 2):
            return False
        if not any(s != seat for s in betting):
            return False
        if deal.round_bet[seat] + deal.stacks[seat] <= current:
            return False
        return seat not in self.acted or current - self.acted[seat] >= self.least(deal)

    def record(self, deal: Deal, seat: int, action: Action, before: int) -> None:
        """``seat`` took ``action`` when the bet to match was ``before``."""
        if action.kind in (ActionKind.OPEN, ActionKind.BET, ActionKind.RAISE):
            assert action.amount is not None
            increment = action.amount - before
            full = increment >= self.least(deal)
            if full:
                self.last_full = increment
            if before > 0 and (full or self.rules.short_all_in_is_raise):
                self.raises += 1
            n = len(deal.stacks)
            betting = sum(1 for s in range(n) if not deal.folded[s] and deal.stacks[s] > 0)
            cap = self.rules.raise_cap
            if cap is not None and self.raises >= cap and betting > 2:
                self.capped = True
        if seat == self.locked_for:
            self.locked_for = None
        self.acted[seat] = deal.current_bet


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    players=st.integers(2, 6),
    structure=st.sampled_from(list(BettingStructure)),
    cap=st.sampled_from([None, 1, 2]),
    short_is_raise=st.booleans(),
    data=st.data(),
)
def test_random_betting_follows_the_full_raise_rule(
    seed: int,
    players: int,
    structure: BettingStructure,
    cap: int | None,
    short_is_raise: bool,
    data: st.DataObject,
) -> None:
    """Random deals with blinds, small stacks (all-ins of every size) and raises of every
    legal size: before every decision the engine offers a raise exactly when the referee says
    a seat may raise (000 Art. 2, 3, 5)."""
    table = Rules(
        players=players,
        structure=structure,
        min_bet=2,
        max_bet=8,
        small_bet=2,
        big_bet=4,
        raise_cap=cap,
        short_all_in_is_raise=short_is_raise,
        four_straight_flush_opens=True,
    )
    stacks = tuple(data.draw(st.integers(3, 40)) for _ in range(players))
    deal = Deal(
        DealStart(table, tuple(f"P{i}" for i in range(players)), stacks), SeededSource(seed)
    )
    referee = Referee(table)
    phase = deal.phase
    while deal.actor is not None:
        if deal.phase is not phase:
            if deal.phase is Phase.SECOND_ROUND or phase is Phase.BLINDS:
                referee.new_round()
            if phase is Phase.BLINDS and deal.phase is Phase.FIRST_ROUND:
                last = deal.blinders[-1]
                referee.locked_for = last
                if len(deal.blinders) > 1:
                    referee.last_full = deal.round_bet[last] - deal.round_bet[deal.blinders[-2]]
                else:
                    referee.last_full = deal.round_bet[last]
            phase = deal.phase
        seat, legal = deal.actor, deal.legal_actions()
        if phase in (Phase.FIRST_ROUND, Phase.SECOND_ROUND) and deal.current_bet > 0:
            offered = any(la.kind is ActionKind.RAISE for la in legal)
            assert offered == referee.may_raise(deal, seat), (seat, legal)
        choice = data.draw(st.sampled_from(legal))
        if choice.kind is ActionKind.DRAW:
            action = Action(ActionKind.DRAW)
        elif choice.min_amount is not None and choice.kind not in (ActionKind.CALL,):
            assert choice.max_amount is not None
            amount = data.draw(st.integers(choice.min_amount, choice.max_amount))
            action = Action(choice.kind, amount)
        else:
            action = Action(choice.kind)
        before = deal.current_bet
        deal.apply(action, seat)
        if phase in (Phase.OPENING, Phase.FIRST_ROUND, Phase.SECOND_ROUND):
            referee.record(deal, seat, deal.actions[-1].action, before)
