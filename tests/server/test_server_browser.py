"""End to end in a real browser (issue 5): two players in separate browser contexts and a bot
play a full deal, including the draw, at the online table; no page ever holds another
player's hidden cards.

Playwright drives Debian's Chromium; the server runs in-process, once per database backend
like the other server tests (``tests/browser_steps.py``: its ``server`` and ``browser``).
"""

from __future__ import annotations

import re
import time
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from browser_steps import (
    DEAL_SECONDS,
    LiveServer,
    Page,
    add_bots,
    browser,
    create_in_lobby,
    join_table,
    my_turn,
    new_page,
    play_to_the_result,
    runtimes,
    server,
    shot,
    sqlite_server,
    table_state,
)

from italian_poker.analysis.bots.expert import ExpertPolicy
from italian_poker.engine.actions import ActionKind, LegalAction
from italian_poker.engine.cards import Card, parse_cards
from italian_poker.engine.deal import Phase
from italian_poker.engine.opening import OpeningRequirement, opening_groups
from italian_poker.server.app import BOT_LEVELS, STATIC
from italian_poker.server.i18n import PAGE_MESSAGES, page_strings
from italian_poker.server.protocol import card_codes
from italian_poker.table.vocabulary import ACTION_LABELS, Language

__all__ = ["browser", "server", "sqlite_server"]  # the fixtures (browser_steps)


# --- what a page may not show ------------------------------------------------------------


def held_cards(state: Any, slot: int) -> set[Card]:
    """Every card the seat in ``slot`` held in the current (or last) deal: its hand and its
    discards."""
    match = state.match
    if match is None or match.deal is None or slot not in state.deal_slots:
        return set()
    deal = match.deal
    index = state.deal_slots.index(slot)
    cards = set(deal.hands[index])
    for record in deal.actions:
        if record.seat == index and record.action.kind is ActionKind.DRAW:
            cards.update(record.action.cards)
    return cards


def hidden_from(state: Any, viewer: int) -> set[Card]:
    """Cards of the other seats that ``viewer`` may not see: everything they held, less what
    was shown at the showdown and the opener's proof (3.3), less the viewer's own cards."""
    match = state.match
    if match is None or match.deal is None:
        return set()
    deal = match.deal
    hidden: set[Card] = set()
    for slot in state.deal_slots:
        if slot != viewer:
            hidden |= held_cards(state, slot)
    if deal.showdown is not None:
        for index in deal.showdown.shown:
            hidden -= set(deal.hands[index])
    if deal.result is not None:
        hidden -= set(deal.result.proof)
    if deal.rules.discards_face_up:
        for record in deal.actions:
            if record.action.kind is ActionKind.DRAW:
                hidden -= set(record.action.cards)
    return hidden - held_cards(state, viewer)


def read_hidden(app: Any, invite: str, viewer: int) -> set[Card]:
    """:func:`hidden_from`, read from the test's thread while the server's thread plays on:
    read again if the deal changed under the reading."""
    for _ in range(5):
        try:
            return hidden_from(table_state(app, invite), viewer)
        except RuntimeError:  # a dict changed size while being read
            time.sleep(0.01)
    return hidden_from(table_state(app, invite), viewer)


_RANK_EN = (
    "Two",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Jack",
    "Queen",
    "King",
    "Ace",
)
_RANK_IT = (
    "Due",
    "Tre",
    "Quattro",
    "Cinque",
    "Sei",
    "Sette",
    "Otto",
    "Nove",
    "Dieci",
    "Jack",
    "Donna",
    "Re",
    "Asso",
)
_SUIT_EN = {"s": "spades", "c": "clubs", "d": "diamonds", "h": "hearts"}
_SUIT_IT = {"s": "picche", "c": "fiori", "d": "quadri", "h": "cuori"}


def notations(card: Card) -> tuple[list[re.Pattern[str]], list[str]]:
    """Ways a card may be written: code patterns (``Th``, ``10h``) for the HTML, and phrases
    (``Ten of hearts``, ``Dieci di cuori``, ``10 di cuori``) and symbols (``10♥``)."""
    rank, suit = card.rank.letter, card.suit.letter
    codes = [rank + suit] + (["10" + suit] if rank == "T" else [])
    patterns = [re.compile(rf"(?<![A-Za-z0-9]){code}(?![A-Za-z0-9])") for code in codes]
    i = card.rank - 2
    phrases = [
        f"{_RANK_EN[i]} of {_SUIT_EN[suit]}".lower(),
        f"{_RANK_IT[i]} di {_SUIT_IT[suit]}".lower(),
        f"{card.rank.italian} di {_SUIT_IT[suit]}".lower(),
        card.symbol,
        rank + card.suit.symbol,
    ]
    return patterns, phrases


