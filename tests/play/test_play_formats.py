"""Match formats in the terminal game: ``italian-poker play --format`` options (checked, and
reaching the session), a sit and go against bots played to one winner with the places in
the session summary, a fixed-length match stopping after its deals, and the level on the
table's status line (Textual's pilot)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from rich.text import Text
from test_play_cli import capture_game, runner
from textual.widgets import Static

from italian_poker.cli.app import app
from italian_poker.engine.actions import Action
from italian_poker.engine.observer import SeatView
from italian_poker.engine.rules import preset
from italian_poker.play.app import PokerApp
from italian_poker.play.explain import summary_lines
from italian_poker.play.session import Session, SessionState
from italian_poker.table.defaults import default_action
from italian_poker.table.events import OverReason
from italian_poker.table.formats import (
    CASH,
    SCHEDULES,
    FormatKind,
    Level,
    MatchFormat,
    Schedule,
)
from italian_poker.table.vocabulary import Language

STEEP = Schedule("steep", (Level(1, 1, 10, 2), Level(3, 3, 30, 2), Level(8, 8, 80, 1)))
NAMES = ["Player", "Anna", "Bruno", "Carla"]


class Wanderer:
    """A seeded policy: a random legal action, its amount the least allowed."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, view: SeatView) -> Action:
        return default_action([self.rng.choice(view.legal_actions)])


def session_with(match_format: MatchFormat, stack: int, seed: int = 4) -> Session:
    bots = {name: Wanderer(seed + i) for i, name in enumerate(NAMES[1:])}
    return Session(
        preset("standard"), NAMES, "Player", bots, stack=stack, seed=seed, match_format=match_format
    )


def play_on(session: Session, human: Wanderer, deals: int = 300) -> None:
    """Play deals until the session is over, the human choosing as ``human`` does."""
    for _ in range(deals):
        if session.state is SessionState.OVER:
            return
        session.start_deal()
        while session.state in (SessionState.BOT_TURN, SessionState.HUMAN_TURN):
            if session.state is SessionState.BOT_TURN:
                session.play_bots()
            else:
                view = session.human_view()
                assert view is not None
                session.act(human.act(view))


# --- the options -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--format", "league"], "--format must be one of cash, fixed, sit-and-go"),
        (["--format", "fixed"], "--format fixed needs --deals N"),
        (["--format", "fixed", "--deals", "0"], "at least one deal"),
        (["--deals", "5"], "add --format fixed"),
        (["--schedule", "turbo"], "--schedule raises the ante"),
        (["--format", "sit-and-go", "--schedule", "hyper"], "ANTExDEALS"),
        (["--format", "sit-and-go", "--schedule", "0x3"], "needs an ante"),
    ],
)
def test_bad_format_options_exit_with_code_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["play", *args])
    assert result.exit_code == 2
    assert message in result.output


