"""The PettingZoo environments over the OpenSpiel game.

The native one (``italian_poker.ai.pettingzoo_env``): PettingZoo's API and seed tests, action
masks, final rewards, bad input. Shimmy's (``italian_poker.ai.openspiel_pettingzoo_env``):
PettingZoo's API test, action masks matching the game's legal actions, the game's parameters
surviving ``reset``, episodes following the reset seed, and the Shimmy limitations pinned
(the one that keeps PettingZoo's ``seed_test`` out, the repeated final rewards; docs/ai.md).

Needs the ``ai`` extra (open_spiel, pettingzoo, shimmy, gymnasium); skipped without it,
failing instead with ``ITALIAN_POKER_REQUIRE_AI=1`` (CI)."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

if os.environ.get("ITALIAN_POKER_REQUIRE_AI") == "1":
    import pettingzoo  # noqa: F401  (fails here, as CI must, when it is missing)
    import shimmy  # noqa: F401
else:
    pytest.importorskip(
        "pettingzoo", reason="pettingzoo is not installed: pip install 'italian-poker[ai]'"
    )
    pytest.importorskip("shimmy", reason="shimmy is not installed: pip install 'italian-poker[ai]'")

from pettingzoo.test import api_test, seed_test

from italian_poker.ai import openspiel_pettingzoo_env, pettingzoo_env


def episode(env: Any, seed: int, rng: np.random.Generator) -> list[tuple[object, ...]]:
    """What every step of an episode shows: the agent, its observation, reward and mask."""
    env.reset(seed=seed)
    seen: list[tuple[object, ...]] = []
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        seen.append((agent, obs.tolist(), reward, termination, truncation))
        if termination or truncation:
            env.step(None)
            continue
        mask = info["action_mask"]
        seen.append(tuple(mask.tolist()))
        env.step(int(rng.choice(np.flatnonzero(mask))))
    return seen


@pytest.mark.parametrize(
    ("players", "params"),
    [(2, {}), (4, {}), (3, {"preset": "doc003", "deals": 2})],
)
def test_pettingzoo_api_test(players: int, params: dict[str, object]) -> None:
    api_test(openspiel_pettingzoo_env(players, **params), num_cycles=200)


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (4, 2), (6, 3)])
def test_action_mask_is_the_legal_actions(players: int, seed: int) -> None:
    env = openspiel_pettingzoo_env(players, deals=2)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = 0
    for agent in env.agent_iter():
        _, _, termination, truncation, info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        player = env.agent_name_id_mapping[agent]
        assert env.game_state.current_player() == player
        legal = env.game_state.legal_actions()
        assert np.flatnonzero(info["action_mask"]).tolist() == legal
        assert info["action_mask"].shape == (env.action_space(agent).n,)
        for other in env.agents:
            if other != agent:
                assert not env.infos[other]["action_mask"].any()
        env.step(int(rng.choice(legal)))
        steps += 1
    assert steps > 0
    assert env.game_state.is_terminal()


def test_parameters_survive_reset() -> None:
    env = openspiel_pettingzoo_env(5, stack=30, structure="pot-limit")
    env.reset(seed=0)
    env.reset(seed=1)
    assert env.possible_agents == [f"player_{i}" for i in range(5)]
    assert env.observation_space("player_0").shape == (276 + 17 * 5,)  # docs/ai.md
    assert env._env.min_utility() == -30
    assert env._env.get_parameters()["structure"] == "pot-limit"


def test_bad_parameter_raises_value_error() -> None:
    with pytest.raises(ValueError, match="players"):
        openspiel_pettingzoo_env(1)
    with pytest.raises(ValueError, match="unknown parameter"):
        openspiel_pettingzoo_env(4, blinds=2)


def test_reset_seed_decides_the_cards() -> None:
    first = episode(openspiel_pettingzoo_env(4), 7, np.random.default_rng(0))
    again = episode(openspiel_pettingzoo_env(4), 7, np.random.default_rng(0))
    other = episode(openspiel_pettingzoo_env(4), 8, np.random.default_rng(0))
    assert first == again
    assert first != other


def test_rewards_at_the_end_are_the_returns_but_shimmy_adds_them_again() -> None:
    """``env.rewards`` at the end is the game's returns, zero-sum; Shimmy 2.0.1's
    ``step(None)`` for a finished agent adds the rewards again to every agent still to be
    removed, so ``last()``'s reward of the k-th agent removed is k times its return
    (docs/ai.md)."""
    env = openspiel_pettingzoo_env(3, deals=2)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    returns: list[float] = []
    reported: list[tuple[int, float]] = []
    for agent in env.agent_iter():
        _, reward, termination, truncation, info = env.last()
        if termination or truncation:
            if not returns:
                returns = env.game_state.returns()
                assert [env.rewards[a] for a in env.possible_agents] == returns
                assert sum(returns) == 0
            reported.append((env.agent_name_id_mapping[agent], reward))
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    assert len(reported) == 3
    assert any(returns)
    assert [reward for _, reward in reported] == [
        k * returns[player] for k, (player, _) in enumerate(reported, 1)
    ]


def test_shimmy_rebuilds_action_spaces_on_every_step() -> None:
    """Why PettingZoo's ``seed_test`` is not run (docs/ai.md): Shimmy 2.0.1's ``step``
    replaces every action space, so the seeds ``seed_test`` gives the spaces are lost after
    the first step. When this fails, Shimmy keeps them: add ``seed_test`` here."""
    env = openspiel_pettingzoo_env(2)
    env.reset(seed=0)
    agent = env.agent_selection
    space = env.action_space(agent)
    env.step(int(np.flatnonzero(env.infos[agent]["action_mask"])[0]))
    assert env.action_space(agent) is not space


def test_the_openspiel_game_alone_imports_neither_pettingzoo_nor_shimmy() -> None:
    code = (
        "import sys, italian_poker.ai\n"
        "assert not {'shimmy', 'pettingzoo'} & set(sys.modules), sorted(sys.modules)\n"
        "assert callable(italian_poker.ai.openspiel_pettingzoo_env)\n"
        "assert callable(italian_poker.ai.pettingzoo_env)\n"
        "assert 'shimmy' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, env=os.environ.copy())


# The native environment (italian_poker.ai.pettingzoo_env).


@pytest.mark.parametrize(
    ("players", "params"),
    [(2, {}), (4, {"deals": 2}), (3, {"preset": "doc003", "structure": "pot-limit"})],
)
def test_native_api_test_and_seed_test(players: int, params: dict[str, object]) -> None:
    api_test(pettingzoo_env(players, **params), num_cycles=200)
    seed_test(lambda: pettingzoo_env(players, **params), num_cycles=200)


@pytest.mark.parametrize(("players", "seed"), [(2, 5), (4, 6), (9, 7)])
def test_native_mask_legal_actions_and_returns(players: int, seed: int) -> None:
    env = pettingzoo_env(players, deals=2)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    final: dict[str, float] = {}
    steps = 0
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        assert env.observation_space(agent).contains(observation)
        if termination or truncation:
            final[agent] = reward
            assert not observation["action_mask"].any()
            env.step(None)
            continue
        legal = env.state.legal_actions()
        assert env.state.current_player() == int(agent.removeprefix("player_"))
        assert np.flatnonzero(observation["action_mask"]).tolist() == legal
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
            # The environment's own observer gives the game's observation tensor, and a copy:
            # the next step does not change an observation already returned.
            seat = int(other.removeprefix("player_"))
            given = env.observe(other)["observation"]
            assert given.tolist() == np.asarray(env.state.observation_tensor(seat)).tolist()
        kept = observation["observation"].copy()
        env.step(int(rng.choice(legal)))
        assert observation["observation"].tolist() == kept.tolist()
        steps += 1
    assert steps > 0
    returns = env.state.returns()
    assert final == {f"player_{i}": returns[i] for i in range(players)}
    assert sum(final.values()) == 0


def test_native_refuses_an_illegal_action_and_bad_parameters() -> None:
    env = pettingzoo_env(4)
    env.reset(seed=0)
    mask = env.observe(env.agent_selection)["action_mask"]
    before = env.state.history()
    with pytest.raises(ValueError, match="not legal"):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    assert env.state.history() == before
    with pytest.raises(ValueError, match="players"):
        pettingzoo_env(10)
    with pytest.raises(ValueError, match="render_mode"):
        pettingzoo_env(4, render_mode="rgb_array")
