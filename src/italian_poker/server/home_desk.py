"""The host's desk at an online table: the lock, the co-host, seat requests and chip requests
as events of the table's log (the table machine's :mod:`~italian_poker.table.host_desk`
checks and carries them out).

Each event names seats as the log does; the desk turns them into the machine's player ids
and gives the public log's lines and the ledger's rows:

- ``lock`` ``{locked, by}``: the table locked (newcomers ask for a seat) or open;
- ``co_host`` ``{seat}``: the co-host named (null: nobody); the host's alone;
- ``chip_caps`` ``{minimum, maximum, times, until_level, during_deal, by}``;
- ``chip_ask`` ``{seat, chips}``: a seated player asks for chips (in a sit and go, a busted
  player asks to re-enter with the starting chips);
- ``chip_answer`` ``{request, approve, by}``: an approved request is a ``rebuy``, ``top_up``
  or ``re_entry`` row of the ledger, its chips added between deals (the row of chips approved
  for a player dealt into the deal under way is written once the deal is over, when they
  are on the stack; a busted player back in their seat cashes out the chips they kept);
- ``seat_ask`` ``{nickname, token_hash}``: a newcomer at a locked table waits, the hash of
  the token they hold kept in the log so that a restarted server knows them;
- ``seat_answer`` ``{player, admit, seat, by}``: admitted into ``seat``, or refused.

``by`` is the co-host's seat (null or missing: the host).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from italian_poker.engine.errors import ItalianPokerError, SeatError
from italian_poker.engine.match import MatchPhase
from italian_poker.server.deal_records import DealRecords
from italian_poker.server.effects import Effects
from italian_poker.server.i18n import line
from italian_poker.server.ledger import LedgerEntry
from italian_poker.server.seats import Seats, Slot
from italian_poker.table import admission, chip_requests, formats
from italian_poker.table.chip_requests import ChipCaps, RequestKind
from italian_poker.table.commands import (
    AddChips,
    AnswerChips,
    AnswerSeat,
    AskChips,
    AskSeat,
    LockSeats,
    NameCoHost,
    SetChipCaps,
)
from italian_poker.table.machine import TableMachine
from italian_poker.table.machine_events import (
    ChangeDropped,
    ChipsAnswered,
    ChipsAsked,
    ChipsChanged,
    ReEntered,
    TableEvent,
)

_CODES: dict[type[ItalianPokerError], str] = {
    chip_requests.ChipsBelowMinimumError: "chips_below_minimum",
    chip_requests.ChipsAboveMaximumError: "chips_above_maximum",
    chip_requests.TooManyRequestsError: "too_many_requests",
    chip_requests.PastLevelError: "requests_past_level",
    chip_requests.RequestDuringDealError: "request_during_deal",
    chip_requests.RequestPendingError: "request_pending",
    chip_requests.NotBustedError: "not_busted",
    chip_requests.ReEntryChipsError: "re_entry_chips",
    formats.ReEntryClosedError: "re_entry_closed",
    chip_requests.UnknownRequestError: "unknown_request",
    chip_requests.BadCapsError: "bad_caps",
    admission.NotHostError: "not_host",
    admission.SeatAskPendingError: "seat_ask_pending",
    admission.UnknownSeatAskError: "unknown_seat_ask",
}
"""The refusal code of each of the desk's errors (the pages say each in the player's
language: ``refused_<code>``)."""


def refusal_code(error: ItalianPokerError) -> str:
    """The refusal code of ``error``: the desk's own, else ``illegal``."""
    return next((code for kind, code in _CODES.items() if isinstance(error, kind)), "illegal")


class AskStatus(StrEnum):
    """Where a newcomer's seat request stands."""

    WAITING = "waiting"
    ADMITTED = "admitted"
    REFUSED = "refused"


@dataclass(slots=True)
class SeatAsk:
    """A newcomer's seat request: their id at the machine (the seq of the ``seat_ask``
    event), nickname, the hash of their token, where it stands and their seat once
    admitted."""

    player: int
    nickname: str
    token_hash: str
    status: AskStatus = AskStatus.WAITING
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class ChipAnswer:
    """The last answer to a player's chip request: ``approved`` or not, for ``chips``."""

    approved: bool
    chips: int


