"""The table's chat in a real browser (issue 13): the host (Alice, at 1280x800) and a player
(Bruno, who takes a seat from the invite on a 390x844 touch screen) chat while a deal is
under way; the host mutes Bruno: his next message is shown on his page, not on hers (which
says how many it hides, also after a reload); unmuting shows it; a message is shown as text,
never as HTML; the host removes all of Bruno's messages and they go from both pages. The
counter, the box's limit and the words in both languages are checked, axe-core finds no
serious violation in the chat, and screenshots are saved (``table-1280x800-chat``,
``table-390x844-chat``).

Debian's Chromium through Playwright, the server in a thread (``tests/browser_steps.py``).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from browser_steps import REQUIRED, LiveServer, browser, new_table, open_seat, shot, start
from browser_steps import sqlite_server as server
from test_server_accessibility import AXE, SEVERE, violations

from italian_poker.server.app import STATIC
from italian_poker.server.i18n import PAGE_MESSAGES, page_strings
from italian_poker.table.vocabulary import Language

__all__ = ["browser", "server"]  # the fixtures, from browser_steps

Page = Any  # playwright.sync_api.Page
EN = page_strings(Language.EN)["messages"]
IT = page_strings(Language.IT)["messages"]

SHOWN = "() => [...document.querySelectorAll('#chat-lines .chat-text')].map((p) => p.textContent)"


def shown(page: Page) -> list[str]:
    """The texts of the chat's messages the page shows, in order."""
    return list(page.evaluate(SHOWN))


def wait_shown(page: Page, text: str, present: bool = True) -> None:
    page.wait_for_function(
        f"([text, present]) => ({SHOWN})().includes(text) === present", arg=[text, present]
    )


def say(page: Page, text: str) -> None:
    """Type ``text`` in the chat's box and press Enter; it is back on the page (sent)."""
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")
    wait_shown(page, text)
    assert page.input_value("#chat-input") == ""


def line_of(page: Page, text: str) -> Any:
    return page.locator("#chat-lines li", has=page.locator(".chat-text", has_text=text))


