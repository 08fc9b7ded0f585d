"""The bots' known odds (analysis/bots/chance.py) and AIVAT's action terms built on them
(analysis/action_terms.py): live draws consume the generator as before, the odds are exact,
and a decision's term has expectation 0."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from italian_poker.analysis.action_terms import (
    EXACT_ACTIONS,
    PolicyMismatchError,
    _terms,
    action_correction,
    action_terms,
    check_down,
    playout_source,
    same_action,
)
from italian_poker.analysis.bots import BotLevel, SimplePolicy, StrongPolicy, make_bot
from italian_poker.analysis.bots.chance import (
    Chance,
    Draws,
    KnownPolicy,
    TooManyPathsError,
    action_distribution,
)
from italian_poker.engine.actions import Action, ActionKind
from italian_poker.engine.card_source import RecordedSource
from italian_poker.engine.deal import Deal
from italian_poker.engine.match import CompletedDeal
from italian_poker.engine.observer import SeatView, observe
from italian_poker.engine.rules import Rules
from italian_poker.table.commands import BotAct, Leave, StartDeal, TakeSeat
from italian_poker.table.machine import TableMachine
from italian_poker.table.machine_events import DealFinished

S, R, T = BotLevel.SIMPLE, BotLevel.RANDOM, BotLevel.STRONG


def played(levels: list[BotLevel], deals: int, seed: int) -> list[CompletedDeal]:
    """``deals`` finished deals of bots of ``levels`` (P1, P2, ...), stacks topped up."""
    rules = Rules().with_options(players=len(levels))
    rng = random.Random(seed)
    names = [f"P{i + 1}" for i in range(len(levels))]
    bots = {n: make_bot(lv, seed=rng.getrandbits(64)) for n, lv in zip(names, levels, strict=True)}
    machine = TableMachine(rules, [TakeSeat(i, n, 200) for i, n in enumerate(names)])
    records: list[CompletedDeal] = []
    while len(records) < deals:
        for seat in machine.seats:
            if seat.chips < 20:
                machine.handle(Leave(seat.player))
                machine.handle(TakeSeat(seat.player, seat.name, 200))
        events = machine.handle(StartDeal(seed=rng.getrandbits(63)))
        while (player := machine.to_act) is not None:
            choice = bots[names[player]].act(machine.view(player))
            events += machine.handle(BotAct(player, choice))
        records += [e.completed for e in events if isinstance(e, DealFinished)]
    return records


def by_seat(record: CompletedDeal, per_player: list[Any]) -> list[Any]:
    """``per_player`` (P1, P2, ... as :func:`played` seats them) in ``record``'s seat order:
    a player topped up leaves and joins again, at the end of the table."""
    return [per_player[int(name[1:]) - 1] for name in record.start.names]


def decisions(record: CompletedDeal) -> list[tuple[int, SeatView, Action]]:
    """Each action of ``record`` with its index and the view its seat acted from."""
    deal = Deal(record.start, RecordedSource(record.operations))
    out = []
    for index, done in enumerate(record.actions):
        out.append((index, observe(deal, done.seat), done.action))
        deal.apply(done.action, done.seat)
    return out


def test_live_draws_consume_the_generator_as_plain_calls() -> None:
    for seed in range(20):
        plain, live = random.Random(seed), Draws(random.Random(seed))
        assert [plain.random() < 0.3 for _ in range(5)] == [live.happens(0.3) for _ in range(5)]
        assert plain.randint(2, 9) == live.integer(2, 9)
        assert plain.choice("abcd") == live.pick("abcd")
        assert plain.sample(range(6), 3) == live.sample(range(6), 3)


def test_simple_bot_odds_facing_a_bet_are_exact() -> None:
    """A simple bot facing a bet with a raise offered: raise 0.1 (the least amount 0.8 of
    that, any amount 0.2), else fold 0.12 or call 0.88."""
    for record in played([S, S, S, S], 60, 5):
        for _index, view, _action in decisions(record):
            legal = {la.kind: la for la in view.legal_actions}
            if not {ActionKind.CALL, ActionKind.RAISE} <= set(legal):
                continue
            odds = dict(action_distribution(SimplePolicy(random.Random(0)), view))
            assert sum(odds.values()) == pytest.approx(1.0)
            assert odds[Action(ActionKind.FOLD)] == pytest.approx(0.9 * 0.12)
            assert odds[Action(ActionKind.CALL)] == pytest.approx(0.9 * 0.88)
            raising = legal[ActionKind.RAISE]
            low, high = raising.min_amount, raising.max_amount
            assert low is not None and high is not None
            width = high - low + 1
            least = 0.1 * (0.8 + 0.2 / width) if high > low else 0.1
            assert odds[Action(ActionKind.RAISE, low)] == pytest.approx(least)
            return
    pytest.fail("no simple bot faced a bet with a raise offered")


@pytest.mark.parametrize("level", [S, T, R])
def test_odds_match_the_bot_played_many_times(level: BotLevel) -> None:
    """At decisions where the bot has a choice, the frequencies of its live actions over
    many seeds agree with the odds within 5 standard errors, and every action is in them."""
    checked = 0
    for record in played([level] * 3, 40, 11):
        for _index, view, _action in decisions(record):
            template = make_bot(level, seed=0)
            assert isinstance(template, KnownPolicy)
            odds = action_distribution(template, view)
            assert sum(p for _a, p in odds) == pytest.approx(1.0)
            if len(odds) < 2 or checked >= 3:
                continue
            checked += 1
            tries = 3000
            seen: Counter[Action] = Counter()
            for seed in range(tries):
                action = make_bot(level, seed=seed).act(view)
                match = [a for a, _p in odds if same_action(a, action)]
                assert match, f"{action} is missing from the odds"
                seen[match[0]] += 1
            for action, p in odds:
                spread = (p * (1 - p) / tries) ** 0.5
                assert abs(seen[action] / tries - p) <= 5 * spread + 1e-9
    assert checked, f"no {level.value} decision with a choice was found"


def test_too_many_paths_are_refused() -> None:
    class Dice:
        def decide(self, view: SeatView, chance: Chance) -> Action:
            total = sum(chance.integer(0, 99) for _ in range(3))
            return Action(ActionKind.BET, total)

    view = decisions(played([S, S], 1, 1)[0])[0][1]
    with pytest.raises(TooManyPathsError, match="more than"):
        action_distribution(Dice(), view)


def test_a_decisions_term_has_exact_zero_expectation() -> None:
    """Where the expectation is exact (at most EXACT_ACTIONS actions), the terms of every
    action the bot might have taken, weighted by its odds, sum to 0 (both values)."""
    levels = [T, S, T, S]
    held = [True, False, True, False]
    found = 0
    for record in played(levels, 30, 2):
        seated, held_by_seat = by_seat(record, levels), by_seat(record, held)
        for index, view, _action in decisions(record):
            template = make_bot(seated[view.seat], seed=0)
            assert isinstance(template, KnownPolicy)
            odds = action_distribution(template, view)
            if not 1 < len(odds) <= EXACT_ACTIONS:
                continue
            prefix = record.actions[:index]
            terms = [
                _terms(record, prefix, a, odds, seated, held_by_seat, random.Random(9))
                for a, _p in odds
            ]
            for kind in (0, 1):  # by playouts, by playing down
                weighted = sum(p * t[kind] for (_a, p), t in zip(odds, terms, strict=True))
                assert weighted == pytest.approx(0.0, abs=1e-9)
            found += 1
            if found == 4:
                return
    pytest.fail(f"only {found} decisions with a choice of 2 to {EXACT_ACTIONS} actions")


def test_action_correction_is_reproducible_and_refuses_other_bots() -> None:
    levels = [T, S, T, S]
    held = [True, False, True, False]
    records = played(levels, 20, 4)
    seated = [(by_seat(r, levels), by_seat(r, held)) for r in records]
    first = [action_terms(r, *s, random.Random(1)) for r, s in zip(records, seated, strict=True)]
    again = [action_terms(r, *s, random.Random(1)) for r, s in zip(records, seated, strict=True)]
    assert first == again and any(p for p, _c in first) and any(c for _p, c in first)
    playouts = [
        action_correction(r, *s, random.Random(1)) for r, s in zip(records, seated, strict=True)
    ]
    assert playouts == [p for p, _c in first]
    wild = played([R, R, R, R], 20, 4)
    with pytest.raises(PolicyMismatchError, match="is not an action a strong bot takes"):
        for record in wild:
            action_correction(record, [T, T, T, T], held, random.Random(1))


def test_strong_bot_decides_as_it_acts() -> None:
    """decide with live draws is act: the same seed gives the same actions."""
    for record in played([T, T, T], 5, 8):
        for _index, view, _action in decisions(record):
            assert StrongPolicy(random.Random(3)).act(view) == StrongPolicy(
                random.Random(3)
            ).decide(view, Draws(random.Random(3)))


def test_playing_down_checks_calls_and_draws_plainly() -> None:
    """check_down: the opener opens at the least, the rest call or check, the draw keeps
    what the plain draw keeps, and a whole deal played so is legal to the end."""
    record = played([S, S, S], 1, 3)[0]
    deal = Deal(record.start, playout_source(record, 0, 3))
    seen: set[ActionKind] = set()
    while (actor := deal.actor) is not None:
        view = observe(deal, actor)
        action = check_down(view)
        assert action.kind in {la.kind for la in view.legal_actions}
        assert action.kind not in (ActionKind.RAISE, ActionKind.BET, ActionKind.BLIND)
        seen.add(action.kind)
        deal.apply(action, actor)
    assert deal.result is not None and seen