def assert_no_hidden_cards(page: Page, app: Any, invite: str, viewer: int, who: str) -> None:
    """``page`` (the view of ``viewer``) holds none of the other seats' hidden cards, in its
    HTML or its text, in any notation."""
    html = page.content()
    text = re.sub(r"\s+", "", page.inner_text("body"))
    lowered = html.lower()
    hidden = read_hidden(app, invite, viewer)
    for card in hidden:
        patterns, phrases = notations(card)
        for pattern in patterns:
            assert not pattern.search(html), f"{who}'s page shows hidden card {card}"
        for phrase in phrases:
            assert phrase.lower() not in lowered, f"{who}'s page names hidden card {card}"
            assert phrase.replace(" ", "") not in text, f"{who}'s page shows hidden card {card}"


_PHH_CARDS = re.compile(r"^(?:[2-9TJQKA?][hdcs?])+$")


def history_cards(text: str) -> set[str]:
    """The card codes written in the actions of a hand history (``"d dh p2 AhQd8cJc9h"``;
    unknown cards are ``??``)."""
    cards: set[str] = set()
    for action in re.findall(r'^\s*"([^"]*)",?\s*$', text, flags=re.MULTILINE):
        for token in action.split():
            if _PHH_CARDS.match(token):
                cards.update(token[i : i + 2] for i in range(0, len(token), 2))
    cards.discard("??")
    return cards


# --- driving a page ----------------------------------------------------------------------

PRIORITY = ("open", "decline", "call", "check", "show", "pass", "make-up", "fold")
"""What a player does when it is their turn: open whenever the hand allows it, at the
minimum (the seeded deal lets the host open, so the opener's draw and its 4.4 split are
played in the browser), no blind, then call, check, show; never a raise."""
KEYS = {
    "blind": "i",
    "call": "v",
    "check": "b",
    "show": "s",
    "decline": "n",
    "open": "a",
    "pass": "p",
    "make-up": "e",
    "fold": "f",
}


def take_turn(
    page: Page,
    use_keys: bool,
    draw: LegalAction | None,
    hand: tuple[Card, ...],
    priority: tuple[str, ...] = PRIORITY,
) -> str:
    """Act once on ``page``: by clicks, or by keyboard shortcuts. At the draw (``draw`` is
    the engine's legal draw, ``hand`` the seat's cards), the opener marks one card of each
    group that shows the opening, so the opening is broken (4.4), and checks that the page
    says the split will be announced; anyone else changes the first and third cards and the
    page says nothing of a split."""
    if page.is_visible("#draw-controls"):
        assert draw is not None
        cards = page.locator("#hand button.card")
        assert cards.count() == 5
        assert page.get_attribute("#hand button.card >> nth=0", "aria-label")
        groups = draw.split_unless_kept or ()
        if groups:
            positions = sorted({hand.index(group[0]) for group in groups})[:4]
        else:
            positions = [0, 2]
            cards.nth(1).click()
            cards.nth(1).click()  # unmark again
        for position in positions:
            cards.nth(position).click()
        marked = page.locator("#hand button.card[aria-pressed=true]")
        assert marked.count() == len(positions)
        splits = draw.breaks_opening(tuple(hand[p] for p in positions))
        # Any discard breaks an opening no smaller group shows (a straight: no groups).
        assert splits == (draw.split_unless_kept is not None)
        assert page.is_visible("#split-note") == splits
        if splits:
            assert "4.4" in page.inner_text("#split-note")
        if use_keys:
            page.keyboard.press("Enter")
        else:
            page.click("#draw-confirm")
        return "draw-split" if splits else "draw"
    kinds = page.eval_on_selector_all(
        "#action-buttons button.action", "buttons => buttons.map(b => b.dataset.kind)"
    )
    for kind in priority:
        if kind in kinds:
            if use_keys:
                page.locator("body").press(KEYS[kind])
            else:
                page.click(f"#action-buttons button[data-kind='{kind}']")
            return kind
    raise AssertionError(f"no expected action among {kinds}")


