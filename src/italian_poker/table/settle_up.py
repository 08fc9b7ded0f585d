"""Settling up: who pays whom how much so that every person's net comes to zero.

Each person's net is the chips they won (positive) or lost (negative); the nets sum to zero.
:func:`settle_up` returns the transfers that settle every net exactly with the fewest
transfers. A group of people whose nets sum to zero settles among themselves with one transfer
fewer than its size, and no group does better, so the fewest transfers are the number of
people with a nonzero net less the largest number of disjoint groups whose nets sum to zero.

How the groups are found:

- a creditor and a debtor with opposite nets (``+30`` and ``-30``) form a group of two: some
  fewest-transfer settlement always pays that debt directly, so the pair is settled first;
- up to :data:`EXACT_LIMIT` people remain: dynamic programming over the subsets of them finds
  the largest number of disjoint zero-sum groups exactly;
- more than that: one group of them all (the fewest transfers then are not guaranteed).

Within a group the largest debtor pays the largest creditor as much as settles one of them,
until all are settled: at most one transfer fewer than the group's size, every amount positive,
and a debtor only pays, a creditor only receives. Ties go to the person given first, so the
same nets always give the same transfers, listed by payer, then payee, in the order given.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from italian_poker.engine.errors import ItalianPokerError

__all__ = ["EXACT_LIMIT", "NetsNotBalancedError", "Transfer", "settle_up"]

P = TypeVar("P", bound=Hashable)

EXACT_LIMIT = 16
"""The most people with a nonzero net (after the opposite pairs) settled with the fewest
transfers for certain: the search looks at every subset of them (2**16, a tenth of a
second); above it they settle as one group, largest debtor to largest creditor."""


class NetsNotBalancedError(ItalianPokerError, ValueError):
    """Nets that do not sum to zero: chips won and lost do not match, so no transfers settle
    them (chips still in a pot are no one's yet: settle once the pot is won)."""


@dataclass(frozen=True, slots=True)
class Transfer(Generic[P]):
    """``payer`` pays ``payee`` ``amount`` (more than zero)."""

    payer: P
    payee: P
    amount: int


def settle_up(nets: Mapping[P, int]) -> tuple[Transfer[P], ...]:
    """The fewest transfers that bring every person's net in ``nets`` (won positive, lost
    negative; person -> net, in the order given) to zero: for certain while at most
    :data:`EXACT_LIMIT` people are left once opposite nets are paired, else at most one fewer
    than the people with a nonzero net. Raises :class:`NetsNotBalancedError` when the nets do
    not sum to zero."""
    total = sum(nets.values())
    if total:
        raise NetsNotBalancedError(
            f"the nets sum to {total:+d}, not 0: the chips won and lost must match to settle up"
        )
    people = [(person, net) for person, net in nets.items() if net]
    paired, rest = _opposite_pairs(people)
    groups = paired + (_zero_sum_groups(rest) if len(rest) <= EXACT_LIMIT else [rest])
    order = {person: index for index, (person, _) in enumerate(people)}
    transfers = [transfer for group in groups for transfer in _settle_group(group)]
    return tuple(sorted(transfers, key=lambda t: (order[t.payer], order[t.payee])))


Nets = list[tuple[P, int]]


def _opposite_pairs(people: Nets[P]) -> tuple[list[Nets[P]], Nets[P]]:
    """Each creditor, in order, paired with the first debtor left who owes exactly as much;
    and the people left unpaired, in order."""
    paired: list[Nets[P]] = []
    taken: set[int] = set()
    for i, (creditor, net) in enumerate(people):
        if net < 0:
            continue
        for j, (debtor, owed) in enumerate(people):
            if owed == -net and j not in taken:
                taken.update((i, j))
                paired.append([(creditor, net), (debtor, owed)])
                break
    return paired, [entry for k, entry in enumerate(people) if k not in taken]


def _zero_sum_groups(people: Nets[P]) -> list[Nets[P]]:
    """``people`` (summing to zero) split into the largest number of zero-sum groups.

    ``best[mask]`` is the most disjoint zero-sum groups among the people in ``mask``: the
    best of leaving one of them out, plus one when ``mask`` itself sums to zero (the people
    left out of the groups close a group of their own there). Removing one person loses at
    most one group, so the search over whom to leave out stops as soon as it finds one more
    than leaving out the first."""
    count = len(people)
    if count == 0:
        return []
    sums = [0]
    for _, net in people:
        sums += [s + net for s in sums]
    best = [0] * len(sums)
    for mask in range(1, len(sums)):
        low = mask & -mask
        top = best[mask ^ low]
        enough = top + 1
        others = mask ^ low
        while others and top < enough:
            bit = others & -others
            top = max(top, best[mask ^ bit])
            others ^= bit
        best[mask] = top + (sums[mask] == 0)
    return _groups_of(people, best, sums)


def _groups_of(people: Nets[P], best: Sequence[int], sums: Sequence[int]) -> list[Nets[P]]:
    """The groups ``best`` counts: leave out the first person who keeps the count, repeatedly;
    the people in the order left out, reversed, close a group at each zero-sum prefix."""
    mask = len(sums) - 1
    removed: list[int] = []
    while mask:
        gained = sums[mask] == 0
        index = next(
            i
            for i in range(len(people))
            if mask >> i & 1 and best[mask ^ (1 << i)] + gained == best[mask]
        )
        removed.append(index)
        mask ^= 1 << index
    groups: list[Nets[P]] = []
    group: list[int] = []
    for index in reversed(removed):
        group.append(index)
        if sum(people[i][1] for i in group) == 0:
            groups.append([people[i] for i in sorted(group)])
            group = []
    return groups


def _settle_group(group: Nets[P]) -> list[Transfer[P]]:
    """A zero-sum group settled by its largest debtor paying its largest creditor as much as
    settles one of them, until none is left (ties: the one given first)."""
    owed = {person: net for person, net in group}
    place = {person: index for index, (person, _) in enumerate(group)}
    transfers: list[Transfer[P]] = []
    while any(owed.values()):
        payer = min((p for p in owed if owed[p] < 0), key=lambda p: (owed[p], place[p]))
        payee = min((p for p in owed if owed[p] > 0), key=lambda p: (-owed[p], place[p]))
        amount = min(-owed[payer], owed[payee])
        transfers.append(Transfer(payer, payee, amount))
        owed[payer] += amount
        owed[payee] -= amount
    return transfers
