"""What a table's players ask of it, as typed commands: what a replica sends its owner over
the bus (:meth:`~italian_poker.server.peers.TablePeers.forward`: an ``op`` and its ``args``)
and what the owner runs on its table (:class:`~italian_poker.server.ownership.Play`), as for
a player of its own."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from italian_poker.engine.actions import Action
from italian_poker.server.client_messages import parse_action
from italian_poker.server.event_kinds import EventKind
from italian_poker.server.event_payloads import action_json
from italian_poker.server.refusal import Refusal


class Play(Protocol):
    """What a table's players and host do at it: the owner applies it
    (:class:`~italian_poker.server.ownership.LocalTable`), a replica has its owner do it
    (:class:`~italian_poker.server.ownership.ForwardingTable`)."""

    async def take_seat(
        self, nickname: str, token_hash: str | None, bot: str | None, seat: int | None = None
    ) -> int:
        """Seat a player (with their token hash) or a bot in ``seat`` or the first free one."""
        ...

    async def ask_seat(self, nickname: str, token_hash: str) -> int | None:
        """A newcomer's seat, or (a locked table) their seat request: None."""
        ...

    async def answer_seat(self, player: int, admit: bool, by: int | None) -> None:
        """The host (or the co-host in seat ``by``) admits or refuses a newcomer."""
        ...

    async def remove_seat(self, seat: int) -> None:
        """Kick a player or remove a bot."""
        ...

    async def sit(self, seat: int, out: bool) -> None:
        """Sit a player out or back in."""
        ...

    async def act(self, seat: int, hand: int, seq: int, action: Action) -> None:
        """A player's ``action`` on the state of deal ``hand`` at ``seq``."""
        ...

    async def host(self, kind: EventKind, payload: dict[str, Any] | None = None) -> None:
        """A host's event."""
        ...

    async def chat(self, seat: int, text: str, player: int | None = None) -> None:
        """A chat message of the person in ``seat``."""
        ...

    async def fair_value(self, seat: int, commitment: str, value: bytes) -> None:
        """The value of the person in ``seat`` for the deck of ``commitment``."""
        ...

    async def remove_chat(self, message_id: int) -> list[int]:
        """The host removes a chat message."""
        ...

    async def remove_chat_of(self, player: int) -> list[int]:
        """The host removes every chat message of a person."""
        ...


class Command(Protocol):
    """A command: its ``op`` and ``args`` on the bus, and what it does at the table."""

    op: ClassVar[str]

    def args(self) -> dict[str, Any]:
        """The command's arguments, as JSON."""
        ...

    async def run(self, play: Play) -> Any:
        """Do it at ``play``; the answer, as JSON (None: nothing to answer)."""
        ...


@dataclass(frozen=True, slots=True)
class Act:
    """A player's action; on the bus as the browser sends it (:func:`action_json`)."""

    op: ClassVar[str] = "act"
    seat: int
    hand: int
    seq: int
    action: Action

    def args(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "hand": self.hand,
            "seq": self.seq,
            "action": action_json(self.action),
        }

    async def run(self, play: Play) -> Any:
        await play.act(self.seat, self.hand, self.seq, self.action)


@dataclass(frozen=True, slots=True)
class TakeSeat:
    op: ClassVar[str] = "take_seat"
    nickname: str
    token_hash: str | None
    bot: str | None
    seat: int | None

    def args(self) -> dict[str, Any]:
        return {
            "nickname": self.nickname,
            "token_hash": self.token_hash,
            "bot": self.bot,
            "seat": self.seat,
        }

    async def run(self, play: Play) -> Any:
        return await play.take_seat(self.nickname, self.token_hash, self.bot, self.seat)


@dataclass(frozen=True, slots=True)
class AskSeat:
    op: ClassVar[str] = "ask_seat"
    nickname: str
    token_hash: str

    def args(self) -> dict[str, Any]:
        return {"nickname": self.nickname, "token_hash": self.token_hash}

    async def run(self, play: Play) -> Any:
        return await play.ask_seat(self.nickname, self.token_hash)


@dataclass(frozen=True, slots=True)
class AnswerSeat:
    op: ClassVar[str] = "answer_seat"
    player: int
    admit: bool
    by: int | None

    def args(self) -> dict[str, Any]:
        return {"player": self.player, "admit": self.admit, "by": self.by}

    async def run(self, play: Play) -> Any:
        await play.answer_seat(self.player, self.admit, self.by)


