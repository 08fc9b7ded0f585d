"""The commands a replica forwards to a table's owner (server/commands.py,
server/ownership.py, server/replication.py), without PostgreSQL or Redis: each command's
``op`` and ``args`` as they travel on the bus, read back as the same command; the replica's
side (:class:`ForwardingTable`) sends them and turns the owner's answers into the player's;
the owner's side (:meth:`Replication.command`) runs them and answers on the bus."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import pytest

from italian_poker.engine.actions import Action, ActionKind
from italian_poker.engine.cards import parse_cards
from italian_poker.server.bus import NoOwner, Refused
from italian_poker.server.commands import (
    Act,
    ChatSend,
    Command,
    Host,
    Play,
    RemoveChat,
    RemoveChatOf,
    RemoveSeat,
    Sit,
    TakeSeat,
    decode,
)
from italian_poker.server.event_kinds import EventKind
from italian_poker.server.ownership import ForwardingTable
from italian_poker.server.refusal import Refusal
from italian_poker.server.replication import Replication
from italian_poker.server.table_chat import TableChat
from italian_poker.server.table_core import TableCore

WIRE: list[tuple[Command, str, dict[str, Any]]] = [
    (
        Act(1, 2, 17, Action(ActionKind.RAISE, 30)),
        "act",
        {
            "seat": 1,
            "hand": 2,
            "seq": 17,
            "action": {"kind": "raise", "amount": 30, "cards": [], "split": False},
        },
    ),
    (
        Act(2, 3, 40, Action(ActionKind.DRAW, None, parse_cards("Ah Td"), True)),
        "act",
        {
            "seat": 2,
            "hand": 3,
            "seq": 40,
            "action": {"kind": "draw", "amount": None, "cards": ["Ah", "Td"], "split": True},
        },
    ),
    (
        TakeSeat("Bruno", "abc", None, 3),
        "take_seat",
        {"nickname": "Bruno", "token_hash": "abc", "bot": None, "seat": 3},
    ),
    (
        TakeSeat("Bot", None, "easy", None),
        "take_seat",
        {"nickname": "Bot", "token_hash": None, "bot": "easy", "seat": None},
    ),
    (RemoveSeat(2), "remove_seat", {"seat": 2}),
    (Sit(1, True), "sit", {"seat": 1, "out": True}),
    (
        Host(EventKind.STACK, {"seat": 1, "amount": 500}),
        "host",
        {"kind": EventKind.STACK.value, "payload": {"seat": 1, "amount": 500}},
    ),
    (ChatSend(1, "ciao", 7), "chat", {"seat": 1, "text": "ciao", "player": 7}),
    (RemoveChat(4), "remove_chat", {"message": 4}),
    (RemoveChatOf(7), "remove_chat_of", {"player": 7}),
]


@pytest.mark.parametrize(("command", "op", "args"), WIRE)
def test_a_command_travels_as_op_and_args_and_reads_back(
    command: Command, op: str, args: dict[str, Any]
) -> None:
    assert (command.op, command.args()) == (op, args)
    assert decode(op, args) == command


def test_an_action_with_members_left_out_reads_back_as_the_browser_meant_it() -> None:
    args = {"seat": 1, "hand": 2, "seq": 17, "action": {"kind": "raise", "amount": 30}}
    assert decode("act", args) == Act(1, 2, 17, Action(ActionKind.RAISE, 30))


def test_an_unknown_command_is_a_bad_message() -> None:
    with pytest.raises(Refusal) as refused:
        decode("deal", {})
    assert (refused.value.code, refused.value.status) == ("bad_message", 400)


def test_a_malformed_action_on_the_bus_is_a_bad_message() -> None:
    args = {"seat": 1, "hand": 2, "seq": 17, "action": {"kind": "bet", "amount": "x"}}
    with pytest.raises(Refusal) as refused:
        decode("act", args)
    assert (refused.value.code, refused.value.status) == ("bad_message", 400)
    assert refused.value.message.startswith("amount (a number of chips, or null) must")


class Peers:
    """A replica's side of the bus: what it forwarded, and the owner's answer."""

    def __init__(self, answer: Any = None, error: Exception | None = None) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.answer, self.error = answer, error

    async def forward(self, op: str, args: dict[str, Any]) -> Any:
        self.sent.append((op, args))
        if self.error is not None:
            raise self.error
        return self.answer


class Table:
    """A replica: its link to the owner, and how often it caught up."""

    def __init__(self, peers: Peers) -> None:
        self.peers, self.synced = peers, 0

    async def sync(self) -> None:
        self.synced += 1


class Chat:
    """A table's chat that lets any text through."""

    def checked(self, seat: int, text: str, player: int | None) -> tuple[str, None, int | None]:
        return text.strip(), None, player


