"""Telling a table's connections what it is now: each connected seat gets its own ``state``
built from its own view (the public part built and each message encoded once, the same text
sent to all its connections), the spectators theirs (:mod:`italian_poker.server.spectators`),
and the owner of a table with replicas tells them it changed (no card: each builds its own
players' views). A drawing seat's hint is computed off the event loop, once a turn, and
sent with its state when ready."""

from __future__ import annotations

import asyncio
from typing import Any

from italian_poker.engine.observer import SeatView
from italian_poker.server.presence import Presence
from italian_poker.server.protocol import (
    EncodedParts,
    LogText,
    PublicState,
    advice_entries,
    draws_now,
    public_state,
    state_text,
)
from italian_poker.server.table_core import TableCore, TablePart
from italian_poker.server.table_state import TurnKey
from italian_poker.server.turn_clock import TurnClock
from italian_poker.table.advice import Advisor


class Broadcast(TablePart):
    """The ``state`` messages of a table, and the hint of the draw under way."""

    def __init__(
        self, table: TableCore, presence: Presence, clock: TurnClock, advisor: Advisor | None
    ) -> None:
        super().__init__(table)
        self.presence, self.clock = presence, clock
        self.advisor = advisor
        """Gives the drawing seat its hint, from its own view (None: the server has none)."""
        self.log_text = LogText()
        self.parts = EncodedParts()
        """The parts of the states sent, kept as text until what they hold changes."""
        self._advice: tuple[TurnKey, list[dict[str, Any]]] | None = None
        """The hint for the draw under way: the turn it is for, and its entries."""
        self._advising: TurnKey | None = None
        """The turn whose hint is being computed (off the event loop), if any."""

    def public_state(self, events_after: int | None = None) -> PublicState:
        """What every seat's ``state`` message has in common now (``events_after``: the seq
        the last state showed, when events came since)."""
        return public_state(
            self.state,
            invite=self.table.invite or "",
            connected=self.presence.connected_seats(),
            spectators=self.presence.spectator_count(),
            clock=self.clock.clock(),
            log=self.log_text,
            events_after=events_after,
            parts=self.parts,
        )

    def state_text(self, seat: int, public: PublicState | None = None) -> str:
        """The ``state`` message for ``seat`` as JSON text (``public``: built for this
        change already), with the hint for its draw once it has been computed."""
        public = public or self.public_state()
        advice = self._advice_for(public, seat)
        return state_text(public, seat, host=seat == 0, advice=advice)

    def _advice_for(self, public: PublicState, seat: int) -> list[dict[str, Any]] | None:
        """The hint for ``seat``'s draw if it is its draw now, the table has the hint on and
        the server an advisor: computed from that seat's own view, once a turn, off the
        event loop (:meth:`_advise`); None until then (that state goes without it, and the
        seat is sent its state again once the hint is ready)."""
        if self.advisor is None or not self.state.switches.advice_on:
            return None
        own = draws_now(public, seat)
        key = self.state.turn_key()
        if own is None or key is None:
            return None
        if self._advice is not None and self._advice[0] == key:
            return self._advice[1]
        if self._advising != key:
            self._advising = key
            self._spawn(self._advise(self.advisor, key, own))
        return None

    async def _advise(self, advisor: Advisor, key: TurnKey, own: SeatView) -> None:
        """Compute the hint for the turn ``key`` from the drawing seat's view in a worker
        thread (up to ~50 ms on 40 cards), then send that seat its state with it, if the
        turn is still the same. No hint to give (no rival left) is an empty list."""
        try:
            entries = advice_entries(await asyncio.to_thread(advisor, own))
        except ValueError:
            entries = []
        async with self.lock:
            if self._advising == key:
                self._advising = None
            if self.state.turn_key() != key:
                return
            self._advice = (key, entries)
            seat = key[1]
            clients = self.presence.clients.get(seat)
            if clients:
                text = self.state_text(seat)
                for client in clients:
                    client.send_text(text)

    def publish(self, events_after: int | None = None) -> None:
        """Each connected seat's own ``state`` (with what the events after ``events_after``
        said: one message a change): the public part built once, each seat's message encoded
        once for all of its connections. The owner of a table that has replicas tells them
        too (no card: each builds its own players' views)."""
        peers = self.table.peers
        if peers is not None and peers.lease is not None and peers.remote:
            word = self.clock.word()
            presence = self.presence
            peers.notify(
                self.state.seq, presence.connected_seats(), word, presence.spectator_count()
            )
        if not self.presence.connections():
            return
        public = self.public_state(events_after)
        for seat, clients in self.presence.clients.items():
            if not clients:
                continue
            text = self.state_text(seat, public)
            for client in clients:
                client.send_text(text)
        spectators = self.table.spectators
        if spectators.clients:
            whole = public if events_after is None else None

            def spectators_public(whole_log: bool) -> PublicState:
                nonlocal whole
                if not whole_log:
                    return public
                if whole is None:
                    whole = self.public_state()
                return whole

            spectators.broadcast(self.state, spectators_public)

    def publish_between_changes(self) -> None:
        """:meth:`publish` now, or, while the lock is held (a change applied but not
        committed yet, its clock not started; or a connection being registered), once it is
        released."""
        if not self.lock.locked():
            self.publish()
            return

        async def after_the_change() -> None:
            async with self.lock:
                self.publish()

        self._spawn(after_the_change())
