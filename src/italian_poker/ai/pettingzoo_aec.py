"""The native PettingZoo AEC environment over the OpenSpiel game.

Needs ``pettingzoo`` and ``gymnasium`` (the ``ai`` extra), not Shimmy. docs/ai.md describes
it and the Shimmy limitations it avoids (:mod:`italian_poker.ai.openspiel_pettingzoo`).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import pyspiel
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from italian_poker.ai.config import game_config
from italian_poker.ai.observation import ItalianPokerObserver, tensor_bounds
from italian_poker.ai.openspiel_game import GAME_NAME  # importing it registers the game


class ItalianPokerEnv(AECEnv):  # type: ignore[misc]
    """``python_italian_poker`` as an AEC environment: agents ``player_0`` to
    ``player_{n-1}``, observations ``{"observation", "action_mask"}``, chance played with
    ``reset(seed=...)``'s generator, the returns as rewards when the episode ends."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "italian_poker_v0",
        "render_modes": ["human"],
        "is_parallelizable": False,
    }

    def __init__(self, config: dict[str, Any], render_mode: str | None = None) -> None:
        super().__init__()
        low, high = tensor_bounds(game_config(config), perfect_recall=False)
        if render_mode not in (None, "human"):
            raise ValueError(f"render_mode {render_mode!r}: use None or 'human'")
        self.render_mode = render_mode
        self.game = pyspiel.load_game(GAME_NAME, config)
        self.possible_agents = [f"player_{i}" for i in range(self.game.num_players())]
        self._ids = {agent: i for i, agent in enumerate(self.possible_agents)}
        actions = self.game.num_distinct_actions()
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(low, high, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (actions,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self.np_random, _ = seeding.np_random(None)
        self.state = self.game.new_initial_state()
        # One observer for the environment's life: pyspiel's State.observation_tensor builds a
        # new one (and a new initial state) on every call, which cost most of a step.
        self._observer: ItalianPokerObserver = self.game.make_py_observer()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (one object per agent, kept across steps)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``: the game's 92 action ids."""
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        """The observation tensor of ``agent``'s seat and its action mask (zeros off turn)."""
        player = self._ids[agent]
        mask = np.zeros(self.game.num_distinct_actions(), np.int8)
        if not self.state.is_terminal() and self.state.current_player() == player:
            mask[self.state.legal_actions()] = 1
        return {"observation": self.observation_of(player), "action_mask": mask}

    def observation_of(self, player: int) -> np.ndarray[Any, Any]:
        """The observation tensor of ``player``'s seat now: the game's observer filled from
        the state (a copy, the observer's buffer being reused)."""
        self._observer.set_from(self.state, player)
        return self._observer.tensor.copy()

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new episode; ``seed`` seeds the cards chance deals."""
        self.np_random, _ = seeding.np_random(seed)
        self.state = self.game.new_initial_state()
        self._play_chance()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player()]

    def step(self, action: int | None) -> None:
        """Plays ``action`` for the agent to act (``None`` once it is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or int(action) not in self.state.legal_actions():
            raise ValueError(f"action {action!r} is not legal for {agent}: see its action_mask")
        self._cumulative_rewards[agent] = 0.0
        self.state.apply_action(int(action))
        self._play_chance()
        if self.state.is_terminal():
            returns = self.state.returns()
            self.rewards = {a: float(returns[self._ids[a]]) for a in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self.possible_agents[self.state.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> None:
        """Prints the state (render mode ``human``)."""
        if self.render_mode == "human":
            print(self.state)

    def close(self) -> None:
        """Nothing to release."""

    def _play_chance(self) -> None:
        while self.state.is_chance_node():
            outcomes, probs = zip(*self.state.chance_outcomes(), strict=True)
            self.state.apply_action(int(self.np_random.choice(outcomes, p=probs)))


def pettingzoo_env(
    players: int = 4, *, render_mode: str | None = None, **params: Any
) -> ItalianPokerEnv:
    """The native AEC environment for ``players`` and the game's other ``params``."""
    return ItalianPokerEnv({"players": players, **params}, render_mode=render_mode)
