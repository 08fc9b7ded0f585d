"""Chip requests: a seated player asks the host for chips, within the caps the host sets.

A player with a seat (or one who busted and keeps it) asks for chips (:class:`AskChips
<italian_poker.table.commands.AskChips>`): a *rebuy* when they have fewer chips than it
takes to be dealt in, else a *top-up*; in a sit and go, a *re-entry*: only a busted player
asks, for exactly the starting chips, while the format's re-entry window is open. The host
(or the co-host, :mod:`~italian_poker.table.admission`) approves or refuses it; an approved
request adds the chips as :class:`~italian_poker.table.commands.AddChips` does, between
deals (chips never change during a deal). :class:`ChipCaps` bound the requests: the fewest
and the most chips one asks for, how many a player may have approved, the level of a
schedule from which they are refused, and whether one may be asked while a deal is under
way. Every refusal is a :class:`ChipRequestError` that says what to ask instead, and changes
nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from italian_poker.engine.errors import SeatError

__all__ = [
    "BadCapsError",
    "ChipCaps",
    "ChipDesk",
    "ChipRequest",
    "ChipRequestError",
    "ChipsAboveMaximumError",
    "ChipsBelowMinimumError",
    "NotBustedError",
    "PastLevelError",
    "ReEntryChipsError",
    "RequestDuringDealError",
    "RequestKind",
    "RequestPendingError",
    "TooManyRequestsError",
    "UnknownRequestError",
]


class ChipRequestError(SeatError):
    """A chip request, or an answer to one, that the caps or the table do not allow."""


class ChipsBelowMinimumError(ChipRequestError):
    """Fewer chips asked for than the host's minimum: ask for at least the minimum."""


class ChipsAboveMaximumError(ChipRequestError):
    """More chips asked for than the host's maximum: ask for at most the maximum."""


class TooManyRequestsError(ChipRequestError):
    """A player who has had as many requests approved as the host allows (those waiting
    count): no more chips this session."""


class PastLevelError(ChipRequestError):
    """A request once the schedule's level the host named has begun."""


class RequestDuringDealError(ChipRequestError):
    """A request while a deal is under way, at a table whose host takes them only between
    deals: ask once the deal is over."""


class RequestPendingError(ChipRequestError):
    """A second request from a player whose first still waits for the host's answer."""


class NotBustedError(ChipRequestError):
    """A request in a sit and go from a player who has not busted out: chips change there
    only in play, and only a busted player asks, to re-enter."""


class ReEntryChipsError(ChipRequestError):
    """A re-entry request for other chips than the sit and go's starting chips."""


class UnknownRequestError(ChipRequestError):
    """An answer to a request that is not waiting (never asked, or answered already)."""


class BadCapsError(ChipRequestError):
    """Caps that contradict themselves or are not whole numbers."""


class RequestKind(StrEnum):
    """What a request is: chips to be dealt in again, or more chips on a stack."""

    REBUY = "rebuy"
    """The player has fewer chips than it takes to be dealt in (or busted)."""
    TOP_UP = "top_up"
    """The player has chips enough to be dealt in and wants more."""
    RE_ENTRY = "re_entry"
    """The player busted out of a sit and go and asks to re-enter with the starting chips."""


@dataclass(frozen=True, slots=True)
class ChipCaps:
    """The host's caps on chip requests: each asks for ``minimum`` to ``maximum`` chips
    (None: no maximum); a player has at most ``times`` approved (None: no limit); requests
    are refused once level ``until_level`` of the schedule begins (None, or a table without
    a schedule: never); ``during_deal`` lets a player ask while a deal is under way (the
    chips come once it is over)."""

    minimum: int = 1
    maximum: int | None = None
    times: int | None = None
    until_level: int | None = None
    during_deal: bool = True

    def __post_init__(self) -> None:
        for name in ("minimum", "maximum", "times", "until_level"):
            value = getattr(self, name)
            if value is not None and (type(value) is not int or value < 1):
                raise BadCapsError(f"{name} is a whole number, 1 or more, not {value!r}")
        if type(self.minimum) is not int:
            raise BadCapsError(f"minimum is a whole number, not {self.minimum!r}")
        if self.maximum is not None and self.maximum < self.minimum:
            raise BadCapsError(
                f"the maximum ({self.maximum}) is below the minimum ({self.minimum})"
            )
        if not isinstance(self.during_deal, bool):
            raise BadCapsError(f"during_deal is true or false, not {self.during_deal!r}")


