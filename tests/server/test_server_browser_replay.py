"""The hand replayer in a real browser (issue 13): the host plays a deal to its end against two
bots, opens the replayer from the table's hand list and steps through every frame; each step's
felt (pot, stacks, the cards face up and face down, the action's words) is checked against the
engine's own replay of the deal's history, and no hidden card of another player is in the
page before the showdown. A player who sat down after the deal opens the shared link and sees
the public view. Screenshots at 1280x800 and 390x844 go to ``$ITALIAN_POKER_SCREENSHOTS``
(default: ``screenshots/`` at the repository root, ignored by git).

The server in a thread and Debian's Chromium: ``tests/browser_steps.py``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from browser_steps import (
    LiveServer,
    Page,
    add_bots,
    browser,
    create_in_lobby,
    join_table,
    new_page,
    play_to_the_result,
    runtimes,
    seat_token,
    server,
    shot,
)
from test_server_browser import notations

from italian_poker.engine.cards import Card, parse_cards
from italian_poker.engine.deal import Deal, Phase
from italian_poker.engine.history import HandHistory
from italian_poker.server.app import STATIC
from italian_poker.server.i18n import PAGE_MESSAGES, page_strings
from italian_poker.table.vocabulary import Language

__all__ = ["browser", "server"]  # the fixtures (browser_steps)

EN = page_strings(Language.EN)["messages"]
BEFORE_SHOWDOWN = {Phase.BLINDS, Phase.OPENING, Phase.FIRST_ROUND, Phase.DRAW, Phase.SECOND_ROUND}


# --- the deal as the engine replays it ---------------------------------------------------


def engine_steps(history: HandHistory, viewer: int | None) -> list[dict[str, Any]]:
    """Each step of the deal read off the engine itself (everything, for the checks): the
    pot (on the last step, what is carried), the stacks, the viewer's cards and the hands
    shown so far."""
    deal = Deal(history.start(), history.source())

    def step() -> dict[str, Any]:
        result = deal.result
        showdown = deal.showdown
        shown = {s: tuple(deal.hands[s]) for s in showdown.shown} if showdown else {}
        return {
            "phase": deal.phase,
            "pot": result.carried if result is not None else deal.pot,
            "stacks": tuple(deal.stacks),
            "own": tuple(deal.hands[viewer]) if viewer is not None else (),
            "shown": shown,
            "folded": tuple(deal.folded),
        }

    steps = [step()]
    for entry in history.actions:
        deal.apply(entry.action, seat=entry.seat)
        steps.append(step())
    return steps


def cards_of(history: HandHistory, seats: set[int]) -> set[Card]:
    """Every card dealt to ``seats`` (the five and those drawn)."""
    return {card for d in history.dealt if d.seat in seats for card in d.cards}


def assert_none_in_page(page: Page, hidden: set[Card], who: str) -> None:
    """No card of ``hidden`` in the page's HTML or text, in any notation."""
    html = page.content()
    lowered = html.lower()
    text = re.sub(r"\s+", "", page.inner_text("body"))
    for card in hidden:
        patterns, phrases = notations(card)
        for pattern in patterns:
            assert not pattern.search(html), f"{who}'s replayer shows hidden card {card}"
        for phrase in phrases:
            assert phrase.lower() not in lowered, f"{who}'s replayer names hidden card {card}"
            assert phrase.replace(" ", "") not in text, f"{who}'s replayer shows {card}"