def seat_of(page: Page) -> int:
    return int(page.get_attribute("li.seat.you", "data-seat") or "-1")


# --- the test ----------------------------------------------------------------------------


def test_two_players_and_a_bot_play_a_deal_in_the_browser(server: LiveServer, browser: Any) -> None:
    errors: list[str] = []
    host_context = browser.new_context(viewport={"width": 1280, "height": 900})
    guest_context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, accept_downloads=True
    )
    host = new_page(host_context, errors)
    guest = new_page(guest_context, errors)

    # The host creates the table in the lobby (no turn timer) and lands at its seat.
    invite = create_in_lobby(host, server.base_url, "Alice", "Prova")
    assert re.search(r"/t/[A-Za-z0-9_-]{22,}$", host.url)

    # The second player follows the invite link and takes a seat by nickname.
    join_table(guest, host.url, "Bruno")
    host.wait_for_selector("li.seat:has-text('Bruno')")

    # The host adds a bot and starts.
    add_bots(host, "simple")
    host.wait_for_selector("li.seat:has-text('bot')")
    host.click("#start")
    host.wait_for_selector("#pot:has-text('Pot')")

    viewers = {"host": (host, seat_of(host)), "guest": (guest, seat_of(guest))}
    assert viewers["host"][1] != viewers["guest"][1]
    done: list[str] = []
    deadline = time.monotonic() + DEAL_SECONDS
    while True:
        for who, (page, seat) in viewers.items():
            assert_no_hidden_cards(page, server.app, invite, seat, who)
        if (
            host.locator("#result-lines p:not(.muted)").count()
            and guest.locator("#result-lines p:not(.muted)").count()
        ):
            break
        assert time.monotonic() < deadline, f"the deal did not finish; actions: {done}"
        acted = False
        for who, (page, seat) in viewers.items():
            if my_turn(page):
                state = table_state(server.app, invite)
                deal = state.match.deal
                draw = next((a for a in deal.legal_actions() if a.kind is ActionKind.DRAW), None)
                hand = ()
                if deal.actor is not None:  # the page's own seat is to act in the deal
                    assert state.deal_slots[deal.actor] == seat
                    hand = tuple(deal.hands[deal.actor])
                done.append(f"{who}:{take_turn(page, who == 'guest', draw, hand)}")
                acted = True
                page.wait_for_function(
                    "() => !document.querySelector('#action-buttons button.action[disabled]')"
                )
        if not acted:
            time.sleep(0.1)

    assert "host:draw-split" in done, done  # the opener broke the opening: split announced
    assert any(a.startswith("guest:draw") for a in done), done
    assert any(a.startswith("guest:") and a != "guest:draw" for a in done), done
    for who, (page, seat) in viewers.items():
        assert_no_hidden_cards(page, server.app, invite, seat, who)
        # The result is explained, and the public log tells the deal.
        assert page.locator("#result-lines p").count() >= 1
        assert page.locator("#log-lines li").count() >= 5
        # Every card and action shown has a text label.
        for card in page.locator(".card:not([aria-hidden=true])").all():
            assert card.get_attribute("aria-label")
    # The live region announces game events politely.
    assert host.get_attribute("#live", "aria-live") == "polite"
    assert (host.text_content("#live") or "").strip()
    # Italian: labels from i18n.js, narration from the server's Italian lines.
    host.click("#lang-switch")
    assert host.inner_text("#result-heading") == "Risultato della mano"
    first_card = host.locator("#hand .card").first
    assert re.search(r" di (cuori|quadri|fiori|picche)$", first_card.get_attribute("aria-label"))
    assert_no_hidden_cards(host, server.app, invite, viewers["host"][1], "host")
    assert errors == []
    # The check is not vacuous: the host's page would be caught showing a bot's hidden card.
    hidden = sorted(read_hidden(server.app, invite, viewers["host"][1]), key=str)
    assert hidden, "the other seats should hold cards the host never saw"
    host.evaluate(
        "code => document.getElementById('log-lines').append(Object.assign("
        "document.createElement('li'), {textContent: 'x ' + code}))",
        str(hidden[0]),
    )
    with pytest.raises(AssertionError, match="hidden card"):
        assert_no_hidden_cards(host, server.app, invite, viewers["host"][1], "host")
    # A reload reconnects the guest to the same seat with the same view.
    seat = viewers["guest"][1]
    guest.reload()
    guest.wait_for_selector("li.seat.you")
    assert seat_of(guest) == seat
    assert_no_hidden_cards(guest, server.app, invite, seat, "guest")
    # The guest downloads the deal's history from its replayer: redacted to what the guest
    # saw (tests/server/test_server_browser_replay.py steps through the replayer itself).
    guest.click("#histories-show")
    guest.click("#histories a >> nth=0")
    guest.wait_for_selector("#download:visible")
    with guest.expect_download() as download_info:
        guest.click("#download")
    path = download_info.value.path()
    assert path is not None
    history = Path(path).read_text(encoding="utf-8")
    assert history.strip()
    written = history_cards(history)
    assert len(written) >= 7  # the guest's own five cards and two drawn
    leaked = written & {str(c) for c in read_hidden(server.app, invite, seat)}
    assert not leaked, f"the guest's history shows hidden cards {leaked}"
    host_context.close()
    guest_context.close()


