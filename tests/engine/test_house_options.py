"""House options from Italian tables: the all-pass ladder (``escalation``, 3.5), a blind of
antes (``blind_size="antes"``, Art. 2) and 3.3(b) barred after a passed deal or a parol
(``four_straight_flush_always``, 3.5, 5.5). Each default is the formal rulebook (000)."""

from __future__ import annotations

import random

import pytest
from engine_helpers import (
    apply_random,
    new_deal,
    new_match,
    parol_deal,
    rules,
    stacked_deck,
    table_chips,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from italian_poker import (
    Action,
    ActionKind,
    Escalation,
    Match,
    MatchPhase,
    OpeningRequirementError,
    Rank,
    Rules,
    RulesError,
)
from italian_poker.engine.actions import open_, pass_
from italian_poker.engine.deal import Outcome
from italian_poker.engine.history import HandHistory, dumps, loads, replay
from italian_poker.engine.match import next_step

DECLINE = Action(ActionKind.DECLINE)
FOUR_TO_A_STRAIGHT_FLUSH = "7h 8h 9h Th Kc"
"""3.3(b) with four players (7..A): 7-8-9-10 of hearts, completed by the jack."""
PAIR_OF_ACES = "Ad As 7c 8d 9s"
TWO_NINES_TWO_EIGHTS = "9d 9c 8h 8c Ks"


def pass_all(match: Match) -> None:
    """Every player passes (declining the blind first if offered)."""
    while match.phase is MatchPhase.IN_DEAL:
        kinds = {la.kind for la in match.legal_actions()}
        match.apply(DECLINE if ActionKind.DECLINE in kinds else pass_())


def steps(match: Match, deals: int) -> list[str]:
    """What opens each of ``deals`` deals every player passes, as letters (``2P``: two pair)."""
    seen = []
    for _ in range(deals):
        requirement = match.requirement
        seen.append("2P" if requirement.two_pair else requirement.min_pair.letter)
        match.start_deal(seed=1)
        assert match.deal is not None and match.deal.requirement == requirement
        pass_all(match)
    return seen


def start(match: Match, *hands: str) -> list[str]:
    """Start a deal giving ``hands`` to the players from the dealer's left; their names."""
    dealer = int(match.dealer_name[1:])
    seats = [(dealer + k + 1) % 4 for k in range(len(hands))]
    match.start_deal(deck=stacked_deck(4, dict(zip(seats, hands, strict=True)), dealer=dealer))
    return [f"P{seat}" for seat in seats]


# --- escalation (3.5) -----------------------------------------------------------------------


def test_art3_5_default_ladder_is_the_rulebook() -> None:
    """000 3.5: queens, then kings, then "after a third passed deal it returns to jacks"."""
    assert Rules().escalation is Escalation.KINGS
    assert steps(new_match(rules()), 5) == ["J", "Q", "K", "J", "Q"]


def test_art3_5_ladder_with_aces_after_kings() -> None:
    """escalation="j-q-k-a" (house rule, no document): aces after kings, then jacks again."""
    assert steps(new_match(rules(escalation="j-q-k-a")), 6) == ["J", "Q", "K", "A", "J", "Q"]


def test_art3_5_ladder_with_two_pair_after_kings() -> None:
    """escalation="j-q-k-two-pair" (house rule): after kings no single pair opens, not even
    aces; two pair of any ranks does (3.3(a)); then jacks again."""
    match = new_match(rules(escalation="j-q-k-two-pair"))
    assert steps(match, 3) == ["J", "Q", "K"]
    assert match.requirement.two_pair and match.requirement.describe() == (
        "Two pair or better (or four to a straight flush)"
    )
    assert match.requirement.describe("it").startswith("doppia coppia o meglio")
    first, second = start(match, PAIR_OF_ACES, TWO_NINES_TWO_EIGHTS)
    with pytest.raises(OpeningRequirementError):
        match.apply(open_(2), first)
    match.apply(pass_(), first)
    match.apply(open_(2), second)
    assert match.deal is not None and match.deal.opener == match.deal_seats.index(second)
    assert next_step(match.rules, Rank.KING, two_pair=True) == (Rank.JACK, False)


def test_art3_5_ladder_starts_from_a_higher_min_pair() -> None:
    """A table opening on queens climbs from queens; one opening on aces stays there."""
    assert steps(new_match(rules(min_pair="Q", escalation="j-q-k-a")), 4) == ["Q", "K", "A", "Q"]
    assert steps(new_match(rules(min_pair="A", parol_min_pair="A")), 2) == ["A", "A"]


def test_escalation_needs_the_escalate_policy() -> None:
    """A ladder other than 000's under a policy that does not climb is a contradiction."""
    with pytest.raises(RulesError, match="escalation"):
        Rules(all_pass="pot-stays", escalation="j-q-k-a")
    with pytest.raises(RulesError, match="escalation must be one of"):
        Rules(escalation="j-q-k-a-2p")


# --- blind of antes (Art. 2) ----------------------------------------------------------------


def test_art2_blind_of_antes() -> None:
    """blind_size="antes" (house rule): the blind is ``blind_antes`` antes whatever the pot
    holds (000 Art. 2: the pot); the controbuio and the over still double it."""
    table = Rules(ante=2, blind_size="antes", blind_antes=3)
    deal = new_deal(table, {}, carried=40)
    assert deal.pot == 48
    assert deal.legal_actions()[0].min_amount == 6
    deal.apply(Action(ActionKind.BLIND), 1)
    assert deal.legal_actions()[0].min_amount == 12
    assert new_deal(Rules(ante=2), {}, carried=40).legal_actions()[0].min_amount == 48


@pytest.mark.parametrize(
    "changes",
    [
        {"blind_antes": 0},
        {"blind_antes": -2},
        {"blind_antes": 1.5},
        {"blind_size": "antes", "ante": 0, "dealer_ante": 1},
        {"blind_size": "ante"},
    ],
)
def test_blind_antes_errors(changes: dict[str, object]) -> None:
    """A blind of no antes, of part of one or with no ante to count is refused."""
    with pytest.raises(RulesError):
        Rules(**changes)  # type: ignore[arg-type]


# --- 3.3(b) after a passed deal or a parol --------------------------------------------------


def test_art3_3b_opens_after_a_passed_deal_by_default() -> None:
    """000 3.5: "the four-card straight flush option in 3.3(b) is unchanged"."""
    match = new_match(rules())
    match.start_deal(seed=1)
    pass_all(match)
    (first,) = start(match, FOUR_TO_A_STRAIGHT_FLUSH)
    match.apply(open_(2), first)
    assert match.deal is not None and match.deal.opener is not None


def test_art3_3b_barred_after_a_passed_deal() -> None:
    """four_straight_flush_always=False (003: "solo con una coppia di Re o di Assi"): 3.3(b)
    does not open the deal after a passed one; it opens again once a pot is won."""
    match = new_match(rules(four_straight_flush_always=False))
    assert match.requirement.four_straight_flush
    match.start_deal(seed=1)
    pass_all(match)
    assert not match.requirement.four_straight_flush
    first, second = start(match, FOUR_TO_A_STRAIGHT_FLUSH, "Qh Qd 7c 8d 9s")
    assert match.deal is not None and not match.deal.start.four_straight_flush
    with pytest.raises(OpeningRequirementError):
        match.apply(open_(2), first)
    match.apply(pass_(), first)
    match.apply(open_(2), second)  # queens: the escalated requirement (3.5)
    for _ in range(3):
        match.apply(Action(ActionKind.FOLD))
    assert match.last_result is not None and match.last_result.outcome is Outcome.WON
    assert match.requirement.four_straight_flush


def test_art5_5_3_3b_barred_after_a_parol() -> None:
    """5.5 allows 3.3(b) after a parol; four_straight_flush_always=False bars it."""
    for always in (True, False):
        match = new_match(rules(four_straight_flush_always=always))
        parol_deal(match)
        assert match.requirement.four_straight_flush is always
        assert match.requirement.min_pair is Rank.KING


def test_four_straight_flush_always_needs_3_3b() -> None:
    """Barring 3.3(b) on some deals needs 3.3(b) at all."""
    with pytest.raises(RulesError, match="four_straight_flush_opens"):
        Rules(four_straight_flush_opens=False, four_straight_flush_always=False)


# --- saved rules and histories --------------------------------------------------------------


def test_new_options_round_trip_and_stay_out_of_saved_defaults() -> None:
    """The options round-trip through to_dict/from_dict; at their defaults they are left out,
    so rules saved before them read and write as they were."""
    table = Rules(
        blind_size="antes",
        blind_antes=4,
        escalation="j-q-k-two-pair",
        four_straight_flush_always=False,
    )
    assert Rules.from_dict(table.to_dict()) == table
    saved = Rules().to_dict()
    assert not {"blind_antes", "escalation", "four_straight_flush_always"} & set(saved)


def test_history_keeps_a_two_pair_deal_without_3_3b() -> None:
    """A deal at the two-pair step with 3.3(b) barred is written and read back as it was."""
    match = new_match(rules(escalation="j-q-k-two-pair", four_straight_flush_always=False))
    steps(match, 3)
    (first,) = start(match, TWO_NINES_TWO_EIGHTS)
    match.apply(open_(2), first)
    for _ in range(3):
        match.apply(Action(ActionKind.FOLD))
    assert match.deal is not None
    history = HandHistory.from_deal(match.deal, number=4)
    text = dumps(history)
    assert "_two_pair = true" in text and "_four_straight_flush = false" in text
    read = loads(text)
    assert read == history and read.start() == match.deal.start
    assert replay(read).result == match.deal.result


# --- property -------------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(
    ladder=st.sampled_from(list(Escalation)),
    always=st.booleans(),
    blind_antes=st.integers(1, 4),
    seed=st.integers(0, 10**6),
)
def test_random_deals_follow_the_ladder_and_keep_the_chips(
    ladder: Escalation, always: bool, blind_antes: int, seed: int
) -> None:
    """Random play under any ladder, with or without 3.3(b) after unopened deals and a blind
    of antes: every chip stays at the table, and each deal's requirement is the one the last
    deal's outcome calls for (3.5, 5.5)."""
    table = Rules(
        escalation=ladder,
        four_straight_flush_always=always,
        blind_size="antes",
        blind_antes=blind_antes,
    )
    match = new_match(table)
    rng = random.Random(seed)
    total = table_chips(match)
    pair, two_pair, unopened, after_parol = Rank.JACK, False, False, False
    for _ in range(8):
        if match.phase is MatchPhase.OVER:
            break
        match.start_deal(seed=rng.randrange(10**6))
        while match.actor is not None:
            if match.phase is MatchPhase.IN_DEAL:
                apply_random(match, rng)
            else:
                match.apply(Action(rng.choice([ActionKind.MAKE_UP, ActionKind.SIT_OUT])))
            assert table_chips(match) == total
        deal = match.deal
        if deal is None or not match.completed or match.completed[-1].start is not deal.start:
            continue  # too few players after the 5.5 answers: no deal
        requirement = deal.requirement
        assert (requirement.min_pair, requirement.two_pair) == (pair, two_pair)
        assert requirement.four_straight_flush is (always or not unopened)
        outcome = match.completed[-1].result.outcome
        if outcome is Outcome.WON:
            pair, two_pair, unopened, after_parol = Rank.JACK, False, False, False
        elif outcome is Outcome.PAROL:
            pair, two_pair, unopened, after_parol = Rank.KING, False, True, True
        elif not after_parol:
            unopened = True
            top = Rank.ACE if ladder is Escalation.ACES else Rank.KING
            if two_pair:
                pair, two_pair = Rank.JACK, False
            elif pair < top:
                pair = Rank(pair + 1)
            elif ladder is Escalation.TWO_PAIR:
                two_pair = True
            else:
                pair = Rank.JACK
