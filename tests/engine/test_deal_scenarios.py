"""Scenario tests of one deal with stacked decks, one or more per article of the rulebook (000)
and per betting option. Seats are 0..n-1; the dealer is seat 0 unless said, so with the
clockwise deal seat 1 is served and acts first."""

from __future__ import annotations

import pytest
from engine_helpers import (
    assert_cards_unique,
    cards,
    kinds,
    new_deal,
    play,
    rules,
    snapshot,
)

from italian_poker import (
    Action,
    ActionKind,
    ActionNotAvailableError,
    BettingStructure,
    Card,
    Deal,
    DealOverError,
    DealStart,
    Deck,
    Direction,
    InvalidAmountError,
    InvalidDrawError,
    NotYourTurnError,
    OddChip,
    OpeningRequirementError,
    Outcome,
    Phase,
    Rank,
    Rules,
    SecondRoundStarter,
    ShowdownOrder,
    preset,
)
from italian_poker.engine.actions import (
    bet,
    call,
    check,
    draw,
    fold,
    open_,
    parol,
    pass_,
    raise_to,
)
from italian_poker.engine.card_source import StackedSource

# Four players: the deck runs 7..A (section 1).
JJ = "Jh Jc 7d 8s Ac"  # a pair of jacks: opens (3.3(a))
N1 = "7s 9c Jd Kh Ad"  # nothing
N2 = "8h Tc Qd Ah 7c"  # nothing
N3 = "9s Js Kd 7h 8d"  # nothing
STD = {1: JJ, 2: N1, 3: N2, 0: N3}
"""Seat 1 (first to act) can open; nobody else can."""

BLIND = Action(ActionKind.BLIND)
CONTROBUIO = Action(ActionKind.CONTROBUIO)
OVER = Action(ActionKind.OVER)
DECLINE = Action(ActionKind.DECLINE)
SHOW = Action(ActionKind.SHOW)
MUCK = Action(ActionKind.MUCK)


def conserved(deal: Deal) -> int:
    """Stacks plus the pot (plus carried chips, already in the pot)."""
    return sum(deal.stacks) + deal.pot


def to_second_round(deal: Deal) -> None:
    """Seat 1 opens for 2, 2 calls, 3 and 0 fold; both draw nothing."""
    play(deal, (1, open_(2)), (2, call()), (3, fold()), (0, fold()), (1, draw()), (2, draw()))
    assert deal.phase is Phase.SECOND_ROUND


# --- Art. 2: blinds ---------------------------------------------------------------------------


def test_art2_blind_equals_the_pot() -> None:
    """Art. 2: the buio, offered to the dealer's left before the deal, equals the pot."""
    deal = new_deal(Rules(), STD)
    assert deal.phase is Phase.BLINDS and deal.actor == 1
    assert deal.hands == [[], [], [], []]  # 2: before anyone sees their cards
    (blind,) = [la for la in deal.legal_actions() if la.kind is ActionKind.BLIND]
    assert blind.min_amount == blind.max_amount == 4  # four antes of 1
    record = deal.apply(BLIND, 1)
    assert record.action.amount == 4
    assert deal.stacks[1] == 100 - 1 - 4


def test_art2_003_blind_is_double_the_pot_counter_clockwise() -> None:
    """003: the blind is double the pot (here 4 antes + the dealer's extra 1 = 5, so 10),
    offered at the dealer's right since play runs counter-clockwise."""
    deal = new_deal(preset("003"), {})
    assert deal.pot == 5
    assert deal.actor == 3
    assert kinds(deal) == {ActionKind.BLIND, ActionKind.DECLINE}
    assert deal.legal_actions()[0].min_amount == 10
    deal.apply(BLIND, 3)
    # 003 allows no controbuio: the cards are dealt at once.
    assert deal.phase is Phase.FIRST_ROUND and deal.actor == 2


def test_art2_controbuio_and_over_double_each_time() -> None:
    """Art. 2: controbuio = twice the buio; over = twice the controbuio (four times the buio)."""
    deal = new_deal(Rules(), STD)
    deal.apply(BLIND, 1)
    assert deal.legal_actions()[0].kind is ActionKind.CONTROBUIO
    assert deal.apply(CONTROBUIO, 2).action.amount == 8
    assert deal.legal_actions()[0].kind is ActionKind.OVER
    assert deal.apply(OVER, 3).action.amount == 16
    assert deal.phase is Phase.FIRST_ROUND
    assert all(len(h) == 5 for h in deal.hands)


def test_art2_no_blind_offered_without_the_option() -> None:
    """Art. 2 is optional: without blinds the deal starts at the opening (3.2)."""
    deal = new_deal(rules(), STD)
    assert deal.phase is Phase.OPENING and deal.actor == 1


def test_art2_only_calls_until_the_last_blind_bettor_acts() -> None:
    """Art. 2: the round starts left of the last blind bettor; each may only call or fold."""
    deal = new_deal(Rules(), STD)
    play(deal, (1, BLIND), (2, DECLINE))
    assert deal.phase is Phase.FIRST_ROUND and deal.actor == 2
    assert kinds(deal) == {ActionKind.FOLD, ActionKind.CALL}
    with pytest.raises(ActionNotAvailableError):
        deal.apply(raise_to(10), 2)
    with pytest.raises(ActionNotAvailableError):
        deal.apply(open_(4), 2)
    play(deal, (2, call()), (3, call()))
    assert kinds(deal) == {ActionKind.FOLD, ActionKind.CALL}
    play(deal, (0, fold()))
    # Back to the blind bettor: end the round (check) or raise.
    assert deal.actor == 1
    assert kinds(deal) == {ActionKind.CHECK, ActionKind.RAISE}