@dataclass(frozen=True, slots=True)
class RemoveSeat:
    op: ClassVar[str] = "remove_seat"
    seat: int

    def args(self) -> dict[str, Any]:
        return {"seat": self.seat}

    async def run(self, play: Play) -> Any:
        await play.remove_seat(self.seat)


@dataclass(frozen=True, slots=True)
class Sit:
    op: ClassVar[str] = "sit"
    seat: int
    out: bool

    def args(self) -> dict[str, Any]:
        return {"seat": self.seat, "out": self.out}

    async def run(self, play: Play) -> Any:
        await play.sit(self.seat, self.out)


@dataclass(frozen=True, slots=True)
class Host:
    op: ClassVar[str] = "host"
    kind: EventKind
    payload: dict[str, Any]

    def args(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "payload": self.payload}

    async def run(self, play: Play) -> Any:
        await play.host(self.kind, self.payload)


@dataclass(frozen=True, slots=True)
class ChatSend:
    op: ClassVar[str] = "chat"
    seat: int
    text: str
    player: int | None

    def args(self) -> dict[str, Any]:
        return {"seat": self.seat, "text": self.text, "player": self.player}

    async def run(self, play: Play) -> Any:
        await play.chat(self.seat, self.text, self.player)


@dataclass(frozen=True, slots=True)
class RemoveChat:
    op: ClassVar[str] = "remove_chat"
    message: int

    def args(self) -> dict[str, Any]:
        return {"message": self.message}

    async def run(self, play: Play) -> Any:
        return await play.remove_chat(self.message)


@dataclass(frozen=True, slots=True)
class RemoveChatOf:
    op: ClassVar[str] = "remove_chat_of"
    player: int

    def args(self) -> dict[str, Any]:
        return {"player": self.player}

    async def run(self, play: Play) -> Any:
        return await play.remove_chat_of(self.player)


@dataclass(frozen=True, slots=True)
class FairValue:
    op: ClassVar[str] = "fair_value"
    seat: int
    commitment: str
    value: bytes

    def args(self) -> dict[str, Any]:
        return {"seat": self.seat, "commitment": self.commitment, "value": self.value.hex()}

    async def run(self, play: Play) -> Any:
        await play.fair_value(self.seat, self.commitment, self.value)


def _optional(value: Any) -> int | None:
    return None if value is None else int(value)


def decode(op: str, args: dict[str, Any]) -> Command:
    """The command ``op`` with ``args``, as another process sent it; a ``bad_message``
    refusal for an ``op`` no command has, or an action :func:`parse_action` refuses (other
    malformed ``args`` raise)."""
    if op == Act.op:
        try:
            action = parse_action(args["action"])
        except ValueError as error:
            raise Refusal("bad_message", str(error), 400) from None
        return Act(int(args["seat"]), int(args["hand"]), int(args["seq"]), action)
    if op == TakeSeat.op:
        return TakeSeat(
            str(args["nickname"]),
            args.get("token_hash"),
            args.get("bot"),
            _optional(args.get("seat")),
        )
    if op == AskSeat.op:
        return AskSeat(str(args["nickname"]), str(args["token_hash"]))
    if op == AnswerSeat.op:
        return AnswerSeat(int(args["player"]), bool(args["admit"]), _optional(args.get("by")))
    if op == RemoveSeat.op:
        return RemoveSeat(int(args["seat"]))
    if op == Sit.op:
        return Sit(int(args["seat"]), bool(args["out"]))
    if op == Host.op:
        return Host(EventKind(args["kind"]), dict(args.get("payload") or {}))
    if op == ChatSend.op:
        return ChatSend(int(args["seat"]), str(args["text"]), _optional(args.get("player")))
    if op == RemoveChat.op:
        return RemoveChat(int(args["message"]))
    if op == FairValue.op:
        return FairValue(int(args["seat"]), str(args["commitment"]), bytes.fromhex(args["value"]))
    if op == RemoveChatOf.op:
        return RemoveChatOf(int(args["player"]))
    raise Refusal("bad_message", f"no such command: {op!r}", 400)
