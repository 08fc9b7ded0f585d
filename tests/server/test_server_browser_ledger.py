"""The ledger in a real browser (issue 13): the host and a player play a deal with a bot;
the host's ledger shows each person's buy-in, cash-out, chips and net, the pot, and totals
that come to zero; the CSV downloaded holds the rows the page and the API show; the player
sees the ledger only once the host allows it, and no longer when the host stops.

Debian's Chromium through Playwright, the server in a thread: ``tests/browser_steps.py``.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any

from browser_steps import (
    LiveServer,
    Page,
    add_bots,
    browser,
    create_in_lobby,
    join_table,
    new_page,
    play_to_the_result,
    seat_token,
    server,
    shot,
)

from italian_poker.server.app import STATIC
from italian_poker.server.i18n import CATALOGUE, PAGE_MESSAGES, page_strings
from italian_poker.table.vocabulary import Language

__all__ = ["browser", "server"]  # the fixtures (browser_steps)

EN = page_strings(Language.EN)["messages"]
IT = page_strings(Language.IT)["messages"]


def _chips(lang: str, amount: int) -> str:
    """``amount`` as the page writes it (Intl: ``1,234``; Italian groups from five digits)."""
    if lang == "it":
        return str(amount) if amount < 10000 else f"{amount:,}".replace(",", ".")
    return f"{amount:,}"


def _api(page: Page, base_url: str, path: str, token: str) -> Any:
    """``GET`` ``path`` with ``token``, from the page's browser context."""
    return page.request.get(base_url + path, headers={"Authorization": f"Bearer {token}"})


def _summary_on(page: Page) -> dict[str, Any]:
    """The summary table as the page shows it: each line's values (``data-value``) by its
    header, the pot's, the totals'; and how it is built for assistive technology."""
    return dict(
        page.evaluate(
            """() => {
              const table = document.querySelector('#ledger table.ledger-summary');
              const values = (row) => [...row.querySelectorAll('td.num')]
                .map((cell) => Number(cell.dataset.value));
              const texts = (row) => [...row.querySelectorAll('td.num')]
                .map((cell) => cell.textContent);
              const line = (row) => ({
                name: row.querySelector('th').textContent,
                scope: row.querySelector('th').getAttribute('scope'),
                values: values(row), texts: texts(row),
              });
              return {
                caption: table.querySelector('caption').textContent,
                columns: [...table.querySelectorAll('thead th')].map((th) => th.textContent),
                scopes: [...table.querySelectorAll('thead th')].map((th) => th.scope),
                people: [...table.querySelectorAll('tbody tr:not(.ledger-pot)')].map(line),
                pot: line(table.querySelector('tbody tr.ledger-pot')),
                totals: line(table.querySelector('tfoot tr')),
                aligned: [...table.querySelectorAll('td.num')]
                  .map((cell) => getComputedStyle(cell).textAlign),
              };
            }"""
        )
    )


def _rows_on(page: Page) -> list[dict[str, Any]]:
    """The rows table as the page shows it."""
    return list(
        page.evaluate(
            """() => [...document.querySelectorAll('#ledger table.ledger-rows tbody tr')]
              .map((row) => ({
                created: row.querySelector('time').getAttribute('datetime'),
                nickname: row.cells[1].textContent,
                kind: row.dataset.kind,
                amount: Number(row.cells[3].dataset.value),
                hand: row.cells[4].textContent,
              }))"""
        )
    )


def _download_csv(page: Page) -> list[dict[str, str]]:
    with page.expect_download() as info:
        page.click("#ledger-csv")
    download = info.value
    assert download.suggested_filename == "ledger.csv"
    path = download.path()
    assert path is not None
    return list(csv.DictReader(io.StringIO(Path(path).read_text(encoding="utf-8"))))


def _as_csv(row: dict[str, Any]) -> dict[str, str]:
    return {key: "" if row[key] is None else str(row[key]) for key in row}