def test_art2_earlier_blind_bettors_make_up_to_the_last_blind() -> None:
    """Art. 2: an earlier blind bettor who stays makes the bet up to the last blind."""
    deal = new_deal(Rules(), STD)
    play(deal, (1, BLIND), (2, CONTROBUIO), (3, DECLINE))
    assert deal.actor == 3  # left of the last blind bettor (seat 2)
    play(deal, (3, call()), (0, fold()))
    assert deal.actor == 1 and kinds(deal) == {ActionKind.FOLD, ActionKind.CALL}
    before = deal.stacks[1]
    record = deal.apply(call(), 1)
    assert record.action.amount == 8
    assert deal.stacks[1] == before - 4
    assert deal.actor == 2 and kinds(deal) == {ActionKind.CHECK, ActionKind.RAISE}


def test_art2_last_blind_bettor_ends_the_round_by_checking() -> None:
    """Art. 2: the last blind bettor may end the round; the draw follows."""
    deal = new_deal(Rules(), STD)
    play(deal, (1, BLIND), (2, DECLINE), (2, call()), (3, fold()), (0, fold()), (1, check()))
    assert deal.phase is Phase.DRAW


def test_art2_last_blind_bettor_raises_and_a_normal_round_follows() -> None:
    """Art. 2: the last blind bettor may raise; the others may then call, fold or raise."""
    deal = new_deal(Rules(), STD)
    play(deal, (1, BLIND), (2, DECLINE), (2, call()), (3, call()), (0, fold()))
    play(deal, (1, raise_to(8)))
    assert deal.actor == 2
    assert kinds(deal) == {ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE}
    play(deal, (2, raise_to(12)), (3, fold()), (1, call()))
    assert deal.phase is Phase.DRAW


def test_art2_everyone_folds_to_the_last_blind_bettor() -> None:
    """Art. 2: if everyone else folds, the last blind bettor wins the pot."""
    deal = new_deal(Rules(), STD)
    play(deal, (1, BLIND), (2, CONTROBUIO), (3, DECLINE), (3, fold()), (0, fold()), (1, fold()))
    assert deal.result is not None and deal.result.outcome is Outcome.WON
    assert deal.result.winnings == {2: 4 + 4 + 8}
    assert deal.result.shown == {}


def test_art2_called_blind_bettor_plays_any_cards() -> None:
    """Art. 2: a called blind bettor plays whatever they are dealt: no requirement applies."""
    deal = new_deal(Rules(), {1: N1, 2: JJ, 3: N2, 0: N3})
    play(deal, (1, BLIND), (2, DECLINE), (2, call()), (3, fold()), (0, fold()), (1, check()))
    play(deal, (1, draw()), (2, draw()))
    assert deal.phase is Phase.SECOND_ROUND
    assert deal.actor == 1  # 5.1: the last blind bettor begins
    play(deal, (1, check()), (2, check()), (1, SHOW), (2, SHOW))
    assert deal.result is not None
    assert deal.result.winnings == {2: 4 + 8}
    assert deal.result.proof == ()  # nobody opened: nothing to prove


def test_art2_blind_needs_the_chips() -> None:
    """Art. 2: a player who cannot cover the blind is not offered it."""
    deal = new_deal(Rules(), STD, stacks=(100, 4, 100, 100))
    assert deal.phase is Phase.OPENING


# --- Art. 3: the deal and the opening ---------------------------------------------------------


def test_art3_1_deal_one_card_at_a_time_from_the_dealers_left() -> None:
    """3.1: five cards each, one at a time, starting at the dealer's left (clockwise)."""
    order = Deck(4).cards
    deal = Deal(DealStart(rules(), ("a", "b", "c", "d"), (50,) * 4, dealer=2), StackedSource(order))
    served = [3, 0, 1, 2]
    for seat in range(4):
        assert deal.hands[seat] == [order[k * 4 + served.index(seat)] for k in range(5)]
    assert deal.stock == list(order[20:])


def test_art3_1_003_deal_counter_clockwise() -> None:
    """3.1 with 003: the deal starts at the dealer's right and runs counter-clockwise."""
    order = Deck(4).cards
    table = rules(direction=Direction.COUNTER_CLOCKWISE)
    deal = Deal(DealStart(table, ("a", "b", "c", "d"), (50,) * 4, dealer=0), StackedSource(order))
    served = [3, 2, 1, 0]
    for seat in range(4):
        assert deal.hands[seat] == [order[k * 4 + served.index(seat)] for k in range(5)]
    assert deal.actor == 3


def test_art3_2_pass_with_a_qualifying_hand() -> None:
    """3.2: a player may pass even with a hand that qualifies to open."""
    deal = new_deal(rules(), STD)
    assert kinds(deal) == {ActionKind.PASS, ActionKind.OPEN}
    play(deal, (1, pass_()))
    assert deal.actor == 2 and kinds(deal) == {ActionKind.PASS}


@pytest.mark.parametrize(
    "hand",
    [
        "Jh Jc 7d 8s Ac",  # 3.3(a) jacks
        "Ah As 7d 8s 9c",  # aces
        "7h 7c 8d 8s Ac",  # two pair of any ranks
        "7h 7c 7d 8s Ac",  # trips
        "7s 8d 9c Th Jd",  # straight
        "7h 8h 9h Th Kc",  # 3.3(b): 7-8-9-10 suited, completed by A or J
        "Kh Qh Jh Th 8c",  # 3.3(b): K-Q-J-10 suited, completed by 9 or A
    ],
)
def test_art3_3_hands_that_open(hand: str) -> None:
    """3.3(a)/(b): jacks or better, or four consecutive cards of one suit without the ace."""
    others = {
        s: h for s, h in {2: N1, 3: N2, 0: N3}.items() if not set(cards(h)) & set(cards(hand))
    }
    deal = new_deal(rules(), {1: hand, **others})
    deal.apply(open_(2), 1)
    assert deal.opener == 1


