"""The processes trust only sealed messages (docs/server.md, "What Redis and PostgreSQL can
do"): a message on the bus without a valid seal (no MAC, a wrong one, another secret,
another channel's), stale or replayed is logged and dropped, never handled, and the table
stays as it was; a sealed one is handled. The chat's buckets in Redis outlive their owner;
the Redis URL's password and TLS reach the client; ``serve`` refuses several processes
without a secret."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

import pytest
import redis
import redis.asyncio
from redis.asyncio.connection import SSLConnection
from server_fixtures import connect, create_table, join, next_message
from test_server_chat import chat, say_hello
from test_server_replicas import BUS_SECRET, Servers, postgres_url, server_of, servers, wait_until
from typer.testing import CliRunner

from italian_poker.cli.app import app as cli
from italian_poker.server.bus import Bus
from italian_poker.server.bus_seal import MIN_SECRET_LENGTH, NO_SECRET, Forged, Seals
from italian_poker.server.chat import ChatRate, ChatRefusal
from italian_poker.server.chat_buckets import MemoryBuckets, RedisBuckets
from italian_poker.server.cluster import Cluster, redis_client
from italian_poker.server.settings import ServerSettings
from italian_poker.server.store import Store

__all__ = ["postgres_url", "servers"]  # the fixtures, from the replicas' tests

SECRET = "a-secret-of-sixteen-characters-or-more"
CHANNEL = "italian-poker:table:{7}:commands"
COMMAND = {"op": "take_seat", "args": {"nickname": "Mallory"}, "node": "two", "id": None}


class Clock:
    """A clock the test moves."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def sealed(body: dict[str, Any], clock: Clock | None = None, secret: str = SECRET) -> str:
    return Seals(secret, "two", clock=clock or Clock()).seal(CHANNEL, body)


def refusal(text: str, channel: str = CHANNEL, clock: Clock | None = None) -> str:
    """Why a fresh reader on ``channel`` refuses ``text``."""
    with pytest.raises(Forged) as refused:
        Seals(SECRET, "one", clock=clock or Clock()).open(channel, text)
    return str(refused.value)


# --- the seal ---------------------------------------------------------------------------


def test_a_sealed_message_opens_to_its_body_once() -> None:
    clock = Clock()
    reader = Seals(SECRET, "one", clock=clock)
    text = sealed(COMMAND, clock)
    assert reader.open(CHANNEL, text) == COMMAND
    with pytest.raises(Forged, match="replayed"):
        reader.open(CHANNEL, text)


def test_a_message_without_a_mac_is_refused() -> None:
    unsealed = json.loads(sealed(COMMAND))
    del unsealed["mac"]
    assert refusal(json.dumps(unsealed)) == "no MAC"
    assert refusal(json.dumps(COMMAND)) == "no MAC"  # as the bus sent them before seals
    assert refusal("[1, 2]") == "not a sealed message"
    assert refusal("{not json") == "not JSON"


def test_a_changed_message_or_another_secret_is_refused() -> None:
    changed = json.loads(sealed(COMMAND))
    changed["body"]["args"]["nickname"] = "Mallory the host"
    assert refusal(json.dumps(changed)).startswith("wrong MAC")
    assert refusal(sealed(COMMAND, secret="another-secret-just-as-long")).startswith("wrong MAC")
    later = json.loads(sealed(COMMAND))
    later["at"] += 1  # made to look new: the MAC covers the time
    assert refusal(json.dumps(later)).startswith("wrong MAC")


def test_a_message_sealed_for_another_channel_is_refused() -> None:
    other_table = "italian-poker:table:{8}:commands"
    assert refusal(sealed(COMMAND), channel=other_table).startswith("wrong MAC")


def test_a_stale_message_and_one_from_the_future_are_refused() -> None:
    clock = Clock()
    text = sealed(COMMAND, clock)
    assert refusal(text, clock=Clock(clock.now + 31.0)).startswith("stale")
    assert refusal(text, clock=Clock(clock.now - 31.0)).startswith("stale")
    reader = Seals(SECRET, "one", clock=Clock(clock.now + 29.0))
    assert reader.open(CHANNEL, text) == COMMAND  # within the window


def test_a_replay_after_the_window_is_stale_although_its_nonce_is_forgotten() -> None:
    clock = Clock()
    reader = Seals(SECRET, "one", clock=clock)
    text = sealed(COMMAND, clock)
    reader.open(CHANNEL, text)
    clock.now += 31.0
    reader.open(CHANNEL, sealed(COMMAND, clock))  # forgets the first nonce
    assert len(reader._seen) == 1
    with pytest.raises(Forged, match="stale"):
        reader.open(CHANNEL, text)


