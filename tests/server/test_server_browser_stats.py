"""The table's statistics in a real browser: after a deal, the Statistics button of the log
shows every player's numbers in an accessible table (caption, column and row headers) that
says what ``GET /api/tables/{invite}/stats`` says, in English and in Italian. The page
``/stats`` (linked from there and from the lobby) shows them across every table the browser
has a seat at, as ``POST /api/stats`` and the table layer count them, for the tables the
person chooses; a table that cannot be counted is said so and may be forgotten. Screenshots
``stats-1280x800`` and ``stats-390x844``.

Debian's Chromium, the server in a thread, once per database backend
(``tests/browser_steps.py``)."""

from __future__ import annotations

import json
import re
from typing import Any

from browser_steps import (
    LiveServer,
    Page,
    add_bots,
    browser,
    create_in_lobby,
    hold_seat,
    new_page,
    new_table,
    play_to_the_result,
    runtimes,
    server,
    shot,
    start,
)

from italian_poker.server.app import STATIC
from italian_poker.server.i18n import PAGE_MESSAGES, page_strings
from italian_poker.server.limits import MAX_STATS_TABLES
from italian_poker.table.catalogue import fill
from italian_poker.table.statistics import COLUMNS, signed, statistics_of
from italian_poker.table.vocabulary import Language, pick, tr

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


def shown_table(page: Page, box: str = "#stats") -> dict[str, dict[str, str]]:
    """The statistics table in ``box``: each row header's name and its cells' texts."""
    rows: dict[str, dict[str, str]] = page.evaluate(
        """(box) => Object.fromEntries([...document.querySelectorAll(box + ' tbody tr')].map(
          (tr) => [tr.querySelector('th[scope=row]').textContent, Object.fromEntries(
            [...tr.querySelectorAll('td')].map((td) => [td.dataset.field, td.textContent]))]))""",
        box,
    )
    return rows


def expected_cells(data: dict[str, Any]) -> dict[str, dict[str, str]]:
    """The cells the page shows for the statistics ``data`` (a route's answer)."""
    return {
        row["name"]: {
            field: signed(row[field]) if field == "net" else str(row[field])
            for field, _ in COLUMNS[1:]
        }
        for row in data["players"]
    }


def check_panel(page: Page, data: dict[str, Any], lang: Language) -> None:
    page.click("#stats-show")
    caption = tr(lang, "stats_title")
    page.wait_for_selector(f"#stats table caption:text-is('{caption}')")
    heads = page.eval_on_selector_all(
        "#stats thead th[scope=col]", "cells => cells.map(c => c.textContent)"
    )
    assert heads == [tr(lang, key) for _, key in COLUMNS]
    assert shown_table(page) == expected_cells(data)
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


EN = page_strings(Language.EN)["messages"]


def say(lang: Language, key: str, **values: object) -> str:
    """The page label ``key`` in ``lang``, filled as the page fills it."""
    return fill(pick(PAGE_MESSAGES[key], lang), lang, **values)


def group_page(page: Page) -> dict[str, Any]:
    """What /stats shows: each listed table (its label, checked, enabled, refusal), the
    status line and the statistics' caption."""
    return dict(
        page.evaluate(
            """() => ({
              tables: [...document.querySelectorAll('#table-list li')].map((li) => ({
                invite: li.dataset.invite,
                label: li.querySelector('label span').textContent,
                checked: li.querySelector('input').checked,
                enabled: !li.querySelector('input').disabled,
                refusal: li.querySelector('.refusal')?.textContent ?? null,
              })),
              status: document.getElementById('group-status').textContent,
              caption: document.querySelector('#group-stats caption')?.textContent ?? null,
            })"""
        )
    )


def wait_counted(page: Page, text: str) -> None:
    """Until the status line says ``text`` (the answer came and is shown); while a link to
    the page is still being followed, the page before has no status line yet."""
    page.wait_for_function(
        "(text) => document.getElementById('group-status')?.textContent === text", arg=text
    )


