"""The server's table runs on the table machine (table/machine.py): a turn that ran out plays
the machine's default action, a bot's illegal answer is replaced by it, the public part of the
state is the observer's public view, and every person is the machine's player of their own id
(a newcomer who takes a departed player's name is someone else)."""

from __future__ import annotations

import json
import random
from typing import Any

from fastapi.testclient import TestClient
from server_fixtures import bearer, connect, create_table, hello, state_where

from italian_poker.engine.actions import Action, ActionKind
from italian_poker.engine.deal import Outcome, Phase
from italian_poker.engine.match import MatchPhase
from italian_poker.engine.observer import PublicView, SeatView
from italian_poker.engine.rules import preset
from italian_poker.server.app import create_app
from italian_poker.server.event_kinds import EventKind
from italian_poker.server.event_payloads import action_payload, bot_payload
from italian_poker.server.protocol import Clock, LogText, public_state, state_text
from italian_poker.server.settings import ServerSettings
from italian_poker.server.table_state import TableState
from italian_poker.table.defaults import default_action

NAMES = ("Anna", "Bruno", "Carla", "Dino")


def _apply(state: TableState, kind: EventKind, payload: dict[str, Any], **kw: Any) -> Any:
    return state.apply(state.seq + 1, kind, payload, **kw)


def _table(players: int = 3, name: str = "standard", stack: int = 200) -> TableState:
    options = {"preset": name, "seats": players, "stack": stack, "turn_seconds": None}
    state = TableState("T", preset(name, players=players), options)
    for seat in range(players):
        _apply(state, EventKind.SEAT, {"seat": seat, "nickname": NAMES[seat], "bot": None})
    _apply(state, EventKind.START, {})
    return state


def _passive(state: TableState, rng: random.Random) -> dict[str, Any]:
    """A cheap legal move for the seat to act (a draw stands pat)."""
    actor = state.actor_slot()
    assert actor is not None
    legal = state.legal_actions()
    kinds = {option.kind for option in legal}
    for kind in (ActionKind.CHECK, ActionKind.CALL, ActionKind.OPEN, ActionKind.DRAW):
        if kind in kinds:
            option = next(o for o in legal if o.kind is kind)
            return action_payload(actor, Action(kind, option.min_amount), False)
    option = rng.choice(legal)
    return action_payload(actor, Action(option.kind, option.min_amount), False)


def _until(state: TableState, wanted: Any, seed: int = 1, limit: int = 3000) -> None:
    """Play cheaply (dealing as needed) until ``wanted(state)``."""
    rng = random.Random(seed)
    for _ in range(limit):
        if wanted(state):
            return
        if state.actor_slot() is None:
            _apply(state, EventKind.DEAL, {"seed": rng.randrange(1 << 40)})
        else:
            _apply(state, EventKind.ACTION, _passive(state, rng))
    raise AssertionError("never got there")


def _muck_or_show(state: TableState) -> bool:
    kinds = {option.kind for option in state.legal_actions()}
    return {ActionKind.SHOW, ActionKind.MUCK} <= kinds


def test_a_turn_that_ran_out_plays_the_machines_default_action() -> None:
    state = _table()
    rng = random.Random(5)
    played = 0
    for _ in range(400):
        actor = state.actor_slot()
        if actor is None:
            _apply(state, EventKind.DEAL, {"seed": rng.randrange(1 << 40)})
            continue
        expected = default_action(state.legal_actions())
        payload: dict[str, Any] = {"seat": actor, "auto": True, "bank": 3.5}
        effects = _apply(state, EventKind.ACTION, dict(payload))
        assert {k: v for k, v in effects.record.items() if k != "taken"} == payload
        assert state.bank(actor) == 3.5
        assert effects.lines and "(automatic)" in effects.lines[0].en
        assert state.match is not None
        assert any(r.action == expected for r in state.match.deal.actions[-3:])  # type: ignore[union-attr]
        played += 1
    assert played > 100


