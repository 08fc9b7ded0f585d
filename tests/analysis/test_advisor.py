"""The advisor (analysis/advisor.py): every legal keep of a hand, its exact odds (checked by
brute force against the engine's own evaluation), its value against modelled opponents, the
ranking, and the opener's split (4.4)."""

from __future__ import annotations

from itertools import combinations
from math import comb

import pytest
from engine_helpers import cards, new_deal, play, rules
from hypothesis import given, settings
from hypothesis import strategies as st

from italian_poker.analysis.advisor import (
    Advice,
    AdviceError,
    advise,
    advise_view,
    check_opponents,
)
from italian_poker.analysis.bots.reading import Reading, rival_model
from italian_poker.analysis.draw_odds import hand_ladder
from italian_poker.engine.actions import Action, ActionKind
from italian_poker.engine.cards import Card
from italian_poker.engine.deal import Deal, Phase
from italian_poker.engine.deck import Deck
from italian_poker.engine.errors import CardNotInDeckError, DuplicateCardError, HandSizeError
from italian_poker.engine.hand_rank import Category, evaluate, read_hand
from italian_poker.engine.observer import seat_view
from italian_poker.engine.opening import OpeningRequirement
from italian_poker.engine.rules import Rules


def brute_force(
    hand: tuple[Card, ...], kept: tuple[Card, ...], players: int, opponents: int
) -> tuple[list[int], float]:
    """Category counts and expected pot share of keeping ``kept``, one replacement at a time."""
    unseen = [c for c in Deck(players).cards if c not in hand]
    ladder = hand_ladder(players)
    beats = rival_model(Reading(), players=players)
    counts = [0] * len(Category)
    share = 0.0
    drawn = list(combinations(unseen, 5 - len(kept)))
    for served in drawn:
        rank = evaluate((*kept, *served), players=players)
        counts[rank.category] += 1
        share += float(beats[int(ladder.positions([rank.value])[0])]) ** opponents
    return counts, share / len(drawn)


def by_keep(advice: tuple[Advice, ...]) -> dict[frozenset[Card], Advice]:
    return {frozenset(a.kept): a for a in advice}


def test_every_legal_keep_once_with_odds_summing_to_one() -> None:
    hand = read_hand("Jh Jd 7c 8s 9h", players=4)
    advice = advise(hand, players=4)
    assert len(advice) == 31  # keep one to five: 4.1 changes at most four
    assert len(by_keep(advice)) == 31
    for a in advice:
        assert 1 <= len(a.kept) <= 5
        assert sorted(a.kept + a.discards, key=hand.index) == list(hand)
        assert a.combinations == comb(27, len(a.discards))
        assert sum(a.category_counts) == a.combinations
        assert sum(a.probabilities.values()) == pytest.approx(1.0)
        assert 0.0 <= a.ev <= 1.0
        assert not a.split  # not the opener: nothing to break


def test_odds_and_value_match_brute_force_on_the_24_card_deck() -> None:
    hand = read_hand("9h 9d Tc Js As", players=2)
    advice = by_keep(advise(hand, players=2))
    for kept in [hand[:2], hand[:3], (hand[0], hand[2], hand[3], hand[4]), (hand[4],)]:
        counts, share = brute_force(hand, kept, 2, 1)
        got = advice[frozenset(kept)]
        assert list(got.category_counts) == counts
        assert got.ev == pytest.approx(share, rel=1e-12)
        assert got.improve_count == sum(counts[Category.ONE_PAIR + 1 :])


@settings(max_examples=15, deadline=None)
@given(
    st.lists(st.sampled_from(Deck(2).cards), min_size=5, max_size=5, unique=True),
    st.sets(st.integers(0, 4), min_size=1, max_size=5),
)
def test_any_keep_matches_brute_force(cards: list[Card], keep: set[int]) -> None:
    """Heads-up (24 cards): any keep, those of one card derived by draw_odds without enumeration."""
    hand = tuple(cards)
    kept = tuple(hand[i] for i in sorted(keep))
    counts, share = brute_force(hand, kept, 2, 1)
    got = by_keep(advise(hand, players=2))[frozenset(kept)]
    assert list(got.category_counts) == counts
    assert got.ev == pytest.approx(share, rel=1e-12)
    current = evaluate(hand, players=2).category
    assert got.improve_count == sum(counts[current + 1 :])


def test_value_against_more_opponents_is_the_power_of_one() -> None:
    hand = read_hand("Ks Kd Qc 8s 7h", players=4)
    kept = hand[:2]
    counts, share = brute_force(hand, kept, 4, 3)
    got = by_keep(advise(hand, players=4, opponents=3))[frozenset(kept)]
    assert list(got.category_counts) == counts
    assert got.ev == pytest.approx(share, rel=1e-12)
    one = by_keep(advise(hand, players=4, opponents=1))[frozenset(kept)]
    assert one.ev > got.ev  # beating one hand is likelier than beating three


@pytest.mark.parametrize(
    ("text", "players"),
    [("Ah Kh Qh Jh Th", 4), ("7s 8s 9s Ts Js", 4), ("As 7s 8s 9s Ts", 4), ("2c 3c 4c 5c 6c", 9)],
)
def test_standing_pat_on_a_straight_flush_is_certain_and_ranked_first(
    text: str, players: int
) -> None:
    advice = advise(text, players=players)
    pat = advice[0]
    assert pat.discards == ()
    assert pat.probability(Category.STRAIGHT_FLUSH) == 1.0
    assert pat.combinations == 1
    assert pat.improve == 0.0


