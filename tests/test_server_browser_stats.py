"""The table's statistics in a real browser: after a deal, the Statistics button of the log
shows every player's numbers in an accessible table (caption, column and row headers) that
says what ``GET /api/tables/{invite}/stats`` says, in English and in Italian.

Debian's Chromium, the server in a thread, once per database backend
(``tests/browser_steps.py``)."""

from __future__ import annotations

import re
from typing import Any

from browser_steps import (
    LiveServer,
    Page,
    add_bots,
    browser,
    create_in_lobby,
    new_page,
    play_to_the_result,
    server,
)

from italian_poker.server.app import STATIC
from italian_poker.table.statistics import COLUMNS, signed
from italian_poker.table.vocabulary import PAGE_MESSAGES, Language, tr

__all__ = ["browser", "server"]  # the fixtures (browser_steps)

QUIET = ("decline", "pass", "fold", "check", "call", "show", "muck", "make-up")
"""The host gets out of the way: no blind, pass or fold, else the cheapest way on."""


def api_stats(page: Page, invite: str) -> dict[str, Any]:
    """The route's answer for the page's own seat (its token, as the page keeps it)."""
    data: dict[str, Any] = page.evaluate(
        """async (invite) => {
          const seat = JSON.parse(localStorage.getItem('italian-poker.seat.' + invite));
          const response = await fetch(`/api/tables/${invite}/stats`,
            { headers: { Authorization: `Bearer ${seat.player_token}` } });
          return await response.json();
        }""",
        invite,
    )
    return data


def shown_table(page: Page) -> dict[str, dict[str, str]]:
    """The statistics table on the page: each row header's name and its cells' texts."""
    rows: dict[str, dict[str, str]] = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#stats tbody tr')].map(
          (tr) => [tr.querySelector('th[scope=row]').textContent, Object.fromEntries(
            [...tr.querySelectorAll('td')].map((td) => [td.dataset.field, td.textContent]))]))"""
    )
    return rows


def check_panel(page: Page, data: dict[str, Any], lang: Language) -> None:
    page.click("#stats-show")
    caption = tr(lang, "stats_title")
    page.wait_for_selector(f"#stats table caption:text-is('{caption}')")
    heads = page.eval_on_selector_all(
        "#stats thead th[scope=col]", "cells => cells.map(c => c.textContent)"
    )
    assert heads == [tr(lang, key) for _, key in COLUMNS]
    expected = {
        row["name"]: {
            field: signed(row[field]) if field == "net" else str(row[field])
            for field, _ in COLUMNS[1:]
        }
        for row in data["players"]
    }
    assert shown_table(page) == expected
    totals = data["totals"]
    lines = page.eval_on_selector_all("#stats p.stats-totals", "ps => ps.map(p => p.textContent)")
    assert lines == [
        tr(
            lang,
            "stats_deals",
            deals=totals["deals"],
            opened=totals["opened"],
            passed=totals["passed"],
            parols=totals["parols"],
            showdowns=totals["showdowns"],
        ),
        tr(
            lang,
            "stats_carried",
            carried_in=totals["carried_in"],
            carried_out=totals["carried_out"],
            net=signed(totals["net"]),
        ),
    ]


def test_the_statistics_panel_shows_what_the_api_says(server: LiveServer, browser: Any) -> None:
    errors: list[str] = []
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = new_page(context, errors)
    invite = create_in_lobby(page, server.base_url)
    add_bots(page, "strong", "strong")
    page.click("#start")
    page.wait_for_selector("#pot:has-text('Pot')")
    play_to_the_result(page, priority=QUIET)

    data = api_stats(page, invite)
    assert data["totals"]["deals"] == 1
    assert [row["played"] for row in data["players"]] == [1, 1, 1]
    assert "Alice" in {row["name"] for row in data["players"]}
    if page.evaluate("() => document.documentElement.lang") != "en":
        page.click("#lang-switch")
    check_panel(page, data, Language.EN)
    page.click("#lang-switch")  # Italian: the panel's words follow when shown again
    check_panel(page, data, Language.IT)
    assert errors == []
    context.close()


def test_the_statistics_words_are_the_pages() -> None:
    """Every label stats.js looks up is one of the pages' words, in both languages."""
    js = (STATIC / "stats.js").read_text(encoding="utf-8")
    used = set(re.findall(r'"(stats_[a-z_]+)"', js))
    assert used >= {key for _, key in COLUMNS} | {"stats_title", "stats_deals", "stats_empty"}
    assert used <= PAGE_MESSAGES.keys()
    for key in used:
        english, italian = PAGE_MESSAGES[key]
        assert english.strip() and italian.strip(), key
    assert 'from "/static/stats.js"' in (STATIC / "table.js").read_text(encoding="utf-8")
