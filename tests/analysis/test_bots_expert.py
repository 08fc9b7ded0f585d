"""The expert bot (issue 15): legal play under every preset and house rule, determinism, the
view alone, the worlds it rebuilds, and the level offered by the terminal game and the server."""

from __future__ import annotations

import asyncio
import random
import threading

import pytest
from fastapi.testclient import TestClient
from server_fixtures import bearer, create_table
from test_bots import bot_actions, hidden_variants
from typer.testing import CliRunner

from italian_poker import Match, preset
from italian_poker.analysis.bots import BotLevel, ExpertPolicy, bot_level, expert, make_bot
from italian_poker.analysis.bots.expert import (
    World,
    _search,
    margin,
    reading_weight,
    sample_world,
    world_weight,
)
from italian_poker.analysis.bots.styles import READ_FLOOR, STRONG_ONLY
from italian_poker.analysis.simulation import simulate
from italian_poker.cli.app import app
from italian_poker.engine.actions import Action, ActionKind
from italian_poker.engine.card_source import StackedSource
from italian_poker.engine.deal import Deal, DealStart, Phase
from italian_poker.engine.deck import stripped_deck
from italian_poker.engine.observer import SeatView, seat_view
from italian_poker.engine.rules import BettingStructure, Rules
from italian_poker.server import bots as server_bots
from italian_poker.server.i18n import page_strings
from italian_poker.server.schemas.host import BOT_LEVELS
from italian_poker.table.vocabulary import Language

SEARCHED = (Phase.OPENING, Phase.FIRST_ROUND, Phase.DRAW, Phase.SECOND_ROUND)


def test_expert_is_a_level() -> None:
    assert bot_level("Expert") is BotLevel.EXPERT
    assert isinstance(make_bot("expert", seed=1), ExpertPolicy)


@pytest.mark.parametrize("name", ["standard", "001", "002", "003", "fantini"])
def test_expert_plays_legally_under_every_preset(name: str) -> None:
    """An expert against strong and simple bots: the table never had to replace its choice
    by a default (every action offered, amounts in range), and chips are conserved."""
    report = simulate(
        6, 4, seed=3, rules=preset(name), stack=60, bots=["expert", "strong", "simple", "expert"]
    )
    assert report.hands == 6 and report.conserved
    assert report.counts.defaults == 0


@pytest.mark.parametrize(
    "changes",
    [
        {"structure": BettingStructure.NO_LIMIT},
        {"structure": BettingStructure.POT_LIMIT, "raise_cap": 2},
        {"structure": BettingStructure.FIXED_LIMIT, "second_round_doubled": True},
        {
            "opener_may_split": False,
            "parol_allowed": False,
            "blind_allowed": False,
            "controbuio_allowed": False,
            "over_allowed": False,
        },
        {"discards_face_up": True, "dealer_ante": 1},
    ],
)
def test_expert_plays_legally_under_house_rules(changes: dict[str, object]) -> None:
    """House-rule options (structures, caps, no split (4.4), no parol (5.2(c)), no blinds
    (Art. 2), face-up discards and a dealer's ante (003)); small stacks for all-ins."""
    rules = preset("standard", **changes)
    for players in (2, 5):
        bots = ["expert", *["strong"] * (players - 1)]
        report = simulate(4, players, seed=9, rules=rules, stack=25, bots=bots)
        assert report.hands == 4 and report.conserved
        assert report.counts.defaults == 0


def play(seed: int, deals: int, rules: Rules) -> list[str]:
    names = ["A", "B", "C"]
    bots = {
        n: make_bot("expert" if n == "A" else "strong", seed=seed + i) for i, n in enumerate(names)
    }
    match = Match(rules.with_options(players=3), [(n, 100) for n in names])
    log = []
    for deal in range(deals):
        match.start_deal(seed=seed * 100 + deal)
        while (actor := match.actor) is not None:
            action = bots[actor].act(match.view(actor))
            log.append(f"{actor} {action}")
            match.apply(action, actor)
    return log


def test_seeded_expert_is_deterministic() -> None:
    first = play(5, 4, Rules())
    assert first == play(5, 4, Rules())


@pytest.mark.parametrize("seed", [1, 2])
def test_expert_acts_alike_whatever_it_cannot_see(seed: int) -> None:
    """Decks that differ only in cards hidden from the expert's seat (the rivals' hands, the
    stock below its draw), the same seed: the same decisions."""
    runs = [bot_actions("expert", deck, 1) for deck in hidden_variants(1, seed)][:4]
    assert len(runs[0]) >= 2
    assert all(run == runs[0] for run in runs)


def views_of(rules: Rules, seed: int, deals: int) -> list[SeatView]:
    """The views of seat 0 at its searched decisions in a match of strong bots."""
    names = ["A", "B", "C", "D"]
    bots = {n: make_bot("strong", seed=seed + i) for i, n in enumerate(names)}
    match = Match(rules, [(n, 100) for n in names])
    found = []
    for deal in range(deals):
        match.start_deal(seed=seed + deal)
        while (actor := match.actor) is not None:
            view = match.view(actor)
            if actor == "A" and view.phase in SEARCHED and view.legal_actions:
                found.append(view)
            match.apply(bots[actor].act(view), actor)
    return found


