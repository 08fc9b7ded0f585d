"""What the AI environments need of the table machine: a deal from the engine's ``CHANCE``
source waits for ``DealCards`` (3.1, 4.1), which deals the cards due or is refused leaving
everything as it was; an action at a table nobody watches reports what a watched table's
does (its host events); a show the rules force (5.4) is played at once; the deal logs read
off the machine show a player only what the engine's observer lets them see.

Runs without the ``ai`` extra: it uses the table layer alone."""

from __future__ import annotations

import pickle
import random

import pytest

from italian_poker.engine.actions import AMOUNT_KINDS, Action, ActionKind, LegalAction
from italian_poker.engine.card_source import CHANCE, Why
from italian_poker.engine.cards import ALL_CARDS
from italian_poker.engine.errors import CardsNotAvailableError, NotYourTurnError
from italian_poker.engine.observer import PUBLIC
from italian_poker.engine.operations import HandsDealt
from italian_poker.engine.rules import preset
from italian_poker.table.commands import Act, DealCards, StartDeal, TakeSeat
from italian_poker.table.deal_logs import deal_logs, seen_logs
from italian_poker.table.machine import TableMachine
from italian_poker.table.machine_events import (
    HOST,
    ActionTaken,
    CardsDealt,
    DealFinished,
    Observed,
    TableEvent,
)

K = ActionKind


def chance_table(
    players: int = 4, *, audiences: bool = False, rules_name: str = "standard"
) -> TableMachine:
    rules = preset(rules_name, players=players)
    seats = [TakeSeat(p, f"P{p}", 100) for p in range(players)]
    machine = TableMachine(rules, seats, dealer=0, audiences=audiences)
    machine.handle(StartDeal(source=CHANCE))
    return machine


def snapshot(machine: TableMachine) -> bytes:
    machine.legal_actions()
    return pickle.dumps(machine)


def first_action(machine: TableMachine) -> Action:
    legal = machine.legal_actions()
    first = legal[0]
    return Action(first.kind, first.min_amount if first.kind in AMOUNT_KINDS else None)


def deal_in(machine: TableMachine, rng: random.Random) -> list[TableEvent]:
    """Decline the blinds (Art. 2) and deal the cards due, picked at random."""
    while machine.cards_due is None:
        player = machine.to_act
        assert player is not None
        machine.handle(Act(player, Action(K.DECLINE)))
    due = machine.cards_due
    assert due is not None
    return machine.handle(DealCards(tuple(rng.sample(due.candidates, due.number))))


def random_action(rng: random.Random, legal: tuple[LegalAction, ...]) -> Action:
    choice = rng.choice(legal)
    if choice.kind in AMOUNT_KINDS and choice.min_amount is not None:
        assert choice.max_amount is not None
        return Action(choice.kind, rng.randint(choice.min_amount, choice.max_amount))
    if choice.kind is K.DRAW:
        return Action(K.DRAW)
    return Action(choice.kind)


def test_a_chance_deal_waits_for_the_cards_and_deals_them() -> None:
    """3.1: five cards each, one at a time from the dealer's left, given as one command."""
    machine = chance_table(4)
    with pytest.raises(CardsNotAvailableError):
        machine.verify(DealCards(()))  # the blinds first: no cards are due yet
    events = deal_in(machine, random.Random(1))
    assert machine.cards_due is None and machine.to_act is not None
    dealt = next(e for e in events if isinstance(e, CardsDealt))
    assert dealt.audience == HOST
    hands = next(op for op in dealt.operations if isinstance(op, HandsDealt)).hands
    for player in range(4):
        assert machine.view(player).hand == hands[player]


