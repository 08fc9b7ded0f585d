"""A miniature of Italian Poker small enough to solve exactly, exported as an OpenSpiel EFG game.

Heads-up, ante only (no blind, Art. 2), fixed limit with no raise (``raise_cap=0``, kept
heads-up by ``raise_cap_heads_up``), no parol (5.3) and no muck: the engine's ``standard`` rules
with those options. The deal uses only the top ranks of the two-player deck (queens, kings and
aces: 12 cards, section 1 stripped further, a research option and not a house rule). The table
machine deals from the engine's own 24-card deck, stacked (``StartDeal(deck=...)``): the ten cards
of the hands and the stock's first cards are the miniature's, the nines and tens lie under them
and are never reached, as each player changes at most ``max_change`` cards (0 by default) and
the stock holds ``12 - 10 = 2`` miniature cards. With only three ranks no straight, flush or
3.3(b) opening is possible, so the engine's ranking of these hands is the ranking a 12-card deck
would have.

Chance deals a whole hand as one outcome (a sorted set of five cards, each as likely): the
second player's hand, then the first's, then the order of the stock when a draw can reach it.
Every decision, legal action, information set and payoff below is the engine's: the tree is
walked by replaying a :class:`~italian_poker.table.machine.TableMachine` (players by id,
``Act`` commands in), the information sets are the seat's view from the engine's observer
(``TableMachine.view``: its own hand as dealt, the actions as it saw them, its hand now), and
moves with a single legal action (showing the hand) are played through. The tree is written
in OpenSpiel's EFG format and loaded with ``pyspiel.load_efg_game``, so OpenSpiel's C++
solvers run on it.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import pyspiel

from italian_poker.engine.actions import AMOUNT_KINDS, Action, ActionKind
from italian_poker.engine.cards import Card, Rank
from italian_poker.engine.deck import HAND_SIZE, stripped_deck
from italian_poker.engine.draw import MAX_DRAW
from italian_poker.engine.rules import Rules, preset
from italian_poker.table.commands import Act, StartDeal, TakeSeat
from italian_poker.table.machine import TableMachine

PLAYERS = 2


@dataclass(frozen=True, slots=True)
class Miniature:
    """One miniature: the lowest rank dealt (queens: 12 cards), the most cards a player may
    change at the draw, the ante and the two fixed-limit bet sizes."""

    lowest: Rank = Rank.QUEEN
    max_change: int = 0
    ante: int = 1
    small_bet: int = 1
    big_bet: int = 2
    stack: int = 20

    def __post_init__(self) -> None:
        cards = 4 * (Rank.ACE - self.lowest + 1)
        if self.lowest < Rank.QUEEN:
            raise ValueError(
                f"the miniature deals queens and up at the lowest, not {self.lowest.label}: "
                "with jacks the tree is far too large to solve exactly"
            )
        if cards < PLAYERS * HAND_SIZE + PLAYERS * self.max_change:
            raise ValueError(
                f"a {cards}-card deck cannot deal {PLAYERS} hands of {HAND_SIZE} and serve "
                f"{self.max_change} card(s) each at the draw: lower max_change or the lowest rank"
            )
        if not 0 <= self.max_change <= MAX_DRAW:
            raise ValueError(f"max_change must be 0 to {MAX_DRAW} (4.1), not {self.max_change}")
        if self.stack < self.ante + self.small_bet + self.big_bet:
            raise ValueError(f"a stack of {self.stack} cannot pay an ante and both bets")

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards dealt, in index order."""
        return tuple(c for c in stripped_deck(PLAYERS).cards if c.rank >= self.lowest)

    @property
    def rules(self) -> Rules:
        """The engine's rules of the miniature."""
        return preset(
            "standard",
            players=PLAYERS,
            ante=self.ante,
            structure="fixed-limit",
            small_bet=self.small_bet,
            big_bet=self.big_bet,
            raise_cap=0,
            raise_cap_heads_up=True,
            blind_allowed=False,
            controbuio_allowed=False,
            over_allowed=False,
            parol_allowed=False,
            muck_allowed=False,
        )


