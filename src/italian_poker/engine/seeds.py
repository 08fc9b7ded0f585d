"""Seeds for reproducible play: one seed, many independent random streams.

Live play shuffles with the operating system's secure source (:mod:`secrets`); a seed is given
only to reproduce play (tests, replays, simulations). One seed then feeds several streams: each
deal's shuffle, its reshuffles (4.3), each bot. :func:`derive_seed` gives each stream its own
seed by hashing the parent seed with the stream's name, so no two streams share numbers (as
``seed + 1`` for the reshuffles of one deal and the shuffle of the next once did).
"""

from __future__ import annotations

from hashlib import blake2b


def derive_seed(seed: int, *path: str | int) -> int:
    """A 63-bit seed for the stream named ``path`` under ``seed``, e.g.
    ``derive_seed(7, "deal", 3)``; the same arguments always give the same seed."""
    text = ":".join(str(part) for part in (seed, *path))
    digest = blake2b(text.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1
