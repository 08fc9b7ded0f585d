"""Issue 12's failover as players see it: two browsers (Debian's Chromium) behind one address,
a proxy in front of two ``italian-poker serve`` processes; the owner is killed (SIGKILL)
mid-deal and both pages reconnect by themselves, through the proxy, to the other process,
which has taken the table, and show the game going on.

The proxy sends each new connection to the first process that accepts it, as a reverse
proxy with health checks would. Each page holds its seat by its token (as after joining);
the moves are played by the same seats' ``websockets`` players (``cluster_fixtures``), a
second connection of each seat, so that the pages only have to follow. Skipped as the other
cluster tests are, and without Chromium unless ``ITALIAN_POKER_REQUIRE_BROWSER=1``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio
from browser_steps import CHROMIUM, CHROMIUM_ARGS, REQUIRED
from cluster_fixtures import (  # noqa: F401 (the *_fixture are fixtures)
    LEASE_SECONDS,
    Cluster,
    Lobby,
    Player,
    ServerProcess,
    cluster_database_url_fixture,
    cluster_engine_fixture,
    cluster_fixture,
    free_port,
    holder,
    redis_url_fixture,
    table_id_of,
    wait_for,
)
from sqlalchemy import Engine
from test_server_cluster import FAILOVER_SECONDS, live, lobby, play, same_seq  # noqa: F401

async_api = pytest.importorskip("playwright.async_api", reason="Playwright is not installed")

pytestmark = pytest.mark.cluster

PAGE_SECONDS = 20.0
"""Longest a page may take to show what it waits for (its retries back off to 10 s)."""


class Proxy:
    """A TCP proxy on 127.0.0.1 that sends each connection to the first of ``backends``
    that accepts it; counts the connections each backend took."""

    def __init__(self) -> None:
        self.port = free_port()
        self.backends: list[ServerProcess] = []
        self.taken: dict[str, int] = {}
        self._server: asyncio.Server | None = None
        self._pipes: set[asyncio.Task[None]] = set()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._pipes):
            task.cancel()
        await asyncio.gather(*self._pipes, return_exceptions=True)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        for backend in self.backends:
            try:
                up_reader, up_writer = await asyncio.open_connection("127.0.0.1", backend.port)
            except OSError:
                continue
            self.taken[backend.name] = self.taken.get(backend.name, 0) + 1
            pipes = [
                asyncio.create_task(_pipe(reader, up_writer)),
                asyncio.create_task(_pipe(up_reader, writer)),
            ]
            self._pipes.update(pipes)
            await asyncio.wait(pipes, return_when=asyncio.FIRST_COMPLETED)
            for task in pipes:
                task.cancel()
                self._pipes.discard(task)
            up_writer.close()
            break
        writer.close()


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(OSError, asyncio.IncompleteReadError):
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()


@pytest.fixture
async def proxy() -> AsyncIterator[Proxy]:
    running = Proxy()
    await running.start()
    try:
        yield running
    finally:
        await running.close()


@pytest.fixture
async def chromium() -> AsyncIterator[Any]:
    if not CHROMIUM.exists():
        message = "Debian's chromium is missing (apt-get install chromium)"
        if REQUIRED:
            pytest.fail(message)
        pytest.skip(message)
    async with async_api.async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
        )
        try:
            yield browser
        finally:
            await browser.close()


async def _open_seat(browser: Any, url: str, invite: str, seat: dict[str, Any]) -> Any:
    """A page of its own (a browser context) holding ``seat`` (as ``static/seat_store.js``
    keeps it once joined) at the table's page."""
    context = await browser.new_context()
    held = json.dumps(
        {"player_token": seat["player_token"], "host_token": None, "seat": seat["seat"]}
    )
    key = json.dumps(f"italian-poker.seat.{invite}")
    await context.add_init_script(f"localStorage.setItem({key}, {json.dumps(held)});")
    page = await context.new_page()
    await page.goto(f"{url}/t/{invite}")
    return page


async def _connected(page: Any) -> None:
    await page.wait_for_selector('#conn[data-state="connected"]', timeout=PAGE_SECONDS * 1000)


async def _shows_last_line(page: Any, player: Player) -> None:
    """The page's log ends with the line the player's latest state ends with."""
    last = player.log[-1]
    await page.wait_for_function(
        """(texts) => {
            const items = document.querySelectorAll("#log-lines li");
            return items.length > 0 && texts.includes(items[items.length - 1].textContent);
        }""",
        arg=[last["en"], last["it"]],
        timeout=PAGE_SECONDS * 1000,
    )


async def test_both_browsers_reconnect_by_themselves_after_the_owner_is_killed(
    cluster: Cluster,
    lobby: Lobby,  # noqa: F811 (the fixture of test_server_cluster)
    cluster_engine: Engine,
    redis_client: redis.asyncio.Redis,
    proxy: Proxy,
    chromium: Any,
    tmp_path: Path,
) -> None:
    one = cluster.start("node-1", "--public-url", proxy.url)
    two = cluster.start("node-2", "--public-url", proxy.url)
    proxy.backends = [one, two]
    created = await lobby.create_table(one, host_nickname="Anna", seats=2)
    invite = created["invite"]
    joined = await lobby.join(two, invite, "Bruno")
    anna = Player("Anna", invite, created["player_token"], int(created["seat"]))
    bruno = Player("Bruno", invite, joined["player_token"], int(joined["seat"]))
    players = [anna, bruno]
    for player in players:
        player.backends = [one, two]
        player.reconnect = True
    await anna.connect(one)
    await bruno.connect(two)
    pages = [await _open_seat(chromium, proxy.url, invite, seat) for seat in (created, joined)]
    try:
        for page in pages:
            await _connected(page)
        assert proxy.taken.get("node-1", 0) >= 4 and "node-2" not in proxy.taken  # 2 pages
        await lobby.host(one, invite, created["host_token"], "start")
        await play(players, lambda p: live(p.latest))
        seq = await same_seq(players)
        for page, player in zip(pages, players, strict=True):
            await _shows_last_line(page, player)
        table_id = table_id_of(cluster_engine)
        killed = time.monotonic()
        one.kill()

        async def owned_by_two() -> bool:
            return (await holder(redis_client, table_id) or (0, ""))[1] == "node-2"

        await wait_for(owned_by_two, FAILOVER_SECONDS + 1, "node-2 owning the table")
        await play(players, lambda p: p.seq > seq, FAILOVER_SECONDS + 10)
        for page in pages:
            await _connected(page)
        back = time.monotonic() - killed
        assert proxy.taken.get("node-2", 0) >= 2  # each page's new WebSocket
        await play(players, lambda p: p.seq > seq + 2)
        await same_seq(players)
        for page, player in zip(pages, players, strict=True):
            await _shows_last_line(page, player)
            assert await page.get_attribute("#conn", "data-state") == "connected"
            shot = tmp_path / f"after-failover-{player.name}.png"
            await page.screenshot(path=str(shot), full_page=True)
            print(f"{player.name}'s page after the failover: {shot}")
    finally:
        for player in players:
            await player.close()
        for page in pages:
            await page.context.close()
    print(f"both pages connected again through the proxy {back:.2f} s after the kill")
    assert back <= LEASE_SECONDS + PAGE_SECONDS
