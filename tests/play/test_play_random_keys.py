"""Random keys at the terminal table (Textual's pilot): for hundreds of key presses over
several seeds, table sizes (2, 4, 6 and 9 players), rules presets, bot levels and both
languages, the game must never raise, and ``q`` must always end on the session summary.

The keys are the game's own: the action letters of ``ACTION_KEYS``, the card digits 1-5 (the
draw, 4.1), every digit (amounts), Enter, Escape, Backspace and ``?``; ``q`` only at the end.
Seeds are fixed so that a failure reproduces. ``PLAY_RANDOM_KEYS_STEPS`` sets the number of
presses per table (100). The soak (marked ``soak``: run when ``ITALIAN_POKER_SOAK=1``, as CI
does) presses 600 keys at each of four more tables.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass

import pytest
from textual import events
from textual.widgets import Static

from italian_poker.analysis.bots import make_bot
from italian_poker.engine.rules import preset
from italian_poker.play.app import PokerApp
from italian_poker.play.i18n import HUMAN_NAMES, tr
from italian_poker.play.screens import HelpScreen, SummaryScreen
from italian_poker.play.session import Session, SessionState, default_stack
from italian_poker.play.table_screen import TableScreen
from italian_poker.table.events import SessionSummary
from italian_poker.table.names import BOT_NAMES
from italian_poker.table.vocabulary import ACTION_KEYS, Language

STEPS = int(os.environ.get("PLAY_RANDOM_KEYS_STEPS", "100"))
"""Key presses per table."""

CARDS = ["1", "2", "3", "4", "5"]
DIGITS = [str(d) for d in range(10)]
LETTERS = sorted({key for key in ACTION_KEYS.values() if len(key) == 1})
KEYS: list[str] = [*LETTERS, *CARDS, *DIGITS, "enter", "escape", "backspace"]
"""What a player may press at the table (``?`` and ``q`` apart)."""
HELP_CHANCE = 0.01
"""How often ``?`` is pressed (opening the help costs far more than any other key)."""
CHARACTERS = {"enter": "\r", "escape": "\x1b", "backspace": "\x08", "question_mark": "?"}


def useful_keys(app: PokerApp) -> list[str]:
    """The keys that do something now: the legal actions' keys, the cards and Enter at the
    draw, digits and Enter in the amount field, Enter between deals."""
    if isinstance(app.screen, HelpScreen):
        return ["escape", "question_mark"]
    table = app.table
    if table.amount_for is not None:
        return [*DIGITS, "enter", "backspace", "escape"]
    state = table.session.state
    if state is SessionState.BETWEEN_DEALS:
        return ["enter"]
    keys = [ACTION_KEYS[option.kind] for option in table.session.legal_actions()]
    if "enter" in keys:  # the draw
        keys += CARDS * 2
    return keys or KEYS


def next_key(app: PokerApp, rng: random.Random) -> str:
    """Half the time a key that does something now, else any key of the game (never ``q``,
    nor Enter once the game is over: both end it)."""
    if rng.random() < HELP_CHANCE:
        return "question_mark"
    key = rng.choice(useful_keys(app) if rng.random() < 0.5 else KEYS)
    if key == "enter" and app.table.session.state is SessionState.OVER:
        return "escape"
    return key


@dataclass(frozen=True)
class Table:
    players: int
    lang: Language
    seed: int
    rules: str
    bots: str
    stack: int | None = None
    """Chips each (default: the preset's); a short stack reaches the end of the game."""

    def __str__(self) -> str:
        short = "" if self.stack is None else f"-stack{self.stack}"
        return f"{self.players}p-{self.lang.value}-{self.rules}-{self.bots}-seed{self.seed}{short}"


TABLES = [
    Table(2, Language.EN, 11, "standard", "strong"),
    Table(2, Language.IT, 12, "003", "random"),
    Table(4, Language.EN, 13, "001", "simple"),
    Table(4, Language.IT, 14, "standard", "strong"),
    Table(6, Language.EN, 15, "fantini", "random"),
    Table(6, Language.IT, 16, "002", "strong"),
    Table(9, Language.EN, 17, "003", "simple"),
    Table(9, Language.IT, 18, "standard", "random"),
    # Short stacks: players bust and, with today's bots, the game ends (OVER) within the
    # default number of keys.
    Table(3, Language.IT, 19, "standard", "simple", stack=8),
    Table(5, Language.EN, 23, "fantini", "random", stack=8),
]


def cli_session(table: Table) -> Session:
    """A session built as ``italian-poker play`` builds it (human first, bots after)."""
    rules = preset(table.rules, players=table.players)
    human = HUMAN_NAMES[table.lang]
    opponents = list(BOT_NAMES[: table.players - 1])
    bots = {
        bot: make_bot(table.bots, seed=table.seed * 100 + i)
        for i, bot in enumerate(opponents, start=1)
    }
    return Session(
        rules,
        [human, *opponents],
        human,
        bots,
        stack=default_stack(rules) if table.stack is None else table.stack,
        seed=table.seed,
    )


SOAK_TABLES = [
    Table(2, Language.IT, 31, "standard", "strong"),
    Table(4, Language.EN, 32, "003", "random"),
    Table(6, Language.IT, 33, "001", "simple"),
    Table(9, Language.EN, 34, "fantini", "strong"),
]
SOAK_STEPS = 600


@pytest.mark.parametrize("table", TABLES, ids=str)
async def test_random_keys_never_crash_and_q_ends_on_the_summary(table: Table) -> None:
    await press_random_keys(table, STEPS)


@pytest.mark.soak
@pytest.mark.parametrize("table", SOAK_TABLES, ids=str)
async def test_soak_random_keys_never_crash_and_q_ends_on_the_summary(table: Table) -> None:
    await press_random_keys(table, SOAK_STEPS)


async def press_random_keys(table: Table, steps: int) -> None:
    """Press ``steps`` random keys at ``table``, then quit: nothing raises, and ``q`` ends on
    the summary."""
    session = cli_session(table)
    app = PokerApp(session, lang=table.lang, delay=0)
    rng = random.Random(table.seed)
    pressed: list[str] = []
    async with app.run_test(size=(130, 45)) as pilot:
        for _ in range(steps):
            key = next_key(app, rng)
            pressed.append(key)
            # As a terminal sends it; then wait until the table has handled it and drawn.
            app.post_message(events.Key(key, CHARACTERS.get(key, key)))
            await pilot.pause(0)
            if app.return_code is not None:  # the app died: the exception is raised below
                break
            # Whatever was pressed, the table is still there under any open screen.
            assert isinstance(app.screen_stack[0], TableScreen), pressed[-20:]
            assert not isinstance(app.screen, SummaryScreen), pressed[-20:]
        # Close the amount field or the help, then quit.
        await pilot.press("escape")
        if isinstance(app.screen, HelpScreen):
            await pilot.press("escape")
        await pilot.press("q")
        assert isinstance(app.screen, SummaryScreen), pressed[-20:]
        title = app.screen.query_one("#summary-title", Static).content
        assert str(title) == tr(table.lang, "summary_title")
        await pilot.press("enter")
    summary = app.return_value
    assert isinstance(summary, SessionSummary), pressed[-20:]
    assert summary.error is None
    assert summary.deals == len(session.finished)
    in_deal = session.state in (SessionState.HUMAN_TURN, SessionState.BOT_TURN)
    assert summary.abandoned == in_deal
    assert summary.over == session.over_reason
