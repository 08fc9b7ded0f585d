"""Match formats: how long a table plays and what its antes do, chosen when it is made.

A :class:`MatchFormat` is *cash* (the default: players join, leave and rebuy at will and the
match never ends by itself), *fixed length* (a number of deals or of minutes, then the
standings) or *sit and go* (everyone starts with the same chips, no rebuys, busted players
are out, unless the host approves their re-entry while the re-entry window is open
(:mod:`~italian_poker.table.chip_requests`), and the match ends when one
player is left, with places and, if set, shares of a prize pool of play chips). A
:class:`Schedule` of :class:`Level` records raises the ante (000 Art. 1: agreed before play)
and the bet limits with it every so many deals or minutes; :data:`SCHEDULES` holds the presets and
:func:`parse_schedule` reads a custom one. Everything here is data and pure functions: the
table machine (:mod:`italian_poker.table.machine`) applies them between deals.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from italian_poker.engine.errors import DealStartError, RulesError, SeatError
from italian_poker.engine.rules import BettingStructure, Rules


class FormatError(RulesError):
    """A match format or ante schedule that cannot be played: a level without deals, a
    negative ante, bet limits the rules refuse, prize shares that do not add up."""


class MatchFinishedError(SeatError):
    """The match format says the match is over: no deal can start, no seat can change."""


class FormatSeatError(SeatError):
    """A seating change the match format does not allow (a sit and go: another stack than the
    starting chips, a rebuy, a seat taken once the first deal has begun)."""


class ReEntryClosedError(FormatSeatError):
    """A busted player asks to re-enter a sit and go that has no re-entry, or whose re-entry
    window has closed."""


class ClockNeededError(FormatError, DealStartError):
    """A deal of a match timed in minutes starts without the time (``StartDeal.now``), or
    with a time before the last one."""


class FormatKind(StrEnum):
    """The kinds of match."""

    CASH = "cash"
    """Join, leave and rebuy at will; the match never ends by itself."""
    FIXED = "fixed"
    """A number of deals or of minutes, then the standings."""
    SIT_AND_GO = "sit-and-go"
    """Same starting chips, rising antes, busted players out, one winner."""


@dataclass(frozen=True, slots=True)
class Level:
    """One level of a schedule: the ``ante``, the smallest and largest bet (``min_bet``,
    ``max_bet``: the spread limits, or the fixed limit's first- and second-round bets), for
    ``deals`` deals or, with ``minutes`` (``deals`` 0), until the first deal that starts
    ``minutes`` minutes or more after the level began (the last level of a schedule lasts
    until the match ends)."""

    ante: int
    min_bet: int
    max_bet: int
    deals: int = 0
    minutes: int = 0

    def __post_init__(self) -> None:
        for name in ("ante", "min_bet", "max_bet", "deals", "minutes"):
            value = getattr(self, name)
            if type(value) is not int:
                raise FormatError(f"a level's {name} is a whole number, not {value!r}")
        if self.ante < 0:
            raise FormatError(f"a level's ante cannot be negative, got {self.ante}")
        if self.min_bet < 1 or self.max_bet < self.min_bet:
            raise FormatError(
                f"a level's bets run from 1 chip up: min {self.min_bet}, max {self.max_bet}"
            )
        if self.minutes < 0:
            raise FormatError(f"a level's minutes cannot be negative, got {self.minutes}")
        if self.minutes and self.deals:
            raise FormatError("a level lasts a number of deals or of minutes, not both")
        if self.deals < 1 and not self.minutes:
            raise FormatError(f"a level lasts at least one deal, got {self.deals}")

    @property
    def timed(self) -> bool:
        """Whether the level lasts minutes rather than deals."""
        return self.minutes > 0

    def to_dict(self) -> dict[str, int]:
        """The level as JSON data (:meth:`from_dict` reads it back)."""
        return {
            "ante": self.ante,
            "min_bet": self.min_bet,
            "max_bet": self.max_bet,
            "deals": self.deals,
            "minutes": self.minutes,
        }

    @classmethod
    def from_dict(cls, data: dict[str, int]) -> Level:
        """A level from :meth:`to_dict`'s data."""
        try:
            return cls(
                data["ante"],
                data["min_bet"],
                data["max_bet"],
                data.get("deals", 0),
                data.get("minutes", 0),
            )
        except (KeyError, TypeError):
            raise FormatError(f"not a level: {data!r}") from None

    def rules(self, base: Rules) -> Rules:
        """``base`` with this level's ante and bet limits (the derived opening bet, blinds
        and limits follow from them, 000 Art. 1-2)."""
        changes: dict[str, int] = {"ante": self.ante}
        if base.structure is BettingStructure.FIXED_LIMIT:
            changes |= {"small_bet": self.min_bet, "big_bet": self.max_bet}
        elif base.structure is BettingStructure.SPREAD_LIMIT:
            changes |= {"min_bet": self.min_bet, "max_bet": self.max_bet}
        else:
            changes |= {"min_bet": self.min_bet}
        try:
            return base.with_options(**changes)
        except RulesError as error:
            raise FormatError(f"level {self} under rules {base.name!r}: {error}") from None


@dataclass(frozen=True, slots=True)
class Schedule:
    """The ``levels`` a match plays through, in order, under a ``name``."""

    name: str
    levels: tuple[Level, ...]

    def __post_init__(self) -> None:
        if not self.levels or not all(isinstance(level, Level) for level in self.levels):
            raise FormatError(f"a schedule is one level or more, not {self.levels!r}")

    @property
    def timed(self) -> bool:
        """Whether a level lasts minutes (the match needs the time of each deal start)."""
        return any(level.timed for level in self.levels)

    def level_index(self, deal: int) -> int:
        """The index of the level deal number ``deal`` (1 for the first) is played at, all
        levels counted in deals (a level in minutes as one deal)."""
        end = 0
        for index, level in enumerate(self.levels):
            end += level.deals or 1
            if deal <= end:
                return index
        return len(self.levels) - 1

    def first_deal(self, index: int) -> int:
        """The number of the first deal played at level ``index``."""
        return 1 + sum(level.deals or 1 for level in self.levels[:index])

    def to_dict(self) -> dict[str, object]:
        """The schedule as JSON data (:meth:`from_dict` reads it back)."""
        return {"name": self.name, "levels": [level.to_dict() for level in self.levels]}

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Schedule:
        """A schedule from :meth:`to_dict`'s data."""
        levels = data.get("levels")
        if not isinstance(levels, list):
            raise FormatError(f"not a schedule: {data!r}")
        return cls(str(data.get("name", "custom")), tuple(Level.from_dict(v) for v in levels))


def _rising(name: str, deals: int) -> Schedule:
    antes = (1, 2, 3, 5, 8, 10, 15, 20, 30, 50)
    return Schedule(name, tuple(Level(a, a, 10 * a, deals) for a in antes))


SCHEDULES: dict[str, Schedule] = {
    "turbo": _rising("turbo", 3),
    "standard": _rising("standard", 6),
    "slow": _rising("slow", 10),
}
"""The preset schedules: antes 1, 2, 3, 5, 8, 10, 15, 20, 30, 50 with bets from the ante to ten
antes, rising every 3 (``turbo``), 6 (``standard``) or 10 (``slow``) deals."""


def parse_schedule(text: str) -> Schedule:
    """A preset's name, or a custom schedule written ``ANTExDEALS`` or
    ``ANTE/MIN/MAXxDEALS`` for each level, separated by commas (``1x4,2x4,4x4``; without
    limits, bets run from the ante to ten antes); ``DEALS`` followed by ``m`` is minutes
    (``1x10m,2x10m``)."""
    if text in SCHEDULES:
        return SCHEDULES[text]
    levels: list[Level] = []
    for part in text.replace(" ", "").split(","):
        stakes, times, deals = part.partition("x")
        numbers = stakes.split("/")
        if not times or len(numbers) not in (1, 3):
            raise FormatError(
                f"a level is ANTExDEALS or ANTE/MIN/MAXxDEALS, not {part!r} (presets: "
                f"{', '.join(SCHEDULES)})"
            )
        timed = deals.endswith("m")
        try:
            values = [int(n) for n in numbers]
            length = int(deals[:-1] if timed else deals)
        except ValueError:
            raise FormatError(f"a level is written in whole numbers, not {part!r}") from None
        ante, low, high = (values[0], max(values[0], 1), 10 * max(values[0], 1))
        if len(values) == 3:
            low, high = values[1], values[2]
        if timed:
            if length < 1:
                raise FormatError(f"a level lasts at least one minute, not {part!r}")
            levels.append(Level(ante, low, high, minutes=length))
        else:
            levels.append(Level(ante, low, high, length))
    return Schedule("custom", tuple(levels))


@dataclass(frozen=True, slots=True)
class MatchFormat:
    """How a match is played: its ``kind``; the number of ``deals`` or of ``minutes`` of a
    fixed-length match (one of them); the ante ``schedule`` (a sit and go needs one, a
    fixed-length match may have one); the ``starting_chips`` every player of a sit and go
    sits down with; the ``prize_pool`` of play chips shared by ``shares`` (percentages, first
    place first, adding up to 100); and the re-entry window of a sit and go: a busted player
    may re-enter with the starting chips while the level in force is ``re_entry_levels`` or
    lower, or while fewer than ``re_entry_deals`` deals are over (0: no re-entry)."""

    kind: FormatKind = FormatKind.CASH
    deals: int | None = None
    schedule: Schedule | None = None
    starting_chips: int | None = None
    prize_pool: int = 0
    shares: tuple[int, ...] = ()
    minutes: int | None = None
    re_entry_levels: int = 0
    re_entry_deals: int = 0

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "kind", FormatKind(self.kind))
        except ValueError:
            kinds = ", ".join(k.value for k in FormatKind)
            raise FormatError(f"a format is one of {kinds}, not {self.kind!r}") from None
        fixed = self.kind is FormatKind.FIXED
        sit_and_go = self.kind is FormatKind.SIT_AND_GO
        if fixed != (self.deals is not None or self.minutes is not None):
            raise FormatError(
                "a fixed-length match, and only one, has a number of deals or of minutes"
            )
        if self.deals is not None and self.minutes is not None:
            raise FormatError(
                "a fixed-length match lasts a number of deals or of minutes, not both"
            )
        if self.deals is not None and (type(self.deals) is not int or self.deals < 1):
            raise FormatError(f"a fixed-length match lasts at least one deal, not {self.deals!r}")
        if self.minutes is not None and (type(self.minutes) is not int or self.minutes < 1):
            raise FormatError(
                f"a fixed-length match lasts at least one minute, not {self.minutes!r}"
            )
        for name in ("re_entry_levels", "re_entry_deals"):
            value = getattr(self, name)
            if type(value) is not int or value < 0:
                raise FormatError(f"a re-entry window is 0 or more, not {value!r}")
        if self.re_entry_levels and self.re_entry_deals:
            raise FormatError(
                "a re-entry window closes after a level or a number of deals, not both"
            )
        if (self.re_entry_levels or self.re_entry_deals) and not sit_and_go:
            raise FormatError("only a sit and go has re-entries (the other formats rebuy)")
        if self.kind is FormatKind.CASH and self.schedule is not None:
            raise FormatError("a cash game keeps its antes: it has no schedule")
        if sit_and_go and (self.schedule is None or self.starting_chips is None):
            raise FormatError("a sit and go needs a schedule and the starting chips")
        if not sit_and_go and self.starting_chips is not None:
            raise FormatError("only a sit and go sets the starting chips")
        if self.starting_chips is not None and (
            type(self.starting_chips) is not int or self.starting_chips < 1
        ):
            raise FormatError(f"the starting chips are 1 or more, not {self.starting_chips!r}")
        if type(self.prize_pool) is not int or self.prize_pool < 0:
            raise FormatError(f"a prize pool is 0 chips or more, not {self.prize_pool!r}")
        if self.shares or self.prize_pool:
            if not sit_and_go:
                raise FormatError("only a sit and go shares a prize pool")
            if (
                not self.shares
                or any(type(s) is not int or s < 1 for s in self.shares)
                or sum(self.shares) != 100
            ):
                raise FormatError(
                    f"prize shares are percentages of 1 or more adding up to 100, "
                    f"not {self.shares!r}"
                )

    @classmethod
    def fixed(
        cls,
        deals: int | None = None,
        schedule: Schedule | None = None,
        *,
        minutes: int | None = None,
    ) -> MatchFormat:
        """A fixed-length match of ``deals`` deals, or of ``minutes`` minutes."""
        return cls(FormatKind.FIXED, deals=deals, schedule=schedule, minutes=minutes)

    @property
    def timed(self) -> bool:
        """Whether the match needs the time of each deal start: a length or a level in
        minutes."""
        return self.minutes is not None or (self.schedule is not None and self.schedule.timed)

    @property
    def re_entry(self) -> bool:
        """Whether busted players may re-enter (a sit and go with a re-entry window)."""
        return bool(self.re_entry_levels or self.re_entry_deals)

    def to_dict(self) -> dict[str, object]:
        """The format as JSON data (:meth:`from_dict` reads it back)."""
        return {
            "kind": self.kind.value,
            "deals": self.deals,
            "minutes": self.minutes,
            "schedule": None if self.schedule is None else self.schedule.to_dict(),
            "starting_chips": self.starting_chips,
            "prize_pool": self.prize_pool,
            "shares": list(self.shares),
            "re_entry_levels": self.re_entry_levels,
            "re_entry_deals": self.re_entry_deals,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchFormat:
        """A format from :meth:`to_dict`'s data."""
        schedule = data.get("schedule")
        return cls(
            FormatKind(data.get("kind", "cash")),
            deals=data.get("deals"),
            schedule=None if schedule is None else Schedule.from_dict(schedule),
            starting_chips=data.get("starting_chips"),
            prize_pool=data.get("prize_pool", 0),
            shares=tuple(data.get("shares", ())),
            minutes=data.get("minutes"),
            re_entry_levels=data.get("re_entry_levels", 0),
            re_entry_deals=data.get("re_entry_deals", 0),
        )

    @classmethod
    def sit_and_go(
        cls,
        starting_chips: int,
        schedule: Schedule = SCHEDULES["standard"],
        *,
        prize_pool: int = 0,
        shares: tuple[int, ...] = (),
    ) -> MatchFormat:
        """A sit and go: everyone starts with ``starting_chips``, the antes follow
        ``schedule``; ``prize_pool`` play chips shared by ``shares``."""
        return cls(
            FormatKind.SIT_AND_GO,
            schedule=schedule,
            starting_chips=starting_chips,
            prize_pool=prize_pool,
            shares=shares,
        )

    def prizes(self) -> tuple[int, ...]:
        """The prize of each place, first place first: each share of the pool, rounded down,
        the chips left over to first place."""
        prizes = [self.prize_pool * share // 100 for share in self.shares]
        if prizes:
            prizes[0] += self.prize_pool - sum(prizes)
        return tuple(prizes)


CASH = MatchFormat()
"""Today's game: join, leave and rebuy at will."""


@dataclass(frozen=True, slots=True)
class LevelStatus:
    """Where a scheduled match stands: level ``number`` (1 for the first) of ``of``, in
    force (``level``); the ``following`` level and the number of the deal it starts with
    (``at_deal``: a level of deals), or the time (seconds on the clock that starts the deals)
    from which the first deal to start is played at it (``at_time``: a level of minutes, once
    it has begun); None at the last level."""

    number: int
    of: int
    level: Level
    following: Level | None
    at_deal: int | None
    at_time: float | None = None


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's result: ``place`` (1 for the first), ``player`` id and ``name``,
    ``chips`` at the end (or when they were out), the chips they ``bought`` (brought to the
    table, re-entries included), whether they are ``out`` (busted or left), their ``prize`` of
    play chips and how many times they re-entered (``re_entries``)."""

    place: int
    player: int
    name: str
    chips: int
    bought: int
    out: bool
    prize: int = 0
    re_entries: int = 0

    @property
    def net(self) -> int:
        """Chips won (negative: lost)."""
        return self.chips - self.bought


__all__ = [
    "CASH",
    "SCHEDULES",
    "ClockNeededError",
    "FormatError",
    "FormatKind",
    "FormatSeatError",
    "Level",
    "LevelStatus",
    "MatchFinishedError",
    "MatchFormat",
    "ReEntryClosedError",
    "Schedule",
    "Standing",
    "parse_schedule",
]
