"""The parts of the ``state`` messages kept as text from one change to the next
(server/protocol.py's :class:`EncodedParts`) and the views read once per event
(:meth:`TableState.view`): every message is, byte for byte, the one encoded afresh from the
table as it is, for every seat, through whole deals (the draw, the showdown, the next deal,
a seat sitting out, the host's switches), and the encoder writes what the library's does."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from italian_poker.engine.actions import AMOUNT_KINDS, Action, ActionKind
from italian_poker.engine.rules import preset
from italian_poker.server.event_payloads import action_payload
from italian_poker.server.protocol import (
    Clock,
    EncodedParts,
    LogText,
    PublicState,
    encode,
    public_state,
    state_text,
)
from italian_poker.server.table_state import EventKind, TableState

NAMES = ("Anna", "Bruno", "Carla", 'Dàrio "d"')
K = ActionKind


def _table() -> TableState:
    options = {"preset": "standard", "seats": 4, "stack": 300}
    state = TableState("T", preset("standard", players=4), options, log_size=20)
    for seat, nickname in enumerate(NAMES):
        bot = "simple" if seat == 3 else None
        state.apply(state.seq + 1, EventKind.SEAT, {"seat": seat, "nickname": nickname, "bot": bot})
    state.apply(state.seq + 1, EventKind.START, {})
    return state


def _action(state: TableState, rng: random.Random) -> Action:
    legal = state.legal_actions()
    option = rng.choice(legal)
    return Action(option.kind, option.min_amount if option.kind in AMOUNT_KINDS else None)


def _texts(state: TableState, public: PublicState) -> list[str]:
    return [state_text(public, seat, host=seat == 0) for seat in range(len(state.slots))]


def _fresh(state: TableState, connected: set[int], after: int | None) -> list[str]:
    """Every seat's message with nothing kept from before (the log's lines neither)."""
    log = LogText()
    public = public_state(
        state,
        invite="inv",
        connected=connected,
        clock=Clock(1.5, None),
        log=log,
        events_after=after,
    )
    return _texts(state, public)


def test_kept_parts_give_the_messages_encoded_afresh() -> None:
    state = _table()
    rng = random.Random(11)
    log, parts = LogText(), EncodedParts()
    deals = shows = 0
    for step in range(700):
        before = state.seq
        slot = state.actor_slot()
        if slot is None:
            if len(state.dealable()) < 2:
                break
            state.apply(state.seq + 1, EventKind.DEAL, {"seed": rng.randrange(1 << 40)})
            deals += 1
        else:
            state.apply(state.seq + 1, EventKind.ACTION, action_payload(slot, _action(state, rng)))
        if step % 97 == 50:
            seat = state.slots[1]
            assert seat is not None
            kind = EventKind.SIT_IN if seat.sitting_out else EventKind.SIT_OUT
            state.apply(state.seq + 1, kind, {"seat": 1})
        if step % 131 == 60:
            state.apply(state.seq + 1, EventKind.ADVICE, {"on": bool(step % 2)})
        connected = {0, 1, 2} if step % 5 else {0, 2}
        after = None if step % 7 == 0 else before
        public = public_state(
            state,
            invite="inv",
            connected=connected,
            clock=Clock(1.5, None),
            log=log,
            events_after=after,
            parts=parts,
        )
        kept = _texts(state, public)
        assert kept == _fresh(state, connected, after), f"event {state.seq}"
        shows += any(seat["cards"] for seat in json.loads(kept[0])["state"]["seats"])
    assert deals >= 10 and shows >= 1  # whole deals, showdowns among them


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(JSON)
def test_the_encoder_writes_what_the_library_writes(value: Any) -> None:
    assert encode(value) == json.JSONEncoder(separators=(",", ":")).encode(value)