class HomeDesk:
    """The desk of a table whose seats are ``seats``, played at ``machine``."""

    def __init__(self, machine: TableMachine, seats: Seats, deals: DealRecords) -> None:
        self.machine = machine
        self.seats = seats
        self.deals = deals
        self.asks: dict[int, SeatAsk] = {}
        """Every newcomer's seat request, by their id, in the order asked."""
        self.answers: dict[int, ChipAnswer] = {}
        """The last answer to each person's chip request, by their id."""
        self.deferred: dict[int, list[LedgerEntry]] = {}
        """The rows of chips approved for players dealt into the deal under way, written
        once the chips are on their stacks, by person, in the order approved."""

    # --- reading ----------------------------------------------------------------------------

    @property
    def locked(self) -> bool:
        """Whether newcomers wait for the host's answer."""
        return self.machine.admission.locked

    @property
    def co_host(self) -> int | None:
        """The co-host's seat, if any."""
        player = self.machine.admission.co_host
        return None if player is None else self.seats.seat_of(player)

    def ask_of(self, token_hash: str) -> SeatAsk | None:
        """The latest seat request made with the token whose hash is ``token_hash``."""
        found = [a for a in self.asks.values() if a.token_hash == token_hash]
        return found[-1] if found else None

    def waiting_names(self) -> list[str]:
        """The nicknames of the newcomers waiting for an answer."""
        return [a.nickname for a in self.asks.values() if a.status is AskStatus.WAITING]

    def as_json(self) -> dict[str, Any]:
        """The desk as every page at the table sees it: the lock, the co-host's seat, the
        caps, the chip requests waiting (of people seated), the newcomers waiting, and each
        seat's last chip answer."""
        desk = self.machine.chip_desk
        caps = desk.caps
        chips = []
        for request in desk.pending.values():
            seat = self.seats.seat_of(request.player)
            slot = None if seat is None else self.seats.slots[seat]
            if slot is not None:
                chips.append(
                    {
                        "request": request.number,
                        "seat": seat,
                        "name": slot.nickname,
                        "chips": request.chips,
                        "kind": request.kind.value,
                    }
                )
        answers = {}
        for player, answer in self.answers.items():
            seat = self.seats.seat_of(player)
            if seat is not None:
                answers[str(seat)] = {"approved": answer.approved, "chips": answer.chips}
        return {
            "locked": self.locked,
            "co_host": self.co_host,
            "caps": {
                "minimum": caps.minimum,
                "maximum": caps.maximum,
                "times": caps.times,
                "until_level": caps.until_level,
                "during_deal": caps.during_deal,
            },
            "chips": chips,
            "seats": [
                {"player": a.player, "name": a.nickname}
                for a in self.asks.values()
                if a.status is AskStatus.WAITING
            ],
            "answers": answers,
        }

    # --- events -----------------------------------------------------------------------------

    def _by(self, payload: dict[str, Any]) -> int | None:
        """The machine id of the co-host whose seat is ``by`` (None: the host)."""
        seat = payload.get("by")
        if seat is None:
            return None
        slot = self.seats.slots[int(seat)] if 0 <= int(seat) < len(self.seats.slots) else None
        return -1 if slot is None else slot.player

    def lock(self, payload: dict[str, Any]) -> Effects:
        """A ``lock`` event."""
        locked = payload.get("locked")
        if not isinstance(locked, bool):
            raise SeatError(f"'locked' is true or false, not {locked!r}")
        self.seats.handle(LockSeats(locked, self._by(payload)))
        return Effects([line("table_locked" if locked else "table_unlocked")])

    def name_co_host(self, payload: dict[str, Any]) -> Effects:
        """A ``co_host`` event."""
        seat = payload.get("seat")
        if seat is None:
            self.seats.handle(NameCoHost(None))
            return Effects([line("table_co_host_none")])
        _, slot = self.seats.taken({"seat": seat})
        if slot.bot is not None:
            raise SeatError("a bot cannot be the co-host")
        self.seats.handle(NameCoHost(slot.player))
        return Effects([line("table_co_host", name=slot.nickname)])

    def caps(self, payload: dict[str, Any]) -> Effects:
        """A ``chip_caps`` event."""
        caps = ChipCaps(
            minimum=payload.get("minimum", 1),
            maximum=payload.get("maximum"),
            times=payload.get("times"),
            until_level=payload.get("until_level"),
            during_deal=payload.get("during_deal", True),
        )
        self.seats.handle(SetChipCaps(caps, self._by(payload)))
        return Effects([line("table_chip_caps")])

    def ask_chips(self, payload: dict[str, Any]) -> Effects:
        """A ``chip_ask`` event."""
        _, slot = self.seats.taken(payload)
        (asked,) = self.seats.handle(AskChips(slot.player, payload.get("chips")))  # type: ignore[arg-type]
        assert isinstance(asked, ChipsAsked)
        request = asked.request
        self.answers.pop(slot.player, None)
        key = f"table_{request.kind.value}_asked"
        return Effects([line(key, name=slot.nickname, chips=request.chips)])

    def answer_chips(self, payload: dict[str, Any]) -> Effects:
        """A ``chip_answer`` event: an approved request's chips (between deals), a ``rebuy``,
        ``top_up`` or ``re_entry`` row; a busted player back in their seat cashes out what
        they kept."""
        approve = payload.get("approve")
        if not isinstance(approve, bool):
            raise SeatError(f"'approve' is true or false, not {approve!r}")
        number = payload.get("request")
        pending = self.machine.chip_desk.pending
        request = pending.get(number) if type(number) is int else None
        seat = None if request is None else self.seats.seat_of(request.player)
        if request is not None and seat is None and approve:
            raise SeatError("this player has left the table: refuse the request")
        busted = seat is not None and self.seats.busted(seat)
        events = self.seats.handle(AnswerChips(number, approve, self._by(payload)))  # type: ignore[arg-type]
        answered = events[0]
        assert isinstance(answered, ChipsAnswered)
        request = answered.request
        self.answers[request.player] = ChipAnswer(approve, request.chips)
        slot = None if seat is None else self.seats.slots[seat]
        name = "?" if slot is None else slot.nickname
        key = "table_chips_approved" if approve else "table_chips_refused"
        said = line(key, name=name, chips=request.chips)
        if approve and request.kind is RequestKind.RE_ENTRY:
            count = next((e.count for e in events if isinstance(e, ReEntered)), 1)
            said = line("table_re_enter", name=name, chips=request.chips, count=count)
        effects = Effects([said])
        if not approve or slot is None:
            return effects
        if busted:
            # Back in the seat (now, or once the deal is over): the chips kept are cashed out.
            kept = self.seats.left_with.pop(slot.player, 0)
            if kept:
                effects.ledger.append(
                    LedgerEntry(slot.nickname, slot.player, "cash_out", kept, self.deals.hand)
                )
            self.seats.sync_sitting(slot)
        row = LedgerEntry(
            slot.nickname, slot.player, request.kind.value, request.chips, self.deals.hand
        )
        if self._dealt_in(slot.player):
            # The chips come once the deal is over: so does the row (:meth:`arrived`).
            self.deferred.setdefault(slot.player, []).append(row)
        else:
            effects.ledger.append(row)
        return effects

    def _dealt_in(self, player: int) -> bool:
        """Whether ``player`` is dealt into the deal under way: their stack is the deal's
        until it is over (:meth:`Seats.stack <italian_poker.server.seats.Seats.stack>`)."""
        match = self.machine.match
        deal = None if match is None else match.deal
        live = match is not None and match.phase is MatchPhase.IN_DEAL and deal is not None
        return live and deal is not None and player in deal.start.player_ids

    def arrived(self, events: list[TableEvent], effects: Effects) -> None:
        """Once a deal is over: the rows of the chips approved during it, now on the stacks
        (none for chips whose change was dropped)."""
        if not self.deferred:
            return
        for event in events:
            if isinstance(event, ChipsChanged) and event.player in self.deferred:
                effects.ledger.append(self.deferred[event.player].pop(0))
                if not self.deferred[event.player]:
                    del self.deferred[event.player]
            elif isinstance(event, ChangeDropped) and isinstance(event.command, AddChips):
                rows = self.deferred.get(event.command.player)
                if rows:
                    rows.pop(0)
                    if not rows:
                        del self.deferred[event.command.player]

    def ask_seat(self, payload: dict[str, Any], player: int, chips: int) -> Effects:
        """A ``seat_ask`` event: newcomer ``player`` asks to sit down with ``chips``."""
        nickname, token = str(payload["nickname"]), str(payload["token_hash"])
        if self.seats.slot_of(nickname) is not None or nickname in self.deals.names_in_deal():
            raise SeatError(f"the nickname {nickname!r} is taken at this table")
        self.seats.handle(AskSeat(player, nickname, chips))
        self.asks[player] = SeatAsk(player, nickname, token)
        return Effects([line("table_seat_asked", name=nickname)])

    def answer_seat(self, payload: dict[str, Any]) -> Effects:
        """A ``seat_answer`` event: the newcomer admitted into ``seat`` (a ``buy_in`` row), or
        refused."""
        admit = payload.get("admit")
        if not isinstance(admit, bool):
            raise SeatError(f"'admit' is true or false, not {admit!r}")
        player = payload.get("player")
        ask = self.asks.get(player) if type(player) is int else None
        if ask is None or ask.status is not AskStatus.WAITING:
            raise admission.UnknownSeatAskError(f"player {player!r} does not wait for a seat")
        if not admit:
            self.seats.handle(AnswerSeat(ask.player, False, self._by(payload)))
            ask.status = AskStatus.REFUSED
            return Effects([line("table_seat_refused", name=ask.nickname)])
        seat = int(payload["seat"])
        if not 0 <= seat < len(self.seats.slots) or self.seats.slots[seat] is not None:
            raise SeatError(f"seat {seat + 1} is not free")
        self.seats.handle(AnswerSeat(ask.player, True, self._by(payload), seat))
        chips = self._asked(ask)
        self.seats.slots[seat] = Slot(ask.nickname, None, ask.player)
        self.seats.banks.pop(seat, None)
        ask.status, ask.seat = AskStatus.ADMITTED, seat
        said = line("table_seat_admitted", name=ask.nickname, seat=seat + 1)
        return Effects([said], [LedgerEntry(ask.nickname, ask.player, "buy_in", chips)])

    def _asked(self, ask: SeatAsk) -> int:
        """The chips an admitted newcomer brings (their seat waits for the deal's end)."""
        return next(s.chips for s in self.machine.seats_to_come if s.player == ask.player)
