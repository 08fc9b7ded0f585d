"""Hand histories the tests share: random legal play across every preset and 2 to 9 players
(:data:`HISTORIES`), and the examples of docs/hand-history.md (:func:`docs_examples`)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

from italian_poker.engine.actions import Action, ActionKind, LegalAction
from italian_poker.engine.cards import Card
from italian_poker.engine.errors import InvalidDrawError
from italian_poker.engine.history import HandHistory
from italian_poker.engine.match import Match, MatchPhase
from italian_poker.engine.rules import PRESETS, preset

DOCS = Path(__file__).resolve().parents[1] / "docs" / "hand-history.md"
NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Ivo", "Luca")


# --- a random legal policy ------------------------------------------------------------------


def choose(legal: tuple[LegalAction, ...], hand: list[Card], rng: random.Random) -> Action:
    """A random legal action, biased so that deals reach the draw, 4-card draws and parols."""
    kinds = {la.kind: la for la in legal}
    if ActionKind.DRAW in kinds:
        count = rng.choice([0, 1, 2, 3, 4, 4, 4])
        return Action(ActionKind.DRAW, cards=tuple(rng.sample(hand, count)))
    if ActionKind.MAKE_UP in kinds:
        return Action(rng.choice([ActionKind.MAKE_UP, ActionKind.SIT_OUT]))
    if ActionKind.PAROL in kinds and rng.random() < 0.7:
        return Action(ActionKind.PAROL)
    if ActionKind.OPEN in kinds and rng.random() < 0.8:
        la = kinds[ActionKind.OPEN]
        return Action(ActionKind.OPEN, rng.randint(la.min_amount or 0, la.max_amount or 0))
    if ActionKind.BLIND in kinds or ActionKind.CONTROBUIO in kinds or ActionKind.OVER in kinds:
        la = legal[0]
        return Action(la.kind) if rng.random() < 0.4 else Action(ActionKind.DECLINE)
    weights = {
        ActionKind.CALL: 6,
        ActionKind.CHECK: 4,
        ActionKind.FOLD: 1,
        ActionKind.PASS: 3,
        ActionKind.RAISE: 1,
        ActionKind.BET: 2,
        ActionKind.SHOW: 5,
        ActionKind.MUCK: 2,
        ActionKind.OPEN: 1,
        ActionKind.PAROL: 1,
    }
    options = [la for la in legal if la.kind in weights]
    la = rng.choices(options, [weights[o.kind] for o in options])[0]
    if la.kind in (ActionKind.OPEN, ActionKind.BET, ActionKind.RAISE):
        return Action(la.kind, rng.randint(la.min_amount or 0, la.max_amount or 0))
    return Action(la.kind)


def apply_random(apply: Callable[[Action], object], action: Action) -> None:
    """Apply, announcing a split (4.4) when a draw breaks the opening."""
    try:
        apply(action)
    except InvalidDrawError:
        apply(replace(action, split=True))


def play_match(name: str, players: int, seed: int, deals: int) -> Match:
    """A match of ``deals`` deals under preset ``name`` with random legal play."""
    rng = random.Random(seed)
    rules = preset(name, players=players)
    stacks = [rng.choice([30, 60, 200]) for _ in range(players)]
    match = Match(rules, list(zip(NAMES, stacks, strict=False)), seed=seed)
    while len(match.completed) < deals and match.phase is not MatchPhase.OVER:
        match.start_deal()
        while match.phase in (MatchPhase.IN_DEAL, MatchPhase.MAKE_UP):
            deal = match.deal
            hand = deal.hands[deal.actor] if deal is not None and deal.actor is not None else []
            action = choose(match.legal_actions(), hand, rng)
            apply_random(match.apply, action)
    return match


def random_histories() -> Iterator[HandHistory]:
    """Histories of many random deals: every preset, 2 to 9 players."""
    for k, name in enumerate(PRESETS):
        for players in range(2, 10):
            match = play_match(name, players, seed=1000 * k + players, deals=5)
            for completed in match.completed:
                yield HandHistory.from_completed(completed)


HISTORIES = list(random_histories())


def docs_examples() -> list[str]:
    """The TOML examples of docs/hand-history.md."""
    return re.findall(r"```toml\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S)
