"""Where a table's chat keeps each person's token bucket
(:class:`~italian_poker.server.chat.ChatRate`): in the process's memory when it is the only
one (:class:`MemoryBuckets`), in Redis when several processes share the tables
(:class:`RedisBuckets`), so that a table's new owner goes on from its previous owner's
buckets instead of giving everyone a full one.

In Redis a bucket is the hash ``italian-poker:table:{42}:chat-bucket:7`` (table 42, person
7) holding ``tokens`` and ``at``, changed by one script (:data:`TAKE_SCRIPT`) that refills,
takes and stores at once, and expiring once it would be full again anyway. The time is the
server's clock (``ServerSettings.clock``), which every process reads alike.
"""

from __future__ import annotations

import math
from typing import Protocol

from redis.asyncio import Redis

from italian_poker.server.chat import Bucket, ChatRate

TAKE_SCRIPT = """
local burst = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local cost = tonumber(ARGV[4])
local tokens = burst
local saved = redis.call('HMGET', KEYS[1], 'tokens', 'at')
if saved[1] and saved[2] then
    local elapsed = math.max(0, now - tonumber(saved[2]))
    tokens = math.min(burst, tonumber(saved[1]) + elapsed / interval)
end
if tokens < cost then
    return {0, tostring(tokens)}
end
tokens = math.min(burst, tokens - cost)
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return {1, tostring(tokens)}
"""
"""Refill the bucket ``KEYS[1]`` to ``ARGV[3]`` (``burst``, ``interval`` in ``ARGV[1..2]``:
:meth:`ChatRate.take`'s arithmetic), then take ``ARGV[4]`` tokens (-1 gives one back) if it
holds as many, and keep it ``ARGV[5]`` ms; ``{1, tokens left}``, or ``{0, tokens}`` when it
holds too few (nothing changed)."""


class ChatBuckets(Protocol):
    """The persons' buckets at one table."""

    async def take(self, player: int, now: float) -> None:
        """One message of ``player`` at ``now``; raises
        :class:`~italian_poker.server.chat.ChatRefusal` (``chat_rate_limited``) when their
        bucket is empty."""
        ...

    async def give_back(self, player: int, now: float) -> None:
        """Return the token of a message that was not sent after all."""
        ...


class MemoryBuckets:
    """The buckets in this process's memory (one process owns every table)."""

    def __init__(self, rate: ChatRate) -> None:
        self.rate = rate
        self.buckets: dict[int, Bucket] = {}

    async def take(self, player: int, now: float) -> None:
        """:meth:`ChatBuckets.take`."""
        self.buckets[player] = self.rate.take(self.buckets.get(player), now)

    async def give_back(self, player: int, now: float) -> None:
        """:meth:`ChatBuckets.give_back`."""
        bucket = self.buckets.get(player)
        if bucket is not None:
            self.buckets[player] = self.rate.give_back(bucket)


class RedisBuckets:
    """The buckets in Redis, shared by every process (and so by the table's owners in turn)."""

    def __init__(self, client: Redis, rate: ChatRate, prefix: str) -> None:
        self.client = client
        self.rate = rate
        self.prefix = prefix
        """The keys' start, the table's: ``italian-poker:table:{42}:chat-bucket``."""
        self._script = client.register_script(TAKE_SCRIPT)
        self.keep_ms = math.ceil(rate.burst * rate.interval * 1000) + 1000
        """How long a bucket outlives its last change: by then it is full again."""

    def key(self, player: int) -> str:
        """The key of ``player``'s bucket."""
        return f"{self.prefix}:{player}"

    async def _run(self, player: int, now: float, cost: int) -> tuple[bool, float]:
        args: list[str | int] = [
            self.rate.burst,
            repr(float(self.rate.interval)),
            repr(now),
            cost,
            self.keep_ms,
        ]
        taken, tokens = await self._script(keys=[self.key(player)], args=args)
        return int(taken) == 1, float(tokens)

    async def take(self, player: int, now: float) -> None:
        """:meth:`ChatBuckets.take`."""
        taken, tokens = await self._run(player, now, 1)
        if not taken:
            raise self.rate.refusal(tokens)

    async def give_back(self, player: int, now: float) -> None:
        """:meth:`ChatBuckets.give_back`."""
        await self._run(player, now, -1)
