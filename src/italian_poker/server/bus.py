"""The messages between server processes, on Redis pub/sub (several processes).

Four kinds of channel, under the leases' prefix (``italian-poker``), for table 42 and the
process named ``node-a``:

- ``italian-poker:table:{42}:log``: the owner's word that the table changed, read by every
  process with a player (or a spectator) of the table connected. Public, as a lobby is: the
  last event's seq, who is connected (and how many spectators watch), the turn's clock, the
  owner's name. **Never a card**: a process reads the events themselves from the database,
  and each seat's view is built, by the process its connection is on, from the engine's
  observer.
- ``italian-poker:table:{42}:chat``: the table's chat as the owner sends it to its own
  players (a new message, the messages the host removed), read by every other process with
  a player of the table connected, which sends it on to its players as it is. Public at the
  table: the chat is no table event, and holds no card but what a player typed.
- ``italian-poker:table:{42}:commands``: what a player on another process asks of the table
  (an action, a seat, a host's command) and who is connected there (the seats, and how
  many spectators), read by the owner only. A draw names the cards its player throws: that
  player's own.
- ``italian-poker:node:node-a:replies``: the owner's answer to a command of ``node-a``'s,
  read by that process: a value (a seat number) or a refusal's code and message.

Every message is sealed with the secret the processes share
(:mod:`italian_poker.server.bus_seal`): one read without a valid seal, stale or replayed is
logged (never with the secret) and dropped, never handled.

Publishing is fire and forget, in order (one task publishes everything queued); a
:meth:`Bus.call` waits for its reply, and fails at once if nobody owns the table
(:class:`NoOwner`), or after its timeout.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.client import PubSub

from italian_poker.server.bus_seal import Forged, Seals
from italian_poker.server.lease import DEFAULT_PREFIX
from italian_poker.server.shutdown import cancel_and_wait, within

log = logging.getLogger(__name__)

PUBLISH_SECONDS = 5.0
"""How long a stopping bus waits at most for what is queued to be published."""

Handler = Callable[[dict[str, Any]], Awaitable[None]]
"""What a channel's messages are given to (each message a task of its own, in order)."""


class NoOwner(Exception):
    """No process answered for the table: it is between owners (or its owner is stuck)."""


class Refused(Exception):
    """The owner refused a command: the refusal's code, message and HTTP status."""

    def __init__(self, code: str, message: str, status: int) -> None:
        super().__init__(message)
        self.code, self.message, self.status = code, message, status