def felt(page: Page) -> dict[str, Any]:
    """What the replayer's felt shows now."""
    return dict(
        page.evaluate(
            """() => ({
              pot: document.getElementById('pot').textContent,
              awards: [...document.querySelectorAll('#awards p')].map(p => p.textContent),
              winners: [...document.querySelectorAll('#seats li.seat.winner')]
                .map(li => Number(li.dataset.seat)),
              tagged: [...document.querySelectorAll('#seats li.seat .tags')]
                .filter(t => t.textContent.includes('winner'))
                .map(t => Number(t.closest('li').dataset.seat)),
              phase: document.getElementById('phase').textContent,
              line: document.getElementById('step-line').textContent,
              count: document.getElementById('step-count').textContent,
              result: [...document.querySelectorAll('#result-lines p:not(.muted)')]
                .map(p => p.textContent),
              seats: [...document.querySelectorAll('#seats li.seat')].map(li => ({
                seat: Number(li.dataset.seat),
                stack: li.querySelector('.stack').textContent,
                bet: li.querySelector('.bet') ? li.querySelector('.bet').textContent : '',
                cards: [...li.querySelectorAll('.card[data-card]')].map(c => c.dataset.card),
                backs: li.querySelectorAll('.backs .card.back').length,
                folded: li.classList.contains('status-folded'),
                labelled: [...li.querySelectorAll('.card[data-card]')]
                  .every(c => !!c.getAttribute('aria-label')),
              })),
            })"""
        )
    )


def check_step(
    page: Page,
    index: int,
    replay: dict[str, Any],
    steps: list[dict[str, Any]],
    viewer: int | None,
    history: HandHistory,
    who: str,
) -> None:
    """The felt of step ``index`` is the frame's and the engine's; no hidden card shows. At
    the last step of a won deal the felt shows what the table's does after a deal: the pot
    won (not the 0 carried on), each pot's sentence and the winners marked."""
    frames = replay["frames"]
    frame, step = frames[index], steps[index]
    shown = felt(page)
    assert shown["count"] == f"Step {index + 1} of {len(frames)}", who
    assert step["pot"] == frame["pot"], (who, index)
    end = index == len(frames) - 1
    awards = replay["awards"] if end else []
    pot = sum(award["amount"] for award in awards) if awards else step["pot"]
    assert shown["pot"] == f"Pot {pot}", (who, index)
    assert shown["awards"] == [award["line"]["en"] for award in awards], (who, index)
    won = sorted({seat for award in awards for seat in award["winners"]})
    assert shown["winners"] == shown["tagged"] == won, (who, index)
    assert shown["phase"] == EN[f"phase_{step['phase'].value}"], (who, index)
    assert shown["line"] == frame["line"]["en"], (who, index)
    assert (shown["result"] != []) == (index == len(frames) - 1), (who, index)
    by_seat = {s["seat"]: s for s in shown["seats"]}
    assert sorted(by_seat) == list(range(len(history.names)))
    for seat, expected_stack in enumerate(step["stacks"]):
        here = by_seat[seat]
        assert here["stack"] == f"Chips {expected_stack}", (who, index, seat)
        assert here["labelled"]
        if seat == viewer:
            visible = [str(c) for c in step["own"]]
            assert here["cards"] == visible, (who, index, seat)
        else:
            # A shown hand reads in its own order (the combination first): the same cards.
            visible = [str(c) for c in step["shown"].get(seat, ())]
            assert sorted(here["cards"]) == sorted(visible), (who, index, seat)
        assert here["cards"] == frame["seats"][seat]["cards"]
        assert here["backs"] == frame["seats"][seat]["hidden"], (who, index, seat)
        assert here["folded"] == step["folded"][seat]
    # No hidden card of another player: before the showdown none at all; from then on, none
    # but those shown (and at the end the opener's proof, 3.3).
    others = set(range(len(history.names))) - ({viewer} if viewer is not None else set())
    hidden = cards_of(history, others) - cards_of(
        history, {viewer} if viewer is not None else set()
    )
    if step["phase"] not in BEFORE_SHOWDOWN:
        hidden -= {c for cards in step["shown"].values() for c in cards}
        hidden -= set(parse_cards(" ".join(frame["proof"])))
    assert_none_in_page(page, hidden, who)


# --- the test ----------------------------------------------------------------------------


