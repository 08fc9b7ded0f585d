"""The hand replayer's frames (table/replay_frames.py): a finished deal replayed through the
engine, one frame before the first action and one after each, as one viewer may see it.

Random legal play over every preset makes the deals. Every frame conserves the chips (the
stacks and the pot hold what the seats brought and the carried pot, Art. 2 antes included);
the last frame is the result; and the viewer never gets a hidden card of another seat: with
another seat's cards changed in the history (the deck and that seat's own draws), the viewer's
frames are the same up to the showdown (Art. 6), when shown hands become public.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from italian_poker.engine.actions import Action, ActionKind, LegalAction
from italian_poker.engine.cards import Card
from italian_poker.engine.deal import Deal, Outcome, Phase
from italian_poker.engine.deck import Deck
from italian_poker.engine.errors import InvalidDrawError
from italian_poker.engine.history import HandHistory, HistoryAction, HistoryError
from italian_poker.engine.match import Match, MatchPhase
from italian_poker.engine.observer import PUBLIC, PublicView, Viewer, observe
from italian_poker.engine.opening import OpeningRequirement
from italian_poker.engine.rules import PRESETS, preset
from italian_poker.table.events import FinishedDeal
from italian_poker.table.narration import award_lines
from italian_poker.table.replay_frames import STREETS, HandFrames, hand_frames

NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina")
NEXT = OpeningRequirement()
BEFORE_SHOWDOWN = {Phase.BLINDS, Phase.OPENING, Phase.FIRST_ROUND, Phase.DRAW, Phase.SECOND_ROUND}


def _choose(legal: tuple[LegalAction, ...], hand: list[Card], rng: random.Random) -> Action:
    """A random legal action that reaches the draw and the showdown often."""
    kinds = {la.kind: la for la in legal}
    if ActionKind.DRAW in kinds:
        return Action(ActionKind.DRAW, cards=tuple(rng.sample(hand, rng.choice([0, 1, 2, 3, 4]))))
    if ActionKind.MAKE_UP in kinds:
        return Action(rng.choice([ActionKind.MAKE_UP, ActionKind.SIT_OUT]))
    for kind, chance in ((ActionKind.OPEN, 0.9), (ActionKind.BLIND, 0.3), (ActionKind.PAROL, 0.3)):
        if kind in kinds and rng.random() < chance:
            return Action(kind, kinds[kind].min_amount if kind is ActionKind.OPEN else None)
    if ActionKind.DECLINE in kinds:
        return Action(ActionKind.DECLINE)
    weights = {
        ActionKind.CALL: 6,
        ActionKind.CHECK: 4,
        ActionKind.FOLD: 1,
        ActionKind.PASS: 3,
        ActionKind.RAISE: 1,
        ActionKind.BET: 2,
        ActionKind.SHOW: 6,
        ActionKind.MUCK: 1,
        ActionKind.PAROL: 1,
    }
    options = [la for la in legal if la.kind in weights]
    la = rng.choices(options, [weights[o.kind] for o in options])[0]
    return Action(la.kind, la.min_amount if la.kind in (ActionKind.BET, ActionKind.RAISE) else None)


def random_histories(name: str, players: int, seed: int, deals: int = 3) -> list[HandHistory]:
    """The finished deals of a match under preset ``name`` played at random."""
    rng = random.Random(seed)
    match = Match(preset(name, players=players), [(n, 100) for n in NAMES[:players]], seed=seed)
    while len(match.completed) < deals and match.phase is not MatchPhase.OVER:
        match.start_deal()
        while match.phase in (MatchPhase.IN_DEAL, MatchPhase.MAKE_UP):
            deal = match.deal
            hand = deal.hands[deal.actor] if deal is not None and deal.actor is not None else []
            action = _choose(match.legal_actions(), hand, rng)
            try:
                match.apply(action)
            except InvalidDrawError:  # the opener's draw breaks the opening: announced (4.4)
                match.apply(replace(action, split=True))
    return [HandHistory.from_completed(c) for c in match.completed]


deals = st.builds(
    lambda name, players, seed, pick: random_histories(name, players, seed)[pick],
    st.sampled_from(sorted(PRESETS)),
    st.integers(2, 6),
    st.integers(0, 10**6),
    st.integers(0, 2),
)


def viewers(history: HandHistory) -> list[Viewer]:
    return [*range(len(history.names)), PUBLIC]


# --- what every frame holds --------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(deals)
def test_every_frame_conserves_the_chips_and_the_last_is_the_result(history: HandHistory) -> None:
    assert history.result is not None
    total = sum(history.stacks) + history.carried
    for viewer in viewers(history):
        frames = hand_frames(history, viewer, NEXT)
        assert len(frames.frames) == len(history.actions) + 1
        for frame in frames.frames:
            assert sum(s.stack for s in frame.seats) + frame.pot == total, frame.index
            assert frame.pot >= sum(s.bet for s in frame.seats)
        last = frames.frames[-1]
        assert last.phase is Phase.COMPLETE
        assert tuple(s.stack for s in last.seats) == history.result.stacks
        assert last.pot == history.result.carried
        # The steps are the history's actions, as played.
        for frame, entry in zip(frames.frames[1:], history.actions, strict=True):
            assert frame.action is not None
            assert (frame.action.seat, frame.action.kind) == (entry.seat, entry.action.kind)
            name = history.names[entry.seat]
            assert frame.line.en.startswith(name) and frame.line.it.startswith(name)


@settings(max_examples=40, deadline=None)
@given(deals)
def test_a_viewer_sees_its_own_cards_and_the_others_only_once_shown(
    history: HandHistory,
) -> None:
    for viewer in viewers(history):
        frames = hand_frames(history, viewer, NEXT)
        shown: set[int] = set()
        for frame in frames.frames:
            if frame.action is not None and frame.action.kind is ActionKind.SHOW:
                shown.add(frame.action.seat)
            for seat, entry in enumerate(frame.seats):
                if seat == viewer:
                    assert len(entry.cards) == entry.held
                elif seat in shown:
                    assert len(entry.cards) == 5
                else:
                    assert entry.cards == (), (frame.index, seat)
            action = frame.action
            if action is not None and action.discards and action.seat != viewer:
                assert history.rules.discards_face_up  # 003: everyone sees them
        # The proof is public once the deal is over (3.3, 4.4), never before.
        assert all(f.proof == () for f in frames.frames[:-1])


def test_the_streets_are_the_first_frame_of_each_phase_in_the_deals_order() -> None:
    history = next(h for h in random_histories("standard", 4, 5) if h.result is not None)
    frames = hand_frames(history, 0, NEXT)
    streets = frames.streets()
    phases = [phase for phase, _ in streets]
    assert phases == [p for p in STREETS if p in phases]
    assert phases[-1] is Phase.COMPLETE
    for phase, index in streets:
        assert frames.frames[index].phase is phase
        assert all(f.phase is not phase for f in frames.frames[:index])


def test_the_result_is_the_after_deal_report_as_the_viewer_may_know_it() -> None:
    for history in random_histories("standard", 3, 17, deals=6):
        seat = hand_frames(history, 1, NEXT)
        public = hand_frames(history, PUBLIC, NEXT)
        title = f"Deal {history.number}"
        assert seat.result[0].en == title and public.result[0].it == f"Mano {history.number}"
        assert not any(line.en.startswith("Your hand") for line in public.result)
        shown = any(a.seat == 1 and a.action.kind is ActionKind.SHOW for a in history.actions)
        mine = [line.en for line in seat.result if line.en.startswith("Your hand")]
        assert len(mine) == (0 if shown else 1)
        assert public.frames[0].line.en.startswith(f"Deal {history.number}: ")


@settings(max_examples=40, deadline=None)
@given(deals)
def test_the_end_shows_the_pots_awarded_and_their_winners_as_the_table_does(
    history: HandHistory,
) -> None:
    """The last frame's pot is what is carried on; the pots awarded are the result's, each
    with the sentence the table's felt shows after the deal (the same for every viewer), and
    each winner's chips are their shares added up."""
    result = history.result
    assert result is not None
    told = award_lines(FinishedDeal(history.number or 0, _public_end(history), False, NEXT))
    for viewer in viewers(history):
        frames = hand_frames(history, viewer, NEXT)
        assert [(a.amount, a.winners, a.shares) for a in frames.awards] == [
            (a.amount, a.winners, a.shares) for a in result.awards
        ]
        assert [a.line for a in frames.awards] == told
        won: dict[int, int] = {}
        for award in result.awards:
            for seat, share in zip(award.winners, award.shares, strict=True):
                won[seat] = won.get(seat, 0) + share
        assert frames.won() == won
        if result.outcome is Outcome.WON:
            assert frames.awards and frames.frames[-1].pot == 0  # nothing carried on
            assert sum(a.amount for a in frames.awards) > 0
        else:  # passed or parol: the pot is carried, nobody won
            assert frames.awards == () and frames.won() == {}
            assert frames.frames[-1].pot == result.carried