@pytest.mark.parametrize(
    ("hand", "changes"),
    [
        ("Th Tc 7d 8s Ac", {}),  # 3.3(a): tens are not enough
        ("Jh Jc 7d 8s Ac", {"min_pair": "Q"}),  # queens needed
        ("Ah Kh Qh Jh 8c", {}),  # 3.3(b): not with the ace
        ("7h 8h 9h Th Kc", {"four_straight_flush_opens": False}),  # 3.3(b) switched off
    ],
)
def test_art3_3_opening_requirement_not_met(hand: str, changes: dict[str, object]) -> None:
    """3.3: opening without the requirement raises OpeningRequirementError."""
    table = rules(**changes)
    deal = new_deal(table, {1: hand})
    assert kinds(deal) == {ActionKind.PASS}
    before = snapshot(deal)
    with pytest.raises(OpeningRequirementError):
        deal.apply(open_(2), 1)
    assert snapshot(deal) == before


def test_art3_5_all_pass_the_pot_stays() -> None:
    """3.5 (000): every player passes; the cards are thrown in and the pot carries."""
    deal = new_deal(rules(), STD)
    play(deal, (1, pass_()), (2, pass_()), (3, pass_()), (0, pass_()))
    assert deal.result is not None
    assert deal.result.outcome is Outcome.PASSED
    assert deal.result.carried == 4
    assert deal.result.stacks == (99, 99, 99, 99)


def test_art3_5_003_all_pass_returns_the_antes() -> None:
    """3.5 with 003 (*piatto di parole*): the bets are returned."""
    table = preset("003", **{"blind_allowed": False})
    deal = new_deal(table, {})
    for seat in (3, 2, 1, 0):
        deal.apply(pass_(), seat)
    assert deal.result is not None
    assert deal.result.outcome is Outcome.PASSED
    assert deal.result.returned == (2, 1, 1, 1)  # the dealer's extra ante comes back too
    assert deal.result.stacks == (100, 100, 100, 100)
    assert deal.result.carried == 0


def test_art3_4_passed_players_may_call_or_raise() -> None:
    """3.4 (decided): a player who passed before the opening may still call or raise."""
    deal = new_deal(rules(), {1: N1, 2: JJ, 3: N2, 0: N3})
    play(deal, (1, pass_()), (2, open_(2)), (3, fold()), (0, fold()))
    assert deal.actor == 1
    assert kinds(deal) == {ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE}
    play(deal, (1, raise_to(4)), (2, call()))
    assert deal.phase is Phase.DRAW


def test_art3_4_passed_players_out_when_the_option_is_off() -> None:
    """passed_players_may_play=False: players who passed are out once someone opens."""
    deal = new_deal(rules(passed_players_may_play=False), {1: N1, 2: JJ, 3: N2, 0: N3})
    play(deal, (1, pass_()), (2, open_(2)))
    assert deal.folded[1]
    play(deal, (3, call()), (0, fold()))
    assert deal.phase is Phase.DRAW


def test_art3_7_all_fold_opener_wins_without_showing() -> None:
    """3.7: if all but one fold, that player wins without showing (the proof is kept)."""
    deal = new_deal(rules(), STD)
    play(deal, (1, open_(3)), (2, fold()), (3, fold()), (0, fold()))
    assert deal.result is not None and deal.result.outcome is Outcome.WON
    assert deal.result.shown == {}
    assert deal.result.winnings == {1: 4 + 3}
    assert deal.result.awards[0].reason == "uncalled"
    assert set(deal.result.proof) == set(cards("Jh Jc"))


def test_opener_need_not_prove_when_the_option_is_off() -> None:
    """opener_must_prove=False: no proof of the opening at the end of the deal."""
    deal = new_deal(rules(opener_must_prove=False), STD)
    play(deal, (1, open_(3)), (2, fold()), (3, fold()), (0, fold()))
    assert deal.result is not None and deal.result.proof == ()


# --- Art. 4: the draw ---------------------------------------------------------------------------


@pytest.mark.parametrize("count", [0, 1, 2, 3, 4])
def test_art4_1_draw_none_to_four(count: int) -> None:
    """4.1: each player changes from none to four cards and gets as many back."""
    deal = new_deal(rules(), STD)
    play(deal, (1, open_(2)), (2, call()), (3, fold()), (0, fold()), (1, draw()))
    discards = tuple(deal.hands[2][:count])
    deal.apply(draw(*discards), 2)
    assert len(deal.hands[2]) == 5
    assert not set(discards) & set(deal.hands[2])
    assert deal.drawn[2] == count
    assert_cards_unique(deal)


def test_art4_1_more_than_four_cards_or_cards_not_held() -> None:
    """4.1: more than four cards, a card not held, or a repeated card: InvalidDrawError."""
    deal = new_deal(rules(), STD)
    play(deal, (1, open_(2)), (2, call()), (3, fold()), (0, fold()), (1, draw()))
    before = snapshot(deal)
    with pytest.raises(InvalidDrawError):
        deal.apply(draw(*deal.hands[2]), 2)
    with pytest.raises(InvalidDrawError):
        deal.apply(draw(*cards("Jh")), 2)  # seat 1's card
    with pytest.raises(InvalidDrawError):
        deal.apply(draw(*cards("8c")), 2)  # in the stock
    with pytest.raises(InvalidDrawError):
        deal.apply(Action(ActionKind.DRAW, cards=(deal.hands[2][0], deal.hands[2][0])), 2)
    assert snapshot(deal) == before


