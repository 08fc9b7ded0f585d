"""The two ways a table does what its players ask (:class:`~italian_poker.server.commands.Play`),
chosen when its ownership changes: its owner applies it under the table's lock
(:class:`LocalTable`: checked by the engine, committed, then told), a replica sends it over
the bus to the owner and catches up with what the owner wrote (:class:`ForwardingTable`;
:mod:`italian_poker.server.peers`). The owner's refusal is the replica's player's."""

from __future__ import annotations

from typing import Any

from italian_poker.engine.actions import Action
from italian_poker.engine.errors import DealOverError, ItalianPokerError, NotYourTurnError
from italian_poker.server.bus import NoOwner, Refused
from italian_poker.server.commands import (
    Act,
    AnswerSeat,
    AskSeat,
    ChatSend,
    Command,
    FairValue,
    Host,
    RemoveChat,
    RemoveChatOf,
    RemoveSeat,
    Sit,
    TakeSeat,
)
from italian_poker.server.event_kinds import EventKind
from italian_poker.server.event_payloads import action_payload
from italian_poker.server.home_desk import refusal_code
from italian_poker.server.limits import MAX_CHIPS
from italian_poker.server.nicknames import nickname_key
from italian_poker.server.presence import Presence
from italian_poker.server.refusal import Refusal
from italian_poker.server.table_chat import TableChat
from italian_poker.server.table_core import TableCore, TablePart
from italian_poker.server.table_state import TableStatus
from italian_poker.server.turn_clock import TurnClock


