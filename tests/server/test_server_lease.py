"""Table leases against a real ``redis-server`` (``redis_fixtures``): one owner at a time,
fencing tokens that only grow, renew and release that refuse a lease taken over, expiry; and,
with the store, a stale owner refused by the database's fence (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio

import pytest
import redis.asyncio
from sqlalchemy import Engine, select

from italian_poker.server.cluster import REDIS_CONNECTIONS, redis_client
from italian_poker.server.fencing import StaleOwner
from italian_poker.server.lease import Lease, LeaseError, TableLeases
from italian_poker.server.models import TableEventRow
from italian_poker.server.seats import Slot
from italian_poker.server.store import EventWrite, NewTable, Store

SHORT = 0.5
"""A lease short enough to wait out (seconds)."""


async def expired(leases: TableLeases, table_id: int) -> None:
    """Return once the table's lease has expired in Redis (within 30 s)."""
    deadline = asyncio.get_running_loop().time() + 30
    while await leases.client.exists(leases.owner_key(table_id)):
        if asyncio.get_running_loop().time() > deadline:
            pytest.fail(f"the lease of table {table_id} never expired")
        await asyncio.sleep(0.01)


@pytest.fixture
def leases(redis_client: redis.asyncio.Redis) -> TableLeases:
    return TableLeases(redis_client)


async def test_one_owner_at_a_time(leases: TableLeases) -> None:
    first = await leases.acquire(7, "process-1", ttl=30)
    assert first is not None
    assert (first.table_id, first.owner, first.token) == (7, "process-1", 1)
    assert await leases.acquire(7, "process-2", ttl=30) is None
    assert await leases.acquire(7, "process-1", ttl=30) is None  # not twice either
    assert await leases.owner(7) == "process-1"
    assert await leases.holder(7) == ("process-1", 1)
    # Another table is free.
    other = await leases.acquire(8, "process-2", ttl=30)
    assert other is not None and other.token == 1
    assert await leases.release(first)
    assert await leases.owner(7) is None
    second = await leases.acquire(7, "process-2", ttl=30)
    assert second is not None and second.owner == "process-2"


async def test_tokens_strictly_increase_across_owners(leases: TableLeases) -> None:
    tokens = []
    for turn in range(6):
        owner = f"process-{turn % 3}"  # owners come back: their tokens grow all the same
        lease = await leases.acquire(3, owner, ttl=30)
        assert lease is not None
        tokens.append(lease.token)
        if turn % 2:
            assert await leases.release(lease)
        else:  # or it expires
            await leases.client.pexpire(leases.owner_key(3), 1)
            await asyncio.sleep(0.01)
    assert tokens == sorted(set(tokens)) and tokens[0] >= 1
    assert tokens == [1, 2, 3, 4, 5, 6]


async def test_a_lease_expires_after_its_ttl(leases: TableLeases) -> None:
    lease = await leases.acquire(1, "process-1", ttl=SHORT)
    assert lease is not None
    assert lease.ttl == SHORT
    assert 0 < await leases.client.pttl(leases.owner_key(1)) <= SHORT * 1000
    assert await leases.acquire(1, "process-2", ttl=SHORT) is None
    await expired(leases, 1)
    assert await leases.owner(1) is None
    taken = await leases.acquire(1, "process-2", ttl=SHORT)
    assert taken is not None and taken.token > lease.token


async def test_renew_keeps_the_lease_and_its_token(leases: TableLeases) -> None:
    lease = await leases.acquire(1, "process-1", ttl=30)
    assert lease is not None
    key = leases.owner_key(1)
    for _ in range(4):  # each time with 5 s of its 30 s left: renewed to 30 s again
        await leases.client.pexpire(key, 5000)
        renewed = await leases.renew(lease)
        assert renewed is not None
        assert renewed.token == lease.token and renewed.expires > lease.expires
        assert await leases.client.pttl(key) > 5000
        lease = renewed
    assert await leases.owner(1) == "process-1"
    longer = await leases.renew(lease, ttl=30)
    assert longer is not None and longer.ttl == 30
    assert await leases.client.pttl(leases.owner_key(1)) > SHORT * 1000


async def test_renew_and_release_refuse_a_lease_that_expired_and_was_taken(
    leases: TableLeases,
) -> None:
    stale = await leases.acquire(5, "process-1", ttl=SHORT)
    assert stale is not None
    await expired(leases, 5)  # process 1 is paused past its lease
    current = await leases.acquire(5, "process-2", ttl=30)
    assert current is not None and current.token > stale.token
    assert await leases.renew(stale) is None
    assert not await leases.release(stale)
    assert await leases.holder(5) == ("process-2", current.token)
    assert await leases.client.pttl(leases.owner_key(5)) > SHORT * 1000


async def test_an_expired_lease_cannot_be_renewed_even_by_its_owner(leases: TableLeases) -> None:
    """The owner key is gone once it expires, and a new lease of the same owner has a new
    token: the old lease object stays dead."""
    old = await leases.acquire(2, "process-1", ttl=SHORT)
    assert old is not None
    await expired(leases, 2)
    assert await leases.renew(old) is None
    new = await leases.acquire(2, "process-1", ttl=30)
    assert new is not None and new.token == old.token + 1
    assert await leases.renew(old) is None
    assert not await leases.release(old)
    assert await leases.renew(new) is not None