def test_the_replayer_steps_through_a_finished_deal(server: LiveServer, browser: Any) -> None:
    errors: list[str] = []
    context = browser.new_context(viewport={"width": 1280, "height": 800}, accept_downloads=True)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.base_url)
    host = new_page(context, errors)

    # The host creates the table, adds two bots and plays the first deal to its end.
    invite = create_in_lobby(host, server.base_url, "Alice", "Replay")
    add_bots(host, "simple", "strong")
    host.click("#start")
    host.wait_for_selector("#pot:has-text('Pot')")
    play_to_the_result(host)
    runtime = next(r for r in runtimes(server.app) if r.invite == invite)
    found = runtime.histories.history_for(0, 1)
    assert found is not None
    history, viewer = found

    # The table's hand list links to the replayer.
    host.click("#histories-show")
    link = host.locator("#histories a").first
    assert link.inner_text() == "Replay deal 1"
    link.click()
    host.wait_for_url(f"**/t/{invite}/hands/1")
    host.wait_for_selector("#replay-table:not([hidden])")
    replay = server.get(f"/api/tables/{invite}/histories/1/frames", seat_token(host, invite))
    assert replay["you"] == viewer
    frames = replay["frames"]
    steps = engine_steps(history, viewer)
    assert len(frames) == len(steps) == len(history.actions) + 1
    assert host.locator("#hand-picker option").all_inner_texts() == ["Deal 1"]
    assert host.is_hidden("#public-note")
    assert replay["awards"], "the seeded deal is won: its end shows the pot won"
    assert host.is_visible("#controls .keys")  # a keyboard: the keys are told

    # Every step, by the keyboard (and the buttons), checked against the engine.
    check_step(host, 0, replay, steps, viewer, history, "host")
    middle = len(frames) // 2
    for index in range(1, len(frames)):
        if index % 3 == 0:
            host.click("#next")
        else:
            host.keyboard.press("ArrowRight")
        check_step(host, index, replay, steps, viewer, history, "host")
        if index == middle:
            shot(host, "replay-1280x800-middle")
    shot(host, "replay-1280x800-end")
    assert host.get_attribute("#next", "aria-disabled") == "true"
    host.keyboard.press("ArrowRight")  # nothing past the end
    check_step(host, len(frames) - 1, replay, steps, viewer, history, "host")
    host.keyboard.press("Home")
    check_step(host, 0, replay, steps, viewer, history, "host")
    host.keyboard.press("End")
    check_step(host, len(frames) - 1, replay, steps, viewer, history, "host")
    host.keyboard.press("ArrowLeft")
    check_step(host, len(frames) - 2, replay, steps, viewer, history, "host")
    # The street jumps: each to the first frame of its phase.
    for street in replay["streets"]:
        host.click(f"#streets button[data-phase='{street['phase']}']")
        check_step(host, street["frame"], replay, steps, viewer, history, "host")
        current = host.get_attribute(
            f"#streets button[data-phase='{street['phase']}']", "aria-current"
        )
        assert current == "step"
    host.click("#first")
    check_step(host, 0, replay, steps, viewer, history, "host")
    # The live region tells each step politely.
    assert host.get_attribute("#live", "aria-live") == "polite"
    host.wait_for_function(
        "line => document.getElementById('live').textContent.endsWith(line)",
        arg=frames[0]["line"]["en"],
    )
    # The check is not vacuous: a bot's hidden card put in the page is caught.
    bots = cards_of(history, set(range(len(history.names))) - {viewer})
    hidden = sorted(bots - cards_of(history, {viewer}), key=str)
    host.evaluate(
        "code => document.getElementById('felt-heading').append(' ' + code)", str(hidden[0])
    )
    with pytest.raises(AssertionError, match="hidden card"):
        check_step(host, 0, replay, steps, viewer, history, "host")
    host.reload()  # the page as it was
    host.wait_for_selector("#replay-table:not([hidden])")
    check_step(host, 0, replay, steps, viewer, history, "host")
    # Italian: the labels and the narration switch together.
    host.click("#lang-switch")
    assert host.inner_text("#controls-heading") == "Ripercorri la mano"
    assert host.inner_text("#step-line") == frames[0]["line"]["it"]
    host.click("#lang-switch")

    # The .phh download, redacted to what the host saw.
    with host.expect_download() as download_info:
        host.click("#download")
    path = download_info.value.path()
    assert path is not None
    text = Path(path).read_text(encoding="utf-8")
    assert "_redacted = true" in text and "_deck" not in text
    # The link to share, copied for the others at the table.
    host.click("#copy-link")
    url = host.evaluate("() => navigator.clipboard.readText()")
    assert url == f"{server.base_url}/t/{invite}/hands/1"

    # On a phone.
    host.set_viewport_size({"width": 390, "height": 844})
    host.click("#last")
    check_step(host, len(frames) - 1, replay, steps, viewer, history, "host")
    shot(host, "replay-390x844-end")

    # Beppe sits down after the deal and opens the shared link: the public view.
    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    guest = new_page(phone, errors)
    join_table(guest, f"{server.base_url}/t/{invite}", "Beppe")
    guest.goto(url)
    guest.wait_for_selector("#replay-table:not([hidden])")
    assert guest.is_visible("#public-note") and guest.is_hidden("#download")
    # A touch screen: no keyboard hints, as on the table's page.
    assert guest.is_hidden("#controls .keys")
    assert guest.evaluate("() => document.body.classList.contains('touch')")
    public = server.get(f"/api/tables/{invite}/histories/1/frames", seat_token(guest, invite))
    assert public["you"] is None
    public_steps = engine_steps(history, None)
    for index in range(len(public["frames"])):
        if index:
            guest.keyboard.press("ArrowRight")
        check_step(guest, index, public, public_steps, None, history, "guest")
        if index == 2:
            shot(guest, "replay-390x844-public")
    shot(guest, "replay-390x844-public-end")
    guest.set_viewport_size({"width": 1280, "height": 800})
    guest.keyboard.press("Home")
    shot(guest, "replay-1280x800-public-start")
    assert errors == []
    context.close()
    phone.close()