def test_a_won_deal_names_its_winner_and_the_pot_on_the_last_frame() -> None:
    """Before issue 13's fix the replayer's end said only "Pot 0" (the carried pot)."""
    histories = random_histories("standard", 4, 5, deals=8)
    won = [h for h in histories if h.result is not None and h.result.outcome is Outcome.WON]
    assert won
    for history in won:
        frames = hand_frames(history, PUBLIC, NEXT)
        for award in frames.awards:
            names = [history.names[seat] for seat in award.winners]
            assert all(name in award.line.en and name in award.line.it for name in names)
            assert str(award.amount) in award.line.en


def _public_end(history: HandHistory) -> PublicView:
    """The public view of ``history``'s deal at its end, read off the engine."""
    deal = Deal(history.start(), history.source())
    for entry in history.actions:
        deal.apply(entry.action, seat=entry.seat)
    view = observe(deal, PUBLIC)
    assert isinstance(view, PublicView)
    return view


# --- hidden cards ------------------------------------------------------------------------


def _cards_of(history: HandHistory, seats: set[int]) -> list[Card]:
    return [card for d in history.dealt if d.seat in seats for card in d.cards]


def _swapped(history: HandHistory, viewer: int, x: Card, y: Card) -> HandHistory:
    """``history`` with cards ``x`` and ``y`` (neither ever the viewer's) swapped in the
    dealer's lines and in the other seats' draws and shows; the result goes (the replay works
    it out again)."""

    def swap(card: Card) -> Card:
        return y if card == x else x if card == y else card

    def entry(e: HistoryAction) -> HistoryAction:
        if e.seat == viewer:
            return e
        action = replace(e.action, cards=tuple(map(swap, e.action.cards)))
        return HistoryAction(e.seat, action, tuple(map(swap, e.shown)))

    return replace(
        history,
        actions=tuple(map(entry, history.actions)),
        dealt=tuple(replace(d, cards=tuple(map(swap, d.cards))) for d in history.dealt),
        result=None,
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(deals, st.integers(0, 10**6))
def test_the_viewer_never_gets_another_seats_hidden_card(history: HandHistory, choice: int) -> None:
    """Another seat's cards changed in the history: the viewer's frames are the same until
    the showdown; that seat's own frames change (the check is not vacuous)."""
    assume(not history.reshuffled_after)  # a reshuffled discard may come to the viewer (4.3)
    n = len(history.names)
    viewer = choice % n
    openers = {a.seat for a in history.actions if a.action.kind is ActionKind.OPEN}
    others = set(range(n)) - {viewer} - openers  # an opener's cards decide the opening (3.2)
    theirs = _cards_of(history, others)
    dealt = set(_cards_of(history, set(range(n))))
    stock = [c for c in Deck(n).cards if c not in dealt]
    if history.rules.discards_face_up:  # 003: discards are public
        discarded = {c for a in history.actions for c in a.action.cards}
        theirs = [c for c in theirs if c not in discarded]
        stock = [c for c in stock if c not in discarded]
    assume(theirs)
    x = theirs[choice % len(theirs)]
    owner = next(d.seat for d in history.dealt if x in d.cards)
    candidates = stock + [c for c in theirs if c not in _cards_of(history, {owner})]
    assume(candidates)
    y = candidates[(choice // 7) % len(candidates)]
    changed = _swapped(history, viewer, x, y)
    try:
        after: HandFrames | None = hand_frames(changed, viewer, NEXT)
    except HistoryError:  # the changed cards make an action illegal: no such deal
        after = None
    assume(after is not None)
    assert after is not None
    before = hand_frames(history, viewer, NEXT)
    compared = 0
    for old, new in zip(before.frames, after.frames, strict=True):
        if old.phase not in BEFORE_SHOWDOWN:
            break
        assert old == new, f"frame {old.index} shows the viewer a change in another seat's cards"
        compared += 1
    assert compared >= 1
    theirs_before = hand_frames(history, owner, NEXT).frames
    theirs_after = hand_frames(changed, owner, NEXT).frames
    assert theirs_before != theirs_after


def test_the_public_sees_no_card_before_the_showdown() -> None:
    for history in random_histories("002", 5, 3, deals=4):
        frames = hand_frames(history, PUBLIC, NEXT)
        assert frames.viewer is PUBLIC
        for frame in frames.frames:
            if frame.phase in BEFORE_SHOWDOWN:
                assert all(seat.cards == () for seat in frame.seats), frame.index


# --- what it refuses ---------------------------------------------------------------------


def _one_history() -> HandHistory:
    return random_histories("standard", 3, 8, deals=1)[0]


def test_a_history_without_a_number_or_unfinished_is_refused() -> None:
    history = _one_history()
    with pytest.raises(HistoryError, match="no hand number"):
        hand_frames(replace(history, number=None), 0, NEXT)
    actions = history.actions[:-1]
    dealt = tuple(d for d in history.dealt if d.after <= len(actions))
    unfinished = replace(history, actions=actions, result=None, dealt=dealt)
    with pytest.raises(HistoryError, match="not over"):
        hand_frames(unfinished, 0, NEXT)


def test_an_illegal_history_names_the_action_and_a_stranger_is_no_viewer() -> None:
    history = _one_history()
    first = history.actions[0]
    bad = HistoryAction((first.seat + 1) % len(history.names), first.action, first.shown)
    with pytest.raises(HistoryError, match=r"^action 1 \("):
        hand_frames(replace(history, actions=(bad, *history.actions[1:])), 0, NEXT)
    with pytest.raises(ValueError, match="a viewer is a seat number from 0 to 2 or PUBLIC"):
        hand_frames(history, 3, NEXT)


def test_frames_are_frozen_records() -> None:
    frames = hand_frames(_one_history(), 0, NEXT)
    assert isinstance(frames, HandFrames)
    with pytest.raises(AttributeError):
        frames.frames[0].pot = 1  # type: ignore[misc]
