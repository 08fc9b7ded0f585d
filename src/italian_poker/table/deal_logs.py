"""The logs of a table's deals, read off a :class:`~italian_poker.table.machine.TableMachine`:
every deal of its match, finished or under way, in full (the host's: every card) or as one
player saw it (the engine's observer,
:func:`~italian_poker.engine.observer.observe_operations`, decides what that player may know).
"""

from __future__ import annotations

from dataclasses import dataclass

from italian_poker.engine.deal import Operation
from italian_poker.engine.observer import PUBLIC, ObservedOperation, Viewer, observe_operations
from italian_poker.engine.rules import Rules
from italian_poker.table.machine import TableMachine


@dataclass(frozen=True, slots=True)
class DealLog:
    """One deal's ``operations`` in order, with the ``players`` (ids) dealt in, in seat order,
    and the ``rules`` it was played under."""

    players: tuple[int, ...]
    operations: tuple[Operation, ...]
    rules: Rules


@dataclass(frozen=True, slots=True)
class SeenLog:
    """One deal's operations as a player saw them: from their seat (``viewer``), or as
    :data:`~italian_poker.engine.observer.PUBLIC` when they were not dealt in."""

    viewer: Viewer
    operations: tuple[ObservedOperation, ...]


def deal_logs(machine: TableMachine) -> tuple[DealLog, ...]:
    """Every deal of the table's match, the finished ones first, then the one under way."""
    logs = [
        DealLog(done.start.player_ids, done.operations, done.start.rules)
        for done in machine.completed
    ]
    match = machine.match
    deal = None if match is None else match.deal
    if deal is not None and deal.result is None:
        logs.append(DealLog(deal.start.player_ids, tuple(deal.operations), deal.start.rules))
    return tuple(logs)


def seen_logs(machine: TableMachine, player: int) -> tuple[SeenLog, ...]:
    """Every deal of the table's match (:func:`deal_logs`) as ``player`` saw it."""
    seen = []
    for log in deal_logs(machine):
        viewer: Viewer = log.players.index(player) if player in log.players else PUBLIC
        seen.append(SeenLog(viewer, observe_operations(log.operations, viewer, log.rules)))
    return tuple(seen)


__all__ = ["DealLog", "SeenLog", "deal_logs", "seen_logs"]
