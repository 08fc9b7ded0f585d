"""The desk in a real browser: the host locks the table, a newcomer on a phone waits and is
admitted; the newcomer, short of the ante, asks for chips (one request over the host's
maximum refused in words), the host approves the rebuy and the newcomer's stack and the
ledger show it; on the phone nothing covers the newcomer's cards once the deal is dealt.
Screenshots at 390x844 and 1280x900 (``ITALIAN_POKER_SCREENSHOTS``).

Debian's Chromium through Playwright, the server in a thread: ``tests/browser_steps.py``.
"""

from __future__ import annotations

import time
from typing import Any

from browser_steps import (
    DEAL_SECONDS,
    LiveServer,
    act_passively,
    browser,
    my_turn,
    new_page,
    open_seat,
    seat_token,
    server,
    shot,
    uncovered,
)

from italian_poker.server.i18n import page_strings, tr
from italian_poker.table.vocabulary import Language

__all__ = ["browser", "server"]  # the fixtures (browser_steps)

EN = page_strings(Language.EN)["messages"]
IT = page_strings(Language.IT)["messages"]


def test_the_host_admits_a_newcomer_and_approves_a_rebuy(server: LiveServer, browser: Any) -> None:
    errors: list[str] = []
    table = server.post(
        "/api/tables",
        {"name": "Casa", "host_nickname": "Alice", "lang": "en", "turn_seconds": None, "ante": 5},
    )
    invite, host_token = table["invite"], table["host_token"]
    table["call"] = server.post
    host_context = browser.new_context(viewport={"width": 1280, "height": 900})
    phone_context = browser.new_context(viewport={"width": 390, "height": 844})
    host = open_seat(host_context, server, table)
    host.on("pageerror", lambda error: errors.append(str(error)))
    guest = new_page(phone_context, errors)

    # The host locks the table; the newcomer waits, told why, in English.
    host.wait_for_selector("#desk:not([hidden])")
    host.check("#desk-lock")
    host.wait_for_selector("#log-lines li:has-text('The table is locked')")
    guest.goto(f"{server.base_url}/t/{invite}")
    guest.fill("#join-form input[name=nickname]", "Bruno")
    guest.click("#join-form button[type=submit]")
    guest.wait_for_selector("#seat-wait:not([hidden])")
    assert guest.inner_text("#seat-wait") == EN["seat_waiting"]
    assert not guest.is_visible("#join-form")
    shot(guest, "desk-390x844-seat-waiting")

    # The host sees the request and admits Bruno; his page goes on to the table by itself.
    request = host.locator("#desk-requests li", has_text="Bruno")
    request.wait_for()
    assert request.inner_text().startswith(EN["desk_seat_request"].format(name="Bruno"))
    shot(host, "desk-1280x900-seat-request")
    request.get_by_role("button", name=f"{EN['desk_admit']}: ").click()
    guest.wait_for_selector("li.seat.you", timeout=15_000)
    host.wait_for_selector("#desk-none:not([hidden])")

    # Caps: at most 100 chips a request. The host leaves Bruno 2 chips, short of the ante.
    host.click("#desk summary")
    host.fill("#desk-caps input[name=maximum]", "100")
    host.click("#desk-caps button[type=submit]")
    host.wait_for_selector("#log-lines li:has-text('caps on chip requests')")
    stack = host.locator("#host-seats li", has_text="Bruno").locator("input.stack-input")
    stack.fill("2")
    host.locator("#host-seats li", has_text="Bruno").get_by_role(
        "button", name=f"{EN['adjust_stack']}: Bruno"
    ).click()
    guest.wait_for_selector("li.seat.you:has-text('2')")

    # Bruno asks for too much, is told why, then asks for 100: a rebuy that waits.
    guest.click("#chips-ask summary")
    guest.fill("#chips-ask-amount", "150")
    guest.click("#chips-ask-send")
    guest.wait_for_selector("#error:not([hidden])")
    assert guest.inner_text("#error-text") == EN["refused_chips_above_maximum"]
    guest.fill("#chips-ask-amount", "100")
    guest.click("#chips-ask-send")
    guest.wait_for_selector("#chips-ask-status:has-text('waits for the host')")
    rebuy = host.locator("#desk-requests li", has_text="Bruno")
    rebuy.wait_for()
    assert rebuy.inner_text().startswith(
        tr(Language.EN, "desk_rebuy_request", name="Bruno", chips=100)
    )
    shot(host, "desk-1280x900-rebuy-request")
    shot(guest, "desk-390x844-rebuy-waiting")
    rebuy.get_by_role("button", name=f"{EN['desk_approve']}: ").click()
    approved = tr(Language.EN, "ask_chips_approved", chips=100)
    guest.wait_for_selector(f"#chips-ask-status:has-text('{approved[:20]}')")
    assert guest.inner_text("#chips-ask-status") == approved
    guest.wait_for_selector("li.seat.you:has-text('102')")
    shot(guest, "desk-390x844-rebuy-approved")

    # The ledger: Bruno's buy-in and his rebuy, as the settle-up counts them.
    ledger = server.get(f"/api/tables/{invite}/ledger", host_token)
    rows = [(r["nickname"], r["kind"], r["amount"]) for r in ledger["ledger"]]
    assert rows[-1] == ("Bruno", "rebuy", 100)
    bruno = next(p for p in ledger["summary"]["people"] if p["nickname"] == "Bruno")
    buy_in = rows[1][2]
    assert rows[1] == ("Bruno", "buy_in", buy_in)
    assert (bruno["bought_in"], bruno["stack"]) == (buy_in + 100, 102)

    # A deal: on the phone, nothing covers Bruno's cards.
    host.click("#start")
    deadline = time.monotonic() + DEAL_SECONDS
    while not guest.locator("#hand .card").count():  # the blinds first (Art. 2)
        assert time.monotonic() < deadline, "no cards were dealt"
        for page in (host, guest):
            if my_turn(page):
                act_passively(page)
        time.sleep(0.05)
    guest.wait_for_selector("#hand .card")
    assert uncovered(guest, "#hand .card")
    guest.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert uncovered(guest, "#hand .card")
    shot(guest, "desk-390x844-deal")
    shot(host, "desk-1280x900-deal")
    assert seat_token(guest, invite)
    assert errors == []


