"""The observer of the OpenSpiel game: tensors and strings made from the engine's views.

Everything here is read off what the engine's observer (engine/observer.py) gives the player,
through the table machine: its :class:`~italian_poker.engine.observer.SeatView` of the deal
(``TableMachine.view``; the public view for a player not dealt in), and for the information
state each deal's operations log as that player saw it
(:func:`~italian_poker.table.deal_logs.seen_logs`, by the observer's
:func:`~italian_poker.engine.observer.observe_operations`). Nothing re-derives what a player
may see. The layout of the tensors is in docs/ai.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields, is_dataclass
from enum import Enum
from typing import Any

import numpy as np
import pyspiel

from italian_poker.ai.config import GameConfig
from italian_poker.ai.encoding import CARDS
from italian_poker.ai.players import MachineHolder, player_name
from italian_poker.engine.actions import ActionKind
from italian_poker.engine.cards import Card, Rank
from italian_poker.engine.deal import Phase
from italian_poker.engine.hand_rank import HandRank
from italian_poker.engine.match import MatchPhase
from italian_poker.engine.observer import PUBLIC, PublicAction, PublicView, SeatView
from italian_poker.table.deal_logs import seen_logs
from italian_poker.table.machine import TableMachine

PHASES = (*Phase, MatchPhase.MAKE_UP)
"""The phases a view is in: the deal's, or the 5.5 make-up questions before a deal."""
KINDS = tuple(ActionKind)
PAIRS = (Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)
CHANGED = 6
"""A player's draw, one-hot: not yet drawn, then 0 to 4 cards changed."""


def _action_width(players: int) -> int:
    """One action of the history: who (one-hot), kind (one-hot), amount, cards changed (or
    -1), phase (one-hot)."""
    return players + len(KINDS) + 2 + len(PHASES)


def tensor_pieces(config: GameConfig, perfect_recall: bool) -> list[tuple[str, tuple[int, ...]]]:
    """The named pieces of the tensor, in order, with their shapes."""
    n = config.players
    pieces: list[tuple[str, tuple[int, ...]]] = [
        ("player", (n,)),
        ("deals_done", (1,)),
        ("phase", (len(PHASES),)),
        ("hand", (CARDS,)),
        ("kept_apart", (CARDS,)),
        ("discards_seen", (CARDS,)),
        ("shown", (CARDS,)),
        ("proof", (CARDS,)),
        ("dealt_in", (n,)),
        ("stack", (n,)),
        ("round_bet", (n,)),
        ("committed", (n,)),
        ("folded", (n,)),
        ("changed", (n, CHANGED)),
        ("actor", (n,)),
        ("dealer", (n,)),
        ("opener", (n,)),
        ("blinder", (n,)),
        ("parol", (n,)),
        ("pot", (1,)),
        ("current_bet", (1,)),
        ("checked", (1,)),
        ("min_pair", (len(PAIRS),)),
    ]
    if perfect_recall:
        pieces += [
            ("history", (config.history, _action_width(n))),
            ("history_overflow", (1,)),
        ]
    return pieces


CHIP_PIECES = frozenset({"stack", "round_bet", "committed", "pot", "current_bet"})
"""The pieces that hold chip amounts, as plain numbers: 0 to all the chips at the table."""