def test_a_refusal_never_shows_the_secret_nor_the_mac() -> None:
    text = sealed(COMMAND, secret="another-secret-just-as-long")
    reason = refusal(text)
    assert SECRET not in reason and json.loads(text)["mac"] not in reason
    assert SECRET not in repr(Seals(SECRET, "one"))
    assert SECRET not in repr(ServerSettings(redis_url="redis://x/0", bus_secret=SECRET))


def test_a_short_or_missing_secret_is_refused() -> None:
    with pytest.raises(ValueError, match="16 characters"):
        Seals("x" * (MIN_SECRET_LENGTH - 1), "one")
    settings = ServerSettings(database_url="postgresql://nobody@/nowhere", redis_url="redis://x/0")
    with pytest.raises(ValueError, match="ITALIAN_POKER_BUS_SECRET"):
        Cluster(settings, Store.__new__(Store))


def test_serve_refuses_several_processes_without_a_secret(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("ITALIAN_POKER_BUS_SECRET", raising=False)
    arguments = ["serve", "--redis-url", "redis://127.0.0.1:1/0"]
    arguments += ["--database-url", "postgresql://nobody@127.0.0.1:1/nowhere"]
    result = CliRunner().invoke(cli, arguments)
    assert result.exit_code == 2
    assert NO_SECRET.split(":")[0] in " ".join(result.output.split())
    short = CliRunner().invoke(cli, [*arguments, "--bus-secret", "short"])
    assert short.exit_code == 2 and "too short" in short.output


# --- the Redis URL ----------------------------------------------------------------------


def test_the_redis_urls_password_and_tls_reach_the_client() -> None:
    client = redis_client("rediss://player:s3cret@redis.example:6380/2")
    pool = client.connection_pool
    assert pool.connection_class is SSLConnection
    kwargs = pool.connection_kwargs
    assert (kwargs["username"], kwargs["password"]) == ("player", "s3cret")
    assert (kwargs["host"], kwargs["port"], kwargs["db"]) == ("redis.example", 6380, 2)
    connection = redis_client(
        "rediss://player:s3cret@redis.example:6380/2?ssl_ca_certs=/etc/poker/ca.pem"
    ).connection_pool.make_connection()  # made, not connected
    assert isinstance(connection, SSLConnection)
    assert (connection.username, connection.password) == ("player", "s3cret")
    assert connection.ssl_context.ca_certs == "/etc/poker/ca.pem"
    plain = redis_client("redis://:other@localhost:6379/0").connection_pool
    assert plain.connection_class is not SSLConnection
    assert plain.connection_kwargs["password"] == "other"


# --- the bus on a real Redis --------------------------------------------------------------


async def test_the_bus_handles_only_sealed_messages(
    redis_socket: Path, caplog: pytest.LogCaptureFixture
) -> None:
    client = redis.asyncio.Redis(unix_socket_path=str(redis_socket))
    bus = Bus(client, "one", Seals(SECRET, "one"))
    handled: list[dict[str, Any]] = []
    last = asyncio.Event()

    async def handler(data: dict[str, Any]) -> None:
        handled.append(data)
        if data["args"].get("last"):
            last.set()

    await bus.start()
    try:
        await bus.listen(CHANNEL, handler)
        good = Seals(SECRET, "two").seal(CHANNEL, COMMAND)
        unsealed = json.loads(good)
        del unsealed["mac"]
        wrong = json.loads(good)
        wrong["body"]["args"]["nickname"] = "Eve"
        with caplog.at_level(logging.WARNING, logger="italian_poker.server.bus"):
            for text in (
                json.dumps(COMMAND),
                json.dumps(unsealed),
                json.dumps(wrong),
                Seals("another-secret-just-as-long", "two").seal(CHANNEL, COMMAND),
                good,
                good,  # replayed
                b"\xff\xfe",
            ):
                await client.publish(CHANNEL, text)
            final = {**COMMAND, "args": {"last": True}}
            await client.publish(CHANNEL, Seals(SECRET, "two").seal(CHANNEL, final))
            await asyncio.wait_for(last.wait(), 10)
    finally:
        await bus.stop()
        await client.aclose()
    assert handled == [COMMAND, final]  # in order: everything before the last was read
    reasons = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
    assert len(reasons) == 6, reasons
    assert not [r for r in reasons if SECRET in r]


# --- a table's owner ----------------------------------------------------------------------


def nicknames(client: Any, invite: str) -> list[str]:
    runtime = server_of(client).here(invite)
    assert runtime is not None
    return [slot.nickname for slot in runtime.state.slots if slot is not None]


def test_a_forged_command_leaves_the_table_as_it_was(servers: Servers, redis_socket: Path) -> None:
    one = servers.start("one")
    table = create_table(one)
    invite = table["invite"]
    runtime = server_of(one).here(invite)
    assert runtime is not None and runtime.owning
    before = (runtime.state.seq, nicknames(one, invite))
    channel = f"italian-poker:table:{{{runtime.id}}}:commands"

    def seat(nickname: str) -> dict[str, Any]:
        args = {"nickname": nickname, "token_hash": nickname.lower(), "bot": None, "seat": None}
        return {"op": "take_seat", "args": args, "node": "two", "id": None}

    signed = Seals(BUS_SECRET, "two").seal(channel, seat("Bruno"))
    wrong = json.loads(signed)
    wrong["body"]["args"]["nickname"] = "Mallory"
    stale = Seals(BUS_SECRET, "two", clock=lambda: 1_000_000.0).seal(channel, seat("Old"))
    with redis.Redis(unix_socket_path=str(redis_socket)) as client:
        for text in (
            json.dumps(seat("Unsealed")),  # no MAC
            json.dumps(wrong),  # wrong MAC
            Seals("not-the-servers-secret", "two").seal(channel, seat("Eve")),
            stale,
        ):
            assert client.publish(channel, text) == 1  # the owner reads it
        client.publish(channel, signed)
        wait_until(lambda: "Bruno" in nicknames(one, invite))
        client.publish(channel, signed)  # replayed
        client.publish(channel, Seals(BUS_SECRET, "two").seal(channel, seat("Carla")))
        wait_until(lambda: "Carla" in nicknames(one, invite))
    assert before[0] < runtime.state.seq
    assert nicknames(one, invite) == [*before[1], "Bruno", "Carla"]


def test_a_seat_asked_through_another_process_is_sealed_and_taken(servers: Servers) -> None:
    one, two = servers.start("one"), servers.start("two")
    table = create_table(one)
    join(two, table["invite"], "Bruno")  # forwarded to the owner, sealed
    assert nicknames(one, table["invite"])[-1] == "Bruno"


def test_a_process_with_another_secret_is_not_heard(servers: Servers) -> None:
    one = servers.start("one")
    two = servers.start("two", bus_secret="not-the-secret-of-the-others")
    table = create_table(one)
    response = two.post(f"/api/tables/{table['invite']}/seats", json={"nickname": "Bruno"})
    assert response.status_code == 503, response.text
    assert "Bruno" not in nicknames(one, table["invite"])


# --- the chat's buckets -------------------------------------------------------------------

RATE = ChatRate(burst=3, interval=10.0)


async def test_two_owners_in_turn_share_a_persons_bucket(
    redis_client: redis.asyncio.Redis,
) -> None:
    prefix = "italian-poker:table:{5}:chat-bucket"
    first, second = (
        RedisBuckets(redis_client, RATE, prefix),
        RedisBuckets(redis_client, RATE, prefix),
    )
    for _ in range(3):
        await first.take(7, 100.0)
    with pytest.raises(ChatRefusal, match="wait 10 s"):
        await second.take(7, 100.0)  # the new owner: the bucket is empty still
    await second.take(8, 100.0)  # another person has their own
    await second.take(7, 110.0)  # one token back after the interval
    with pytest.raises(ChatRefusal, match="wait 5 s"):
        await first.take(7, 115.0)
    await first.give_back(7, 115.0)  # a message not sent after all
    await second.take(7, 115.0)
    assert 0 < await redis_client.pttl(f"{prefix}:7") <= 31_000


async def test_the_buckets_in_redis_count_as_those_in_memory(
    redis_client: redis.asyncio.Redis,
) -> None:
    shared = RedisBuckets(redis_client, RATE, "test:chat-bucket")
    memory = MemoryBuckets(RATE)
    for now in (0.0, 0.0, 1.0, 2.0, 2.5, 12.0, 12.0, 13.0, 50.0, 49.0, 49.0, 49.0, 49.0):
        outcomes = []
        for buckets in (shared, memory):
            try:
                await buckets.take(1, now)
                outcomes.append("taken")
            except ChatRefusal as refused:
                outcomes.append(refused.message)
        assert outcomes[0] == outcomes[1], now


class Unreachable:
    """Buckets whose Redis does not answer."""

    async def take(self, player: int, now: float) -> None:
        raise redis.ConnectionError("Redis is down")

    async def give_back(self, player: int, now: float) -> None:
        raise AssertionError("nothing was taken")


def test_a_message_when_the_buckets_cannot_be_read_is_not_sent(servers: Servers) -> None:
    one = servers.start("one")
    table = create_table(one)
    invite = table["invite"]
    runtime = server_of(one).here(invite)
    assert runtime is not None
    runtime.table_chat.chat_buckets = Unreachable()
    with connect(one, invite, "") as anna_ws:
        say_hello(anna_ws, table["player_token"])
        chat(anna_ws, "ciao")
        refused = next_message(anna_ws, "error")
        assert refused["code"] == "chat_not_sent", refused
    assert runtime.store.chat.messages(runtime.id, 50) == []
