"""A table's numbered seats and the people in them: who sits in each (nickname, bot, the
person's id), their chips at the table machine and their time banks.

A person takes a seat, leaves it, is given chips by the host, sits out or back in:
:class:`Seats` checks the event, hands the table machine its command and gives the public
log's lines and the ledger's rows (:class:`~italian_poker.server.effects.Effects`). Every
command of the table reaches the machine through :meth:`Seats.handle`, which keeps the
seats' chips it reads (:meth:`Seats.planned`) in step with the machine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from italian_poker.engine.errors import SeatError
from italian_poker.engine.match import MatchPhase
from italian_poker.engine.rules import Rules
from italian_poker.server.deal_records import DealRecords
from italian_poker.server.effects import Effects
from italian_poker.server.i18n import line
from italian_poker.server.ledger import LedgerEntry
from italian_poker.server.nicknames import nickname_key
from italian_poker.table.commands import (
    Command,
    Leave,
    SetChips,
    SitIn,
    SitOut,
    TakeSeat,
)
from italian_poker.table.machine import TableMachine
from italian_poker.table.machine_events import SeatLeft, TableEvent
from italian_poker.table.narration import Line


@dataclass(slots=True)
class Slot:
    """A taken seat. ``player`` tells the person (or bot) apart from anyone who sat here or
    had this nickname before: the seq of the ``seat`` event that seated them, which also
    issued their token, and their id at the table machine. ``leaving`` empties the seat when
    the deal under way ends."""

    nickname: str
    bot: str | None
    player: int = 0
    sitting_out: bool = False
    leaving: bool = False
    last_action: Line | None = None
    changed: int | None = None


class Seats:
    """The table's seats, numbered 0..players-1 in table order as at the table machine."""

    def __init__(self, machine: TableMachine, rules: Rules, deals: DealRecords) -> None:
        self.machine = machine
        self.rules = rules
        self.deals = deals
        self.slots: list[Slot | None] = [None] * rules.players
        self.banks: dict[int, float] = {}
        """Time bank left per seat, as its last ``action`` event recorded it; a seat missing
        here has the full bank."""
        self.left_with: dict[int, int] = {}
        """The chips each person (:attr:`Slot.player`) still seated had when the table let
        them go for want of an ante (000 Art. 1): theirs until the host gives them chips or
        they leave the table, with them."""
        self._to_come: dict[int, int] | None = None

    # --- reading ----------------------------------------------------------------------------

    def slot_of(self, nickname: str) -> int | None:
        """The seat of ``nickname``, if seated."""
        for i, slot in enumerate(self.slots):
            if slot is not None and slot.nickname == nickname:
                return i
        return None

    def seat_of(self, player: int) -> int | None:
        """The seat of the person ``player``, if seated."""
        for i, slot in enumerate(self.slots):
            if slot is not None and slot.player == player:
                return i
        return None

    def free_seat(self) -> int | None:
        """The lowest empty seat."""
        return next((i for i, s in enumerate(self.slots) if s is None), None)

    def look_alike(self, nickname: str) -> str | None:
        """The nickname of a seated player (or of one still in the deal) that ``nickname``
        would be confused with (:func:`~italian_poker.server.nicknames.nickname_key`)."""
        key = nickname_key(nickname)
        names = [slot.nickname for slot in self.slots if slot is not None]
        names.extend(self.deals.names_in_deal())
        return next((name for name in names if nickname_key(name) == key), None)

    def planned(self) -> dict[int, int]:
        """The chips of each person with a seat at the machine, now or once the waiting
        changes are made (a newcomer's buy-in during a deal, say; a player leaving at the end
        of the deal still has theirs)."""
        if self._to_come is None:
            chips = {s.player: s.chips for s in self.machine.seats}
            chips.update((s.player, s.chips) for s in self.machine.seats_to_come)
            self._to_come = chips
        return self._to_come

    def stack(self, slot: int) -> int:
        """The chips in front of ``slot`` now: in the deal under way, else the machine's
        (a newcomer's buy-in during a deal included), else what a busted player kept."""
        seat = self.slots[slot]
        if seat is None:
            return 0
        match = self.machine.match
        deal = None if match is None else match.deal
        if match is not None and match.phase is MatchPhase.IN_DEAL and deal is not None:
            ids = deal.start.player_ids
            if seat.player in ids:
                return deal.stacks[ids.index(seat.player)]
        planned = self.planned().get(seat.player)
        if planned is not None:
            return planned
        return self.left_with.get(seat.player, 0)

    def busted(self, slot: int) -> bool:
        """Whether the person in ``slot`` left the game for want of an ante (000 Art. 1) and
        has not been given chips since: they are not dealt in until the host does."""
        seat = self.slots[slot]
        return seat is not None and seat.player not in self.planned()

    def dealable(self) -> list[int]:
        """The seats that would be dealt in at the next deal (chips for an ante, not out)."""
        limit = self.machine.rules.chips_to_be_dealt_in
        planned = self.planned()
        return [
            i
            for i, slot in enumerate(self.slots)
            if slot is not None
            and not (slot.leaving or slot.sitting_out)
            and planned.get(slot.player, 0) >= limit
        ]

    def taken(self, payload: dict[str, Any]) -> tuple[int, Slot]:
        """The event's seat (``seat``) and who sits in it; an empty seat is refused."""
        seat = int(payload["seat"])
        slot = self.slots[seat] if 0 <= seat < len(self.slots) else None
        if slot is None:
            raise SeatError(f"seat {seat + 1} is empty")
        return seat, slot

    # --- changing ---------------------------------------------------------------------------

    def handle(self, command: Command) -> list[TableEvent]:
        """Hand ``command`` to the machine."""
        try:
            return self.machine.handle(command)
        finally:
            self._to_come = None

    def take(self, payload: dict[str, Any], player: int, chips: int) -> Effects:
        """A ``seat`` event: person ``player`` sits down with ``chips``."""
        seat, nickname, bot = int(payload["seat"]), str(payload["nickname"]), payload["bot"]
        if not 0 <= seat < len(self.slots) or self.slots[seat] is not None:
            raise SeatError(f"seat {seat + 1} is not free")
        if self.slot_of(nickname) is not None or nickname in self.deals.names_in_deal():
            raise SeatError(f"the nickname {nickname!r} is taken at this table")
        self.handle(TakeSeat(player, nickname, chips, seat))
        self.slots[seat] = Slot(nickname, bot, player)
        self.banks.pop(seat, None)  # a newcomer has the full time bank
        said = line("table_seat", name=nickname, seat=seat + 1)
        return Effects([said], [LedgerEntry(nickname, player, "buy_in", chips)])

    def unseat(self, payload: dict[str, Any]) -> Effects:
        """An ``unseat`` event: the seat is emptied, for a player dealt in at the end of the
        deal."""
        seat, slot = self.taken(payload)
        if slot.leaving:
            return Effects([line("table_leave_after_deal", name=slot.nickname)])
        if slot.player not in self.planned():  # busted: the machine let them go already
            return self._remove(seat, self.left_with.get(slot.player, 0))
        events = self.handle(Leave(slot.player))
        left = next((e for e in events if isinstance(e, SeatLeft)), None)
        if left is None:
            # A deal (or its 5.5 questions) is under way: the player leaves when it ends
            # (answered for meanwhile).
            slot.leaving = True
            return Effects([line("table_leave_after_deal", name=slot.nickname)])
        return self._remove(seat, left.chips)

    def _remove(self, seat: int, chips: int) -> Effects:
        slot = self.slots[seat]
        assert slot is not None
        self.slots[seat] = None
        self.banks.pop(seat, None)
        self.left_with.pop(slot.player, None)
        said = line("table_leave", name=slot.nickname)
        return Effects(
            [said], [LedgerEntry(slot.nickname, slot.player, "cash_out", chips, self.deals.hand)]
        )

    def set_chips(self, payload: dict[str, Any]) -> Effects:
        """A ``stack`` event: the host sets a seat's chips, between deals (a busted player is
        back with them)."""
        seat, slot = self.taken(payload)
        amount = int(payload["amount"])
        if self.deals.in_deal:
            raise SeatError("stacks can be adjusted only between deals")
        if amount < 1:
            raise SeatError("a stack must be at least 1 chip")
        before = self.stack(seat)
        if slot.player in self.planned():
            self.handle(SetChips(slot.player, amount))
        else:  # busted: back at the table with the chips the host gives
            self.handle(TakeSeat(slot.player, slot.nickname, amount, seat))
            self.left_with.pop(slot.player, None)
            self.sync_sitting(slot)
        said = line("table_stack", name=slot.nickname, amount=amount)
        return Effects([said], [LedgerEntry(slot.nickname, slot.player, "adjust", amount - before)])

    def sit(self, payload: dict[str, Any], *, out: bool) -> Effects:
        """A ``sit_out`` (``out``) or ``sit_in`` event."""
        _, slot = self.taken(payload)
        slot.sitting_out = out
        self.sync_sitting(slot)
        return Effects([line("table_sit_out" if out else "table_sit_in", name=slot.nickname)])

    def sync_sitting(self, slot: Slot) -> None:
        """Tell the machine whether ``slot`` sits out, if it does not know yet (a change
        during a deal takes effect when it ends)."""
        planned = next((s for s in self.machine.seats_to_come if s.player == slot.player), None)
        if planned is None or planned.sitting_out == slot.sitting_out:
            return
        self.handle(SitOut(slot.player) if slot.sitting_out else SitIn(slot.player))

    def depart(self, events: list[TableEvent], effects: Effects) -> None:
        """The players the machine let go after a deal or an action: those who busted keep
        their seat and their chips (:attr:`left_with`); those who were leaving go, with
        theirs."""
        leaving: dict[int, int] = {}
        for event in events:
            if isinstance(event, SeatLeft):
                if event.busted:
                    self.left_with[event.player] = event.chips
                else:
                    leaving[event.player] = event.chips
        for seat, slot in enumerate(self.slots):
            if slot is not None and slot.leaving and slot.player not in self.planned():
                chips = leaving.get(slot.player, self.left_with.get(slot.player, 0))
                removed = self._remove(seat, chips)
                effects.ledger.extend(removed.ledger)
                effects.lines.extend(removed.lines)
