"""The miniature (italian_poker.ai.miniature): the deal stacked into the engine gives the hands
chance picked, a deal's subtree comes from the engine's moves, bad miniatures are refused, and
(soak) OpenSpiel's C++ CFR+ solves the whole miniature to NashConv below 1e-3. Also the
sampled lower bound on the uniform policy's NashConv in the full heads-up game.

Needs the ``ai`` extra (open_spiel); skipped without it, failing instead with
``ITALIAN_POKER_REQUIRE_AI=1`` (CI)."""

from __future__ import annotations

import json
import os

import pytest

if os.environ.get("ITALIAN_POKER_REQUIRE_AI") == "1":
    import pyspiel  # fails here, as CI must, when open_spiel is missing
else:
    pyspiel = pytest.importorskip(
        "pyspiel", reason="open_spiel is not installed: pip install 'italian-poker[ai]'"
    )

from italian_poker.ai import miniature as mini_module
from italian_poker.ai.encoding import AMOUNT_BASES, DRAW_BASE, SIMPLE_KINDS
from italian_poker.ai.miniature import Miniature
from italian_poker.ai.uniform_bound import aggressor, uniform_bound
from italian_poker.engine.actions import ActionKind
from italian_poker.engine.cards import Rank, parse_cards


def _deal(text0: str, text1: str, stock: str) -> mini_module._Deal:
    return mini_module._Deal(
        (tuple(parse_cards(text0)), tuple(parse_cards(text1))), tuple(parse_cards(stock))
    )


DEAL = _deal("Qs Qc Kd Kh Ah", "Qd Qh Ks Kc As", "Ac Ad")


def test_the_stacked_deck_deals_the_hands_chance_picked() -> None:
    """3.1: one card at a time from the dealer's (P0's) left: P1's hand, then P0's."""
    machine = mini_module._table(Miniature(), DEAL, [])
    assert set(machine.view(0).hand) == set(DEAL.hands[0])
    assert set(machine.view(1).hand) == set(DEAL.hands[1])
    assert machine.to_act == 1  # the dealer's left begins (3.2)


def test_a_deal_subtree_is_the_engines() -> None:
    """Heads-up, ante only, fixed limit, no raise, no parol: P1 passes or opens (3.2)."""
    mini = Miniature()
    writer = mini_module._Writer(mini)
    writer.walk(DEAL, [])
    first = writer.lines[0]
    assert first.startswith('p "" 2 1 "1.1" { "pass" "open 1" }')
    payoffs = [
        [float(x) for x in line.split("{")[1].split("}")[0].split()]
        for line in writer.lines
        if line.startswith("t")
    ]
    assert all(a + b == 0 for a, b in payoffs)
    # Both pass: the pot is void (5 with deals=1), a fold loses the ante, the rest shows down.
    assert [0.0, 0.0] in payoffs and [1.0, -1.0] in payoffs
    assert max(a for a, _ in payoffs) == 1 + 1 + 2  # ante, the open and the big bet
    assert writer.outcomes == 13  # 1 void, 2 folds at the opening, 2 x 5 second rounds


def test_with_a_draw_the_stock_is_served_from_the_miniature() -> None:
    """4.1: changing one card serves it from the stock, a miniature card."""
    mini = Miniature(max_change=1)
    machine = mini_module._table(mini, DEAL, [])
    choices = mini_module._choices(machine, mini)
    mini_module._play(machine, next(a for a in choices if a.kind is ActionKind.OPEN))
    choices = mini_module._choices(machine, mini)
    mini_module._play(machine, next(a for a in choices if a.kind is ActionKind.CALL))
    draws = mini_module._choices(machine, mini)
    assert len(draws) == 6  # stand pat or change one of five
    assert all(len(a.cards) <= 1 for a in draws)
    mini_module._play(machine, draws[-1])
    assert set(machine.view(1).hand) - set(DEAL.hands[1]) == set(parse_cards("Ac"))


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"lowest": Rank.JACK}, "queens and up"),
        ({"lowest": Rank.KING}, "cannot deal 2 hands"),
        ({"max_change": 2}, "cannot deal 2 hands"),
        ({"stack": 3}, "cannot pay"),
    ],
)
def test_a_miniature_that_cannot_be_played_is_refused(
    changes: dict[str, object], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        Miniature(**changes)  # type: ignore[arg-type]


def test_the_responder_prefers_the_largest_bet() -> None:
    bet4 = AMOUNT_BASES[ActionKind.BET] + 4
    fold, call = SIMPLE_KINDS.index(ActionKind.FOLD), SIMPLE_KINDS.index(ActionKind.CALL)
    assert aggressor([fold, call, bet4 - 1, bet4]) == bet4
    assert aggressor([fold, call]) == call
    assert aggressor([DRAW_BASE, DRAW_BASE + 1]) == DRAW_BASE


def test_the_uniform_bound_is_estimated_on_episodes() -> None:
    bound = uniform_bound(40, seed=1)
    assert bound.episodes == 40
    assert bound.bound == pytest.approx(sum(bound.per_seat))
    assert bound.stderr > 0


SOLVE = """
import json

import pyspiel

from italian_poker.ai.miniature import miniature_tree, solve

tree = miniature_tree()
solution = solve(pyspiel.load_efg_game(tree.efg), target=1e-3, max_iterations=1000)
print(json.dumps({"nodes": tree.nodes, "infosets": tree.infosets,
                  "iterations": solution.iterations, "nash_conv": solution.nash_conv,
                  "value": solution.value, "seconds": solution.seconds}))
"""
"""The solve, run in a subprocess from the start of the session (tests/conftest.py)."""


@pytest.mark.soak
@pytest.mark.background(SOLVE)
def test_cfr_plus_solves_the_miniature(background_output: str) -> None:
    """The whole miniature through OpenSpiel's C++ CFR+ to NashConv below 1e-3."""
    solution = json.loads(background_output)
    assert solution["nodes"] == 416_593 and solution["infosets"] == 9_504
    print(
        f"miniature: {solution['iterations']} CFR+ iterations, NashConv "
        f"{solution['nash_conv']:.2e}, value {solution['value']:+.5f} chips to P0 (the dealer)"
    )
    assert solution["nash_conv"] < 1e-3
