"""The host's desk at a table machine: seat admission and chip requests, checked and carried
out (:mod:`~italian_poker.table.admission`, :mod:`~italian_poker.table.chip_requests`).

An admitted newcomer sits down, and an approved request's chips are added, through the
machine's seating commands (:class:`~italian_poker.table.commands.TakeSeat`,
:class:`~italian_poker.table.commands.AddChips`): while a deal is under way they wait for
its end, so chips never change during a deal. In a sit and go a busted player's request is a
re-entry: approved, the machine re-enters them (:class:`~italian_poker.table.commands.ReEnter`)
within the format's re-entry window.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from italian_poker.table.admission import Admission
from italian_poker.table.chip_requests import ChipDesk, NotBustedError, RequestKind
from italian_poker.table.commands import (
    AddChips,
    AnswerChips,
    AnswerSeat,
    AskChips,
    AskSeat,
    HostCommand,
    LockSeats,
    NameCoHost,
    ReEnter,
    SeatingCommand,
    SetChipCaps,
    TakeSeat,
)
from italian_poker.table.machine_events import (
    ChipCapsSet,
    ChipsAnswered,
    ChipsAsked,
    CoHostNamed,
    SeatAnswered,
    SeatAsked,
    SeatLeft,
    SeatsLocked,
    TableEvent,
)
from italian_poker.table.seating import UnknownPlayerError, seat_in
from italian_poker.table.table_seats import TableSeats

Change = SeatingCommand | ReEnter
"""What an admission or an approved request changes at the table."""
Check = Callable[[Change], None]
"""The machine's check of a change (its format's and its seats')."""
Seat = Callable[[Change], list[TableEvent]]
"""The machine's handling of a (checked) change."""


@dataclass(frozen=True, slots=True)
class Moment:
    """Where the table stands for a chip request: the schedule's ``level`` (None: no
    schedule), whether a deal is under way (``dealing``) and the ``starting_chips`` of a sit
    and go (None at another format), where a request is a re-entry."""

    level: int | None
    dealing: bool
    starting_chips: int | None