@pytest.mark.parametrize("name", ["standard", "002", "fantini"])
def test_worlds_rebuild_the_view(name: str) -> None:
    """A sampled world, replayed by the engine, shows the seat exactly the view it came
    from: the same hand, actions, pot, stacks and legal actions; only hidden cards differ."""
    views = views_of(preset(name), 4, 12)
    rebuilt = 0
    for view in views:
        world = sample_world(view, random.Random(1), relaxed=False)
        if world is None:
            continue
        again = seat_view(world.rebuilt(), view.seat)
        assert again.legal_actions == view.legal_actions
        assert sorted(c.index for c in again.hand) == sorted(c.index for c in view.hand)
        assert again.actions == view.actions and again.pot == view.pot
        assert again.stacks == view.stacks and again.phase is view.phase
        rebuilt += 1
    assert views and rebuilt >= 0.9 * len(views)


def test_a_passed_deadline_stops_the_search_after_one_world() -> None:
    """A live expert's time limit: once the deadline has passed, the search plays the world
    it began and no other, every candidate on that same world."""
    plain = (ActionKind.FOLD, ActionKind.CALL, ActionKind.CHECK, ActionKind.PASS)
    for view in views_of(Rules(), 4, 6):
        candidates = [Action(la.kind) for la in view.legal_actions if la.kind in plain]
        if len(candidates) < 2:
            continue
        beliefs = {s: STRONG_ONLY for s in range(view.players) if s != view.seat}
        searched = _search(view, candidates, 20, 7, 0.0, beliefs)
        unlimited = _search(view, candidates, 20, 7, None, beliefs)
        if searched is None or unlimited is None:
            continue
        assert [len(r) for r in searched.results] == [1] * len(candidates)
        assert len(searched.weights) == 1
        assert all(len(r) > 1 for r in unlimited.results)
        return
    pytest.fail("no view with two plain actions to search")


def test_margin_grows_with_the_doubt_that_a_rival_plays_strong() -> None:
    """1.0 standard error where every rival in the hand reads as strong, 2.0 where one surely
    plays simple, in proportion between; the most doubtful rival sets it."""
    assert margin([STRONG_ONLY, STRONG_ONLY], 1.0, 2.0) == 1.0
    assert margin([STRONG_ONLY, (0.0, 1.0)], 1.0, 2.0) == 2.0
    assert margin([(0.75, 0.25), (0.5, 0.5)], 1.0, 2.0) == pytest.approx(1.5)
    assert margin([], 1.0, 2.0) == 1.0


@pytest.mark.parametrize(("learnt", "expected"), [(None, 1.0), ("simple", 2.0), ("strong", 1.0)])
def test_expert_asks_a_wider_margin_against_rivals_read_as_simple(
    monkeypatch: pytest.MonkeyPatch, learnt: str | None, expected: float
) -> None:
    """The book's beliefs set the margin the search's winner must clear: unknown rivals are
    as likely simple as strong (equal priors, 1.5), so the cases teach the book first."""
    used: list[float] = []
    chosen = expert._chosen

    def recorded(results: list[list[float]], weights: list[float], confidence: float) -> int:
        used.append(confidence)
        return chosen(results, weights, confidence)

    monkeypatch.setattr(expert, "_chosen", recorded)
    view = next(v for v in views_of(Rules(), 4, 6) if v.phase is Phase.FIRST_ROUND)
    policy = ExpertPolicy(random.Random(3), learn_styles=learnt is not None)
    if learnt is not None:
        evidence = [0.0, -40.0] if learnt == "strong" else [-40.0, 0.0]
        policy.book.evidence = {pid: list(evidence) for pid in view.player_ids}
    policy.act(view)
    assert used and all(c == pytest.approx(expected) for c in used)


def test_worlds_follow_the_reading() -> None:
    """3.3: a rival who opened holds the opening in every world (the engine checks it)."""
    for view in views_of(Rules(), 8, 12):
        opener = view.opener
        if opener is None or opener == view.seat or view.cards_changed[opener] is not None:
            continue
        world = sample_world(view, random.Random(2), relaxed=False)
        assert world is not None
        hand = world.rebuilt().hands[opener]
        assert view.requirement.is_met(hand, players=view.players)


