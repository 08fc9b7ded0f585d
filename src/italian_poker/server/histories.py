"""What a table's finished deals are, for the people at it: the deals a person was dealt in,
each one's history (from that person's seat, or the public view: never a hidden card of
someone else's), the hand replayer's frames, everything everyone may know of them for the
statistics, and the ledger of the chips (:mod:`italian_poker.server.ledger`)."""

from __future__ import annotations

import functools
from dataclasses import replace
from typing import Any

from italian_poker.engine.history import HandHistory
from italian_poker.engine.match import CompletedDeal
from italian_poker.engine.observer import PUBLIC
from italian_poker.server.ledger import Holding
from italian_poker.server.table_core import TablePart
from italian_poker.table.replay_frames import HandFrames, hand_frames


class Histories(TablePart):
    """The table's record: its finished deals and its ledger."""

    def hands_of(self, seat: int) -> list[int]:
        """The finished deals the person in ``seat`` now (the holder of its token) was dealt
        in: never those of someone who sat there, or had their nickname, before."""
        slot = self.state.slots[seat]
        return [] if slot is None else self.state.hands_played(slot.player)

    def history_for(self, seat: int, hand: int) -> tuple[HandHistory, int] | None:
        """Finished deal ``hand`` and the seat in it of the person in ``seat`` now, if they
        were dealt in."""
        slot = self.state.slots[seat]
        found = None if slot is None else self.state.hand_seat(slot.player, hand)
        if found is None:
            return None
        completed, index = found
        return self.history(completed, hand), index

    def history(self, completed: CompletedDeal, hand: int) -> HandHistory:
        """Deal ``hand``'s history with its fair deck (the seed once revealed)."""
        return replace(HandHistory.from_completed(completed), fair=self.state.fair.record(hand))

    def finished_histories(self) -> list[HandHistory]:
        """Every finished deal of the table, oldest first, whoever was dealt in: for what
        everyone may know of them (``table.statistics``), never to show their cards."""
        return [HandHistory.from_completed(c) for c in self.finished_deals()]

    def finished_deals(self) -> tuple[CompletedDeal, ...]:
        """The match's record of every finished deal, oldest first, as it is now (frozen
        records: a worker thread may read them while the table plays on)."""
        match = self.state.match
        return () if match is None else tuple(match.completed)

    def frames_for(self, seat: int, hand: int) -> HandFrames | None:
        """Finished deal ``hand`` step by step (the hand replayer) for the person in ``seat``
        now: their own view if they were dealt in, else the public view, which shows no
        hidden card (how a hand shared with the others at the table is seen); None when
        the table has no such finished deal."""
        found = self.history_for(seat, hand)
        if found is None:
            completed = self.state.completed(hand)
            if completed is None:
                return None
            return hand_frames(
                HandHistory.from_completed(completed), PUBLIC, self.state.requirement_after(hand)
            )
        history, index = found
        return hand_frames(history, index, self.state.requirement_after(hand))

    async def ledger(self) -> tuple[list[dict[str, Any]], list[Holding], int]:
        """The ledger's rows (oldest first, as :meth:`Store.ledger` gives them), the chips of
        each person seated and the chips in the pot, read together between changes: the
        rows of every event the table has applied are committed by then."""
        async with self.lock:
            rows = await self._database(functools.partial(self.store.ledger, self.id))
            state = self.state
            seated = [
                Holding(slot.player, slot.nickname, state.stack(i))
                for i, slot in enumerate(state.slots)
                if slot is not None
            ]
            return rows, seated, state.pot()