def test_at_the_showdown_the_default_shows_where_the_old_default_mucked() -> None:
    state = _table()
    _until(state, _muck_or_show)
    assert default_action(state.legal_actions()).kind is ActionKind.SHOW
    actor = state.actor_slot()
    assert actor is not None
    effects = _apply(state, EventKind.ACTION, {"seat": actor, "auto": True})
    assert effects.lines[0].en.startswith(f"{NAMES[actor]}: Show")


class _Illegal:
    """A bot that always answers with a raise no table allows."""

    def __init__(self) -> None:
        self.asked = 0

    def act(self, view: SeatView) -> Action:
        self.asked += 1
        return Action(ActionKind.RAISE, 10**6)


def test_a_bot_answering_illegally_gets_the_default_action() -> None:
    state = _table()
    _apply(state, EventKind.DEAL, {"seed": 3})
    bot = _Illegal()
    for _ in range(5):
        actor = state.actor_slot()
        if actor is None:
            break
        view = state.view(actor)
        assert view is not None
        effects = _apply(state, EventKind.ACTION, bot_payload(actor, bot.act(view)))
        assert effects.refused is not None and "raise" in effects.refused
        assert "(automatic)" in effects.lines[0].en
    assert bot.asked >= 1


def test_a_bot_playing_legally_is_recorded_as_its_own_move() -> None:
    class Checker:
        def act(self, view: SeatView) -> Action:
            return default_action(view.legal_actions)

    state = _table()
    _apply(state, EventKind.DEAL, {"seed": 3})
    actor = state.actor_slot()
    assert actor is not None
    view = state.view(actor)
    assert view is not None
    effects = _apply(state, EventKind.ACTION, bot_payload(actor, Checker().act(view)))
    assert effects.refused is None and effects.record["bot"]["kind"] in ("check", "pass", "decline")
    assert "(automatic)" not in effects.lines[0].en


def test_public_state_holds_no_hidden_card_while_seats_are_dealt_in() -> None:
    state = _table()
    _apply(state, EventKind.DEAL, {"seed": 8})
    match = state.match
    assert match is not None and match.deal is not None
    for _ in range(40):
        if match.phase is not MatchPhase.IN_DEAL or match.deal.phase is Phase.SHOWDOWN:
            break
        public = state.public_view()
        assert isinstance(public, PublicView) and not hasattr(public, "hand")
        part = public_state(
            state, invite="i", connected={0}, clock=Clock(None, None), log=LogText()
        )
        text = part.table + part.before_seats + "".join(part.seat_texts) + part.after_legal
        for entry in part.seats:
            assert entry["cards"] is None and entry["cards_label"] is None
        for hand in match.deal.hands:
            for card in hand:
                assert f'"{card}"' not in text
        # Each seat still sees its own cards, and only those.
        for seat in range(3):
            seats = json.loads(state_text(part, seat, host=False))["state"]["seats"]
            own = state.view(seat)
            assert own is not None
            assert seats[seat]["cards"] == ([str(c) for c in own.hand] if own.hand else None)
            assert all(s["cards"] is None for i, s in enumerate(seats) if i != seat)
        _apply(state, EventKind.ACTION, _passive(state, random.Random(0)))


def test_a_newcomer_with_a_departed_players_name_gets_a_new_player_id() -> None:
    state = _table()
    _until(state, lambda s: s.hand == 1 and not s.in_deal)
    first = state.slots[1]
    assert first is not None and first.nickname == "Bruno"
    match = state.match
    assert match is not None and match.seat("Bruno").player_id == first.player
    assert match.completed[0].start.player_ids[1] == first.player
    _apply(state, EventKind.UNSEAT, {"seat": 1})
    _apply(state, EventKind.SEAT, {"seat": 1, "nickname": "Bruno", "bot": None})
    newcomer = state.slots[1]
    assert newcomer is not None and newcomer.player != first.player
    _apply(state, EventKind.DEAL, {"seed": 4})
    assert match.seat("Bruno").player_id == newcomer.player
    deal = match.deal
    assert deal is not None and newcomer.player in deal.start.player_ids
    assert first.player not in deal.start.player_ids
    assert state.hands_played(first.player) == [1]
    assert state.hands_played(newcomer.player) == []
    # The newcomer sits where their seat is: in table order between Anna and Carla.
    assert [s.name for s in match.seats] == ["Anna", "Bruno", "Carla"]


