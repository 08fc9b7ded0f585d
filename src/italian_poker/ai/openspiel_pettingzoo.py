"""The OpenSpiel game as a PettingZoo AEC environment, through Shimmy.

Needs ``pettingzoo`` and ``shimmy`` (the ``ai`` extra). docs/ai.md describes the
environment and the Shimmy limitations it inherits.
"""

from __future__ import annotations

from typing import Any

from shimmy.openspiel_compatibility import OpenSpielCompatibilityV0

from italian_poker.ai.config import game_config
from italian_poker.ai.openspiel_game import GAME_NAME  # importing it registers the game


def openspiel_pettingzoo_env(
    players: int = 4, *, render_mode: str | None = None, **params: Any
) -> OpenSpielCompatibilityV0:
    """Shimmy's PettingZoo AEC environment over ``python_italian_poker``.

    ``params`` are the game's other parameters (``preset``, ``structure``, ``stack``,
    ``ante``, ``deals``, ``history``); a value that cannot be played raises the game's
    ``ValueError`` here. Agents are ``player_0`` to ``player_{players-1}``; the legal
    actions of the agent to act are ``infos[agent]["action_mask"]``. The parameters go to
    Shimmy as ``config``, not as a loaded game: Shimmy's ``reset`` reloads the game by
    name, which would otherwise drop them.
    """
    config: dict[str, Any] = {"players": players, **params}
    game_config(config)
    return OpenSpielCompatibilityV0(game_name=GAME_NAME, config=config, render_mode=render_mode)