@dataclass(frozen=True, slots=True)
class _Deal:
    """One outcome of the deal: each player's hand and the stock's order."""

    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    stock: tuple[Card, ...]

    def deck(self) -> list[Card]:
        """The engine's stacked deck: dealt one at a time from the dealer's left (3.1; the
        dealer is player 0), then the stock, then the cards the miniature never reaches."""
        first, second = self.hands[1], self.hands[0]
        order = [c for pair in zip(first, second, strict=True) for c in pair] + list(self.stock)
        used = {c.index for c in order}
        return order + [c for c in stripped_deck(PLAYERS).cards if c.index not in used]


def _table(mini: Miniature, deal: _Deal, steps: Sequence[Action]) -> TableMachine:
    """The table machine of ``deal`` after ``steps``, forced moves played through."""
    seats = [TakeSeat(p, f"P{p}", mini.stack) for p in range(PLAYERS)]
    machine = TableMachine(mini.rules, seats, dealer=0, seed=0, audiences=False)
    machine.handle(StartDeal(deck=tuple(deal.deck()), seed=0))
    for step in steps:
        _play(machine, step)
        _forced(machine, mini)
    _forced(machine, mini)
    return machine


def _play(machine: TableMachine, action: Action) -> None:
    """``action`` for the player to act."""
    player = machine.to_act
    assert player is not None
    machine.handle(Act(player, action))


def _forced(machine: TableMachine, mini: Miniature) -> None:
    while machine.to_act is not None and len(choices := _choices(machine, mini)) == 1:
        _play(machine, choices[0])


def _choices(machine: TableMachine, mini: Miniature) -> list[Action]:
    """The actions the player to act may take: the engine's legal actions, fixed-limit
    amounts, and the draws of at most ``max_change`` cards (the engine says which, 4.4)."""
    out: list[Action] = []
    actor = machine.to_act
    assert actor is not None
    for legal in machine.legal_actions():
        if legal.kind is ActionKind.DRAW:
            hand = machine.view(actor).hand
            for k in range(mini.max_change + 1):
                for discards in itertools.combinations(hand, k):
                    # The split announced only where the engine requires it (4.4): an
                    # announcement that breaks nothing changes nothing but the tree's size.
                    plain = Act(actor, Action(ActionKind.DRAW, cards=discards))
                    split = Act(actor, Action(ActionKind.DRAW, cards=discards, split=True))
                    if machine.can(plain):
                        out.append(plain.action)
                    elif machine.can(split):
                        out.append(split.action)
        elif legal.kind in AMOUNT_KINDS:
            assert legal.min_amount == legal.max_amount  # fixed limit: one amount
            out.append(Action(legal.kind, amount=legal.min_amount))
        else:
            out.append(Action(legal.kind))
    return out


def _cards_text(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards)


class _Writer:
    """Walks the engine's tree of one miniature and writes it in EFG lines."""

    def __init__(self, mini: Miniature) -> None:
        self.mini = mini
        self.lines: list[str] = []
        self.infosets: list[dict[str, int]] = [{}, {}]
        self.chance_sets = 0
        self.outcomes = 0
        self.nodes = 0

    def chance(self, label: str, outcomes: Sequence[str]) -> None:
        self.chance_sets += 1
        p = 1.0 / len(outcomes)
        branches = " ".join(f'"{o}" {p!r}' for o in outcomes)
        self.lines.append(f'c "{label}" {self.chance_sets} "" {{ {branches} }} 0')
        self.nodes += 1

    def walk(self, deal: _Deal, steps: list[Action], machine: TableMachine | None = None) -> None:
        """Write the subtree after ``steps`` (``machine``: the table there, if made)."""
        mini = self.mini
        if machine is None:
            machine = _table(mini, deal, steps)
        self.nodes += 1
        player = machine.to_act
        if player is None:
            self.terminal(machine)
            return
        view = machine.view(player)
        seen = " ".join(
            f"{a.seat}:{a.kind.value}:{a.amount}:{a.cards_changed}:{_cards_text(a.discards)}"
            for a in view.actions
        )
        dealt, now = _cards_text(deal.hands[player]), _cards_text(view.hand)
        key = f"P{player} dealt {dealt} | {seen} | now {now}"
        sets = self.infosets[player]
        number = sets.setdefault(key, len(sets) + 1)
        choices = _choices(machine, mini)
        names = " ".join(f'"{a}"' for a in choices)
        # A short name: OpenSpiel's solvers hash it at every node (MiniatureTree.keys).
        self.lines.append(f'p "" {player + 1} {number} "{player}.{number}" {{ {names} }} 0')
        for i, action in enumerate(choices):
            if i == len(choices) - 1:  # the last child goes on with this table
                _play(machine, action)
                _forced(machine, mini)
                self.walk(deal, [*steps, action], machine)
            else:
                self.walk(deal, [*steps, action])

    def terminal(self, machine: TableMachine) -> None:
        last = machine.completed[-1].result
        if last.carried:  # every player passed: the pot is void (as with deals=1)
            payoffs = [0.0, 0.0]
        else:
            stacks = {s.player: s.chips for s in machine.seats}
            stacks.update((gone.player, gone.chips) for gone in machine.departed)
            payoffs = [float(stacks[p] - self.mini.stack) for p in range(PLAYERS)]
        self.outcomes += 1
        self.lines.append(f't "" {self.outcomes} "" {{ {payoffs[0]!r} {payoffs[1]!r} }}')


