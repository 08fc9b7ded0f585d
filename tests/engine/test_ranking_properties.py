"""Property tests of compare / winners on random hands from random deck sizes.

The strategies force straight flushes (of every class) often, so the cyclic rule of 7.2 and the
three-way split of 7.3 are exercised, not just ordinary hands.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from italian_poker import (
    Card,
    Category,
    Deck,
    DuplicateCardError,
    Rank,
    StraightFlushClass,
    Suit,
    Tiebreak,
    best_ranks,
    compare,
    compare_ranks,
    evaluate,
    winners,
)

Hand = tuple[Card, ...]

SETTINGS = settings(max_examples=200, deadline=None)
PLAYERS = st.integers(2, 9)
TIEBREAKS = st.sampled_from(list(Tiebreak))
CLASSES = (StraightFlushClass.MINIMUM, StraightFlushClass.MEDIUM, StraightFlushClass.MAXIMUM)


@cache
def straight_flushes(players: int) -> dict[StraightFlushClass, tuple[Hand, ...]]:
    """Every straight flush of the deck for ``players``, by class, built from the rules text
    (the ace is high in 10-J-Q-K-A and low next to the deck's lowest rank)."""
    low = 11 - players
    by_class: dict[StraightFlushClass, list[Hand]] = {c: [] for c in CLASSES}
    for suit in Suit:
        for top in range(low + 3, 15):
            ranks = [Rank.ACE if r < low else Rank(r) for r in range(top - 4, top + 1)]
            if top == 14:
                cls = StraightFlushClass.MAXIMUM
            elif top == low + 3:
                cls = StraightFlushClass.MINIMUM
            else:
                cls = StraightFlushClass.MEDIUM
            by_class[cls].append(tuple(Card(r, suit) for r in ranks))
    return {c: tuple(hands) for c, hands in by_class.items()}


def all_straight_flushes(players: int) -> list[Hand]:
    return [h for hands in straight_flushes(players).values() for h in hands]


def random_hands(players: int, cards: Sequence[Card] | None = None) -> st.SearchStrategy[Hand]:
    pool = Deck(players).cards if cards is None else cards
    return st.lists(st.sampled_from(pool), min_size=5, max_size=5, unique=True).map(tuple)


def any_hands(players: int) -> st.SearchStrategy[Hand]:
    """Random hands, half of them straight flushes."""
    return st.one_of(random_hands(players), st.sampled_from(all_straight_flushes(players)))


@st.composite
def hand_in_a_deck(draw: st.DrawFn) -> tuple[int, Hand]:
    players = draw(PLAYERS)
    return players, draw(any_hands(players))


@st.composite
def hands_in_a_deck(
    draw: st.DrawFn, min_hands: int = 2, max_hands: int = 6
) -> tuple[int, list[Hand]]:
    """Independent hands (they may share cards, and may be equal)."""
    players = draw(PLAYERS)
    pool = draw(st.lists(any_hands(players), min_size=1, max_size=4))
    hands = draw(
        st.lists(
            st.one_of(st.sampled_from(pool), any_hands(players)),
            min_size=min_hands,
            max_size=max_hands,
        )
    )
    return players, hands


@st.composite
def straight_flush_showdowns(draw: st.DrawFn) -> tuple[int, list[Hand]]:
    """Hypothetical showdowns between a few straight flushes, often of all three classes and
    often with the same hand twice."""
    players = draw(PLAYERS)
    sfs = straight_flushes(players)
    pool = [
        draw(st.sampled_from(sfs[cls]))
        for cls in draw(st.lists(st.sampled_from(CLASSES), min_size=1, max_size=4))
    ]
    return players, draw(st.lists(st.sampled_from(pool), min_size=1, max_size=6))


SHOWDOWNS = st.one_of(hands_in_a_deck(min_hands=1, max_hands=6), straight_flush_showdowns())


@st.composite
def deals(draw: st.DrawFn) -> tuple[int, list[Hand]]:
    """Hands dealt from one deck: no card in two hands; many are straight flushes."""
    players = draw(PLAYERS)
    deck = Deck(players)
    count = draw(st.integers(2, min(6, len(deck) // 5)))
    used: set[Card] = set()
    hands: list[Hand] = []
    for _ in range(count):
        free_flushes = [h for h in all_straight_flushes(players) if used.isdisjoint(h)]
        if free_flushes and draw(st.booleans()):
            hand = draw(st.sampled_from(free_flushes))
        else:
            hand = draw(random_hands(players, [c for c in deck.cards if c not in used]))
        used.update(hand)
        hands.append(hand)
    return players, hands


@st.composite
def three_class_deals(draw: st.DrawFn) -> tuple[int, list[Hand]]:
    """A minimum, a medium and a maximum straight flush, plus other hands, in random order."""
    players = draw(PLAYERS)
    deck = Deck(players)
    used: set[Card] = set()
    hands: list[Hand] = []
    for cls in CLASSES:
        free = [h for h in straight_flushes(players)[cls] if used.isdisjoint(h)]
        hand = draw(st.sampled_from(free))
        used.update(hand)
        hands.append(hand)
    for _ in range(draw(st.integers(0, min(3, len(deck) // 5 - 3)))):
        hand = draw(random_hands(players, [c for c in deck.cards if c not in used]))
        used.update(hand)
        hands.append(hand)
    return players, draw(st.permutations(hands))


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


# --- single hands and pairs of hands ------------------------------------------------------


@SETTINGS
@given(hand_in_a_deck(), TIEBREAKS, st.data())
def test_card_order_inside_a_hand_never_matters(
    case: tuple[int, Hand], tiebreak: Tiebreak, data: st.DataObject
) -> None:
    players, hand = case
    shuffled = data.draw(st.permutations(hand))
    assert evaluate(shuffled, players=players, tiebreak=tiebreak) == evaluate(
        hand, players=players, tiebreak=tiebreak
    )


@SETTINGS
@given(hands_in_a_deck(min_hands=2, max_hands=2), TIEBREAKS)
def test_compare_is_antisymmetric(case: tuple[int, list[Hand]], tiebreak: Tiebreak) -> None:
    players, (a, b) = case
    assert sign(compare(a, b, players=players, tiebreak=tiebreak)) == -sign(
        compare(b, a, players=players, tiebreak=tiebreak)
    )
    assert compare(a, a, players=players, tiebreak=tiebreak) == 0


@SETTINGS
@given(hands_in_a_deck(min_hands=2, max_hands=2), TIEBREAKS)
def test_compare_agrees_with_winners_and_best_ranks(
    case: tuple[int, list[Hand]], tiebreak: Tiebreak
) -> None:
    players, (a, b) = case
    result = compare(a, b, players=players, tiebreak=tiebreak)
    ra = evaluate(a, players=players, tiebreak=tiebreak)
    rb = evaluate(b, players=players, tiebreak=tiebreak)
    expected = [0] if result > 0 else [1] if result < 0 else [0, 1]
    if set(a).isdisjoint(b):
        assert winners([a, b], players=players, tiebreak=tiebreak) == expected
    else:  # not hands of one deck: no pot to decide
        with pytest.raises(DuplicateCardError, match="is in hands 1 and 2"):
            winners([a, b], players=players, tiebreak=tiebreak)
    assert best_ranks([ra, rb]) == expected
    assert compare_ranks(ra, rb) == result


@SETTINGS
@given(hands_in_a_deck(min_hands=2, max_hands=2), TIEBREAKS)
def test_value_orders_everything_but_straight_flushes_of_different_classes(
    case: tuple[int, list[Hand]], tiebreak: Tiebreak
) -> None:
    """Outside the cycle of 7.2, ``compare`` is the order of ``value``; categories come
    first (flush above full house, 6)."""
    players, (a, b) = case
    ra = evaluate(a, players=players, tiebreak=tiebreak)
    rb = evaluate(b, players=players, tiebreak=tiebreak)
    classes = {ra.straight_flush_class, rb.straight_flush_class}
    cyclic = classes == {StraightFlushClass.MINIMUM, StraightFlushClass.MAXIMUM}
    result = compare(a, b, players=players, tiebreak=tiebreak)
    if cyclic:
        winner = ra if result > 0 else rb
        assert winner.straight_flush_class is StraightFlushClass.MINIMUM
    else:
        assert result == sign(ra.value - rb.value)
    if ra.category != rb.category:
        assert sign(result) == sign(ra.category - rb.category)


# --- several hands ------------------------------------------------------------------------


@SETTINGS
@given(SHOWDOWNS, TIEBREAKS, st.data())
def test_best_ranks_does_not_depend_on_the_order_of_hands(
    case: tuple[int, list[Hand]], tiebreak: Tiebreak, data: st.DataObject
) -> None:
    players, hands = case
    ranks = [evaluate(h, players=players, tiebreak=tiebreak) for h in hands]
    order = data.draw(st.permutations(range(len(hands))))
    found = best_ranks([ranks[i] for i in order])
    assert sorted(order[i] for i in found) == best_ranks(ranks)


@SETTINGS
@given(SHOWDOWNS, TIEBREAKS)
def test_equal_hands_share_alike(case: tuple[int, list[Hand]], tiebreak: Tiebreak) -> None:
    """Hypothetical equal hands are treated alike: both win or both lose."""
    players, hands = case
    ranks = [evaluate(h, players=players, tiebreak=tiebreak) for h in hands]
    found = set(best_ranks(ranks))
    for i in range(len(hands)):
        for j in range(len(hands)):
            if ranks[i].value == ranks[j].value:
                assert (i in found) == (j in found)


def check_deal(players: int, hands: list[Hand], tiebreak: Tiebreak) -> list[int]:
    """Properties of any showdown between hands dealt from one deck."""
    ranks = [evaluate(h, players=players, tiebreak=tiebreak) for h in hands]
    for i, a in enumerate(hands):
        for j, b in enumerate(hands):
            if i != j:
                assert compare(a, b, players=players, tiebreak=tiebreak) != 0

    found = winners(hands, players=players, tiebreak=tiebreak)
    assert found == sorted(set(found))
    assert found
    present = {r.straight_flush_class for r in ranks} - {None}
    if len(found) > 1:
        # 7.3: only one minimum, one medium and one maximum split the pot.
        assert len(found) == 3
        assert present == set(CLASSES)
        assert {ranks[i].straight_flush_class for i in found} == set(CLASSES)
        for i in found:
            same_class = [
                r for r in ranks if r.straight_flush_class is ranks[i].straight_flush_class
            ]
            assert ranks[i].value == max(r.value for r in same_class)
        for i in set(range(len(hands))) - set(found):
            assert any(compare_ranks(ranks[w], ranks[i]) > 0 for w in found)
    else:
        assert present != set(CLASSES)
        (w,) = found
        for i in range(len(hands)):
            if i != w:
                assert compare_ranks(ranks[w], ranks[i]) > 0
    return found


@SETTINGS
@given(deals(), TIEBREAKS)
def test_hands_from_one_deck_never_tie(case: tuple[int, list[Hand]], tiebreak: Tiebreak) -> None:
    """Hands dealt from one deck never tie (suits break every tie, 7.4); the pot is shared
    only in the three-way straight-flush split of 7.3."""
    players, hands = case
    check_deal(players, hands, tiebreak)


@SETTINGS
@given(st.one_of(deals(), three_class_deals()), TIEBREAKS, st.data())
def test_winners_does_not_depend_on_the_order_of_hands(
    case: tuple[int, list[Hand]], tiebreak: Tiebreak, data: st.DataObject
) -> None:
    players, hands = case
    order = data.draw(st.permutations(range(len(hands))))
    found = winners([hands[i] for i in order], players=players, tiebreak=tiebreak)
    assert sorted(order[i] for i in found) == winners(hands, players=players, tiebreak=tiebreak)


@SETTINGS
@given(three_class_deals(), TIEBREAKS)
def test_three_classes_split_the_pot(case: tuple[int, list[Hand]], tiebreak: Tiebreak) -> None:
    """7.3: one minimum, one medium and one maximum split; every other hand loses."""
    players, hands = case
    found = check_deal(players, hands, tiebreak)
    assert len(found) == 3
    for i in found:
        assert evaluate(hands[i], players=players).category is Category.STRAIGHT_FLUSH


@SETTINGS
@given(PLAYERS, st.data())
def test_straight_flushes_cycle(players: int, data: st.DataObject) -> None:
    """7.2: maximum beats medium, medium beats minimum, minimum beats maximum; mediums by rank
    then suit; same class and rank, the higher suit (7.4(a))."""
    sfs = straight_flushes(players)
    a_class, b_class = data.draw(st.sampled_from(CLASSES)), data.draw(st.sampled_from(CLASSES))
    a, b = data.draw(st.sampled_from(sfs[a_class])), data.draw(st.sampled_from(sfs[b_class]))
    result = compare(a, b, players=players)
    beats = {
        (StraightFlushClass.MAXIMUM, StraightFlushClass.MEDIUM),
        (StraightFlushClass.MEDIUM, StraightFlushClass.MINIMUM),
        (StraightFlushClass.MINIMUM, StraightFlushClass.MAXIMUM),
    }
    if (a_class, b_class) in beats:
        assert result > 0
    elif (b_class, a_class) in beats:
        assert result < 0
    else:
        top_a = max(
            c.rank for c in a if c.rank != Rank.ACE or a_class is StraightFlushClass.MAXIMUM
        )
        top_b = max(
            c.rank for c in b if c.rank != Rank.ACE or b_class is StraightFlushClass.MAXIMUM
        )
        expected = sign(top_a - top_b) or sign(a[0].suit - b[0].suit)
        assert result == expected
