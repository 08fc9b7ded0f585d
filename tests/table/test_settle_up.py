"""Settling up (``italian_poker.table.settle_up``): worked examples, and properties over random
nets that sum to zero: the transfers settle every net exactly, every amount is positive, a
debtor only pays and a creditor only receives, there are at most one fewer than the people with
a nonzero net, and exactly as few as a brute force finds for up to six people. Nets that do
not sum to zero are refused, and the nets given are left as they were.

The brute force: transfers join people into groups (the connected parts of who pays whom);
money stays within a group, so each group's nets sum to zero, and a group of ``k`` people
needs at least ``k - 1`` transfers to connect. The fewest transfers are therefore the people
less the most groups of a partition into zero-sum groups, which the brute force finds by
trying every partition.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from italian_poker.engine.errors import ItalianPokerError
from italian_poker.table.settle_up import EXACT_LIMIT, NetsNotBalancedError, Transfer, settle_up

NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Ivo", "Luca", "Marta")


def _partitions(items: list[int]) -> Iterator[list[list[int]]]:
    """Every partition of ``items`` into nonempty groups."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in _partitions(rest):
        yield [[first], *partition]
        for i in range(len(partition)):
            yield [*partition[:i], [first, *partition[i]], *partition[i + 1 :]]


def _fewest(nets: Mapping[str, int]) -> int:
    """The fewest transfers that settle ``nets``, by trying every partition."""
    values = [net for net in nets.values() if net]
    groups = max(
        (len(p) for p in _partitions(values) if all(sum(group) == 0 for group in p)), default=0
    )
    return len(values) - groups


def _settled(nets: Mapping[str, int], transfers: tuple[Transfer[str], ...]) -> dict[str, int]:
    """Each net after the transfers: a payer's goes up, a payee's down."""
    left = dict(nets)
    for transfer in transfers:
        left[transfer.payer] += transfer.amount
        left[transfer.payee] -= transfer.amount
    return left


@st.composite
def balanced(draw: st.DrawFn, most: int = len(NAMES), bound: int = 60) -> dict[str, int]:
    """Nets of up to ``most`` people that sum to zero (small values: many ties and zero-sum
    groups)."""
    count = draw(st.integers(min_value=1, max_value=most))
    nets = draw(st.lists(st.integers(-bound, bound), min_size=count - 1, max_size=count - 1))
    nets.append(-sum(nets))
    return dict(zip(NAMES, nets, strict=False))


def test_two_people_settle_with_one_transfer() -> None:
    assert settle_up({"Anna": -30, "Bruno": 30}) == (Transfer("Anna", "Bruno", 30),)


def test_nobody_up_or_down_settles_with_no_transfer() -> None:
    assert settle_up({}) == ()
    assert settle_up({"Anna": 0, "Bruno": 0}) == ()


def test_opposite_nets_pay_each_other_directly() -> None:
    # Greedy alone would have Dario pay Anna 50, then Bruno 10 and Carla 10: four transfers.
    nets = {"Anna": 50, "Bruno": 20, "Carla": -20, "Dario": -60, "Elena": 10}
    assert settle_up(nets) == (
        Transfer("Carla", "Bruno", 20),
        Transfer("Dario", "Anna", 50),
        Transfer("Dario", "Elena", 10),
    )


def test_zero_sum_groups_settle_apart() -> None:
    # {Anna, Bruno, Carla} and {Dario, Elena, Fabio} each sum to zero: 2 + 2 transfers, where
    # largest debtor to largest creditor over everyone takes five.
    nets = {"Anna": 7, "Bruno": 6, "Carla": -13, "Dario": 9, "Elena": -4, "Fabio": -5}
    transfers = settle_up(nets)
    assert len(transfers) == 4
    assert transfers == (
        Transfer("Carla", "Anna", 7),
        Transfer("Carla", "Bruno", 6),
        Transfer("Elena", "Dario", 4),
        Transfer("Fabio", "Dario", 5),
    )


def test_ties_go_to_the_person_given_first() -> None:
    assert settle_up({"Anna": 10, "Bruno": 10, "Carla": -20}) == (
        Transfer("Carla", "Anna", 10),
        Transfer("Carla", "Bruno", 10),
    )
    assert settle_up({"Bruno": 10, "Anna": 10, "Carla": -20}) == (
        Transfer("Carla", "Bruno", 10),
        Transfer("Carla", "Anna", 10),
    )


@settings(max_examples=150, deadline=None)
@given(balanced())
def test_the_transfers_settle_every_net_exactly(nets: dict[str, int]) -> None:
    transfers = settle_up(nets)
    assert set(_settled(nets, transfers).values()) <= {0}
    assert all(transfer.amount > 0 for transfer in transfers)
    payers = {transfer.payer for transfer in transfers}
    payees = {transfer.payee for transfer in transfers}
    assert not payers & payees
    assert all(nets[payer] < 0 for payer in payers)
    assert all(nets[payee] > 0 for payee in payees)
    assert len(transfers) <= max(0, sum(1 for net in nets.values() if net) - 1)
    assert settle_up(nets) == transfers


@settings(max_examples=150, deadline=None)
@given(balanced(most=6, bound=12))
def test_the_transfers_are_as_few_as_a_brute_force_finds(nets: dict[str, int]) -> None:
    assert len(settle_up(nets)) == _fewest(nets)


@settings(max_examples=10, deadline=None)
@given(
    balanced(most=len(NAMES)).map(
        lambda nets: {f"{name}{i}": net for i in range(3) for name, net in nets.items()}
    )
)
def test_more_people_than_the_exact_search_still_settle(nets: dict[str, int]) -> None:
    # Three copies of the same nets: up to thirty people, most of them settled pairwise.
    transfers = settle_up(nets)
    assert set(_settled(nets, transfers).values()) <= {0}
    assert len(transfers) <= max(0, sum(1 for net in nets.values() if net) - 1)


def test_above_the_exact_limit_the_largest_debtor_pays_the_largest_creditor() -> None:
    debts = {f"d{i}": -(3 * i + 2) for i in range(EXACT_LIMIT + 1)}
    nets = debts | {"c": -sum(debts.values()) - 1, "e": 1}
    transfers = settle_up(nets)
    assert set(_settled(nets, transfers).values()) == {0}
    assert {transfer.payee for transfer in transfers} == {"c", "e"}
    assert len(transfers) == len(nets) - 1
    # d16 owes the most and pays c first; the last left owing pays e its one chip.
    assert Transfer("d16", "c", 50) in transfers
    assert Transfer("d0", "c", 1) in transfers
    assert Transfer("d0", "e", 1) in transfers


@pytest.mark.parametrize("nets", [{"Anna": 10}, {"Anna": 30, "Bruno": -20}, {"Anna": -1}])
def test_nets_that_do_not_sum_to_zero_are_refused(nets: dict[str, int]) -> None:
    given_nets = dict(nets)
    with pytest.raises(NetsNotBalancedError, match="sum to") as refused:
        settle_up(nets)
    assert isinstance(refused.value, ItalianPokerError)
    assert nets == given_nets
