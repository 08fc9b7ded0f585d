"""A table's deals as the people at it held them: which numbered seat of the table and which
person (:attr:`~italian_poker.server.seats.Slot.player`) held each seat of the current
(or last) deal, the people dealt in each deal, and what the table machine keeps of the deals
(the finished deals, what opens a deal, a seat's view of the deal).
"""

from __future__ import annotations

from collections.abc import Sequence

from italian_poker.engine.match import CompletedDeal, MatchPhase
from italian_poker.engine.observer import SeatView, observe
from italian_poker.engine.opening import OpeningRequirement, opening_requirement
from italian_poker.engine.rules import Rules
from italian_poker.table.machine import TableMachine


class DealRecords:
    """Who held which seat of which deal, and the deals the machine keeps."""

    def __init__(self, machine: TableMachine, rules: Rules) -> None:
        self.machine = machine
        self.rules = rules
        self.deal_slots: list[int] = []
        """The table's seat (slot) of each seat of the current (or last) deal."""
        self.deal_players: tuple[int, ...] = ()
        """The person in each seat of the current (or last) deal."""
        self.hand_players: dict[int, tuple[int, ...]] = {}
        """Per deal number, the person in each of its seats: histories belong to them,
        whatever their name or seat now."""

    @property
    def in_deal(self) -> bool:
        """Whether a deal (or its 5.5 make-up decisions) is under way."""
        return self.machine.phase in (MatchPhase.IN_DEAL, MatchPhase.MAKE_UP)

    @property
    def hand(self) -> int | None:
        """The id of the current deal, else of the last one; None before the first."""
        match = self.machine.match
        if match is None:
            return None
        if self.in_deal:
            return len(match.completed) + 1
        return len(match.completed) or None

    def pot(self) -> int:
        """The chips in no one's stack: the pot of the deal under way (with what it carried
        in), else the pot carried to the next deal (everyone passed, 3.5, or said parol,
        5.4(a); 0 after a deal that was won)."""
        match = self.machine.match
        if match is None:
            return 0
        deal = match.deal
        if match.phase is MatchPhase.IN_DEAL and deal is not None:
            return sum(deal.start.stacks) + deal.start.carried - sum(deal.stacks)
        return match.carried

    def names_in_deal(self) -> Sequence[str]:
        """The nicknames dealt in the deal under way (none between deals): a player who
        left stays in it until it ends."""
        match = self.machine.match
        return match.deal_seats if self.in_deal and match is not None else ()

    def began(self, number: int, players: tuple[int, ...], slots: list[int]) -> None:
        """Deal ``number`` began: the person in each of its seats and their table's seats."""
        self.deal_slots = slots
        self.deal_players = players
        self.hand_players[number] = players

    def index(self, slot: int, player: int) -> int | None:
        """The seat number of ``slot`` in the current (or last) deal, if the person seated
        there now, ``player``, was dealt in (not someone who sat there before)."""
        try:
            index = self.deal_slots.index(slot)
        except ValueError:
            return None
        players = self.deal_players
        if index < len(players) and players[index] != player:
            return None
        return index

    def view(self, index: int) -> SeatView | None:
        """The view of deal seat ``index`` of the current (or last) deal."""
        match = self.machine.match
        if match is None or match.deal is None:
            return None
        return observe(match.deal, index)

    def completed(self, hand: int) -> CompletedDeal | None:
        """The finished deal ``hand``."""
        match = self.machine.match
        if match is None or not 1 <= hand <= len(match.completed):
            return None
        return match.completed[hand - 1]

    def hands_played(self, player: int) -> list[int]:
        """The finished deals ``player`` was dealt in."""
        match = self.machine.match
        done = len(match.completed) if match is not None else 0
        return [n for n, players in self.hand_players.items() if n <= done and player in players]

    def hand_seat(self, player: int, hand: int) -> tuple[CompletedDeal, int] | None:
        """Finished deal ``hand`` and the seat ``player`` held in it, if dealt in."""
        completed = self.completed(hand)
        players = self.hand_players.get(hand, ())
        if completed is None or player not in players:
            return None
        return completed, players.index(player)

    def requirement(self) -> OpeningRequirement:
        """What opens the current (or next) deal."""
        match = self.machine.match
        if match is not None and match.phase is MatchPhase.IN_DEAL and match.deal is not None:
            return match.deal.requirement
        if match is not None:
            return match.requirement
        return opening_requirement(self.rules.min_pair, self.rules.four_straight_flush_opens)

    def requirement_after(self, hand: int) -> OpeningRequirement:
        """What the deal after ``hand`` needs (needed) to open: that of the next finished
        deal, else of the deal under way or to come (:meth:`requirement`)."""
        following = self.completed(hand + 1)
        if following is None:
            return self.requirement()
        return following.start.requirement