def test_cards_that_are_not_due_are_refused_and_change_nothing() -> None:
    machine = chance_table(3)
    while machine.cards_due is None:
        player = machine.to_act
        assert player is not None
        machine.handle(Act(player, Action(K.DECLINE)))
    due = machine.cards_due
    assert due is not None and due.why is Why.DEAL
    outside = [c for c in ALL_CARDS if c not in due.candidates]  # the deck is stripped (1)
    good = due.candidates[: due.number]
    before = snapshot(machine)
    for cards in (good[:-1], (*good[:-1], good[0]), (*good[:-1], *outside[:1])):
        command = DealCards(tuple(cards))
        assert not machine.can(command)
        with pytest.raises(CardsNotAvailableError):
            machine.handle(command)
        assert snapshot(machine) == before
    assert machine.can(DealCards(tuple(good)))


def test_nobody_acts_while_cards_are_due() -> None:
    machine = chance_table(2)
    player = machine.to_act
    assert player is not None
    machine.handle(Act(player, Action(K.DECLINE)))
    while machine.cards_due is None:
        player = machine.to_act
        assert player is not None
        machine.handle(Act(player, Action(K.DECLINE)))
    before = snapshot(machine)
    assert not machine.can(Act(0, Action(K.PASS)))
    assert snapshot(machine) == before


@pytest.mark.parametrize("seed", range(4))
def test_a_quiet_table_reports_what_a_watched_one_does_to_the_host(seed: int) -> None:
    """The same commands at a table nobody watches and at a watched one: the same events
    but the audiences' ``Observed``; an action of another player than the one to act is
    refused alike."""
    rng = random.Random(seed)
    quiet, watched = chance_table(4), chance_table(4, audiences=True)
    cards_rng = random.Random(seed)
    assert deal_in(quiet, cards_rng) == [
        e for e in deal_in(watched, random.Random(seed)) if not isinstance(e, Observed)
    ]
    while quiet.to_act is not None or quiet.cards_due is not None:
        due = quiet.cards_due
        if due is not None:
            command: Act | DealCards = DealCards(
                tuple(cards_rng.sample(due.candidates, due.number))
            )
        else:
            player = quiet.to_act
            assert player is not None
            other = (player + 1) % 4
            with pytest.raises(NotYourTurnError):
                quiet.handle(Act(other, first_action(quiet)))
            command = Act(player, random_action(rng, quiet.legal_actions()))
        mine = quiet.handle(command)
        theirs = watched.handle(command)
        assert mine == [e for e in theirs if not isinstance(e, Observed)]
    assert any(isinstance(e, DealFinished) for e in mine)


def test_a_forced_show_is_played_at_once() -> None:
    """5.4 (002: a losing hand may be mucked; the first to show has no choice): a player the
    rules leave no choice but to show is never asked."""
    rng = random.Random(3)
    shows = 0
    for _ in range(30):
        machine = chance_table(3, rules_name="002")
        deal_in(machine, rng)
        while machine.to_act is not None or machine.cards_due is not None:
            due = machine.cards_due
            if due is not None:
                machine.handle(DealCards(tuple(rng.sample(due.candidates, due.number))))
                continue
            legal = machine.legal_actions()
            assert [la.kind for la in legal] != [K.SHOW]
            player = machine.to_act
            assert player is not None
            for event in machine.handle(Act(player, random_action(rng, legal))):
                shows += isinstance(event, ActionTaken) and event.action.kind is K.SHOW
    assert shows > 0


def test_the_deal_logs_show_a_player_only_their_own_cards() -> None:
    machine = chance_table(3)
    deal_in(machine, random.Random(2))
    (log,) = deal_logs(machine)
    assert log.players == (0, 1, 2)
    hands = next(op for op in log.operations if isinstance(op, HandsDealt)).hands
    for player in range(3):
        (seen,) = seen_logs(machine, player)
        assert seen.viewer == player
        shown = next(op for op in seen.operations if isinstance(op, HandsDealt)).hands
        assert shown[player] == hands[player]
        assert all(shown[s] == () for s in range(3) if s != player)
    outsider = seen_logs(machine, 7)
    assert outsider[0].viewer is PUBLIC
