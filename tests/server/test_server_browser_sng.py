"""A home sit and go in a real browser: the host makes a locked sit and go (small stacks, a
steep schedule, re-entry open for the first levels) with a bot; a second person on a phone
asks for a seat and the host admits them; the first of the two people to bust asks to
re-enter (the page says the request waits for the host) and the host approves it at the desk
(the host's own request is approved at once); the match is played to its end, and the
standings and the ledger's settle-up list on the host's page are the server's: the nets sum
to zero and the transfers settle them. Nothing covers the phone's own cards. Screenshots at
390x844 and 1280x900 (``$ITALIAN_POKER_SCREENSHOTS``).

Debian's Chromium through Playwright, the server in a thread: ``tests/browser_steps.py``.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_steps import (
    PASSIVE,
    LiveServer,
    Page,
    act_passively,
    browser,
    my_turn,
    new_page,
    open_seat,
    shot,
    uncovered,
)

from italian_poker.server.i18n import page_strings, tr
from italian_poker.table.vocabulary import Language

__all__ = ["browser"]  # the fixture (browser_steps)

EN = page_strings(Language.EN)["messages"]
STACK = 5
GIVE_UP = ("fold", "decline", "make-up", "check", "pass", "show", "call", "open")
"""How the guest plays: folds whenever it may, so the antes take their chips."""


@pytest.fixture
def quick_server(tmp_path: Path) -> Iterator[LiveServer]:
    """The server with a short pause between deals (the match ends after a few)."""
    running = LiveServer(f"sqlite:///{tmp_path / 'server.sqlite3'}", next_deal_seconds=0.3)
    running.start()
    try:
        yield running
    finally:
        running.stop()


def _play_until(host: Page, guest: Page, done: Any, seconds: float = 120.0) -> None:
    """Each page acts at its turns (the host passively, the guest giving up; the bot plays
    itself) until ``done()``."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "the match did not get there"
        for page, priority in ((host, PASSIVE), (guest, GIVE_UP)):
            if my_turn(page):
                with contextlib.suppress(StopIteration):  # the buttons changed: look again
                    act_passively(page, priority)
        time.sleep(0.05)


def _shown(page: Page, selector: str) -> bool:
    return bool(
        page.evaluate(
            f"() => !!document.querySelector({selector!r}) && "
            f"!document.querySelector({selector!r}).hidden"
        )
    )