@dataclass(frozen=True, slots=True)
class ChipRequest:
    """Request ``number`` (1 for the table's first): ``player`` asks for ``chips``, a
    ``kind`` of request."""

    number: int
    player: int
    chips: int
    kind: RequestKind


@dataclass(slots=True)
class ChipDesk:
    """A table's chip requests: the ``caps``, the requests ``pending`` (by number, in the
    order asked) and how many each player has had ``approved``."""

    caps: ChipCaps = ChipCaps()
    pending: dict[int, ChipRequest] = field(default_factory=dict)
    approved: dict[int, int] = field(default_factory=dict)
    asked: int = 0
    """Requests asked so far (the last request's number)."""

    def check_ask(
        self,
        player: int,
        chips: object,
        *,
        level: int | None,
        dealing: bool,
        re_entry: int | None = None,
    ) -> None:
        """Refuse ``player``'s request for ``chips`` at level ``level`` (None: no schedule),
        ``dealing`` or not; ``re_entry``: the starting chips a sit and go's re-entry asks
        for, exactly (the minimum and maximum do not apply)."""
        caps = self.caps
        if re_entry is not None:
            if chips != re_entry or type(chips) is not int:
                raise ReEntryChipsError(
                    f"a re-entry is the starting chips: ask for {re_entry} chips, not {chips!r}"
                )
        elif type(chips) is not int or chips < 1:
            raise ChipsBelowMinimumError(f"ask for a whole number of chips, not {chips!r}")
        elif chips < caps.minimum:
            raise ChipsBelowMinimumError(f"ask for at least {caps.minimum} chips, not {chips}")
        elif caps.maximum is not None and chips > caps.maximum:
            raise ChipsAboveMaximumError(f"ask for at most {caps.maximum} chips, not {chips}")
        if any(r.player == player for r in self.pending.values()):
            raise RequestPendingError("your last request waits for the host's answer")
        if caps.times is not None and self.approved.get(player, 0) >= caps.times:
            raise TooManyRequestsError(
                f"the host allows {caps.times} approved request(s) a player: you have had them"
            )
        if caps.until_level is not None and level is not None and level >= caps.until_level:
            raise PastLevelError(
                f"requests close when level {caps.until_level} begins: this is level {level}"
            )
        if dealing and not caps.during_deal:
            raise RequestDuringDealError("ask between deals: the host takes no request mid-deal")

    def ask(self, player: int, chips: int, kind: RequestKind) -> ChipRequest:
        """Record a (checked) request."""
        self.asked += 1
        request = ChipRequest(self.asked, player, chips, kind)
        self.pending[request.number] = request
        return request

    def waiting(self, number: object) -> ChipRequest:
        """The pending request ``number``; :class:`UnknownRequestError` if none."""
        request = self.pending.get(number) if type(number) is int else None
        if request is None:
            raise UnknownRequestError(f"no chip request {number!r} waits for an answer")
        return request

    def answer(self, number: int, approve: bool) -> ChipRequest:
        """Close (checked) request ``number``, counting it for its player if ``approve``."""
        request = self.pending.pop(number)
        if approve:
            self.approved[request.player] = self.approved.get(request.player, 0) + 1
        return request

    def drop(self, player: int) -> list[ChipRequest]:
        """Drop ``player``'s pending requests (they left the table)."""
        gone = [r for r in self.pending.values() if r.player == player]
        for request in gone:
            del self.pending[request.number]
        return gone