def test_a_refused_newcomer_is_told_why_in_italian(server: LiveServer, browser: Any) -> None:
    """A newcomer whose browser speaks Italian waits at a locked table, is refused by the
    host (through the API), and reads why in Italian; the form comes back."""
    errors: list[str] = []
    table = server.post(
        "/api/tables",
        {"name": "Casa", "host_nickname": "Alice", "lang": "it", "turn_seconds": None},
    )
    invite, host_token = table["invite"], table["host_token"]
    server.post(f"/api/tables/{invite}/lock", {"locked": True}, host_token)
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="it-IT")
    guest = new_page(context, errors)
    guest.goto(f"{server.base_url}/t/{invite}")
    guest.fill("#join-form input[name=nickname]", "Bruno")
    guest.click("#join-form button[type=submit]")
    guest.wait_for_selector("#seat-wait:not([hidden])")
    assert guest.inner_text("#seat-wait") == IT["seat_waiting"]
    (waiting,) = server.get(f"/api/tables/{invite}/desk", host_token)["seats"]
    server.post(
        f"/api/tables/{invite}/seat-requests/{waiting['player']}/answer",
        {"admit": False},
        host_token,
    )
    guest.locator("#seat-wait", has_text=IT["seat_refused"]).wait_for()
    assert guest.inner_text("#seat-wait") == IT["seat_refused"]
    assert guest.is_visible("#join-form")
    shot(guest, "desk-390x844-seat-refused-it")
    assert errors == []
