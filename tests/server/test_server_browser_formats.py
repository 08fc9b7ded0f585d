"""A match format in a real browser: the host creates a sit and go in the lobby's form (a
custom schedule, prizes, a re-entry window), adds a bot, starts, and plays until the level
rises; the level, the next one and when it comes show above the felt at phone size (390x844)
without covering the host's cards, and on a desktop; a spectator sees the level too.
Screenshots at both sizes (``$ITALIAN_POKER_SCREENSHOTS``).

Debian's Chromium through Playwright, the server in a thread: ``tests/browser_steps.py``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_steps import (
    SCREENSHOTS,
    LiveServer,
    Page,
    act_passively,
    add_bots,
    browser,
    hold_seat,
    my_turn,
    new_page,
    seat_token,
    shot,
)

__all__ = ["browser"]  # the fixture (browser_steps)


@pytest.fixture
def quick_server(tmp_path: Path) -> Iterator[LiveServer]:
    """The server with a short pause between deals (the level rises after a few)."""
    running = LiveServer(f"sqlite:///{tmp_path / 'server.sqlite3'}", next_deal_seconds=0.3)
    running.start()
    try:
        yield running
    finally:
        running.stop()


def _level_text(page: Page) -> str:
    return str(page.text_content("#match-line .match-level") or "")


def _play_until(page: Page, done: str, seconds: float = 90.0) -> None:
    """The host acts at each turn (the bot plays itself) until ``done`` (a JS expression)."""
    deadline = time.monotonic() + seconds
    while not page.evaluate(done):
        assert time.monotonic() < deadline, f"never came: {done}"
        if my_turn(page):
            act_passively(page)
        time.sleep(0.05)


def _box(page: Page, selector: str) -> dict[str, float]:
    return dict(page.eval_on_selector(selector, "e => e.getBoundingClientRect().toJSON()"))


def test_a_sit_and_go_created_in_the_lobby_shows_its_level_rising(
    quick_server: LiveServer, browser: Any
) -> None:
    errors: list[str] = []
    phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = new_page(phone, errors)
    page.goto(quick_server.base_url + "/")
    page.fill("input[name=host_nickname]", "Alice")
    page.select_option("select[name=lang]", "en")
    page.uncheck("input[name=timer_on]")
    page.select_option("select[name=format]", "sit-and-go")
    assert page.is_hidden("input[name=length_value]")  # a fixed match's field
    page.select_option("select[name=schedule]", "custom")
    page.fill("input[name=levels]", "1x2,2x2,4x50")
    page.fill("input[name=stack]", "300")
    page.fill("input[name=prize_pool]", "1000")
    page.fill("input[name=shares]", "70, 30")
    page.select_option("select[name=re_entry]", "levels")
    page.fill("input[name=re_entry_value]", "2")
    shot(page, "formats-lobby-phone")
    page.click("#create-form button[type=submit]")
    page.wait_for_selector("li.seat.you")
    invite = str(page.url.rsplit("/t/", 1)[1])
    add_bots(page, "simple")
    page.click("#start")
    page.wait_for_selector("#match-line .match-level")
    assert _level_text(page) == "Level 1/3: ante 1, bets 1-10"
    assert "next: ante 2 from deal 3" in str(page.text_content("#match-line"))
    _play_until(
        page,
        "() => document.querySelector('#match-line .match-level')"
        ".textContent.startsWith('Level 2/3')",
    )
    assert _level_text(page) == "Level 2/3: ante 2, bets 2-20"
    _play_until(page, "() => !!document.querySelector('#hand .card')")
    # The level's line is above the felt: it covers neither the cards nor the actions.
    bar, hand = _box(page, "#match-bar"), _box(page, "#hand")
    assert bar["bottom"] <= hand["top"] or bar["top"] >= hand["bottom"]
    assert bar["width"] <= 390
    shot(page, "formats-level-phone")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SCREENSHOTS / "formats-level-phone-screen.png"))  # what one sees

    desktop = browser.new_context(viewport={"width": 1366, "height": 900})
    hold_seat(
        desktop,
        {
            "invite": invite,
            "player_token": seat_token(page, invite),
            "host_token": seat_token(page, invite, "host_token"),
        },
    )
    wide = new_page(desktop, errors)
    wide.goto(f"{quick_server.base_url}/t/{invite}")
    wide.wait_for_selector("#match-line .match-level")
    assert _level_text(wide).startswith("Level 2/3")
    shot(wide, "formats-level-desktop")

    # A spectator sees the level.
    watch = quick_server.post(
        f"/api/tables/{invite}/watch", {"open": True}, seat_token(page, invite, "host_token")
    )
    spectator = new_page(browser.new_context(viewport={"width": 390, "height": 844}), errors)
    spectator.goto(f"{quick_server.base_url}/w/{watch['watch']}")
    spectator.wait_for_selector("#match-line .match-level")
    assert _level_text(spectator).startswith("Level 2/3")
    shot(spectator, "formats-spectator-phone")
    assert errors == []


def test_the_standings_and_prizes_show_when_the_sit_and_go_is_over(
    quick_server: LiveServer, browser: Any
) -> None:
    errors: list[str] = []
    table = quick_server.post(
        "/api/tables",
        {
            "host_nickname": "Alice",
            "lang": "en",
            "turn_seconds": None,
            "format": "sit-and-go",
            "stack": 20,
            "schedule": "1x1,25x1",  # after the first deal nobody has the ante: the match ends
            "prize_pool": 100,
            "shares": [70, 30],
        },
    )
    invite, host = table["invite"], table["host_token"]
    quick_server.post(f"/api/tables/{invite}/bots", {"level": "simple"}, host)
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    hold_seat(context, table)
    page = new_page(context, errors)
    page.goto(f"{quick_server.base_url}/t/{invite}")
    page.wait_for_selector("li.seat.you")
    quick_server.post(f"/api/tables/{invite}/start", {}, host)
    _play_until(page, "() => !document.getElementById('standings').hidden")
    rows = page.eval_on_selector_all(
        "#standings tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))"
    )
    assert [row[0] for row in rows] == ["1", "2"]
    assert [row[3] for row in rows] == ["70", "30"]
    assert sorted(row[1] for row in rows) == ["Alice", "Anna"]
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "formats-standings-phone")
    assert errors == []
