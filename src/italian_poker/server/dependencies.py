"""Who may do what, as FastAPI dependencies: a route names what it needs in its signature
(``runtime: HostTableDep``) and gets it, or the request is refused before the route runs.

- :data:`ServerDep`: the application's :class:`~italian_poker.server.registry.Server`.
- :data:`TableDep`: the live table of the ``{invite}`` in the path; 404 ``no_table``.
- :data:`HostTableDep`: that table, for its host's bearer token only; 403 ``forbidden``.
- :data:`PlayerSeatDep`: that table and the seat of the player's bearer token; 403.
- :data:`ManagerDep`: that table, for its host's token or the co-host's player token, and
  who answers (None: the host; else the co-host's seat); 403 ``forbidden``.
- :data:`LedgerReaderDep`: that table, for its host's token, or a player's while the host
  lets the players see the ledger; 403 ``forbidden``, or ``ledger_private`` for a player's.

A token travels only as ``Authorization: Bearer <token>``: a missing header, another scheme
(``Basic``, a lower-case ``bearer``) or a bare token is a 403 that says so.

They are coroutines, so they run on the event loop as the routes do (FastAPI would run a
plain function in a worker thread). FastAPI resolves them before it validates the route's
own path parameters and body: an unknown table or a wrong token is a 404 or a 403 whatever
the body holds.
"""

from __future__ import annotations

import secrets
from typing import Annotated, NamedTuple

from fastapi import Depends, Header
from starlette.requests import HTTPConnection

from italian_poker.server.errors import ApiError
from italian_poker.server.registry import Server
from italian_poker.server.store import token_hash
from italian_poker.server.table_runtime import TableRuntime


async def get_server(connection: HTTPConnection) -> Server:
    """The application's :class:`Server` (for a request or a WebSocket)."""
    server: Server = connection.app.state.server
    return server


ServerDep = Annotated[Server, Depends(get_server)]


async def get_table(invite: str, server: ServerDep) -> TableRuntime:
    """The live table of the ``{invite}`` in the path (a replica caught up with its log), or
    404."""
    runtime = await server.table(invite)
    await runtime.sync()
    return runtime


TableDep = Annotated[TableRuntime, Depends(get_table)]
Authorization = Annotated[
    str | None, Header(description="`Bearer <token>`: the host's or the player's token")
]


def bearer_token(authorization: str | None) -> str:
    """The token of an ``Authorization: Bearer <token>`` header; else 403."""
    if not authorization or not authorization.startswith("Bearer "):
        raise ApiError(403, "forbidden", "send your token as 'Authorization: Bearer <token>'")
    return authorization[len("Bearer ") :].strip()


async def host_table(runtime: TableDep, authorization: Authorization = None) -> TableRuntime:
    """The table, if the header holds its host token; else 403."""
    if not secrets.compare_digest(token_hash(bearer_token(authorization)), runtime.host_token_hash):
        raise ApiError(403, "forbidden", "only the host can do this")
    return runtime


HostTableDep = Annotated[TableRuntime, Depends(host_table)]


class Manager(NamedTuple):
    """A table and who manages it: ``by`` None for the host, else the co-host's seat."""

    runtime: TableRuntime
    by: int | None


async def manager(runtime: TableDep, authorization: Authorization = None) -> Manager:
    """The table and who manages it, if the header holds its host token or the player
    token of the co-host's seat; else 403."""
    hashed = token_hash(bearer_token(authorization))
    if secrets.compare_digest(hashed, runtime.host_token_hash):
        return Manager(runtime, None)
    seat = runtime.seat_for_token(hashed)
    if seat is None or seat != runtime.state.desk.co_host:
        raise ApiError(403, "forbidden", "only the host or the co-host can do this")
    return Manager(runtime, seat)


ManagerDep = Annotated[Manager, Depends(manager)]


class PlayerSeat(NamedTuple):
    """A seated player's table and seat."""

    runtime: TableRuntime
    seat: int


async def player_seat(runtime: TableDep, authorization: Authorization = None) -> PlayerSeat:
    """The table and the seat of the player token in the header; else 403."""
    seat = runtime.seat_for_token(token_hash(bearer_token(authorization)))
    if seat is None:
        raise ApiError(403, "forbidden", "this token holds no seat at this table")
    return PlayerSeat(runtime, seat)


PlayerSeatDep = Annotated[PlayerSeat, Depends(player_seat)]


async def ledger_reader(runtime: TableDep, authorization: Authorization = None) -> TableRuntime:
    """The table, if the header holds its host token, or a seated player's while the host
    lets the players see the ledger; else 403."""
    hashed = token_hash(bearer_token(authorization))
    if secrets.compare_digest(hashed, runtime.host_token_hash):
        return runtime
    if runtime.seat_for_token(hashed) is None:
        raise ApiError(403, "forbidden", "only the host, or a player at this table, can do this")
    if not runtime.state.switches.players_see_ledger:
        raise ApiError(
            403, "ledger_private", "the host has not let the players see the ledger: ask them"
        )
    return runtime


LedgerReaderDep = Annotated[TableRuntime, Depends(ledger_reader)]
