"""Exceptions raised by the engine; each message says what was wrong and what is allowed."""

from __future__ import annotations


class ItalianPokerError(Exception):
    """Base class of every error the engine raises."""


class CardError(ItalianPokerError, ValueError):
    """Bad cards: unreadable, repeated, outside the deck, or the wrong number of them."""


class CardParseError(CardError):
    """Text that does not spell cards."""


class DuplicateCardError(CardError):
    """The same card given twice where distinct cards are required."""


class CardNotInDeckError(CardError):
    """A card below the lowest rank of the stripped deck in use."""


class HandSizeError(CardError):
    """A hand without exactly five cards."""


class PlayerCountError(ItalianPokerError, ValueError):
    """A number of players outside 2..9."""


class RulesError(ItalianPokerError, ValueError):
    """An invalid or contradictory rules configuration."""
