"""An action applied exactly as offered (engine/deal.py, ``Deal.apply``) is recorded as
:meth:`Deal.verify` returns it, and any other is refused as ``verify`` refuses it, with the same
error, the deal unchanged: the check ``apply`` spares an action as offered is never a different
answer."""

from __future__ import annotations

import copy
import random

import pytest

from italian_poker.engine.actions import Action, ActionKind, LegalAction
from italian_poker.engine.card_source import SeededSource
from italian_poker.engine.deal import Deal, DealStart
from italian_poker.engine.errors import IllegalActionError
from italian_poker.engine.rules import BettingStructure, Rules, preset
from tests.engine_helpers import snapshot


def _candidates(legal: tuple[LegalAction, ...]) -> list[Action]:
    """Each kind with no amount, the amounts at and around each offered range, and kinds not
    offered."""
    actions = [Action(kind) for kind in ActionKind]
    for la in legal:
        for amount in (la.min_amount, la.max_amount):
            if amount is not None:
                actions += [Action(la.kind, amount + step) for step in (-1, 0, 1)]
    actions.append(Action(ActionKind.CALL, 0))
    return actions


def _outcome(deal: Deal, action: Action) -> tuple[str, object]:
    try:
        return "verified", deal.verify(action)
    except IllegalActionError as error:
        return type(error).__name__, str(error)


@pytest.mark.parametrize(
    "rules", [Rules(), preset("003"), Rules(structure=BettingStructure.POT_LIMIT)]
)
def test_apply_records_and_refuses_as_verify_says(rules: Rules) -> None:
    rng = random.Random(7)
    for number in range(5):
        start = DealStart(rules, ("a", "b", "c", "d"), (60, 200, 200, 35), dealer=number % 4)
        deal = Deal(start, SeededSource(number))
        while deal.actor is not None:
            legal = deal.legal_actions()
            for action in _candidates(legal):
                expected = _outcome(deal, action)
                twin = copy.deepcopy(deal)
                twin.legal_actions()  # offered, as to a player: what apply spares
                before = snapshot(twin)
                try:
                    record = twin.apply(action)
                except IllegalActionError as error:
                    assert (type(error).__name__, str(error)) == expected
                    assert snapshot(twin) == before
                else:
                    assert expected == ("verified", record.action)
            la = rng.choice(legal)
            amount = (
                la.min_amount
                if la.kind in (ActionKind.OPEN, ActionKind.BET, ActionKind.RAISE)
                else None
            )
            deal.apply(Action(la.kind, amount))
        assert deal.result is not None
