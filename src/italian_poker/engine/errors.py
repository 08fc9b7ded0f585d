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


class IllegalActionError(ItalianPokerError):
    """An action the rules do not allow now; the state is left exactly as it was."""


class MalformedActionError(IllegalActionError):
    """Something that is not a well-formed action: not an :class:`Action`, an unknown kind,
    discards that are not cards (a badly typed amount raises :class:`InvalidAmountError`)."""


class NotYourTurnError(IllegalActionError):
    """An action by a seat that is not the one to act."""


class ActionNotAvailableError(IllegalActionError):
    """An action of a kind not available to the seat at this point (e.g. parol after a check)."""


class InvalidAmountError(IllegalActionError):
    """A bet, raise or opening amount outside the allowed range."""


class OpeningRequirementError(IllegalActionError):
    """An attempt to open without the hand the requirement in force asks for (3.3)."""


class InvalidDrawError(IllegalActionError):
    """A draw of more than four cards, of cards not in hand, or an unannounced split opening."""


class SplitError(InvalidDrawError):
    """A split of openers (4.4) announced by a player who is not the opener, or with a draw
    that does not break the opening."""


class CardsNotAvailableError(IllegalActionError):
    """Cards given to a deal that are not the cards due: none are due, a different number, a
    card twice, or a card the rules do not allow now (engine/card_source.py)."""


class CardSourceError(ItalianPokerError):
    """A card source that cannot serve the cards due: recorded cards that are not available
    now (a replay that does not follow its record), stacked cards used up, a bad seed."""


class DealOverError(IllegalActionError):
    """An action after the deal has ended."""


class SeatError(ItalianPokerError, ValueError):
    """A bad seating change: unknown name, duplicate name, full table, bad stack."""


class DealStartError(SeatError):
    """A :class:`~italian_poker.engine.deal.DealStart` value that is not allowed: names, stacks,
    chips carried or make-ups that are not whole numbers of chips (0 or more), a dealer
    outside the table."""


class SeatNumberError(IllegalActionError, SeatError):
    """A seat that is not a seat number of the deal: an ``int`` from 0 to the number of players
    less one (a bool, a float or text is not a seat). Given with an action, it is refused as
    any illegal action is, the state unchanged."""
