"""Issue 12 end to end: real ``italian-poker serve`` processes on one PostgreSQL and one Redis
(``cluster_fixtures``), players on different processes through the plain ``websockets``
client and REST (``httpx2``), as browsers behind a proxy would be.

- two players on two processes play full deals and see the same table, each only their own
  cards;
- nothing on a shared Redis channel holds a hidden card (``PSUBSCRIBE *`` for the whole run);
- the chat: a message written on either process reaches the other's player, on the table's
  chat channel, never its log channel; the host removes one through the replica;
- the owner killed (SIGKILL) mid-deal: the other process takes the table within the lease and
  play goes on, the log without a gap or a duplicate;
- the owner paused (SIGSTOP) past its lease and resumed: it writes nothing (the fence), and
  gives the table up.

Skipped, with the PostgreSQL tests' reason, without ``ITALIAN_POKER_TEST_POSTGRES_URL``, and
without ``redis-server`` (``redis_fixtures``).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import pytest
import redis.asyncio
from cluster_fixtures import (  # noqa: F401 (the *_fixture are fixtures)
    LEASE_SECONDS,
    BusAudit,
    Cluster,
    Lobby,
    Player,
    ServerProcess,
    autoplay,
    card_codes_in,
    card_texts,
    cluster_database_url_fixture,
    cluster_engine_fixture,
    cluster_fixture,
    holder,
    lively_action,
    redis_url_fixture,
    table_fence,
    table_id_of,
    table_seqs,
    wait_for,
)
from sqlalchemy import Engine

pytestmark = pytest.mark.cluster

PLAY_SECONDS = 90.0
"""Longest a test's play may take (deals follow each other after a pause of 3 s, which the
command line does not set)."""
FAILOVER_SECONDS = LEASE_SECONDS + 2.0
"""How soon another process must own a table whose owner died (lease + 2 s)."""


@dataclass
class Table:
    """Two processes, a table created on ``one`` by Anna (the host, seat 0), Bruno seated
    through ``two``; Anna's WebSocket on ``one``, Bruno's on ``two``, the game started."""

    one: ServerProcess
    two: ServerProcess
    lobby: Lobby
    invite: str
    host_token: str
    table_id: int
    anna: Player
    bruno: Player

    @property
    def players(self) -> list[Player]:
        return [self.anna, self.bruno]


@pytest.fixture
async def lobby() -> AsyncIterator[Lobby]:
    client = Lobby()
    try:
        yield client
    finally:
        await client.aclose()


async def set_up(cluster: Cluster, lobby: Lobby, engine: Engine) -> Table:
    one = cluster.start("node-1")
    two = cluster.start("node-2")
    created = await lobby.create_table(one, host_nickname="Anna", seats=2)
    invite = created["invite"]
    joined = await lobby.join(two, invite, "Bruno")
    anna = Player("Anna", invite, created["player_token"], int(created["seat"]))
    bruno = Player("Bruno", invite, joined["player_token"], int(joined["seat"]))
    await anna.connect(one)
    await bruno.connect(two)
    table = Table(one, two, lobby, invite, created["host_token"], table_id_of(engine), anna, bruno)
    await lobby.host(one, invite, table.host_token, "start")
    return table


async def close(table: Table) -> None:
    for player in table.players:
        await player.close()


async def play(
    players: list[Player], stop: Callable[[Player], bool], timeout: float = PLAY_SECONDS
) -> None:
    """Every player plays its turns until ``stop(player)`` holds for what it was sent (a
    condition on its own states, which only ever hold more: a player never stops on a
    turn it would have to play for another to see the condition); fails, saying where each
    player is, after ``timeout`` s."""
    try:
        async with asyncio.timeout(timeout):
            await asyncio.gather(
                *(autoplay(player, lambda p=player: stop(p)) for player in players)
            )
    except TimeoutError:
        where = "\n".join(player.summary() for player in players)
        pytest.fail(f"play did not get there within {timeout:g} s:\n{where}")


def live(state: dict[str, Any]) -> bool:
    """A deal under way, the seat's cards dealt and someone has moved."""
    inner = state["state"]
    return (
        inner["result"] is None
        and inner["hand"] is not None
        and inner["to_act"] is not None
        and any(seat["last_action"] for seat in inner["seats"])
    )


def public_part(state: dict[str, Any]) -> Any:
    """What every seat is shown alike at a seq (not who is connected, which may lag)."""
    inner = state["state"]
    seats = [
        {k: v for k, v in seat.items() if k not in ("connected", "cards", "cards_label")}
        for seat in inner["seats"]
    ]
    return (inner["phase"], inner["pot"], inner["to_act"], inner["dealer"], seats)


