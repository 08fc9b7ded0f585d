"""Tables dealt from fair decks, driven event by event as the server's scheduler drives them
(server/fair_deal.py): seats, ``start``, then per deal a ``commit`` with a fresh seed, a
``deal`` with the seats' values and the bots' actions; every event is kept as the log keeps
it (``Effects.record``)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from italian_poker.analysis.bots import make_bot
from italian_poker.engine.fair_source import SealedDeck
from italian_poker.engine.history import HandHistory
from italian_poker.engine.policy import Policy
from italian_poker.engine.rules import preset
from italian_poker.server.event_kinds import EventKind
from italian_poker.server.event_payloads import bot_payload
from italian_poker.server.fair_deal import FAIR
from italian_poker.server.table_state import TableState

NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Ivo", "Luca")


@dataclass
class FairTable:
    """A table state with its log and its bots."""

    state: TableState
    bots: dict[int, Policy]
    rng: random.Random
    events: list[tuple[int, str, dict[str, Any]]] = field(default_factory=list)

    def apply(self, kind: EventKind, payload: dict[str, Any]) -> None:
        effects = self.state.apply(self.state.seq + 1, kind, payload)
        self.events.append((self.state.seq, kind.value, effects.record))

    def commit(self) -> None:
        """Seal the next deal's deck (a seed from ``rng``)."""
        number = len(self.state.machine.completed) + 1
        sealed = SealedDeck.new(number, self.rng.randbytes(32))
        self.apply(
            EventKind.COMMIT,
            {"deal": number, "commitment": sealed.commitment.hex(), "seed": sealed.seed.hex()},
        )

    def deal(self, sent: dict[int, bytes] | None = None) -> None:
        """Start the sealed deal: the values ``sent`` by seat, the others the server's."""
        fair = self.state.fair
        assert fair.sealed is not None
        for slot, value in (sent or {}).items():
            fair.give(slot, fair.sealed.commitment.hex(), value)
        self.apply(EventKind.DEAL, {FAIR: fair.values_payload(self.state.dealable(), set())})

    def step(self) -> bool:
        """The next bot move of the deal under way; False when nobody is to act."""
        actor = self.state.actor_slot()
        if actor is None:
            return False
        view = self.state.view(actor)
        assert view is not None
        self.apply(EventKind.ACTION, bot_payload(actor, self.bots[actor].act(view)))
        return True

    def play_deal(self) -> None:
        """A whole deal: commit, values, the bots' moves to its end."""
        self.commit()
        self.deal()
        while self.step():
            pass

    def history(self, hand: int) -> HandHistory:
        """Finished deal ``hand``'s history with its fair deck (its seed)."""
        from dataclasses import replace

        completed = self.state.completed(hand)
        assert completed is not None
        return replace(
            HandHistory.from_completed(completed), fair=self.state.fair.record(hand, public=False)
        )


def fair_table(players: int, seed: int, level: str = "random", stack: int = 100_000) -> FairTable:
    """A started table of ``players`` bots of ``level`` (random bots draw four cards and fold
    often, so late fourth cards and reshuffles come often)."""
    rules = preset("standard", players=players)
    options = {"preset": "standard", "seats": players, "stack": stack, "turn_seconds": None}
    table = FairTable(TableState("fair", rules, options), {}, random.Random(seed))
    for slot in range(players):
        table.apply(EventKind.SEAT, {"seat": slot, "nickname": NAMES[slot], "bot": None})
        table.bots[slot] = make_bot(level, seed=seed * 10 + slot)
    table.apply(EventKind.START, {})
    return table
