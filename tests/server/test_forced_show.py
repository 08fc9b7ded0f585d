"""The automatic show: where the rules leave a player no choice but to show (5.4, the hand
may not be mucked, 002), the table shows it at once, for the terminal's table machine and
the server alike (table/defaults.py's ``forced_action``); where the hand may be
mucked (002) the player still chooses."""

from __future__ import annotations

import random
from typing import Any

from test_server_table_driver import _apply, _passive, _table

from italian_poker.engine.actions import AMOUNT_KINDS, Action, ActionKind, LegalAction
from italian_poker.engine.rules import preset
from italian_poker.server.event_kinds import EventKind
from italian_poker.table.commands import Act, StartDeal, TakeSeat
from italian_poker.table.defaults import forced_action
from italian_poker.table.machine import TableMachine
from italian_poker.table.machine_events import ActionTaken

K = ActionKind
SHOW, MUCK = LegalAction(K.SHOW), LegalAction(K.MUCK)
NAMES = ("Anna", "Bruno", "Carla", "Dino")


def test_only_a_show_with_nothing_to_choose_is_forced() -> None:
    assert forced_action((SHOW,)) == Action(K.SHOW)
    assert forced_action((SHOW, MUCK)) is None
    assert forced_action(()) is None
    assert forced_action((LegalAction(K.DRAW, max_cards=4),)) is None
    assert forced_action((LegalAction(K.PASS),)) is None  # it would tell who cannot open
    assert forced_action((LegalAction(K.RAISE, 4, 9),)) is None
    assert forced_action((LegalAction(K.FOLD), LegalAction(K.CALL, 4, 4))) is None


def _calm(rng: random.Random, legal: tuple[LegalAction, ...]) -> Action:
    """A random legal action that reaches the showdown often: never a fold, a draw stands
    pat, an amount is its minimum."""
    choices = [la for la in legal if la.kind not in (K.FOLD, K.PAROL)] or list(legal)
    choice = rng.choice(choices)
    amount = choice.min_amount if choice.kind in AMOUNT_KINDS else None
    return Action(choice.kind, amount)


def _machine_showdowns(rules_name: str, seed: int) -> tuple[int, int, int]:
    """Random deals at a table machine: (the shows the table played, the shows a player
    chose, the times a player was asked to show or muck); no turn a player is given is a
    show alone."""
    rules = preset(rules_name, players=3)
    machine = TableMachine(rules, [TakeSeat(i, NAMES[i], 500) for i in range(3)], seed=seed)
    rng = random.Random(seed)
    forced = chosen = muck_asked = 0
    for _ in range(12):
        if machine.to_act is None:
            if not machine.can(StartDeal()):
                break
            machine.handle(StartDeal())
        while (player := machine.to_act) is not None:
            legal = machine.legal_actions()
            assert legal != (SHOW,)
            muck_asked += {la.kind for la in legal} == {K.SHOW, K.MUCK}
            action = _calm(rng, legal)
            events = machine.handle(Act(player, action))
            taken = [e for e in events if isinstance(e, ActionTaken)]
            chosen += taken[0].action.kind is K.SHOW
            forced += sum(e.action.kind is K.SHOW for e in taken[1:])
            assert all(e.action.kind is K.SHOW and e.default is None for e in taken[1:])
    return forced, chosen, muck_asked


def test_the_table_machine_shows_for_a_player_with_no_choice() -> None:
    forced, _, _ = _machine_showdowns("standard", 3)
    assert forced > 0


def test_a_hand_that_may_be_mucked_is_still_the_players_choice() -> None:
    forced, _, muck_asked = _machine_showdowns("002", 3)
    assert forced > 0 and muck_asked > 0


def test_the_servers_log_says_each_show_the_table_played() -> None:
    state = _table()
    rng = random.Random(2)
    lines: list[str] = []
    for _ in range(600):
        if state.actor_slot() is None:
            _apply(state, EventKind.DEAL, {"seed": rng.randrange(1 << 40)})
            continue
        assert state.legal_actions() != (SHOW,)
        payload: dict[str, Any] = _passive(state, rng)
        lines.extend(line.en for line in _apply(state, EventKind.ACTION, payload).lines)
    assert any(" shows " in line for line in lines)
