"""The browser table as players see it (issue 13), in Debian's Chromium: your cards at your
own seat and the actions in view at 1280x800; the felt after a deal (the winners marked,
the pot and why it was won, a chip flying to each winner unless reduced motion is asked
for); the turn's timer bar, the turn sound (muted until switched on) and the title's blink
in a hidden tab; touch screens without keyboard hints; and the outage: a banner, the
actions disabled and the clock stopped while the server is down, all back on reconnect.

The server runs in this process on SQLite (``tests/browser_steps.py``: ``sqlite_server``);
the outage test stops it and starts it again on the same port and database.
"""

from __future__ import annotations

import time
from typing import Any

from browser_steps import (
    LiveServer,
    Page,
    act_passively,
    browser,
    my_turn,
    new_table,
    open_seat,
    play_to_the_draw,
    play_to_the_result,
    shot,
    start,
    table_state,
    wait_for_my_turn,
)
from browser_steps import sqlite_server as server

__all__ = ["browser", "server"]  # the fixtures (browser_steps)


def in_view(page: Page, selector: str) -> bool:
    """Whether the whole of every element matching ``selector`` is inside the viewport."""
    return bool(
        page.eval_on_selector_all(
            selector,
            """els => els.length > 0 && els.every(e => {
                 const r = e.getBoundingClientRect();
                 return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight
                   && r.right <= innerWidth;
               })""",
        )
    )


CHIP_WATCH = """
  window.__chips = 0;
  new MutationObserver((changes) => {
    for (const change of changes) {
      for (const node of change.addedNodes) {
        if (node.classList && node.classList.contains('chip-fly')) window.__chips += 1;
      }
    }
  }).observe(document, { childList: true, subtree: true });
"""
"""Counts the chips sent flying (they are removed once they land)."""


def test_your_cards_sit_at_your_seat_and_the_actions_are_in_view_at_1280x800(
    server: LiveServer, browser: Any
) -> None:
    table = new_table(server)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = open_seat(context, server, table)
    start(table)
    wait_for_my_turn(page)
    # Your five cards are in your own seat on the felt, and they and the actions are on screen.
    assert page.locator("li.seat.you #hand .card").count() == 5
    assert in_view(page, "li.seat.you #hand .card")
    assert in_view(page, "#action-buttons button.action")
    shot(page, "table-1280x800-turn")
    # The turn's clock is a bar as well as a number, and it runs down.
    assert page.is_visible("#timer-bar") and page.is_visible("#my-timer")
    width = "() => parseFloat(document.querySelector('#my-timer span').style.width)"
    before = page.evaluate(width)
    assert 0 < before <= 100
    page.wait_for_function(f"() => ({width})() < {before}", timeout=5_000)
    # The draw, too: the cards to mark at the seat, the confirm button in view.
    play_to_the_draw(page)
    assert page.locator("li.seat.you #hand button.card").count() == 5
    assert in_view(page, "li.seat.you #hand button.card")
    assert in_view(page, "#draw-confirm")
    shot(page, "table-1280x800-draw")
    context.close()


def test_the_felt_marks_the_winners_and_says_why_until_the_next_deal(
    server: LiveServer, browser: Any
) -> None:
    table = new_table(server)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(CHIP_WATCH)
    page = open_seat(context, server, table)
    start(table)
    play_to_the_result(page)
    outcome = table_state(server.app, table["invite"]).outcome
    assert outcome is not None and outcome.awards, "the seeded deal is won at the table"
    winners = {seat for award in outcome.awards for seat in award["winners"]}
    page.wait_for_function("() => document.querySelectorAll('li.seat.winner').length > 0")
    marked = {
        int(s)
        for s in page.eval_on_selector_all("li.seat.winner", "l => l.map(e => e.dataset.seat)")
    }
    assert marked == winners
    for seat in winners:
        assert "winner" in page.inner_text(f"li.seat[data-seat='{seat}'] .tags")
    # The pot won (not "Pot 0") and each pot's sentence of the report, on the felt.
    total = sum(award["amount"] for award in outcome.awards)
    assert page.inner_text("#pot") == f"Pot {total}"
    assert page.eval_on_selector_all("#awards p", "ps => ps.map(p => p.textContent)") == [
        award["line"]["en"] for award in outcome.awards
    ]
    assert in_view(page, "#awards p")
    shot(page, "table-1280x800-result")
    # A chip flew to each winner, and the felt still tells the result a while later.
    page.wait_for_function(f"() => window.__chips >= {len(winners)}")
    page.wait_for_function("() => !document.querySelector('.chip-fly')")  # landed and gone
    assert page.locator("li.seat.winner").count() == len(winners)
    assert page.locator("#awards p").count() == len(outcome.awards)
    # In Italian the same sentences, from the server's Italian lines.
    page.click("#lang-switch")
    assert page.eval_on_selector_all("#awards p", "ps => ps.map(p => p.textContent)") == [
        award["line"]["it"] for award in outcome.awards
    ]
    context.close()