async def same_seq(players: list[Player]) -> int:
    """Wait until every player was sent the same latest seq; that seq."""
    await wait_for(lambda: len({p.seq for p in players}) == 1, what="the players at the same seq")
    return players[0].seq


def describe(message: dict[str, Any]) -> str:
    """A server message in a few words (a state without its cards)."""
    if message.get("type") == "state":
        return f"state seq {message['seq']}"
    if message.get("type") == "error":
        return f"error {message['code']}: {message['message']}"
    return str(message.get("type"))


def assert_own_cards_only(players: list[Player]) -> None:
    for player in players:
        assert player.others_cards_seen() == [], f"{player.name} saw hidden cards"
    seen = [seq for seq in players[0].hands if all(seq in p.hands for p in players)]
    for seq in seen:
        hands = [set(p.hands[seq]) for p in players]
        assert not hands[0] & hands[1], f"the same card in two hands at seq {seq}"
    assert any(p.hands[seq] for p in players for seq in seen), "no cards were ever dealt"


def assert_log_continuous(engine: Engine, table_id: int) -> list[int]:
    seqs = table_seqs(engine, table_id)
    assert seqs == list(range(1, len(seqs) + 1)), f"gap or duplicate in the log: {seqs}"
    return seqs


# --- the tests ---------------------------------------------------------------------------


async def test_two_players_on_two_processes_play_full_deals(
    cluster: Cluster, lobby: Lobby, cluster_engine: Engine, redis_client: redis.asyncio.Redis
) -> None:
    began = time.monotonic()
    table = await set_up(cluster, lobby, cluster_engine)
    try:
        assert (await holder(redis_client, table.table_id) or (0, ""))[1] == "node-1"
        players = table.players
        await play(players, lambda p: len(p.results()) >= 3)
        seq = await same_seq(players)
    finally:
        await close(table)
    anna, bruno = table.players
    assert seq == table_seqs(cluster_engine, table.table_id)[-1]
    common = {m["seq"]: m for m in anna.states}
    for message in bruno.states:
        other = common.get(message["seq"])
        if other is not None and other["hand"] == message["hand"]:
            assert public_part(other) == public_part(message), f"seq {message['seq']} differs"
    assert_own_cards_only(players)
    assert_log_continuous(cluster_engine, table.table_id)
    assert (await holder(redis_client, table.table_id) or (0, ""))[1] == "node-1"
    print(f"3 deals on two processes in {time.monotonic() - began:.1f} s, {seq} events")


async def test_bus_audit_no_hidden_card_on_a_shared_channel(
    cluster: Cluster,
    lobby: Lobby,
    cluster_engine: Engine,
    redis_socket: Any,
    redis_client: redis.asyncio.Redis,
) -> None:
    players: list[Player] = []
    async with BusAudit(redis_socket, lambda: players) as audit:
        table = await set_up(cluster, lobby, cluster_engine)
        players.extend(table.players)
        try:

            def forwarded_draws() -> list[dict[str, Any]]:
                found = []
                for message in audit.on(":commands"):
                    data = message.body
                    if data.get("op") == "act" and card_codes_in(data.get("args")):
                        found.append(data)
                return found

            await play(players, lambda p: len(p.results()) >= 3 and bool(forwarded_draws()))
            await same_seq(players)
        finally:
            await close(table)
    by_seat = {p.seat: p for p in players}
    assert audit.on(":log"), "the owner published nothing on the table's log channel"
    assert audit.on(":commands"), "process 2 forwarded nothing to the owner"
    for message in audit.on(":log"):
        assert card_texts(message.data) == [], f"a card on {message.channel}: {message.data}"
        assert card_codes_in(message.body) == [], message.data
    for message in audit.on(":replies"):
        assert card_texts(message.data) == [], f"a card on {message.channel}: {message.data}"
        assert card_codes_in(message.body) == [], message.data
    for message in audit.on(":commands"):
        data = message.body
        codes = card_codes_in(data)
        if data.get("op") != "act":
            assert codes == [] and card_texts(message.data) == [], message.data
            continue
        args = data["args"]
        seat = int(args["seat"])
        seq = args.get("seq")
        player = by_seat[seat]
        hand = player.hands.get(int(seq)) if seq is not None else message.hands.get(seat)
        assert hand is not None, f"seat {seat} was not sent seq {seq}: {message.data}"
        assert set(codes) <= set(hand), f"{message.data} names cards not in {hand}"
        assert codes == list(args["action"].get("cards") or []), message.data
    others = [m for m in audit.messages if not m.channel.startswith("italian-poker:")]
    assert others == [], "messages on channels outside the prefix"
    unsealed = [m.data for m in audit.messages if not json.loads(m.data).get("mac")]
    assert unsealed == [], "messages without a seal"
    kinds = {m.channel.rsplit(":", 1)[-1] for m in audit.messages}
    print(f"{len(audit.messages)} bus messages audited on {sorted(kinds)}")
    assert_own_cards_only(players)


