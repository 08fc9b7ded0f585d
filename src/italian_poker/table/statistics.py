"""Players' statistics over finished deals: at one table, or across a group's tables.

:func:`statistics_of` counts, for every player (keyed by the name the histories record),
over the finished deals of some hand histories (:class:`~italian_poker.engine.history.
HandHistory`, in any order, from any tables):

- ``played``: deals the player was dealt in (the history names them). A passed deal (3.5),
  a deal abandoned by parol (5.4(a)) and a deal folded at once all count; a deal sat out
  (5.5) does not.
- ``opened``: deals in which the player opened (*apro*, 3.3). A blind (*buio*, Art. 2) is not
  an opening: a deal played on a blind has no opener.
- ``showdowns``: deals in which the player went to the showdown (5.4(b), 5.4(d)): showed or
  mucked (002) the hand there.
- ``showdowns_won``: of those, the deals in which the player won a pot (below), alone or
  sharing it: each sharer of a split pot counts it.
- ``won_without_showdown``: deals in which the player won a pot without a showdown, everyone
  else having folded (3.7, 5.4(c)).
- ``net``: chips at the end of the deal less chips at its start, added up over the deals. The
  start is before the ante and any 5.5 make-up, so both are in the net, and so is every chip
  a pot carried in from earlier deals and the player won.
- ``biggest_pot``: the most chips the player won from the pots (below) in one deal: the
  player's shares added up (0 if never).

*A pot won* is the main pot (the deal's first pot, which holds every ante), or a side pot two
or more players could win, of which the player got the whole or a share. A side pot only one
player could win (under table stakes, chips one player bet beyond what the others could
match) is not a pot won: it only hands those chips back.

The totals count the deals (:class:`StatisticsTotals`). A pot that nobody wins carries to the
next deal (a passed deal, 3.5; a parol, 5.5): the chips stay in no one's net until the deal
that awards them, so the players' nets add up to ``carried_in - carried_out`` of the deals
counted: zero over every deal of a match that ended with no pot carried.

Only what every player at the table sees is read: the names, the stacks, the kinds of the
actions (who opened, who showed or mucked), the outcome and the pots awarded; never a card.
Deals not over are left out and counted in ``totals.unfinished``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass

from italian_poker.engine.actions import ActionKind
from italian_poker.engine.deal import Outcome
from italian_poker.engine.history import HandHistory, HistoryResult
from italian_poker.table.vocabulary import Language, tr

_AT_SHOWDOWN = frozenset({ActionKind.SHOW, ActionKind.MUCK})


@dataclass(frozen=True, slots=True)
class PlayerStatistics:
    """One player's row: see the module's docstring for what each number counts."""

    name: str
    played: int
    opened: int
    showdowns: int
    showdowns_won: int
    won_without_showdown: int
    net: int
    biggest_pot: int

    def to_dict(self) -> dict[str, str | int]:
        """JSON-ready values, named as the fields."""
        return asdict(self)


@dataclass(frozen=True, slots=True)
class StatisticsTotals:
    """The deals counted: ``deals`` finished ones, of which ``opened`` had an opener,
    ``passed`` were passed by everyone (3.5), ``parols`` abandoned by parol (5.4(a)) and
    ``showdowns`` went to a showdown. ``carried_in`` are the chips the deals' pots held from
    earlier deals, ``carried_out`` those their pots carried on to later ones; ``net`` is the
    players' nets added up, always ``carried_in - carried_out``. ``unfinished`` are the
    histories of deals not over, left out."""

    deals: int
    opened: int
    passed: int
    parols: int
    showdowns: int
    carried_in: int
    carried_out: int
    net: int
    unfinished: int

    def to_dict(self) -> dict[str, int]:
        """JSON-ready values, named as the fields."""
        return asdict(self)


@dataclass(frozen=True, slots=True)
class Statistics:
    """Every player's row, in the order they first appear in the histories (table order
    within a deal), and the totals."""

    players: tuple[PlayerStatistics, ...]
    totals: StatisticsTotals

    def to_dict(self) -> dict[str, object]:
        """JSON-ready values: ``players`` (a list of rows) and ``totals``."""
        return {
            "players": [row.to_dict() for row in self.players],
            "totals": self.totals.to_dict(),
        }


def pots_won(result: HistoryResult) -> dict[int, int]:
    """Chips each seat won from the pots of a finished deal, counting only the pots won (the
    main pot and side pots two or more players could win; the module's docstring)."""
    won: dict[int, int] = {}
    for index, award in enumerate(result.awards):
        if index == 0 or len(award.eligible) > 1:
            for seat, share in zip(award.winners, award.shares, strict=True):
                won[seat] = won.get(seat, 0) + share
    return won


@dataclass(slots=True)
class _Row:
    """One player's counts as they add up (``uncontested``: won without showdown)."""

    played: int = 0
    opened: int = 0
    showdowns: int = 0
    showdowns_won: int = 0
    uncontested: int = 0
    net: int = 0
    biggest: int = 0


def statistics_of(histories: Iterable[HandHistory]) -> Statistics:
    """Every player's statistics over the finished deals among ``histories`` (the module's
    docstring defines each number)."""
    rows: dict[str, _Row] = {}
    deals = opened = passed = parols = showdowns = carried_in = carried_out = unfinished = 0
    for history in histories:
        result = history.result
        if result is None:
            unfinished += 1
            continue
        deals += 1
        carried_in += history.carried
        carried_out += result.carried
        if result.outcome is Outcome.PASSED:
            passed += 1
        elif result.outcome is Outcome.PAROL:
            parols += 1
        opener: int | None = None
        shown: set[int] = set()
        for entry in history.actions:
            kind = entry.action.kind
            if kind is ActionKind.OPEN and opener is None:
                opener = entry.seat
            elif kind in _AT_SHOWDOWN:
                shown.add(entry.seat)
        opened += opener is not None
        showdowns += bool(shown)
        won = pots_won(result)
        for seat, name in enumerate(history.names):
            row = rows.get(name)
            if row is None:
                row = rows[name] = _Row()
            row.played += 1
            row.opened += seat == opener
            row.net += result.stacks[seat] - history.stacks[seat]
            chips = won.get(seat)
            if seat in shown:
                row.showdowns += 1
                row.showdowns_won += chips is not None
            elif chips is not None:
                row.uncontested += 1
            if chips is not None and chips > row.biggest:
                row.biggest = chips
    players = tuple(
        PlayerStatistics(
            name=name,
            played=row.played,
            opened=row.opened,
            showdowns=row.showdowns,
            showdowns_won=row.showdowns_won,
            won_without_showdown=row.uncontested,
            net=row.net,
            biggest_pot=row.biggest,
        )
        for name, row in rows.items()
    )
    totals = StatisticsTotals(
        deals=deals,
        opened=opened,
        passed=passed,
        parols=parols,
        showdowns=showdowns,
        carried_in=carried_in,
        carried_out=carried_out,
        net=sum(row.net for row in players),
        unfinished=unfinished,
    )
    return Statistics(players, totals)


# --- in words ------------------------------------------------------------------------------

COLUMNS: tuple[tuple[str, str], ...] = (
    ("name", "stats_player"),
    ("played", "stats_played"),
    ("opened", "stats_opened"),
    ("showdowns", "stats_showdowns"),
    ("showdowns_won", "stats_showdowns_won"),
    ("won_without_showdown", "stats_won_without_showdown"),
    ("net", "stats_net"),
    ("biggest_pot", "stats_biggest_pot"),
)
"""The table's columns, in order: a :class:`PlayerStatistics` field and the vocabulary's
message that heads it (the browser's page shows the same)."""


def signed(chips: int) -> str:
    """A net as the tables write it: ``+14``, ``-3``, ``0``."""
    return f"{chips:+d}" if chips else "0"


def _cell(row: PlayerStatistics, field: str) -> str:
    value = getattr(row, field)
    if field == "net":
        return signed(value)
    return str(value)


def totals_lines(totals: StatisticsTotals, lang: Language) -> list[str]:
    """The totals in words: the deals by how they went, and the carried chips that make the
    nets add up (the deals not over, if any)."""
    lines = [
        tr(
            lang,
            "stats_deals",
            deals=totals.deals,
            opened=totals.opened,
            passed=totals.passed,
            parols=totals.parols,
            showdowns=totals.showdowns,
        ),
        tr(
            lang,
            "stats_carried",
            carried_in=totals.carried_in,
            carried_out=totals.carried_out,
            net=signed(totals.net),
        ),
    ]
    if totals.unfinished:
        lines.append(tr(lang, "stats_unfinished", count=totals.unfinished))
    return lines


def statistics_lines(statistics: Statistics, lang: Language) -> list[str]:
    """The statistics as a plain-text table in ``lang`` (names left, numbers right), then the
    totals; a sentence alone when no deal is finished."""
    totals = totals_lines(statistics.totals, lang)
    if not statistics.totals.deals:
        return [tr(lang, "stats_empty"), *totals[2:]]  # and the deals not over, if any
    heads = [tr(lang, key) for _, key in COLUMNS]
    cells = [[_cell(row, field) for field, _ in COLUMNS] for row in statistics.players]
    widths = [max(len(text) for text in column) for column in zip(heads, *cells, strict=True)]

    def line(texts: list[str]) -> str:
        first = texts[0].ljust(widths[0])
        rest = [text.rjust(width) for text, width in zip(texts[1:], widths[1:], strict=True)]
        return "  ".join([first, *rest]).rstrip()

    rule = "  ".join("-" * width for width in widths)
    return [
        tr(lang, "stats_title"),
        line(heads),
        rule,
        *(line(texts) for texts in cells),
        "",
        *totals,
    ]