class LocalTable(TablePart):
    """The owner's table: every request applied here, under the table's lock."""

    def __init__(
        self, table: TableCore, presence: Presence, clock: TurnClock, chat_: TableChat
    ) -> None:
        super().__init__(table)
        self.presence, self.clock, self.table_chat = presence, clock, chat_

    @property
    def tokens(self) -> dict[int, str]:
        """Each human seat's token hash."""
        return self.table.tokens

    def _use_bank(self, seat: int) -> float | None:
        return self.clock.use_bank(seat)

    async def take_seat(
        self, nickname: str, token_hash: str | None, bot: str | None, seat: int | None = None
    ) -> int:
        """Seat a player (with their token hash) or a bot in ``seat`` or the first free one."""
        async with self.lock:
            chosen = self.state.free_seat() if seat is None else seat
            if chosen is None:
                raise Refusal("full", "the table is full")
            like = self.state.look_alike(nickname)
            if like == nickname:
                raise Refusal("nickname_taken", f"the nickname {nickname!r} is taken here")
            if like is not None:
                raise Refusal(
                    "nickname_taken", f"{nickname!r} looks like {like!r}, who is at this table"
                )
            room = MAX_CHIPS - self.state.chips()
            if self.state.stack_default > room:
                raise Refusal(
                    "table_chips",
                    f"the table holds {MAX_CHIPS - room} chips: a buy-in of "
                    f"{self.state.stack_default} would pass the {MAX_CHIPS} a table may hold",
                )
            if token_hash is not None:
                self.tokens[chosen] = token_hash
            try:
                await self._commit(
                    EventKind.SEAT, {"seat": chosen, "nickname": nickname, "bot": bot}
                )
            except ItalianPokerError as error:
                self.tokens.pop(chosen, None)
                raise Refusal("illegal", str(error)) from None
            if bot is None:
                self.presence.keep_seat(chosen)
            return chosen

    async def ask_seat(self, nickname: str, token_hash: str) -> int | None:
        """A newcomer's seat: at an open table, taken at once (its number); at a locked one,
        a ``seat_ask`` event that waits for the host's answer (None)."""
        async with self.lock:
            if self.state.desk.locked:
                self._check_newcomer(nickname)
                try:
                    await self._commit(
                        EventKind.SEAT_ASK, {"nickname": nickname, "token_hash": token_hash}
                    )
                except ItalianPokerError as error:
                    raise Refusal(refusal_code(error), str(error)) from None
                return None
        return await self.take_seat(nickname, token_hash, None)

    def _check_newcomer(self, nickname: str) -> None:
        """Refuse a nickname taken (or looked like) at the table or by a newcomer waiting."""
        like = self.state.look_alike(nickname)
        waiting = self.state.desk.waiting_names()
        if like is None and nickname_key(nickname) in {nickname_key(n) for n in waiting}:
            like = nickname
        if like == nickname:
            raise Refusal("nickname_taken", f"the nickname {nickname!r} is taken here")
        if like is not None:
            raise Refusal(
                "nickname_taken", f"{nickname!r} looks like {like!r}, who is at this table"
            )

    async def answer_seat(self, player: int, admit: bool, by: int | None) -> None:
        """The host (``by`` None) or the co-host (their seat) admits a waiting newcomer into
        the first free seat, their token then holding it, or refuses them."""
        async with self.lock:
            payload: dict[str, Any] = {"player": player, "admit": admit, "by": by}
            ask = self.state.desk.asks.get(player)
            chosen = None
            if admit and ask is not None:
                chosen = self.state.free_seat()
                if chosen is None:
                    raise Refusal("full", "the table is full: free a seat first")
                self._check_room(self.state.stack_default)
                self.tokens[chosen] = ask.token_hash
                payload["seat"] = chosen
            try:
                await self._commit(EventKind.SEAT_ANSWER, payload)
            except ItalianPokerError as error:
                if chosen is not None:
                    self.tokens.pop(chosen, None)
                raise Refusal(refusal_code(error), str(error)) from None
            if chosen is not None:
                self.presence.keep_seat(chosen)

    def _check_room(self, chips: int) -> None:
        """Refuse ``chips`` more at a table that would then hold more than
        :data:`MAX_CHIPS`."""
        room = MAX_CHIPS - self.state.chips()
        if chips > room:
            raise Refusal(
                "table_chips",
                f"the table holds {MAX_CHIPS - room} chips: {chips} more would pass the "
                f"{MAX_CHIPS} a table may hold",
            )

    async def fair_value(self, seat: int, commitment: str, value: bytes) -> None:
        """A seated player's value for the deck sealed for the next deal (refused once the
        deal has started: server/fair_deal.py)."""
        async with self.lock:
            if self.state.slots[seat] is None:
                raise Refusal("empty", f"seat {seat} is empty", 404)
            self.state.fair.give(seat, commitment, value)

    async def remove_seat(self, seat: int) -> None:
        """Kick a player or remove a bot: their token stops working now; during a deal (or
        its 5.5 make-up questions) they are answered for automatically (check, fold, sit
        out) and leave when it ends."""
        async with self.lock:
            if not 0 <= seat < len(self.state.slots) or self.state.slots[seat] is None:
                raise Refusal("empty", f"seat {seat} is empty", 404)
            token = self.tokens.pop(seat, None)
            try:
                await self._commit(EventKind.UNSEAT, {"seat": seat})
            except ItalianPokerError as error:
                if token is not None:
                    self.tokens[seat] = token
                raise Refusal("illegal", str(error)) from None
            self.presence.kick(seat)

    async def sit(self, seat: int, out: bool) -> None:
        """Sit a player out (dealt out from the next deal; checked or folded meanwhile) or
        back in."""
        async with self.lock:
            slot = self.state.slots[seat]
            if slot is None or slot.sitting_out == out:
                return
            kind = EventKind.SIT_OUT if out else EventKind.SIT_IN
            await self._commit(kind, {"seat": seat})

    async def act(self, seat: int, hand: int, seq: int, action: Action) -> None:
        """A player's action from the WebSocket: refused (state unchanged) when stale,
        paused, out of turn (the table machine's :class:`NotYourTurnError`, or nobody is to
        act: :class:`DealOverError`) or illegal."""
        async with self.lock:
            state = self.state
            if seq != state.seq or hand != state.hand:
                raise Refusal(
                    "stale",
                    f"the table has moved on (hand {state.hand}, seq {state.seq}): "
                    "look again and act on the latest state",
                )
            if state.status is TableStatus.PAUSED:
                raise Refusal("paused", "the host has paused the game")
            bank = self._use_bank(seat)
            try:
                await self._commit(EventKind.ACTION, action_payload(seat, action, bank=bank))
            except (NotYourTurnError, DealOverError):
                raise Refusal("not_your_turn", "it is not your turn") from None
            except ItalianPokerError as error:
                raise Refusal("illegal", str(error)) from None

    async def host(self, kind: EventKind, payload: dict[str, Any] | None = None) -> None:
        """A host's start, pause, resume, stack adjustment (which keeps the table's chips
        within :data:`MAX_CHIPS`, or is refused with the range allowed), change of who may
        see the ledger, or an event of the desk (:mod:`~italian_poker.server.home_desk`:
        a chip request, an answer, the lock, the caps, the co-host), refused with the desk's
        own code."""
        payload = payload or {}
        async with self.lock:
            if kind is EventKind.STACK:
                self._check_stack(int(payload["seat"]), int(payload["amount"]))
            elif kind is EventKind.CHIP_ASK and isinstance(payload.get("chips"), int):
                self._check_room(payload["chips"])
            elif kind is EventKind.CHIP_ANSWER and payload.get("approve") is True:
                number = payload.get("request")
                pending = self.state.machine.chip_desk.pending
                request = pending.get(number) if isinstance(number, int) else None
                if request is not None:
                    self._check_room(request.chips)
            try:
                await self._commit(kind, payload)
            except ItalianPokerError as error:
                raise Refusal(refusal_code(error), str(error)) from None

    def _check_stack(self, seat: int, amount: int) -> None:
        state = self.state
        if not 0 <= seat < len(state.slots) or state.slots[seat] is None:
            return  # the event says what is wrong
        most = MAX_CHIPS - (state.chips() - state.stack(seat))
        if amount > most:
            raise Refusal(
                "bad_request",
                f"amount: seat {seat}'s chips must be 1 to {most} now "
                f"(a table holds at most {MAX_CHIPS} chips)",
                422,
            )

    async def chat(self, seat: int, text: str, player: int | None = None) -> None:
        """A chat message of the person in ``seat`` (``player``: that person, as the process
        that heard them knew it): checked, stored, then sent to every connection at the
        table (:meth:`TableChat.post`)."""
        await self.table_chat.post(seat, *self.table_chat.checked(seat, text, player))

    async def remove_chat(self, message_id: int) -> list[int]:
        """The host removes chat message ``message_id``."""
        return await self.table_chat.remove(message_id)

    async def remove_chat_of(self, player: int) -> list[int]:
        """The host removes every chat message of the person ``player``."""
        return await self.table_chat.remove_of(player)


