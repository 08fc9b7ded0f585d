"""A table's ledger summed up per person, and written as CSV.

The ledger's rows (oldest first) are the chips that came to the table and left it, and each
deal's net result: ``buy_in`` (a seat taken), ``adjust`` (the host set a stack: the change),
``rebuy`` and ``top_up`` (a player's chip request the host approved, server/home_desk.py),
``result``, ``cash_out`` (a seat left; at a re-entry or a busted player's rebuy, the chips kept
on busting) and ``re_entry`` (a busted player of a sit and go back with the starting chips:
bought in again). :func:`summarise` gives each person (rows grouped by ``player``) what they
bought in and cashed out, the chips in front of them now and their net, ``stack + cashed out -
bought in`` (rebuys, top-ups and re-entries are bought in). The host's adjustments count as on
a Poker Now ledger: chips the host adds are a buy-in, chips the host takes off a buy-out
(cashed out); either way the net is the same. Results move no chips to or from the table: the
stacks show them.

The chips in no one's stack, the pot of a deal under way or the pot carried to the next deal
(everyone passed, 3.5; everyone said parol, 5.4(a)), are a line of their own
(:attr:`Summary.in_pot`): with them the nets come to exactly zero, since every chip at the
table was bought in and not yet cashed out.

Settling up (:attr:`Summary.settle_up`, :func:`settle_csv`): the fewest transfers that bring
every person's net to zero (:func:`italian_poker.table.settle_up.settle_up`), on what each
would cash out now (the chips in front of them count as theirs). While the pot holds chips
the nets do not come to zero and there is nothing to settle yet: settle once it is won.

Rows written before migration 0003 have no ``player``: such a row counts for the person who
used its nickname (the one seated with it now, else the last one whose rows name it), or,
when there is none, for a line of that nickname alone.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from italian_poker.table.settle_up import NetsNotBalancedError, Transfer, settle_up

BOUGHT = "buy_in"
ADJUSTED = "adjust"
RESULT = "result"
CASHED = "cash_out"
RE_ENTRY = "re_entry"
REBUY = "rebuy"
TOP_UP = "top_up"
KINDS = (BOUGHT, ADJUSTED, RESULT, CASHED, RE_ENTRY, REBUY, TOP_UP)
"""The kinds of ledger rows."""
_BOUGHT_KINDS = (BOUGHT, RE_ENTRY, REBUY, TOP_UP)
"""The rows of chips a person brought to the table."""

CSV_COLUMNS = ("created", "nickname", "player", "kind", "amount", "hand")
"""The CSV's header: the JSON rows' members, the time first."""

SETTLE_COLUMNS = ("payer", "payee", "amount")
"""The settle-up CSV's header: who pays whom how much (nicknames)."""

_FORMULA = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet would take a cell beginning with for a formula."""


class Movement(Protocol):
    """What the summary reads of a ledger row."""

    @property
    def nickname(self) -> str: ...
    @property
    def player(self) -> int | None: ...
    @property
    def kind(self) -> str: ...
    @property
    def amount(self) -> int: ...


class Row(Movement, Protocol):
    """A ledger row as stored and sent: when, and in which deal."""

    @property
    def hand(self) -> int | None: ...
    @property
    def created(self) -> str: ...


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """A ledger row produced by an event. ``player`` is the person the chips belong to
    (:attr:`~italian_poker.server.seats.Slot.player`), whatever their nickname: a
    newcomer who takes a departed player's name has rows of their own."""

    nickname: str
    player: int
    kind: str
    amount: int
    hand: int | None = None


@dataclass(frozen=True, slots=True)
class Holding:
    """A seated person's chips now (from the live table)."""

    player: int
    nickname: str
    stack: int


@dataclass(frozen=True, slots=True)
class PersonLine:
    """One person's line: ``player`` None for the rows of a nickname without one."""

    player: int | None
    nickname: str
    """The latest nickname."""
    bought_in: int
    cashed_out: int
    stack: int
    """The chips in front of them now: 0 once they left."""
    seated: bool

    @property
    def net(self) -> int:
        """Up (positive) or down: what they hold and took away less what they brought."""
        return self.stack + self.cashed_out - self.bought_in


@dataclass(frozen=True, slots=True)
class Totals:
    """The sums of every line, the pot's included (its chips are in ``stack``)."""

    bought_in: int
    cashed_out: int
    stack: int

    @property
    def net(self) -> int:
        """0 whenever the ledger and the table agree."""
        return self.stack + self.cashed_out - self.bought_in


