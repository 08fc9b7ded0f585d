"""The OpenSpiel game ``python_italian_poker`` (italian_poker.ai): OpenSpiel's own random
simulation test, the Python games' checks (pickling, clones, sorted legal actions, chance
outcomes summing to 1, returns in range and zero-sum), the deal following chance, and the
observation of a seat never encoding another seat's hidden cards.

Needs the ``ai`` extra (open_spiel); skipped without it, failing instead with
``ITALIAN_POKER_REQUIRE_AI=1`` (CI)."""

from __future__ import annotations

import os
import pickle
import random
import re
from dataclasses import replace
from pathlib import Path

import pytest

if os.environ.get("ITALIAN_POKER_REQUIRE_AI") == "1":
    import pyspiel  # fails here, as CI must, when open_spiel is missing
else:
    pyspiel = pytest.importorskip(
        "pyspiel", reason="open_spiel is not installed: pip install 'italian-poker[ai]'"
    )

from italian_poker.ai import GAME_NAME, ItalianPokerState
from italian_poker.ai.config import game_config
from italian_poker.ai.encoding import (
    AMOUNT_BASES,
    DRAW_BASE,
    NUM_ACTIONS,
    SIMPLE_KINDS,
    SPLIT_BASE,
    describe,
    draw_ids,
    legal_ids,
    slot_amount,
    sorted_hand,
    to_action,
)
from italian_poker.engine.actions import Action, ActionKind, LegalAction
from italian_poker.engine.card_source import RecordedSource
from italian_poker.engine.cards import Card, parse_cards
from italian_poker.engine.deal import Deal, Phase
from italian_poker.engine.deck import stripped_deck
from italian_poker.engine.match import Match, MatchPhase
from italian_poker.engine.rules import preset


def load(**params: object) -> pyspiel.Game:
    return pyspiel.load_game(GAME_NAME, params)


def play(state: pyspiel.State, rng: random.Random) -> int:
    """A random action of ``state``'s chance or player."""
    if state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        return rng.choices(outcomes, probs)[0]
    return rng.choice(state.legal_actions())