def test_choices_are_ranked_by_value_then_fewer_cards_changed() -> None:
    for text in ("Jh Jd 7c 8s 9h", "Ah Kd 7c 8s 9h", "7h 8h 9h Th Ac"):
        advice = advise(text, players=4)
        keys = [(-a.ev, len(a.discards)) for a in advice]
        assert keys == sorted(keys)
    best = advise("Jh Jd 7c 8s 9h", players=4)[0]
    assert [str(c) for c in best.kept] == ["Jh", "Jd"]


def test_a_flush_stands_pat_as_a_flush_with_its_own_deck() -> None:
    """Flush over full house (Art. 6), on the deck for each number of players."""
    for players in (4, 9):
        pat = next(a for a in advise("Ah Kh 9h 8h Th", players=players) if not a.discards)
        assert pat.probability(Category.FLUSH) == 1.0
        assert pat.improve == 0.0
    full = next(a for a in advise("Kh Kd Kc 9h 9d", players=4) if not a.discards)
    assert full.probability(Category.FULL_HOUSE) == 1.0


def test_known_cards_are_left_out_of_the_stock() -> None:
    known = read_hand("Jc Js 7d 7h 7s", players=4)
    advice = advise("Jh Jd 7c 8s 9h", players=4, known=known)
    assert all(a.combinations == comb(22, len(a.discards)) for a in advice)
    pair = by_keep(advice)[frozenset(read_hand("Jh Jd 7c 8s 9h", players=4)[:2])]
    assert pair.probability(Category.FOUR_OF_A_KIND) == 0.0  # both other jacks are seen


def test_the_opener_is_told_which_draws_break_the_opening() -> None:
    hand = read_hand("Jh Jd 7c 8s 9h", players=4)
    jacks = set(hand[:2])
    advice = advise(hand, players=4, opening=OpeningRequirement())
    for a in advice:
        assert a.split == (not jacks <= set(a.kept))
    assert sum(a.split for a in advice) == 23
    kept_whole = advise(hand, players=4, opening=OpeningRequirement(), may_split=False)
    assert len(kept_whole) == 8  # the keeps holding both jacks
    assert all(jacks <= set(a.kept) for a in kept_whole)


def test_an_opener_with_a_straight_breaks_it_by_any_discard() -> None:
    advice = advise("7c 8s 9h Td Jh", players=4, opening=OpeningRequirement())
    assert all(a.split == bool(a.discards) for a in advice)


def test_an_opener_must_hold_the_opening() -> None:
    with pytest.raises(AdviceError, match="does not open: Queens or better"):
        advise("Jh Jd 7c 8s 9h", players=4, opening=OpeningRequirement("Q"))


@pytest.mark.parametrize(
    ("opponents", "message"),
    [
        (0, "opponents must be 1 to 3 at a table of 4, got 0"),
        (4, "opponents must be 1 to 3 at a table of 4, got 4"),
        (True, "opponents must be a whole number, got True"),
        (1.5, "opponents must be a whole number, got 1.5"),
    ],
)
def test_bad_numbers_of_opponents_are_refused(opponents: object, message: str) -> None:
    with pytest.raises(AdviceError) as info:
        advise("Jh Jd 7c 8s 9h", players=4, opponents=opponents)  # type: ignore[arg-type]
    assert str(info.value) == message
    assert check_opponents(None, 6) == 5


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("Jh Jd 7c 8s", HandSizeError),
        ("Jh Jh 7c 8s 9h", DuplicateCardError),
        ("Jh Jd 2c 8s 9h", CardNotInDeckError),
    ],
)
def test_bad_hands_raise_the_engines_errors(text: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        advise(text, players=4)


# --- from a seat's view -------------------------------------------------------------------


def draw_deal(table_rules: Rules) -> Deal:
    """Four players, no blinds: seat 1 opens with jacks, seat 2 calls, seats 3 and 0 fold."""
    hands = {1: "Jh Jd 7c 8s 9h", 2: "Qs Qc Ks 8d 7d"}
    deal = new_deal(table_rules, hands)
    opening = next(la for la in deal.legal_actions() if la.kind is ActionKind.OPEN)
    play(
        deal,
        (1, Action(ActionKind.OPEN, opening.min_amount)),
        (2, Action(ActionKind.CALL)),
        (3, Action(ActionKind.FOLD)),
        (0, Action(ActionKind.FOLD)),
    )
    assert deal.phase is Phase.DRAW
    return deal


def test_a_seats_view_gives_the_openers_advice() -> None:
    deal = draw_deal(rules())
    view = seat_view(deal, 1)
    expected = advise(view.hand, players=4, opponents=1, opening=view.requirement)
    assert advise_view(view) == expected
    assert sum(a.split for a in expected) == 23
    strict = advise_view(seat_view(draw_deal(rules(opener_may_split=False)), 1))
    assert len(strict) == 8 and not any(a.split for a in strict)


def test_a_seats_view_leaves_discards_seen_face_up_out_of_the_stock() -> None:
    """003: the opener's three discards lie face up; the caller's advice knows them."""
    deal = draw_deal(rules(discards_face_up=True))
    play(deal, (1, Action(ActionKind.DRAW, cards=cards("7c 8s 9h"))))
    view = seat_view(deal, 2)
    got = advise_view(view)
    assert got == advise(view.hand, players=4, opponents=1, known=cards("7c 8s 9h"))
    assert all(a.combinations == comb(24, len(a.discards)) for a in got)
    with pytest.raises(AdviceError, match="drawn already"):
        advise_view(seat_view(deal, 1))