def forwarding(peers: Peers) -> tuple[ForwardingTable, Table]:
    table = Table(peers)
    return ForwardingTable(cast(TableCore, table), cast(TableChat, Chat())), table


def test_a_replica_forwards_what_its_player_asks_then_catches_up() -> None:
    peers = Peers(answer=3)
    play, table = forwarding(peers)
    assert asyncio.run(play.take_seat("Bruno", "abc", None)) == 3
    asyncio.run(play.host(EventKind.PAUSE))
    assert peers.sent == [
        ("take_seat", {"nickname": "Bruno", "token_hash": "abc", "bot": None, "seat": None}),
        ("host", {"kind": EventKind.PAUSE.value, "payload": {}}),
    ]
    assert table.synced == 2


def test_the_owners_refusal_is_the_players() -> None:
    play, table = forwarding(Peers(error=Refused("not_your_turn", "it is not your turn", 409)))
    with pytest.raises(Refusal) as refused:
        asyncio.run(play.act(1, 1, 5, Action(ActionKind.CHECK)))
    assert (refused.value.code, refused.value.status) == ("not_your_turn", 409)
    assert table.synced == 0


def test_a_table_between_owners_refuses_with_no_owner() -> None:
    play, _ = forwarding(Peers(error=NoOwner()))
    with pytest.raises(Refusal) as refused:
        asyncio.run(play.sit(1, True))
    assert (refused.value.code, refused.value.status) == ("no_owner", 503)


def test_a_chat_message_the_owner_cannot_take_is_not_sent() -> None:
    peers = Peers(error=NoOwner())
    play, _ = forwarding(peers)
    with pytest.raises(Refusal) as refused:
        asyncio.run(play.chat(1, " ciao ", 7))
    assert (refused.value.code, refused.value.status) == ("chat_not_sent", 503)
    assert peers.sent == [("chat", {"seat": 1, "text": "ciao", "player": 7})]


def test_a_chat_refusal_of_the_owner_stays_a_chat_refusal() -> None:
    play, _ = forwarding(Peers(error=Refused("chat_too_fast", "slow down", 429)))
    with pytest.raises(Refusal) as refused:
        asyncio.run(play.chat(1, "ciao", 7))
    assert (refused.value.code, refused.value.status) == ("chat_too_fast", 429)


class Bus:
    """The owner's replies to the other processes."""

    def __init__(self) -> None:
        self.replies: list[tuple[str, int, Any, tuple[str, str, int] | None]] = []

    def reply(
        self, node: str, number: int, *, ok: Any = None, refusal: Refused | None = None
    ) -> None:
        said = None if refusal is None else (refusal.code, refusal.message, refusal.status)
        self.replies.append((node, number, ok, said))


class OwnerPeers:
    def __init__(self) -> None:
        self.bus = Bus()


class Owner:
    """An owner's table, as :class:`Replication` sees it."""

    id = 9
    owning = True

    def __init__(self) -> None:
        self.peers = OwnerPeers()


class Seated:
    """The owner's table: seats everyone in seat 4; refuses every action."""

    async def take_seat(
        self, nickname: str, token_hash: str | None, bot: str | None, seat: int | None = None
    ) -> int:
        return 4

    async def act(self, seat: int, hand: int, seq: int, action: Action) -> None:
        raise Refusal("stale", "the table has moved on")


def owner_replies(data: dict[str, Any]) -> list[tuple[str, int, Any, tuple[str, str, int] | None]]:
    owner = Owner()
    replication = Replication(
        cast(TableCore, owner),
        cast(Any, None),
        cast(Any, None),
        cast(Any, None),
        lambda: cast(Play, Seated()),
    )
    asyncio.run(replication.command(data))
    return owner.peers.bus.replies


def test_the_owner_runs_a_forwarded_command_and_answers_it() -> None:
    args = {"nickname": "Bruno", "token_hash": "abc", "bot": None, "seat": None}
    data = {"op": "take_seat", "args": args, "node": "two", "id": 12}
    assert owner_replies(data) == [("two", 12, 4, None)]


def test_the_owner_answers_a_refusal_and_an_unknown_command() -> None:
    action = {"seat": 1, "hand": 1, "seq": 3, "action": {"kind": "check"}}
    stale = owner_replies({"op": "act", "args": action, "node": "two", "id": 1})
    unknown = owner_replies({"op": "deal", "args": {}, "node": "two", "id": 2})
    assert stale == [("two", 1, None, ("stale", "the table has moved on", 409))]
    assert unknown == [("two", 2, None, ("bad_message", "no such command: 'deal'", 400))]
