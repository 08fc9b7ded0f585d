"""The browser's fair-deck verifier (``static/fairness.js``, written from docs/fairness.md
with WebCrypto) agrees with the Python one (``engine.history.fairness.verify_fair``) on 1,000
deals played from fair decks at tables of two to nine (reshuffles, late fourth cards), and
both reject the same tampered deals (a value, the seed, a card dealt or drawn changed). The
table page shows the deal's commitment before its cards and, once the seed is revealed, the
"verified" mark it computed itself; the verifier page (``/verify``) checks a downloaded
history. Screenshots at 390x844 and 1280x800 go to ``$ITALIAN_POKER_SCREENSHOTS`` (default:
``screenshots/``); at phone size nothing covers the player's own cards.

The server in a thread and Debian's Chromium: ``tests/browser_steps.py``."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from browser_steps import (
    LiveServer,
    Page,
    act_passively,
    browser,
    my_turn,
    new_page,
    new_table,
    open_seat,
    play_to_the_result,
    shot,
    start,
    table_state,
)
from fair_tables import fair_table

from italian_poker.engine.cards import parse_card
from italian_poker.engine.history import HandHistory
from italian_poker.engine.history.fairness import Verdict, verify_fair
from italian_poker.server.fair_deal import takes

__all__ = ["browser"]  # the fixture (browser_steps)

DEALS = 1000


def _deals() -> list[HandHistory]:
    """:data:`DEALS` finished deals from fair decks, at tables of 2 to 9 simple bots."""
    out: list[HandHistory] = []
    seed = 0
    while len(out) < DEALS:
        seed += 1
        table = fair_table(2 + seed % 8, seed=seed, level="simple")
        for _ in range(60):
            if len(out) >= DEALS or len(table.state.dealable()) < 2:
                break
            table.play_deal()
            out.append(table.history(len(table.state.machine.completed)))
    return out


def _case(history: HandHistory) -> dict[str, Any]:
    fair = history.fair
    assert fair is not None and fair.seed is not None
    return {
        "record": {
            "deal": fair.deal,
            "hand": history.number,
            "commitment": fair.commitment.hex(),
            "values": [v.hex() for v in fair.values],
            "seed": fair.seed.hex(),
        },
        "takes": takes(history),
    }


def _other_card(history: HandHistory, card: str) -> str:
    """A card of the deal's deck that is not ``card``."""
    seats = len(history.names)
    ranks = "23456789TJQKA"[13 - (seats + 4) :]
    return next(r + s for r in ranks for s in "scdh" if r + s != card)


def _tampered(history: HandHistory, case: dict[str, Any], how: str) -> tuple[HandHistory, Any]:
    """``history`` and its ``case`` changed alike: ``value`` (a byte of the first value),
    ``seed`` (its last byte), ``dealt`` (the first card dealt), ``drawn`` (the first card of
    the first draw or late fourth card)."""
    fair = history.fair
    assert fair is not None and fair.seed is not None
    case = {"record": dict(case["record"]), "takes": [dict(t) for t in case["takes"]]}
    if how == "value":
        values = list(fair.values)
        values[0] = values[0] + b"!"
        case["record"]["values"] = [v.hex() for v in values]
        return replace(history, fair=replace(fair, values=tuple(values))), case
    if how == "seed":
        seed = fair.seed[:-1] + bytes([fair.seed[-1] ^ 1])
        case["record"]["seed"] = seed.hex()
        return replace(history, fair=replace(fair, seed=seed)), case
    players = len(case["takes"][0]["seats"])
    if how == "dealt":
        first = case["takes"][0]
        seat = first["seats"][0]
        line = next(k for k, d in enumerate(history.dealt) if d.seat == seat)
    else:
        index = next(k for k, t in enumerate(case["takes"]) if t["why"] != "deal" and t["cards"])
        first = case["takes"][index]
        line = players + index - 1
    card = first["cards"][0]
    other = _other_card(history, card)
    first["cards"] = [other, *first["cards"][1:]]
    dealt = list(history.dealt)
    cards = list(dealt[line].cards)
    assert str(cards[0]) == card
    cards[0] = parse_card(other)
    dealt[line] = replace(dealt[line], cards=tuple(cards))
    return replace(history, dealt=tuple(dealt)), case


