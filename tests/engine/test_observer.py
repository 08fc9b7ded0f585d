"""The observer (engine/observer.py): one place decides what each viewer may know. A seat gets
its SeatView, the public a PublicView with no hidden field at all, and the operations log is
given to each viewer with nothing it may not see."""

from __future__ import annotations

import dataclasses
import random

import pytest
from engine_helpers import (
    apply_random,
    cards,
    cards_in,
    new_deal,
    new_match,
    play,
    play_randomly,
    public_cards,
    rules,
    visible_to,
)

from italian_poker import PRESETS, Deal, preset
from italian_poker.engine.actions import call, draw, fold, open_
from italian_poker.engine.observer import (
    PUBLIC,
    PublicAction,
    PublicView,
    SeatView,
    Unseen,
    observe,
    observe_operations,
)
from italian_poker.engine.operations import CardsDrawn, HandsDealt


def test_public_view_has_no_hidden_field() -> None:
    """A public consumer cannot reach hidden cards by type: PublicView has no hand, no
    kept-apart cards and no legal actions."""
    public = set(PublicView._fields)
    seat = set(SeatView._fields)
    assert seat - public == {"seat", "hand", "legal_actions", "kept_apart"}
    assert not {"hand", "kept_apart", "legal_actions", "seat"} & public


def test_observe_gives_a_seat_its_view_and_the_public_the_public_view() -> None:
    deal = new_deal(rules(), {1: "Jh Jc 7d 8s Ac"})
    mine = observe(deal, 1)
    assert isinstance(mine, SeatView) and mine.hand == cards("Jh Jc 7d 8s Ac")
    public = observe(deal, PUBLIC)
    assert isinstance(public, PublicView)
    assert not set(cards_in(public))
    for name in PublicView._fields:
        assert getattr(public, name) == getattr(mine, name) or name == "actions"
    with pytest.raises(ValueError, match="viewer"):
        observe(deal, 4)
    with pytest.raises(ValueError, match="viewer"):
        observe(deal, True)  # type: ignore[call-overload]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_views_are_what_their_constructor_would_make(seed: int) -> None:
    """The observer makes views equal, field for field, to their constructor's; they are
    immutable; ``_replace`` and (as when views were frozen dataclasses) ``dataclasses.fields``,
    ``replace`` and ``asdict`` work on them."""
    match = new_match(rules())
    match.start_deal(seed=seed)
    rng = random.Random(seed)
    deal = match.deal
    assert deal is not None
    while True:
        for viewer in (*range(deal.n), PUBLIC):
            view = observe(deal, viewer)
            cls = PublicView if viewer is PUBLIC else SeatView
            assert type(view) is cls
            names = [f.name for f in dataclasses.fields(cls)]
            assert names == list(cls._fields) and dataclasses.is_dataclass(view)
            made = cls(**{name: getattr(view, name) for name in names})
            assert view == made and repr(view) == repr(made)
            with pytest.raises(AttributeError):
                view.pot = 0
            assert view._replace(pot=view.pot + 1).pot == view.pot + 1
            changed = dataclasses.replace(view, pot=view.pot + 1)  # type: ignore[type-var,unused-ignore]
            assert type(changed) is cls and changed.pot == view.pot + 1
            assert dataclasses.asdict(view)["stacks"] == view.stacks  # type: ignore[call-overload,unused-ignore]
        if deal.actor is None:
            break
        apply_random(match, rng)


def test_a_draw_is_seen_as_a_count_except_by_its_player() -> None:
    """4.1: the table sees how many cards a player changes, not which (000, face down)."""
    deal = new_deal(rules(), {1: "Jh Jc 7d 8s Ac", 2: "7s 9c Jd Kh Ad"})
    play(deal, (1, open_(2)), (2, call()), (3, fold()), (0, fold()))
    play(deal, (1, draw(*cards("7d 8s"))))
    last_public = observe(deal, PUBLIC).actions[-1]
    assert last_public.cards_changed == 2 and last_public.discards == ()
    assert observe(deal, 1).actions[-1].discards == cards("7d 8s")
    assert observe(deal, 2).actions[-1].discards == ()


def check_observations(deal: Deal) -> None:
    """No view and no observed log holds a card its viewer may not know."""
    allowed_public = public_cards(deal)
    public = observe(deal, PUBLIC)
    leaked = set(cards_in(public)) - allowed_public
    assert not leaked, f"the public sees {sorted(map(str, leaked))}"
    ops = deal.operations
    leaked = set(cards_in(observe_operations(ops, PUBLIC, deal.rules))) - allowed_public
    # The result (the last operation) names shown hands and the proof: public.
    assert not leaked, f"the public log shows {sorted(map(str, leaked))}"
    dealt = next((op for op in ops if isinstance(op, HandsDealt)), None)
    for seat in range(deal.n):
        # A seat knows its own five dealt cards, even those it later discarded.
        allowed = visible_to(deal, seat) | (set(dealt.hands[seat]) if dealt else set())
        leaked = set(cards_in(observe_operations(ops, seat, deal.rules))) - allowed
        assert not leaked, f"seat {seat}'s log shows {sorted(map(str, leaked))}"


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize(("players", "seed"), [(2, 1), (4, 2), (6, 3), (9, 4)])
def test_observations_never_leak_in_random_play(name: str, players: int, seed: int) -> None:
    rng = random.Random(seed * 7 + len(name))
    play_randomly(new_match(preset(name, players=players)), rng, check_observations)


def test_observed_log_keeps_the_shape_of_the_deal() -> None:
    """Each operation has its observed counterpart: actions as PublicActions, unseen cards
    as counts, other seats' dealt hands empty."""
    deal = new_deal(rules(), {1: "Jh Jc 7d 8s Ac", 2: "7s 9c Jd Kh Ad"})
    play(deal, (1, open_(2)), (2, call()), (3, fold()), (0, fold()))
    play(deal, (1, draw(*cards("7d 8s Ac"))), (2, draw(*cards("7s 9c"))))
    seen = observe_operations(deal.operations, 2, deal.rules)
    assert len(seen) == len(deal.operations)
    dealt = seen[1]
    assert isinstance(dealt, HandsDealt)
    assert dealt.hands[2] == cards("7s 9c Jd Kh Ad") and dealt.hands[1] == ()
    assert any(isinstance(op, Unseen) and op.seat == 1 and op.count == 3 for op in seen)
    assert any(isinstance(op, CardsDrawn) and op.seat == 2 for op in seen)
    actions = [op for op in deal.operations if type(op).__name__ == "ActionRecord"]
    assert sum(isinstance(op, PublicAction) for op in seen) == len(actions)