class Bus:
    """This process's side of the channels, over one Redis client and one subscription
    connection."""

    def __init__(
        self, client: Redis, node: str, seals: Seals, *, prefix: str = DEFAULT_PREFIX
    ) -> None:
        self.client = client
        self.node = node
        self.seals = seals
        """Seals what this process sends, opens what it reads."""
        self.prefix = prefix
        self._pubsub: PubSub = client.pubsub(ignore_subscribe_messages=True)
        self._handlers: dict[str, Handler] = {}
        self._calls: dict[int, asyncio.Future[Any]] = {}
        self._ids = itertools.count(1)
        self._outbox: asyncio.Queue[tuple[str, str] | None] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._running: set[asyncio.Task[None]] = set()
        self._order: dict[str, asyncio.Task[None]] = {}
        self._stopping = False
        """Set by :meth:`stop`: the reader ends at its next turn even if its cancellation
        was lost in redis-py (as the cluster's tick may lose it: ``Cluster._pausing``)."""

    # --- channels -------------------------------------------------------------------------

    def log_channel(self, table_id: int) -> str:
        """The table's public channel."""
        return f"{self.prefix}:table:{{{table_id}}}:log"

    def chat_channel(self, table_id: int) -> str:
        """The table's chat, from its owner to the other processes."""
        return f"{self.prefix}:table:{{{table_id}}}:chat"

    def commands_channel(self, table_id: int) -> str:
        """The channel the table's owner reads commands on."""
        return f"{self.prefix}:table:{{{table_id}}}:commands"

    def replies_channel(self, node: str) -> str:
        """The channel process ``node`` reads its replies on."""
        return f"{self.prefix}:node:{node}:replies"

    # --- lifecycle ------------------------------------------------------------------------

    async def start(self) -> None:
        """Subscribe to this process's replies and start reading and publishing."""
        await self._pubsub.subscribe(self.replies_channel(self.node))
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._read()), loop.create_task(self._publish())]

    async def stop(self) -> None:
        """Publish what is queued (for at most :data:`PUBLISH_SECONDS`), then stop reading and
        handling; calls waiting fail with :class:`NoOwner`."""
        self._stopping = True
        self._outbox.put_nowait(None)
        if self._tasks:
            _, publisher = self._tasks
            await asyncio.wait([publisher], timeout=PUBLISH_SECONDS)
        await cancel_and_wait([*self._tasks, *self._running], f"the bus of {self.node}")
        for future in self._calls.values():
            if not future.done():
                future.set_exception(NoOwner("this server is shutting down"))
        with contextlib.suppress(Exception):
            await within(self._pubsub.aclose(), "closing the bus's subscription")

    async def listen(self, channel: str, handler: Handler) -> None:
        """Give ``channel``'s messages to ``handler`` from now on."""
        if channel not in self._handlers:
            self._handlers[channel] = handler
            await self._pubsub.subscribe(channel)
        self._handlers[channel] = handler

    async def unlisten(self, channel: str) -> None:
        """Stop reading ``channel``."""
        if self._handlers.pop(channel, None) is not None:
            try:
                await self._pubsub.unsubscribe(channel)
            except Exception:  # Redis unreachable: nothing is handled from it any more
                log.warning("could not unsubscribe from %s", channel, exc_info=True)

    # --- sending --------------------------------------------------------------------------

    def publish(self, channel: str, message: dict[str, Any]) -> None:
        """Queue ``message`` for ``channel`` (sent in the order queued, never waited for)."""
        self._outbox.put_nowait((channel, self.seals.seal(channel, message)))

    async def call(self, table_id: int, op: str, args: dict[str, Any], timeout: float) -> Any:
        """Send a command to the table's owner and return its answer; :class:`Refused` if it
        refused, :class:`NoOwner` if no process reads the table's commands now or none
        answered within ``timeout`` seconds."""
        number = next(self._ids)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._calls[number] = future
        message = {"op": op, "args": args, "node": self.node, "id": number}
        channel = self.commands_channel(table_id)
        try:
            readers = await self.client.publish(channel, self.seals.seal(channel, message))
            if int(readers) == 0:
                raise NoOwner(f"table {table_id} has no owner now")
            try:
                return await asyncio.wait_for(future, timeout)
            except TimeoutError:
                raise NoOwner(f"table {table_id}'s owner did not answer") from None
        finally:
            self._calls.pop(number, None)

    def tell(self, table_id: int, op: str, args: dict[str, Any]) -> None:
        """Send a command that wants no answer (e.g. who is connected here)."""
        message = {"op": op, "args": args, "node": self.node, "id": None}
        self.publish(self.commands_channel(table_id), message)

    def reply(
        self, node: str, number: int, *, ok: Any = None, refusal: Refused | None = None
    ) -> None:
        """Answer command ``number`` of process ``node``."""
        message: dict[str, Any] = {"id": number}
        if refusal is None:
            message["ok"] = ok
        else:
            message["refusal"] = {
                "code": refusal.code,
                "message": refusal.message,
                "status": refusal.status,
            }
        self.publish(self.replies_channel(node), message)

    # --- the two tasks --------------------------------------------------------------------

    async def _publish(self) -> None:
        while True:
            item = await self._outbox.get()
            if item is None:
                return
            channel, text = item
            try:
                await self.client.publish(channel, text)
            except Exception:  # Redis down: the message is lost, the table goes on
                log.exception("could not publish on %s", channel)

    async def _read(self) -> None:
        replies = self.replies_channel(self.node)
        while not self._stopping:
            try:
                message = await self._pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("reading the bus failed; retrying")
                await asyncio.sleep(0.5)
                continue
            if message is None or message.get("type") != "message":
                continue
            channel = _text(message["channel"])
            try:
                data = self.seals.open(channel, _text(message["data"]))
            except Forged as refused:
                log.warning("refused a message on %s: %s", channel, refused)
                continue
            if channel == replies:
                self._answered(data)
                continue
            handler = self._handlers.get(channel)
            if handler is not None:
                self._dispatch(channel, handler, data)

    def _answered(self, data: dict[str, Any]) -> None:
        future = self._calls.get(data.get("id"))  # type: ignore[arg-type]
        if future is None or future.done():
            return
        refusal = data.get("refusal")
        if isinstance(refusal, dict):
            future.set_exception(
                Refused(
                    str(refusal.get("code")),
                    str(refusal.get("message")),
                    int(refusal.get("status") or 409),
                )
            )
        else:
            future.set_result(data.get("ok"))

    def _dispatch(self, channel: str, handler: Handler, data: dict[str, Any]) -> None:
        """Run ``handler`` on ``data`` after the channel's previous message is handled."""
        before = self._order.get(channel)

        async def run() -> None:
            if before is not None:
                with contextlib.suppress(Exception):
                    await asyncio.shield(before)
            try:
                await handler(data)
            except Exception:
                log.exception("handling a message on %s failed", channel)

        task = asyncio.get_running_loop().create_task(run())
        self._order[channel] = task
        self._running.add(task)

        def done(finished: asyncio.Task[None]) -> None:
            self._running.discard(finished)
            if self._order.get(channel) is finished:
                del self._order[channel]

        task.add_done_callback(done)


def _text(value: Any) -> str:
    return value.decode(errors="replace") if isinstance(value, bytes) else str(value)