def test_the_replayer_says_what_is_wrong_without_a_seat_or_a_hand(
    server: LiveServer, browser: Any
) -> None:
    page = browser.new_page()
    try:
        invite = create_in_lobby(page, server.base_url)
        page.goto(f"{server.base_url}/t/{invite}/hands/4")
        page.wait_for_function(
            "() => document.getElementById('status-message').textContent.includes('no finished')"
        )
        assert page.is_hidden("#replay-table")
        assert page.get_attribute("#back", "href") == f"/t/{invite}"
        page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
        page.reload()
        page.wait_for_function(
            "() => document.getElementById('status-message').textContent.includes('Take a seat')"
        )
    finally:
        page.close()


def test_every_label_of_the_replayer_exists_and_no_word_is_kept_in_its_scripts() -> None:
    used: set[str] = set()
    html = (STATIC / "replay.html").read_text(encoding="utf-8")
    used.update(re.findall(r'data-i18n(?:-label)?="([a-z0-9_-]+)"', html))
    for script in ("replay.js", "cards.js"):
        js = (STATIC / script).read_text(encoding="utf-8")
        used.update(re.findall(r'\btr?\((?:lang, )?"([a-z0-9_-]+)"', js))
        used.update(re.findall(r'app\.status = "([a-z0-9_-]+)"', js))
        used.update(re.findall(r'return "([a-z0-9_-]+)";', js))
        for word in ("Piatto", "Mazziere", "Passo", "Step", "Deal", "cuori"):
            assert f'"{word}' not in js, (script, word)
    used.update(f"status_{s}" for s in ("active", "folded"))
    used.update(f"phase_{p.value}" for p in Phase)
    assert "replay_deal" in used and "replay_no_seat" in used
    assert used - PAGE_MESSAGES.keys() == set()
