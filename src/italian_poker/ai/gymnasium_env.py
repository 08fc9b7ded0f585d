"""The Gymnasium environment: one learning seat against the project's bots.

Needs ``gymnasium`` and ``pettingzoo`` (the ``ai`` extra). The game is the native PettingZoo
environment's (:mod:`italian_poker.ai.pettingzoo_aec`, over ``python_italian_poker``, which
drives the table machine); the bots act through the engine's
:class:`~italian_poker.engine.policy.Policy`, from their own seat's view
(``TableMachine.view``), as at the table (:class:`italian_poker.table.commands.BotAct`: an
illegal choice is replaced by the table's default action). The bots
themselves are another front end's (``italian_poker.analysis.bots``), so they come in through
``bot_factory``, as the server takes them; docs/ai.md describes the environment.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

import gymnasium
import numpy as np
from gymnasium import spaces

from italian_poker.ai.encoding import NUM_ACTIONS, id_of
from italian_poker.ai.observation import tensor_bounds
from italian_poker.ai.pettingzoo_aec import ItalianPokerEnv
from italian_poker.engine.actions import Action, ActionKind
from italian_poker.engine.policy import Policy
from italian_poker.table.commands import Act
from italian_poker.table.defaults import default_action

ENV_ID = "italian_poker/ItalianPoker-v0"
"""The id the environment is registered under with Gymnasium (``gymnasium.make``)."""

BotFactory = Callable[..., Policy]
"""A level name and ``seed=`` -> a bot: :func:`italian_poker.analysis.bots.make_bot`."""

IllegalMode = Literal["default", "raise"]


class IllegalActionError(ValueError):
    """An action the action mask does not allow, refused (``illegal="raise"``)."""


class ItalianPokerGymEnv(gymnasium.Env[np.ndarray[Any, Any], np.int64]):
    """One learning seat against ``opponents`` (bot levels, ``1 + len(opponents)``
    players). Observations are the seat's observation tensor; ``info["action_mask"]`` (and
    :meth:`action_masks`) the legal action ids; the reward is the seat's chips won or lost,
    when the episode ends."""

    metadata: dict[str, Any] = {"render_modes": ["human"], "render_fps": 1}  # noqa: RUF012  (Env declares it so)

    def __init__(
        self,
        opponents: Sequence[str] = ("strong", "strong", "strong"),
        *,
        bot_factory: BotFactory,
        seat: int | None = None,
        illegal: IllegalMode = "default",
        render_mode: str | None = None,
        **params: Any,
    ) -> None:
        if not opponents:
            raise ValueError("give at least one opponent, e.g. opponents=('strong',)")
        players = 1 + len(opponents)
        if "players" in params:
            raise ValueError("the players are the learning seat and the opponents: drop players")
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"seat is 0 to {players - 1} (0 deals first), or None, not {seat}")
        if illegal not in ("default", "raise"):
            raise ValueError(f"illegal must be 'default' or 'raise', not {illegal!r}")
        if render_mode not in (None, "human"):
            raise ValueError(f"render_mode {render_mode!r}: use None or 'human'")
        self.table = ItalianPokerEnv({"players": players, **params})
        self.opponents = tuple(opponents)
        self.bot_factory = bot_factory
        for level in self.opponents:
            bot_factory(level, seed=0)  # a bad level fails here, not at the first reset
        self.fixed_seat = seat
        self.illegal: IllegalMode = illegal
        self.render_mode = render_mode
        config = self.table.game.config
        low, high = tensor_bounds(config, perfect_recall=False)
        self.observation_space = spaces.Box(low, high, dtype=np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.seat = 0 if seat is None else seat
        """The learning seat's OpenSpiel player this episode (0 is the dealer)."""
        self.bots: dict[int, Policy] = {}
        """The bot of every other player this episode."""

    @property
    def players(self) -> int:
        """The players at the table: the learning seat and the opponents."""
        return 1 + len(self.opponents)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray[Any, Any], dict[str, Any]]:
        """A new episode: the learning seat (unless fixed), the bots' seeds and the cards
        are drawn from ``self.np_random`` (``seed`` reseeds it); the bots play until the
        learning seat is to act (it acts in every deal it is dealt in: each player passes or
        opens in turn until someone opens, and then folds, calls or raises, 3)."""
        super().reset(seed=seed)
        rng = self.np_random
        if self.fixed_seat is None:
            self.seat = int(rng.integers(self.players))
        self.bots = {
            (self.seat + 1 + k) % self.players: self.bot_factory(
                level, seed=int(rng.integers(2**63))
            )
            for k, level in enumerate(self.opponents)
        }
        self.table.reset(seed=int(rng.integers(2**63)))
        self._play_bots()
        return self._observation(), self._info()

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[np.ndarray[Any, Any], float, bool, bool, dict[str, Any]]:
        """Plays ``action`` for the learning seat, then the bots until the seat is to act
        again or the episode ends. An action the mask does not allow is replaced by the
        table's default action (``info["illegal_action"]`` is then ``True``), or raises
        :class:`IllegalActionError` with ``illegal="raise"``, changing nothing."""
        state = self.table.state
        if state.is_terminal():
            raise RuntimeError("the episode is over: call reset()")
        legal = state.legal_actions()
        chosen = int(action)
        refused = chosen not in legal
        if refused:
            if self.illegal == "raise":
                raise IllegalActionError(
                    f"action {chosen} is not legal now: see info['action_mask'] (legal: {legal})"
                )
            chosen = self._id(default_action(state.machine.legal_actions()))
        self.table.step(chosen)
        self._play_bots()
        terminated = self.table.state.is_terminal()
        reward = float(self.table.state.returns()[self.seat]) if terminated else 0.0
        info = self._info()
        info["illegal_action"] = refused
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, False, info

    def action_masks(self) -> np.ndarray[Any, Any]:
        """The legal action ids as booleans (the method sb3-contrib's ``MaskablePPO`` reads);
        all ``False`` when the episode is over."""
        mask = np.zeros(NUM_ACTIONS, np.bool_)
        state = self.table.state
        if not state.is_terminal():
            mask[state.legal_actions()] = True
        return mask

    def render(self) -> None:
        """Prints the state (render mode ``human``)."""
        if self.render_mode == "human":
            print(self.table.state)

    def close(self) -> None:
        """Nothing to release."""

    def _play_bots(self) -> None:
        """The bots act, each from its own seat's view, until the learning seat is to act or
        the episode is over; a bot's illegal choice is replaced by the table's default action,
        as at the table."""
        state = self.table.state
        while not state.is_terminal() and state.current_player() != self.seat:
            player = state.current_player()
            machine = state.machine
            choice = self.bots[player].act(machine.view(player))
            chosen = self._id(choice) if machine.can(Act(player, choice)) else -1
            if chosen not in state.legal_actions():
                chosen = self._id(default_action(machine.legal_actions()))
            self.table.step(chosen)
            state = self.table.state

    def _id(self, choice: Action) -> int:
        """The action id of the engine action ``choice`` of the player to act."""
        machine = self.table.state.machine
        actor = machine.to_act
        assert actor is not None
        legal = machine.legal_actions()
        hand = machine.view(actor).hand if choice.kind is ActionKind.DRAW else ()
        return id_of(choice, legal, hand)

    def _observation(self) -> np.ndarray[Any, Any]:
        return self.table.observation_of(self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks().astype(np.int8), "seat": self.seat}


def gym_env(
    opponents: Sequence[str] = ("strong", "strong", "strong"),
    *,
    bot_factory: BotFactory,
    seat: int | None = None,
    illegal: IllegalMode = "default",
    render_mode: str | None = None,
    **params: Any,
) -> ItalianPokerGymEnv:
    """The Gymnasium environment: one learning seat against ``opponents`` (bot levels, made
    by ``bot_factory``, e.g. ``italian_poker.analysis.bots.make_bot``), with the game's
    other ``params`` (preset, structure, stack, ante, deals, history)."""
    return ItalianPokerGymEnv(
        opponents,
        bot_factory=bot_factory,
        seat=seat,
        illegal=illegal,
        render_mode=render_mode,
        **params,
    )


if ENV_ID not in gymnasium.registry:
    gymnasium.register(ENV_ID, entry_point=f"{__name__}:ItalianPokerGymEnv")
