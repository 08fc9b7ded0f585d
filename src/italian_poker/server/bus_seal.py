"""The seal on every message between server processes (:mod:`italian_poker.server.bus`):
an HMAC-SHA256, keyed with the secret the processes share (``ServerSettings.bus_secret``),
over a canonical encoding of the message, its channel, its sender, when it was sealed and a
nonce of its own.

A message on the wire is the JSON object ``{"v": 1, "from": node, "at": ms, "nonce": hex,
"body": {...}, "mac": hex}``. The MAC covers ``[1, channel, node, ms, nonce, body]`` encoded
as JSON with sorted keys, no spaces and ASCII only (:func:`canonical`), so a sealed message
is valid on its own channel only. :meth:`Seals.open` refuses (:class:`Forged`, with a reason
that never holds the secret nor the MAC) a message that is not such an object, whose MAC is
missing or wrong, that is older (or further in the future) than the window, or whose nonce
this process has already accepted within the window.

A process that knows the secret can seal anything; one that only reaches Redis cannot.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

VERSION = 1
"""The seal's format, the first item of what the MAC covers."""
WINDOW_SECONDS = 30.0
"""Default of ``ServerSettings.bus_window_seconds``: how old (or how far ahead of this
process's clock) a message may be."""
MIN_SECRET_LENGTH = 16
"""The shortest secret the server takes (characters)."""
SECRET_VARIABLE = "ITALIAN_POKER_BUS_SECRET"
"""The environment variable ``italian-poker serve`` reads the secret from."""
NO_SECRET = (
    "several processes seal their messages with a secret they share: set "
    f"{SECRET_VARIABLE} (or --bus-secret) to the same random text of {MIN_SECRET_LENGTH} "
    "characters or more in every process, e.g. the output of python -c "
    "'import secrets; print(secrets.token_urlsafe(32))'"
)
"""The refusal to start one of several processes without a secret."""


def checked_secret(secret: str | None) -> str:
    """``secret``; :class:`ValueError` saying what to do when it is missing or too short."""
    if not secret:
        raise ValueError(NO_SECRET)
    if len(secret) < MIN_SECRET_LENGTH:
        raise ValueError(f"the bus's secret is too short ({len(secret)} characters): {NO_SECRET}")
    return secret


class Forged(Exception):
    """A message refused: unsealed, wrongly sealed, stale or replayed (the reason, no secret)."""


def canonical(channel: str, sender: str, at: int, nonce: str, body: Any) -> bytes:
    """The bytes the MAC covers."""
    return json.dumps(
        [VERSION, channel, sender, at, nonce, body],
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=True,
        allow_nan=False,
    ).encode("ascii")


def mac(key: bytes, channel: str, sender: str, at: int, nonce: str, body: Any) -> str:
    """The HMAC-SHA256 of the message, in hexadecimal."""
    return hmac.new(key, canonical(channel, sender, at, nonce, body), hashlib.sha256).hexdigest()


class Seals:
    """Seals this process's messages and opens the others': the shared key, the window, and
    the nonces accepted within it."""

    def __init__(
        self,
        secret: str,
        node: str,
        *,
        window: float = WINDOW_SECONDS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        checked_secret(secret)
        if not window > 0:
            raise ValueError(f"the bus's window is more than 0 seconds, got {window}")
        self._key = secret.encode("utf-8")
        self.node = node
        self.window_ms = int(window * 1000)
        self.clock = clock
        self._seen: OrderedDict[str, int] = OrderedDict()
        """Nonces accepted, with when they go stale (ms), oldest first."""

    def __repr__(self) -> str:
        return f"Seals(node={self.node!r}, window_ms={self.window_ms})"

    def _now(self) -> int:
        return int(self.clock() * 1000)

    def seal(self, channel: str, body: dict[str, Any]) -> str:
        """``body`` for ``channel``, sealed: the JSON text to publish."""
        at, nonce = self._now(), secrets.token_hex(16)
        sealed = {
            "v": VERSION,
            "from": self.node,
            "at": at,
            "nonce": nonce,
            "body": body,
            "mac": mac(self._key, channel, self.node, at, nonce, body),
        }
        return json.dumps(sealed, separators=(",", ":"), allow_nan=False)

    def open(self, channel: str, text: str) -> dict[str, Any]:
        """The body of a message read on ``channel``; :class:`Forged` when it is refused."""
        try:
            data = json.loads(text)
        except ValueError:
            raise Forged("not JSON") from None
        if not isinstance(data, dict):
            raise Forged("not a sealed message")
        given, sender, at, nonce, body = (
            data.get(k) for k in ("mac", "from", "at", "nonce", "body")
        )
        if not isinstance(given, str) or not given:
            raise Forged("no MAC")
        if (
            data.get("v") != VERSION
            or not isinstance(sender, str)
            or not isinstance(at, int)
            or isinstance(at, bool)
            or not isinstance(nonce, str)
            or not nonce
            or not isinstance(body, dict)
        ):
            raise Forged("not a sealed message")
        try:
            expected = mac(self._key, channel, sender, at, nonce, body)
        except ValueError:  # a NaN or an infinity: nothing this bus seals
            raise Forged("not a sealed message") from None
        if not hmac.compare_digest(expected, given):
            raise Forged(f"wrong MAC (said to be from {sender!r})")
        now = self._now()
        if abs(now - at) > self.window_ms:
            raise Forged(f"stale: sealed {(now - at) / 1000:.1f} s ago by {sender!r}")
        self._forget(now)
        if nonce in self._seen:
            raise Forged(f"replayed (from {sender!r})")
        self._seen[nonce] = at + self.window_ms
        return body

    def _forget(self, now: int) -> None:
        """Drop the nonces whose messages are stale by now (a replay of them is refused as
        stale)."""
        while self._seen:
            nonce, until = next(iter(self._seen.items()))
            if until >= now:
                return
            del self._seen[nonce]