def chat_texts(player: Player, kind: str = "chat") -> list[Any]:
    """What the ``chat`` (the texts) or ``chat_removed`` (the ids) messages sent to
    ``player`` held, in order."""
    found: list[Any] = []
    for raw in player.texts:
        message = json.loads(raw)
        if message.get("type") == kind == "chat":
            found.append(message["message"]["text"])
        elif message.get("type") == kind == "chat_removed":
            found.extend(message["ids"])
    return found


async def test_chat_between_players_on_two_processes(
    cluster: Cluster, lobby: Lobby, cluster_engine: Engine, redis_socket: Any
) -> None:
    """Bruno writes on the replica (node-2), Anna on the owner: each is sent the other's
    message; the host removes Bruno's through node-2. The chat travels on the table's chat
    channel (and Bruno's as a command to the owner), never on its log channel."""
    players: list[Player] = []
    async with BusAudit(redis_socket, lambda: players) as audit:
        table = await set_up(cluster, lobby, cluster_engine)
        anna, bruno = table.players
        players.extend(table.players)
        try:
            assert await bruno.send({"type": "chat", "text": "ciao da node-2"})
            await anna.wait(lambda: "ciao da node-2" in chat_texts(anna), "Bruno's message")
            await bruno.wait(lambda: "ciao da node-2" in chat_texts(bruno), "his own message")
            assert await anna.send({"type": "chat", "text": "ciao da node-1"})
            await bruno.wait(lambda: "ciao da node-1" in chat_texts(bruno), "Anna's message")
            url = f"{table.two.base_url}/api/tables/{table.invite}/chat/1"
            answer = await lobby.client.delete(
                url, headers={"Authorization": f"Bearer {table.host_token}"}
            )
            assert answer.status_code == 200 and answer.json() == {"ids": [1]}
            for player in table.players:
                await player.wait(lambda p=player: chat_texts(p, "chat_removed") == [1], "removed")
        finally:
            await close(table)
    assert chat_texts(anna) == chat_texts(bruno) == ["ciao da node-2", "ciao da node-1"]
    assert not any("ciao da" in m.data for m in audit.on(":log"))
    assert any("ciao da node-1" in m.data for m in audit.on(":chat"))
    assert any("ciao da node-2" in m.data for m in audit.on(":commands"))


async def test_failover_after_the_owner_is_killed(
    cluster: Cluster, lobby: Lobby, cluster_engine: Engine, redis_client: redis.asyncio.Redis
) -> None:
    table = await set_up(cluster, lobby, cluster_engine)
    anna, bruno = table.players
    for player in table.players:
        player.backends = [table.one, table.two]  # the proxy's order
        player.reconnect = True
    try:
        await play(table.players, lambda p: live(p.latest))
        await same_seq(table.players)
        deal, seq = int(anna.latest["hand"]), anna.seq
        cards = anna.hands[seq]
        assert (await holder(redis_client, table.table_id) or (0, ""))[1] == "node-1"
        killed = time.monotonic()
        table.one.kill()

        async def owned_by_two() -> bool:
            return (await holder(redis_client, table.table_id) or (0, ""))[1] == "node-2"

        await wait_for(owned_by_two, FAILOVER_SECONDS + 1, "node-2 owning the table")
        owner_after = time.monotonic() - killed
        await anna.wait(lambda: anna.server is table.two, "Anna on node-2")
        assert anna.hands[seq] == cards or anna.seq > seq
        await play(table.players, lambda p: p.seq > seq, FAILOVER_SECONDS + 10)
        resumed = time.monotonic() - killed
        await play(table.players, lambda p: {deal, deal + 1} <= p.results())
        final = await same_seq(table.players)
    finally:
        await close(table)
    print(
        f"failover: node-2 owns the table {owner_after:.2f} s after the kill, the next move "
        f"{resumed:.2f} s after (lease {LEASE_SECONDS:g} s); {final} events"
    )
    assert owner_after <= FAILOVER_SECONDS, f"node-2 took {owner_after:.2f} s"
    assert anna.connections == 2 and bruno.connections == 1
    seqs = assert_log_continuous(cluster_engine, table.table_id)
    assert seqs[-1] == final
    token, node = await holder(redis_client, table.table_id) or (0, "")
    assert node == "node-2" and table_fence(cluster_engine, table.table_id) == token
    assert_own_cards_only(table.players)


