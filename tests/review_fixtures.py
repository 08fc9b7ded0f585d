"""Hand histories for the review tests: a known deal (a pat flush thrown away) and sessions
played by bots, saved as the terminal game saves them."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from engine_helpers import cards, new_deal, rules

from italian_poker.analysis.bots import make_bot
from italian_poker.engine.actions import Action, ActionKind
from italian_poker.engine.deal import Deal
from italian_poker.engine.history import HandHistory, dumps, replay
from italian_poker.engine.match import Match
from italian_poker.engine.rules import preset
from italian_poker.play.storage import HistoryStore

FLUSH = "7h 9h Jh Qh Kh"
"""Seat 2's hand in the known deal: a flush, pat (6.1: it beats a full house)."""


def finished(deal: Deal) -> HandHistory:
    """The deal played out by checks, calls and shows; its history, verified by a replay."""
    while not deal.is_over:
        legal = {la.kind for la in deal.legal_actions()}
        kind = next(k for k in (ActionKind.CHECK, ActionKind.CALL, ActionKind.SHOW) if k in legal)
        deal.apply(Action(kind), deal.actor)
    history = HandHistory.from_deal(deal)
    replay(history)
    return history


def flush_deal(*, seat_two: Action | None = None, discard: str = "7h 9h") -> HandHistory:
    """Four players, no blinds: seat 1 opens on two pair (3.3(a)), seat 2 calls with a pat
    flush (or plays ``seat_two``), seats 3 and 0 fold; at the draw seat 1 changes its odd card
    and seat 2 throws ``discard`` away, breaking the flush; then checks to the showdown."""
    deal = new_deal(
        rules(),
        {1: "Ad As 8c 8d Tc", 2: FLUSH, 3: "7c 9s Jd Qc Ks", 0: "7d 8s 9d Ts Jc"},
    )
    deal.apply(Action(ActionKind.OPEN, 10), 1)
    deal.apply(seat_two or Action(ActionKind.CALL), 2)
    deal.apply(Action(ActionKind.FOLD), 3)
    deal.apply(Action(ActionKind.FOLD), 0)
    if deal.is_over:
        return finished(deal)
    deal.apply(Action(ActionKind.DRAW, cards=cards("Tc")), 1)
    deal.apply(Action(ActionKind.DRAW, cards=cards(discard)), 2)
    return finished(deal)


NAMES = ["Player", "Anna", "Bruno", "Carla"]
"""The terminal game's English name for its player, and three bots."""


def bot_session(
    root: Path, *, seed: int = 3, deals: int = 6, names: list[str] = NAMES
) -> list[Path]:
    """A session of bots (the first seat simple, the others strong) saved by the terminal
    game's store under ``root``; the files written."""
    match = Match(preset("standard", players=len(names)), [(n, 100) for n in names], seed=seed)
    bots = {
        name: make_bot("simple" if i == 0 else "strong", seed=seed + i)
        for i, name in enumerate(names)
    }
    store = HistoryStore(root, started=datetime(2026, 12, 1, 10, 0, seed % 60))
    paths = []
    for _ in range(deals):
        match.start_deal()
        while match.actor is not None:
            actor = match.actor
            match.apply(bots[actor].act(match.view(actor)), actor)
        paths.append(store.save(match.completed[-1]))
    return paths


def write(path: Path, history: HandHistory) -> Path:
    """``history`` saved at ``path``."""
    path.write_text(dumps(history), encoding="utf-8")
    return path