def _parol_then_a_newcomer() -> tuple[TableState, list[tuple[int, str, dict[str, Any]]]]:
    """Three players play to a parol (5.4(a)) at a four-seat table; a fourth sits down and
    the next deal is dealt. Returns the table and its log."""
    state = TableState("T", preset("standard", players=4), {"stack": 200, "seats": 4})
    events: list[tuple[int, str, dict[str, Any]]] = []

    def record(kind: EventKind, payload: dict[str, Any]) -> None:
        effects = _apply(state, kind, payload)
        events.append((state.seq, kind.value, json.loads(json.dumps(effects.record))))

    for seat in range(3):
        record(EventKind.SEAT, {"seat": seat, "nickname": NAMES[seat], "bot": None})
    record(EventKind.START, {})
    rng = random.Random(2)
    while True:
        match = state.match
        if match is not None and match.completed:
            if match.completed[-1].result.outcome is Outcome.PAROL:
                break
            assert len(match.completed) < 200, "no parol"
        actor = state.actor_slot()
        if actor is None:
            record(EventKind.DEAL, {"seed": rng.randrange(1 << 40)})
        elif any(o.kind is ActionKind.PAROL for o in state.legal_actions()):
            record(EventKind.ACTION, action_payload(actor, Action(ActionKind.PAROL), False))
        else:
            record(EventKind.ACTION, _passive(state, rng))
    record(EventKind.SEAT, {"seat": 3, "nickname": "Dino", "bot": None})
    record(EventKind.DEAL, {"seed": 77})
    return state, events


def _replayed(events: list[tuple[int, str, dict[str, Any]]]) -> TableState:
    state = TableState("T", preset("standard", players=4), {"stack": 200, "seats": 4})
    state.replay(events)
    return state


def test_parol_dues_survive_a_newcomer() -> None:
    state, events = _parol_then_a_newcomer()
    match = state.match
    assert match is not None
    # Players who stayed in the abandoned hand have paid toward the carried pot, by id: only
    # the newcomer owes (5.5). (The server used to seat everyone again under new ids at any
    # change of seats, and so asked every player for the whole stake again.)
    deal = match.deal
    assert match.phase is MatchPhase.IN_DEAL and deal is not None
    owed = dict(zip(deal.start.names, deal.start.makeups, strict=True))
    assert owed == {"Anna": 0, "Bruno": 0, "Carla": 0, "Dino": owed["Dino"]} and owed["Dino"] > 0
    again = _replayed(events)
    same = public_state(again, invite="i", connected=set(), clock=Clock(None, None), log=LogText())
    live = public_state(state, invite="i", connected=set(), clock=Clock(None, None), log=LogText())
    assert same.seat_texts == live.seat_texts and same.before_seats == live.before_seats


def test_a_live_bot_answering_illegally_is_played_the_default(settings: ServerSettings) -> None:
    """Through the runtime: the bot's turn goes through the driver, whose default action is
    played for it and narrated as automatic (the game goes on)."""
    with TestClient(create_app(settings, lambda level, seed: _Illegal())) as client:
        table = create_table(client)
        invite, host = table["invite"], bearer(table["host_token"])
        added = client.post(f"/api/tables/{invite}/bots", json={"level": "simple"}, headers=host)
        assert added.status_code == 201, added.text
        with connect(client, invite, "") as ws:
            hello(ws, table["player_token"])
            assert client.post(f"/api/tables/{invite}/start", headers=host).status_code == 200
            said = state_where(
                ws, lambda m: any("(automatic)" in e["en"] for e in m["state"]["events"])
            )
            automatic = [e for e in said["state"]["events"] if "(automatic)" in e["en"]]
            assert automatic[0]["en"].startswith(added.json()["nickname"])
            assert automatic[0]["seq"] <= said["seq"]


