"""The steps every browser test takes, in one place: start the server in a thread, open
Debian's Chromium through Playwright, make a table (through the API, or in the lobby's
form), hold or take a seat, play a deal to its end, and save a screenshot.

- Fixtures (a test module imports the ones it uses): ``server``, the server on a fresh
  database of each backend (``server_fixtures.database_url``: SQLite, and PostgreSQL when
  ``ITALIAN_POKER_TEST_POSTGRES_URL`` is set); ``sqlite_server``, the same on SQLite only;
  ``browser``, Chromium. Both servers play with a fixed seed, bots without delay, and a
  long pause between deals, so that the felt after a deal stays for the checks.
- Playwright drives ``/usr/bin/chromium`` (no browser is downloaded). Without Playwright or
  Chromium the tests are skipped, saying why; with ``ITALIAN_POKER_REQUIRE_BROWSER=1`` (CI)
  they fail instead.
- Screenshots go to ``$ITALIAN_POKER_SCREENSHOTS``, else ``screenshots/`` at the repository
  root (ignored by git).
"""

from __future__ import annotations

import dataclasses
import json
import os
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from italian_poker.engine.policy import Policy

REQUIRED = os.environ.get("ITALIAN_POKER_REQUIRE_BROWSER") == "1"
"""CI sets it: there a missing Playwright or Chromium fails the test instead of skipping it."""

if REQUIRED:
    import playwright.sync_api as sync_api
    import uvicorn
else:
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
    uvicorn = pytest.importorskip("uvicorn")

from italian_poker.analysis.bots import make_bot  # noqa: E402
from italian_poker.server.app import create_app  # noqa: E402
from italian_poker.server.settings import ServerSettings  # noqa: E402

Page = Any  # playwright.sync_api.Page
Context = Any  # playwright.sync_api.BrowserContext

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--autoplay-policy=no-user-gesture-required",  # the turn's tone (test_server_browser_felt)
]
SEED = 20240
TURN_SECONDS = 30
"""The turn clock of the tables :func:`new_table` makes."""
DEAL_SECONDS = 40.0
"""Longest time a deal may take in the browser."""
ROOT = Path(__file__).resolve().parents[1]
SCREENSHOTS = Path(os.environ.get("ITALIAN_POKER_SCREENSHOTS") or ROOT / "screenshots")


def bot_factory(level: str, seed: int | None) -> Policy:
    """The bots of layer 4, as the composition root passes them."""
    return make_bot(level, seed=seed)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# --- the server in a thread --------------------------------------------------------------