@pytest.mark.parametrize("players", [2, 3, 4, 6, 9])
def test_random_sim_test_with_serialization(players: int) -> None:
    pyspiel.random_sim_test(load(players=players), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize(
    "params",
    [
        {"players": 4, "preset": "doc003"},
        {"players": 5, "preset": "doc001", "structure": "pot-limit"},
        {"players": 3, "structure": "no-limit", "deals": 3},
        {"players": 4, "preset": "doc002", "structure": "fixed-limit", "deals": 2},
        {"players": 2, "deals": 6, "stack": 12},
    ],
)
def test_random_sim_test_presets_structures_and_deals(params: dict[str, object]) -> None:
    pyspiel.random_sim_test(load(**params), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize(("players", "deals"), [(2, 3), (4, 1), (9, 1)])
def test_the_states_own_methods_answer_as_pyspiels(players: int, deals: int) -> None:
    """``legal_actions`` and ``is_chance_node``, answered in Python without the call
    through C++, are what ``pyspiel.State``'s own (the C++ path) answer, for every player."""
    game = load(players=players, deals=deals, stack=30)
    rng = random.Random(players)
    for _ in range(3):
        state = game.new_initial_state()
        while True:
            assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
            assert state.legal_actions() == pyspiel.State.legal_actions(state)
            for player in range(players):
                assert state.legal_actions(player) == pyspiel.State.legal_actions(state, player)
            if state.is_terminal():
                break
            state.apply_action(play(state, rng))


@pytest.mark.parametrize(("players", "deals"), [(4, 1), (9, 1), (3, 3)])
def test_a_clone_plays_on_as_the_state_and_apart_from_it(players: int, deals: int) -> None:
    """A clone (made by replaying the engine's steps) at any node, in the middle of the
    cards chance picks too, plays on as the state: the same nodes and returns; playing it
    leaves the state as it was."""
    game = load(players=players, deals=deals, stack=30)
    rng = random.Random(players * 10 + deals)
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            clone = state.clone()
            before = (str(state), state.information_state_string(0))
            tail = random.Random(rng.random())
            while not clone.is_terminal():  # the clone played to the end, alone
                clone.apply_action(play(clone, tail))
            assert (str(state), state.information_state_string(0)) == before
            twin, copy_of = state.clone(), state.clone()
            for action in clone.history()[len(state.history()) :]:
                assert twin.legal_actions() == copy_of.legal_actions()
                assert action in twin.legal_actions()
                twin.apply_action(action)
                copy_of = copy_of.clone()
                copy_of.apply_action(action)
            assert twin.returns() == clone.returns() == copy_of.returns()
            assert str(twin) == str(clone)
            state.apply_action(play(state, rng))


def test_the_tensors_and_strings_are_pyspiels() -> None:
    """The state's tensors and strings, read with the game's observers, are what pyspiel's
    own methods (a new observer at every call) give, for every player at every node; a
    player out of range raises as pyspiel does."""
    game = load(players=3, deals=2, stack=20)
    rng = random.Random(5)
    state = game.new_initial_state()
    while True:
        for player in range(3):
            for name in (
                "observation_tensor",
                "information_state_tensor",
                "observation_string",
                "information_state_string",
            ):
                ours = getattr(state, name)(player)
                assert ours == getattr(pyspiel.State, name)(state, player), name
        if state.is_terminal():
            break
        state.apply_action(play(state, rng))
    with pytest.raises(pyspiel.SpielError):
        state.observation_tensor(3)


def test_a_card_chance_cannot_pick_changes_nothing() -> None:
    state = load(players=4).new_initial_state()
    while not state.is_chance_node():
        state.apply_action(state.legal_actions()[0])  # the blinds (Art. 2), declined
    first = state.chance_outcomes()[0][0]
    state.apply_action(first)
    before = (str(state), state.chance_outcomes())
    with pytest.raises(ValueError):
        state.apply_action(first)  # picked already
    assert (str(state), state.chance_outcomes()) == before


@pytest.mark.parametrize(("players", "deals"), [(2, 1), (4, 1), (9, 1), (3, 4)])
def test_python_game_checks(players: int, deals: int) -> None:
    game = load(players=players, deals=deals, stack=30)
    rng = random.Random(players * 100 + deals)
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                assert sum(p for _, p in outcomes) == pytest.approx(1.0)
                assert len({a for a, _ in outcomes}) == len(outcomes)
                assert all(0 <= a < game.max_chance_outcomes() for a, _ in outcomes)
            else:
                legal = state.legal_actions()
                assert legal and legal == sorted(legal)
                assert all(0 <= a < NUM_ACTIONS for a in legal)
                player = state.current_player()
                assert len(state.information_state_tensor(player)) == (
                    game.information_state_tensor_size()
                )
                assert len(state.observation_tensor(player)) == game.observation_tensor_size()
            clone = state.clone()
            assert clone.history() == state.history() and str(clone) == str(state)
            copy = pickle.loads(pickle.dumps(state))
            assert copy.history() == state.history() and str(copy) == str(state)
            action = play(state, rng)
            clone.apply_action(action)
            state.apply_action(action)
            assert str(clone) == str(state)
        returns = state.returns()
        assert sum(returns) == 0
        assert all(game.min_utility() <= r <= game.max_utility() for r in returns)
        assert all(r == int(r) for r in returns)  # chips


def test_every_card_of_the_deal_is_a_chance_outcome_dealt_one_at_a_time() -> None:
    game = load(players=4)
    state = game.new_initial_state()
    # The blind is offered before the cards are dealt (Art. 2); declined, they are due.
    assert not state.is_chance_node()
    view = state.machine.public_view()
    assert view is not None and view.phase is Phase.BLINDS
    assert state.machine.view(1).hand == ()
    state.apply_action(SIMPLE_KINDS.index(ActionKind.DECLINE))
    picked = []
    for i in range(20):
        assert state.is_chance_node()
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 32 - i  # the 32-card deck for four players, less those dealt
        action = outcomes[(7 * i) % len(outcomes)][0]
        picked.append(Card.from_index(action))
        state.apply_action(action)
    assert not state.is_chance_node()
    # 3.1: one card at a time from the dealer's (seat 0's) left.
    for player in range(4):
        hand = state.machine.view(player).hand
        assert sorted(hand, key=lambda c: c.index) == sorted(
            (picked[i] for i in range(20) if (1 + i) % 4 == player), key=lambda c: c.index
        )


def test_draws_and_reshuffles_are_chance_nodes() -> None:
    """Nine players (seven cards left after the deal): the draw's cards are picked by chance,
    from the stock and, once it ran out, from the discards shuffled in (4.3), never a player's
    own while others are left."""
    game = load(players=9)
    rng = random.Random(9)
    reshuffled = 0
    for _ in range(6):
        state = game.new_initial_state()
        while not state.is_terminal():
            due = state.machine.cards_due
            if state.is_chance_node() and due is not None and due.shuffled_in:
                reshuffled += 1
                outcomes = {Card.from_index(a) for a, _ in state.chance_outcomes()}
                picked = {Card.from_index(i) for i in state._picked}  # by index
                assert outcomes == set(due.candidates) - picked
            state.apply_action(play(state, rng))
    assert reshuffled > 0


def _dealt_to(players: int, index: int) -> int:
    """The seat the ``index``-th card of the deal goes to (dealer seat 0, clockwise)."""
    return (1 + index) % players


@pytest.mark.parametrize("players", [2, 4, 6])
def test_a_seat_never_sees_another_seats_hidden_cards(players: int) -> None:
    game = load(players=players)
    rng = random.Random(players)
    compared = 0
    for _ in range(8):
        state = game.new_initial_state()
        dealing: list[int] = []  # the steps of the first five-card deal (3.1)
        while not state.is_terminal():
            if state.is_chance_node() and len(dealing) < 5 * players:
                dealing.append(len(state.history()))
            state.apply_action(play(state, rng))
        history = state.history()
        # A card no chance node picked (never dealt nor served), given to seat 1 instead of
        # its first card; seat 0 watches.
        unused = [c.index for c in stripped_deck(players).cards if c.index not in history]
        if not unused:
            continue
        other = 1
        position = dealing[next(i for i in range(5 * players) if _dealt_to(players, i) == other)]
        changed = list(history)
        changed[position] = unused[0]
        a, b = game.new_initial_state(), game.new_initial_state()
        differs = False
        for step, (x, y) in enumerate(zip(history, changed, strict=True)):
            if a.is_terminal() or b.is_terminal():
                break
            deal = a.machine.public_view()
            if deal is not None and deal.phase in (Phase.SHOWDOWN, Phase.COMPLETE):
                break  # the showdown shows hands, and the proof the opening
            if step > dealing[-1]:
                assert a.observation_tensor(0) == b.observation_tensor(0)
                assert a.information_state_tensor(0) == b.information_state_tensor(0)
                assert a.observation_string(0) == b.observation_string(0)
                assert a.information_state_string(0) == b.information_state_string(0)
                differs |= a.observation_tensor(other) != b.observation_tensor(other)
                compared += 1
            legal = [o for o, _ in b.chance_outcomes()] if b.is_chance_node() else b.legal_actions()
            if y not in legal:
                break  # the changed hand cannot take the same action (e.g. open)
            a.apply_action(x)
            b.apply_action(y)
        assert differs, "the changed seat's own tensor must show its changed hand"
    assert compared > 20


def test_parameters_are_checked() -> None:
    with pytest.raises(ValueError, match="2 to 9 players"):
        game_config({"players": 10})
    with pytest.raises(ValueError, match="preset must be one of standard, doc001"):
        game_config({"preset": "003"})
    with pytest.raises(ValueError, match="structure must be one of"):
        game_config({"structure": "table-stakes"})
    with pytest.raises(ValueError, match="unknown parameter"):
        game_config({"seats": 4})
    with pytest.raises(ValueError, match="deals must be at least 1"):
        game_config({"deals": 0})
    assert game_config({"preset": "doc003"}).rules.name == "003"


def test_action_names_are_distinct_and_the_state_is_the_engines() -> None:
    names = [describe(a) for a in range(NUM_ACTIONS)]
    assert len(set(names)) == NUM_ACTIONS
    state = load(players=2).new_initial_state()
    assert isinstance(state, ItalianPokerState)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 51) == "deal Ah"


def test_the_example_of_docs_ai_md_runs() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "ai.md").read_text("utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    assert blocks
    for block in blocks:
        exec(compile(block, "docs/ai.md", "exec"), {"__name__": "example"})


def test_amount_slots_cover_the_offered_range_once_each() -> None:
    assert [slot_amount(j, 2, 10) for j in range(5)] == [2, 4, 6, 8, 10]
    raise_ = AMOUNT_BASES[ActionKind.RAISE]
    spread = (LegalAction(ActionKind.FOLD), LegalAction(ActionKind.RAISE, 3, 5))
    ids = legal_ids(spread, (), True)
    # 3, 3, 4, 4, 5: the lower slot of each amount only.
    assert ids == [SIMPLE_KINDS.index(ActionKind.FOLD), raise_, raise_ + 2, raise_ + 4]
    assert [to_action(i, spread, ()).amount for i in ids[1:]] == [3, 4, 5]
    fixed = (LegalAction(ActionKind.RAISE, 4, 4),)
    assert legal_ids(fixed, (), True) == [raise_]


def test_draw_masks_read_the_hand_sorted_by_card_index() -> None:
    hand = tuple(parse_cards("As 9h Jd 9c Kh"))
    offer = (LegalAction(ActionKind.DRAW, max_cards=4),)
    action = to_action(DRAW_BASE + 0b00011, offer, hand)
    assert action.cards == tuple(parse_cards("9c 9h")) and not action.split
    assert to_action(SPLIT_BASE + 0b10000, offer, hand).split
    ids = legal_ids(offer, hand, True)
    assert ids == [DRAW_BASE + mask for mask in range(31)]  # every mask but all five


def test_hands_shown_at_the_showdown_are_in_every_players_information_state() -> None:
    """The log of actions says "show"; the cards shown are in the view, and a player's
    information state must have them (a losing hand may be mucked, 002: what a player may do
    depends on them)."""
    game = load(players=3, preset="doc002", structure="fixed-limit")
    rng = random.Random(5)
    checked = 0
    for _ in range(40):
        state = game.new_initial_state()
        while not state.is_terminal():
            deal = state.machine.public_view()
            if not state.is_chance_node() and deal is not None and deal.phase is Phase.SHOWDOWN:
                for shown in deal.shown.values():
                    cards = " ".join(str(c) for c in shown)
                    assert shown
                    for player in range(3):
                        assert cards in state.information_state_string(player)
                        assert cards in state.observation_string(player)
                    checked += 1
            state.apply_action(play(state, rng))
    assert checked > 0


def test_outcome_sampling_mccfr_runs_on_the_game() -> None:
    """A sampler walks the real tree: chance nodes, information states, legal actions."""
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    game = load(players=2, structure="fixed-limit", stack=20)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(150):
        solver.iteration()
    assert len(solver._infostates) > 100


def _draw_ids_asked_of_the_engine(match: Match, hand: tuple[Card, ...]) -> list[int]:
    """Every draw id, mask by mask and with and without the split, that ``match.can`` takes."""
    ordered = sorted_hand(hand)
    ids = []
    for base, split in ((DRAW_BASE, False), (SPLIT_BASE, True)):
        for mask in range(32):
            cards = tuple(card for i, card in enumerate(ordered) if mask >> i & 1)
            if match.can(Action(ActionKind.DRAW, cards=cards, split=split)):
                ids.append(base + mask)
    return ids


@pytest.mark.parametrize("opener_may_split", [True, False])
@pytest.mark.parametrize("players", [2, 4, 7])
def test_draw_ids_are_the_draws_the_engine_accepts(players: int, opener_may_split: bool) -> None:
    """draw_ids works the draws out from the offer (4.1, 4.4); on random draws, openers'
    and others', they are exactly those the engine's own ``can`` accepts."""
    rules = replace(preset("standard", players=players), opener_may_split=opener_may_split)
    rng = random.Random(players * 2 + opener_may_split)
    draws = openers = 0
    # Random raises re-open the betting until someone folds: enough deals for 20 openers' draws.
    for deal in range(250):
        match = Match(rules, [(f"P{p}", 200) for p in range(players)], seed=deal)
        match.start_deal()
        while match.phase is MatchPhase.IN_DEAL:
            legal = match.legal_actions()
            actor = match.actor
            assert actor is not None
            hand = match.view(actor).hand
            if legal[0].kind is ActionKind.DRAW:
                expected = _draw_ids_asked_of_the_engine(match, hand)
                assert draw_ids(legal[0], hand, opener_may_split) == expected
                assert legal_ids(legal, hand, opener_may_split) == expected
                draws += 1
                openers += legal[0].split_unless_kept is not None
                ids = expected
            else:
                ids = legal_ids(legal, hand, opener_may_split)
                opens = [i for i in ids if AMOUNT_BASES[ActionKind.OPEN] <= i < DRAW_BASE - 10]
                ids = opens or ids  # open whenever allowed: openers' draws are wanted
            match.apply(to_action(rng.choice(ids), legal, hand))
    assert draws > 100 and openers > 20


@pytest.mark.parametrize(("players", "deals"), [(2, 3), (4, 2), (9, 1)])
def test_each_deal_replays_from_its_operations(players: int, deals: int) -> None:
    """The cards chance picked are the deal's operations: each deal of an episode started
    again with a RecordedSource of them and its actions ends as it did, and the episode's
    history played again gives the same match."""
    game = load(players=players, deals=deals, stack=40)
    rng = random.Random(players + deals)
    replayed = 0
    for _ in range(15):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(play(state, rng))
        for done in state.machine.completed:
            deal = Deal(done.start, RecordedSource(done.operations))
            for record in done.actions:
                deal.apply(record.action, record.seat)
            assert deal.operations == list(done.operations)
            replayed += 1
        again = game.new_initial_state()
        for action in state.history():
            again.apply_action(action)
        assert [d.operations for d in again.machine.completed] == [
            d.operations for d in state.machine.completed
        ]
    assert replayed >= 15


def test_a_clone_not_read_yet_pickles_and_plays_on() -> None:
    """A clone gets its machine when first read; pickled before that, it comes back as the
    state it is a clone of, and plays on as that state does."""
    game = load(players=3)
    state = game.new_initial_state()
    rng = random.Random(4)
    for _ in range(10):  # the blind declined, and cards picked: in the middle of the deal
        state.apply_action(play(state, rng))
    assert state.is_chance_node()
    clone = state.clone()
    copy = pickle.loads(pickle.dumps(clone))
    assert copy.history() == state.history() and str(copy) == str(state)
    while not state.is_terminal():
        action = play(state, rng)
        state.apply_action(action)
        copy.apply_action(action)
    assert copy.returns() == state.returns()


@pytest.mark.parametrize(("players", "deals", "stack"), [(2, 6, 12), (4, 3, 20), (6, 4, 15)])
def test_the_returns_are_the_chips_at_the_table(players: int, deals: int, stack: int) -> None:
    """Once the last deal's pot is won (or handed back), each player's return is the chips
    the machine says they have, seated or gone (busted players leave the table), less the
    stack."""
    game = load(players=players, deals=deals, stack=stack)
    rng = random.Random(players * deals)
    compared = 0
    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(play(state, rng))
        machine = state.machine
        if not machine.completed or machine.completed[-1].result.carried:
            continue
        chips = {seat.player: seat.chips for seat in machine.seats}
        chips.update((gone.player, gone.chips) for gone in machine.departed)
        assert state.returns() == [float(chips[p] - stack) for p in range(players)]
        compared += 1
    assert compared > 5
