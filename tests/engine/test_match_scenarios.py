"""Scenario tests across deals of a :class:`Match`: the dealer button, passed deals (3.5), the
deal after a parol (5.5), seats and chip conservation."""

from __future__ import annotations

import pytest
from engine_helpers import cards, new_match, parol_deal, rules, stacked_deck, table_chips

from italian_poker import (
    Action,
    ActionKind,
    ActionNotAvailableError,
    DealOverError,
    Direction,
    Match,
    MatchPhase,
    NotYourTurnError,
    OpeningRequirementError,
    Phase,
    Rank,
    Rules,
    SeatError,
    preset,
)
from italian_poker.engine.actions import draw, fold, open_, pass_
from italian_poker.engine.operations import HandsDealt

JJ = "Jh Jc 7d 8s Ac"
N1 = "7s 9c Jd Kh Ad"
N2 = "8h Tc Qd Ah 7c"
N3 = "9s Js Kd 7h 8d"
DECLINE = Action(ActionKind.DECLINE)


def requirement(match: Match) -> Rank:
    """The pair needed now (read through a call, so type checkers do not keep a narrowed value)."""
    return match.min_pair


def phase(match: Match) -> MatchPhase:
    """The match phase, read through a call (see :func:`requirement`)."""
    return match.phase


def pass_all(match: Match) -> None:
    """Every player passes (declining the blind first if offered)."""
    while match.phase is MatchPhase.IN_DEAL:
        kinds = {la.kind for la in match.legal_actions()}
        match.apply(DECLINE if ActionKind.DECLINE in kinds else pass_())


def test_art1_the_deal_passes_to_the_left() -> None:
    """000 Art. 1: the deal passes one place to the left (clockwise) after each hand."""
    match = new_match(rules())
    names = []
    for _ in range(5):
        names.append(match.dealer_name)
        match.start_deal(seed=1)
        pass_all(match)
    assert names == ["P0", "P1", "P2", "P3", "P0"]


def test_art1_003_the_deal_passes_to_the_right() -> None:
    """003: play and the deal run counter-clockwise."""
    match = new_match(rules(direction=Direction.COUNTER_CLOCKWISE))
    names = []
    for _ in range(3):
        names.append(match.dealer_name)
        match.start_deal(seed=1)
        pass_all(match)
    assert names == ["P0", "P3", "P2"]


def test_art3_5_escalation_jacks_queens_kings_jacks() -> None:
    """3.5 (000): after passed deals the pair needed rises to queens, then kings, then
    returns to jacks; the pot stays and everyone antes again."""
    match = new_match(rules())
    seen = []
    for deal_number in range(4):
        seen.append(match.min_pair)
        match.start_deal(seed=deal_number)
        assert match.deal is not None
        assert match.deal.requirement.min_pair is match.min_pair
        assert match.deal.pot == 4 * (deal_number + 1)
        pass_all(match)
        assert match.carried == 4 * (deal_number + 1)
    assert seen == [Rank.JACK, Rank.QUEEN, Rank.KING, Rank.JACK]
    assert [s.stack for s in match.seats] == [96] * 4


def test_art3_5_queens_needed_after_one_passed_deal() -> None:
    """3.5: on the deal after a passed deal, a pair of jacks no longer opens."""
    match = new_match(rules())
    match.start_deal(seed=3)
    pass_all(match)
    # P1 deals now: P2 (seat 2) is served first and acts first.
    match.start_deal(deck=stacked_deck(4, {2: JJ, 3: N1, 0: N2, 1: N3}, dealer=1))
    assert match.actor == "P2"
    with pytest.raises(OpeningRequirementError):
        match.apply(open_(2), "P2")
    # 3.3(b) is unchanged by the escalation.
    match.apply(pass_(), "P2")


