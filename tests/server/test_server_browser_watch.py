"""Spectators in the browser (issue 13), in Debian's Chromium: the host opens the watch link
from the host's controls (one deal behind), a host and a player (each in a browser of their
own) and a bot play full deals while two spectators' pages, at 1280x800 and on a 390x844
touch screen, record every WebSocket frame they receive and every change of their page; no
frame and no page ever holds a card the table did not see. Then the host switches the delay
off (the next deal is watched live) and closes the link, which the spectators' pages say.

The server runs in this process (uvicorn in a thread, as in test_server_browser_felt.py) on
SQLite, with bots that wait a little and a short pause between deals.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_steps import (
    LiveServer,
    act_passively,
    browser,
    my_turn,
    new_table,
    open_seat,
    shot,
    table_state,
)
from test_server_watch import assert_nothing_hidden, card_names, public_cards

from italian_poker.server.app import STATIC
from italian_poker.server.i18n import PAGE_MESSAGES

__all__ = ["browser"]  # the fixture, from browser_steps

Page = Any  # playwright.sync_api.Page

DEALS = 2
"""Deals played one deal behind before the host switches the delay off."""

PAGE_WATCH = """
  window.__pages = [];
  const take = () => window.__pages.push({
    cards: [...document.querySelectorAll('[data-card]')].map((e) => e.dataset.card),
    text: document.body ? document.body.textContent : '',
    actions: document.querySelectorAll('button.action').length,
  });
  new MutationObserver(take).observe(document, {
    subtree: true, childList: true, characterData: true, attributes: true,
  });
"""
"""Records the page at every change: the cards it shows (by code), its text, its actions."""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    """The felt tests' server with bots that wait 0.3 s, and 1.5 s between deals."""
    running = LiveServer(
        f"sqlite:///{tmp_path / 'server.sqlite3'}",
        bot_delay_seconds=0.3,
        default_turn_seconds=None,
        next_deal_seconds=1.5,
    )
    running.start()
    try:
        yield running
    finally:
        running.stop()


def seated_page(context: Any, server: LiveServer, invite: str, seat: dict[str, Any]) -> Page:
    """The table's page holding ``seat`` (its tokens in the browser's storage)."""
    return open_seat(context, server, {"invite": invite, **seat})


def spectator_page(context: Any, url: str) -> tuple[Page, list[str]]:
    """The spectators' page at ``url``, recording its changes and every frame it receives."""
    frames: list[str] = []

    def on_socket(socket: Any) -> None:
        if "/ws/watch/" in socket.url:
            socket.on("framereceived", lambda payload: frames.append(str(payload)))

    context.add_init_script(PAGE_WATCH)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.on("websocket", on_socket)
    page.goto(url)
    page.wait_for_selector("#watching:not([hidden])")
    return page, frames