class ForwardingTable:
    """A replica's table: every request forwarded to the owner, then the table caught up
    with what the owner wrote."""

    def __init__(self, table: TableCore, chat_: TableChat) -> None:
        self.table, self.table_chat = table, chat_

    async def _forward(self, command: Command) -> Any:
        """Have the owner do ``command``, then catch up with what it wrote; its refusal is
        this request's."""
        peers = self.table.peers
        assert peers is not None
        try:
            result = await peers.forward(command.op, command.args())
        except Refused as refused:
            raise Refusal(refused.code, refused.message, refused.status) from None
        except NoOwner:
            raise Refusal(
                "no_owner",
                "the table is moving to another server: try again in a few seconds",
                503,
            ) from None
        await self.table.sync()
        return result

    async def take_seat(
        self, nickname: str, token_hash: str | None, bot: str | None, seat: int | None = None
    ) -> int:
        """Have the owner seat a player or a bot."""
        return int(await self._forward(TakeSeat(nickname, token_hash, bot, seat)))

    async def ask_seat(self, nickname: str, token_hash: str) -> int | None:
        """Have the owner seat a newcomer, or record their seat request."""
        seat = await self._forward(AskSeat(nickname, token_hash))
        return None if seat is None else int(seat)

    async def answer_seat(self, player: int, admit: bool, by: int | None) -> None:
        """Have the owner admit or refuse a newcomer."""
        await self._forward(AnswerSeat(player, admit, by))

    async def fair_value(self, seat: int, commitment: str, value: bytes) -> None:
        """Have the owner take a player's value for the sealed deck."""
        await self._forward(FairValue(seat, commitment, value))

    async def remove_seat(self, seat: int) -> None:
        """Have the owner kick a player or remove a bot."""
        await self._forward(RemoveSeat(seat))

    async def sit(self, seat: int, out: bool) -> None:
        """Have the owner sit a player out or back in."""
        await self._forward(Sit(seat, out))

    async def act(self, seat: int, hand: int, seq: int, action: Action) -> None:
        """Have the owner apply a player's action."""
        await self._forward(Act(seat, hand, seq, action))

    async def host(self, kind: EventKind, payload: dict[str, Any] | None = None) -> None:
        """Have the owner apply a host's event."""
        await self._forward(Host(kind, payload or {}))

    async def chat(self, seat: int, text: str, player: int | None = None) -> None:
        """A chat message, checked here, sent to everyone by the owner (this process's
        players through the bus); a refusal not about the chat is ``chat_not_sent``."""
        message, _, player = self.table_chat.checked(seat, text, player)
        try:
            await self._forward(ChatSend(seat, message, player))
        except Refusal as refusal:
            if refusal.code.startswith("chat_"):
                raise
            raise Refusal("chat_not_sent", refusal.message, refusal.status) from None

    async def remove_chat(self, message_id: int) -> list[int]:
        """Have the owner remove a chat message."""
        return [int(n) for n in await self._forward(RemoveChat(message_id))]

    async def remove_chat_of(self, player: int) -> list[int]:
        """Have the owner remove every chat message of a person."""
        return [int(n) for n in await self._forward(RemoveChatOf(player))]
