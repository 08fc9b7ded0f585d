"""Live tables deal from fair decks sealed with the CSPRNG; the log records the cards each event
took (``taken``: the five-card deal, the draws, the late fourth cards, those served from the
discards reshuffled in, 4.3), so a restart in the middle of a deal resumes with exactly the same
cards, and a table saved by the server before (its log records each deal's deck order and the
order of each reshuffle) still resumes."""

from __future__ import annotations

import copy
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient
from server_fixtures import (
    AppFactory,
    bearer,
    create_table,
    join,
    passive_action,
    wait_until,
)
from sqlalchemy import select

from italian_poker.engine.actions import ActionKind
from italian_poker.engine.card_source import RecordedSource
from italian_poker.engine.deal import Phase
from italian_poker.engine.errors import ItalianPokerError
from italian_poker.engine.fair_source import FairSource
from italian_poker.engine.match import MatchPhase
from italian_poker.engine.rules import preset
from italian_poker.server.client_messages import parse_action
from italian_poker.server.database import make_engine
from italian_poker.server.event_kinds import EventKind
from italian_poker.server.models import TableEventRow
from italian_poker.server.store import token_hash
from italian_poker.server.table_runtime import TableRuntime
from italian_poker.server.table_state import TableState


def runtime_of(app: FastAPI, invite: str) -> TableRuntime:
    runtime: TableRuntime = app.state.server.tables[token_hash(invite)]
    return runtime


def events(database_url: str) -> list[tuple[str, dict[str, Any]]]:
    engine = make_engine(database_url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                select(TableEventRow.kind, TableEventRow.payload).order_by(TableEventRow.seq)
            ).all()
    finally:
        engine.dispose()
    return [(kind, dict(payload)) for kind, payload in rows]


def test_live_tables_deal_from_fair_decks_sealed_with_the_csprng(
    make_app: AppFactory, database_url: str
) -> None:
    """A table without ``settings.seed`` deals from fair decks (server/fair_deal.py): each
    deal event follows a ``commit`` whose seed comes from the CSPRNG (never the same twice)
    and holds the values used and the cards dealt, and the cards after them (4.3 included)
    come from the deal's fair deck."""
    app = make_app(seed=None)
    with TestClient(app) as client:
        table = create_table(client)
        invite, host = table["invite"], bearer(table["host_token"])
        join(client, invite, "Bruno")
        assert client.post(f"/api/tables/{invite}/start", headers=host).status_code == 200
        state = runtime_of(app, invite).state
        wait_until(lambda: state.in_deal, "the deal after its commitment")
        deal = state.match.deal  # type: ignore[union-attr]
        assert deal is not None and isinstance(deal.source, RecordedSource)
        assert isinstance(deal.source.then, FairSource)
        blinds = deal.phase is Phase.BLINDS
    logged = events(database_url)
    kinds = [kind for kind, _ in logged if kind in ("commit", "deal")]
    assert kinds[:2] == ["commit", "deal"]
    seeds = [payload["seed"] for kind, payload in logged if kind == "commit"]
    assert len(set(seeds)) == len(seeds)
    deals = [payload for kind, payload in logged if kind == "deal"]
    assert deals and all("seed" not in payload for payload in deals), deals
    assert all(set(payload) <= {"taken", "fair"} and "fair" in payload for payload in deals)
    # The five cards each: with the deal, or once the blind is settled (Art. 2).
    dealt = [e for _, p in logged for e in p.get("taken", ()) if e[0] == "deal"]
    assert [[len(hand) for hand in e[1]] for e in dealt] == ([] if blinds else [[5, 5]])