def test_art4_1_a_draw_takes_no_amount() -> None:
    """4.1: a draw names cards, not chips: an amount is an InvalidAmountError."""
    deal = new_deal(rules(), STD)
    play(deal, (1, open_(2)), (2, call()), (3, fold()), (0, fold()))
    with pytest.raises(InvalidAmountError):
        deal.apply(Action(ActionKind.DRAW, 7), 1)


def test_art4_2_four_cards_three_now_the_fourth_after_everyone() -> None:
    """4.2: changing four, a player gets three at once and the fourth after all others."""
    deal = new_deal(rules(), STD, stock="Qs Qc Qh Ks Kc As")
    play(deal, (1, open_(2)), (2, call()), (3, call()), (0, fold()), (1, draw()))
    play(deal, (2, draw(*cards("7s 9c Jd Kh"))))
    assert len(deal.hands[2]) == 4
    assert deal.hands[2] == [*cards("Ad Qs Qc Qh")]
    play(deal, (3, draw(*cards("8h"))))
    assert cards("Ks")[0] in deal.hands[3]  # seat 3 is served before the fourth card
    assert deal.phase is Phase.SECOND_ROUND
    assert deal.hands[2] == [*cards("Ad Qs Qc Qh Kc")]


def _nine_player_draw(seed: int) -> tuple[Deal, dict[int, tuple[Card, ...]], tuple[Card, ...]]:
    """Nine players (45 cards dealt, 7 in the stock) all change four cards; the opener
    breaks the opening (4.4). Returns the deal, each seat's discards and the kept-apart cards."""
    deal = new_deal(rules(players=9), {1: "Jh Jc 2d 3s 5c"}, seed=seed)
    deal.apply(open_(1), 1)
    for seat in [*range(2, 9), 0]:
        deal.apply(call(), seat)
    assert deal.phase is Phase.DRAW
    deal.apply(draw(*cards("Jc 2d 3s 5c"), split=True), 1)
    kept = deal.kept_apart
    assert set(kept) == set(cards("Jc 2d 3s 5c"))
    own: dict[int, tuple[Card, ...]] = {}
    for seat in [*range(2, 9), 0]:
        own[seat] = tuple(deal.hands[seat][:4])
        deal.apply(draw(*own[seat]), seat)
        if deal.phase is Phase.DRAW:
            # 4.3: the player served when the stock ran out never gets their own discards.
            assert not set(own[seat]) & set(deal.hands[seat])
        assert not set(kept) & {c for h in deal.hands for c in h}, "kept-apart cards served"
        assert_cards_unique(deal)
    return deal, own, kept


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_art4_3_reshuffle_when_the_stock_runs_out(seed: int) -> None:
    """4.3: nine players, 45 cards dealt, 7 in the stock: the discards are shuffled to finish
    the draw, leaving out the served player's own discards and the opener's kept-apart cards."""
    deal, _, kept = _nine_player_draw(seed)
    assert deal.phase is Phase.SECOND_ROUND
    assert deal.reshuffles
    assert not set(kept) & ({c for h in deal.hands for c in h} | set(deal.stock))
    assert all(len(h) == 5 for h in deal.hands)
    assert_cards_unique(deal)


def test_art4_3_no_player_gets_their_own_discards_back() -> None:
    """4.3 (decided): reshuffled discards never go back to the player who discarded them,
    including the fourth card of a four-card change (4.2) served after the reshuffle."""
    for seed in range(12):
        deal, own, _ = _nine_player_draw(seed)
        for seat, discards in own.items():
            assert not set(discards) & set(deal.hands[seat]), f"seed {seed}, seat {seat}"


def test_art4_4_opener_splitting_must_announce() -> None:
    """4.4: an opener discarding part of the opening must announce it (InvalidDrawError)."""
    deal = new_deal(rules(), STD)
    play(deal, (1, open_(2)), (2, call()), (3, fold()), (0, fold()))
    before = snapshot(deal)
    with pytest.raises(InvalidDrawError):
        deal.apply(draw(*cards("Jc 7d 8s")), 1)
    assert snapshot(deal) == before
    # Keeping the jacks needs no announcement, and others may not announce a split.
    deal.apply(draw(*cards("Jc 7d 8s"), split=True), 1)
    assert deal.kept_apart == cards("Jc 7d 8s")
    assert not set(deal.kept_apart) & {c for _, c in deal.muck}
    with pytest.raises(InvalidDrawError):
        deal.apply(draw(*cards("7s"), split=True), 2)
    play(deal, (2, draw()), (1, check()), (2, check()), (1, SHOW), (2, SHOW))
    assert deal.result is not None
    assert set(deal.result.proof) == set(cards("Jh Jc"))  # the opening proved at the end


def test_art4_4_keeping_the_opening_needs_no_announcement() -> None:
    """4.4: discarding only cards outside the opening is an ordinary draw."""
    deal = new_deal(rules(), STD)
    play(deal, (1, open_(2)), (2, call()), (3, fold()), (0, fold()))
    deal.apply(draw(*cards("7d 8s Ac")), 1)
    assert deal.kept_apart == ()


