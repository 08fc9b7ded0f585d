"""The page of an expired table (its game deleted by the sweep after ``expire_days`` without
play: docs/server.md, bounded memory), in Debian's Chromium: a 410, and the page says the
table was closed instead of trying to reconnect.

The server runs in this process (uvicorn in a thread, browser_steps.LiveServer) on SQLite,
on a fake clock the test moves on by days; its sweep runs every (fake) second."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from browser_steps import LiveServer, browser, hold_seat, new_page
from server_fixtures import FakeClock

from italian_poker.server.i18n import PAGE_MESSAGES
from italian_poker.server.rows import DAY

__all__ = ["browser"]  # the fixture, from browser_steps

WAIT = 30.0


def status_of(url: str) -> int:
    """The HTTP status of ``GET url``."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def test_the_page_of_an_expired_table_says_it_was_closed(browser: Any, tmp_path: Path) -> None:
    clock = FakeClock()
    running = LiveServer(
        f"sqlite:///{tmp_path / 'server.sqlite3'}",
        clock=clock,
        sleep=clock.sleep,
        sweep_seconds=1.0,
        idle_unload_seconds=60.0,
        expire_days=1.0,
        reconnect_grace_seconds=30.0,
    )
    running.start()
    try:
        table = running.post("/api/tables", {"name": "Old", "host_nickname": "Alice"})
        api = f"{running.base_url}/api/tables/{table['invite']}"
        assert status_of(api) == 200
        deadline = time.monotonic() + WAIT
        # Days go by: the host's grace period ends, the table is unloaded, then expired.
        while status_of(api) != 410:
            assert time.monotonic() < deadline, "the table did not expire"
            clock.offset += DAY
            time.sleep(1.5)
        context = browser.new_context()
        hold_seat(context, table)
        errors: list[str] = []
        page = new_page(context, errors)
        response = page.goto(f"{running.base_url}/t/{table['invite']}")
        assert response is not None and response.status == 410
        texts = json.dumps(list(PAGE_MESSAGES["table_expired"]))
        page.wait_for_function(
            f"() => {texts}.some((text) => document.body.textContent.includes(text))"
        )
        assert errors == []
        context.close()
    finally:
        running.stop()
