"""The advice key of the terminal table (``h``, ``italian-poker play --advice``): at the
human's draw it shows the advisor's three best keeps for that very view; off by default,
and said in the help in both languages."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from test_play_app import SIZE, make_app, text_of
from test_play_session import new_session, session_at_human_draw

from italian_poker.analysis.advisor import advise_view
from italian_poker.engine.cards import Card, parse_cards
from italian_poker.play.app import PokerApp
from italian_poker.play.i18n import tr
from italian_poker.play.keys import ADVICE_KEY
from italian_poker.play.screens import help_markdown
from italian_poker.play.session import SessionState
from italian_poker.play.table_screen import advice_text
from italian_poker.table.vocabulary import Language


async def test_the_key_shows_the_advice_for_the_human_draw() -> None:
    session = session_at_human_draw()
    view = session.human_view()
    assert view is not None and session.state is SessionState.HUMAN_TURN
    expected = advise_view(view)
    app = PokerApp(session, lang=Language.EN, delay=0, advisor=advise_view)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(ADVICE_KEY)
        shown = text_of(app, "#message")
    lines = shown.split("\n")
    assert lines[0] == "Advice (best keeps first):" and len(lines) == 4
    for rank, (line, item) in enumerate(zip(lines[1:], expected[:3], strict=True), start=1):
        kept = " ".join(map(str, item.kept))
        assert line.startswith(f"{rank}. keep {kept}, change ")
        assert f"win {100 * item.ev:.1f}%, improve {100 * item.improve:.1f}%" in line
        assert ("4.4" in line) is item.split
    assert shown == advice_text(expected, Language.EN)
    assert session.state is SessionState.HUMAN_TURN  # the advice changes nothing


async def test_advice_is_off_by_default_and_says_how_to_turn_it_on() -> None:
    app = make_app(session_at_human_draw())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(ADVICE_KEY)
        assert text_of(app, "#message") == (
            "Advice is off. To turn it on, start the game with: italian-poker play --advice"
        )


async def test_advice_is_given_at_the_draw_only() -> None:
    session, _ = new_session()
    session.start_deal()
    app = PokerApp(session, lang=Language.IT, delay=0, advisor=advise_view)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(ADVICE_KEY)
        assert text_of(app, "#message") == "Il consiglio si dà solo al tuo cambio."


@dataclass(frozen=True)
class Choice:
    kept: tuple[Card, ...]
    discards: tuple[Card, ...]
    ev: float
    improve: float
    split: bool


def test_advice_text_says_the_split_and_shows_three_in_italian() -> None:
    jacks = parse_cards("Jh Jd")
    choices = [
        Choice(parse_cards("Jh Jd 9c"), parse_cards("7s 8h"), 0.5, 0.25, False),
        Choice(parse_cards("Jh 9c 8h 7s"), parse_cards("Jd"), 0.25, 0.125, True),
        Choice(jacks, parse_cards("9c 8h 7s"), 0.2, 0.3, False),
        Choice(parse_cards("Jh"), parse_cards("Jd 9c 8h 7s"), 0.1, 0.5, False),
    ]
    lines = advice_text(choices, Language.IT).split("\n")
    assert lines == [
        "Consiglio (tenute migliori prima):",
        "1. tieni Jh Jd 9c, cambia 2 carte: vinci 50,0%, migliori 25,0%",
        "2. tieni Jh 9c 8h 7s, cambia 1 carta: vinci 25,0%, migliori 12,5%"
        " (spezza l'apertura: si annuncia, 4.4)",
        "3. tieni Jh Jd, cambia 3 carte: vinci 20,0%, migliori 30,0%",
    ]


@pytest.mark.parametrize("lang", list(Language))
def test_the_help_names_the_advice_key(lang: Language) -> None:
    assert f"| {ADVICE_KEY} | {tr(lang, 'help_key_advice')} |" in help_markdown(lang)
    assert "--advice" in tr(lang, "help_key_advice")
