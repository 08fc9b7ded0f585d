"""The names bots sit under, at the terminal's table and the server's alike."""

from __future__ import annotations

from collections.abc import Callable, Collection

BOT_NAMES: tuple[str, ...] = (
    "Anna",
    "Bruno",
    "Carla",
    "Dario",
    "Elena",
    "Fabio",
    "Giulia",
    "Marco",
)
"""The bots' names, given in this order."""


def bot_name(taken: Collection[str], key: Callable[[str], str] = str.casefold) -> str:
    """The first of :data:`BOT_NAMES` whose ``key`` is not in ``taken`` (the keys of the names
    already at the table); once all are taken, the first with a number after it that is free
    (``Anna 2``)."""
    for number in range(1, len(taken) + 2):
        for name in BOT_NAMES:
            named = name if number == 1 else f"{name} {number}"
            if key(named) not in taken:
                return named
    raise AssertionError("a name is always free")  # len(taken) + 1 rounds of distinct names


__all__ = ["BOT_NAMES", "bot_name"]
