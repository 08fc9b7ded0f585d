"""A table's turn timer: the clock of a human seat's turn and its time bank. A turn lasts
the table's ``turn_seconds`` option, then draws on the seat's bank; the time a move took
beyond the turn's seconds is charged to the bank, and the ``action`` event records what is
left (``bank``). The owner starts the clock when the event that began the turn is
committed; a replica has it from the owner's word (:class:`~italian_poker.server.peers.Heard`)."""

from __future__ import annotations

from dataclasses import dataclass

from italian_poker.server.protocol import Clock
from italian_poker.server.table_core import TablePart

TurnWord = tuple[int, int, float, float]
"""A turn as the owner tells the replicas: ``(since, seat, started, bank)``."""


@dataclass(frozen=True, slots=True)
class Turn:
    """The turn of a human seat under the timer."""

    since: int
    """Seq of the event that began the turn (:attr:`TableState.turn_since`)."""
    seat: int
    started: float
    """When the turn began, on ``settings.clock``: when that event was committed."""
    bank: float
    """The seat's time bank at the start of the turn."""


class TurnClock(TablePart):
    """The running turn, if a human seat is on the clock."""

    turn: Turn | None = None
    kept: tuple[int, float] | None = None
    """The turn a table kept when it was unloaded (the seq that began it, the seconds it had
    run): restored, that turn resumes with the time it had left, the time the table spent
    unloaded not counted."""

    def clock(self) -> Clock:
        """The running turn timer, if any."""
        turn = self.turn
        seconds = self.state.options.get("turn_seconds")
        if turn is None or seconds is None:
            return Clock(None, None)
        return Clock(turn.started + float(seconds), turn.bank)

    def track(self, restored: bool = False) -> None:
        """Start the clock of a new human turn, or keep the one running. A ``restored`` turn
        (after a restart) began when the event that began it was committed."""
        state = self.state
        since = state.turn_since
        actor = state.actor_slot()
        if since is None or actor is None or state.options.get("turn_seconds") is None:
            self.turn = None
            return
        if self.turn is not None and self.turn.since == since:
            return
        slot = state.slots[actor]
        if slot is None or slot.bot is not None:
            self.turn = None
            return
        now = self.settings.clock()
        started = now
        if restored and self.kept is not None and self.kept[0] == since:
            started = now - self.kept[1]
        elif restored:
            committed = self.store.event_time(self.id, since)
            if committed is not None:
                started = min(committed, now)
        self.turn = Turn(since, actor, started, state.bank(actor))

    def elapsed(self) -> tuple[int, float] | None:
        """The turn under way as an unloaded table keeps it: the seq that began it and the
        seconds it has run; None when no human seat is on the clock."""
        turn = self.turn
        if turn is None:
            return None
        return turn.since, max(0.0, self.settings.clock() - turn.started)

    def use_bank(self, seat: int) -> float | None:
        """The seat's time bank left once the time it took beyond the turn's seconds is
        charged to it; None when the seat is not on the clock. The ``action`` event records
        it (``bank``), and the table's state takes it from there."""
        turn = self.turn
        seconds = self.state.options.get("turn_seconds")
        if turn is None or turn.seat != seat or seconds is None:
            return None
        over = max(0.0, self.settings.clock() - turn.started - float(seconds))
        return round(max(0.0, turn.bank - over), 3)

    def left(self, seat: int) -> float | None:
        """Seconds left, bank included, to ``seat`` on the clock now (None: it is not)."""
        turn = self.turn
        if turn is None or turn.seat != seat:
            return None
        seconds = float(self.state.options.get("turn_seconds") or 0)
        return turn.started + seconds + turn.bank - self.settings.clock()

    def word(self) -> TurnWord | None:
        """The running turn as the owner tells the replicas."""
        turn = self.turn
        return None if turn is None else (turn.since, turn.seat, turn.started, turn.bank)

    def heard(self, word: TurnWord | None) -> None:
        """A replica: the turn as the owner told it."""
        self.turn = None if word is None else Turn(*word)
