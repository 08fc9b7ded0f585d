"""What players see at every turn, on a phone (390x844) and a laptop (1366x900): two
players' pages play whole deals through the page's own controls (blinds, opening, bets and
raises sized with the slider, the sizes and the field, an amount out of range refused with
its error), and at each of their turns, as the page is when the turn begins, their cards
are on the screen and uncovered, with the pot, what to call and the buttons; every seat's
chips and bet match the engine's public view (Art. 2, 3.3, 5.2)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_steps import (
    SCREENSHOTS,
    LiveServer,
    Page,
    browser,
    join_table,
    new_page,
    new_table,
    open_seat,
    table_state,
)

from italian_poker.server.i18n import PAGE_MESSAGES

__all__ = ["browser", "fast_server"]

SIZES = [
    pytest.param({"width": 390, "height": 844}, True, id="390x844"),
    pytest.param({"width": 1366, "height": 900}, False, id="1366x900"),
]
DEALS = 2
"""Whole deals each size plays."""
AMOUNT_KINDS = ("blind", "controbuio", "over", "open", "bet", "raise")

SEES_TURN = """() => {
  const offered = !!document.querySelector('#action-buttons button.action:not([disabled])')
    || !document.getElementById('draw-controls').hidden
      && !document.getElementById('draw-confirm').disabled;
  if (!offered) return null;
  const inside = (r) => r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0
    && r.bottom <= innerHeight && r.right <= innerWidth;
  const shown = (id) => {
    const e = document.getElementById(id);
    return !!e && e.textContent.trim() !== '' && inside(e.getBoundingClientRect());
  };
  const cards = [...document.querySelectorAll('#hand .card')];
  const covered = cards.filter((card) => {
    const r = card.getBoundingClientRect();
    if (!inside(r)) return true;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !(hit && (hit === card || card.contains(hit)));
  }).map((card) => card.textContent || card.getAttribute('aria-label'));
  const buttons = [...document.querySelectorAll(
    '#action-buttons button.action, #draw-controls:not([hidden]) #draw-confirm')];
  const row = document.getElementById('amount-row');
  const amount = row.hidden ? null : {
    field: document.getElementById('amount').value,
    said: document.getElementById('amount-range').textContent,
  };
  return {
    amount,
    blinds: !!document.querySelector('#action-buttons button[data-kind=decline]'),
    cards: cards.length, covered, pot: shown('turn-pot'), call: shown('turn-call'),
    buttons: buttons.length > 0 && buttons.every((b) => inside(b.getBoundingClientRect())),
  };
}"""

SEATS_SHOWN = """() => ({
  seq: Number(document.getElementById('game').dataset.seq),
  seats: [...document.querySelectorAll('li.seat:not(.status-empty)')].map((li) => {
    const chips = li.querySelector('.chips').textContent.match(/\\d+/);
    const bet = li.querySelector('.bet-chip');
    return [Number(li.dataset.seat), chips ? Number(chips[0]) : null,
            bet ? Number(bet.dataset.bet) : 0];
  }),
})"""


@pytest.fixture
def fast_server(tmp_path: Path) -> Iterator[LiveServer]:
    """The server on SQLite, the next deal a second after the last."""
    running = LiveServer(f"sqlite:///{tmp_path / 'server.sqlite3'}", next_deal_seconds=1.0)
    running.start()
    try:
        yield running
    finally:
        running.stop()


def engine_seats(server: LiveServer, invite: str) -> tuple[int, list[list[int]]]:
    """The table's seq and each occupied seat's chips and bet this round, from the engine's
    public view."""
    state = table_state(server.app, invite)
    public = state.public_view()
    rows = []
    for slot, seat in enumerate(state.slots):
        if seat is None:
            continue
        index = state.deal_index(slot)
        live = public is not None and index is not None and state.in_deal
        rows.append([slot, state.stack(slot), public.round_bets[index] if live else 0])
    return state.seq, rows


def seat_mismatches(page: Page, server: LiveServer, invite: str) -> list[Any]:
    """The seats whose chips or bet on ``page`` differ from the engine's public view, once
    the page shows the table's latest state (empty when they all match)."""
    deadline = time.monotonic() + 10
    while True:
        seq, rows = engine_seats(server, invite)
        shown = page.evaluate(SEATS_SHOWN)
        if shown["seq"] == seq and engine_seats(server, invite)[0] == seq:
            return [(s, e) for s, e in zip(shown["seats"], rows, strict=True) if s != e]
        assert time.monotonic() < deadline, "the page did not catch up with the table"
        time.sleep(0.05)


