"""What a table does next by itself (its owner only): a bot's move, the automatic move of a
seat sitting out or leaving, the move of a turn whose time ran out (check or fold:
:func:`~italian_poker.table.defaults.default_action`) and the next deal. One pending task at
a time, keyed by the table's seq; each acts through the table's commit, under its lock, and
does nothing if the table moved on meanwhile. No deal begins once the match format says the
match is over; a deal of a match timed in minutes carries the time (``now``) from the
settings' clock."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from italian_poker.engine.errors import SeatError
from italian_poker.engine.fair_source import SealedDeck
from italian_poker.engine.match import MatchPhase
from italian_poker.engine.policy import Policy
from italian_poker.engine.seeds import derive_seed
from italian_poker.server.bots import OFF_LOOP_BOTS, Guarded, TableBots
from italian_poker.server.event_kinds import EventKind
from italian_poker.server.event_payloads import bot_payload, timeout_payload
from italian_poker.server.fair_deal import FAIR
from italian_poker.server.seats import Slot
from italian_poker.server.table_core import TableCore, TablePart
from italian_poker.server.table_state import TableStatus
from italian_poker.server.turn_clock import TurnClock
from italian_poker.table.formats import FormatKind

log = logging.getLogger(__name__)


class Scheduler(TablePart):
    """The table's pending move or deal."""

    def __init__(self, table: TableCore, clock: TurnClock, bots: TableBots) -> None:
        super().__init__(table)
        self.clock, self.bots = clock, bots
        self._pending: asyncio.Task[None] | None = None
        self._pending_key: tuple[Any, ...] | None = None
        self._timer = False
        """Whether the pending task is a person's turn timer."""

    def running(self) -> bool:
        """Whether the table goes on by itself: a bot's move, an automatic move or a deal is
        pending (a person's turn timer is not: the turn waits for them)."""
        pending = self._pending
        return pending is not None and not pending.done() and not self._timer

    def cancel(self) -> None:
        """Cancel the pending task, if any."""
        if self._pending is not None:
            self._pending.cancel()

    def schedule(self) -> None:
        """Start what happens next: a bot's move, an automatic move, the turn timer or the
        next deal. One pending task at a time, keyed by the table's seq."""
        state = self.state
        key: tuple[Any, ...] = (state.seq, state.status)
        if self._pending is not None and not self._pending.done():
            if self._pending_key == key:
                return
            self._pending.cancel()
        self._pending = None
        self._pending_key = key
        self._timer = False
        if state.status is not TableStatus.PLAYING:
            return
        actor = state.actor_slot()
        if actor is not None:
            slot = state.slots[actor]
            assert slot is not None
            left = self.clock.left(actor)
            if slot.bot is not None:
                self._pending = self._spawn(self._bot_turn(state.seq, actor))
            elif slot.leaving or slot.sitting_out:
                self._pending = self._spawn(self._auto_turn(state.seq, actor, 0.0))
            elif left is not None:
                self._timer = True
                self._pending = self._spawn(
                    self._auto_turn(state.seq, actor, max(0.0, left), expired=True)
                )
            return
        if state.match is not None and state.match.phase is MatchPhase.MAKE_UP:
            return
        if state.fair.sealed is not None and not state.in_deal:
            self._pending = self._spawn(self._fair_deal(state.seq))
        elif self._can_deal():
            delay = self.settings.next_deal_seconds if state.hand is not None else 0.0
            self._pending = self._spawn(self._next_deal(state.seq, delay))

    def _can_deal(self) -> bool:
        """Players enough to deal in (the rules' ``min_players``), one of them a person (bots
        alone do not play on, but in a match whose format ends it, once begun: they play it
        to its end); none once the match is over."""
        state = self.state
        if state.finished:
            return False
        seats = state.dealable()
        humans = [s for s in seats if (slot := state.slots[s]) and slot.bot is None]
        ends = state.match_format.kind is not FormatKind.CASH and state.hand is not None
        return len(seats) >= state.rules.min_players and (bool(humans) or ends)

    def _use_bank(self, seat: int) -> float | None:
        return self.clock.use_bank(seat)

    def _bot(self, seat: int, slot: Slot) -> Policy:
        return self.bots.of(seat, slot)

    async def _bot_turn(self, seq: int, seat: int) -> None:
        await self.settings.sleep(self.settings.bot_delay_seconds)
        async with self.lock:
            state = self.state
            slot = state.slots[seat]
            if state.seq != seq or state.actor_slot() != seat or slot is None or not slot.bot:
                return
            # The bot decides from its view; the table plays its choice, or the default action
            # when the rules refuse it (BotAct).
            view = state.view(seat)
            if view is None:
                return
            bot: Policy = Guarded(self, seat, self._bot(seat, slot))
            if slot.bot in OFF_LOOP_BOTS:
                # Decided on a thread, from the view alone (the lock held meanwhile: nothing
                # changes the table until the decision is applied).
                chosen = await asyncio.get_running_loop().run_in_executor(None, bot.act, view)
            else:
                chosen = bot.act(view)
            effects = await self._commit(EventKind.ACTION, bot_payload(seat, chosen))
            if effects.refused is not None:
                log.warning("table %s: bot %s chose an action not allowed", self.id, seat)

    async def _auto_turn(self, seq: int, seat: int, delay: float, expired: bool = False) -> None:
        """The table's default action for ``seat`` after ``delay`` (check, pass, decline,
        stand pat, show, sit out, fold: :func:`~italian_poker.table.defaults.default_action`).
        The time the turn took is charged to the bank as for any move; a turn whose seconds
        and bank ran out (``expired``) leaves no bank."""
        if delay:
            await self.settings.sleep(delay)
        async with self.lock:
            state = self.state
            if state.seq != seq or state.actor_slot() != seat:
                return
            bank = self._use_bank(seat)
            if expired and bank is not None:
                bank = 0.0
            await self._commit(EventKind.ACTION, timeout_payload(seat, bank))

    async def _next_deal(self, seq: int, delay: float) -> None:
        if delay:
            await self.settings.sleep(delay)
        async with self.lock:
            state = self.state
            if state.seq != seq or state.status is not TableStatus.PLAYING or state.in_deal:
                return
            if not self._can_deal():
                return
            if self.settings.seed is None:
                # Live tables seal a fair deck first (server/fair_deal.py): its seed from the
                # CSPRNG, its commitment sent to everyone before the players' values.
                number = len(state.machine.completed) + 1
                sealed = SealedDeck.new(number)
                commit = {
                    "deal": number,
                    "commitment": sealed.commitment.hex(),
                    "seed": sealed.seed.hex(),
                }
                try:
                    await self._commit(EventKind.COMMIT, commit)
                except SeatError:
                    log.info("table %s: no deal (%s)", self.id, state.status)
                return
            # Tables set up with a seed (tests and replays only) deal from it.
            await self._deal({"seed": derive_seed(self.settings.seed, "deal", self.id, state.seq)})

    async def _fair_deal(self, seq: int) -> None:
        """Deal from the sealed deck once every seated player dealt in has sent a value, or
        after ``fair_value_seconds`` (the server gives the missing values)."""
        given = asyncio.Event()
        fair = self.state.fair

        def wake() -> None:
            humans = self._humans()
            if humans and all(s in fair.pending for s in humans):
                given.set()

        fair.on_value = wake
        wake()
        if not given.is_set() and self.settings.fair_value_seconds > 0:
            waits = [
                asyncio.ensure_future(given.wait()),
                asyncio.ensure_future(self.settings.sleep(self.settings.fair_value_seconds)),
            ]
            try:
                await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for wait in waits:
                    wait.cancel()
        async with self.lock:
            state = self.state
            if state.seq != seq or state.status is not TableStatus.PLAYING or state.in_deal:
                return
            if state.fair is not fair or fair.sealed is None or not self._can_deal():
                return
            slots = state.dealable()
            bots = {s for s in slots if (slot := state.slots[s]) is not None and slot.bot}
            await self._deal({FAIR: fair.values_payload(slots, bots)})

    async def _deal(self, payload: dict[str, Any]) -> None:
        """Commit the next deal (the table's lock held), with the server's clock when the
        match is timed: its level or its end goes by it."""
        state = self.state
        if state.match_format.timed:
            payload["now"] = self.settings.clock()
        try:
            await self._commit(EventKind.DEAL, payload)
        except SeatError:
            log.info("table %s: no deal (%s)", self.id, state.status)

    def _humans(self) -> list[int]:
        """The seats of the people (not bots) who would be dealt in."""
        state = self.state
        return [s for s in state.dealable() if (slot := state.slots[s]) and slot.bot is None]
