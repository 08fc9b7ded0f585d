"""``build_pots`` (engine/pot.py) on its own: the main pot and the side pots of players all-in
for less under table stakes (002; docs/rules.md, "All-in and side pots"), the chips carried
from earlier deals in the main pot (3.5, 5.4), and the chips of folded players left in the
pots they reached."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from italian_poker import Pot, build_pots


def test_equal_bets_make_one_pot_with_the_chips_carried() -> None:
    assert build_pots([20, 20, 20], [True, True, True], dead=9) == [Pot(69, (0, 1, 2))]


def test_nothing_committed_and_nothing_carried_is_no_pot() -> None:
    assert build_pots([0, 0, 0], [True, True, True]) == []


def test_only_chips_carried_are_one_pot_for_the_live_seats() -> None:
    assert build_pots([0, 0, 0], [True, False, True], dead=12) == [Pot(12, (0, 2))]


def test_all_ins_for_less_make_side_pots() -> None:
    """Each all-in for less caps the pot he may win: 10 from each of four, then 20 more from
    each of three, then 20 more from the last two."""
    assert build_pots([10, 30, 50, 50], [True] * 4) == [
        Pot(40, (0, 1, 2, 3)),
        Pot(60, (1, 2, 3)),
        Pot(40, (2, 3)),
    ]


def test_the_chips_carried_go_to_the_main_pot_only() -> None:
    """Chips carried from earlier deals (a passed deal, 3.5; a parol, 5.4) and make-ups (5.5)
    are the main pot's: the shortest all-in may win them."""
    assert build_pots([10, 30, 50, 50], [True] * 4, dead=7) == [
        Pot(47, (0, 1, 2, 3)),
        Pot(60, (1, 2, 3)),
        Pot(40, (2, 3)),
    ]


def test_a_folded_seat_leaves_its_chips_in_the_pots_it_reached() -> None:
    """Seat 0 bet 20 and folded: its chips are in the main pot (up to the all-in's 30), where
    it may win nothing, and none in the side pot it never reached."""
    assert build_pots([20, 50, 30, 50], [False, True, True, True], dead=4) == [
        Pot(114, (1, 2, 3)),
        Pot(40, (1, 3)),
    ]


def test_a_folded_seat_above_every_live_seat_adds_its_excess_to_the_last_pot() -> None:
    """Seat 0 raised to 60 and folded; the live seats are all in for 30: its 30 more go to
    the pot of those who put in the most."""
    assert build_pots([60, 30, 40], [False, True, True]) == [Pot(90, (1, 2)), Pot(40, (2,))]
    assert build_pots([60, 30, 30], [False, True, True], dead=3) == [Pot(123, (1, 2))]


def test_when_every_live_seat_put_in_nothing_the_chips_go_to_them() -> None:
    assert build_pots([5, 0, 0], [False, True, True], dead=2) == [Pot(7, (1, 2))]


@st.composite
def committed_and_live(draw: st.DrawFn) -> tuple[list[int], list[bool], int]:
    """Chips committed by 2 to 9 seats, which are live, and the chips carried; every live
    seat put in at least a chip (its ante, Art. 1), a folded one any amount."""
    n = draw(st.integers(2, 9))
    live = draw(st.lists(st.booleans(), min_size=n, max_size=n).filter(any))
    committed = [draw(st.integers(1 if alive else 0, 60)) for alive in live]
    return committed, live, draw(st.integers(0, 30))


@settings(max_examples=300, deadline=None)
@given(committed_and_live())
def test_each_live_seat_may_win_what_it_matched(case: tuple[list[int], list[bool], int]) -> None:
    """Every chip is in a pot; only live seats win; a live seat is eligible for the chips
    carried and, from every seat, as many as it put in itself (a seat at the highest live
    level also for the folded seats' chips above it), found straight from the table-stakes
    rule, not by levels."""
    committed, live, dead = case
    pots = build_pots(committed, live, dead)
    total = sum(committed) + dead
    assert sum(p.amount for p in pots) == total
    assert all(p.amount > 0 and p.eligible for p in pots)
    assert all(live[s] for p in pots for s in p.eligible)
    top = max(c for c, alive in zip(committed, live, strict=True) if alive)
    for seat, alive in enumerate(live):
        may_win = sum(p.amount for p in pots if seat in p.eligible)
        if not alive:
            assert may_win == 0
            continue
        mine = committed[seat]
        matched = dead + sum(min(c, mine) for c in committed)
        if mine == top:
            matched += sum(c - top for c in committed if c > top)
        assert may_win == matched, (seat, pots)