@dataclass(frozen=True, slots=True)
class Summary:
    """Every person who sat at the table, in the order they first came, and the pot."""

    people: tuple[PersonLine, ...]
    in_pot: int

    @property
    def totals(self) -> Totals:
        """The totals row."""
        return Totals(
            bought_in=sum(p.bought_in for p in self.people),
            cashed_out=sum(p.cashed_out for p in self.people),
            stack=sum(p.stack for p in self.people) + self.in_pot,
        )

    @property
    def settle_up(self) -> tuple[Transfer[PersonLine], ...] | None:
        """The fewest transfers that settle every person's net, payers in the order they
        first came; None while the pot holds chips, or whenever else the nets do not come to
        zero."""
        if self.in_pot:
            return None
        try:
            return settle_up({person: person.net for person in self.people})
        except NetsNotBalancedError:
            return None


Key = int | str
"""A person: their ``player`` id, or a nickname for rows written without one."""


def _owners(rows: Sequence[Movement], seated: Sequence[Holding]) -> dict[str, int]:
    """Per nickname, the person its rows without a ``player`` belong to: the one seated
    with it, else the last one whose rows name it."""
    owners = {row.nickname: row.player for row in rows if row.player is not None}
    owners.update((holding.nickname, holding.player) for holding in seated)
    return owners


def summarise(rows: Iterable[Movement], seated: Sequence[Holding], in_pot: int) -> Summary:
    """Each person's line from the ledger's ``rows`` (oldest first), the chips of those
    ``seated`` now, and the chips ``in_pot`` (in no one's stack). Raises ``ValueError`` for a
    row of an unknown kind."""
    rows = list(rows)
    owners = _owners(rows, seated)
    names: dict[Key, str] = {}
    bought: dict[Key, int] = {}
    cashed: dict[Key, int] = {}
    for row in rows:
        if row.kind not in KINDS:
            raise ValueError(f"unknown ledger row kind {row.kind!r}; one of {', '.join(KINDS)}")
        key: Key = row.player if row.player is not None else owners.get(row.nickname, row.nickname)
        names[key] = row.nickname
        bought.setdefault(key, 0)
        cashed.setdefault(key, 0)
        if row.kind in _BOUGHT_KINDS or (row.kind == ADJUSTED and row.amount > 0):
            bought[key] += row.amount
        elif row.kind == CASHED:
            cashed[key] += row.amount
        elif row.kind == ADJUSTED:
            cashed[key] -= row.amount  # chips the host took off: a buy-out
    stacks: dict[Key, int] = {}
    for holding in seated:
        names[holding.player] = holding.nickname
        stacks[holding.player] = holding.stack
    people = tuple(
        PersonLine(
            player=key if isinstance(key, int) else None,
            nickname=nickname,
            bought_in=bought.get(key, 0),
            cashed_out=cashed.get(key, 0),
            stack=stacks.get(key, 0),
            seated=key in stacks,
        )
        for key, nickname in names.items()
    )
    return Summary(people, in_pot)


def _cell(text: str) -> str:
    """A nickname as a CSV cell: one a spreadsheet would read as a formula (``=1+1``) gets
    a leading apostrophe, which spreadsheets show as text."""
    return f"'{text}" if text.startswith(_FORMULA) else text


def ledger_csv(rows: Iterable[Row]) -> str:
    """The rows as CSV (:data:`CSV_COLUMNS`, one line a row, oldest first): the same values
    as the JSON rows, empty for a missing ``player`` or ``hand``."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for row in rows:
        writer.writerow(
            [
                row.created,
                _cell(row.nickname),
                "" if row.player is None else row.player,
                row.kind,
                row.amount,
                "" if row.hand is None else row.hand,
            ]
        )
    return out.getvalue()


def settle_csv(transfers: Iterable[Transfer[PersonLine]]) -> str:
    """The transfers as CSV (:data:`SETTLE_COLUMNS`, one line a transfer): a table of its own,
    so that the rows' CSV stays one table a spreadsheet sorts and filters."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(SETTLE_COLUMNS)
    for transfer in transfers:
        writer.writerow(
            [_cell(transfer.payer.nickname), _cell(transfer.payee.nickname), transfer.amount]
        )
    return out.getvalue()