def _choose(state: TableState, seat: int) -> dict[str, Any]:
    """Open when possible, call every opening, and at the draw change four cards (the opener
    stands pat): enough draws to run the stock out."""
    legal = {option.kind: option for option in state.legal_actions()}
    if ActionKind.OPEN in legal:
        return {"kind": "open", "amount": legal[ActionKind.OPEN].min_amount}
    if ActionKind.DRAW in legal:
        match = state.match
        assert match is not None and match.deal is not None
        view = state.view(seat)
        assert view is not None
        index = state.deal_index(seat)
        if match.deal.opener == index:
            return {"kind": "draw", "cards": []}
        count = min(4, legal[ActionKind.DRAW].max_cards or 4)
        return {"kind": "draw", "cards": [str(card) for card in view.hand[:count]]}
    options = [{"kind": o.kind.value, "min": o.min_amount} for o in legal.values()]
    return passive_action({"state": {"legal": options}})


def _deal_picture(state: TableState) -> dict[str, Any]:
    match = state.match
    assert match is not None and match.deal is not None
    deal = match.deal
    return {
        "seq": state.seq,
        "hand": state.hand,
        "actor": state.actor_slot(),
        "reshuffles": list(deal.reshuffles),
        "stock": sorted(deal.stock, key=lambda card: card.index),
        "hands": [list(h) for h in deal.hands],
        "views": [view.hand if (view := state.view(s)) else None for s in range(len(state.slots))],
    }


def test_restart_mid_deal_after_a_reshuffle_resumes_with_the_same_cards(
    make_app: AppFactory, database_url: str
) -> None:
    """Five players, no seed: deals are played until a draw runs the stock out and the
    discards are reshuffled (4.3); the server then restarts in the middle of that draw and
    every seat holds the same cards, the stock (the reshuffled discards included) holds the
    same cards, and the same player is to act."""
    app = make_app(seed=None)
    with TestClient(app) as client:
        table = create_table(client, seats=5, stack=1000)
        invite, host = table["invite"], bearer(table["host_token"])
        for name in ("Bruno", "Carla", "Dario", "Elena"):
            join(client, invite, name)
        assert client.post(f"/api/tables/{invite}/start", headers=host).status_code == 200
        runtime = runtime_of(app, invite)
        before: dict[str, Any] | None = None
        waited = time.monotonic()
        for _ in range(5000):
            state = runtime.state
            match = state.match
            assert match is not None
            deal = match.deal
            if (
                deal is not None
                and deal.reshuffles
                and match.phase is MatchPhase.IN_DEAL
                and state.actor_slot() is not None
            ):
                before = _deal_picture(state)
                break
            seat = state.actor_slot()
            if seat is None:  # between deals: the next one is dealt in a moment
                assert time.monotonic() < waited + 5, "the table stopped"
                time.sleep(0.01)
                continue
            waited = time.monotonic()
            client.portal.call(
                runtime.play.act, seat, state.hand, state.seq, parse_action(_choose(state, seat))
            )
        assert before is not None, "no draw ever needed a reshuffle"
    logged = events(database_url)
    drawn = [p for kind, p in logged if kind == "action" and p.get("taken")]
    assert drawn and drawn[-1]["kind"] == "draw"
    assert all(entry[0] in ("draw", "fourth") for entry in drawn[-1]["taken"])
    assert all("seed" not in p for kind, p in logged if kind == "deal")
    restarted = make_app(seed=None)
    with TestClient(restarted):
        after = _deal_picture(runtime_of(restarted, invite).state)
    assert after == before


def _random_move(state: TableState, rng: random.Random) -> dict[str, Any]:
    """Any legal move, amounts and discards at random (parols and 5.5 make-ups included)."""
    option = rng.choice(state.legal_actions())
    move: dict[str, Any] = {"kind": option.kind.value, "amount": None, "cards": []}
    if option.min_amount is not None:
        high = option.max_amount if option.max_amount is not None else option.min_amount
        move["amount"] = rng.randint(option.min_amount, min(high, option.min_amount + 20))
    if option.kind is ActionKind.DRAW:
        seat = state.actor_slot()
        assert seat is not None
        view = state.view(seat)
        assert view is not None
        count = rng.choice((0, 3, 4, 4, 4)) if option.max_cards else 0
        move["cards"] = [str(card) for card in view.hand[: min(count, option.max_cards or 0)]]
    return move