def my_turn(page: Page) -> bool:
    return bool(
        page.evaluate(
            """() => !!document.querySelector('#action-buttons button.action:not([disabled])')
                || !document.getElementById('draw-controls').hidden
                    && !document.getElementById('draw-confirm').disabled"""
        )
    )


def kinds(page: Page) -> list[str]:
    return list(
        page.eval_on_selector_all(
            "#action-buttons button.action:not([disabled])", "bs => bs.map(b => b.dataset.kind)"
        )
    )


def amount_agrees(amount: dict[str, Any] | None) -> bool:
    """Whether the bet the line under the field says is the field's amount, as the turn
    begins (nothing is said of a field left empty)."""
    if amount is None or not amount["field"]:
        return True
    said = re.match(r"\D*(\d+)", amount["said"])
    return said is not None and said.group(1) == amount["field"]


def play_turn(page: Page, log: dict[str, Any]) -> None:
    """One turn through the controls: the first blind, open, bet or raise offered (sized
    with a size button, the slider or the field, in turn; once an amount out of range first),
    else check, call, show; at the draw, the first card changed."""
    if page.is_visible("#draw-controls"):
        page.locator("#hand button.card").first.click()
        page.click("#draw-confirm")
        log["draws"] += 1
        return
    offered = kinds(page)
    amount = next((k for k in AMOUNT_KINDS if k in offered), None)
    if amount is not None and log["amounts"] < 6:
        button = page.locator(f"#action-buttons button[data-kind='{amount}']")
        if page.is_visible("#amount-row"):
            high = int(page.get_attribute("#amount", "max") or 0)
            if not log["refused"]:
                page.fill("#amount", str(high + 1))
                button.click()
                error = page.inner_text("#error-text")
                assert "from" in error and str(high) in error, error
                assert my_turn(page), "an amount out of range sends nothing"
                log["refused"] = True
            way = log["amounts"] % 3
            if way == 0:
                page.locator("#amount-sizes button").last.click()
            elif way == 1:
                page.fill("#amount-slider", page.get_attribute("#amount-slider", "min") or "0")
            else:
                page.fill("#amount", page.get_attribute("#amount", "min") or "0")
            chosen = page.input_value("#amount")
            assert chosen in button.inner_text(), "the button shows the amount before it is pressed"
        button.click()
        log["amounts"] += 1
        log["kinds"].add(amount)
        return
    kind = next(
        k for k in ("check", "call", "show", "decline", "pass", "make-up", "fold") if k in offered
    )
    page.click(f"#action-buttons button[data-kind='{kind}']")


def deals_done(page: Page) -> int:
    return int(
        page.evaluate("() => document.querySelectorAll('#result-lines p:not(.muted)').length && 1")
    )


