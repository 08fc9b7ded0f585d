"""The parameters of the OpenSpiel game, checked, and the rules they make."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from italian_poker.engine.errors import RulesError
from italian_poker.engine.rules import PRESETS, BettingStructure, Rules, preset

DEFAULTS: Final[dict[str, int | str]] = {
    "players": 4,
    "preset": "standard",
    "structure": "",
    "stack": 100,
    "ante": 1,
    "deals": 1,
    "history": 48,
}
"""The game parameters and their defaults (``structure`` empty: the preset's own)."""

PRESET_NAMES: Final = {name if name.isalpha() else f"doc{name}": name for name in PRESETS}
"""The ``preset`` values and the engine presets they name: ``doc001``, ``doc002`` and
``doc003`` for 001, 002 and 003, as OpenSpiel reads a game string's ``003`` as a number."""


@dataclass(frozen=True, slots=True)
class GameConfig:
    """One configuration of the game: the rules, the starting stack of every player, how
    many deals an episode lasts and how many actions the information state tensor holds."""

    rules: Rules
    players: int
    stack: int
    deals: int
    history: int

    def __deepcopy__(self, memo: dict[int, object]) -> GameConfig:
        """The configuration itself: it is immutable (a state's clone shares it)."""
        return self

    @property
    def total_chips(self) -> int:
        """All the chips at the table."""
        return self.players * self.stack


def game_config(params: Mapping[str, object]) -> GameConfig:
    """The configuration of ``params`` (missing ones take :data:`DEFAULTS`); raises
    ``ValueError`` with what to change when a value cannot be played."""
    unknown = sorted(set(params) - set(DEFAULTS))
    if unknown:
        raise ValueError(
            f"unknown parameter(s) {', '.join(unknown)}; the parameters are {', '.join(DEFAULTS)}"
        )
    values = {**DEFAULTS, **params}
    players, stack, ante = values["players"], values["stack"], values["ante"]
    deals, history = values["deals"], values["history"]
    name, structure = values["preset"], values["structure"]
    for key, value in (
        ("players", players),
        ("stack", stack),
        ("ante", ante),
        ("deals", deals),
        ("history", history),
    ):
        if type(value) is not int:
            raise ValueError(f"{key} must be a whole number, not {value!r}")
    assert isinstance(players, int) and isinstance(stack, int) and isinstance(ante, int)
    assert isinstance(deals, int) and isinstance(history, int)
    if not isinstance(name, str) or name not in PRESET_NAMES:
        raise ValueError(f"preset must be one of {', '.join(PRESET_NAMES)}, not {name!r}")
    if not isinstance(structure, str):
        raise ValueError(f"structure must be a string, not {structure!r}")
    if deals < 1:
        raise ValueError(f"deals must be at least 1, not {deals}")
    if history < 0:
        raise ValueError(f"history cannot be negative, not {history}")
    changes: dict[str, object] = {"players": players, "ante": ante}
    if structure:
        choices = [s.value for s in BettingStructure]
        if structure not in choices:
            raise ValueError(f"structure must be one of {', '.join(choices)}, not {structure!r}")
        changes["structure"] = structure
    try:
        rules = preset(PRESET_NAMES[name], **changes)
    except RulesError as error:
        raise ValueError(str(error)) from None
    need = rules.chips_to_be_dealt_in
    if stack < need:
        raise ValueError(f"a stack of {stack} cannot pay the ante: give at least {need}")
    return GameConfig(rules, players, stack, deals, history)
