"""Pots: the main pot and the side pots of players all-in under table stakes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pot:
    """Chips that the ``eligible`` seats (ascending) compete for."""

    amount: int
    eligible: tuple[int, ...]


def build_pots(committed: Sequence[int], live: Sequence[bool], dead: int = 0) -> list[Pot]:
    """Split the chips committed by each seat into a main pot and side pots.

    Each level of contribution forms a pot that the live (not folded) seats who reached that
    level may win; chips of folded seats stay in the pots they reached. ``dead`` chips (carried
    from earlier deals, make-up contributions) go to the main pot. Pots with the same
    eligible seats are merged.
    """
    levels = sorted({c for c, alive in zip(committed, live, strict=True) if alive and c > 0})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, previous) for c in committed)
        eligible = tuple(
            i
            for i, (c, alive) in enumerate(zip(committed, live, strict=True))
            if alive and c >= level
        )
        if pots and pots[-1].eligible == eligible:
            pots[-1] = Pot(pots[-1].amount + amount, eligible)
        else:
            pots.append(Pot(amount, eligible))
        previous = level
    # Chips above the highest live level (a folded seat's excess) join the last pot.
    excess = sum(c - min(c, previous) for c in committed)
    if pots:
        first = pots[0]
        pots[0] = Pot(first.amount + dead, first.eligible)
        if excess:
            last = pots[-1]
            pots[-1] = Pot(last.amount + excess, last.eligible)
    elif dead or excess:
        live_seats = tuple(i for i, alive in enumerate(live) if alive)
        pots.append(Pot(dead + excess, live_seats))
    return pots


def split_amount(amount: int, winners: Sequence[int]) -> dict[int, int]:
    """Share ``amount`` among ``winners`` (in priority order): the odd chips go one each to
    the first winners in the order given."""
    share, odd = divmod(amount, len(winners))
    return {seat: share + (1 if i < odd else 0) for i, seat in enumerate(winners)}