def test_format_options_reach_the_session(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    calls = capture_game(monkeypatch, tmp_path)
    args = ["play", "--lang", "en", "--format", "sit-and-go", "--stack", "40"]
    assert runner.invoke(app, [*args, "--schedule", "turbo"]).exit_code == 0
    assert runner.invoke(app, ["play", "--format", "sit-and-go"]).exit_code == 0
    result = runner.invoke(app, ["play", "--lang", "en", "--format", "fixed", "--deals", "8"])
    assert result.exit_code == 0, result.output
    formats = [call["session"].machine.match_format for call in calls]  # type: ignore[attr-defined]
    assert formats[0] == MatchFormat.sit_and_go(40, SCHEDULES["turbo"])
    assert formats[1].kind is FormatKind.SIT_AND_GO and formats[1].schedule is SCHEDULES["standard"]
    assert formats[1].starting_chips == 200
    assert formats[2] == MatchFormat.fixed(8)
    assert "Standings:" in result.output  # a fixed match's summary ranks the players
    cash = runner.invoke(app, ["play", "--lang", "en"])
    assert calls[3]["session"].machine.match_format is CASH  # type: ignore[attr-defined]
    assert "Standings:" not in cash.output


# --- playing a format to its end ----------------------------------------------------------------


def test_a_sit_and_go_against_bots_is_played_to_one_winner() -> None:
    fmt = MatchFormat.sit_and_go(15, STEEP, prize_pool=100, shares=(70, 30))
    session = session_with(fmt, 15, seed=1)
    play_on(session, Wanderer(1))
    summary = session.summary()
    assert session.machine.finished and summary.over is OverReason.MATCH_FINISHED
    standings = summary.standings
    assert [(s.place, s.name, s.out, s.prize) for s in standings] == [
        (1, "Carla", False, 70),
        (2, "Player", True, 30),
        (3, "Bruno", True, 0),
        (4, "Anna", True, 0),
    ]
    # Chips conserved: the winner's, the pot carried and what busted players took away
    # (fewer chips than the ante, which the engine cannot deal in).
    left_with = sum(chips for _, chips in session.match.departed)
    assert standings[0].chips + session.match.carried + left_with == 4 * 15
    lines = summary_lines(summary, Language.EN, command="italian-poker")
    assert "The match is over." in lines and "Standings:" in lines
    assert f"1. Carla: {standings[0].chips} chips, prize 70" in lines


def test_a_human_out_of_a_sit_and_go_ends_the_session_with_the_places_so_far() -> None:
    session = session_with(MatchFormat.sit_and_go(15, STEEP), 15, seed=4)
    play_on(session, Wanderer(1))
    summary = session.summary()
    assert not session.machine.finished and summary.over is OverReason.HUMAN_BUSTED
    assert summary.standings[-1].name == "Player" and summary.standings[-1].out
    assert not any(s.out for s in summary.standings[:2])


def test_a_human_out_of_a_sit_and_go_re_enters_with_r_while_the_window_is_open() -> None:
    """The human hosts their own table: their request to re-enter is approved at once."""
    no_window = session_with(MatchFormat.sit_and_go(15, STEEP), 15, seed=4)
    play_on(no_window, Wanderer(1))
    assert no_window.over_reason is OverReason.HUMAN_BUSTED and not no_window.can_rebuy
    fmt = MatchFormat(FormatKind.SIT_AND_GO, schedule=STEEP, starting_chips=15, re_entry_levels=3)
    session = session_with(fmt, 15, seed=4)
    play_on(session, Wanderer(1))
    assert session.over_reason is OverReason.HUMAN_BUSTED and session.can_rebuy
    assert session.rebuy() == 15
    assert session.human_seated and session.state is not SessionState.OVER
    standing = next(s for s in session.machine.standings if s.name == "Player")
    assert (standing.re_entries, standing.bought) == (1, 30)


@pytest.mark.parametrize("seed", [2, 4, 9])
def test_a_seeded_sit_and_go_ends_with_every_place(seed: int) -> None:
    session = session_with(MatchFormat.sit_and_go(12, STEEP), 12, seed)
    play_on(session, Wanderer(seed))
    places = session.summary().standings
    assert sorted(s.name for s in places) == sorted(NAMES)
    out = [s for s in places if s.out]
    assert len(out) >= 1 and all(s.place > 1 for s in out)
    assert sum(s.chips for s in places) + session.match.carried == 4 * 12


def test_a_fixed_length_match_stops_after_its_deals() -> None:
    session = session_with(MatchFormat.fixed(3), 100)
    play_on(session, Wanderer(3))
    assert len(session.match.completed) == 3 and session.state is SessionState.OVER
    summary = session.summary()
    assert summary.over is OverReason.MATCH_FINISHED and summary.deals == 3
    assert [s.place for s in summary.standings] == [1, 2, 3, 4]
    lines = summary_lines(summary, Language.IT, command="italian-poker")
    assert "La partita è finita." in lines and "Classifica:" in lines


# --- the status line ------------------------------------------------------------------------------


async def test_the_status_line_shows_the_level_and_the_next() -> None:
    session = session_with(MatchFormat.sit_and_go(50, STEEP), 50)
    app = PokerApp(session, lang=Language.EN, delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        content = app.table.query_one("#status", Static).content
        status = content.plain if isinstance(content, Text) else str(content)
        assert "level 1/3: ante 1, bets 1-10 · next: ante 3 from deal 3" in status
        await pilot.press("enter")
        while session.state is not SessionState.BETWEEN_DEALS:
            if session.state is SessionState.HUMAN_TURN:
                view = session.human_view()
                assert view is not None
                session.act(default_action(view.legal_actions))
            else:
                session.play_bots()
        session.start_deal()
        session.play_bots()
        app.table.refresh_table()
        content = app.table.query_one("#status", Static).content
        status = content.plain if isinstance(content, Text) else str(content)
        assert "deal 2" in status and "level 1/3" in status


async def test_a_fixed_match_shows_the_deals_left() -> None:
    session = session_with(MatchFormat.fixed(5), 100)
    app = PokerApp(session, lang=Language.IT, delay=0)
    async with app.run_test(size=(120, 40)):
        content = app.table.query_one("#status", Static).content
        status = content.plain if isinstance(content, Text) else str(content)
        assert "5 mani ancora" in status