def test_the_host_admits_a_guest_and_approves_a_re_entry_and_the_ledger_settles(
    quick_server: LiveServer, browser: Any
) -> None:
    errors: list[str] = []
    server = quick_server
    table = server.post(
        "/api/tables",
        {
            "name": "Casa",
            "host_nickname": "Alice",
            "lang": "en",
            "turn_seconds": None,
            "format": "sit-and-go",
            "stack": STACK,
            "schedule": "1x2,2x2,3x2,10x50",
            "re_entry_levels": 3,
        },
    )
    invite, host_token = table["invite"], table["host_token"]
    server.post(f"/api/tables/{invite}/bots", {"level": "simple"}, host_token)
    host = open_seat(browser.new_context(viewport={"width": 1280, "height": 900}), server, table)
    host.on("pageerror", lambda error: errors.append(str(error)))
    guest = new_page(browser.new_context(viewport={"width": 390, "height": 844}), errors)

    # The host locks the table; Bruno asks for a seat and the host admits him.
    host.wait_for_selector("#desk:not([hidden])")
    host.check("#desk-lock")
    host.wait_for_selector("#log-lines li:has-text('The table is locked')")
    guest.goto(f"{server.base_url}/t/{invite}")
    guest.fill("#join-form input[name=nickname]", "Bruno")
    guest.click("#join-form button[type=submit]")
    guest.wait_for_selector("#seat-wait:not([hidden])")
    request = host.locator("#desk-requests li", has_text="Bruno")
    request.wait_for()
    request.get_by_role("button", name=f"{EN['desk_admit']}: ").click()
    guest.wait_for_selector("li.seat.you", timeout=15_000)
    # A sit and go has no rebuys or top-ups to ask for: the way back is the re-entry.
    assert guest.is_hidden("#chips-ask")

    # Play until one of the two people busts.
    host.click("#start")
    host.wait_for_selector("#match-line .match-level")
    pages = {"Alice": host, "Bruno": guest}

    def busted() -> str | None:
        return next((n for n, p in pages.items() if _shown(p, "#re-enter")), None)

    def over() -> bool:
        return _shown(host, "#standings")

    _play_until(host, guest, lambda: busted() is not None or over())
    assert not over(), "the match ended before a person busted"
    name = busted()
    assert name is not None
    page = pages[name]
    button = tr(Language.EN, "re_enter", chips=STACK)
    assert page.inner_text("#re-enter") == button
    shot(guest, "sng-390x844-busted" if name == "Bruno" else "sng-390x844-host-busted")
    page.click("#re-enter")
    if name == "Bruno":
        # The guest's request waits for the host, who approves it at the desk.
        waiting = tr(Language.EN, "re_enter_waiting", chips=STACK)
        guest.wait_for_selector(f"#re-enter-status:has-text('{waiting[:20]}')")
        assert guest.inner_text("#re-enter-status") == waiting
        assert guest.is_disabled("#re-enter")
        shot(guest, "sng-390x844-re-entry-waiting")
        row = host.locator("#desk-requests li", has_text="Bruno")
        row.wait_for()
        assert row.inner_text().startswith(
            tr(Language.EN, "desk_re_entry_request", name="Bruno", chips=STACK)
        )
        shot(host, "sng-1280x900-re-entry-request")
        row.get_by_role("button", name=f"{EN['desk_approve']}: ").click()
    said = tr(Language.EN, "table_re_enter", name=name, chips=STACK, count=1)
    host.wait_for_selector(f"#log-lines li:has-text('{said}')", timeout=15_000)
    page.wait_for_selector("#re-enter", state="hidden")

    # On the phone, nothing covers Bruno's own cards once a deal is dealt.
    _play_until(host, guest, lambda: over() or guest.locator("#hand .card").count() > 0)
    if not over():
        assert uncovered(guest, "#hand .card")
        shot(guest, "sng-390x844-deal")

    # Play to the end: one winner; the standings count the re-entry.
    _play_until(host, guest, over, seconds=240.0)
    rows = host.eval_on_selector_all(
        "#standings tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))"
    )
    state = server.get(f"/api/tables/{invite}/ledger", host_token)
    assert [row[0] for row in rows] == [str(k) for k in range(1, len(rows) + 1)]
    assert len(rows) == 3
    re_entered = next(row for row in rows if row[1].startswith(name))
    assert "re-entry" in re_entered[1]

    # The ledger on the host's page: the server's rows, nets summing to zero, and the
    # settle-up list settling them.
    ledger = state
    kinds = [(r["nickname"], r["kind"]) for r in ledger["ledger"]]
    assert (name, "re_entry") in kinds and ("Bruno", "buy_in") in kinds
    summary = ledger["summary"]
    nets = {p["nickname"]: p["net"] for p in summary["people"]}
    assert sum(nets.values()) == 0 and summary["totals"]["net"] == 0
    person = next(p for p in summary["people"] if p["nickname"] == name)
    assert person["bought_in"] == 2 * STACK
    settle = summary["settle_up"]
    assert settle is not None
    owed = dict(nets)
    for transfer in settle:
        owed[transfer["payer"]] += transfer["amount"]
        owed[transfer["payee"]] -= transfer["amount"]
    assert not any(owed.values())
    host.click("#ledger-show")
    host.wait_for_selector("#ledger table.ledger-summary")
    said_list = host.locator("#ledger .ledger-settle li").all_inner_texts()
    assert said_list == [
        EN["ledger_pays"].format(payer=t["payer"], payee=t["payee"], amount=t["amount"])
        for t in settle
    ]
    shown_nets = host.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll(
              '#ledger table.ledger-summary tbody tr:not(.ledger-pot)')].map((row) => {
              const cells = [...row.querySelectorAll('td.num')];
              return [row.querySelector('th').textContent,
                      Number(cells[cells.length - 1].dataset.value)];
            }))"""
    )
    assert {k: v for k, v in shown_nets.items() if k in nets} == nets
    host.locator("#ledger").scroll_into_view_if_needed()
    shot(host, "sng-1280x900-ledger")
    guest.evaluate("window.scrollTo(0, 0)")
    shot(guest, "sng-390x844-standings")
    assert errors == []