@dataclass(frozen=True, slots=True)
class MiniatureTree:
    """A miniature's tree in EFG text, and its size."""

    efg: str
    nodes: int
    infosets: int
    terminals: int
    keys: dict[str, str]
    """The information state string of each information set (``"0.12"``: player 0's
    twelfth) to its content: the player's hand as dealt, the actions as it saw them
    (seat, kind, amount, cards changed, its own discards) and its hand now."""


def miniature_tree(mini: Miniature = Miniature()) -> MiniatureTree:
    """The whole tree of ``mini``, walked through the engine, in OpenSpiel's EFG format."""
    writer = _Writer(mini)
    cards = mini.cards
    first_hands = list(itertools.combinations(cards, HAND_SIZE))
    writer.chance("P1's hand", [_cards_text(h) for h in first_hands])
    for h1 in first_hands:
        left = [c for c in cards if c not in h1]
        second_hands = list(itertools.combinations(left, HAND_SIZE))
        writer.chance("P0's hand", [_cards_text(h) for h in second_hands])
        for h0 in second_hands:
            stock = tuple(c for c in left if c not in h0)
            orders = list(itertools.permutations(stock)) if mini.max_change else [stock]
            if len(orders) > 1:
                writer.chance("stock", [_cards_text(o) for o in orders])
            for order in orders:
                writer.walk(_Deal((h0, h1), order), [])
    header = 'EFG 2 R "Italian Poker miniature" { "P0" "P1" }\n""\n'
    return MiniatureTree(
        header + "\n".join(writer.lines) + "\n",
        writer.nodes,
        sum(len(s) for s in writer.infosets),
        writer.outcomes,
        {f"{p}.{n}": key for p, sets in enumerate(writer.infosets) for key, n in sets.items()},
    )


@cache
def miniature_game(mini: Miniature = Miniature()) -> pyspiel.Game:
    """The miniature as an OpenSpiel game (``efg_game``), made once per miniature."""
    return pyspiel.load_efg_game(miniature_tree(mini).efg)


@dataclass(frozen=True, slots=True)
class Solution:
    """CFR+ run on a miniature: iterations, the average policy's NashConv and the game's
    value (player 0's expected chips under the average policy; player 1 gets minus it)."""

    iterations: int
    nash_conv: float
    value: float
    seconds: float
    policy: pyspiel.TabularPolicy


def solve(
    game: pyspiel.Game,
    *,
    target: float = 1e-3,
    check_every: int = 50,
    max_iterations: int = 1000,
) -> Solution:
    """Run OpenSpiel's C++ CFR+ on ``game`` until the average policy's NashConv is below
    ``target`` (checked every ``check_every`` iterations) or ``max_iterations`` are done."""
    start = time.perf_counter()
    solver = pyspiel.CFRPlusSolver(game)
    iterations, nash_conv = 0, float("inf")
    policy = solver.average_policy()
    while iterations < max_iterations and nash_conv >= target:
        for _ in range(min(check_every, max_iterations - iterations)):
            solver.evaluate_and_update_policy()
            iterations += 1
        policy = solver.average_policy()
        nash_conv = pyspiel.nash_conv(game, policy)
    value = pyspiel.expected_returns(game.new_initial_state(), policy, -1, True)[0]
    return Solution(iterations, nash_conv, value, time.perf_counter() - start, policy)
