"""The per-address limits (docs/security.md): past its burst an address is refused, 429 with
``Retry-After`` in the API's error shape or a WebSocket closed with 4429, until the server's
clock (moved by the test, never waited for) has given its bucket a token again; another
address is served meanwhile; behind a trusted proxy the client is read from
``X-Forwarded-For``, and never otherwise; the buckets' memory is bounded; and a table's
spectators are capped (4409)."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from server_fixtures import (
    ORIGIN,
    AppFactory,
    FakeClock,
    bearer,
    create_table,
    receive_json,
)
from starlette.websockets import WebSocketDisconnect

from italian_poker.server.address_limits import RATE_LIMITED, kind_of
from italian_poker.server.client_address import TrustedProxies, bucket_key, client_address
from italian_poker.server.rate_limits import AddressBuckets, Kind, Rate, retry_after
from italian_poker.server.routes.spectators import FULL
from italian_poker.server.settings import ServerSettings

HOUR = 3600.0
SLOW = Rate(1, HOUR, 3)
"""3 at once, then one an hour: the seconds a test runs for give no token back."""
TABLE = {"name": "T", "host_nickname": "Anna", "seats": 4, "turn_seconds": None}


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def limited(make_app: AppFactory, clock: FakeClock) -> FastAPI:
    """An app whose every limit is :data:`SLOW`, on a clock the test moves."""
    return make_app(
        address_limits=True,
        table_creations=SLOW,
        seat_takes=SLOW,
        socket_opens=SLOW,
        costly_requests=SLOW,
        clock=clock,
        sleep=clock.sleep,
    )


@pytest.fixture
def client(limited: FastAPI) -> Iterator[TestClient]:
    with TestClient(limited) as running:
        yield running


def test_the_served_defaults_are_real_limits() -> None:
    settings = ServerSettings()
    assert set(settings.address_rates()) == set(Kind)
    assert settings.table_creations == Rate(30, HOUR, 10)
    assert settings.seat_takes == Rate(30, 60.0, 20)
    assert settings.socket_opens == Rate(60, 60.0, 30)
    assert settings.costly_requests == Rate(60, 60.0, 30)
    assert settings.spectator_cap == 50 and settings.trusted_proxies == ()
    assert ServerSettings(address_limits=False).address_rates() == {}
    assert Kind.SEAT not in ServerSettings(seat_takes=None).address_rates()


def test_table_creations_past_the_burst_are_refused_until_the_clock_gives_a_token(
    client: TestClient, clock: FakeClock
) -> None:
    for _ in range(SLOW.burst):
        assert client.post("/api/tables", json=TABLE).status_code == 201
    refused = client.post("/api/tables", json=TABLE)
    assert refused.status_code == 429
    body = refused.json()
    assert body["error"] == "rate_limited" and set(body) == {"error", "message"}
    assert "tables created" in body["message"]
    wait = int(refused.headers["Retry-After"])
    assert HOUR - 60 <= wait <= HOUR  # one token an hour
    assert f"{wait} s" in body["message"]
    clock.offset += wait
    assert client.post("/api/tables", json=TABLE).status_code == 201
    assert client.post("/api/tables", json=TABLE).status_code == 429


def test_a_refused_creation_creates_nothing_and_reads_no_body(
    client: TestClient, limited: FastAPI
) -> None:
    for _ in range(SLOW.burst):
        create_table(client)
    tables = len(limited.state.server.tables)
    refused = client.post("/api/tables", content=b"{not json")
    assert refused.status_code == 429  # before the body is read (which would be a 422)
    assert len(limited.state.server.tables) == tables


def test_another_address_is_served_while_one_is_limited(
    client: TestClient, limited: FastAPI
) -> None:
    for _ in range(SLOW.burst):
        client.post("/api/tables", json=TABLE)
    assert client.post("/api/tables", json=TABLE).status_code == 429
    with TestClient(limited, client=("198.51.100.7", 4000)) as other:
        assert other.post("/api/tables", json=TABLE).status_code == 201


def test_seat_takes_are_limited_per_address(client: TestClient, limited: FastAPI) -> None:
    invite = create_table(client, seats=8)["invite"]
    for name in ("Bruno", "Carla", "Dario"):
        taken = client.post(f"/api/tables/{invite}/seats", json={"nickname": name})
        assert taken.status_code == 201
    refused = client.post(f"/api/tables/{invite}/seats", json={"nickname": "Elena"})
    assert refused.status_code == 429 and "seats taken" in refused.json()["message"]
    assert int(refused.headers["Retry-After"]) >= 1
    with TestClient(limited, client=("198.51.100.7", 4000)) as other:
        taken = other.post(f"/api/tables/{invite}/seats", json={"nickname": "Elena"})
        assert taken.status_code == 201


def test_costly_downloads_are_limited_per_address(client: TestClient) -> None:
    table = create_table(client)
    invite, token = table["invite"], table["player_token"]
    path = f"/api/tables/{invite}/histories"
    for _ in range(SLOW.burst):
        assert client.get(path, headers=bearer(token)).status_code == 200
    refused = client.get(f"/api/tables/{invite}/ledger.csv", headers=bearer(table["host_token"]))
    assert refused.status_code == 429 and "downloads" in refused.json()["message"]
    assert client.get(f"/api/tables/{invite}").status_code == 200  # the lobby's view is cheap


def test_socket_opens_past_the_burst_are_closed_with_4429(
    client: TestClient, clock: FakeClock
) -> None:
    invite = create_table(client)["invite"]
    url = f"/ws/tables/{invite}"
    for _ in range(SLOW.burst):
        with client.websocket_connect(url, headers={"origin": ORIGIN}) as ws:
            ws.send_json({"type": "hello", "token": "wrong"})
            assert receive_json(ws)["code"] == "unauthorized"
    with client.websocket_connect(url, headers={"origin": ORIGIN}) as ws:
        refused = receive_json(ws)
        assert refused["type"] == "error" and refused["code"] == "rate_limited"
        assert "connections opened" in refused["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            receive_json(ws)
        assert closed.value.code == RATE_LIMITED == 4429
        assert "try again in" in closed.value.reason
    clock.offset += HOUR
    with client.websocket_connect(url, headers={"origin": ORIGIN}) as ws:
        ws.send_json({"type": "hello", "token": "wrong"})
        assert receive_json(ws)["code"] == "unauthorized"  # past the limit: the route again


def test_a_forwarded_for_header_is_ignored_unless_the_proxy_is_trusted(
    make_app: AppFactory, clock: FakeClock
) -> None:
    app = make_app(address_limits=True, table_creations=SLOW, clock=clock, sleep=clock.sleep)
    with TestClient(app, client=("203.0.113.5", 1)) as attacker:
        for n in range(SLOW.burst):
            forged = {"X-Forwarded-For": f"192.0.2.{n}"}
            assert attacker.post("/api/tables", json=TABLE, headers=forged).status_code == 201
        forged = {"X-Forwarded-For": "192.0.2.200"}
        assert attacker.post("/api/tables", json=TABLE, headers=forged).status_code == 429


def test_behind_a_trusted_proxy_each_forwarded_client_has_its_own_bucket(
    make_app: AppFactory, clock: FakeClock
) -> None:
    app = make_app(
        address_limits=True,
        table_creations=SLOW,
        trusted_proxies=("10.0.0.0/8",),
        clock=clock,
        sleep=clock.sleep,
    )
    with TestClient(app, client=("10.1.2.3", 1)) as proxy:
        # What a client writes into the header itself is left of what the proxy appends.
        for n in range(SLOW.burst):
            spoofed = {"X-Forwarded-For": f"192.0.2.{n}, 198.51.100.1"}
            assert proxy.post("/api/tables", json=TABLE, headers=spoofed).status_code == 201
        spoofed = {"X-Forwarded-For": "192.0.2.99, 198.51.100.1"}
        assert proxy.post("/api/tables", json=TABLE, headers=spoofed).status_code == 429
        other = {"X-Forwarded-For": "198.51.100.2"}
        assert proxy.post("/api/tables", json=TABLE, headers=other).status_code == 201


@pytest.mark.parametrize(
    ("peer", "header", "trusted", "seen"),
    [
        ("203.0.113.5", "1.2.3.4", (), "203.0.113.5"),
        ("127.0.0.1", "1.2.3.4", (), "127.0.0.1"),
        ("127.0.0.1", "1.2.3.4", ("127.0.0.1",), "1.2.3.4"),
        ("127.0.0.1", "9.9.9.9, 1.2.3.4", ("127.0.0.1",), "1.2.3.4"),
        ("127.0.0.1", "1.2.3.4, 10.0.0.2", ("127.0.0.1", "10.0.0.0/8"), "1.2.3.4"),
        ("127.0.0.1", "not-an-ip", ("127.0.0.1",), "127.0.0.1"),
        ("127.0.0.1", "", ("127.0.0.1",), "127.0.0.1"),
        ("127.0.0.1", "10.0.0.3", ("127.0.0.1", "10.0.0.0/8"), "10.0.0.3"),
    ],
)
def test_the_client_address(peer: str, header: str, trusted: tuple[str, ...], seen: str) -> None:
    headers = [(b"x-forwarded-for", header.encode())] if header else []
    scope = {"type": "http", "client": (peer, 1), "headers": headers}
    assert client_address(scope, TrustedProxies.of(trusted)) == seen


def test_a_trusted_proxy_must_be_an_address() -> None:
    with pytest.raises(ValueError, match="trusted proxy"):
        ServerSettings(trusted_proxies=("proxy.example",))


def test_an_ipv6_client_counts_as_its_64_network() -> None:
    one, two = "2001:db8:1:2::1", "2001:db8:1:2:ffff::9"
    assert bucket_key(one) == bucket_key(two) == "2001:db8:1:2::/64"
    assert bucket_key("2001:db8:1:3::1") != bucket_key(one)
    assert bucket_key("::ffff:192.0.2.1") == "192.0.2.1"
    assert bucket_key("203.0.113.5") == "203.0.113.5"
    assert bucket_key("x" * 500) == "x" * 64


def test_the_buckets_forget_the_least_recently_seen_addresses_beyond_their_capacity() -> None:
    now = [0.0]
    buckets = AddressBuckets({Kind.TABLE: SLOW}, lambda: now[0], capacity=100)
    buckets.take("kept", Kind.TABLE)
    for n in range(10_000):
        buckets.take(str(ipaddress.IPv4Address(n)), Kind.TABLE)
        if n % 50 == 0:
            buckets.take("kept", Kind.TABLE)  # seen again: not forgotten
        assert len(buckets) <= 100
    assert buckets.take("kept", Kind.TABLE) > 0  # its bucket is still spent


def test_a_bucket_refills_at_its_rate_and_never_beyond_its_burst() -> None:
    now = [0.0]
    rate = Rate(6, 60.0, 2)  # one every 10 s
    buckets = AddressBuckets({Kind.SEAT: rate}, lambda: now[0], capacity=10)
    assert buckets.take("a", Kind.SEAT) == buckets.take("a", Kind.SEAT) == 0.0
    assert buckets.take("a", Kind.SEAT) == pytest.approx(10.0)
    now[0] = 5.0
    assert buckets.take("a", Kind.SEAT) == pytest.approx(5.0)
    now[0] = 1000.0
    assert [buckets.take("a", Kind.SEAT) for _ in range(2)] == [0.0, 0.0]
    assert buckets.take("a", Kind.SEAT) > 0
    now[0] = 0.0  # a clock set back gives nothing
    assert buckets.take("a", Kind.SEAT) > 0
    assert buckets.take("a", Kind.TABLE) == 0.0  # no rate: no limit
    assert retry_after(0.2) == 1 and retry_after(10.0) == 10 and retry_after(10.01) == 11


@pytest.mark.parametrize(
    ("method", "path", "kind"),
    [
        ("POST", "/api/tables", Kind.TABLE),
        ("GET", "/api/tables", None),
        ("POST", "/api/tables/abc/seats", Kind.SEAT),
        ("GET", "/api/tables/abc/histories", Kind.COSTLY),
        ("GET", "/api/tables/abc/histories/3.phh", Kind.COSTLY),
        ("GET", "/api/tables/abc/histories/3/frames", Kind.COSTLY),
        ("GET", "/api/tables/abc/stats", Kind.COSTLY),
        ("GET", "/api/tables/abc/ledger", Kind.COSTLY),
        ("GET", "/api/tables/abc/ledger.csv", Kind.COSTLY),
        ("POST", "/api/stats", Kind.COSTLY),
        ("GET", "/api/tables/abc", None),
        ("POST", "/api/tables/abc/start", None),
        ("GET", "/t/abc", None),
    ],
)
def test_what_each_limit_counts(method: str, path: str, kind: Kind | None) -> None:
    assert kind_of({"type": "http", "method": method, "path": path}) == kind


def test_a_rate_is_checked() -> None:
    for bad in ((0, 60.0, 1), (1, 0.0, 1), (1, 60.0, 0)):
        with pytest.raises(ValueError, match="rate"):
            Rate(*bad)


def test_a_tables_spectators_are_capped(make_app: AppFactory) -> None:
    with TestClient(make_app(spectator_cap=2)) as client:
        table = create_table(client, watch=True)
        url = f"/ws/watch/{table['watch']}"
        with (
            client.websocket_connect(url, headers={"origin": ORIGIN}) as first,
            client.websocket_connect(url, headers={"origin": ORIGIN}) as second,
        ):
            assert receive_json(first)["type"] == "state"
            assert receive_json(second)["type"] == "state"
            with client.websocket_connect(url, headers={"origin": ORIGIN}) as third:
                refused = receive_json(third)
                assert refused == {
                    "type": "error",
                    "code": "spectators_full",
                    "message": refused["message"],
                }
                assert "2 spectators" in refused["message"]
                with pytest.raises(WebSocketDisconnect) as closed:
                    receive_json(third)
                assert closed.value.code == FULL == 4409
        # Both gone: room again.
        with client.websocket_connect(url, headers={"origin": ORIGIN}) as again:
            assert receive_json(again)["type"] == "state"
        assert client.get("/api/server").json()["spectator_cap"] == 2
