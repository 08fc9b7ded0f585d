"""The desk's models: the lock, the co-host, the caps on chip requests, chip and seat
requests and their answers (server/home_desk.py)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from italian_poker.server.limits import Chips, PositiveCount, SeatNumber
from italian_poker.server.schemas.base import Model


class LockSetting(Model):
    """``POST /api/tables/{invite}/lock``."""

    locked: bool = Field(strict=True)
    """Whether newcomers wait for the host's (or the co-host's) answer."""


class CoHostSetting(Model):
    """``POST /api/tables/{invite}/co-host``."""

    seat: SeatNumber | None
    """The seat of the co-host (a seated person, not a bot); null: nobody."""


class ChipCapsSetting(Model):
    """``POST /api/tables/{invite}/chip-caps``: the caps on chip requests."""

    minimum: Chips = 1
    """The fewest chips one request asks for."""
    maximum: Chips | None = None
    """The most chips one request asks for (null: no maximum)."""
    times: PositiveCount | None = None
    """How many requests a player may have approved (null: no limit)."""
    until_level: PositiveCount | None = None
    """Requests are refused once this level of the schedule begins (null, or no schedule:
    never)."""
    during_deal: bool = Field(default=True, strict=True)
    """Whether a player may ask while a deal is under way (the chips come once it is
    over)."""


class AskChips(Model):
    """``POST /api/tables/{invite}/chip-requests``."""

    chips: Chips


class ChipAnswer(Model):
    """``POST /api/tables/{invite}/chip-requests/{request}/answer``."""

    approve: bool = Field(strict=True)


class SeatAnswer(Model):
    """``POST /api/tables/{invite}/seat-requests/{player}/answer``."""

    admit: bool = Field(strict=True)


class ChipRequestView(Model):
    """A chip request waiting for an answer."""

    request: int
    seat: int
    name: str
    chips: int
    kind: Literal["rebuy", "top_up", "re_entry"]


class SeatAskView(Model):
    """A newcomer waiting for a seat: their id (answer with it) and nickname."""

    player: int
    name: str


class ChipAnswerView(Model):
    """The last answer to a seat's chip request."""

    approved: bool
    chips: int


class DeskView(Model):
    """The desk as the table sees it (the table's ``state`` carries it too, as ``desk``)."""

    locked: bool
    co_host: int | None
    """The co-host's seat."""
    caps: ChipCapsSetting
    chips: list[ChipRequestView]
    seats: list[SeatAskView]
    answers: dict[str, ChipAnswerView]
    """By seat: the last answer to its chip request."""

    @classmethod
    def of(cls, desk: dict[str, Any]) -> DeskView:
        """The view of the desk's JSON (``HomeDesk.as_json``)."""
        return cls.model_validate(desk)


class SeatRequestStatus(Model):
    """``GET /api/tables/{invite}/seat-request``: where the token holder's seat request
    stands: ``waiting``, ``admitted`` (``seat``: theirs; connect with the token) or
    ``refused``."""

    status: Literal["waiting", "admitted", "refused"]
    nickname: str
    seat: int | None