async def test_a_paused_owner_resumed_after_losing_its_lease_cannot_write(
    cluster: Cluster, lobby: Lobby, cluster_engine: Engine, redis_client: redis.asyncio.Redis
) -> None:
    table = await set_up(cluster, lobby, cluster_engine)
    anna, bruno = table.players
    twin = Player("Anna on node-2", table.invite, anna.token, anna.seat)  # a second tab
    try:

        def annas_turn(player: Player) -> bool:
            """Anna to act in a deal under way, as ``player`` was told."""
            state = player.latest
            return live(state) and state["state"]["to_act"] == anna.seat

        await play(table.players, annas_turn)
        await same_seq(table.players)
        stale = anna.latest
        first_token, first_node = await holder(redis_client, table.table_id) or (0, "")
        assert first_node == "node-1"
        table.one.stop()
        stopped = time.monotonic()
        # Anna's move at this seq waits in node-1's socket: node-1, resumed, finds it valid
        # on the table as it left it, and must not be able to write it.
        assert await anna.act(stale, lively_action(stale))
        await twin.connect(table.two)
        assert twin.seq == stale["seq"]

        async def owned_by_two() -> bool:
            return (await holder(redis_client, table.table_id) or (0, ""))[1] == "node-2"

        await wait_for(owned_by_two, FAILOVER_SECONDS + 1, "node-2 owning the table")
        # Play on through node-2 until it is Anna's turn again, a few moves later.
        await play([twin, bruno], lambda p: p.seq >= stale["seq"] + 2 and annas_turn(p))
        await same_seq([twin, bruno])
        before = twin.seq
        paused = time.monotonic() - stopped
        second_token, _ = await holder(redis_client, table.table_id) or (0, "")
        assert second_token > first_token
        assert table_fence(cluster_engine, table.table_id) == second_token
        seen = (len(anna.texts), len(anna.errors))
        table.one.cont()
        # Whatever node-1 does with the move it finds (write it as the owner it was, refused
        # by the fence, or forward it), nothing of it reaches the log, and Anna is told.
        await anna.wait(
            lambda: anna.ws is None or len(anna.errors) > seen[1],
            "node-1's answer to the stale move",
            10,
        )
        await wait_for(lambda: table.one.alive, what="node-1 running")
        answer = [describe(json.loads(text)) for text in anna.texts[seen[0] :]] or ["closed"]
        assert_log_continuous(cluster_engine, table.table_id)
        assert table_seqs(cluster_engine, table.table_id)[-1] == before
        assert table_fence(cluster_engine, table.table_id) == second_token
        # node-1 gives the table up: it does not take the lease back, and a move sent through
        # it now is forwarded to node-2 (after one refusal, the page trying again, at most).
        outcomes = []
        for _ in range(2):
            if anna.ws is None:
                await anna.connect(table.one)
            await anna.wait(lambda: anna.seq == before, f"node-1's replica at seq {before}")
            errors = len(anna.errors)
            assert await anna.act(anna.latest, lively_action(anna.latest))
            await anna.wait(
                lambda e=errors: anna.seq > before or len(anna.errors) > e, "the move's answer"
            )
            if anna.seq > before:
                outcomes.append("forwarded to node-2")
                break
            outcomes.append(describe(anna.errors[-1]))
        outcome = ", then ".join(outcomes)
        assert anna.seq > before, f"a move through node-1 is not forwarded: {outcome}"
        await twin.wait_seq(anna.seq)
        await bruno.wait_seq(anna.seq)
        token, node = await holder(redis_client, table.table_id) or (0, "")
        assert node == "node-2" and token == second_token
    finally:
        await twin.close()
        await close(table)
    print(f"node-1 paused {paused:.1f} s; on resuming it answered {answer[:3]}")
    refused = [line for line in table.one.log().splitlines() if "stale" in line]
    print(f"node-1's log on a stale write: {refused or 'nothing (it saw the lease lost first)'}")
    print(f"a move through node-1 afterwards: {outcome}")
    assert_log_continuous(cluster_engine, table.table_id)
    assert table_fence(cluster_engine, table.table_id) == second_token
    assert anna.others_cards_seen() == [] and twin.others_cards_seen() == []
    assert bruno.others_cards_seen() == []