def test_no_chip_flies_for_a_player_who_asks_for_reduced_motion(
    server: LiveServer, browser: Any
) -> None:
    table = new_table(server)
    context = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce")
    context.add_init_script(CHIP_WATCH)
    page = open_seat(context, server, table)
    start(table)
    play_to_the_result(page)
    page.wait_for_function("() => document.querySelectorAll('li.seat.winner').length > 0")
    time.sleep(0.5)
    assert page.evaluate("window.__chips") == 0
    context.close()


def test_a_touch_screen_shows_no_keyboard_hints_and_long_names_fit_their_seat(
    server: LiveServer, browser: Any
) -> None:
    table = new_table(server, nickname="Massimiliano_Rossi__")  # 20 characters, no space
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    page = open_seat(context, server, table)
    start(table)
    wait_for_my_turn(page)
    assert page.locator("#action-buttons kbd").count() > 0
    assert page.eval_on_selector_all("kbd", "ks => ks.filter(k => k.offsetParent).length") == 0
    # No seat's box is wider than its content allows: the long name wraps inside it.
    overflowing = page.eval_on_selector_all(
        "li.seat", "ls => ls.filter(l => l.scrollWidth > l.clientWidth + 1).map(l => l.innerText)"
    )
    assert overflowing == []
    shot(page, "table-390x844-turn")
    # The draw says to tap, and names no key.
    play_to_the_draw(page)
    help_text = page.inner_text("#draw-help")
    assert "Tap" in help_text and "1-5" not in help_text and "Enter" not in help_text
    assert "Enter" not in page.inner_text("#draw-confirm")
    # The actions, with your cards, stay at the bottom of the screen during the draw too.
    assert page.eval_on_selector("#actions", "a => getComputedStyle(a).position") == "fixed"
    assert page.locator("#actions #hand").count() == 1
    context.close()


def test_the_turn_sound_is_off_until_switched_on_and_a_hidden_tab_blinks(
    server: LiveServer, browser: Any
) -> None:
    table = new_table(server)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(
        """
        window.__tones = 0;
        const make = AudioContext.prototype.createOscillator;
        AudioContext.prototype.createOscillator = function () {
          window.__tones += 1;
          return make.call(this);
        };
        window.__hidden = false;
        Object.defineProperty(document, 'hidden', { get: () => window.__hidden });
        """
    )
    page = open_seat(context, server, table)
    assert not page.is_checked("#sound")  # muted by default
    start(table)
    wait_for_my_turn(page)
    assert page.evaluate("window.__tones") == 0
    act_passively(page)
    # The tab hidden, then the sound switched on (a click, as browsers require before a
    # sound): in this order, a turn that sounds is one the hidden tab blinks for (the other
    # order let a turn that began between the two sound without blinking, CI stop 35).
    page.evaluate("window.__hidden = true")
    page.check("#sound")
    deadline = time.monotonic() + 30
    while not page.evaluate("window.__tones"):
        assert time.monotonic() < deadline, "no tone at the next turn"
        if my_turn(page) and not page.evaluate("window.__tones"):
            # This turn began before the switch: pass it, the next one sounds.
            act_passively(page)
        time.sleep(0.05)
    page.wait_for_function("() => document.title === 'Your turn!'", timeout=3_000)
    # Seen again: the title is the table's.
    page.evaluate("window.__hidden = false; document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function("() => document.title.startsWith('Felt')", timeout=3_000)
    assert page.evaluate("localStorage.getItem('italian-poker.sound')") == "1"
    context.close()


def test_an_outage_shows_a_banner_disables_actions_and_stops_the_clock_until_reconnected(
    server: LiveServer, browser: Any
) -> None:
    table = new_table(server)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    page = open_seat(context, server, table)
    page.on("pageerror", lambda error: errors.append(str(error)))
    start(table)
    wait_for_my_turn(page)
    assert page.is_hidden("#outage")
    server.stop()
    page.wait_for_selector("#outage", state="visible")
    assert page.get_attribute("#outage", "role") == "alert"
    assert "Connection lost" in page.inner_text("#outage")
    assert page.locator("#action-buttons button.action:not([disabled])").count() == 0
    assert page.locator("#action-buttons button.action[disabled]").count() > 0
    assert page.locator("#amount-row:not([hidden]) #amount:not([disabled])").count() == 0
    # The clock is the server's: stopped while it is away, neither bar nor seconds shown.
    assert page.is_hidden("#timer-bar") and page.is_hidden("#my-timer")
    assert "s left" not in page.inner_text("#turn")
    shot(page, "table-1280x800-outage")
    # A key does nothing meanwhile.
    page.keyboard.press("c")
    page.keyboard.press("f")
    time.sleep(0.3)
    # The server is back: the page reconnects by itself and shows the table as it is.
    server.start()
    page.wait_for_selector("#outage", state="hidden", timeout=20_000)
    wait_for_my_turn(page)
    assert page.is_visible("#my-timer")
    state = table_state(server.app, table["invite"])
    assert page.inner_text("#pot") == f"Pot {state.public_view().pot}"
    assert errors == []
    context.close()