async def test_tokens_count_on_from_the_databases_fence(leases: TableLeases) -> None:
    """A Redis that lost its counter (here: emptied) still gives tokens above the fence the
    database holds, when the owner passes it."""
    lease = await leases.acquire(4, "process-1", ttl=30, at_least=41)
    assert lease is not None and lease.token == 42
    assert await leases.release(lease)
    again = await leases.acquire(4, "process-1", ttl=30, at_least=10)
    assert again is not None and again.token == 43


async def test_keys_are_under_the_prefix(redis_client: redis.asyncio.Redis) -> None:
    leases = TableLeases(redis_client, prefix="test-prefix")
    lease = await leases.acquire(9, "process-1", ttl=30)
    assert lease is not None
    assert sorted(await redis_client.keys("*")) == [
        "test-prefix:table:{9}:fence",
        "test-prefix:table:{9}:owner",
    ]
    assert await redis_client.get("test-prefix:table:{9}:owner") == "1:process-1"
    assert await TableLeases(redis_client).owner(9) is None  # another prefix, another lease


async def test_bytes_responses_and_a_foreign_value(redis_socket: object) -> None:
    client = redis.asyncio.Redis(unix_socket_path=str(redis_socket))  # no decoding
    try:
        await client.flushall()
        leases = TableLeases(client)
        lease = await leases.acquire(1, "prozess-ü", ttl=30)
        assert lease is not None
        assert await leases.holder(1) == ("prozess-ü", 1)
        await client.set(leases.owner_key(2), "not a lease")
        with pytest.raises(LeaseError, match="not a lease"):
            await leases.owner(2)
    finally:
        await client.aclose()


async def test_hundreds_of_leases_at_once_wait_for_a_connection(redis_socket: object) -> None:
    """A process's client (``cluster.redis_client``) queues a burst larger than its pool: a
    cluster tick renews every table's lease at once, and with redis-py's own pool the 101st
    concurrent command failed (``MaxConnectionsError``: leases lost, tables created with a
    500, seen at 200 tables in ``bench_server.py --processes``)."""
    client = redis_client(f"unix://{redis_socket}")
    try:
        await client.flushall()
        leases = TableLeases(client)
        tables = range(4 * REDIS_CONNECTIONS + 100)
        taken = await asyncio.gather(*(leases.acquire(n, "process-1", ttl=30) for n in tables))
        assert all(lease is not None for lease in taken)
        renewed = await asyncio.gather(*(leases.renew(lease) for lease in taken if lease))
        assert [lease.token for lease in renewed if lease] == [1] * len(tables)
    finally:
        await client.aclose()


async def test_bad_arguments_are_refused(leases: TableLeases) -> None:
    with pytest.raises(ValueError, match="ttl must be at least 1 ms"):
        await leases.acquire(1, "p", ttl=0)
    with pytest.raises(TypeError, match="ttl is a number"):
        await leases.acquire(1, "p", ttl="5")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="owner is a non-empty string"):
        await leases.acquire(1, "", ttl=1)
    with pytest.raises(ValueError, match="table id"):
        await leases.acquire(-1, "p", ttl=1)
    with pytest.raises(ValueError, match="at_least"):
        await leases.acquire(1, "p", ttl=1, at_least=-1)
    with pytest.raises(ValueError, match="prefix"):
        TableLeases(leases.client, prefix="a{b}")
    assert await leases.client.keys("*") == []


def _event(table_id: int, seq: int) -> EventWrite:
    slots: tuple[Slot | None, ...] = (Slot("Anna", None),)
    action = {"seat": 0, "kind": "check", "amount": None, "cards": [], "split": False}
    return EventWrite(table_id, seq, "action", action, (), slots, {0: "a" * 64}, "playing")


@pytest.mark.every_database
async def test_a_stale_owner_cannot_write_after_its_lease_was_taken(
    leases: TableLeases, engine: Engine
) -> None:
    """Issue 12's stale owner: process 1 is paused past its lease, process 2 takes the table,
    claims it in the database and writes; process 1, resumed, is refused (SQLite and
    PostgreSQL)."""
    store = Store(engine)
    table = store.create_table("i" * 64, NewTable("t", {}, {}, "h" * 64))
    first = await leases.acquire(table, "process-1", ttl=SHORT, at_least=store.fence(table))
    assert first is not None
    store.commit_events([_event(table, 1)], fence=first.token)
    await expired(leases, table)
    second = await leases.acquire(table, "process-2", ttl=30, at_least=store.fence(table))
    assert second is not None and second.token > first.token
    store.claim(table, second.token)  # before reading the log
    assert [seq for seq, _, _ in store.load(table).events] == [1]
    with pytest.raises(StaleOwner):  # process 1 resumes, seq 2 is free: the fence refuses it
        store.commit_events([_event(table, 2)], fence=first.token)
    store.commit_events([_event(table, 2)], fence=second.token)
    with engine.connect() as connection:
        seqs = connection.execute(
            select(TableEventRow.seq).where(TableEventRow.table_id == table)
        ).scalars()
        assert list(seqs) == [1, 2]
    assert store.fence(table) == second.token
    assert await leases.renew(first) is None


def test_lease_is_a_frozen_value() -> None:
    lease = Lease(1, "p", 3, 10.0, 5.0)
    assert lease.value == "3:p"
    with pytest.raises(AttributeError):
        lease.token = 4  # type: ignore[misc]
