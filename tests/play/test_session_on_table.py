"""One table layer: the terminal game's Session drives the table machine (table/machine.py).
Its bots' choices go to the machine, the machine's default action replaces an
illegal answer, a human who is not dealt in sees the observer's public view, the 4.4 split is
the engine's, and seeded games play exactly as they did before the session ran on a table
layer (the expected digests were taken with the session of commit 5baabfb), but for the
automatic show: where showing is the only legal action the table shows at once (5.4), and
the shows it played after a decision are in the transcript after it (``Session.shows``);
with ``forced_action`` answering None these games gave the earlier digests exactly, and the
games differ from the first automatic show on (the bots' and the human's random choices
come in another order)."""

from __future__ import annotations

import dataclasses
import hashlib
import random
import re
from collections.abc import Iterator
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from test_play_session import (
    FOLDER,
    FULL_DEAL_HANDS,
    FULL_DEAL_STOCK,
    NAMES,
    OPENER,
    PAROL_SAYER,
    Scripted,
    Stubborn,
    deck,
    fold_into_a_parol,
    new_session,
    session_at_human_draw,
)
from textual.widgets import Static

import italian_poker.play.session as session_module
from italian_poker.analysis.bots import make_bot
from italian_poker.engine.actions import AMOUNT_KINDS, Action, ActionKind, LegalAction
from italian_poker.engine.cards import parse_cards
from italian_poker.engine.deal import Outcome, Phase
from italian_poker.engine.errors import IllegalActionError
from italian_poker.engine.observer import PUBLIC, PublicView, SeatView, observe
from italian_poker.engine.policy import Policy
from italian_poker.engine.rules import preset
from italian_poker.play.app import PokerApp
from italian_poker.play.session import (
    Session,
    SessionState,
    breaks_opening,
    default_stack,
)
from italian_poker.play.storage import HistoryStore
from italian_poker.play.widgets import SeatBox
from italian_poker.table.commands import Act, BotAct, Command, StartDeal
from italian_poker.table.defaults import DefaultReason, default_action
from italian_poker.table.events import OverReason, SessionSummary
from italian_poker.table.machine import TableMachine
from italian_poker.table.machine_events import ActionTaken, Defaulted, TableEvent

K = ActionKind
SRC = Path(__file__).resolve().parents[2] / "src" / "italian_poker"


# --- the session drives the table machine ----------------------------------------------------


def test_the_session_drives_a_table_machine() -> None:
    session, bots = new_session()
    assert isinstance(session.machine, TableMachine)
    assert session.match is session.machine.match
    assert session.bots == bots and "Player" not in session.bots  # the human acts through Act
    assert [s.player for s in session.machine.seats] == [session.player_id(n) for n in NAMES]


def test_bot_steps_and_human_actions_are_commands_to_the_machine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    commands: list[Command] = []
    original = TableMachine.handle

    def spy(self: TableMachine, command: Command) -> list[TableEvent]:
        commands.append(command)
        return original(self, command)

    monkeypatch.setattr(TableMachine, "handle", spy)
    session, _ = new_session()
    session.start_deal(deck=deck(FULL_DEAL_HANDS, FULL_DEAL_STOCK))
    session.act(Action(K.DECLINE))
    session.act(Action(K.PASS))
    session.step()
    session.play_bots()
    kinds = [type(c) for c in commands]
    assert kinds[:4] == [StartDeal, Act, Act, BotAct] and set(kinds[4:]) == {BotAct}
    assert all(c.player == 0 for c in commands[1:3] if isinstance(c, Act))


