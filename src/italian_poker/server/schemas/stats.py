"""The statistics' models: a table's, and a group's (several tables counted together)."""

from __future__ import annotations

from pydantic import Field, field_validator

from italian_poker.server.limits import MAX_STATS_TABLES
from italian_poker.server.schemas.base import Model
from italian_poker.table.statistics import Statistics


class PlayerStats(Model):
    """One player's statistics over the table's finished deals (``table/statistics.py``
    defines each number)."""

    name: str
    """The name the deals record: the nickname the player had then."""
    played: int
    """Deals dealt in (passed and parol deals included)."""
    opened: int
    """Deals the player opened (3.3); a blind is no opening."""
    showdowns: int
    """Deals in which the player showed or mucked at the showdown."""
    showdowns_won: int
    """Of those, deals in which the player won a pot (each sharer of a split pot counts)."""
    won_without_showdown: int
    """Deals won uncalled, everyone else having folded (3.7, 5.4(c))."""
    net: int
    """Chips won less chips lost, antes and make-ups included."""
    biggest_pot: int
    """The most chips won from the pots in one deal."""


class StatsTotals(Model):
    """The deals counted; the players' nets add up to ``carried_in - carried_out``."""

    deals: int
    opened: int
    passed: int
    parols: int
    showdowns: int
    carried_in: int
    """Chips the deals' pots held from earlier deals (3.5, 5.5)."""
    carried_out: int
    """Chips the deals' pots carried on to the next deal."""
    net: int
    unfinished: int


class TableStats(Model):
    """``GET /api/tables/{invite}/stats``: every player's statistics over the table's finished
    deals, in the order the players first sat in a deal; all of it public."""

    players: list[PlayerStats]
    totals: StatsTotals

    @classmethod
    def of(cls, statistics: Statistics) -> TableStats:
        """The response for ``statistics`` (``table.statistics.statistics_of``)."""
        return cls.model_validate(statistics.to_dict())


class TableKey(Model):
    """A table of a group and the token of the seat held there."""

    invite: str = Field(max_length=64)
    """The table's invite (an unknown one is reported in the answer, ``no_table``)."""
    token: str = Field(max_length=128)
    """The player token of the seat held at the table (a wrong one is reported in the
    answer, ``forbidden``)."""


class GroupStatsQuery(Model):
    """``POST /api/stats``: the tables to count together, oldest first."""

    tables: list[TableKey] = Field(min_length=1, max_length=MAX_STATS_TABLES)
    """1 to ``MAX_STATS_TABLES`` (50) tables, each invite once."""

    @field_validator("tables")
    @classmethod
    def _each_once(cls, tables: list[TableKey]) -> list[TableKey]:
        invites = [table.invite for table in tables]
        if len(set(invites)) != len(invites):
            raise ValueError("each table may be asked for once only")
        return tables


class GroupTable(Model):
    """One table of ``POST /api/stats``, in the order asked: counted, or why not."""

    invite: str
    counted: bool
    """Whether its deals are in the statistics."""
    name: str | None
    """The table's name; None when it is not counted."""
    deals: int
    """Its finished deals counted (0 when it is not counted)."""
    error: str | None
    """Why it is not counted: ``no_table`` (no table has this invite), ``expired`` (the
    table has expired: its game is deleted), ``busy`` (the server has no room for it now) or
    ``forbidden`` (the token holds no seat there); None when counted."""
    message: str | None
    """The same for a person; None when counted."""


class GroupStats(Model):
    """``POST /api/stats``: each table asked for (counted, or why not), and every player's
    statistics over the finished deals of the tables counted, added up as ``italian-poker
    stats`` adds up folders (one player per name: ``table.statistics.statistics_of``)."""

    tables: list[GroupTable]
    players: list[PlayerStats]
    totals: StatsTotals

    @classmethod
    def of(cls, tables: list[GroupTable], statistics: Statistics) -> GroupStats:
        """The response for ``tables`` and the ``statistics`` of those counted."""
        return cls.model_validate({"tables": tables, **statistics.to_dict()})
