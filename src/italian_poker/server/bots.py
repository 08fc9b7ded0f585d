"""A table's bots: made on a bot seat's first turn (seeded from the server's seed, if it
has one), and what guards their decisions. A bot's turn is an ``action`` event with the bot's
choice (:func:`~italian_poker.server.event_payloads.bot_payload`), which the table machine
plays, or plays the default action instead
(:func:`~italian_poker.table.defaults.default_action`) when the rules refuse it; a bot that
fails answers the default action (:mod:`italian_poker.server.scheduler`)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Protocol

from italian_poker.engine.actions import Action
from italian_poker.engine.observer import SeatView
from italian_poker.engine.policy import Policy
from italian_poker.engine.seeds import derive_seed
from italian_poker.server.seats import Slot
from italian_poker.table.defaults import default_action

log = logging.getLogger(__name__)

BotFactory = Callable[[str, int | None], Policy]
"""Level name and seed -> a bot (:func:`italian_poker.analysis.bots.make_bot`)."""

OFF_LOOP_BOTS = frozenset({"expert"})
"""Bot levels whose decisions (a search of up to about half a second) run on a thread, not
on the event loop, so that the other tables and connections go on meanwhile."""


class TableBots(dict[tuple[int, int], Policy]):
    """The bots of a table, by seat and player id, each made on its first turn."""

    def __init__(self, table_id: int, factory: BotFactory, seed: int | None) -> None:
        super().__init__()
        self.table_id, self.factory, self.seed = table_id, factory, seed

    def of(self, seat: int, slot: Slot) -> Policy:
        """The bot of ``slot`` (a bot's seat: ``slot.bot`` its level), made on its first
        turn."""
        key = (seat, slot.player)
        bot = self.get(key)
        if bot is None:
            seed = None
            if self.seed is not None:
                seed = derive_seed(self.seed, "bot", self.table_id, seat)
            bot = self[key] = self.factory(slot.bot or "", seed)
        return bot


class HasId(Protocol):
    """A table, for the log."""

    @property
    def id(self) -> int: ...


class Guarded:
    """A bot whose failure (an exception) is logged and answered with the default action."""

    def __init__(self, runtime: HasId, seat: int, bot: Policy) -> None:
        self.runtime, self.seat, self.bot = runtime, seat, bot

    def act(self, view: SeatView) -> Action:
        try:
            return self.bot.act(view)
        except Exception:
            log.exception("table %s: bot %s failed", self.runtime.id, self.seat)
            return default_action(view.legal_actions)