def test_a_bot_answering_illegally_gets_the_machines_default_action(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bots: dict[str, Policy] = {
        "Anna": Stubborn(Action(K.RAISE, 999)),
        "Bruno": Scripted(),
        "Carla": Scripted(),
    }
    session = Session(preset("standard"), NAMES, "Player", bots, stack=100, seed=1)
    session.start_deal(deck=deck(FULL_DEAL_HANDS))
    session.act(Action(K.DECLINE))  # the blind declined
    session.act(Action(K.PASS))
    legal = session.match.legal_actions()
    seen: list[TableEvent] = []
    original = TableMachine.handle

    def recording(self: TableMachine, command: Command) -> list[TableEvent]:
        events = original(self, command)
        seen.extend(events)
        return events

    monkeypatch.setattr(TableMachine, "handle", recording)
    event = session.step()
    assert event.player == "Anna" and event.kind is default_action(legal).kind is K.PASS
    assert event.bot_error is not None and event.bot_error.startswith("raise 999: ")
    (taken,) = [e for e in seen if isinstance(e, ActionTaken)]
    assert taken.default is DefaultReason.ILLEGAL and taken.refused == event.bot_error
    assert taken.action == Action(K.PASS) and taken.player == session.player_id("Anna")
    assert Defaulted(taken.player, DefaultReason.ILLEGAL) in seen


def test_an_illegal_make_up_answer_sits_the_bot_out_with_the_error() -> None:
    # The human opens, Anna folds, everyone else says parol (5.4(a)): Anna owes the opening
    # she did not match before she may play the next deal (5.5).
    session, _ = new_session({"Anna": FOLDER, "Bruno": PAROL_SAYER, "Carla": PAROL_SAYER})
    session.start_deal(deck=deck({0: "Ah Ad 7d 8d 9h", 1: "7h 8c 9d Qs Kc"}))
    session.act(Action(K.DECLINE))
    session.play_bots()
    session.act(Action(K.OPEN, 1))
    while session.state is not SessionState.BETWEEN_DEALS:
        if session.state is SessionState.BOT_TURN:
            session.play_bots()
            continue
        kinds = {la.kind for la in session.legal_actions()}
        session.act(Action(K.PAROL) if K.PAROL in kinds else session.draw_action([]))
    assert session.finished[-1].outcome is Outcome.PAROL
    session.bots["Anna"] = Stubborn(Action(K.RAISE, 5))
    session.start_deal()
    assert session.actor == "Anna" and session.state is SessionState.BOT_TURN
    event = session.step()
    assert event.player == "Anna" and event.kind is K.SIT_OUT and event.amount is None
    assert event.bot_error is not None and event.bot_error.startswith("raise 5: ")


def test_no_fallback_order_of_its_own_is_left() -> None:
    for path in SRC.rglob("*.py"):
        assert "_FALLBACK_ORDER" not in path.read_text(encoding="utf-8"), path
    assert not hasattr(session_module, "_FALLBACK_ORDER")
    legal = (LegalAction(K.SHOW), LegalAction(K.MUCK))
    assert default_action(legal) == Action(K.SHOW)


# --- what the human sees when not dealt in ----------------------------------------------------


def sat_out_session() -> Session:
    """The human folded into a parol deal and sits the next deal out (5.5); the bots play
    it. Returned at the first bot decision of that deal."""
    prefer = {"Anna": OPENER, "Bruno": PAROL_SAYER, "Carla": PAROL_SAYER}
    session, bots = new_session(prefer)
    bots["Anna"].discard = 2
    fold_into_a_parol(session)
    # Three dealt in, each with kings or better (5.5): Anna opens, whoever speaks first.
    hands = {0: "Kh Kd 8c 9h Ts", 1: "Ks Kc 8d 9d Js", 2: "Ah Ad 8h 9c Qs"}
    session.start_deal(deck=deck(hands, players=3))
    session.act(Action(K.SIT_OUT))
    assert not session.human_in_deal and session.state is SessionState.BOT_TURN
    return session


def test_a_spectator_table_view_is_the_observers_public_view() -> None:
    session = sat_out_session()
    while session.state is SessionState.BOT_TURN:
        view = session.table_view()
        deal = session.match.deal
        assert deal is not None
        assert isinstance(view, PublicView) and view == observe(deal, PUBLIC)
        for hidden in ("hand", "legal_actions", "kept_apart", "seat"):
            assert not hasattr(view, hidden)
        # Nobody's face-down discards (the standard rules do not put them face up).
        assert all(not a.discards for a in view.actions)
        event = session.step()
        assert not event.discards  # the human saw no bot's discards either
    assert any(a.kind is K.DRAW and a.cards_changed for a in view.actions)
    finished = session.finished[-1]
    assert not finished.human_in_deal
    assert isinstance(finished.view, PublicView)  # the observer's: no hidden field at all
    assert all(not a.discards for a in finished.view.actions)
    assert finished.view == session.table_view()


def plain(app: PokerApp, selector: str) -> str:
    content = app.table.query_one(selector, Static).content
    return content.plain if isinstance(content, Text) else str(content)


async def test_the_app_draws_the_table_for_a_human_who_sits_out() -> None:
    session = sat_out_session()
    app = PokerApp(session, delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert "not in this deal" in plain(app, "#hand-info")
        assert "Pot" in plain(app, "#centre")
        seats = [box for box in app.table.query(SeatBox) if box.name == "Anna"]
        assert seats and "Anna" in str(seats[0].border_title)
        assert len(session.finished) == 2 and not session.finished[1].human_in_deal
        assert "Everyone said parol" in plain(app, "#report")


async def test_the_app_draws_the_table_for_a_human_who_busted() -> None:
    rules = preset("standard", players=3)
    names = ("Player", "Anna", "Bruno")
    bots: dict[str, Policy] = {n: make_bot("simple", seed=i) for i, n in enumerate(names[1:])}
    session = Session(rules, names, "Player", bots, stack=3, seed=4)
    while session.state is not SessionState.OVER:
        if session.state is SessionState.BETWEEN_DEALS:
            session.start_deal()
        elif session.state is SessionState.BOT_TURN:
            session.play_bots()
        else:
            legal = session.legal_actions()
            calls = [la for la in legal if la.kind is K.CALL]
            session.act(Action(K.CALL) if calls else default_action(legal))
    assert session.over_reason is OverReason.HUMAN_BUSTED
    app = PokerApp(session, delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert "Pot" in plain(app, "#centre")
        assert "over" in plain(app, "#prompt").lower()


# --- the 4.4 split is the engine's ------------------------------------------------------------


def discard_sets(hand: tuple[Any, ...]) -> Iterator[tuple[Any, ...]]:
    for many in range(5):
        yield from combinations(hand, many)


def test_breaks_opening_is_the_offered_draws_answer() -> None:
    session = session_at_human_draw()
    view = session.human_view()
    assert view is not None and view.opener == view.seat == 0
    (draw,) = [la for la in view.legal_actions if la.kind is K.DRAW]
    assert draw.split_unless_kept is not None
    for discards in discard_sets(view.hand):
        assert breaks_opening(view, discards) == draw.breaks_opening(discards)
    assert breaks_opening(view, parse_cards("Jh"))
    assert not breaks_opening(view, parse_cards("8c 9s Ac"))


def test_breaks_opening_before_the_turn_agrees_with_the_draw_offered_later() -> None:
    session, _ = new_session()
    session.start_deal(deck=deck(FULL_DEAL_HANDS, FULL_DEAL_STOCK))
    session.act(Action(K.DECLINE))
    session.play_bots()
    session.act(Action(K.OPEN, 1))
    early = session.human_view()  # the opener, before the others have called
    assert early is not None and early.opener == 0 and not early.legal_actions
    answers = {d: breaks_opening(early, d) for d in discard_sets(early.hand)}
    session.play_bots()
    view = session.human_view()
    assert view is not None and view.phase is Phase.DRAW
    (draw,) = [la for la in view.legal_actions if la.kind is K.DRAW]
    assert answers == {d: draw.breaks_opening(d) for d in discard_sets(view.hand)}
    session.act(session.draw_action([2, 3]))
    after = session.human_view()
    assert after is not None and not breaks_opening(after, after.hand[:1])  # drawn already


def test_breaks_opening_is_false_for_anyone_but_the_opener() -> None:
    session, _ = new_session({"Anna": OPENER})
    session.start_deal(deck=deck(FULL_DEAL_HANDS, FULL_DEAL_STOCK))
    session.act(Action(K.DECLINE))
    session.play_bots()
    session.act(Action(K.PASS))
    session.play_bots()  # Anna opens
    session.act(Action(K.CALL))
    session.play_bots()
    view = session.human_view()
    assert view is not None and view.opener == 1 and view.phase is Phase.DRAW
    assert not any(breaks_opening(view, d) for d in discard_sets(view.hand))


# --- seeded games play as before --------------------------------------------------------------


@dataclasses.dataclass
class Erratic:
    """A bot that now and then answers with something the rules refuse."""

    inner: Policy
    rng: random.Random

    def act(self, view: SeatView) -> Action:
        roll = self.rng.random()
        if roll < 0.1:
            return Action(K.RAISE, 10**6)
        if roll < 0.15:
            return Action(K.OPEN, 0)
        return self.inner.act(view)


def seat_part(view: SeatView | PublicView | None) -> str:
    """A view in plain values (cards as text): stable across changes to the engine's types."""
    if view is None:
        return "None"
    actions = [
        (a.seat, a.kind.value, a.amount, a.cards_changed, " ".join(map(str, a.discards)))
        for a in view.actions
    ]
    shown = {seat: " ".join(map(str, cards)) for seat, cards in view.shown.items()}
    plain = (
        view.names,
        view.phase.value,
        view.dealer,
        view.actor,
        view.stacks,
        view.round_bets,
        view.committed,
        view.pot,
        view.current_bet,
        view.folded,
        view.cards_held,
        view.cards_changed,
        shown,
        view.opener,
        view.blinders,
        view.parols,
        view.checked,
        actions,
        " ".join(map(str, view.proof)),
        str(view.requirement.min_pair),
    )
    if isinstance(view, PublicView):
        return repr(plain)
    hand = " ".join(map(str, view.hand))
    kept = " ".join(map(str, view.kept_apart))
    return f"{view.seat} {hand} | {kept} | {plain!r}"


def public_part(view: SeatView | PublicView | None) -> str:
    """The part of a view any viewer has (a spectator's view was a seat view before)."""
    if view is None:
        return "None"
    if isinstance(view, SeatView):
        view = PublicView(**{f.name: getattr(view, f.name) for f in dataclasses.fields(PublicView)})
    return seat_part(view)


def finished_part(view: SeatView | PublicView) -> str:
    """A finished deal's view as the pinned transcripts wrote it: a deal the human watched
    was reported through seat 0's stripped seat view (no hand, nothing kept apart), now the
    observer's public view, whose fields are the same values."""
    if isinstance(view, SeatView):
        return seat_part(view)
    return f"0  |  | {seat_part(view)}"


Game = tuple[int, str, int, str, int | None, bool]
"""Seed, rules preset, players, bot level, stack (None: the default), whether the human
folds whenever possible."""


STEPS = 5000
"""A game stops after this many steps: a human who sits out every 5.5 make-up, at a table
whose bots do too, is asked again at each start, and no deal comes."""


def transcript(game: Game, root: Path) -> tuple[list[str], SessionSummary]:
    """A seeded game: a random human (or one who folds whenever possible, then sits out the
    5.5 make-ups), erratic bots, up to 20 deals; every event, view, finished deal, hand
    history and the summary, as text."""
    seed, rules_name, players, level, stack, folder = game
    rules = preset(rules_name, players=players)
    names = ["Player", *(f"Bot{i}" for i in range(1, players))]
    bots: dict[str, Policy] = {
        name: Erratic(make_bot(level, seed=seed * 100 + i), random.Random(seed * 7 + i))
        for i, name in enumerate(names[1:], start=1)
    }
    session = Session(
        rules,
        names,
        "Player",
        bots,
        stack=stack or default_stack(rules),
        seed=seed,
        store=HistoryStore(root),
    )
    rng = random.Random(seed)
    out: list[str] = []
    reported = 0
    steps = 0
    while len(session.finished) < 20 and steps < STEPS:
        steps += 1
        state = session.state.value
        if state == "over":
            break
        if state == "between-deals":
            session.start_deal()
            out.append(f"start {session.deal_number} {session.state.value}")
            continue
        if state == "bot-turn":
            if rng.random() < 0.5:
                out.append(repr(session.step()))
                out.extend(repr(e) for e in session.shows)
            else:
                out.extend(repr(e) for e in session.play_bots())
        else:
            view = session.human_view()
            out.append(f"human {seat_part(view)}")
            legal = session.legal_actions()
            kinds = {la.kind for la in legal}
            choice = rng.choice(legal)
            if folder and K.FOLD in kinds:
                choice = next(la for la in legal if la.kind is K.FOLD)
            if K.SIT_OUT in kinds:
                choice = next(la for la in legal if la.kind is K.SIT_OUT)
            if choice.kind is K.DRAW:
                assert view is not None
                many = rng.randint(0, min(4, len(view.hand)))
                action = session.draw_action(rng.sample(range(len(view.hand)), many))
            elif choice.kind in AMOUNT_KINDS and choice.min_amount is not None:
                assert choice.max_amount is not None
                action = Action(choice.kind, rng.randint(choice.min_amount, choice.max_amount))
            else:
                action = Action(choice.kind)
            out.append(f"act {action!r}")
            try:
                out.append(repr(session.act(action)))
            except IllegalActionError as error:
                out.append(f"refused {type(error).__name__} {error}")
                out.append(repr(session.act(session.draw_action([]))))
            out.extend(repr(e) for e in session.shows)
        out.append(f"table {public_part(session.table_view())}")
        while reported < len(session.finished):
            finished = session.finished[reported]
            reported += 1
            path = finished.history_path
            text = path.read_text(encoding="utf-8") if path is not None else None
            out.append(
                f"finished {finished.number} {finished.human_in_deal} "
                f"{finished.next_requirement.min_pair} {finished.save_error!r} "
                f"{path.name if path else None} {finished_part(finished.view)}"
            )
            out.append(f"history {text}")
    summary = dataclasses.replace(session.summary(), histories=None)
    out.append(f"summary {summary!r}")
    return out, summary


GAMES: dict[Game, str] = {
    (1, "standard", 4, "strong", None, False): (
        "81ccd0f4bc3dde9089d92100e9c5c94ffc0f17692a516d332d39557a5124c3be"
    ),
    (2, "003", 3, "random", None, False): (
        "30ad7dda5ec3becde071a9be329dc53bf14ae95fce39967850c64c7c3bae8455"
    ),
    (3, "fantini", 5, "simple", 12, False): (
        "147b0686ca6399e90a148c21571155002fb4e2be24a3952b2e789ca6445a14bd"
    ),
    (4, "001", 6, "random", None, False): (
        "f41a7e8a6c9dbe7dc8d007244c27c28371520f3994e902110c04aab8b1e90578"
    ),
    (5, "002", 2, "strong", 30, False): (
        "400132327b683708bdab824ce61ab89e17d9d89837554c37f822265d3a9fdbda"
    ),
    (6, "standard", 9, "random", None, False): (
        "6ffd35119d773950504df1eafa225e55d834df4fce55bcc0be130f1f45083737"
    ),
    (29, "standard", 4, "random", None, True): (
        "f2b58cdfadaa7a6803adf59e69b704d27e54fd68adfd662b26ea75b0dc5c21a7"
    ),
    (2, "standard", 4, "random", None, True): (
        "06a2928ace7a143680799417c1a261dd6d00d89b0504f1721eda3fe76c49eb63"
    ),
}
"""Each game's transcript digest: the saved transcript of the seeded session, pinned."""

SUMMARIES: dict[Game, tuple[object, ...]] = {
    (1, "standard", 4, "strong", None, False): (20, 18, 1, 1, (114, 255, 243, 188), None, 25, 0),
    (2, "003", 3, "random", None, False): (5, 4, 0, 1, (195, 185, 200), None, 4, 0),
    (3, "fantini", 5, "simple", 12, False): (4, 3, 1, 0, (0, 18, 20, 4, 13), "human-busted", 9, 0),
    (4, "001", 6, "random", None, False): (
        20,
        13,
        6,
        1,
        (398, 306, 251, 527, 376, 542),
        None,
        37,
        1,
    ),
    (5, "002", 2, "strong", 30, False): (20, 15, 4, 1, (36, 24), None, 3, 0),
    (6, "standard", 9, "random", None, False): (
        20,
        14,
        6,
        0,
        (92, 443, 115, 91, 174, 75, 61, 91, 649),
        None,
        58,
        0,
    ),
    (29, "standard", 4, "random", None, True): (20, 12, 7, 1, (124, 111, 304, 261), None, 18, 1),
    (2, "standard", 4, "random", None, True): (20, 14, 5, 1, (160, 195, 215, 230), None, 21, 1),
}
"""Each game in plain numbers: deals, won, passed, parol, the chips each
player ended with, why it was over; bot errors and deals the human watched."""


def plain_numbers(lines: list[str], summary: SessionSummary) -> tuple[object, ...]:
    errors = sum("bot_error='" in line for line in lines)
    watched = sum(line.startswith("finished ") and line.split()[2] == "False" for line in lines)
    return (
        summary.deals,
        summary.won,
        summary.passed,
        summary.parol,
        tuple(p.end for p in summary.players),
        None if summary.over is None else summary.over.value,
        errors,
        watched,
    )


@pytest.mark.parametrize("game", list(GAMES), ids=lambda g: "-".join(map(str, g)))
def test_a_seeded_game_plays_as_before_the_driver(game: Game, tmp_path: Path) -> None:
    lines, summary = transcript(game, tmp_path)
    assert plain_numbers(lines, summary) == SUMMARIES[game]
    assert any(re.search(r"added=\d", line) for line in lines)
    digest = hashlib.sha256("\n".join(lines).encode()).hexdigest()
    assert digest == GAMES[game]
