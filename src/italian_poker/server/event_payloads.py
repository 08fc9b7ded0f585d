"""The payloads of a table's ``action`` events.

An ``action`` event records one command of the player to act
(:mod:`italian_poker.table.commands`), as it came:

- ``{seat, kind, amount, cards, split, auto, bank}``: the player's own action
  (:class:`~italian_poker.table.commands.Act`); logs written before recorded a bot's move and
  a turn that ran out this way too, with ``auto`` and ``default``;
- ``{seat, bot: {kind, amount, cards, split}}``: a bot's choice
  (:class:`~italian_poker.table.commands.BotAct`: played if legal, else the default action);
- ``{seat, auto: true, bank}``: the turn ran out, or the seat sits out or leaves, and the
  table plays the default action (:class:`~italian_poker.table.commands.TimeOut`).

Every one of them may carry the cards the event took (``taken``,
:mod:`italian_poker.server.recorded_cards`).
"""

from __future__ import annotations

from typing import Any

from italian_poker.engine.actions import Action, ActionKind
from italian_poker.engine.cards import parse_card
from italian_poker.table.commands import Act, BotAct, PlayCommand, TimeOut

BOT = "bot"
"""The key of a bot's choice in an ``action`` payload."""


def action_json(action: Action) -> dict[str, Any]:
    """``action`` as an event records it."""
    return {
        "kind": action.kind.value,
        "amount": action.amount,
        "cards": [str(c) for c in action.cards],
        "split": action.split,
    }


def action_payload(
    seat: int, action: Action, auto: bool = False, bank: float | None = None
) -> dict[str, Any]:
    """The ``action`` event of a player's own ``action``; ``bank``: the seat's time bank left
    after it."""
    payload: dict[str, Any] = {"seat": seat, **action_json(action)}
    if auto:
        payload["auto"] = True
    if bank is not None:
        payload["bank"] = bank
    return payload


def bot_payload(seat: int, action: Action) -> dict[str, Any]:
    """The ``action`` event of a bot's choice."""
    return {"seat": seat, BOT: action_json(action)}


def timeout_payload(seat: int, bank: float | None = None) -> dict[str, Any]:
    """The ``action`` event of a turn the table plays for the seat (time ran out, the seat
    sits out or leaves)."""
    payload: dict[str, Any] = {"seat": seat, "auto": True}
    if bank is not None:
        payload["bank"] = bank
    return payload


def recorded_action(data: dict[str, Any]) -> Action:
    """The action an event recorded (written by the server, so trusted to be well formed)."""
    return Action(
        ActionKind(data["kind"]),
        None if data.get("amount") is None else int(data["amount"]),
        tuple(parse_card(c) for c in data.get("cards") or ()),
        bool(data.get("split", False)),
    )


def play_command(player: int, payload: dict[str, Any]) -> PlayCommand:
    """The command an ``action`` event recorded, for ``player`` (the person in its seat)."""
    if "kind" in payload:
        return Act(player, recorded_action(payload))
    if BOT in payload:
        return BotAct(player, recorded_action(payload[BOT]))
    return TimeOut(player)


def bank_of(payload: dict[str, Any]) -> float | None:
    """The ``bank`` of an ``action`` payload: seconds, at least 0; None when absent."""
    value = payload.get("bank")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"a time bank is a number of seconds, not {value!r}")
    return max(0.0, float(value))