def test_art4_4_split_forbidden_by_the_option() -> None:
    """opener_may_split=False: the opener may not break the opening even announcing it."""
    deal = new_deal(rules(opener_may_split=False), STD)
    play(deal, (1, open_(2)), (2, call()), (3, fold()), (0, fold()))
    with pytest.raises(InvalidDrawError):
        deal.apply(draw(*cards("Jc"), split=True), 1)
    deal.apply(draw(*cards("Ac")), 1)


# --- Art. 5: the second round -------------------------------------------------------------------


def test_art5_1_000_last_raiser_begins() -> None:
    """5.1 (000): the last player who raised in the first round begins the second."""
    deal = new_deal(rules(), STD)
    play(deal, (1, open_(2)), (2, raise_to(4)), (3, call()), (0, fold()), (1, call()))
    play(deal, (1, draw()), (2, draw()), (3, draw()))
    assert deal.actor == 2


def test_art5_1_000_opener_begins_without_a_raise() -> None:
    """5.1 (000): with no raise, the opener begins."""
    deal = new_deal(rules(), {1: N1, 2: N2, 3: JJ, 0: N3})
    play(deal, (1, pass_()), (2, pass_()), (3, open_(2)), (0, call()), (1, call()), (2, fold()))
    play(deal, (1, draw()), (3, draw()), (0, draw()))  # 4.1: from the dealer's left
    assert deal.actor == 3


def test_art5_1_000_last_blind_bettor_begins() -> None:
    """5.1 (000): after a blind without raises, the last blind bettor begins."""
    deal = new_deal(Rules(), STD)
    play(deal, (1, BLIND), (2, CONTROBUIO), (3, DECLINE), (3, call()), (0, call()), (1, fold()))
    play(deal, (2, check()), (2, draw()), (3, draw()), (0, draw()))
    assert deal.actor == 2


def test_art5_1_001_first_round_starter_begins() -> None:
    """5.1 (001): the player who began the first round begins the second."""
    deal = new_deal(rules(second_round_starter="first-round-starter"), {1: N1, 2: JJ, 0: N3})
    play(deal, (1, pass_()), (2, open_(2)), (3, raise_to(4)), (0, fold()), (1, call()))
    play(deal, (2, call()), (1, draw()), (2, draw()), (3, draw()))
    assert deal.actor == 1


def test_art5_1_001_next_active_when_the_starter_folded() -> None:
    """5.1 (001): if the first-round starter folded, the next active player begins."""
    deal = new_deal(rules(second_round_starter="first-round-starter"), {1: N1, 2: JJ, 0: N3})
    play(deal, (1, pass_()), (2, open_(2)), (3, raise_to(4)), (0, fold()), (1, fold()))
    play(deal, (2, call()), (2, draw()), (3, draw()))
    assert deal.actor == 2


def test_art5_1_002_opener_begins_even_after_a_raise() -> None:
    """5.1 (002): the opener begins the second round."""
    deal = new_deal(rules(second_round_starter=SecondRoundStarter.OPENER), STD)
    play(deal, (1, open_(2)), (2, raise_to(4)), (3, fold()), (0, fold()), (1, call()))
    play(deal, (1, draw()), (2, draw()))
    assert deal.actor == 1


def test_art5_1_002_next_active_when_the_opener_folded() -> None:
    """5.1 (002): if the opener folded, the next active player in turn begins."""
    deal = new_deal(rules(second_round_starter=SecondRoundStarter.OPENER), STD)
    play(deal, (1, open_(2)), (2, call()), (3, raise_to(4)), (0, fold()), (1, fold()))
    play(deal, (2, call()), (2, draw()), (3, draw()))
    assert deal.actor == 2


def test_art5_2_bet_check_or_parol() -> None:
    """5.2: until someone bets: bet (a), check (b) or parol (c); after a bet: fold/call/raise."""
    deal = new_deal(rules(), STD)
    to_second_round(deal)
    assert kinds(deal) == {ActionKind.BET, ActionKind.CHECK, ActionKind.PAROL}
    deal.apply(bet(3), 1)
    assert kinds(deal) == {ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE}


def test_art5_2_b_parol_unavailable_after_a_check() -> None:
    """5.2(b): once anyone has checked, parol is no longer available."""
    deal = new_deal(rules(), STD)
    to_second_round(deal)
    deal.apply(check(), 1)
    assert ActionKind.PAROL not in kinds(deal)
    before = snapshot(deal)
    with pytest.raises(ActionNotAvailableError):
        deal.apply(parol(), 2)
    assert snapshot(deal) == before


def test_art5_2_parol_before_a_check_counts_as_a_check() -> None:
    """5.2 (decided): a parol said before a check counts as a check: showdown follows."""
    deal = new_deal(rules(), STD)
    to_second_round(deal)
    play(deal, (1, parol()), (2, check()))
    assert deal.phase is Phase.SHOWDOWN


def test_art5_2_parol_then_a_bet_must_be_answered() -> None:
    """5.2: after a parol, a bet reopens the round for the player who said it."""
    deal = new_deal(rules(), STD)
    to_second_round(deal)
    play(deal, (1, parol()), (2, bet(5)))
    assert deal.actor == 1 and kinds(deal) == {ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE}


def test_parol_not_offered_when_the_option_is_off() -> None:
    """parol_allowed=False: only bet or check in the second round."""
    deal = new_deal(rules(parol_allowed=False), STD)
    to_second_round(deal)
    assert kinds(deal) == {ActionKind.BET, ActionKind.CHECK}


def test_art5_4_a_everyone_says_parol() -> None:
    """5.4(a): every player says parol: cards thrown in, the pot carries; first-round folders
    owe the make-up of 5.5."""
    deal = new_deal(rules(), STD)
    to_second_round(deal)
    play(deal, (1, parol()), (2, parol()))
    assert deal.result is not None
    assert deal.result.outcome is Outcome.PAROL
    assert deal.result.carried == 4 + 4
    assert deal.result.awards == ()
    assert deal.result.makeups == (2, None, None, 2)