def test_the_host_seats_expert_bots_from_the_page_and_they_play_a_deal(
    server: LiveServer, browser: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 15: the online table offers the expert as a level. Picked from the host's list,
    each expert takes a seat labelled as such, decides on its own thread and plays the deal
    through, no choice of it refused by the rules."""
    errors: list[str] = []
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = new_page(context, errors)
    invite = create_in_lobby(page, server.base_url, "Alice", "Esperti")
    add_bots(page, "expert", "expert")
    bots = page.locator("li.seat:has-text('bot')").all_inner_texts()
    assert len(bots) == 2 and all("expert" in text for text in bots), bots
    page.click("#start")
    page.wait_for_selector("#pot:has-text('Pot')")
    play_to_the_result(page)

    made = [
        bot
        for runtime in runtimes(server.app)
        if getattr(runtime, "invite", None) == invite
        for bot in runtime.bots.values()
    ]
    assert len(made) == 2 and all(isinstance(bot, ExpertPolicy) for bot in made), made
    logged = page.locator("#log-lines li").all_inner_texts()
    experts = [s.nickname for s in table_state(server.app, invite).slots if s and s.bot]
    for name in experts:  # each expert's actions are told in the log
        assert any(name in line for line in logged), (name, logged)
    assert not [r for r in caplog.records if "chose an action not allowed" in r.getMessage()]
    assert errors == []
    context.close()


# --- the page's labels, in both languages --------------------------------------------------


def test_the_page_knows_which_draws_break_the_opening_as_the_engine_does(
    server: LiveServer, browser: Any
) -> None:
    """4.4 in the page (``static/draw_rules.js``) against the engine's
    ``LegalAction.breaks_opening``, on the draws the server offers an opener: pairs, two pair,
    three of a kind, four to a straight flush, and the straights, flushes and fulls no smaller
    group shows (``split_unless_kept`` is an empty list: any discard breaks them), and the
    draw of anyone but the opener (no groups)."""
    requirement = OpeningRequirement()
    openings = [
        "Js Jh 9c 8d 7s",
        "Ks Kh Qs Qh 7c",
        "9s 9h 8s 8h Ac",
        "7s 7h 7d As Kc",
        "Ts 9s 8s 7s Ad",
        "Ah Kd Qc Js Th",  # a straight
        "Ah Jh 9h 8h 7h",  # a flush
        "9s 9h 9d 8s 8h",  # a full house
    ]
    cases: list[tuple[dict[str, Any], list[str], bool]] = []
    for text in openings:
        hand = parse_cards(text)
        groups = opening_groups(hand, requirement)
        offered = LegalAction(ActionKind.DRAW, max_cards=4, split_unless_kept=groups)
        entry = {
            "kind": "draw",
            "max_cards": 4,
            "split_unless_kept": [card_codes(g) for g in groups],
        }
        for size in range(5):
            for discards in combinations(hand, size):
                expected = offered.breaks_opening(discards)
                cases.append((entry, card_codes(discards), expected))
    plain = {"kind": "draw", "max_cards": 4}
    cases += [(plain, [], False), (plain, ["As", "Kd"], False)]
    assert any(expected for _, cards, expected in cases if len(cards) == 1)
    page = browser.new_page()
    try:
        page.goto(server.base_url + "/")
        answers = page.evaluate(
            """async (cases) => {
                const rules = await import("/static/draw_rules.js");
                return cases.map(([entry, cards]) => rules.breaksOpening(entry, cards));
            }""",
            [[entry, cards] for entry, cards, _ in cases],
        )
    finally:
        page.close()
    wrong = [
        (entry.get("split_unless_kept"), cards, expected)
        for (entry, cards, expected), answer in zip(cases, answers, strict=True)
        if answer != expected
    ]
    assert wrong == []


def test_every_label_of_the_pages_exists_in_english_and_italian() -> None:
    """Every key the pages look up is in the table vocabulary's page labels, in both
    languages; the actions are the terminal game's, named the same."""
    messages = PAGE_MESSAGES
    for key, (english, italian) in messages.items():
        assert english.strip() and italian.strip(), key
    used: set[str] = set()
    for page in ("index.html", "table.html"):
        html = (STATIC / page).read_text(encoding="utf-8")
        used.update(re.findall(r'data-i18n(?:-label)?="([a-z0-9_-]+)"', html))
    for script in ("table.js", "lobby.js", "i18n.js", "draw_rules.js"):
        js = (STATIC / script).read_text(encoding="utf-8")
        used.update(re.findall(r'\btr?\((?:lang, )?"([a-z0-9_-]+)"', js))
        used.update(re.findall(r'setConn\("([a-z0-9_-]+)"\)', js))
    server_phases = {"lobby", "paused", "between-deals", "make-up", "over"}
    used.update(f"phase_{phase}" for phase in {p.value for p in Phase} | server_phases)
    used.update(
        f"status_{s}" for s in ("active", "seated", "folded", "out", "sitting_out", "empty")
    )
    used.update(f"level_{level}" for level in BOT_LEVELS)
    assert used - messages.keys() == set()
    for lang in (Language.EN, Language.IT):
        strings = page_strings(lang)
        assert strings["actions"] == {
            kind.value: pair[lang is Language.IT] for kind, pair in ACTION_LABELS.items()
        }


def test_the_browser_keeps_no_copy_of_the_words() -> None:
    """static/i18n.js only looks words up: the words come from the server
    (``GET /api/strings/{lang}``), so no table of labels, action names or card names is
    left in the scripts."""
    for script in ("i18n.js", "table.js", "lobby.js"):
        js = (STATIC / script).read_text(encoding="utf-8")
        for table in ("MESSAGES", "ACTION_LABELS", "RANK_NAMES", "SUIT_NAMES", "ACTION_KEYS"):
            assert f"const {table}" not in js and f"{table} = {{" not in js, (script, table)
        for word in ("Lascio", "Rilancio", "Piatto", "Mazziere", "Asso", "cuori"):
            assert f'"{word}"' not in js, (script, word)  # a word as a string of the script
    assert "/api/strings/" in (STATIC / "i18n.js").read_text(encoding="utf-8")


def test_the_lobby_on_a_wide_screen_and_on_a_phone(sqlite_server: LiveServer, browser: Any) -> None:
    """The lobby page alone (``index.html``), saved as ``lobby-1280x800`` and
    ``lobby-390x844``: nothing wider than the screen, every field labelled, the link to the
    statistics across the browser's tables."""
    for width, height, touch in ((1280, 800, False), (390, 844, True)):
        context = browser.new_context(
            viewport={"width": width, "height": height}, has_touch=touch, is_mobile=touch
        )
        errors: list[str] = []
        page = new_page(context, errors)
        page.goto(sqlite_server.base_url + "/")
        page.wait_for_selector("#create-form")
        page.select_option("#create-form select[name=lang]", "en")
        assert not page.evaluate("() => document.documentElement.scrollWidth > innerWidth")
        unlabelled = page.eval_on_selector_all(
            "main input, main select", "fields => fields.filter(f => !f.labels.length).length"
        )
        assert unlabelled == 0
        assert page.get_attribute("#group-stats-link", "href") == "/stats"
        shot(page, f"lobby-{width}x{height}")
        assert errors == []
        context.close()