class LiveServer:
    """The server (uvicorn in a thread) on one port and one database, which a test may stop
    and start again (the outage test)."""

    def __init__(self, database_url: str, advisor: Any = None, **settings: Any) -> None:
        self.advisor = advisor
        """The draw advisor handed to ``create_app`` (None: the server has none)."""
        self.settings = settings
        """``ServerSettings`` in place of the felt tests' (bot delay, pause between deals)."""
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.database_url = database_url
        self.app: Any = None
        self._uv: Any = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        settings = dataclasses.replace(
            ServerSettings(
                database_url=self.database_url,
                host="127.0.0.1",
                port=self.port,
                public_url=self.base_url,
                seed=SEED,
                bot_delay_seconds=0.0,
                next_deal_seconds=600.0,  # the felt after the deal stays for the checks
                address_limits=False,  # a page's many requests, each test's own server
            ),
            **self.settings,
        )
        self.app = create_app(settings, bot_factory=bot_factory, advisor=self.advisor)
        config = uvicorn.Config(
            self.app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="on"
        )
        self._uv = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._uv.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 15
        while not self._uv.started:
            assert self._thread.is_alive(), "the server did not start"
            assert time.monotonic() < deadline, "the server took too long to start"
            time.sleep(0.05)

    def stop(self) -> None:
        if self._uv is not None and self._thread is not None:
            self._uv.should_exit = True
            self._thread.join(timeout=10)
            self._uv = None

    def post(self, path: str, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
        """``POST`` ``body`` as JSON to ``path`` (with ``token``); the answer, decoded."""
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(
            self.base_url + path, json.dumps(body).encode(), headers, method="POST"
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            answer: dict[str, Any] = json.loads(response.read())
            return answer

    def get(self, path: str, token: str) -> dict[str, Any]:
        """``GET`` ``path`` with ``token``; the answer, decoded."""
        request = urllib.request.Request(
            self.base_url + path, headers={"Authorization": f"Bearer {token}"}
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            answer: dict[str, Any] = json.loads(response.read())
            return answer


def _running(database_url: str) -> Iterator[LiveServer]:
    running = LiveServer(database_url)
    running.start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def server(database_url: str) -> Iterator[LiveServer]:
    """The server on a fresh database of each backend (``server_fixtures.database_url``)."""
    yield from _running(database_url)


@pytest.fixture
def sqlite_server(tmp_path: Path) -> Iterator[LiveServer]:
    """The server on a fresh SQLite file only (the tests that need no second backend)."""
    yield from _running(f"sqlite:///{tmp_path / 'server.sqlite3'}")


@pytest.fixture
def browser() -> Iterator[Any]:
    """Debian's Chromium, through Playwright."""
    if not CHROMIUM.exists():
        message = "Debian's chromium is missing (apt-get install chromium)"
        if REQUIRED:
            pytest.fail(message)  # CI installs it: a missing browser is an error there
        pytest.skip(message)
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


def runtimes(app: Any) -> list[Any]:
    """The server's live tables."""
    return list(app.state.server.tables.values())


def table_state(app: Any, invite: str) -> Any:
    """The server's in-memory :class:`TableState` of the table at ``invite``."""
    for runtime in runtimes(app):
        if getattr(runtime, "invite", None) == invite:
            return runtime.state
    raise AssertionError(f"no table runtime for invite {invite!r}")


# --- pages -------------------------------------------------------------------------------


def shot(page: Page, name: str) -> None:
    """A full-page screenshot, ``screenshots/<name>.png``."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def new_page(context: Context, errors: list[str] | None = None) -> Page:
    """A page of ``context`` that waits 10 s at most, its script errors added to ``errors``."""
    page = context.new_page()
    page.set_default_timeout(10_000)
    if errors is not None:
        page.on("pageerror", lambda error: errors.append(str(error)))
    return page


def create_in_lobby(page: Page, base_url: str, nickname: str = "Alice", name: str = "") -> str:
    """Create a table in the lobby's form (in English, no turn timer), land at its seat and
    return its invite."""
    page.goto(base_url + "/")
    page.fill("input[name=host_nickname]", nickname)
    if name:
        page.fill("input[name=name]", name)
    page.select_option("select[name=lang]", "en")
    page.uncheck("input[name=timer_on]")
    page.click("#create-form button[type=submit]")
    page.wait_for_selector("li.seat.you")
    return str(page.url.rsplit("/t/", 1)[1])


def join_table(page: Page, url: str, nickname: str) -> None:
    """Follow the invite link ``url`` and take a seat by nickname."""
    page.goto(url)
    page.fill("#join-form input[name=nickname]", nickname)
    page.click("#join-form button[type=submit]")
    page.wait_for_selector("li.seat.you")


def add_bots(page: Page, *levels: str) -> None:
    """The host's page adds a bot of each level, one after the other."""
    for level in levels:
        count = page.locator("li.seat:not(.status-empty)").count()
        page.select_option("#bot-level", level)
        page.click("#add-bot")
        page.wait_for_function(
            f"() => document.querySelectorAll('li.seat:not(.status-empty)').length > {count}"
        )


def new_table(
    server: LiveServer, nickname: str = "Alice", bots: int = 2, name: str = "Felt"
) -> dict[str, Any]:
    """A table made through the API (in English, :data:`TURN_SECONDS` a turn) with ``bots``
    simple bots: its invite and the host's tokens, and ``call``, the server's ``post``."""
    table = server.post(
        "/api/tables",
        {"name": name, "host_nickname": nickname, "lang": "en", "turn_seconds": TURN_SECONDS},
    )
    for _ in range(bots):
        server.post(f"/api/tables/{table['invite']}/bots", {"level": "simple"}, table["host_token"])
    table["call"] = server.post
    return table


def hold_seat(context: Context, table: dict[str, Any]) -> None:
    """Every page of ``context`` holds the seat of ``table``'s ``player_token`` (and its
    ``host_token``, if any: the host's, as after creating it now), the tokens in
    localStorage, where ``static/seat_store.js`` keeps them."""
    seat = json.dumps(
        {
            "player_token": table["player_token"],
            "host_token": table.get("host_token"),
            "seat": 0,
            "saved": datetime.now(UTC).isoformat(),
        }
    )
    key = f"italian-poker.seat.{table['invite']}"
    context.add_init_script(f"localStorage.setItem({json.dumps(key)}, {json.dumps(seat)});")


def open_seat(context: Context, server: LiveServer, table: dict[str, Any]) -> Page:
    """The table's page in ``context``, holding the host's seat (as after creating it)."""
    hold_seat(context, table)
    page = new_page(context)
    page.goto(f"{server.base_url}/t/{table['invite']}")
    page.wait_for_selector("li.seat.you")
    return page


def start(table: dict[str, Any]) -> None:
    """The host starts the table (through the API)."""
    table["call"](f"/api/tables/{table['invite']}/start", {}, table["host_token"])


def seat_token(page: Page, invite: str, which: str = "player_token") -> str:
    """The page's token at ``invite`` (``player_token`` or ``host_token``), as it keeps it."""
    seat = page.evaluate(
        "invite => JSON.parse(localStorage.getItem('italian-poker.seat.' + invite))", invite
    )
    return str(seat[which])


# --- playing -----------------------------------------------------------------------------

PASSIVE = ("open", "decline", "check", "call", "show", "pass", "make-up", "fold")
"""What :func:`act_passively` does: open when the hand allows it (at the minimum), no blind,
then check, call, show; at the draw it stands pat (so no opening is broken)."""


def my_turn(page: Page) -> bool:
    """Whether the page offers an action now."""
    return bool(
        page.evaluate(
            """() => !!document.querySelector('#action-buttons button.action:not([disabled])')
                || (!document.getElementById('draw-controls').hidden
                    && !document.getElementById('draw-confirm').disabled)"""
        )
    )


def act_passively(page: Page, priority: tuple[str, ...] = PASSIVE) -> None:
    """Act once: the first action of ``priority`` the page offers; at the draw, stand pat."""
    if page.is_visible("#draw-controls"):
        page.click("#draw-confirm")  # nothing marked: stands pat
        return
    kinds = page.eval_on_selector_all(
        "#action-buttons button.action:not([disabled])", "bs => bs.map(b => b.dataset.kind)"
    )
    kind = next(k for k in priority if k in kinds)
    page.click(f"#action-buttons button[data-kind='{kind}']")


def result_shown(page: Page) -> bool:
    """Whether the page shows the result of a deal."""
    return bool(page.locator("#result-lines p:not(.muted)").count())


def play_to_the_result(
    *pages: Page, priority: tuple[str, ...] = PASSIVE, seconds: float = DEAL_SECONDS
) -> None:
    """Each page acts at its seat's turns (:func:`act_passively`; the bots play themselves)
    until every page shows the deal's result."""
    deadline = time.monotonic() + seconds
    while not all(result_shown(page) for page in pages):
        assert time.monotonic() < deadline, "the deal did not finish"
        acted = False
        for page in pages:
            if my_turn(page):
                act_passively(page, priority)
                page.wait_for_function(
                    "() => !document.querySelector('#action-buttons button.action[disabled]')"
                )
                acted = True
        if not acted:
            time.sleep(0.05)


def play_to_the_draw(page: Page, seconds: float = 90.0) -> None:
    """Act at every turn of the page's seat until the page asks for its draw."""
    deadline = time.monotonic() + seconds
    while not page.is_visible("#draw-controls"):
        assert time.monotonic() < deadline, "no draw came"
        if my_turn(page):
            act_passively(page)
        time.sleep(0.05)


def wait_for_my_turn(page: Page, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not my_turn(page):
        assert time.monotonic() < deadline, "the page's turn did not come"
        time.sleep(0.05)


def uncovered(page: Page, selector: str) -> bool:
    """Whether the middle of every element ``selector`` shows that element (nothing on it)."""
    return bool(
        page.evaluate(
            """(selector) => [...document.querySelectorAll(selector)].every((card) => {
              const box = card.getBoundingClientRect();
              const x = box.left + box.width / 2, y = box.top + box.height / 2;
              if (y < 0 || y > window.innerHeight) return true;  // scrolled away, not covered
              const top = document.elementFromPoint(x, y);
              return top !== null && (top === card || card.contains(top));
            })""",
            selector,
        )
    )
