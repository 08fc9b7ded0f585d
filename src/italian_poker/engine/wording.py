"""Small helpers for the English of messages (no I/O, no dependencies)."""

from __future__ import annotations


def count(number: int, noun: str, plural: str | None = None) -> str:
    """``number`` and ``noun``, plural unless the number is one: ``"1 chip"``, ``"0 chips"``,
    ``"2 chips"``; ``plural`` gives an irregular plural (default: ``noun + "s"``)."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"
