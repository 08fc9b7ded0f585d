"""The deck stripped by the number of players (RULES.md section 1)."""

from __future__ import annotations

import _random
import random
import secrets
import struct
from dataclasses import dataclass
from functools import cache
from operator import itemgetter

from italian_poker.engine.cards import ALL_CARDS, Card, Rank
from italian_poker.engine.errors import CardNotInDeckError, PlayerCountError

MIN_PLAYERS = 2
"""Section 1: the fewest players at a table."""
MAX_PLAYERS = 9
"""Section 1: the most players at a table (the deck runs from the 2 up at nine)."""
HAND_SIZE = 5
"""3.1: five cards each."""


def check_players(players: int) -> int:
    """Return ``players`` if it is 2..9, else raise :class:`PlayerCountError`."""
    if isinstance(players, bool) or not isinstance(players, int):
        raise PlayerCountError(f"the number of players must be a whole number, got {players!r}")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise PlayerCountError(
            f"Italian Poker is for {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players}"
        )
    return players


def lowest_rank(players: int) -> Rank:
    """The lowest rank in the deck: 11 minus the number of players (section 1)."""
    return Rank(11 - check_players(players))


# Read as every deal begins: an enum made by value (``Rank(7)``) costs about a microsecond.
_LOWEST_RANKS = {p: Rank(11 - p) for p in range(MIN_PLAYERS, MAX_PLAYERS + 1)}
_DECK_CARDS = {p: ALL_CARDS[4 * (_LOWEST_RANKS[p] - 2) :] for p in _LOWEST_RANKS}


@dataclass(frozen=True, slots=True)
class Deck:
    """The stripped deck for a number of players: ranks from ``11 - players`` up to the ace.

    2 players: 9..A (24 cards); 4 players: 7..A (32); 6 players: 5..A (40); 9 players: 52.
    """

    players: int

    def __post_init__(self) -> None:
        check_players(self.players)

    @property
    def lowest_rank(self) -> Rank:
        """The lowest rank in this deck; a low ace sits just below it."""
        return _LOWEST_RANKS[self.players]

    @property
    def ranks(self) -> tuple[Rank, ...]:
        """The ranks in this deck, lowest first."""
        return tuple(Rank(r) for r in range(self.lowest_rank, Rank.ACE + 1))

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards of this deck in index order."""
        return _DECK_CARDS[self.players]

    def __len__(self) -> int:
        return 4 * (15 - self.lowest_rank)

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and card.rank >= self.lowest_rank

    def check(self, card: Card) -> Card:
        """Return ``card`` if it belongs to this deck, else raise :class:`CardNotInDeckError`."""
        if card.rank < self.lowest_rank:
            raise CardNotInDeckError(
                f"{card} is not in the {len(self)}-card deck for {self.players} players "
                f"(lowest rank {self.lowest_rank.label})"
            )
        return card

    def shuffled(self, *, seed: int | None = None) -> tuple[Card, ...]:
        """The cards in random order: cryptographically secure unless a ``seed`` is given.

        Each card gets an independent 64-bit random key (from :mod:`secrets`, or from
        :class:`random.Random` seeded with ``seed``) and the deck is sorted by key: a uniform
        permutation, with one call to the random source per shuffle.
        """
        cards = self.cards
        size = len(cards)
        if seed is None:
            keys = _keys_format(">", size).unpack(secrets.token_bytes(8 * size))
        else:
            # One call for all the keys: the same 64-bit keys, in the same order, as
            # ``getrandbits(64)`` card by card (the words come least significant first).
            # An int seeds the C generator under random.Random directly, as random.Random
            # itself does (its seed() hands ints straight to it), without the Python layer.
            source = _random.Random(seed) if type(seed) is int else random.Random(seed)
            bits = source.getrandbits(64 * size)
            keys = _keys_format("<", size).unpack(bits.to_bytes(8 * size, "little"))
        return tuple([card for _, card in sorted(zip(keys, cards, strict=True), key=_KEY)])


_KEY = itemgetter(0)


@cache
def _keys_format(order: str, size: int) -> struct.Struct:
    """``size`` unsigned 64-bit keys, big-endian (``">"``) or little-endian (``"<"``)."""
    return struct.Struct(f"{order}{size}Q")


@cache
def stripped_deck(players: int) -> Deck:
    """The :class:`Deck` for ``players`` players, made once and shared."""
    return Deck(players)