def _js_verdicts(page: Page, cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return list(
        page.evaluate(
            """async (cases) => {
                const { verifyDeal } = await import("/static/fairness.js");
                const out = [];
                for (const c of cases) out.push(await verifyDeal(c.record, c.takes));
                return out;
            }""",
            cases,
        )
    )


@pytest.fixture
def fair_server(tmp_path: Path) -> Iterator[LiveServer]:
    """The server dealing from fair decks (no seed), values waited for 1.5 s."""
    running = LiveServer(f"sqlite:///{tmp_path / 'server.sqlite3'}", seed=None)
    running.start()
    try:
        yield running
    finally:
        running.stop()


def test_the_browser_and_python_verifiers_agree_on_a_thousand_deals(
    browser: Any, fair_server: LiveServer
) -> None:
    """Every deal verifies in both, card for card; every tampered deal fails in both, and a
    changed card fails at the same card number."""
    histories = _deals()
    cases = [_case(h) for h in histories]
    shuffled = sum(any(t["shuffled_in"] for t in c["takes"]) for c in cases)
    late = sum(any(t["why"] == "fourth" for t in c["takes"]) for c in cases)
    assert shuffled >= 50 and late >= 50, (shuffled, late)
    context = browser.new_context()
    page = new_page(context)
    page.goto(fair_server.base_url + "/verify")
    js = _js_verdicts(page, cases)
    python = [verify_fair(h) for h in histories]
    assert [v.verdict for v in python] == [Verdict.VERIFIED] * DEALS
    assert [j["verdict"] for j in js] == ["verified"] * DEALS
    rng = random.Random(7)
    tampered: list[tuple[HandHistory, Any, str]] = []
    for how in ("value", "seed", "dealt", "drawn"):
        for k in rng.sample(range(DEALS), 60):
            if how == "drawn" and not any(t["why"] != "deal" for t in cases[k]["takes"]):
                continue
            history, case = _tampered(histories[k], cases[k], how)
            tampered.append((history, case, how))
    js = _js_verdicts(page, [case for _, case, _ in tampered])
    for (history, _, how), theirs in zip(tampered, js, strict=True):
        ours = verify_fair(history)
        assert ours.verdict is Verdict.FAILED, (how, ours)
        assert theirs["verdict"] == "failed", (how, theirs)
        if how in ("dealt", "drawn"):
            assert theirs["card"] == ours.card, (how, ours, theirs)
    context.close()


def _fair_state(page: Page) -> str:
    return str(page.get_attribute("#fair", "data-state") or "")


def _not_covered(page: Page) -> None:
    """Every card of the player's own hand is the element at its centre (nothing on top)."""
    covered = page.evaluate(
        """() => [...document.querySelectorAll('#hand .card, #dock-hand .card')]
            .filter((card) => card.getClientRects().length)
            .filter((card) => {
                const r = card.getBoundingClientRect();
                const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
                return top && !card.contains(top);
            }).map((card) => card.dataset.card)"""
    )
    assert covered == [], covered


def _wait_for_my_cards(page: Page) -> None:
    """Act at the seat's turns (a blind asked before the cards, Art. 2) until its cards show."""
    deadline = time.monotonic() + 30
    shown = """() => [...document.querySelectorAll('#hand .card, #dock-hand .card')]
        .some((card) => card.getClientRects().length)"""
    while not page.evaluate(shown):
        assert time.monotonic() < deadline, "no cards came"
        if my_turn(page):
            act_passively(page)
        time.sleep(0.05)


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["phone", "desktop"])
def test_the_table_shows_the_commitment_then_the_verified_mark(
    browser: Any, fair_server: LiveServer, size: tuple[int, int]
) -> None:
    """The host chose to reveal each deal's seed at its end (the page says folded hands become
    visible); the page shows the commitment with the first state of the deal, sends its
    value, and after the deal shows the mark it computed. The commitment's whole hex on a
    tap; the downloaded history verifies on the verifier page."""
    width, height = size
    table = new_table(fair_server, bots=1)
    fair_server.post(f"/api/tables/{table['invite']}/fair", {"reveal": "deal"}, table["host_token"])
    context = browser.new_context(viewport={"width": width, "height": height})
    errors: list[str] = []
    page = open_seat(context, fair_server, table)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.fill("#fair-text", "Alice e\u0300 qui")  # typed decomposed: sent NFC
    start(table)
    page.wait_for_selector("#fair:not([hidden]) #fair-commitment")
    commitment = page.text_content("#fair-commitment") or ""
    assert commitment.endswith("…") and len(commitment) == 13
    _wait_for_my_cards(page)
    assert page.is_visible("#fair-note")
    assert "your value is in the list" in (page.text_content("#fair-mine") or "")
    dealt = table_state(fair_server.app, table["invite"]).fair.deals[1]
    assert dealt.deck.values[0] == "Alice è qui".encode() and dealt.given_by[0] == "player"
    shot(page, f"fair-commitment-{width}")
    _not_covered(page)
    page.click("#fair-commitment")
    assert len(page.text_content("#fair-commitment") or "") == 64
    page.click("#fair-commitment")
    play_to_the_result(page)
    page.wait_for_function("() => document.querySelector('#fair').dataset.state === 'verified'")
    assert "verified" in (page.text_content("#fair-status") or "")
    shot(page, f"fair-verified-{width}")
    _not_covered(page)
    assert errors == []
    if width > 1000:
        response = page.request.get(
            f"{fair_server.base_url}/api/tables/{table['invite']}/histories/1.phh",
            headers={"Authorization": f"Bearer {table['player_token']}"},
        )
        text = response.text()
        verifier = new_page(context)
        verifier.goto(fair_server.base_url + "/verify")
        verifier.fill("#paste", text)
        verifier.click("#check")
        verifier.wait_for_selector("#results li")
        assert verifier.get_attribute("#results li", "data-verdict") == "verified"
        shot(verifier, "fair-verify-page")
        seed_at = text.index('seed = "') + len('seed = "')
        flipped = "1" if text[seed_at] == "0" else "0"
        verifier.fill("#paste", text[:seed_at] + flipped + text[seed_at + 1 :])
        verifier.click("#check")
        verifier.wait_for_selector("#results li[data-verdict=failed]")
    context.close()