def test_the_statistics_across_the_tables_this_browser_has_a_seat_at(
    server: LiveServer, browser: Any
) -> None:
    errors: list[str] = []
    tables = [new_table(server, name=name) for name in ("Martedì", "Giovedì")]
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    for table in tables:
        hold_seat(context, table)
    page = new_page(context, errors)
    # A deal at each table, Alice and the same two bots at both.
    for table in tables:
        page.goto(f"{server.base_url}/t/{table['invite']}")
        page.wait_for_selector("li.seat.you")
        start(table)
        play_to_the_result(page)
    tokens = [{"invite": t["invite"], "token": t["player_token"]} for t in tables]
    answer = server.post("/api/stats", {"tables": tokens})
    histories = [
        next(
            r for r in runtimes(server.app) if r.invite == t["invite"]
        ).histories.finished_histories()
        for t in tables
    ]
    together = statistics_of([*histories[0], *histories[1]]).to_dict()
    assert {k: answer[k] for k in ("players", "totals")} == together
    assert [row["played"] for row in answer["players"]] == [2, 2, 2]  # one name, one player

    # The table's Statistics panel links to the page.
    if page.evaluate("() => document.documentElement.lang") != "en":
        page.click("#lang-switch")
    page.click("#stats-show")
    page.click(f"#stats a:text-is('{EN['group_stats_title']}')")
    page.wait_for_url("**/stats")
    counted = say(Language.EN, "group_stats_counted", count=2, deals=2)
    wait_counted(page, counted)
    shown = group_page(page)
    assert shown["tables"] == [
        {
            "invite": t["invite"],
            "label": f"{t['name']} (1 finished deal)",
            "checked": True,
            "enabled": True,
            "refusal": None,
        }
        for t in (
            {"invite": tables[0]["invite"], "name": "Martedì"},
            {"invite": tables[1]["invite"], "name": "Giovedì"},
        )
    ]
    assert shown["caption"] == EN["stats_title"]
    assert shown_table(page, "#group-stats") == expected_cells(answer)
    assert page.title() == f"{EN['group_stats_title']} · {EN['title']}"
    shot(page, "stats-1280x800")

    # One table only: what that table's own statistics say.
    page.uncheck(f"#table-list li[data-invite='{tables[1]['invite']}'] input")
    wait_counted(page, say(Language.EN, "group_stats_counted", count=1, deals=1))
    own = server.get(f"/api/tables/{tables[0]['invite']}/stats", tables[0]["player_token"])
    assert shown_table(page, "#group-stats") == expected_cells(own)
    page.click("#choose-none")
    wait_counted(page, EN["group_stats_choose"])
    assert page.locator("#group-stats table").count() == 0
    page.click("#choose-all")
    wait_counted(page, counted)
    # In Italian: the page's words, the same numbers.
    page.click("#lang-switch")
    assert page.inner_text("#group-title") == say(Language.IT, "group_stats_title")
    assert group_page(page)["caption"] == tr(Language.IT, "stats_title")
    assert shown_table(page, "#group-stats") == expected_cells(answer)
    page.click("#lang-switch")

    # On a phone.
    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    for table in tables:
        hold_seat(phone, table)
    small = new_page(phone, errors)
    small.goto(server.base_url + "/")
    link = small.locator("#group-stats-link")  # the lobby links to the page
    assert link.get_attribute("href") == "/stats"
    link.click()
    wait_counted(small, counted)
    overflowing = small.evaluate("() => document.documentElement.scrollWidth > innerWidth")
    assert not overflowing  # the wide table scrolls inside its box, not the page
    shot(small, "stats-390x844")

    # A seat at a table that is gone, and a token refused: said so, not counted; forgotten.
    gone = "no-such-table-invite-0000"
    page.evaluate(
        """([gone, invite]) => {
          localStorage.setItem('italian-poker.seat.' + gone, JSON.stringify(
            { player_token: 'x', host_token: null, seat: 1, saved: '2000-01-01T00:00:00Z' }));
          const seat = JSON.parse(localStorage.getItem('italian-poker.seat.' + invite));
          seat.player_token = 'not-the-token';
          sessionStorage.setItem('italian-poker.seat.' + invite, JSON.stringify(seat));
        }""",
        [gone, tables[1]["invite"]],
    )
    page.reload()
    wait_counted(page, say(Language.EN, "group_stats_counted", count=1, deals=1))
    shown = group_page(page)
    assert [(t["invite"], t["checked"], t["enabled"], t["refusal"]) for t in shown["tables"]] == [
        (gone, False, False, EN["group_stats_no_table"]),
        (tables[0]["invite"], True, True, None),
        (tables[1]["invite"], False, False, EN["group_stats_forbidden"]),
    ]
    assert shown["tables"][0]["label"] == say(Language.EN, "group_stats_table_unnamed", number=1)
    assert shown_table(page, "#group-stats") == expected_cells(own)
    page.click(f"#table-list li[data-invite='{gone}'] button.forget")
    assert page.locator(f"#table-list li[data-invite='{gone}']").count() == 0
    assert page.evaluate(f"() => localStorage.getItem('italian-poker.seat.{gone}')") is None
    assert errors == []
    context.close()
    phone.close()


