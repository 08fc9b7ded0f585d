"""The refusal of a table's request: what the HTTP routes answer with its status, and the
WebSocket with an ``error`` message; between processes it travels as
:class:`~italian_poker.server.bus.Refused`."""

from __future__ import annotations


class Refusal(Exception):
    """A request refused with a protocol error code and a message a player can act on."""

    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
