"""What a live table's parts (its clock, bots, chat, presence, histories, owner and replica
sides: the modules named after them) see of the table: its state, its lock, its settings and
the runtime's two hooks, :meth:`TableCore.commit` (the one way to change the table) and
:meth:`TableCore.publish` (tell everyone connected what it is now)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, Protocol, TypeVar

from italian_poker.server.effects import Effects
from italian_poker.server.event_kinds import EventKind
from italian_poker.server.peers import TablePeers
from italian_poker.server.settings import ServerSettings
from italian_poker.server.spectators import Spectators
from italian_poker.server.store import Store
from italian_poker.server.table_state import TableState

T = TypeVar("T")


class TableCore(Protocol):
    """The runtime (:class:`~italian_poker.server.table_runtime.TableRuntime`) as its parts
    see it."""

    id: int
    invite: str | None
    """The table's invite, once known (a table rebuilt from its log has only its hash)."""
    state: TableState
    tokens: dict[int, str]
    """Each human seat's token hash."""
    lock: asyncio.Lock
    """Held while the table changes (and while what a change tells is built)."""
    settings: ServerSettings
    store: Store
    peers: TablePeers | None
    spectators: Spectators

    @property
    def owning(self) -> bool:
        """Whether this process owns the table."""
        ...

    async def commit(self, kind: EventKind, payload: dict[str, Any]) -> Effects:
        """Check, apply, write, then tell: the one way to change the table (lock held)."""
        ...

    def publish(self, events_after: int | None = None) -> None:
        """Tell everyone connected what the table is now."""
        ...

    def publish_between_changes(self) -> None:
        """:meth:`publish`, now or once the change under way is committed."""
        ...

    async def sync(self) -> None:
        """A replica: catch up with the events written since it last looked."""
        ...

    def spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run ``coro`` as one of the table's tasks (cancelled when the table stops)."""
        ...

    async def database(self, call: Callable[[], T]) -> T:
        """``call()`` (a :class:`Store` method) off the event loop."""
        ...


class TablePart:
    """A part of a live table: reads the table's state and changes it through its hooks."""

    def __init__(self, table: TableCore) -> None:
        self.table = table

    @property
    def id(self) -> int:
        """The table's id."""
        return self.table.id

    @property
    def state(self) -> TableState:
        """The table's state now."""
        return self.table.state

    @property
    def lock(self) -> asyncio.Lock:
        """The table's lock."""
        return self.table.lock

    @property
    def settings(self) -> ServerSettings:
        """The server's settings."""
        return self.table.settings

    @property
    def store(self) -> Store:
        """The database store."""
        return self.table.store

    @property
    def owning(self) -> bool:
        """Whether this process owns the table."""
        return self.table.owning

    def _commit(self, kind: EventKind, payload: dict[str, Any]) -> Coroutine[Any, Any, Effects]:
        """The table's :meth:`~TableCore.commit` (awaited by the caller: no coroutine of
        its own in between)."""
        return self.table.commit(kind, payload)

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        return self.table.spawn(coro)

    async def _database(self, call: Callable[[], T]) -> T:
        return await self.table.database(call)