def test_a_newcomer_does_not_inherit_the_button_by_a_departed_players_name() -> None:
    state = _table(players=3)
    _until(state, lambda s: s.hand == 1 and not s.in_deal)
    match = state.match
    assert match is not None
    holder = match.dealer_name
    for seat in range(3):
        _apply(state, EventKind.UNSEAT, {"seat": seat})
    _apply(state, EventKind.SEAT, {"seat": 0, "nickname": "Zoe", "bot": None})
    _apply(state, EventKind.SEAT, {"seat": 2, "nickname": holder, "bot": None})
    _apply(state, EventKind.DEAL, {"seed": 5})
    deal = match.deal
    assert deal is not None
    # The emptied table's button goes to the first seat taken in table order (Zoe's); the
    # deal begins from there, whatever the newcomer in seat 3 is called.
    assert deal.start.names == ("Zoe", holder)
    assert deal.start.names[deal.start.dealer] == "Zoe"


def _parol_with_a_folder_then_a_newcomer() -> TableState:
    """Three players play to a parol in which Carla folded in the first round (so the next
    deal asks her the 5.5 question); Dino sits down and the next deal is called: the table is
    asking the make-up questions."""
    state = _parol_with_a_folder()
    _apply(state, EventKind.SEAT, {"seat": 3, "nickname": "Dino", "bot": None})
    _apply(state, EventKind.DEAL, {"seed": 77})
    assert state.match is not None and state.match.phase is MatchPhase.MAKE_UP
    return state


def _parol_with_a_folder() -> TableState:
    """Three players (of four seats) play to a parol in which Carla folded in the first round,
    so that the next deal asks her the 5.5 question."""
    state = TableState("T", preset("standard", players=4), {"stack": 200, "seats": 4})
    for seat in range(3):
        _apply(state, EventKind.SEAT, {"seat": seat, "nickname": NAMES[seat], "bot": None})
    _apply(state, EventKind.START, {})
    rng = random.Random(5)
    while True:
        match = state.match
        if match is not None and match.completed:
            last = match.completed[-1]
            folded = any(a.action.kind is ActionKind.FOLD for a in last.actions)
            if last.result.outcome is Outcome.PAROL and folded:
                break
            assert len(match.completed) < 300, "no parol with a folder"
        actor = state.actor_slot()
        if actor is None:
            _apply(state, EventKind.DEAL, {"seed": rng.randrange(1 << 40)})
            continue
        kinds = {o.kind for o in state.legal_actions()}
        if ActionKind.PAROL in kinds:
            move = action_payload(actor, Action(ActionKind.PAROL), False)
        elif actor == 2 and {ActionKind.FOLD, ActionKind.CALL} <= kinds:
            move = action_payload(actor, Action(ActionKind.FOLD), False)
        else:
            move = _passive(state, rng)
        _apply(state, EventKind.ACTION, move)
    return state


def test_a_player_kicked_while_the_make_up_questions_are_asked_leaves_after_the_deal() -> None:
    """The host removes a newcomer while the 5.5 questions are asked: refused before ("players
    leave only between deals"); now the seat is emptied when the deal ends, as for a player
    removed during a deal, and the player is answered for meanwhile."""
    state = _parol_with_a_folder_then_a_newcomer()
    effects = _apply(state, EventKind.UNSEAT, {"seat": 3})
    assert [line.en for line in effects.lines] == ["Dino leaves the table after this deal"]
    assert state.slots[3] is not None and state.slots[3].leaving
    cashed: list[Any] = []
    for _ in range(200):
        match = state.match
        assert match is not None
        if match.phase is MatchPhase.BETWEEN_DEALS:
            break
        actor = state.actor_slot()
        assert actor is not None
        # Everyone's turn runs out (an action event without a kind: the driver's default).
        effects = _apply(state, EventKind.ACTION, {"seat": actor})
        cashed.extend(e for e in effects.ledger if e.kind == "cash_out")
    else:
        raise AssertionError("the deal never ended")
    assert state.slots[3] is None
    assert [e.nickname for e in cashed] == ["Dino"]
    assert "Dino" not in [s.name for s in state.match.seats]


