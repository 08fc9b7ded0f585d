"""The terminal table as a newcomer reads it, driven through Textual's pilot: a call and a
raise say what the player adds and what the bet becomes, the prompt and the footer list only
the keys that work now, a deal played on a blind says no opening is needed (Art. 2), shown
hands are sorted in the hand's own order, the log has no line of a lone dash and six seats
sit in two rows of three."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_play_app import SIZE, buttons, log_text, make_app, text_of
from test_play_session import FULL_DEAL_HANDS, FULL_DEAL_STOCK, OPENER, deck, new_session
from textual.widgets import RichLog

from italian_poker.engine.actions import ActionKind
from italian_poker.engine.cards import Card, parse_cards
from italian_poker.engine.deck import Deck
from italian_poker.engine.hand_rank import evaluate
from italian_poker.play.app import PokerApp
from italian_poker.table.narration import cards_text, hand_order
from italian_poker.table.vocabulary import Language, amount_text

K = ActionKind

BLIND_FIRST = (K.BLIND, *OPENER)
"""Bets the blind when offered, else opens when it can."""


RAISER = (K.DECLINE, K.RAISE, *OPENER)
"""Raises whenever it may (the least raise), else plays as the opener."""


async def test_the_call_says_what_is_added_and_what_the_bet_becomes() -> None:
    """The human opens for 1, Anna raises to 2: the human adds 1 to call, and the bet becomes
    2. The prompt said "you need 1 chip to call", the button "Call 2" (the total)."""
    session, _ = new_session({"Anna": RAISER})
    session.start_deal(deck=deck(FULL_DEAL_HANDS, FULL_DEAL_STOCK))
    app = make_app(session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n", "a", "1", "enter")
        view = session.human_view()
        assert view is not None and view.to_call == 1 and view.current_bet == 2
        assert "V  Call 1 (to 2)" in buttons(app)
        assert "you add 1 chip to call (your bet becomes 2)" in text_of(app, "#prompt")
        await pilot.press("v")
        assert "Player: Call 1 (to 2)" in log_text(app)


async def test_the_call_in_italian_says_the_same() -> None:
    session, _ = new_session({"Anna": RAISER})
    session.start_deal(deck=deck(FULL_DEAL_HANDS, FULL_DEAL_STOCK))
    app = make_app(session, Language.IT)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n", "a", "1", "enter")
        assert "V  Vedo 1 (a 2)" in buttons(app)
        assert "aggiungi 1 fiche per vedere (la tua puntata va a 2)" in text_of(app, "#prompt")


async def test_a_raise_over_ones_own_bet_says_both_amounts() -> None:
    """After the human's blind of 4, everyone calls: a raise to 5-14 adds 1-10."""
    session, _ = new_session()
    session.start_deal(deck=deck(FULL_DEAL_HANDS, FULL_DEAL_STOCK))
    app = make_app(session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("i")
        assert "R  Raise 1-10 (to 5-14)" in buttons(app)
        await pilot.press("r")
        prompt = text_of(app, "#prompt")
        assert "the total your bet becomes, 5 to 14 (you add 1 to 10)" in prompt


async def test_an_open_with_nothing_in_says_one_amount() -> None:
    session, _ = new_session()
    session.start_deal(deck=deck(FULL_DEAL_HANDS, FULL_DEAL_STOCK))
    app = make_app(session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        assert buttons(app) == ["P  Pass", "A  Open 1-10"]


async def test_the_blind_prompt_and_the_footer_list_only_the_keys_that_work() -> None:
    session, _ = new_session()
    session.start_deal(deck=deck(FULL_DEAL_HANDS, FULL_DEAL_STOCK))
    app = make_app(session)
    async with app.run_test(size=SIZE) as pilot:
        assert buttons(app) == ["I  Blind 4", "N  No blind"]
        prompt = text_of(app, "#prompt")
        assert "[i] bet, [n] decline" in prompt and "i/c/o" not in prompt
        assert "1-5" not in text_of(app, "#hint") and "Draw" not in text_of(app, "#hint")
        await pilot.press("n", "a", "1", "enter")  # the draw
        assert "1-5 / Enter: Draw" in text_of(app, "#hint")
        await pilot.press("enter")  # stand pat: the second round
        assert "1-5" not in text_of(app, "#hint")


async def test_a_deal_on_a_blind_says_no_opening_is_needed() -> None:
    session, _ = new_session()
    session.start_deal(deck=deck(FULL_DEAL_HANDS, FULL_DEAL_STOCK))
    app = make_app(session)
    async with app.run_test(size=SIZE) as pilot:
        assert "to open: Jacks or better" in text_of(app, "#status")
        await pilot.press("i")
        status = text_of(app, "#status")
        assert "to open" not in status and "blind: no opening needed (2, blind)" in status


async def test_a_deal_on_a_blind_in_italian() -> None:
    session, _ = new_session()
    session.start_deal(deck=deck(FULL_DEAL_HANDS, FULL_DEAL_STOCK))
    app = make_app(session, Language.IT)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("i")
        status = text_of(app, "#status")
        assert "per aprire" not in status and "buio: non serve aprire (2, buio)" in status


async def test_shown_hands_are_sorted_in_the_hands_order() -> None:
    """The human shows J♥ J♦ A♣ J♠ A♥ (jacks full of aces): it reads J♥ J♦ J♠ A♥ A♣, in the
    report and on the seat."""
    session, _ = new_session()
    session.start_deal(deck=deck(FULL_DEAL_HANDS, FULL_DEAL_STOCK))
    app = make_app(session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n", "a", "2", "enter", "3", "4", "enter", "u", "5", "enter", "s")
        report = text_of(app, "#report")
        assert "Player shows J♥ J♦ J♠ A♥ A♣: Full house, Jacks full of Aces" in report
        assert "J♥ J♦ J♠ A♥ A♣" in text_of(app, "#seat-0")


async def test_the_log_has_no_line_of_a_lone_dash() -> None:
    """The deal's first line ended with a dash, which the log wrapped to a line of its own."""
    session, _ = new_session()
    session.start_deal(deck=deck(FULL_DEAL_HANDS, FULL_DEAL_STOCK))
    app = make_app(session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n", "p")  # a passed deal
        await pilot.press("enter")
        lines = [line.text.strip() for line in app.table.query_one("#log", RichLog).lines]
        assert lines and not any(line in {"—", "-"} for line in lines)
        assert any(line.startswith("Deal 2: ") for line in lines)


async def test_six_seats_sit_in_two_rows_of_three() -> None:
    names = ("Player", "Anna", "Bruno", "Carla", "Dario", "Elena")
    session, _ = new_session(names=names)
    app = PokerApp(session, lang=Language.EN, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.table.query_one("#seats").styles.grid_size_columns == 3
        rows = {box.region.y for box in app.table.query("SeatBox")}
        assert len(rows) == 2


@pytest.mark.parametrize(
    ("cards", "ordered"),
    [
        ("Ac Kh Ks Ad Ah", "A♥ A♦ A♣ K♥ K♠"),
        ("9d 7s Ac 9h Kd", "9♥ 9♦ A♣ K♦ 7♠"),
        ("8c Kh 8s Kd Ah", "K♥ K♦ 8♣ 8♠ A♥"),
        ("Th 7c Ah 9s 8d", "10♥ 9♠ 8♦ 7♣ A♥"),  # a low ace comes last (Art. 6)
        ("Jh Ah Kh Th Qh", "A♥ K♥ Q♥ J♥ 10♥"),
        ("7h Jh 9h Ah 8h", "A♥ J♥ 9♥ 8♥ 7♥"),
    ],
)
def test_a_hand_is_shown_in_its_own_order(cards: str, ordered: str) -> None:
    hand = parse_cards(cards)
    assert cards_text(hand_order(hand, evaluate(hand, players=4))) == ordered


@given(st.lists(st.sampled_from(Deck(4).cards), min_size=5, max_size=5, unique=True))
@settings(max_examples=60, deadline=None)
def test_the_hands_order_is_the_same_hand(cards: list[Card]) -> None:
    rank = evaluate(cards, players=4)
    ordered = hand_order(cards, rank)
    assert set(ordered) == set(cards) and len(ordered) == 5
    assert evaluate(ordered, players=4) == rank


@pytest.mark.parametrize(
    ("low", "high", "already", "lang", "said"),
    [
        (5, 5, 0, Language.EN, "5"),
        (20, 20, 10, Language.EN, "10 (to 20)"),
        (5, 14, 4, Language.EN, "1-10 (to 5-14)"),
        (20, 20, 10, Language.IT, "10 (a 20)"),
    ],
)
def test_an_amount_says_what_is_added_and_what_the_bet_becomes(
    low: int, high: int, already: int, lang: Language, said: str
) -> None:
    assert amount_text(low, high, already, lang) == said