def test_the_page_lists_the_newest_fifty_tables_and_says_how_many_are_left_out(
    server: LiveServer, browser: Any
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    seats = {
        f"invite-of-table-{i:04d}-x": {
            "player_token": f"t{i}",
            "host_token": None,
            "seat": 1,
            "saved": f"2026-01-01T00:{i // 60:02d}:{i % 60:02d}Z",
        }
        for i in range(MAX_STATS_TABLES + 2)
    }
    context.add_init_script(
        f"""for (const [invite, seat] of Object.entries({json.dumps(seats)})) {{
              localStorage.setItem('italian-poker.seat.' + invite, JSON.stringify(seat));
            }}"""
    )
    errors: list[str] = []
    page = new_page(context, errors)
    page.goto(server.base_url + "/stats")
    wait_counted(page, say(Language.EN, "group_stats_counted", count=0, deals=0))
    shown = group_page(page)
    assert [t["invite"] for t in shown["tables"]] == list(seats)[2:]  # the newest, oldest first
    assert {t["refusal"] for t in shown["tables"]} == {EN["group_stats_no_table"]}
    older = say(Language.EN, "group_stats_older", count=2, max=MAX_STATS_TABLES)
    assert page.inner_text("#older") == older
    assert errors == []
    # Without any seat, the page says how to get one.
    empty = browser.new_context()
    bare = new_page(empty, errors)
    bare.goto(server.base_url + "/stats")
    bare.wait_for_selector("#no-seats", state="visible")
    assert bare.is_hidden("#group-result") and bare.is_hidden("#table-choice")
    assert errors == []
    context.close()
    empty.close()


def test_the_group_pages_words_are_the_vocabularys() -> None:
    """Every label /stats looks up is one of the pages' words, in both languages; its most
    tables at once is the server's."""
    js = (STATIC / "group_stats.js").read_text(encoding="utf-8")
    html = (STATIC / "group_stats.html").read_text(encoding="utf-8")
    used = set(re.findall(r'\btr?\((?:lang, )?"([a-z0-9_-]+)"', js))
    used |= set(re.findall(r'"(group_stats_[a-z_]+)"', js))
    used |= set(re.findall(r'data-i18n(?:-label)?="([a-z0-9_-]+)"', html))
    assert {"group_stats_title", "group_stats_counted", "group_stats_forbidden"} <= used
    assert used - PAGE_MESSAGES.keys() == set()
    for key in used:
        english, italian = PAGE_MESSAGES[key]
        assert english.strip() and italian.strip(), key
    assert f"export const MAX_TABLES = {MAX_STATS_TABLES};" in js
    for page in ("index.html",):
        assert 'href="/stats"' in (STATIC / page).read_text(encoding="utf-8")
    assert 'href: "/stats"' in (STATIC / "stats.js").read_text(encoding="utf-8")
