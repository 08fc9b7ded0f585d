"""The REST API's request bodies and responses, as pydantic models, by the audience that uses
them: FastAPI checks every body with them and writes every response through them, so that the
OpenAPI schema (``app.openapi()``) documents both.

- :mod:`.base`: :class:`~.base.Model`, the base of every model;
- :mod:`.lobby`: what the server offers, a new table, a seat taken, the lobby's view of a
  table (anyone with the link);
- :mod:`.host`: bots, stacks, the watch link, the draw hint, chat removed (the host);
- :mod:`.desk`: the lock, the co-host, the caps on chip requests, seat and chip requests;
- :mod:`.ledger`: the ledger, its summary, who may see it;
- :mod:`.stats`: a table's statistics, and a group's;
- :mod:`.histories`: a player's finished deals and the hand replayer.

A response's members are written in the order of its model's fields: the browser's pages
(``static/*.js``) and the tests read them by name, and the order is the one the API has
always had. Every whole number is checked against :mod:`italian_poker.server.limits`.
"""
