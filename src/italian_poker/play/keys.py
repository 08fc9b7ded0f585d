"""The table's keys beyond the actions' (:data:`~italian_poker.table.vocabulary.ACTION_KEYS`):
the advice key, the rebuy key, and a pressed key as a player names it."""

from __future__ import annotations

from italian_poker.table.vocabulary import key_label

ADVICE_KEY = "h"
"""The key that shows the advice at the human's draw (a hint)."""

REBUY_KEY = "r"
"""Once the human has busted in a cash game: buy back in with the starting stack (the human
is the host of their own table and approves it); ``r`` raises only during a deal."""


def pressed_name(key: str, character: str | None) -> str:
    """A pressed key as a player would name it: its character (``z``, ``7``), else its name
    (``Enter``, ``Tab``, ``Backspace``: a terminal sends Enter as a carriage return)."""
    if character and character.isprintable() and not character.isspace():
        return character
    return key_label(key) if key == "enter" else key.replace("_", " ").capitalize()