Log = list[tuple[int, str, dict[str, Any]]]
STEPS = 20_000
"""Events at most before the goals of :func:`_unseeded_play` must be met."""


def _unseeded_table() -> tuple[TableState, Callable[[], TableState]]:
    rules = preset("standard", players=5)
    # Deep stacks: nobody busts before the goals are met (heads-up, a stock of 14 cards
    # would never run out, 4.3).
    options = {"preset": "standard", "seats": 5, "stack": 5000, "turn_seconds": None}
    return TableState("t", rules, options), lambda: TableState("t", rules, options)


def _unseeded_play(state: TableState, log: Log) -> Iterator[bool]:
    """Play ``state`` with no seed anywhere (the engine's secure shuffles), logging each
    event in ``log``, until two draws reshuffled the discards (4.3) and two deals were begun
    by an action after the 5.5 make-ups; yields after each event whether it was one of
    those."""
    rng = random.Random(5)

    def apply(kind: EventKind, payload: dict[str, Any]) -> None:
        effects = state.apply(state.seq + 1, kind, payload)
        log.append((state.seq, kind.value, effects.record))

    for seat, name in enumerate(("Anna", "Bruno", "Carla", "Dario", "Elena")):
        apply(EventKind.SEAT, {"seat": seat, "nickname": name, "bot": None})
    apply(EventKind.START, {})
    reshuffled = begun_by_action = 0
    shuffles = 0
    for _ in range(STEPS):
        if reshuffled >= 2 and begun_by_action >= 2:
            break
        match = state.match
        asked = match is not None and match.phase is MatchPhase.MAKE_UP
        seat = state.actor_slot()
        if seat is None:
            assert match is None or match.phase is not MatchPhase.OVER, "all but one busted"
            apply(EventKind.DEAL, {})
        else:
            move = _random_move(state, rng)
            try:
                apply(EventKind.ACTION, {"seat": seat, "split": False, **move})
            except ItalianPokerError:
                continue  # e.g. discards the rules refuse: nothing changed, try again
        kind = log[-1][1]
        deal = state.match.deal if state.match is not None else None
        now = len(deal.reshuffles) if deal is not None and not deal.is_over else 0
        began = asked and state.match is not None and state.match.phase is MatchPhase.IN_DEAL
        notable = kind == "action" and (now > shuffles or began)
        reshuffled += kind == "action" and now > shuffles
        shuffles = now
        begun_by_action += began
        yield notable
    assert all("seed" not in payload for _, kind, payload in log if kind == "deal")
    assert reshuffled >= 2 and begun_by_action >= 2, (reshuffled, begun_by_action)


def test_a_table_shuffled_without_a_seed_replays_to_the_same_cards() -> None:
    """At every step a table rebuilt from the events as logged holds the same cards and
    stock, including deals begun by an action after the 5.5 make-ups and draws that
    reshuffled the discards."""
    state, fresh = _unseeded_table()
    log: Log = []
    for notable in _unseeded_play(state, log):
        if (notable or state.seq % 50 == 0) and state.match and state.match.deal:
            rebuilt = fresh()
            rebuilt.replay(log)
            assert _deal_picture(rebuilt) == _deal_picture(state)


def test_a_replica_following_the_log_event_by_event_holds_the_same_cards() -> None:
    """A replica (another server process) replays each event as it is logged, not knowing
    what later events will record: a deal begun after the 5.5 make-ups gets its cards from
    the action that began it, a draw that reshuffled (4.3) its cards from that draw."""
    state, fresh = _unseeded_table()
    log: Log = []
    replica = fresh()
    for _ in _unseeded_play(state, log):
        replica.replay(copy.deepcopy(log[replica.seq :]))
        assert replica.seq == state.seq
        if state.match and state.match.deal:
            assert _deal_picture(replica) == _deal_picture(state)
        assert [replica.view(s) for s in range(5)] == [state.view(s) for s in range(5)]
