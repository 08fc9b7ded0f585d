"""One address floods the server far past its limits, with the settings ``italian-poker serve``
runs with (docs/security.md): 10,000 table creations, thousands of seat takes and downloads,
hundreds of WebSockets, and a flood from 5,000 addresses. Every answer is a success, a
refusal the route gives anyway (404, 409) or the limit's (429, close 4429), never a 500 or an
exception; the live tables, the addresses remembered and the process's peak memory stay under
the bounds stated here; and players at another address are served all along.

The requests go straight to the application (ASGI calls in its own event loop, concurrently
in batches): no sockets, so that ten thousand of them take a few seconds."""

from __future__ import annotations

import asyncio
import gc
import json
import resource
import time
from collections import Counter
from collections.abc import Iterator
from ipaddress import IPv4Address
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from server_fixtures import ORIGIN, AppFactory, FakeClock, receive_json
from starlette.types import Message
from starlette.websockets import WebSocketDisconnect

from italian_poker.server.address_limits import RATE_LIMITED
from italian_poker.server.rate_limits import COSTLY_REQUESTS, SEAT_TAKES, TABLE_CREATIONS, Rate

ATTACKER = "203.0.113.66"
PLAYER = "198.51.100.20"
BYSTANDER = "192.0.2.50"
"""Creates the table the attacker floods with seat takes."""
ATTEMPTS = 10_000
BATCH = 200
MEMORY_BOUND = 64 * 2**20
"""The most the process's peak resident memory may grow during the flood: 64 MiB, generous
(10,000 requests refused leave nothing behind; the few tables created take a few hundred
kilobytes; 10,000 tables would take hundreds of megabytes)."""
ADDRESSES = 5_000
ADDRESS_MEMORY = 500
TABLE = {"name": "T", "host_nickname": "Mallory", "seats": 8, "turn_seconds": None}


async def call(
    app: FastAPI, method: str, path: str, address: str, body: Any = None, token: str = ""
) -> tuple[int, dict[str, Any]]:
    """One HTTP request to the application from ``address``: its status and JSON body."""
    content = b"" if body is None else json.dumps(body).encode()
    headers = [(b"host", b"testserver"), (b"content-length", str(len(content)).encode())]
    if body is not None:
        headers.append((b"content-type", b"application/json"))
    if token:
        headers.append((b"authorization", f"Bearer {token}".encode()))
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": (address, 40000),
        "server": ("testserver", 80),
    }
    sent = False
    answer: dict[str, Any] = {"status": 0, "body": b""}

    async def receive() -> Message:
        nonlocal sent
        if sent:
            await asyncio.sleep(3600)
        sent = True
        return {"type": "http.request", "body": content, "more_body": False}

    async def send(message: Message) -> None:
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
        elif message["type"] == "http.response.body":
            answer["body"] += message.get("body", b"")

    await app(scope, receive, send)
    text = answer["body"]
    return answer["status"], json.loads(text) if text.startswith(b"{") else {}


def most(rate: Rate, seconds: float) -> float:
    """The most requests ``rate`` lets through in ``seconds``: its burst and what the clock
    gave back meanwhile (the clock is real time plus an offset that nothing moves here)."""
    return rate.burst + 1 + seconds * rate.per_second


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def served(make_app: AppFactory, clock: FakeClock) -> Iterator[tuple[FastAPI, TestClient]]:
    """The app with the served limits (the settings' defaults), on a clock the test holds."""
    app = make_app(
        address_limits=True, address_memory=ADDRESS_MEMORY, clock=clock, sleep=clock.sleep
    )
    with TestClient(app) as client:
        yield app, client


