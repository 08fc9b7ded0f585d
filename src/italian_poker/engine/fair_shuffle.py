"""The provably fair shuffle: a committed seed, the players' values, one HMAC-SHA256 stream,
Fisher-Yates (docs/fairness.md gives every byte).

- The commitment is ``SHA-256(COMMIT_LABEL || seed)``, published before the players give
  their values; the seed is 32 bytes from :mod:`secrets`.
- The stream's block ``i`` is ``HMAC-SHA256(key=seed, STREAM_LABEL || u64(deal) ||
  u32(count) || (u32(len(value)) || value)... || u64(i))``, all integers unsigned big-endian;
  the blocks, concatenated, are read four bytes at a time.
- :meth:`FairStream.below` draws an integer below ``n`` by rejection sampling (no modulo
  bias); :func:`fisher_yates` shuffles with it (Durstenfeld: from the last position down).
- The cards are shuffled from their canonical order (:func:`canonical_order`: rank up, then
  spades, clubs, diamonds, hearts, as ``Card.index`` numbers them).

Pure: nothing here does I/O except :func:`new_seed` and :func:`new_value`, which read
:mod:`secrets`.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import struct
import unicodedata
from collections.abc import Iterable, Sequence
from typing import TypeVar

from italian_poker.engine.cards import Card
from italian_poker.engine.errors import CardSourceError

__all__ = [
    "COMMIT_LABEL",
    "MAX_VALUE_SIZE",
    "SCHEME",
    "SEED_SIZE",
    "STREAM_LABEL",
    "VALUE_SIZE",
    "FairStream",
    "canonical_order",
    "check_seed",
    "check_values",
    "commitment",
    "fisher_yates",
    "new_seed",
    "new_value",
    "stream_message",
    "text_value",
]

SCHEME = "italian-poker-fair-deck-v1"
"""The name of this protocol in hand histories and reveal files."""
COMMIT_LABEL = b"italian-poker fair deck v1 commit"
"""Prefix of the hashed commitment (33 ASCII bytes)."""
STREAM_LABEL = b"italian-poker fair deck v1 stream"
"""Prefix of every HMAC message of the stream (33 ASCII bytes)."""
SEED_SIZE = 32
"""Bytes of a seed."""
VALUE_SIZE = 16
"""Bytes of a player's random value (:func:`new_value`)."""
MAX_VALUE_SIZE = 1024
"""The most bytes a player's value may have (a typed text included)."""

_U32 = struct.Struct(">I")
_U64 = struct.Struct(">Q")
_TWO_32 = 1 << 32
_T = TypeVar("_T")


def new_seed() -> bytes:
    """A fresh secret seed: 32 bytes from :mod:`secrets`."""
    return secrets.token_bytes(SEED_SIZE)


def new_value() -> bytes:
    """A player's fresh random value: 16 bytes from :mod:`secrets`."""
    return secrets.token_bytes(VALUE_SIZE)


def text_value(text: str) -> bytes:
    """A text a player types, as a value: its UTF-8 bytes after Unicode NFC normalization
    (so the same text typed on any keyboard is the same value)."""
    return check_value(unicodedata.normalize("NFC", text).encode("utf-8"))


def check_seed(seed: bytes) -> bytes:
    """``seed`` if it is 32 bytes, else raise :class:`CardSourceError`."""
    if type(seed) is not bytes or len(seed) != SEED_SIZE:
        raise CardSourceError(f"a fair deck's seed is {SEED_SIZE} bytes, not {seed!r}")
    return seed


def check_value(value: bytes) -> bytes:
    """``value`` if it is bytes of at most :data:`MAX_VALUE_SIZE`, else raise
    :class:`CardSourceError`."""
    if type(value) is not bytes or len(value) > MAX_VALUE_SIZE:
        raise CardSourceError(f"a player's value is bytes, at most {MAX_VALUE_SIZE} of them")
    return value


def check_values(values: Iterable[bytes]) -> tuple[bytes, ...]:
    """The players' values as a tuple, each checked (:func:`check_value`)."""
    return tuple(check_value(v) for v in values)


def commitment(seed: bytes) -> bytes:
    """The commitment to ``seed``: ``SHA-256(COMMIT_LABEL || seed)``, 32 bytes."""
    return hashlib.sha256(COMMIT_LABEL + check_seed(seed)).digest()


def stream_message(deal: int, values: Sequence[bytes]) -> bytes:
    """The part of every HMAC message before the counter: ``STREAM_LABEL || u64(deal) ||
    u32(len(values))`` then ``u32(len(value)) || value`` for each value in seat order."""
    if type(deal) is not int or not 0 <= deal < 1 << 64:
        raise CardSourceError(f"a deal number is a whole number of 0 or more, not {deal!r}")
    parts = [STREAM_LABEL, _U64.pack(deal), _U32.pack(len(values))]
    for value in check_values(values):
        parts += [_U32.pack(len(value)), value]
    return b"".join(parts)


class FairStream:
    """The deal's random stream: HMAC-SHA256 blocks keyed by the seed over the message
    (:func:`stream_message`) and a 64-bit counter from 0, read four bytes at a time."""

    __slots__ = ("_buffer", "_counter", "_mac", "_position")

    def __init__(self, seed: bytes, deal: int, values: Sequence[bytes]) -> None:
        self._mac = hmac.new(check_seed(seed), stream_message(deal, values), hashlib.sha256)
        self._counter = 0
        self._buffer = b""
        self._position = 0

    def __deepcopy__(self, memo: object) -> FairStream:
        """A copy at the same point of the stream (an HMAC object is copied, not pickled)."""
        copy = FairStream.__new__(FairStream)
        copy._mac = self._mac.copy()
        copy._counter, copy._buffer, copy._position = self._counter, self._buffer, self._position
        return copy

    def block(self) -> bytes:
        """The next 32-byte block (the counter goes up by one)."""
        mac = self._mac.copy()
        mac.update(_U64.pack(self._counter))
        self._counter += 1
        return mac.digest()

    def word(self) -> int:
        """The next four bytes of the stream as an unsigned big-endian integer."""
        position = self._position
        if position + 4 > len(self._buffer):
            self._buffer, position = self.block(), 0
        self._position = position + 4
        value: int = _U32.unpack_from(self._buffer, position)[0]
        return value

    def below(self, n: int) -> int:
        """An integer from 0 to ``n - 1``, each equally likely: a word ``x`` is kept when
        ``x < 2**32 - (2**32 mod n)`` and gives ``x mod n``; otherwise the next word is read."""
        if not 1 <= n <= _TWO_32:
            raise CardSourceError(f"cannot draw below {n}")
        limit = _TWO_32 - _TWO_32 % n
        while True:
            x = self.word()
            if x < limit:
                return x % n


def fisher_yates(items: Sequence[_T], stream: FairStream) -> list[_T]:
    """``items`` shuffled: for ``i`` from the last position down to 1, swap position ``i``
    with position ``stream.below(i + 1)``. Position 0 of the result is dealt first."""
    shuffled = list(items)
    for i in range(len(shuffled) - 1, 0, -1):
        j = stream.below(i + 1)
        shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
    return shuffled


def canonical_order(cards: Iterable[Card]) -> list[Card]:
    """``cards`` in canonical order: by rank from the lowest, each rank's spades, clubs,
    diamonds, hearts (``Card.index`` order: 9s 9c 9d 9h Ts ... Ah)."""
    return sorted(cards, key=_index)


def _index(card: Card) -> int:
    return card.index
