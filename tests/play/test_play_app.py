"""The terminal table driven by keys through Textual's pilot: a full deal (blind offer,
opening, draw, second round, showdown), a parol deal with the 5.5 make-up, a passed deal,
bad input kept at the same prompt, the help screen and the summary on quitting."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.text import Text
from test_play_session import (
    FULL_DEAL_HANDS,
    FULL_DEAL_STOCK,
    OPENER,
    PAROL_SAYER,
    bust_the_human,
    deck,
    new_session,
    session_at_human_draw,
)
from textual import events
from textual.pilot import Pilot
from textual.widgets import Input, Markdown, RichLog, Static
from typer.testing import CliRunner

from italian_poker.cli.app import app as cli_app
from italian_poker.engine.actions import ActionKind
from italian_poker.engine.cards import Rank
from italian_poker.engine.deal import Outcome, Phase
from italian_poker.play.app import PokerApp
from italian_poker.play.screens import HelpScreen, SummaryScreen
from italian_poker.play.session import Session, SessionState
from italian_poker.play.storage import HistoryStore
from italian_poker.play.table_screen import TableScreen
from italian_poker.play.widgets import FOUR_COLOURS, ActionButton, CardBox
from italian_poker.table.commands import SitOut
from italian_poker.table.events import SessionSummary, hand_rank
from italian_poker.table.narration import cards_text, hand_order
from italian_poker.table.vocabulary import Language

K = ActionKind
SIZE = (120, 40)


def text_of(app: PokerApp, selector: str) -> str:
    """The plain text a Static of the table shows."""
    content = app.table.query_one(selector, Static).content
    return content.plain if isinstance(content, Text) else str(content)


def log_text(app: PokerApp) -> str:
    return "\n".join(line.text for line in app.table.query_one("#log", RichLog).lines)


def buttons(app: PokerApp) -> list[str]:
    return [str(b.label) for b in app.table.query(ActionButton)]


def make_app(session: Session, lang: Language = Language.EN) -> PokerApp:
    return PokerApp(session, lang=lang, delay=0)


async def test_full_deal_through_the_keys(tmp_path: Path) -> None:
    session, _ = new_session(store=HistoryStore(tmp_path))
    session.start_deal(deck=deck(FULL_DEAL_HANDS, FULL_DEAL_STOCK))
    app = make_app(session)
    async with app.run_test(size=SIZE) as pilot:
        table = app.table
        # Art. 2: the blind comes before the deal; the hand is face down.
        assert buttons(app) == ["I  Blind 4", "N  No blind"]
        assert "before seeing your cards" in text_of(app, "#prompt")
        assert all(box.has_class("back") for box in table.query(CardBox))
        await pilot.press("n")
        assert "Nobody has opened" in text_of(app, "#prompt")
        assert "to open: Jacks or better" in text_of(app, "#status")
        assert buttons(app) == ["P  Pass", "A  Open 1-10"]
        await pilot.press("a")
        amount = table.query_one("#amount", Input)
        assert amount.has_class("visible") and amount.has_focus
        assert "1 to 10" in text_of(app, "#prompt")
        await pilot.press("9", "9", "enter")
        assert table.message == "99 is outside the allowed range: type a number from 1 to 10."
        assert amount.has_class("visible") and session.state is SessionState.HUMAN_TURN
        await pilot.press("2", "enter")
        assert not amount.has_class("visible")
        # Everyone called the opening: the draw.
        view = session.human_view()
        assert view is not None and view.phase is Phase.DRAW
        assert "Anna: Call 2" in log_text(app)
        await pilot.press("3", "4")
        assert table.selected == {2, 3}
        boxes = list(table.query(CardBox))
        assert [box.has_class("selected") for box in boxes] == [False, False, True, True, False]
        await pilot.press("enter")
        view = session.human_view()
        assert view is not None and view.phase is Phase.SECOND_ROUND
        assert "Player changes 2: 8♣ 9♠" in log_text(app)
        assert "Anna stands pat" in log_text(app)
        assert "stood pat" in text_of(app, "#seat-1")
        await pilot.press("u", "5", "enter")
        await pilot.press("s")
        assert session.state is SessionState.BETWEEN_DEALS
        report = text_of(app, "#report")
        assert "Player shows J♥ J♦ J♠ A♥ A♣: Full house, Jacks full of Aces" in report
        assert "Player wins 32: Full house" in report and "higher category" in report
        assert "Player opened and proves it with J♥ J♦ (3.3)." in report
        assert "Hand history saved" in log_text(app)
        assert "Press Enter for the next deal" in text_of(app, "#prompt")
        app.save_screenshot("table.svg", str(tmp_path))
        await pilot.press("enter")
        assert session.deal_number == 2 and session.state is not SessionState.BETWEEN_DEALS
        assert "Deal 2" in log_text(app)
    (saved,) = tmp_path.glob("*/deal-0001.phh")
    assert "Anna" in (tmp_path / "table.svg").read_text(encoding="utf-8")
    # The session's folder replays with the command line.
    replayed = CliRunner().invoke(cli_app, ["replay", str(saved.parent)])
    assert replayed.exit_code == 0, replayed.output
    assert "Verified: every action replays and the result matches (deal-0001.phh)" in (
        replayed.output
    )


async def test_parol_deal_said_with_its_key() -> None:
    session, _ = new_session({"Anna": PAROL_SAYER, "Bruno": PAROL_SAYER, "Carla": PAROL_SAYER})
    session.start_deal(deck=deck(FULL_DEAL_HANDS, FULL_DEAL_STOCK))
    app = make_app(session, Language.IT)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n", "a", "1", "enter", "enter")  # no blind, open 1, servito
        assert buttons(app) == ["U  Punto 1-10", "B  Busso", "L  Parola"]  # 5.2
        await pilot.press("l")
        assert session.finished[0].outcome is Outcome.PAROL
        report = text_of(app, "#report")
        assert "Tutti hanno detto parola (5.4(a))" in report
        assert "Prossima mano: per aprire serve coppia di Re o meglio" in report
        await pilot.press("enter")
        # 5.5: no blind on the deal after a parol; the bots speak first now.
        assert session.deal_number == 2
        assert all(a.kind is not K.BLIND for a in session.match.view("Player").actions)


async def test_parol_is_not_offered_after_a_check() -> None:
    check_first = (K.DECLINE, K.OPEN, K.PASS, K.CHECK, K.CALL, K.DRAW, K.SHOW)
    hands = {0: "7h 8c 9d Qs Kc", 1: "Ah Ad 7d 8d 9h"}
    session, _ = new_session({"Anna": check_first})
    session.start_deal(deck=deck(hands))
    app = make_app(session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n", "p", "v", "enter")  # Anna opens, the human calls, servito
        view = session.human_view()
        assert view is not None and view.checked  # Anna checked first (5.2(b))
        assert buttons(app) == ["U  Bet 1-10", "B  Check"]
        await pilot.press("l")
        assert app.table.message.startswith("'l' does nothing now. Keys: U=Bet, B=Check")
        assert session.state is SessionState.HUMAN_TURN


async def test_fold_then_make_up_after_a_parol() -> None:
    prefer = {"Anna": OPENER, "Bruno": PAROL_SAYER, "Carla": PAROL_SAYER}
    session, _ = new_session(prefer)
    session.start_deal(deck=deck({0: "7h 8c 9d Qs Kc", 1: "Ah Ad 7d 8d 9h"}))
    app = make_app(session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n", "p")
        assert buttons(app) == ["F  Fold", "V  Call 1", "R  Raise 2-11"]
        await pilot.press("f")
        assert session.finished[0].outcome is Outcome.PAROL
        assert "Player folded in the first round" in text_of(app, "#report")
        await pilot.press("enter")
        assert buttons(app) == ["E  Make up 1", "X  Sit out"]
        assert "make up 1 chip to play this deal (5.5)" in text_of(app, "#prompt")
        await pilot.press("e")
        assert "Player: Make up 1" in log_text(app)
        assert session.human_in_deal and session.requirement.min_pair is Rank.KING


async def test_no_deal_after_the_human_sits_out_is_said_in_the_log_and_the_prompt() -> None:
    """5.5: Bruno and Carla sit out after the parol; the human, asked to make up, sits out
    too, which leaves Anna alone: no deal. The table said nothing, and showed the prompt for
    a next deal as if one had been played."""
    prefer = {"Anna": OPENER, "Bruno": PAROL_SAYER, "Carla": PAROL_SAYER}
    session, _ = new_session(prefer)
    session.start_deal(deck=deck({0: "7h 8c 9d Qs Kc", 1: "Ah Ad 7d 8d 9h"}))
    app = make_app(session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n", "p", "f")
        session.machine.handle(SitOut(session.player_id("Bruno")))
        session.machine.handle(SitOut(session.player_id("Carla")))
        await pilot.press("enter")
        assert buttons(app) == ["E  Make up 1", "X  Sit out"]
        await pilot.press("x")
        said = "fewer than two players can be dealt in (5.5): no deal; the pot of"
        assert session.state is SessionState.BETWEEN_DEALS and session.no_deal is not None
        logged = " ".join(log_text(app).split())  # the log wraps its lines
        assert logged.count(said) == 1 and said in text_of(app, "#prompt")
        await pilot.press("enter")  # the question waits for the next attempt
        assert buttons(app) == ["E  Make up 1", "X  Sit out"] and session.no_deal is None
        assert said not in text_of(app, "#prompt")


async def test_passed_deal_and_the_next_requirement() -> None:
    session, _ = new_session()
    session.start_deal(deck=deck(FULL_DEAL_HANDS))
    app = make_app(session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n", "p")
        assert session.finished[0].outcome is Outcome.PASSED
        report = text_of(app, "#report")
        assert "Everyone passed (3.5)" in report and "Queens or better" in report
        await pilot.press("enter")
        assert "to open: Queens or better" in text_of(app, "#status")


async def test_a_busted_human_rebuys_with_r_and_plays_on() -> None:
    session = bust_the_human()
    app = make_app(session)
    async with app.run_test(size=SIZE) as pilot:
        assert "Press r to buy back in" in text_of(app, "#prompt")
        await pilot.press("r")
        assert session.state is SessionState.BETWEEN_DEALS
        assert "You buy back in with 3 chips" in text_of(app, "#message")
        await pilot.press("r")  # no longer busted: r is no rebuy between deals
        assert session.machine.chip_desk.approved == {0: 1}


async def test_bad_input_gets_a_message_and_the_same_prompt() -> None:
    session, _ = new_session()
    session.start_deal(deck=deck(FULL_DEAL_HANDS, FULL_DEAL_STOCK))
    app = make_app(session)
    async with app.run_test(size=SIZE) as pilot:
        table = app.table
        await pilot.press("z")
        assert table.message == "'z' does nothing now. Keys: I=Blind, N=No blind"
        # A terminal sends Enter as "\r" (as tmux's send-keys does): it is named, not printed.
        app.post_message(events.Key("enter", "\r"))
        await pilot.pause()
        assert table.message == "'Enter' does nothing now. Keys: I=Blind, N=No blind"
        await pilot.press("tab")
        assert table.message.startswith("'Tab' does nothing now.")
        await pilot.press("n", "a", "enter")
        assert table.message == ("'' is not a number of chips: type a whole number from 1 to 10.")
        assert table.amount_for is not None
        await pilot.press("escape")
        assert table.amount_for is None and session.state is SessionState.HUMAN_TURN
        assert buttons(app) == ["P  Pass", "A  Open 1-10"]
        await pilot.press("a", "1", "enter")
        await pilot.press("1", "2", "3", "4", "5")
        assert table.message == "You may change at most 4 cards (4.1)." and len(table.selected) == 4
        await pilot.press("1")
        assert table.selected == {1, 2, 3}
        assert "break your opening" in text_of(app, "#hand-info")
        await pilot.press("enter")  # 4.4: the split is announced for the human
        assert "Player announces a split opening (4.4)" in log_text(app)


async def test_buttons_can_be_clicked() -> None:
    session, _ = new_session()
    session.start_deal(deck=deck(FULL_DEAL_HANDS))
    app = make_app(session, Language.IT)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.click(".act-decline")
        assert session.human_view() is not None
        assert session.human_view().phase is Phase.OPENING  # type: ignore[union-attr]
        await pilot.click(".act-pass")
        assert session.finished and session.finished[0].outcome is Outcome.PASSED


async def test_help_screen_and_quitting_with_the_summary() -> None:
    session, _ = new_session()
    session.start_deal(deck=deck(FULL_DEAL_HANDS))
    app = make_app(session, Language.IT)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        help_text = app.screen.query_one(Markdown).source
        assert "| I | Buio |" in help_text and "| L | Parola |" in help_text
        assert "Poker all'italiana" in help_text or "poker all'italiana" in help_text
        await pilot.press("escape")
        assert isinstance(app.screen, TableScreen)
        await pilot.press("n", "p")  # a passed deal
        await pilot.press("q")
        assert isinstance(app.screen, SummaryScreen)
        summary_text = str(app.screen.query_one("#summary-text", Static).content)
        assert "Mani giocate: 1 (0 vinte, 1 passata, 0 abbandonate con parola)" in summary_text
        await pilot.press("enter")
    assert isinstance(app.return_value, SessionSummary)
    assert app.return_value.deals == 1


async def test_four_colour_deck_and_seats_for_nine_players() -> None:
    names = ("Player", "Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Giulia", "Marco")
    session, _ = new_session(names=names, seed=3)
    app = PokerApp(session, lang=Language.EN, four_colour=True, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        seats = app.table.query_one("#seats")
        assert seats.styles.grid_size_columns == 5
        assert len(app.table.query("SeatBox")) == 9
        await pilot.press("n")
        view = session.human_view()
        assert view is not None and len(view.hand) == 5
        for box, card in zip(app.table.query(CardBox), view.hand, strict=True):
            face = box.content
            assert isinstance(face, Text) and not box.has_class("back")
            assert FOUR_COLOURS[card.suit] in str(face.style)


# --- 4.2: the fourth card of a draw of four comes after the other drawers ---------------


def four_card_draw_app(lang: Language = Language.EN) -> tuple[Session, PokerApp]:
    """The scripted full deal at the human's draw (the human draws first, the three bots
    after), on a table whose bots wait a second before each action, as in real play."""
    session = session_at_human_draw()
    return session, PokerApp(session, lang=lang, delay=1.0)


async def finish_bots(app: PokerApp, pilot: Pilot[SessionSummary]) -> None:
    """Let the waiting bots act at once."""
    app.table.delay = 0
    await pilot.pause(1.3)


async def test_four_card_draw_before_other_drawers_does_not_crash() -> None:
    session, app = four_card_draw_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("1", "2", "3", "4", "enter")
        view = session.human_view()
        assert view is not None and len(view.hand) == 4  # 4.2: the fourth card waits
        assert session.state is SessionState.BOT_TURN
        info = text_of(app, "#hand-info")
        assert "4 cards held" in info and "1 card still to come" in info and "4.2" in info
        boxes = list(app.table.query(CardBox))
        assert not any(box.has_class("empty") for box in boxes)  # four faces, one back
        assert boxes[4].has_class("back") and boxes[4].has_class("pending")
        assert not any(box.has_class("back") for box in boxes[:4])
        await finish_bots(app, pilot)
        view = session.human_view()
        assert view is not None and len(view.hand) == 5
        assert session.state is SessionState.HUMAN_TURN
        rank = hand_rank(view)
        assert rank is not None
        assert text_of(app, "#hand-info") == f"Your hand\n{rank.describe(Language.EN)}"
        assert not any(box.has_class("back") for box in app.table.query(CardBox))


async def test_four_card_draw_pending_fourth_card_in_italian() -> None:
    _, app = four_card_draw_app(Language.IT)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("1", "2", "3", "4", "enter")
        info = text_of(app, "#hand-info")
        assert "4 carte in mano" in info and "manca ancora 1 carta" in info
        await finish_bots(app, pilot)
        assert "manca" not in text_of(app, "#hand-info")


async def test_long_run_of_digits_then_a_letter_in_the_amount_field_does_not_hang() -> None:
    """Found by the random-key test: Textual's integer input checks every key with a regular
    expression that backtracks exponentially on a long run of digits followed by any other
    character (30 digits and a letter froze the game for minutes). The amount field takes
    digits only, and no more than the largest amount allowed has, plus one (so that one
    digit too many still gets the out-of-range message)."""
    session, _ = new_session()
    session.start_deal(deck=deck(FULL_DEAL_HANDS, FULL_DEAL_STOCK))
    app = make_app(session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n", "a")  # open: an amount of 1 to 10
        field = app.table.query_one("#amount", Input)
        assert field.has_focus
        await pilot.press(*["1"] * 22, "x", "-", "a")
        assert field.value == "111"  # two digits for 10, one more: 111 is out of range
        await pilot.press("enter")
        assert app.table.message == "111 is outside the allowed range: type a number from 1 to 10."
        await pilot.press("7", "enter")
        assert "Player: Open 7" in log_text(app)


async def test_four_card_draw_then_the_whole_deal_through_the_keys() -> None:
    """The human changes four (three now, the fourth after the bots have drawn, 4.2), then
    bets and shows: the log says when the fourth card comes and the report names the
    five-card hand."""
    session = session_at_human_draw()
    app = make_app(session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2", "3", "4", "5", "enter")  # keeps Jh: the opening is split (4.4)
        log = " ".join(log_text(app).split())  # the log wraps its lines
        assert "Player changes 4: J♦ 8♣ 9♠ A♣" in log
        assert "Player gets the fourth card after everyone else has drawn (4.2)" in log
        assert log.index("(4.2)") < log.index("Anna stands pat")
        view = session.human_view()
        assert view is not None and view.phase is Phase.SECOND_ROUND and len(view.hand) == 5
        rank = hand_rank(view)
        assert rank is not None
        assert text_of(app, "#hand-info") == f"Your hand\n{rank.describe(Language.EN)}"
        await pilot.press("u", "1", "enter", "s")
        assert session.state is SessionState.BETWEEN_DEALS
        report = text_of(app, "#report")
        shown = cards_text(hand_order(view.hand, rank))
        assert f"Player shows {shown}: {rank.describe(Language.EN)}" in report


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (Language.EN, "Your turn: you add 1 chip to call. Fold, Call or Raise?"),
        (Language.IT, "Tocca a te: aggiungi 1 fiche per vedere. Lascio, Vedo o Rilancio?"),
    ],
    ids=["en", "it"],
)
async def test_betting_prompt_says_what_is_asked_once(lang: Language, expected: str) -> None:
    """Once Anna has opened for 1, the human is asked to call 1 or not: the prompt says so,
    with the choices, and says whose turn it is once (it said `Your turn: Your move` and
    `Tocca a te: Tocca a te: ...`)."""
    session, _ = new_session({"Anna": OPENER})
    session.start_deal(deck=deck({0: "7h 8c 9d Qs Kc", 1: "Ah Ad 7d 8d 9h"}))
    app = make_app(session, lang)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n", "p")
        assert text_of(app, "#prompt") == expected


async def test_prompt_with_nothing_to_call_lists_the_choices() -> None:
    session = session_at_human_draw()
    app = make_app(session, Language.IT)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")  # servito; the bots stand pat: the second round
        assert text_of(app, "#prompt") == (
            "Tocca a te: non c'è nessuna puntata da vedere. Punto, Busso o Parola?"
        )