def severe(page: Page) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on ``page`` now (none checked without
    axe-core, unless the browser tests are required)."""
    if not AXE.exists():
        if REQUIRED:
            pytest.fail("axe-core is missing: run `npm install` at the repository root")
        return []
    return [v for v in violations(page) if v["impact"] in SEVERE]


def test_two_players_chat_one_mutes_the_other_and_the_host_removes_messages(
    server: LiveServer, browser: Any
) -> None:
    table = new_table(server, "Alice", bots=1)
    host_context = browser.new_context(viewport={"width": 1280, "height": 800})
    alice = open_seat(host_context, server, table)
    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    bruno = phone.new_page()
    bruno.set_default_timeout(10_000)
    errors: list[str] = []
    for page in (alice, bruno):
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    bruno.goto(f"{server.base_url}/t/{table['invite']}")
    bruno.fill("#join-form input[name=nickname]", "Bruno")
    bruno.click("#join-form button[type=submit]")
    bruno.wait_for_selector("li.seat.you")
    start(table)
    alice.wait_for_selector("#seats .seat.to-act")

    # Nothing yet; the words are the vocabulary's.
    assert alice.inner_text("#chat-heading") == EN["chat"]
    assert alice.is_visible("#chat-none") and alice.inner_text("#chat-none") == EN["chat_none"]
    assert alice.get_attribute("#chat-input", "placeholder") == EN["chat_placeholder"]
    assert alice.get_attribute("#chat-input", "maxlength") == "200"

    say(bruno, "Ciao a tutti! ☺")
    wait_shown(alice, "Ciao a tutti! ☺")
    say(alice, "Benvenuto, Bruno")
    wait_shown(bruno, "Benvenuto, Bruno")
    first = line_of(alice, "Ciao a tutti")
    assert first.locator(".chat-author").inner_text() == "Bruno"
    assert first.locator("time").get_attribute("datetime").endswith("+00:00")
    assert first.locator("time").inner_text()  # the time, as the reader's clock says it
    # The host may remove any message and mute the others; a player only mutes the others.
    assert [b.inner_text() for b in first.locator("button").all()] == [
        EN["chat_mute"],
        EN["chat_remove"],
        EN["chat_remove_all"].format(name="Bruno"),
    ]
    assert first.locator("button").first.get_attribute("aria-label") == "Mute Bruno"
    mine = line_of(alice, "Benvenuto")
    assert mine.locator(".chat-author").inner_text() == f"Alice ({EN['you']})"
    assert mine.locator("button", has_text=EN["chat_mute"]).count() == 0
    assert line_of(bruno, "Benvenuto").locator("button").all_inner_texts() == [EN["chat_mute"]]
    assert line_of(bruno, "Ciao a tutti").locator("button").count() == 0

    # Text, never HTML.
    markup = '<img src=x onerror="window.hacked=1"><b>bold</b>'
    say(bruno, markup)
    wait_shown(alice, markup)
    for page in (alice, bruno):
        assert page.locator("#chat-lines img, #chat-lines b").count() == 0
        assert page.evaluate("() => window.hacked === undefined")

    # The counter counts what is sent; the box takes no more than the server.
    bruno.fill("#chat-input", "x" * 185)
    assert bruno.inner_text("#chat-count") == "185/200"
    assert "near" in (bruno.get_attribute("#chat-count", "class") or "")
    bruno.fill("#chat-input", "y" * 250)
    assert len(bruno.input_value("#chat-input")) == 200
    bruno.fill("#chat-input", "   ")
    bruno.press("#chat-input", "Enter")
    assert bruno.inner_text("#chat-error") == EN["chat_error_empty"]
    bruno.fill("#chat-input", "")
    assert bruno.is_hidden("#chat-error")  # typing again puts the refusal away

    assert severe(alice) == [] and severe(bruno) == []
    # The host mutes Bruno: his messages go from her page alone, the page says how many.
    first.locator("button", has_text=EN["chat_mute"]).click()
    wait_shown(alice, "Ciao a tutti! ☺", present=False)
    assert shown(alice) == ["Benvenuto, Bruno"]
    muted = alice.locator("#chat-muted-list li")
    assert muted.count() == 1
    assert EN["chat_muted"].format(name="Bruno") in muted.inner_text()
    assert "2 messages hidden" in muted.inner_text()
    unmute = muted.locator("button")
    assert unmute.inner_text() == EN["chat_unmute"]
    assert alice.evaluate("() => document.activeElement.dataset.ckey").startswith("unmute-")
    assert alice.is_visible("#chat-muted .note")
    assert "Ciao a tutti! ☺" in shown(bruno)  # nothing changes on his page

    say(bruno, "Mi senti?")
    alice.wait_for_function(
        "() => document.querySelector('#chat-muted-list li').textContent.includes('3 messages')"
    )
    assert "Mi senti?" not in shown(alice)
    assert severe(alice) == []
    shot(alice, "table-1280x800-chat-muted")
    # The mute is this browser's, kept for this table: still there after a reload.
    alice.reload()
    alice.wait_for_selector("#chat-muted-list li")
    wait_shown(alice, "Benvenuto, Bruno")
    assert shown(alice) == ["Benvenuto, Bruno"]
    saved = alice.evaluate(
        "invite => localStorage.getItem('italian-poker.chat-muted.' + invite)", table["invite"]
    )
    assert list(json.loads(saved).values()) == ["Bruno"]

    # Unmuted: every message again, in order.
    alice.click("#chat-muted-list button")
    wait_shown(alice, "Mi senti?")
    assert alice.is_hidden("#chat-muted")
    expected = ["Ciao a tutti! ☺", "Benvenuto, Bruno", markup, "Mi senti?"]
    assert shown(alice) == expected and shown(bruno) == expected
    shot(alice, "table-1280x800-chat")
    shot(bruno, "table-390x844-chat")
    chat_box = bruno.locator("#chat").bounding_box()
    assert chat_box is not None and chat_box["width"] <= 390  # no sideways scrolling

    # In Italian, the same chat.
    alice.click("#lang-switch")
    alice.wait_for_function("() => document.documentElement.lang === 'it'")
    assert alice.inner_text("#chat-heading") == IT["chat"]
    assert line_of(alice, "Mi senti").locator("button").first.inner_text() == IT["chat_mute"]
    assert alice.get_attribute("#chat-input", "placeholder") == IT["chat_placeholder"]
    alice.click("#lang-switch")
    alice.wait_for_function("() => document.documentElement.lang === 'en'")

    # The host removes all of Bruno's messages: gone from both pages; hers stay.
    line_of(alice, "Mi senti").locator("button", has_text="Remove all from Bruno").click()
    for page in (alice, bruno):
        wait_shown(page, "Mi senti?", present=False)
        assert shown(page) == ["Benvenuto, Bruno"]
    # And one message of her own.
    line_of(alice, "Benvenuto").locator("button", has_text=EN["chat_remove"]).first.click()
    for page in (alice, bruno):
        page.wait_for_selector("#chat-none", state="visible")
        assert shown(page) == []
    assert errors == []
    host_context.close()
    phone.close()


def test_the_chat_script_says_only_the_vocabularys_words() -> None:
    """static/chat.js looks every label up (``t``/``tr``) in the page labels, which have
    each in English and Italian, and holds no words of its own; every refusal of the
    server's chat has its words."""
    js = (STATIC / "chat.js").read_text(encoding="utf-8")
    used: set[str] = set()
    for pattern in (r'\btr?\((?:chat\.lang, )?"([a-z0-9_-]+)"', r'"(chat_[a-z_]+)"'):
        used |= set(re.findall(pattern, js))
    html = (STATIC / "table.html").read_text(encoding="utf-8")
    used |= {key for key in re.findall(r'data-i18n="([a-z0-9_-]+)"', html) if "chat" in key}
    codes = {"chat_empty", "chat_too_long", "chat_bad_character", "chat_rate_limited"}
    types = {"chat_log", "chat_removed"}  # the WebSocket's messages, not words
    keys = used - types
    assert {"chat", "chat_mute", "chat_unmute", "chat_remove", "chat_remove_all"} <= keys
    assert keys - PAGE_MESSAGES.keys() == set()
    for english, italian in (PAGE_MESSAGES[key] for key in keys):
        assert english.strip() and italian.strip()
    for code in codes:  # each refusal of server/chat.py has its words
        assert re.search(rf'\b{code}: "chat_error_[a-z_]+"', js), code
    strings = re.findall(r'"([^"\\]*)"', js)
    words = {s for s in strings if re.fullmatch(r"[A-Z][a-z]+( [a-z]+)*", s)}
    assert words == set(), words
    assert "innerHTML" not in js and "insertAdjacentHTML" not in js