class HostDesk:
    """The admission and the chip requests of a table whose seats are ``seats``."""

    def __init__(self, seats: TableSeats) -> None:
        self.seats = seats
        self.admission = Admission()
        self.chips = ChipDesk()

    # --- checking ---------------------------------------------------------------------------

    def check(self, command: HostCommand, check: Check, moment: Moment) -> None:
        """Refuse ``command`` as :meth:`handle` would (``check``: the machine's check of a
        seating command) at ``moment``."""
        self._carry(command, check, moment)

    def _carry(self, command: HostCommand, check: Check, moment: Moment) -> Change | None:
        """Check ``command``; the seating command it makes, if any."""
        admission = self.admission
        if isinstance(command, AskSeat):
            admission.check_ask(command)
            seated = TakeSeat(command.player, command.name, command.chips, command.seat)
            check(seated)
            return None if admission.locked else seated
        if isinstance(command, AskChips):
            self._kind(command.player)  # refuses a player with no seat
            if moment.starting_chips is not None:
                check(self._re_entry(command.player))
            self.chips.check_ask(
                command.player,
                command.chips,
                level=moment.level,
                dealing=moment.dealing,
                re_entry=moment.starting_chips,
            )
            return None
        if isinstance(command, NameCoHost):
            if command.player is not None:
                seat_in(command.player, self.seats.plan())
            return None
        admission.check_by(command.by)
        if isinstance(command, AnswerSeat):
            ask = admission.waiting(command.player)
            if not command.admit:
                return None
            seated = self._admitted(ask, command.seat)
            check(seated)
            return seated
        if isinstance(command, AnswerChips):
            request = self.chips.waiting(command.request)
            if not command.approve:
                return None
            adding = (
                self._re_entry(request.player)
                if request.kind is RequestKind.RE_ENTRY
                else self._adding(request.player, request.chips)
            )
            check(adding)
            return adding
        return None  # LockSeats, SetChipCaps: their fields are checked when made

    def _kind(self, player: int, *, sit_and_go: bool = False) -> RequestKind:
        """A request of ``player`` is a rebuy or a top-up, or at a ``sit_and_go`` a re-entry;
        :class:`UnknownPlayerError` for a player with no seat who did not bust."""
        plan = self.seats.plan()
        if sit_and_go:
            return RequestKind.RE_ENTRY
        if player in plan:
            short = plan[player].chips < self.seats.rules.chips_to_be_dealt_in
            return RequestKind.REBUY if short else RequestKind.TOP_UP
        if self._busted(player) is None:
            raise UnknownPlayerError(f"player {player!r} has no seat at this table")
        return RequestKind.REBUY

    def _busted(self, player: object) -> tuple[str, int] | None:
        """The name and seat number of ``player`` if their last departure was a bust."""
        last = next((d for d in reversed(self.seats.departed) if d.player == player), None)
        if last is None or not last.busted or type(player) is not int:
            return None
        return last.name, self.seats.busted_seats.get(player, 0)

    def _re_entry(self, player: int) -> ReEnter:
        """The re-entry of ``player``, busted out of a sit and go, into the seat they kept
        (another if it was taken since); :class:`NotBustedError` for a player in play."""
        busted = self._busted(player)
        if player in self.seats.plan() or busted is None:
            raise NotBustedError(
                "chips change only in play in a sit and go: only a busted player asks, to re-enter"
            )
        name, number = busted
        taken = {p.seat for p in self.seats.plan().values()}
        return ReEnter(player, name, None if number in taken else number)

    def _admitted(self, ask: AskSeat, chosen: int | None) -> TakeSeat:
        """The seat an admitted newcomer takes: ``chosen``, else the one asked for if still
        free."""
        taken = {p.seat for p in self.seats.plan().values()}
        seat = chosen if chosen is not None else ask.seat if ask.seat not in taken else None
        return TakeSeat(ask.player, ask.name, ask.chips, seat)

    def _adding(self, player: int, chips: int) -> SeatingCommand:
        """The seating command of an approved request: chips on the stack, or a busted
        player back in the seat they kept (another if it was taken since)."""
        if player in self.seats.plan():
            return AddChips(player, chips)
        busted = self._busted(player)
        if busted is None:
            raise UnknownPlayerError(f"player {player!r} has no seat at this table")
        name, number = busted
        taken = {p.seat for p in self.seats.plan().values()}
        return TakeSeat(player, name, chips, None if number in taken else number)

    # --- handling ---------------------------------------------------------------------------

    def handle(
        self, command: HostCommand, check: Check, seat: Seat, moment: Moment
    ) -> list[TableEvent]:
        """Carry out ``command`` (``seat``: the machine's handling of a seating command);
        raises as :meth:`check` does and changes nothing."""
        seated = self._carry(command, check, moment)
        admission, desk = self.admission, self.chips
        if isinstance(command, AskSeat):
            if seated is None:
                admission.pending[command.player] = command
                return [SeatAsked(command.player, command.name, command.chips)]
            return seat(seated)
        if isinstance(command, AnswerSeat):
            ask = admission.pending.pop(command.player)
            answered = SeatAnswered(ask.player, ask.name, command.admit, command.by)
            return [answered, *(seat(seated) if seated is not None else [])]
        if isinstance(command, LockSeats):
            admission.locked = command.locked
            return [SeatsLocked(command.locked)]
        if isinstance(command, NameCoHost):
            admission.co_host = command.player
            return [CoHostNamed(command.player)]
        if isinstance(command, SetChipCaps):
            desk.caps = command.caps
            return [ChipCapsSet(command.caps)]
        if isinstance(command, AskChips):
            sit_and_go = moment.starting_chips is not None
            kind = self._kind(command.player, sit_and_go=sit_and_go)
            request = desk.ask(command.player, command.chips, kind)
            return [ChipsAsked(request)]
        request = desk.answer(command.request, command.approve)
        answered_chips = ChipsAnswered(request, command.approve, command.by)
        return [answered_chips, *(seat(seated) if seated is not None else [])]

    def after(self, events: list[TableEvent]) -> list[TableEvent]:
        """What the desk adds once ``events`` happened: a player who left by choice has their
        waiting requests closed, and is no longer the co-host."""
        added: list[TableEvent] = []
        for event in events:
            if not isinstance(event, SeatLeft) or event.busted:
                continue
            for request in self.chips.drop(event.player):
                added.append(ChipsAnswered(request, False, dropped=True))
            if self.admission.co_host == event.player:
                self.admission.co_host = None
                added.append(CoHostNamed(None))
        return added