def play_while(pages: list[Page], done: Any, seconds: float) -> None:
    """The seated pages act passively at every turn until ``done()``."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "the table did not get there in time"
        for page in pages:
            if my_turn(page):
                act_passively(page)
        time.sleep(0.05)


def replaying(page: Page) -> bool:
    return "as it was played" in page.inner_text("#watching-line")


def test_a_spectator_never_receives_a_hidden_card(server: LiveServer, browser: Any) -> None:
    table = new_table(server, nickname="Alice", bots=1)
    invite = table["invite"]
    bruno = table["call"](f"/api/tables/{invite}/seats", {"nickname": "Bruno"})
    host_context = browser.new_context(viewport={"width": 1280, "height": 800})
    host = seated_page(host_context, server, invite, table)
    # The host opens the table to spectators, one deal behind, from the host's controls.
    host.check("#watch-open")
    host.wait_for_selector("#watch-link-row:not([hidden])")
    host.check("#watch-delay")
    host.wait_for_function(
        "() => document.querySelector('#watch-note').textContent.includes('one deal')"
    )
    url = host.input_value("#watch-url")
    assert re.fullmatch(rf"{re.escape(server.base_url)}/w/[A-Za-z0-9_-]{{24}}", url), url
    assert "Open to spectators, one deal behind" in host.inner_text("#watch-note")
    assert host.is_visible("#watch-copy") and host.is_hidden("#watch-unknown")
    player = seated_page(
        browser.new_context(viewport={"width": 1280, "height": 800}), server, invite, bruno
    )
    wide, wide_frames = spectator_page(
        browser.new_context(viewport={"width": 1280, "height": 800}), url
    )
    narrow, narrow_frames = spectator_page(
        browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True),
        url,
    )
    for page in (wide, narrow):
        assert page.is_hidden("#actions") and page.is_hidden("#join") and page.is_hidden("#host")
        assert page.is_hidden("#chat")  # the players' chat: a spectator has none
        assert "You are watching" in page.inner_text("#watching")
    host.wait_for_function(  # the count against the server's cap (GET /api/server)
        "() => document.querySelector('#watch-count').textContent === 'Spectators: 2 / 50'"
    )
    assert "2 spectators watching" in player.inner_text("#watch-note")
    assert player.is_hidden("#host")  # a player sees the note, not the control
    shot(host, "watch-host-1280x800")
    host.click("#start")
    # Deal 1 under way: the spectators see the table as it was before it, and say so.
    line = "() => document.getElementById('watching-line').textContent"
    wide.wait_for_function(f"() => ({line})().startsWith('Deal 1 is under way')")
    assert wide.inner_text("#pot") == "Pot 0"
    assert wide.locator("#seats .card[data-card]").count() == 0
    state = table_state(server.app, invite)
    play_while([host, player], lambda: replaying(wide), 90)
    # Deal 1 has ended: the spectators are shown it, step by step, to its result.
    step = re.compile(r"Deal 1 as it was played: step (\d+) of (\d+)")
    narrow.wait_for_function(f"() => /step ([5-9]|\\d\\d) of/.test(({line})())")
    shot(narrow, "watch-390x844")

    def at_the_result() -> bool:
        found = step.search(wide.inner_text("#watching-line"))
        return found is not None and found.group(1) == found.group(2)

    play_while([host, player], at_the_result, 90)
    assert wide.locator("#result-lines p:not(.muted)").count() > 0
    assert wide.locator("li.seat.winner").count() > 0 or "passed" in wide.inner_text("#log")
    shot(wide, "watch-1280x800")
    play_while([host, player], lambda: len(state.match.completed) >= DEALS, 120)
    # The delay off: the next deal is watched as it is played.
    host.uncheck("#watch-delay")
    play_while([host, player], lambda: len(state.match.completed) >= DEALS + 1, 120)
    wide.wait_for_function(
        "() => !document.getElementById('watching-line').textContent", timeout=60_000
    )
    # The host closes the link: the spectators' pages say so, and stop.
    host.uncheck("#watch-open")
    for page in (wide, narrow):
        page.wait_for_selector("#error:not([hidden])")
        assert "The host closed this watch link" in page.inner_text("#error-text")
    host.wait_for_selector("#watch-link-row", state="hidden")
    state = table_state(server.app, invite)
    for frames, page in ((wide_frames, wide), (narrow_frames, narrow)):
        messages = [json.loads(text) for text in frames]
        assert_nothing_hidden(messages, state)
        for message in messages:
            if message["type"] == "state":
                assert not {"you", "host", "hand", "legal"} & set(message["state"])
                assert "invite" not in message["state"]["table"]
        assert invite not in "".join(frames)
        replays = [m["hand"] for m in messages if m["type"] == "replay"]
        assert replays[:DEALS] == list(range(1, DEALS + 1))
        assert_pages_show_nothing_hidden(page.evaluate("window.__pages"), state)
    shown = set().union(*(public_cards(c) for c in state.match.completed))
    assert shown, "the seeded deals showed no hand: pick a seed with a showdown"


def assert_pages_show_nothing_hidden(pages: list[dict[str, Any]], state: Any) -> None:
    """Each recorded page showed only cards shown in one same finished deal, named only
    cards shown in some deal, and never an action button."""
    public = [public_cards(c) for c in state.match.completed]
    said = set().union(*public) if public else set()
    assert pages, "no change of the page was recorded"
    for seen in pages:
        cards = set(seen["cards"])
        assert not cards or any(cards <= deal for deal in public), cards
        assert card_names(seen["text"]) <= said
        assert seen["actions"] == 0
    assert any(seen["cards"] for seen in pages), "no shown card ever reached the page"


def test_a_void_watch_link_says_so(server: LiveServer, browser: Any) -> None:
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    response = page.goto(f"{server.base_url}/w/AAAAAAAAAAAAAAAAAAAAAAAA")
    assert response is not None and response.status == 404
    page.wait_for_selector("#error:not([hidden])")
    assert "This watch link does not work" in page.inner_text("#error-text")
    assert page.is_hidden("#game") and page.is_hidden("#join")


def test_every_label_of_the_watch_page_exists() -> None:
    used = set(re.findall(r'\bt\(lang, "([a-z0-9_]+)"', (STATIC / "watch.js").read_text()))
    js = (STATIC / "table.js").read_text()
    used |= set(re.findall(r'\btr\("(watch[a-z0-9_]*)"', js))
    assert {"watching_text", "watching_delayed", "watching_replay", "watch_count"} <= used
    assert "watch_count_cap" in used
    assert used - PAGE_MESSAGES.keys() == set()