def tensor_bounds(
    config: GameConfig, perfect_recall: bool
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """The lowest and highest value of every entry of the tensor (docs/ai.md): chip amounts
    0 to the table's chips (they are conserved: a pot or a stack never holds more),
    ``deals_done`` 0 to ``deals``, a history row's cards changed -1 to 4, everything else
    0 or 1."""
    low_parts: list[np.ndarray[Any, Any]] = []
    high_parts: list[np.ndarray[Any, Any]] = []
    chips = float(config.total_chips)
    n = config.players
    for name, shape in tensor_pieces(config, perfect_recall):
        low = np.zeros(shape, np.float32)
        high = np.ones(shape, np.float32)
        if name in CHIP_PIECES:
            high[...] = chips
        elif name == "deals_done":
            high[...] = config.deals
        elif name == "history":
            high[:, n + len(KINDS)] = chips  # the amount
            low[:, n + len(KINDS) + 1] = -1  # the cards changed, -1 for none
            high[:, n + len(KINDS) + 1] = CHANGED - 2
        low_parts.append(low.ravel())
        high_parts.append(high.ravel())
    return np.concatenate(low_parts), np.concatenate(high_parts)


def view_of(machine: TableMachine, player: int) -> SeatView | PublicView | None:
    """What ``player`` sees of the current (or last) deal: its seat view, the public view if
    it is not dealt in, ``None`` before the first deal."""
    if player in machine.deal_players:
        return machine.view(player)
    return machine.public_view()


class ItalianPokerObserver:
    """``make_py_observer``'s observer: ``tensor`` and ``dict`` (views of it by piece),
    filled by :meth:`set_from`; :meth:`string_from` for the strings."""

    def __init__(
        self, config: GameConfig, iig_obs_type: pyspiel.IIGObservationType, params: Any
    ) -> None:
        if params:
            raise ValueError(f"the observer takes no parameters, not {params!r}")
        self.config = config
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        pieces = tensor_pieces(config, self.perfect_recall)
        size = sum(int(np.prod(shape)) for _, shape in pieces)
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray[Any, Any]] = {}
        offset = 0
        for name, shape in pieces:
            width = int(np.prod(shape))
            self.dict[name] = self.tensor[offset : offset + width].reshape(shape)
            offset += width

    def set_from(self, state: MachineHolder, player: int) -> None:
        """Fill the tensor with what ``player`` knows in ``state``."""
        self.tensor.fill(0)
        pieces = self.dict
        machine = state.machine
        pieces["player"][player] = 1
        pieces["deals_done"][0] = len(machine.completed)
        view = view_of(machine, player)
        if view is None:
            return
        ids = view.player_ids
        phase: Phase | MatchPhase = (
            MatchPhase.MAKE_UP if machine.phase is MatchPhase.MAKE_UP else view.phase
        )
        pieces["phase"][PHASES.index(phase)] = 1
        if isinstance(view, SeatView):
            _cards(pieces["hand"], view.hand)
            _cards(pieces["kept_apart"], view.kept_apart)
        for action in view.actions:
            _cards(pieces["discards_seen"], action.discards)
        for cards in view.shown.values():
            _cards(pieces["shown"], cards)
        _cards(pieces["proof"], view.proof)
        for seat, p in enumerate(ids):
            pieces["dealt_in"][p] = 1
            pieces["stack"][p] = view.stacks[seat]
            pieces["round_bet"][p] = view.round_bets[seat]
            pieces["committed"][p] = view.committed[seat]
            pieces["folded"][p] = view.folded[seat]
            changed = view.cards_changed[seat]
            pieces["changed"][p, 0 if changed is None else changed + 1] = 1
        if view.actor is not None:
            pieces["actor"][ids[view.actor]] = 1
        pieces["dealer"][ids[view.dealer]] = 1
        if view.opener is not None:
            pieces["opener"][ids[view.opener]] = 1
        for seat in view.blinders:
            pieces["blinder"][ids[seat]] = 1
        for seat in view.parols:
            pieces["parol"][ids[seat]] = 1
        pieces["pot"][0] = view.pot
        pieces["current_bet"][0] = view.current_bet
        pieces["checked"][0] = view.checked
        pieces["min_pair"][PAIRS.index(view.requirement.min_pair)] = 1
        if self.perfect_recall:
            self._history(view.actions, ids)

    def _history(self, actions: Sequence[PublicAction], ids: tuple[int, ...]) -> None:
        rows = self.dict["history"]
        n = self.config.players
        kinds, phases = len(KINDS), len(PHASES)
        for row, action in zip(rows, actions, strict=False):
            row[ids[action.seat]] = 1
            row[n + KINDS.index(action.kind)] = 1
            row[n + kinds] = action.amount or 0
            row[n + kinds + 1] = -1 if action.cards_changed is None else action.cards_changed
            row[n + kinds + 2 + PHASES.index(action.phase)] = 1
        assert phases
        self.dict["history_overflow"][0] = len(actions) > len(rows)

    def string_from(self, state: MachineHolder, player: int) -> str:
        """What ``player`` knows in ``state``, as text: with perfect recall every deal's
        operations as the player saw them and the current view, else the current view."""
        machine = state.machine
        head = f"{player_name(player)} deals done {len(machine.completed)} {machine.phase.value}"
        actor = machine.to_act
        if actor is not None:
            head += f" to act {player_name(actor)}"
        if not self.perfect_recall:
            view = view_of(machine, player)
            return head if view is None else f"{head}\n{_view_text(view)}"
        lines = [head]
        for number, log in enumerate(seen_logs(machine, player), 1):
            viewer = log.viewer
            lines.append(f"deal {number} as {viewer if viewer is PUBLIC else f'seat {viewer}'}")
            lines.extend(_text(op) for op in log.operations)
        # The log has the actions; the view has what they showed (the hands shown so far).
        view = view_of(machine, player)
        if view is not None:
            lines.append(f"now {_view_text(view)}")
        return "\n".join(lines)


def _text(value: object) -> str:
    """``value`` (an operation as seen, or one of its fields) in full, with cards and hand
    ranks as the table writes them (``As``, ``Pair of Jacks``) and enums by value."""
    if isinstance(value, Card | HandRank):
        return str(value)
    if isinstance(value, Enum):
        return str(value.value)
    if is_dataclass(value) and not isinstance(value, type):
        inner = " ".join(f"{f.name}={_text(getattr(value, f.name))}" for f in fields(value))
        return f"{type(value).__name__}({inner})"
    if isinstance(value, tuple | list):
        return "[" + " ".join(_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_text(k)}: {_text(v)}" for k, v in value.items()) + "}"
    return str(value)


def _cards(row: np.ndarray[Any, Any], cards: Sequence[Card]) -> None:
    for card in cards:
        row[card.index] = 1


def _view_text(view: SeatView | PublicView) -> str:
    hand = " ".join(str(c) for c in view.hand) if isinstance(view, SeatView) else "-"
    seats = ", ".join(
        f"{player_name(p)} {stack}{' folded' if folded else ''} bet {bet} changed "
        f"{'-' if changed is None else changed}"
        for p, stack, folded, bet, changed in zip(
            view.player_ids,
            view.stacks,
            view.folded,
            view.round_bets,
            view.cards_changed,
            strict=True,
        )
    )
    shown = "; ".join(
        f"{player_name(view.player_ids[s])} " + " ".join(str(c) for c in cards)
        for s, cards in view.shown.items()
    )
    return (
        f"{view.phase.value} hand {hand} pot {view.pot} to match {view.current_bet} "
        f"seats {seats}" + (f" shown {shown}" if shown else "")
    )
