"""A table saved by the server as it logged every card taken (version 2: ``taken`` on each
``deal`` and ``action`` event, live shuffles, turns that ran out and bots' turns written into
their events as played) resumes exactly where it was.

tests/fixtures/table_log_v2.json holds six such logs, written by that server's table state
from random play at tables of 4 to 9 seats under four presets: players sitting down, leaving
during deals, sitting out and in, busting, the host setting stacks, pauses, parols, and each
log stops in the middle of a deal. With each log: a digest of what the table showed after
every event (:func:`picture`), the whole picture after the last, and the ledger rows."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from italian_poker.engine.match import MatchPhase
from italian_poker.engine.rules import preset
from italian_poker.server.event_kinds import EventKind
from italian_poker.server.table_state import TableState

FIXTURE = json.loads(
    (Path(__file__).resolve().parents[1] / "fixtures" / "table_log_v2.json").read_text(
        encoding="utf-8"
    )
)
TABLES = {table["name"]: table for table in FIXTURE["tables"]}


def picture(state: TableState, *, whole: bool = False) -> dict[str, Any]:
    """What the table shows after an event (``whole``: with every seat's cards and the stock)."""
    match = state.match
    deal = match.deal if match is not None and match.phase is MatchPhase.IN_DEAL else None
    shown: dict[str, Any] = {
        "seq": state.seq,
        "status": state.status.value,
        "phase": match.phase.value if state.in_deal and match is not None else None,
        "hand": state.hand,
        "actor": state.actor_slot(),
        "legal": [[o.kind.value, o.min_amount, o.max_amount] for o in state.legal_actions()],
        "seats": [
            None
            if s is None
            else [s.nickname, s.player, state.stack(i), s.sitting_out, s.leaving, state.busted(i)]
            for i, s in enumerate(state.slots)
        ],
        "pot": state.pot(),
        "dealable": state.dealable(),
        "hands": None if deal is None else [[str(c) for c in h] for h in deal.hands],
        "deal_players": list(state.deals.deal_players),
        "log": [[said.seq, said.line.as_json()] for said in state.log if said.seq == state.seq],
    }
    if whole:
        shown["stock"] = None if deal is None else sorted(str(c) for c in deal.stock)
        shown["views"] = [
            None if (v := state.view(s)) is None else [str(c) for c in v.hand]
            for s in range(len(state.slots))
        ]
        shown["hands_played"] = {
            str(s.player): state.hands_played(s.player) for s in state.slots if s is not None
        }
    return shown


def digest(shown: dict[str, Any]) -> str:
    text = json.dumps(shown, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def fresh(table: dict[str, Any]) -> TableState:
    rules = preset(table["rules"], players=table["players"])
    return TableState(table["name"], rules, dict(table["options"]))


@pytest.mark.parametrize("name", sorted(TABLES))
def test_a_version_2_log_replays_event_by_event_to_what_the_table_showed(name: str) -> None:
    table = TABLES[name]
    state = fresh(table)
    ledger: list[list[Any]] = []
    for (seq, kind, payload), wanted in zip(table["events"], table["digests"], strict=True):
        effects = state.apply(seq, EventKind(kind), copy.deepcopy(payload))
        ledger.extend([e.nickname, e.player, e.kind, e.amount, e.hand] for e in effects.ledger)
        assert digest(picture(state)) == wanted, f"{name}: event {seq} {kind} {payload}"
    assert picture(state, whole=True) == table["last"]
    assert ledger == table["ledger"]


@pytest.mark.parametrize("name", sorted(TABLES))
def test_a_version_2_log_stops_mid_deal_and_plays_on(name: str) -> None:
    table = TABLES[name]
    state = fresh(table)
    state.replay(copy.deepcopy([tuple(e) for e in table["events"]]))
    actor = state.actor_slot()
    assert actor is not None and state.in_deal
    before = state.seq
    state.apply(state.seq + 1, EventKind.ACTION, {"seat": actor})  # the turn runs out
    assert state.seq == before + 1