@pytest.mark.parametrize(("viewport", "touch"), SIZES)
def test_two_players_play_whole_deals_and_see_their_turns(
    fast_server: LiveServer, browser: Any, viewport: dict[str, int], touch: bool
) -> None:
    server = fast_server
    size = f"{viewport['width']}x{viewport['height']}"
    table = new_table(server, bots=1, name="Phone")
    invite = table["invite"]
    contexts = [
        browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch) for _ in range(2)
    ]
    host = open_seat(contexts[0], server, table)
    guest = new_page(contexts[1])
    join_table(guest, f"{server.base_url}/t/{invite}", "Bea")
    # The host's start is on the first screen, by the felt.
    start = host.locator("#start")
    assert start.is_visible() and start.bounding_box()["y"] + 40 < viewport["height"]
    assert host.input_value("#invite-url").endswith(f"/t/{invite}")
    host.screenshot(path=str(SCREENSHOTS / f"phone-test-{size}-lobby.png"))
    start.click()
    log: dict[str, Any] = {"amounts": 0, "draws": 0, "refused": False, "kinds": set(), "turns": 0}
    pages = {"host": host, "guest": guest}
    seen: set[str] = set()
    hands = 0
    deadline = time.monotonic() + 150
    while hands < DEALS:
        assert time.monotonic() < deadline, f"{DEALS} deals did not finish"
        acted = False
        for name, page in pages.items():
            # The page as it is when the turn begins: nothing scrolled, nothing clicked.
            seen_now = page.evaluate(SEES_TURN)
            if seen_now is None:
                continue
            # Art. 2: a blind is bet before the cards are dealt.
            assert seen_now["cards"] >= 4 or seen_now["blinds"], (name, seen_now)
            assert seen_now["covered"] == [], (name, seen_now)
            assert seen_now["pot"] and seen_now["call"] and seen_now["buttons"], (name, seen_now)
            assert amount_agrees(seen_now["amount"]), (name, seen_now)
            for other in pages.values():
                assert seat_mismatches(other, server, invite) == []
            moment = "draw" if page.is_visible("#draw-controls") else "bet"
            if f"{name}-{moment}" not in seen:
                seen.add(f"{name}-{moment}")
                page.screenshot(path=str(SCREENSHOTS / f"phone-test-{size}-{name}-{moment}.png"))
            play_turn(page, log)
            log["turns"] += 1
            acted = True
        if not acted:
            state = table_state(server.app, invite)
            if (state.hand or 0) > hands + 1 or (
                state.outcome is not None and not state.in_deal and state.outcome.hand == hands + 1
            ):
                for page in pages.values():
                    assert seat_mismatches(page, server, invite) == []
                hands += 1
            time.sleep(0.05)
    assert log["refused"] and log["amounts"] > 0 and log["draws"] > 0, log
    for context in contexts:
        context.close()


def test_a_stack_shown_one_chip_high_is_caught(fast_server: LiveServer, browser: Any) -> None:
    """The comparison with the engine's view fails on a page that shows every stack one chip
    too high."""
    server = fast_server
    table = new_table(server, bots=1, name="Planted")
    context = browser.new_context(viewport={"width": 390, "height": 844})
    source = (
        Path(__file__).resolve().parents[2] / "src/italian_poker/server/static/table.js"
    ).read_text()
    planted = source.replace(
        'tr("stack", { stack: seat.stack })', 'tr("stack", { stack: seat.stack + 1 })'
    )
    assert planted != source
    context.route(
        "**/static/table.js",
        lambda route: route.fulfill(body=planted, content_type="text/javascript"),
    )
    page = open_seat(context, server, table)
    wrong = seat_mismatches(page, server, table["invite"])
    assert wrong and all(shown[1] == engine[1] + 1 for shown, engine in wrong)
    context.close()


def test_the_manifest_and_the_service_worker_are_served(
    fast_server: LiveServer, browser: Any
) -> None:
    """The installable app: a valid manifest with a name and PNG icons, and a service
    worker at the root that caches the static shell only."""
    server = fast_server
    context = browser.new_context()
    page = new_page(context)
    page.goto(server.base_url + "/")
    answer = page.request.get(server.base_url + "/manifest.webmanifest")
    assert answer.ok and "manifest+json" in answer.headers["content-type"]
    manifest = json.loads(answer.text())
    assert manifest["name"] and manifest["start_url"] == "/" and manifest["display"] == "standalone"
    sizes = {icon["sizes"] for icon in manifest["icons"] if icon["type"] == "image/png"}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert page.request.get(server.base_url + icon["src"]).ok
    assert page.evaluate("() => document.querySelector('link[rel=manifest]').href").endswith(
        "/manifest.webmanifest"
    )
    worker = page.request.get(server.base_url + "/sw.js")
    assert worker.ok and worker.headers["service-worker-allowed"] == "/"
    assert "/api/" not in worker.text() and "/ws/" not in worker.text().split("never")[0]
    page.wait_for_function("() => navigator.serviceWorker.ready.then(() => true)")
    context.close()


def test_the_italian_names_are_explained_when_offered() -> None:
    """Every Italian action name the page explains has its line in both languages."""
    for kind in ("blind", "controbuio", "over", "parol", "make-up", "sit-out"):
        english, italian = PAGE_MESSAGES[f"explain_{kind}"]
        assert english and italian and english != italian