def test_art5_4_b_everyone_checks_showdown() -> None:
    """5.4(b): every player checks: immediate showdown."""
    deal = new_deal(rules(), STD)
    to_second_round(deal)
    play(deal, (1, check()), (2, check()))
    assert deal.phase is Phase.SHOWDOWN
    play(deal, (1, SHOW), (2, SHOW))
    assert deal.result is not None and deal.result.winnings == {1: 8}


def test_art5_4_c_all_but_one_fold() -> None:
    """5.4(c): all but one fold: the survivor takes the pot without a showdown."""
    deal = new_deal(rules(), STD)
    to_second_round(deal)
    play(deal, (1, bet(5)), (2, fold()))
    assert deal.result is not None
    assert deal.result.winnings == {1: 13}
    assert deal.result.shown == {}


def test_art5_4_d_called_bet_showdown() -> None:
    """5.4(d): the last bet or raise is called: showdown between the remaining players."""
    deal = new_deal(rules(), STD)
    to_second_round(deal)
    play(deal, (1, bet(5)), (2, raise_to(10)), (1, call()))
    assert deal.phase is Phase.SHOWDOWN
    assert deal.actor == 2  # 002: the last raiser shows first
    play(deal, (2, SHOW))
    assert kinds(deal) == {ActionKind.SHOW}  # seat 1's jacks beat seat 2: no muck
    play(deal, (1, SHOW))
    assert deal.result is not None and deal.result.winnings == {1: 8 + 20}
    assert sum(deal.result.stacks) == 400


# --- showdown order and mucking (001/002) --------------------------------------------------------


def _three_way_after_checks(order: ShowdownOrder) -> Deal:
    table = rules(showdown_order=order)
    deal = new_deal(table, {1: N1, 2: N2, 3: JJ, 0: N3})
    play(deal, (1, pass_()), (2, pass_()), (3, open_(2)), (0, call()), (1, call()), (2, fold()))
    play(deal, (1, draw()), (3, draw()), (0, draw()))
    return deal


def test_showdown_002_first_live_after_dealer_without_bets() -> None:
    """002: without second-round bets the first player after the dealer shows first."""
    deal = _three_way_after_checks(ShowdownOrder.LAST_AGGRESSOR)
    play(deal, (3, check()), (0, check()), (1, check()))
    assert deal.showdown_order == [1, 3, 0]


def test_showdown_001_last_bettor_shows_first() -> None:
    """001: the last player who bet (here the opener) shows first."""
    deal = _three_way_after_checks(ShowdownOrder.LAST_BETTOR)
    play(deal, (3, check()), (0, check()), (1, check()))
    assert deal.showdown_order == [3, 0, 1]


def test_showdown_002_first_bettor_then_last_raiser() -> None:
    """002: the first bettor shows first; with a raise, the last raiser."""
    deal = _three_way_after_checks(ShowdownOrder.LAST_AGGRESSOR)
    play(deal, (3, check()), (0, bet(2)), (1, call()), (3, call()))
    assert deal.showdown_order == [0, 1, 3]
    deal = _three_way_after_checks(ShowdownOrder.LAST_AGGRESSOR)
    play(deal, (3, check()), (0, bet(2)), (1, raise_to(4)), (3, call()), (0, call()))
    assert deal.showdown_order == [1, 3, 0]


def test_showdown_muck_only_a_beaten_hand() -> None:
    """002: a hand may be mucked only once beaten by one already shown; not the first."""
    deal = _three_way_after_checks(ShowdownOrder.LAST_AGGRESSOR)
    play(deal, (3, check()), (0, check()), (1, check()))
    assert kinds(deal) == {ActionKind.SHOW}  # seat 1 shows first: nothing to be beaten by
    with pytest.raises(ActionNotAvailableError):
        deal.apply(MUCK, 1)
    play(deal, (1, SHOW))
    assert kinds(deal) == {ActionKind.SHOW}  # seat 3's jacks beat seat 1
    play(deal, (3, SHOW))
    assert kinds(deal) == {ActionKind.SHOW, ActionKind.MUCK}  # seat 0 is beaten
    play(deal, (0, MUCK))
    assert deal.result is not None
    assert set(deal.result.shown) == {1, 3}
    assert deal.result.winnings == {3: 4 + 6}


def test_showdown_no_muck_when_the_option_is_off() -> None:
    """001: no mucking: every hand is shown."""
    table = rules(muck_allowed=False)
    deal = new_deal(table, STD)
    to_second_round(deal)
    play(deal, (1, check()), (2, check()), (1, SHOW))
    assert kinds(deal) == {ActionKind.SHOW}


# --- pots, all-ins and the cyclic straight flush --------------------------------------------------

SF_MIN = "As 7s 8s 9s Ts"  # 7.1(a) the minimum with four players (ace low)
SF_MED = "8h 9h Th Jh Qh"  # 7.1(c) a medium
SF_MAX = "Td Jd Qd Kd Ad"  # 7.1(b) the maximum


def _showdown(table: Rules, hands: dict[int, str], folders: tuple[int, ...] = ()) -> Deal:
    deal = new_deal(table, hands)
    deal.apply(open_(2), 1)
    for seat in (2, 3, 0):
        deal.apply(fold() if seat in folders else call(), seat)
    for seat in (1, 2, 3, 0):
        if seat not in folders:
            deal.apply(draw(), seat)
    while deal.phase is Phase.SECOND_ROUND:
        deal.apply(check())
    while deal.phase is Phase.SHOWDOWN:
        deal.apply(SHOW)
    assert deal.result is not None
    return deal