def test_a_flood_from_one_address_is_refused_and_others_are_served(
    served: tuple[FastAPI, TestClient],
) -> None:
    app, client = served
    server = app.state.server

    async def flood() -> dict[str, Counter[int]]:
        seen: dict[str, Counter[int]] = {"tables": Counter(), "seats": Counter()}
        seen |= {"downloads": Counter(), "player": Counter(), "addresses": Counter()}
        status, mine = await call(
            app, "POST", "/api/tables", PLAYER, TABLE | {"host_nickname": "Anna"}
        )
        seen["player"][status] += 1
        invite, token = mine["invite"], mine["player_token"]
        status, other = await call(app, "POST", "/api/tables", BYSTANDER, TABLE)
        victim = other["invite"]
        for start in range(0, ATTEMPTS, BATCH):
            answers = await asyncio.gather(
                *(call(app, "POST", "/api/tables", ATTACKER, TABLE) for _ in range(BATCH)),
                *(
                    call(app, "POST", f"/api/tables/{victim}/seats", ATTACKER, {"nickname": "M"})
                    for _ in range(BATCH // 10)
                ),
                *(
                    call(app, "GET", f"/api/tables/{victim}/histories", ATTACKER, token="guess")
                    for _ in range(BATCH // 10)
                ),
            )
            for status, _ in answers[:BATCH]:
                seen["tables"][status] += 1
            for status, _ in answers[BATCH : BATCH + BATCH // 10]:
                seen["seats"][status] += 1
            for status, _ in answers[BATCH + BATCH // 10 :]:
                seen["downloads"][status] += 1
            # The player, from another address, all along the flood.
            if start % 2000 == 0:
                status, _ = await call(app, "GET", f"/api/tables/{invite}", PLAYER)
                seen["player"][status] += 1
                status, _ = await call(
                    app, "POST", f"/api/tables/{invite}/seats", PLAYER, {"nickname": f"P{start}"}
                )
                seen["player"][status] += 1
                status, _ = await call(
                    app, "GET", f"/api/tables/{invite}/histories", PLAYER, token=token
                )
                seen["player"][status] += 1
        # A flood from many addresses: each its own bucket, the least recently seen forgotten
        # (a group's statistics asked for with no tables: a download refused by its route).
        for start in range(0, ADDRESSES, BATCH):
            answers = await asyncio.gather(
                *(
                    call(app, "POST", "/api/stats", str(IPv4Address(0x0A000000 + n)), {})
                    for n in range(start, start + BATCH)
                )
            )
            seen["addresses"].update(status for status, _ in answers)
        return seen

    gc.collect()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    began = time.monotonic()
    seen = client.portal.call(flood)
    # The clock is real time (moved by nothing here): the buckets refill as it runs.
    elapsed = time.monotonic() - began
    gc.collect()
    grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak) * 1024  # KiB on Linux

    assert set(seen["tables"]) == {201, 429}, seen
    assert seen["tables"][201] <= most(TABLE_CREATIONS, elapsed)
    assert sum(seen["tables"].values()) == ATTEMPTS
    assert set(seen["seats"]) <= {201, 409, 429}, seen
    assert seen["seats"][201] <= most(SEAT_TAKES, elapsed)
    assert set(seen["downloads"]) == {403, 429}, seen  # a wrong token: 403 until the limit
    assert set(seen["player"]) <= {200, 201}, seen
    assert set(seen["addresses"]) == {422}, seen
    assert len(app.state.address_buckets) <= ADDRESS_MEMORY
    live = len(server.tables)
    assert live == 2 + seen["tables"][201], live  # the attacker's, and 2 others' tables
    assert grown < MEMORY_BOUND, f"the flood grew the process by {grown} bytes"
    assert seen["downloads"][403] <= most(COSTLY_REQUESTS, elapsed)


def test_a_socket_flood_is_closed_with_4429_and_a_player_still_plays(
    served: tuple[FastAPI, TestClient],
) -> None:
    app, _ = served
    with TestClient(app, client=(PLAYER, 5000)) as player:
        table = player.post("/api/tables", json=TABLE | {"host_nickname": "Anna"}).json()
    invite, token = table["invite"], table["player_token"]
    closes: Counter[int] = Counter()
    with TestClient(app, client=(ATTACKER, 5001)) as attacker:
        for _ in range(300):
            with attacker.websocket_connect(
                f"/ws/tables/{invite}", headers={"origin": ORIGIN}
            ) as ws:
                ws.send_json({"type": "hello", "token": "guess"})
                try:
                    while True:
                        receive_json(ws)
                except WebSocketDisconnect as closed:
                    closes[closed.code] += 1
    assert set(closes) == {4401, RATE_LIMITED}, closes
    with (
        TestClient(app, client=(PLAYER, 5002)) as player,
        player.websocket_connect(f"/ws/tables/{invite}", headers={"origin": ORIGIN}) as ws,
    ):
        ws.send_json({"type": "hello", "token": token})
        while (message := receive_json(ws))["type"] != "state":
            pass
        assert message["state"]["you"] == 0