def test_art3_5_001_pot_stays_without_escalation() -> None:
    """3.5 with 001/002: the pot stays and the requirement does not change."""
    match = new_match(preset("001"))
    for deal_number in range(3):
        assert match.min_pair is Rank.JACK
        match.start_deal(seed=deal_number)
        pass_all(match)
    assert match.carried == 12


def test_art3_5_003_bets_returned_and_kings_next() -> None:
    """3.5 with 003 (*piatto di parole*): the antes are returned and the next deal needs kings;
    once a deal is won the requirement returns to jacks."""
    match = new_match(preset("003", blind_allowed=False))
    match.start_deal(seed=1)
    pass_all(match)
    assert [s.stack for s in match.seats] == [100] * 4
    assert match.carried == 0
    assert match.min_pair is Rank.KING
    # The deal was not played: dealer P0 deals again, P3 (his right) is served first.
    match.start_deal(
        deck=stacked_deck(4, {3: "Kh Kc 7d 8s Ac"}, dealer=0, direction=Direction.COUNTER_CLOCKWISE)
    )
    assert match.deal is not None and match.deal.requirement.min_pair is Rank.KING
    match.apply(open_(2), "P3")
    for name in ("P2", "P1", "P0"):
        match.apply(fold(), name)
    assert requirement(match) is Rank.JACK


def test_art5_5_make_up_or_sit_out_after_a_parol() -> None:
    """5.5: first-round folders of the abandoned hand make up their contribution to play, or
    sit out; everyone antes again; kings or better to open; no blinds."""
    match = new_match(Rules())
    total = table_chips(match)
    parol_deal(match)
    assert match.carried == 8
    assert match.min_pair is Rank.KING
    three = {2: "Jh Jc 8d 9s Ac", 0: "Kh Kc Td Qs Ah"}  # three players: 8..A
    match.start_deal(deck=stacked_deck(3, three, dealer=1))
    assert match.phase is MatchPhase.MAKE_UP
    # Asked in play order from the dealer's left (dealer P1): P3, then P0.
    assert match.actor == "P3"
    make_up = match.legal_actions()
    assert [(la.kind, la.min_amount) for la in make_up] == [
        (ActionKind.MAKE_UP, 2),
        (ActionKind.SIT_OUT, None),
    ]
    with pytest.raises(ActionNotAvailableError):
        match.apply(pass_(), "P3")
    with pytest.raises(ActionNotAvailableError):
        match.apply(Action(ActionKind.MAKE_UP, 5), "P3")
    with pytest.raises(NotYourTurnError):
        match.apply(Action(ActionKind.MAKE_UP), "P0")
    match.apply(Action(ActionKind.SIT_OUT), "P3")
    assert match.actor == "P0"
    match.apply(Action(ActionKind.MAKE_UP), "P0")
    assert phase(match) is MatchPhase.IN_DEAL
    deal = match.deal
    assert deal is not None
    assert match.deal_seats == ["P0", "P1", "P2"]
    assert deal.start.makeups == (2, 0, 0)
    assert deal.pot == 8 + 2 + 3
    assert deal.phase is Phase.OPENING  # no blinds after a parol
    assert deal.requirement.min_pair is Rank.KING
    assert table_chips(match) == total
    # Dealer P1 (seat 1): P2 acts first; jacks do not open, kings do.
    assert match.actor == "P2"
    with pytest.raises(OpeningRequirementError):
        match.apply(open_(2), "P2")
    match.apply(pass_(), "P2")
    match.apply(open_(2), "P0")
    match.apply(fold(), "P1")
    match.apply(fold(), "P2")
    assert match.last_result is not None
    assert match.last_result.winnings == {0: 13 + 2}
    assert table_chips(match) == total
    assert requirement(match) is Rank.JACK