def test_art7_2_minimum_beats_maximum() -> None:
    """7.2: *la minima batte la massima*."""
    deal = _showdown(rules(), {1: SF_MIN, 3: SF_MAX}, folders=(2, 0))
    assert deal.result is not None
    assert deal.result.winnings == {1: 8}
    assert "minima" in deal.result.awards[0].reason


@pytest.mark.parametrize(
    ("hands", "winner"),
    [({1: SF_MED, 3: SF_MAX}, 3), ({1: SF_MIN, 3: SF_MED}, 3)],
)
def test_art7_2_maximum_beats_medium_beats_minimum(hands: dict[int, str], winner: int) -> None:
    """7.2: the maximum beats a medium, a medium beats the minimum."""
    deal = _showdown(rules(), hands, folders=(2, 0))
    assert deal.result is not None and deal.result.winnings == {winner: 8}


@pytest.mark.parametrize(
    ("odd_chip", "gets_odd"),
    [(OddChip.FIRST_AFTER_DEALER, 1), (OddChip.HIGHEST_SUIT, 2)],
)
def test_art7_3_three_way_split_and_odd_chip(odd_chip: OddChip, gets_odd: int) -> None:
    """7.3: minimum, medium and maximum in one showdown split the pot; the odd chip goes to
    the first winner after the dealer, or to the highest suit (hearts here)."""
    table = rules(odd_chip=odd_chip)
    deal = _showdown(table, {1: SF_MIN, 2: SF_MED, 3: SF_MAX}, folders=(0,))
    assert deal.result is not None
    (award,) = deal.result.awards
    assert award.amount == 10 and award.winners == (1, 2, 3)
    assert deal.result.winnings == {s: 4 if s == gets_odd else 3 for s in (1, 2, 3)}
    assert "split" in award.reason


def test_art7_3_cyclic_straight_flush_is_judged_per_pot() -> None:
    """7.2-7.3 per pot: the all-in minimum splits the main pot three ways with the medium and
    the maximum; the side pot, without the minimum, goes to the maximum."""
    table = rules(structure=BettingStructure.NO_LIMIT)
    deal = new_deal(table, {1: SF_MIN, 2: SF_MED, 3: SF_MAX}, stacks=(100, 5, 100, 100))
    play(deal, (1, open_(4)), (2, raise_to(10)), (3, call()), (0, fold()))
    play(deal, (1, draw()), (2, draw()), (3, draw()), (2, check()), (3, check()))
    while deal.phase is Phase.SHOWDOWN:
        deal.apply(SHOW)
    assert deal.result is not None
    main, side = deal.result.awards
    assert (main.amount, main.winners, main.shares) == (16, (1, 2, 3), (6, 5, 5))
    assert (side.amount, side.winners) == (12, (3,))
    assert deal.result.stacks == (99, 6, 94, 106)


def test_side_pots_with_an_all_in_player() -> None:
    """Table stakes (decided): an all-in player wins only the pot they reached; the side pot
    goes to the best of the others, who may not muck a hand unbeaten in the side pot."""
    table = rules(players=3, structure=BettingStructure.NO_LIMIT)
    hands = {1: "Ah Ac 8d 9s Jc", 2: "Kh Kc 8s Td Qs", 0: "Qh Qc 9d Ts Jd"}
    deal = new_deal(table, hands, stacks=(100, 5, 100))
    play(deal, (1, open_(4)))  # all-in
    assert deal.stacks[1] == 0
    play(deal, (2, raise_to(20)), (0, call()))
    play(deal, (1, draw()), (2, draw()), (0, draw()))
    assert deal.actor == 2  # 5.1: the raiser; the all-in opener cannot act
    play(deal, (2, check()), (0, check()))
    assert deal.showdown_order == [1, 2, 0]
    play(deal, (1, SHOW))
    assert kinds(deal) == {ActionKind.SHOW}  # kings still win the side pot
    play(deal, (2, SHOW))
    assert ActionKind.MUCK in kinds(deal)
    play(deal, (0, MUCK))
    assert deal.result is not None
    assert [(a.amount, a.winners) for a in deal.result.awards] == [(15, (1,)), (32, (2,))]
    assert deal.result.stacks == (79, 15, 111)


def test_fantini_tiebreak_option_at_the_showdown() -> None:
    """002 (Fantini/Santelia): equal pairs are decided by the highest kicker's suit."""
    # Equal jacks with the same kickers: 7.4(c) gives it to the pair holding the heart
    # (seat 1); Fantini gives it to the hand whose highest kicker (the ace) is higher (seat 2).
    hands = {1: "Jh Js As 9c 8c", 2: "Jd Jc Ah 9d 8d"}
    standard = _showdown(rules(), hands, folders=(3, 0))
    fantini = _showdown(rules(tiebreak="fantini"), hands, folders=(3, 0))
    assert standard.result is not None and fantini.result is not None
    assert set(standard.result.winnings) == {1}
    assert set(fantini.result.winnings) == {2}


# --- betting structures -----------------------------------------------------------------------


def _bounds(deal: Deal, kind: ActionKind) -> tuple[int | None, int | None]:
    (la,) = [la for la in deal.legal_actions() if la.kind is kind]
    return la.min_amount, la.max_amount