def test_reading_weighs_the_true_cards_above_the_sampled_ones() -> None:
    """The rivals are strong bots: the world of the cards they really held explains what they
    did at least as well as the median sampled world, at nearly every decision after a rival
    bet, raised or called; every weight lies between READ_FLOOR per read action and 1."""
    rules = preset("standard")
    names = ("A", "B", "C", "D")
    decisions = above = 0
    for seed in range(24):
        order = list(stripped_deck(4).cards)
        random.Random(seed).shuffle(order)
        start = DealStart(rules=rules, names=names, stacks=(100,) * 4, dealer=seed % 4)
        deal = Deal(start, StackedSource(order))
        bots = [make_bot("strong", seed=seed * 10 + i) for i in range(4)]
        while (actor := deal.actor) is not None:
            view = seat_view(deal, actor)
            answered = any(
                a.seat != 0 and a.kind in (ActionKind.BET, ActionKind.RAISE, ActionKind.CALL)
                for a in view.actions
            )
            if actor == 0 and view.phase in SEARCHED and answered:
                true = reading_weight(
                    World(start, tuple(r.action for r in deal.actions), deck=tuple(order)), view
                )
                rng = random.Random(seed)
                sampled = [
                    reading_weight(world, view)
                    for world in (sample_world(view, rng, relaxed=False) for _ in range(15))
                    if world is not None
                ]
                read = sum(1 for a in view.actions if a.seat != 0 and not view.folded[a.seat])
                for weight in [true, *sampled]:
                    assert READ_FLOOR**read * 0.999 <= weight <= 1.0
                decisions += 1
                above += true >= sorted(sampled)[len(sampled) // 2]
            deal.apply(bots[actor].act(view), actor)
    assert decisions >= 10
    assert above >= 0.8 * decisions


# --- offered as a level -------------------------------------------------------------------


def test_terminal_game_offers_expert() -> None:
    result = CliRunner().invoke(app, ["play", "--help"])
    assert "expert" in result.output
    bad = CliRunner().invoke(app, ["play", "--bots", "wizard"])
    assert "expert" in bad.output


def test_words_for_the_level_in_both_languages() -> None:
    assert page_strings(Language.EN)["messages"]["level_expert"] == "expert"
    assert page_strings(Language.IT)["messages"]["level_expert"] == "esperto"
    assert "expert" in BOT_LEVELS


def test_server_seats_an_expert_and_decides_off_the_loop(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table with an expert bot plays on; its decisions run on a worker thread, not on the
    event loop's."""
    threads: list[bool] = []
    act = ExpertPolicy.act

    def watched(self: ExpertPolicy, view: SeatView) -> Action:
        try:
            asyncio.get_running_loop()
            threads.append(False)
        except RuntimeError:
            threads.append(threading.current_thread() is not threading.main_thread())
        return act(self, view)

    monkeypatch.setattr(ExpertPolicy, "act", watched)
    table = create_table(client, seats=2, stack=100)
    invite, host = table["invite"], bearer(table["host_token"])
    bot = client.post(f"/api/tables/{invite}/bots", json={"level": "expert"}, headers=host)
    assert bot.status_code == 201, bot.text
    lobby = client.get(f"/api/tables/{invite}").json()
    assert lobby["seats"][bot.json()["seat"]]["bot"] == "expert"
    assert client.post(f"/api/tables/{invite}/start", headers=host).status_code == 200
    for _ in range(100):
        if threads:
            break
        threading.Event().wait(0.05)
    assert threads and all(threads)
    assert "expert" in server_bots.OFF_LOOP_BOTS


def test_worlds_weighed_by_the_reading_alone_whatever_the_rejection_kept() -> None:
    """The rejection only says where worlds are looked for: weighed as the search weighs them
    (:func:`world_weight`: the reading divided by ``kept_odds``), the worlds it proposes give the
    same chance that a rival who passed and stayed in held the opening as worlds proposed
    without it (``relaxed``), within the noise; counted without the division they give less
    (the pass read twice)."""
    view = next(
        v
        for v in views_of(Rules(), 4, 40)
        if v.phase is Phase.FIRST_ROUND
        and any(
            a.kind is ActionKind.PASS and not v.folded[a.seat] and a.seat != v.seat
            for a in v.actions
        )
    )
    passer = next(
        a.seat
        for a in view.actions
        if a.kind is ActionKind.PASS and not view.folded[a.seat] and a.seat != view.seat
    )

    def estimate(relaxed: bool, divided: bool) -> tuple[float, float]:
        rng = random.Random(5)
        pairs = []
        for _ in range(600):
            world = sample_world(view, rng, relaxed=relaxed)
            if world is None:
                continue
            weight = world_weight(world, view) if divided else reading_weight(world, view)
            hand = world.rebuilt().hands[passer]
            pairs.append((weight, float(view.requirement.is_met(hand, players=view.players))))
        total = sum(w for w, _ in pairs)
        mean = sum(w * x for w, x in pairs) / total
        effective = total * total / sum(w * w for w, _ in pairs)
        return mean, (mean * (1 - mean) / effective) ** 0.5

    plain, plain_error = estimate(relaxed=True, divided=True)
    read, read_error = estimate(relaxed=False, divided=True)
    twice, _ = estimate(relaxed=False, divided=False)
    assert abs(read - plain) <= 4 * (plain_error + read_error)
    assert twice < read - 3 * read_error  # before the division: 0.009 against 0.058 ± 0.010