def test_the_ledger_after_a_deal_its_csv_and_who_may_see_it(
    server: LiveServer, browser: Any
) -> None:
    errors: list[str] = []
    host_context = browser.new_context(viewport={"width": 1280, "height": 900})
    guest_context = browser.new_context(viewport={"width": 390, "height": 844})
    host, guest = new_page(host_context, errors), new_page(guest_context, errors)

    # The host creates the table, the ledger for the host only (the lobby's default).
    host.goto(server.base_url + "/")
    assert not host.is_checked("input[name=players_see_ledger]")
    invite = create_in_lobby(host, server.base_url)
    join_table(guest, host.url, "Bruno")
    host.wait_for_selector("li.seat:has-text('Bruno')")
    add_bots(host, "simple")
    host.click("#start")
    host.wait_for_selector("#pot:has-text('Pot')")
    play_to_the_result(host, guest)

    # The host's ledger: a line a person, the pot, totals that come to zero.
    assert host.is_visible("#ledger-panel") and not guest.is_visible("#ledger-panel")
    host.click("#ledger-show")
    host.wait_for_selector("#ledger table.ledger-summary")
    shown = _summary_on(host)
    assert shown["caption"] == EN["ledger_by_player"]
    assert host.inner_text("#ledger .ledger-net-note") == EN["ledger_net_note"]
    assert shown["columns"] == [
        EN[key]
        for key in ("name", "ledger_bought_in", "ledger_cashed_out", "ledger_stack", "ledger_net")
    ]
    assert set(shown["scopes"]) == {"col"}
    assert set(shown["aligned"]) == {"right"}
    assert [line["name"] for line in shown["people"]] == ["Alice", "Bruno", "Anna"]
    assert all(line["scope"] == "row" for line in shown["people"])
    assert shown["pot"]["name"] == EN["ledger_in_pot"]
    nets = [line["values"][3] for line in shown["people"]]
    pot = shown["pot"]["values"][1]
    assert sum(nets) + pot == 0 and shown["totals"]["values"][3] == 0
    assert shown["totals"]["name"] == EN["ledger_total"] and shown["totals"]["texts"][3] == "0"
    for line in shown["people"]:
        net, text = line["values"][3], line["texts"][3]
        assert text == (f"+{net}" if net > 0 else str(net)), line  # nets are signed
        bought, cashed, stack, _ = line["values"]
        assert net == stack + cashed - bought
    assert any(net != 0 for net in nets)  # the deal moved chips

    # The same as the API says; the CSV downloaded holds exactly the rows.
    host_token = seat_token(host, invite, "host_token")
    answer = _api(host, server.base_url, f"/api/tables/{invite}/ledger", host_token)
    assert answer.ok
    ledger = answer.json()
    people = ledger["summary"]["people"]
    assert [[p["bought_in"], p["cashed_out"], p["stack"], p["net"]] for p in people] == [
        line["values"] for line in shown["people"]
    ]
    assert ledger["summary"]["in_pot"] == pot
    rows = ledger["ledger"]
    assert [r["kind"] for r in rows] == ["buy_in"] * 3 + ["result"] * 3
    assert _rows_on(host) == [
        {
            "created": r["created"],
            "nickname": r["nickname"],
            "kind": r["kind"],
            "amount": r["amount"],
            "hand": "" if r["hand"] is None else str(r["hand"]),
        }
        for r in rows
    ]
    # Who pays whom: the API's settle-up, in words; none while the pot holds chips.
    settle = ledger["summary"]["settle_up"]
    assert host.inner_text("#ledger .ledger-settle h3") == EN["ledger_settle_up"]
    said = host.locator("#ledger .ledger-settle li").all_inner_texts()
    if pot:
        assert settle is None and said == []
        later = EN["ledger_settle_later"].replace("{pot:chip is|chips are}", "")
        assert later.strip() in host.inner_text("#ledger .ledger-settle p")
    else:
        assert said == [
            EN["ledger_pays"].format(
                payer=t["payer"], payee=t["payee"], amount=_chips("en", t["amount"])
            )
            for t in settle
        ]
        # Three people: no two of them even out alone, so one transfer fewer than those up
        # or down.
        assert len(said) == sum(1 for net in nets if net) - 1
    downloaded = _download_csv(host)
    assert downloaded == [_as_csv(r) for r in rows]
    assert sum(int(r["amount"]) for r in downloaded if r["kind"] == "result") == -pot

    # The player: no ledger until the host allows it.
    guest_token = seat_token(guest, invite)
    refused = _api(guest, server.base_url, f"/api/tables/{invite}/ledger", guest_token)
    assert refused.status == 403 and refused.json()["error"] == "ledger_private"
    host.check("#ledger-players")
    guest.wait_for_selector("#ledger-panel", state="visible")
    told = CATALOGUE["table_ledger_shown"][0]
    guest.wait_for_selector(f"#log-lines li:has-text('{told}')")
    guest.click("#ledger-show")
    guest.wait_for_selector("#ledger table.ledger-summary")
    assert _summary_on(guest) == shown
    assert _download_csv(guest) == downloaded
    # In Italian, the ledger shown is drawn again in Italian.
    guest.click("#lang-switch")
    assert guest.inner_text("#ledger caption >> nth=0") == IT["ledger_by_player"]
    assert guest.inner_text("#ledger-heading") == IT["ledger"]
    assert guest.inner_text("#ledger .ledger-net-note") == IT["ledger_net_note"]
    assert re.search(IT["ledger_in_pot"], guest.inner_text("#ledger tr.ledger-pot"))
    assert guest.inner_text("#ledger .ledger-settle h3") == IT["ledger_settle_up"]
    if not pot:
        assert guest.locator("#ledger .ledger-settle li").all_inner_texts() == [
            IT["ledger_pays"].format(
                payer=t["payer"], payee=t["payee"], amount=_chips("it", t["amount"])
            )
            for t in settle
        ]

    shot(guest, "ledger-390x844-it")
    host.locator("#ledger").scroll_into_view_if_needed()
    shot(host, "ledger-1280x900-en")

    # The host stops it: the player's panel goes, and the API refuses again.
    host.uncheck("#ledger-players")
    guest.wait_for_selector("#ledger-panel", state="hidden")
    assert guest.locator("#ledger table").count() == 0
    again = _api(guest, server.base_url, f"/api/tables/{invite}/ledger.csv", guest_token)
    assert again.status == 403
    assert errors == []
    host_context.close()
    guest_context.close()


def test_the_ledgers_script_says_only_the_vocabularys_words() -> None:
    """static/ledger.js looks every label up (``t(lang, key)``) in the page labels, which
    have each in English and Italian; it holds no words of its own."""
    js = (STATIC / "ledger.js").read_text(encoding="utf-8")
    used = set(re.findall(r'\bt\(lang, "([a-z0-9_-]+)"', js))
    used |= set(re.findall(r'"(ledger_[a-z_]+)"', js))
    assert {"name", "ledger_by_player", "ledger_in_pot", "ledger_total", "ledger_net"} <= used
    assert "ledger_net_note" in used
    assert {"ledger_settle_up", "ledger_pays", "ledger_settled", "ledger_settle_later"} <= used
    assert used - PAGE_MESSAGES.keys() == set()
    for kind in ("buy_in", "adjust", "result", "cash_out"):
        assert f"ledger_{kind}" in PAGE_MESSAGES
    for english, italian in (PAGE_MESSAGES[key] for key in used):
        assert english.strip() and italian.strip()
    strings = re.findall(r'"([^"\\]*)"', js)
    words = {s for s in strings if re.fullmatch(r"[A-Z][a-z]+( [a-z]+)*", s)}
    assert words == set(), words
