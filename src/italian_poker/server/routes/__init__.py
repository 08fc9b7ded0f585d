"""The server's routes, by audience, as FastAPI routers that
:func:`~italian_poker.server.app.create_app` includes:

- :mod:`.pages`: the HTML pages and the pages' words (anyone);
- :mod:`.lobby`: create a table, look at one, take a seat, what the server offers (anyone
  with the link);
- :mod:`.host`: bots, seats, start, pause, resume, stacks, the watch link (the host's token);
- :mod:`.desk`: the lock, the co-host, the caps, seat and chip requests and their answers
  (the host's or the co-host's token; a player's to ask for chips);
- :mod:`.fair`: when the fair decks' seeds are revealed, closing the table's books (the
  host's token);
- :mod:`.ledger`: the ledger, as JSON and CSV (the host's token, or a player's when the host
  allows it), and who may see it (the host's);
- :mod:`.player`: sit out and in, hand histories (a player's token);
- :mod:`.group_stats`: the statistics of several tables together (a seat's token at each);
- :mod:`.chat`: the host's removal of chat messages (the host's token);
- :mod:`.table_socket`: the table's WebSocket (a player's token, in its ``hello``), which
  carries the chat too.
- :mod:`.spectators`: the spectators' page and WebSocket (the watch link).

Who may call a route is in its signature (:mod:`italian_poker.server.dependencies`), what it
takes and answers in :mod:`italian_poker.server.schemas`.
"""

from __future__ import annotations

from fastapi import APIRouter

from italian_poker.server.routes import (
    chat,
    desk,
    fair,
    group_stats,
    host,
    ledger,
    lobby,
    pages,
    player,
    spectators,
    table_socket,
)

ROUTERS: tuple[APIRouter, ...] = (
    pages.router,
    lobby.router,
    lobby.server_router,
    host.router,
    desk.router,
    fair.router,
    ledger.router,
    player.router,
    group_stats.router,
    chat.router,
    table_socket.router,
    spectators.router,
)
"""Every router, in the order they are included."""
