"""What a client sends over a table's WebSocket, parsed once when it arrives: each message a
typed model (``hello``, ``action`` with its parsed :class:`~italian_poker.engine.actions.Action`,
``sit_out``, ``sit_in``, ``ping``, ``chat``); anything else is a :class:`BadMessage`."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, PlainValidator, ValidationError

from italian_poker.engine.actions import Action, ActionKind
from italian_poker.engine.cards import Card, parse_card
from italian_poker.engine.deck import HAND_SIZE
from italian_poker.engine.errors import ItalianPokerError
from italian_poker.server.limits import MAX_CHIPS, MAX_INT, whole_number


class BadMessage(ValueError):
    """A client message that is not valid JSON of a known shape."""


def _wire_number(what: str) -> PlainValidator:
    """A message's whole number, 0 to :data:`MAX_INT` (:func:`whole_number`: no bool, float
    or string)."""
    return PlainValidator(
        lambda value: whole_number(value, 0, MAX_INT, what), json_schema_input_type=int
    )


_ACTION_KINDS = frozenset(kind.value for kind in ActionKind)


def parse_action(value: Any) -> Action:
    """The client's ``action`` object, ``{"kind", "amount", "cards", "split"}`` (only
    ``kind`` is required), as an :class:`Action`; raises ``ValueError`` with what is wrong.
    Whether the action is legal, and in turn, is the table's to say."""
    if not isinstance(value, dict):
        raise ValueError("an action needs an 'action' object")
    kind = value.get("kind")
    if not isinstance(kind, str) or kind not in _ACTION_KINDS:  # a list is not hashable
        raise ValueError(f"unknown action kind {kind!r}")
    amount = value.get("amount")
    if amount is not None:
        whole_number(amount, 0, MAX_CHIPS, "amount (a number of chips, or null)")
    raw_cards = value.get("cards") or []
    if not isinstance(raw_cards, list) or len(raw_cards) > HAND_SIZE:
        raise ValueError(f"cards must be a list of at most {HAND_SIZE} card codes")
    cards: list[Card] = []
    for text in raw_cards:
        if not isinstance(text, str) or len(text) > 3:
            raise ValueError("each card is a code like 'Ah' or 'Td'")
        try:
            cards.append(parse_card(text))
        except ItalianPokerError as error:
            raise ValueError(str(error)) from None
    split = value.get("split", False)
    if not isinstance(split, bool):
        raise ValueError("split must be true or false")
    return Action(ActionKind(kind), amount, tuple(cards), split)


def _token(value: Any) -> str | None:
    return value if isinstance(value, str) else None


class Hello(BaseModel):
    """``{"type": "hello", "token": ...}``: the first message says whose seat this is (a
    token that is not a string holds none); a later one asks for the state again."""

    type: Literal["hello"]
    token: Annotated[str | None, PlainValidator(_token)] = None


class ActionMessage(BaseModel):
    """``{"type": "action", "hand", "seq", "action": {"kind", "amount", "cards", "split"}}``:
    a move on the state of deal ``hand`` at ``seq``, its action read by
    :func:`parse_action`."""

    type: Literal["action"]
    hand: Annotated[int, _wire_number("an action's 'hand'")] = Field(
        default=None, validate_default=True
    )
    seq: Annotated[int, _wire_number("an action's 'seq'")] = Field(
        default=None, validate_default=True
    )
    action: Annotated[Action, PlainValidator(parse_action)] = Field(
        default=None, validate_default=True
    )


class SitOut(BaseModel):
    """``{"type": "sit_out"}``: deal me out from the next deal."""

    type: Literal["sit_out"]


class SitIn(BaseModel):
    """``{"type": "sit_in"}``: deal me in again."""

    type: Literal["sit_in"]


class Ping(BaseModel):
    """``{"type": "ping"}``: answered ``{"type": "pong"}``."""

    type: Literal["ping"]


def _chat_text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError("a chat message needs its 'text', a string")
    return value


class Chat(BaseModel):
    """``{"type": "chat", "text": ...}``: a message to the table's chat, from a seated
    player; what it may hold, and how often, is :mod:`italian_poker.server.chat`'s."""

    type: Literal["chat"]
    text: Annotated[str, PlainValidator(_chat_text)] = Field(default=None, validate_default=True)


ClientMessage = Hello | ActionMessage | SitOut | SitIn | Ping | Chat
"""What a client may send; any other member of a message is left out."""
_MODELS: dict[str, type[ClientMessage]] = {
    "hello": Hello,
    "action": ActionMessage,
    "sit_out": SitOut,
    "sit_in": SitIn,
    "ping": Ping,
    "chat": Chat,
}
MESSAGE_TYPES = frozenset(_MODELS)


def parse_message(text: str) -> ClientMessage:
    """A client message: a JSON object with a known ``type``, as its model; raises
    :class:`BadMessage` with what is wrong (the first problem, members in the order above)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: nested too deep
        raise BadMessage("a message must be a JSON object") from None
    if not isinstance(data, dict):
        raise BadMessage("a message must be a JSON object")
    kind = data.get("type")
    model = _MODELS.get(kind) if isinstance(kind, str) else None  # a list is not hashable
    if model is None:
        raise BadMessage(f"unknown message type {kind!r}; use one of {sorted(MESSAGE_TYPES)}")
    try:
        return model.model_validate(data)
    except ValidationError as error:
        problem = error.errors()[0]
        raise BadMessage(str(problem.get("ctx", {}).get("error", problem["msg"]))) from None
