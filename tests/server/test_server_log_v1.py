"""A table saved by the server before every card taken was logged (version 1: each deal's
deck order on the event that began it, each reshuffle's order, 4.3, on the action that made
it) still resumes after the upgrade, mid-deal included, with exactly the cards it had.

The log in tests/fixtures/table_log_v1.json was written by that server's table state: five
players, no seed, played at random through deals begun by the 5.5 make-ups and draws that
reshuffled the discards, up to the middle of a draw. With it are the cards each seat held
and the stock at many points, as that server had them."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

from italian_poker.engine.errors import ItalianPokerError
from italian_poker.engine.match import MatchPhase
from italian_poker.engine.rules import preset
from italian_poker.server.event_kinds import EventKind
from italian_poker.server.table_state import TableState

FIXTURE = json.loads(
    (Path(__file__).resolve().parents[1] / "fixtures" / "table_log_v1.json").read_text(
        encoding="utf-8"
    )
)
EVENTS: list[tuple[int, str, dict[str, Any]]] = [tuple(e) for e in FIXTURE["events"]]  # type: ignore[misc]


def fresh() -> TableState:
    return TableState("t", preset("standard", players=5), dict(FIXTURE["options"]))


def picture(state: TableState) -> dict[str, Any]:
    """What the fixture recorded of the table at one point."""
    match = state.match
    deal = match.deal if match is not None and match.phase is MatchPhase.IN_DEAL else None
    return {
        "seq": state.seq,
        "hand": state.hand,
        "actor": state.actor_slot(),
        "hands": None if deal is None else [[str(c) for c in h] for h in deal.hands],
        "stock": None if deal is None else sorted(str(c) for c in deal.stock),
        "views": [
            None if (v := state.view(s)) is None else [str(c) for c in v.hand]
            for s in range(len(state.slots))
        ],
    }


def test_the_fixture_is_a_version_1_log_that_stops_mid_deal() -> None:
    payloads = [p for _, _, p in EVENTS]
    assert any("deck" in p for p in payloads) and any("reshuffles" in p for p in payloads)
    assert not any("taken" in p for p in payloads)
    assert any(k == "action" and "deck" in p for _, k, p in EVENTS)  # begun by a 5.5 answer
    assert FIXTURE["pictures"][-1]["seq"] == EVENTS[-1][0]
    assert FIXTURE["pictures"][-1]["hands"] is not None


def test_a_version_1_log_replays_to_the_same_cards_event_by_event() -> None:
    """A replica following the old log one event at a time holds, at every recorded point,
    the hands, the stock and the views the old server had. That server waited for a player
    to show when the rules left no choice (5.4, 002); the table plays such a show at once,
    so the event that recorded it is passed over, and until then another seat is to act."""
    wanted = {p["seq"]: p for p in FIXTURE["pictures"]}
    state = fresh()
    seen: dict[int, dict[str, Any]] = {}
    passed_over = []
    for seq, kind, payload in EVENTS:
        effects = state.apply(seq, EventKind(kind), copy.deepcopy(payload))
        if kind == "action" and not effects.lines:
            passed_over.append(seq)
        if seq in wanted:
            seen[seq] = picture(state)
    assert passed_over and all(EVENTS[s - 1][2]["kind"] == "show" for s in passed_over)
    waiting = {s - 1 for s in passed_over}
    assert seen.keys() == wanted.keys()
    for seq, shown in seen.items():
        expected = dict(wanted[seq])
        if seq in waiting:
            expected.pop("actor")
            shown = {k: v for k, v in shown.items() if k != "actor"}
        assert shown == expected, f"event {seq}"


def test_a_table_resumed_from_a_version_1_log_goes_on_and_restarts_again() -> None:
    """Restored mid-draw from the old log, the table plays on live (the new events record the
    cards they take); restarted again from the old events and the new ones together, it holds
    the same cards."""
    state = fresh()
    state.replay(copy.deepcopy(EVENTS))
    assert picture(state) == FIXTURE["pictures"][-1]
    log = list(copy.deepcopy(EVENTS))
    rng = random.Random(3)
    for _ in range(120):
        seat = state.actor_slot()
        if seat is None:
            kind, payload = EventKind.DEAL, {}
        else:
            option = rng.choice(state.legal_actions())
            move: dict[str, Any] = {"kind": option.kind.value, "amount": option.min_amount}
            view = state.view(seat)
            assert view is not None
            move["cards"] = [str(c) for c in view.hand[: rng.choice((0, 3, 4))]]
            if option.kind.value != "draw":
                move["cards"] = []
            kind, payload = EventKind.ACTION, {"seat": seat, "split": False, **move}
        try:
            effects = state.apply(state.seq + 1, kind, payload)
        except ItalianPokerError:
            continue
        log.append((state.seq, kind.value, effects.record))
    assert any("taken" in p for _, _, p in log[len(EVENTS) :])
    again = fresh()
    again.replay(copy.deepcopy(log))
    assert picture(again) == picture(state)
