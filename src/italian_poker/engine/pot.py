"""Pots: the main pot and the side pots of players all-in under table stakes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True, slots=True)
class Pot:
    """Chips that the ``eligible`` seats (ascending) compete for."""

    amount: int
    eligible: tuple[int, ...]


_shared_pot = lru_cache(maxsize=1024, typed=True)(Pot)
"""A :class:`Pot`, shared, as it is immutable: pots repeat (the same antes and bets)."""


def build_pots(committed: Sequence[int], live: Sequence[bool], dead: int = 0) -> list[Pot]:
    """Split the chips committed by each seat into a main pot and side pots.

    Each level of contribution forms a pot that the live (not folded) seats who reached that
    level may win; chips of folded seats stay in the pots they reached. ``dead`` chips (carried
    from earlier deals, make-up contributions) go to the main pot. Pots with the same
    eligible seats are merged.
    """
    if len(live) == len(committed):
        # The usual case, nobody all-in for less: every live seat that put chips in put the
        # same, and one pot of every chip goes to those seats. Found in one pass.
        level = 0
        reached = []
        for seat, alive in enumerate(live):
            if alive:
                c = committed[seat]
                if c > 0:
                    if c != level:
                        if level:
                            break  # two levels: side pots
                        level = c
                    reached.append(seat)
        else:
            if level:
                return [_shared_pot(sum(committed) + dead, tuple(reached))]
    levels = sorted({c for c, alive in zip(committed, live, strict=True) if alive and c > 0})
    amounts: list[int] = []
    eligibles: list[tuple[int, ...]] = []
    previous = 0
    for level in levels:
        amount = 0
        eligible = []
        for seat, c in enumerate(committed):
            if c > previous:
                amount += (c if c < level else level) - previous
            if c >= level and live[seat]:
                eligible.append(seat)
        if eligibles and eligibles[-1] == tuple(eligible):
            amounts[-1] += amount
        else:
            amounts.append(amount)
            eligibles.append(tuple(eligible))
        previous = level
    # Chips above the highest live level (a folded seat's excess) join the last pot.
    excess = 0
    for c in committed:
        if c > previous:
            excess += c - previous
    if amounts:
        amounts[0] += dead
        amounts[-1] += excess
        return [Pot(amount, eligible) for amount, eligible in zip(amounts, eligibles, strict=True)]
    if dead or excess:
        return [Pot(dead + excess, tuple(i for i, alive in enumerate(live) if alive))]
    return []


def split_amount(amount: int, winners: Sequence[int]) -> dict[int, int]:
    """Share ``amount`` among ``winners`` (in priority order): the odd chips go one each to
    the first winners in the order given."""
    share, odd = divmod(amount, len(winners))
    return {seat: share + (1 if i < odd else 0) for i, seat in enumerate(winners)}