def test_fixed_limit_small_and_big_bet() -> None:
    """002 fixed limit: bets and raises of exactly the small bet, then the big bet."""
    table = rules(structure=BettingStructure.FIXED_LIMIT, small_bet=2, big_bet=4)
    deal = new_deal(table, STD)
    assert _bounds(deal, ActionKind.OPEN) == (2, 2)
    with pytest.raises(InvalidAmountError):
        deal.apply(open_(3), 1)
    play(deal, (1, open_(2)))
    assert _bounds(deal, ActionKind.RAISE) == (4, 4)
    play(deal, (2, call()), (3, fold()), (0, fold()), (1, draw()), (2, draw()))
    assert _bounds(deal, ActionKind.BET) == (4, 4)
    play(deal, (1, bet(4)))
    assert _bounds(deal, ActionKind.RAISE) == (8, 8)


def test_spread_limit_and_second_round_doubled() -> None:
    """Spread limit: any bet from min_bet to max_bet; 001 doubles them in the second round."""
    table = rules(min_bet=2, max_bet=6, second_round_doubled=True)
    deal = new_deal(table, STD)
    assert _bounds(deal, ActionKind.OPEN) == (2, 6)
    for bad in (1, 7, None):
        with pytest.raises(InvalidAmountError):
            deal.apply(Action(ActionKind.OPEN, bad), 1)
    play(deal, (1, open_(3)))
    assert _bounds(deal, ActionKind.RAISE) == (5, 9)
    play(deal, (2, call()), (3, fold()), (0, fold()), (1, draw()), (2, draw()))
    assert _bounds(deal, ActionKind.BET) == (4, 12)
    undoubled = new_deal(rules(min_bet=2, max_bet=6), STD)
    to_second_round(undoubled)
    assert _bounds(undoubled, ActionKind.BET) == (2, 6)


def test_pot_limit() -> None:
    """002 pot limit: open up to the pot; raise up to the pot after calling."""
    table = rules(structure=BettingStructure.POT_LIMIT)
    deal = new_deal(table, STD)
    assert _bounds(deal, ActionKind.OPEN) == (1, 4)
    play(deal, (1, open_(4)))
    assert _bounds(deal, ActionKind.RAISE) == (8, 16)  # call 4, then the pot of 12
    with pytest.raises(InvalidAmountError):
        deal.apply(raise_to(17), 2)


def test_no_limit() -> None:
    """002 no limit (table stakes): up to the whole stack; a raise at least the last raise."""
    table = rules(structure=BettingStructure.NO_LIMIT)
    deal = new_deal(table, STD, stacks=(100, 50, 100, 100))
    assert _bounds(deal, ActionKind.OPEN) == (1, 49)
    play(deal, (1, open_(10)))
    assert _bounds(deal, ActionKind.RAISE) == (20, 99)


def test_raise_cap() -> None:
    """Raise cap (000 Art. 1): no more raises once the cap is reached."""
    deal = new_deal(rules(raise_cap=1), STD)
    play(deal, (1, open_(2)), (2, raise_to(4)))
    assert kinds(deal) == {ActionKind.FOLD, ActionKind.CALL}
    with pytest.raises(ActionNotAvailableError):
        deal.apply(raise_to(6), 3)


def test_illegal_amounts_raise_invalid_amount() -> None:
    """Amounts outside the range, of the wrong type, or on a fixed action: InvalidAmountError."""
    deal = new_deal(rules(), STD)
    before = snapshot(deal)
    for bad in (0, 11, -1, True):
        with pytest.raises(InvalidAmountError):
            deal.apply(Action(ActionKind.OPEN, bad), 1)
    play(deal, (1, open_(2)))
    with pytest.raises(InvalidAmountError):
        deal.apply(Action(ActionKind.CALL, 5), 2)
    with pytest.raises(InvalidAmountError):
        deal.apply(Action(ActionKind.FOLD, 1), 2)
    deal2 = new_deal(rules(), STD)
    for bad in (0, 11):
        with pytest.raises(InvalidAmountError):
            deal2.apply(Action(ActionKind.OPEN, bad), 1)
    assert snapshot(deal2) == before


def test_out_of_turn_and_after_the_end() -> None:
    """Out of turn: NotYourTurnError; any action after the end: DealOverError."""
    deal = new_deal(rules(), STD)
    with pytest.raises(NotYourTurnError):
        deal.apply(pass_(), 2)
    with pytest.raises(ActionNotAvailableError):
        deal.apply(check(), 1)
    play(deal, (1, open_(3)), (2, fold()), (3, fold()), (0, fold()))
    assert deal.is_over and deal.legal_actions() == ()
    with pytest.raises(DealOverError):
        deal.apply(pass_())
    with pytest.raises(DealOverError):
        deal.apply(SHOW, 1)


def test_dealer_ante_003() -> None:
    """003: the dealer antes more than the others."""
    deal = new_deal(rules(dealer_ante=2), STD, dealer=3)
    assert deal.stacks == [99, 99, 99, 97]
    assert deal.pot == 6 and conserved(deal) == 400


def test_min_pair_escalated_start() -> None:
    """3.5: a deal started with kings needed refuses jacks."""
    deal = new_deal(rules(), STD, min_pair=Rank.KING)
    with pytest.raises(OpeningRequirementError):
        deal.apply(open_(2), 1)


def test_deal_chip_conservation_through_a_full_deal() -> None:
    """Chips are neither made nor lost (stacks + pot constant)."""
    deal = new_deal(rules(), STD)
    total = conserved(deal)
    to_second_round(deal)
    play(deal, (1, bet(5)), (2, call()))
    assert conserved(deal) == total
    play(deal, (1, SHOW), (2, SHOW))
    assert deal.result is not None and sum(deal.result.stacks) == total