def test_no_deal_after_the_make_up_answers_settles_nothing_again() -> None:
    """5.5: Bruno sits out after the parol, the next deal asks Carla her make-up and the host
    removes her meanwhile. Her turn runs out (she sits out), which leaves Anna alone: no deal,
    the pot stays carried, and Carla, who was to leave when the deal ended, leaves now with
    her chips. The table used to settle the parol deal a second time here: its report again
    in the log and its result rows again in the ledger (the match's state was read instead
    of the driver's ``NoDeal``)."""
    state = _parol_with_a_folder()
    _apply(state, EventKind.SIT_OUT, {"seat": 1})
    _apply(state, EventKind.DEAL, {"seed": 78})
    match = state.match
    assert match is not None and match.phase is MatchPhase.MAKE_UP and match.actor == "Carla"
    carried = match.carried
    chips = match.seat("Carla").stack
    effects = _apply(state, EventKind.UNSEAT, {"seat": 2})
    assert [line.en for line in effects.lines] == ["Carla leaves the table after this deal"]
    effects = _apply(state, EventKind.ACTION, {"seat": 2})  # her turn runs out: she sits out
    assert [line.en for line in effects.lines] == [
        "Carla: Sit out (automatic)",
        "After the make-up answers fewer than two players can be dealt in (5.5): no deal; "
        f"the pot of {match.carried} waits for the next.",
        "Carla leaves the table",
    ]
    # Anna alone can be dealt in: the match waits (over until Bruno sits in), pot carried.
    assert match.phase is MatchPhase.OVER and match.carried == carried > 0
    assert state.slots[2] is None and "Carla" not in [s.name for s in match.seats]
    assert [(e.nickname, e.kind, e.amount) for e in effects.ledger] == [
        ("Carla", "cash_out", chips)
    ]
    assert not state.in_deal and state.actor_slot() is None
    _apply(state, EventKind.SIT_IN, {"seat": 1})
    _apply(state, EventKind.DEAL, {"seed": 79})
    assert match.phase is MatchPhase.IN_DEAL and match.deal is not None
    assert match.deal.start.names == ("Anna", "Bruno") and match.deal.start.carried == carried


def test_the_table_says_what_opens_under_a_house_ladder() -> None:
    """After three deals nobody opened under the J-Q-K-two-pair ladder (a house option of
    3.5), the table tells its players that two pair opens, as the engine requires."""
    rules = preset("standard", players=3, escalation="j-q-k-two-pair")
    state = TableState("T", rules, {"stack": 200, "seats": 3})
    for seat in range(3):
        _apply(state, EventKind.SEAT, {"seat": seat, "nickname": NAMES[seat], "bot": None})
    _apply(state, EventKind.START, {})
    said = []
    for seed in range(3):
        _apply(state, EventKind.DEAL, {"seed": seed})
        while (actor := state.actor_slot()) is not None:
            kinds = {option.kind for option in state.legal_actions()}
            kind = next(
                k for k in (ActionKind.PASS, ActionKind.DECLINE, ActionKind.CHECK) if k in kinds
            )
            _apply(state, EventKind.ACTION, action_payload(actor, Action(kind), False))
        said.append(state.requirement().describe("en"))
    assert said[-1].startswith("Two pair")
    match = state.match
    assert match is not None and state.requirement() == match.requirement