def test_art5_5_all_pass_after_a_parol_keeps_its_conditions() -> None:
    """5.5 (decided): if every player passes on the deal after a parol, kings are still needed
    and there are still no blinds, until the parol pot is opened."""
    match = new_match(Rules())
    parol_deal(match)
    match.start_deal(seed=5)
    match.apply(Action(ActionKind.MAKE_UP), "P3")
    match.apply(Action(ActionKind.MAKE_UP), "P0")
    assert match.deal is not None and match.deal.phase is Phase.OPENING
    pass_all(match)
    assert match.min_pair is Rank.KING
    match.start_deal(seed=6)
    assert match.phase is MatchPhase.IN_DEAL  # nothing more to make up
    assert match.deal is not None
    assert match.deal.phase is Phase.OPENING and match.deal.requirement.min_pair is Rank.KING


def test_match_errors() -> None:
    """Acting when nobody is to act: DealOverError; the wrong player: NotYourTurnError;
    seating changes only between deals (SeatError)."""
    match = new_match(rules())
    with pytest.raises(DealOverError):
        match.apply(pass_())
    match.start_deal(seed=2)
    with pytest.raises(NotYourTurnError):
        match.apply(pass_(), "P3")
    with pytest.raises(SeatError):
        match.leave("P2")
    with pytest.raises(SeatError):
        match.start_deal()
    pass_all(match)
    with pytest.raises(DealOverError):
        match.apply(pass_(), "P1")


def test_seats_join_leave_sit_out_and_chips() -> None:
    """Players join, sit out, return and leave between deals; chips are conserved."""
    match = new_match(rules(), stacks=(50, 50, 50))
    total = table_chips(match)
    match.join("P9", 40)
    match.sit_out("P1")
    match.start_deal(seed=4)
    assert match.deal_seats == ["P0", "P2", "P9"]
    pass_all(match)
    match.sit_in("P1")
    taken = match.leave("P2")
    assert taken == 49
    match.start_deal(seed=5)
    assert match.deal_seats == ["P0", "P1", "P9"]
    pass_all(match)
    assert table_chips(match) == total + 40


def test_busted_player_leaves_and_the_match_ends() -> None:
    """A player who cannot pay the ante leaves; with fewer than two players the match is over."""
    match = new_match(rules(), stacks=(100, 100, 1, 100))
    match.start_deal(deck=stacked_deck(4, {1: JJ, 2: N1, 3: N2, 0: N3}))
    match.apply(open_(2), "P1")
    # P2 is all-in with the ante: the betting skips them.
    match.apply(fold(), "P3")
    match.apply(fold(), "P0")
    match.apply(draw(), "P1")
    match.apply(draw(), "P2")
    while match.phase is MatchPhase.IN_DEAL:
        match.apply(Action(ActionKind.SHOW))
    assert match.last_result is not None and match.last_result.winnings == {1: 6}
    assert [name for name, _ in match.departed] == ["P2"]
    assert "P2" not in {s.name for s in match.seats}
    heads_up = new_match(rules(players=2), stacks=(1, 1))
    heads_up.start_deal(deck=stacked_deck(2, {1: "Ah Ac 9d Ts Qc"}))
    heads_up.apply(pass_(), "P1")
    heads_up.apply(pass_(), "P0")
    assert heads_up.phase is MatchPhase.OVER
    with pytest.raises(SeatError):
        heads_up.start_deal()


def test_completed_deals_are_recorded() -> None:
    """The match keeps each deal's start, cards, actions and result."""
    match = new_match(rules())
    match.start_deal(deck=stacked_deck(4, {1: JJ}))
    match.apply(open_(2), "P1")
    for name in ("P2", "P3", "P0"):
        match.apply(fold(), name)
    (done,) = match.completed
    assert done.number == 1
    dealt = done.operations[1]
    assert isinstance(dealt, HandsDealt) and dealt.hands[1][:1] == cards("Jh")
    assert [r.action.kind for r in done.actions] == [
        ActionKind.OPEN,
        ActionKind.FOLD,
        ActionKind.FOLD,
        ActionKind.FOLD,
    ]
    assert done.result.winnings == {1: 6}
