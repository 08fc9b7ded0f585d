"""A table's spectators: the connections of its watch link on this process, and
what they are sent, which is built from the observer's public view only
(:meth:`TableState.public_view`, through :func:`~italian_poker.server.protocol.public_state`;
never from a seat's own view), so that a spectator never receives a hidden card.

A spectator's ``state`` is the public part of every player's: no ``you``, ``host``, ``hand``
or ``legal``, and a ``table`` without the invite (which would let them take a seat); its
``watching`` member says how they watch. With the delay of one deal (the host's option,
:attr:`~italian_poker.server.host_switches.HostSwitches.watch_delay`), a deal under way is
not shown at all: until it ends a spectator has the table as it was just before it began
(:class:`BeforeDeal`: the seats, names and stacks, the log up to then, the result of the
deal before) and the line *Deal N is under way: spectators see it when it ends*, and is sent
nothing more; once it has ended, a ``replay`` message gives the whole deal step by step (the
frames of :func:`~italian_poker.table.replay_frames.hand_frames` for the public viewer, each
as a ``state`` of the table), then the table as it is. Whatever a spectator relays to a
player during a deal is from before it began."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from italian_poker.engine.history import HandHistory
from italian_poker.engine.observer import PUBLIC
from italian_poker.server.event_kinds import EventKind
from italian_poker.server.i18n import line
from italian_poker.server.outbox import Spectator
from italian_poker.server.protocol import (
    Clock,
    EncodedParts,
    LogText,
    PublicState,
    card_codes,
    cards_label,
    encode,
    public_state,
    watch_object,
)
from italian_poker.server.table_state import TableState
from italian_poker.table.narration import action_line
from italian_poker.table.replay_frames import Frame, HandFrames, hand_frames

log = logging.getLogger(__name__)

CLOSED = 4410
"""The close code of a spectator's WebSocket when the host closes the watch link (or makes
a new one): the link is void."""


@dataclass(frozen=True, slots=True)
class BeforeDeal:
    """The table just before deal ``number`` began, as a spectator one deal behind sees it
    until that deal ends."""

    number: int
    seq: int
    """The seq of the last event before the deal's."""
    hand: int | None
    """The last finished deal then (None before the first)."""
    table: dict[str, Any]
    """The ``table`` object, without the invite."""
    seats: tuple[dict[str, Any], ...]
    """Each seat's public entry."""
    body: str
    """The state's members from ``dealer`` to ``events`` (the whole log), as JSON text."""
    log: str
    """The log then, as a JSON list of ``{"seq", "en", "it"}``."""


def _spectators_table(table: dict[str, Any], state: TableState) -> dict[str, Any]:
    """The ``table`` object without the invite (a watch link grants watching only), and its
    ``watch`` without the count of spectators (which changes as they come and go)."""
    table = {key: value for key, value in table.items() if key != "invite"}
    table["watch"] = watch_object(state)
    return table


def before_deal(
    state: TableState,
    connected: set[int],
    text: LogText | None = None,
    parts: EncodedParts | None = None,
) -> BeforeDeal:
    """The table as it is now, before a ``deal`` event is applied (public only); ``text``
    and ``parts``: the table's log and parts already encoded, if kept."""
    text = LogText() if text is None else text
    public = public_state(
        state, invite="", connected=connected, clock=Clock(None, None), log=text, parts=parts
    )
    match = state.match
    return BeforeDeal(
        number=(len(match.completed) if match is not None else 0) + 1,
        seq=state.seq,
        hand=state.hand,
        table=_spectators_table(public.table_object, state),
        seats=public.seats,
        body=f'{public.before_seats},"seats":[{",".join(public.seat_texts)}],{public.after_legal}',
        log=text.text(state.log),
    )


def live_text(public: PublicState) -> str:
    """A spectator's ``state`` of the table as it is (no delay, or between deals)."""
    state = public.state
    table = _spectators_table(public.table_object, state)
    watching = {"delay": state.switches.watch_delay, "under_way": None, "line": None}
    payload = (
        f'{{"table":{encode(table)},{public.before_seats},'
        f'"seats":[{",".join(public.seat_texts)}],{public.after_legal},'
        f'"watching":{encode(watching)}}}'
    )
    return f'{{"type":"state","hand":{encode(state.hand)},"seq":{state.seq},"state":{payload}}}'


def delayed_text(before: BeforeDeal, watch: dict[str, bool]) -> str:
    """A spectator's ``state`` while deal ``before.number`` is under way, one deal behind:
    the table as it was before the deal, and nothing of the deal."""
    said = line("watch_under_way", number=before.number).as_json()
    watching = {"delay": True, "under_way": before.number, "line": said}
    table = dict(before.table, watch=watch)
    payload = f'{{"table":{encode(table)},{before.body},"watching":{encode(watching)}}}'
    return f'{{"type":"state","hand":{encode(before.hand)},"seq":{before.seq},"state":{payload}}}'


def replay_text(state: TableState, before: BeforeDeal) -> str | None:
    """The ``replay`` message of deal ``before.number``, which has just ended: its frames
    for the public viewer, each as a ``state`` of the table (seats in table order, as
    before the deal; the last frame with the deal's result), and the log from before it.
    None when the deal is not the one just ended."""
    completed = state.completed(before.number)
    slots = state.deal_slots
    outcome = state.outcome
    if completed is None or len(slots) != len(completed.start.names):
        return None
    frames = hand_frames(
        HandHistory.from_completed(completed), PUBLIC, state.requirement_after(before.number)
    )
    result = None
    if outcome is not None and outcome.hand == before.number:
        result = {
            "hand": outcome.hand,
            "lines": [said.as_json() for said in outcome.lines],
            "awards": list(outcome.awards),
        }
    table = dict(before.table, watch=watch_object(state))
    steps = [
        _frame_state(frames, index, slots, before, table, result)
        for index in range(len(frames.frames))
    ]
    frames_text = encode(steps)
    return f'{{"type":"replay","hand":{before.number},"log":{before.log},"frames":{frames_text}}}'


def _frame_state(
    frames: HandFrames,
    index: int,
    slots: list[int],
    before: BeforeDeal,
    table: dict[str, Any],
    result: dict[str, Any] | None,
) -> dict[str, Any]:
    """Frame ``index`` of ``frames`` as a ``state`` of the table: the seats as before the
    deal, those dealt in as the frame has them (the cards shown at the showdown only)."""
    frame: Frame = frames.frames[index]
    last: dict[int, dict[str, str]] = {}
    for earlier in frames.frames[1 : index + 1]:
        if earlier.action is not None:
            acted = earlier.action
            last[acted.seat] = action_line(acted.kind, acted.amount).as_json()
    seats = []
    for entry in before.seats:
        seat = dict(entry, bet=0, cards=None, cards_label=None, last_action=None, changed=None)
        if seat["status"] == "active":
            seat["status"] = "out"  # not dealt in
        seats.append(seat)
    for i, shown in enumerate(frame.seats):
        seats[slots[i]].update(
            name=shown.name,
            stack=shown.stack,
            bet=shown.bet,
            status="folded" if shown.folded else "active",
            cards=card_codes(shown.cards) if shown.cards else None,
            cards_label=cards_label(shown.cards) if shown.cards else None,
            last_action=last.get(i),
            changed=shown.changed,
        )
    final = index == len(frames.frames) - 1
    requirement = frames.requirement
    return {
        "table": table,
        "dealer": slots[frames.dealer],
        "to_act": None if frame.actor is None else slots[frame.actor],
        "deadline": None,
        "time_bank": None,
        "phase": frame.phase.value,
        "pot": frame.pot,
        "requirement": {"en": requirement.describe("en"), "it": requirement.describe("it")},
        "blind": frame.blind,
        "seats": seats,
        "result": result if final else None,
        "events": [],
        "line": frame.line.as_json(),
        "watching": {"delay": True, "under_way": None, "line": None},
    }


class Spectators:
    """A table's spectators on this process and what they have been sent: the table before
    the deal under way, the replays due before the next state, the last state sent."""

    def __init__(self) -> None:
        self.clients: set[Spectator] = set()
        self.before: BeforeDeal | None = None
        """The table before the deal under way (or the last one)."""
        self._done = 0
        """Finished deals seen."""
        self._replays: list[str] = []
        """The replays of the deals just ended, sent before the next state."""
        self._last: str | None = None
        """The last state sent to every spectator."""
        self._whole_log = True
        """Whether the next state of the table as it is carries the whole log (the first,
        and the first after the table before a deal: the page's log is that one)."""
        self._log = LogText()
        """The table's log as the snapshots before the deals encode it (each line once)."""
        self._parts = EncodedParts()
        """The parts of those snapshots, kept as text until what they hold changes."""

    # --- following the table ---------------------------------------------------------------

    def snapshot(
        self, state: TableState, kind: EventKind, connected: Callable[[], set[int]]
    ) -> BeforeDeal | None:
        """Before event ``kind`` is applied: the table as it is (``connected()``: the seats
        connected), if the event begins a deal."""
        if kind is not EventKind.DEAL:
            return None
        return before_deal(state, connected(), self._log, self._parts)

    def applied(self, state: TableState, before: BeforeDeal | None) -> None:
        """After an event was applied (``before``: :meth:`snapshot`'s): keep the table before
        a deal that began; when a deal has ended, the replay for spectators one deal behind."""
        if before is not None and state.in_deal:
            self.before = before
        match = state.match
        done = len(match.completed) if match is not None else 0
        if done <= self._done:
            return
        self._done = done
        prior = self.before
        if (
            self.clients
            and state.switches.watch_delay
            and prior is not None
            and prior.number == done
        ):
            try:
                replay = replay_text(state, prior)
            except Exception:  # a replay that fails is not shown; the table goes on
                log.exception("deal %s: the spectators' replay could not be built", done)
                return
            if replay is not None:
                self._replays.append(replay)

    def rebuilt(self, state: TableState, before: BeforeDeal | None) -> None:
        """The table was rebuilt from its log (``before``: the table before its last deal):
        nothing is due, and the spectators' next state carries the whole log."""
        self.before = before
        match = state.match
        self._done = len(match.completed) if match is not None else 0
        self._replays, self._last, self._whole_log = [], None, True

    # --- telling spectators ---------------------------------------------------------------

    def _delayed(self, state: TableState) -> str | None:
        """The state of a spectator one deal behind while a deal is under way (None: no
        delay, or no deal under way). Should the table before the deal be missing, only the
        table's name and the deal's number: never the deal."""
        if not (state.switches.watch_delay and state.in_deal):
            return None
        before = self.before
        if before is None or before.number != state.hand:
            log.error("deal %s: no table from before it for the spectators", state.hand)
            before = BeforeDeal(
                number=state.hand or 1,
                seq=0,
                hand=None,
                table={"name": state.name, "status": "playing"},
                seats=(),
                body='"seats":[],"log":[],"result":null,"events":[]',
                log="[]",
            )
        return delayed_text(before, watch_object(state))

    def text(self, state: TableState, public: Callable[[bool], PublicState]) -> str:
        """A spectator's ``state`` now; ``public(whole)`` is the public part of the players'
        (``whole``: with the whole log)."""
        delayed = self._delayed(state)
        if delayed is not None:
            self._whole_log = True
            return delayed
        whole = self._whole_log or state.switches.watch_delay
        self._whole_log = False
        return live_text(public(whole))

    def first(self, spectator: Spectator, state: TableState, public: PublicState) -> None:
        """A new spectator's first state (``public``: with the whole log)."""
        self.clients.add(spectator)
        delayed = self._delayed(state)
        spectator.send_text(live_text(public) if delayed is None else delayed)

    def broadcast(self, state: TableState, public: Callable[[bool], PublicState]) -> None:
        """After a change: close the connections of a link the host closed or replaced, send
        a replay that is due, then the state if it is not the one last sent."""
        self.close_void(state)
        replays, self._replays = self._replays, []
        for replay in replays:
            for spectator in self.clients:
                spectator.send_text(replay)
        if not self.clients:
            return
        text = self.text(state, public)
        if text == self._last:
            return
        self._last = text
        for spectator in self.clients:
            spectator.send_text(text)

    def close_void(self, state: TableState) -> None:
        """Close every connection whose link is no longer the table's."""
        void = {s for s in self.clients if s.watch_hash != state.switches.watch_hash}
        for spectator in void:
            self.clients.discard(spectator)
            spectator.close("watch_closed", "the host closed this watch link", CLOSED)

    def stop(self) -> None:
        """Close every connection (the server stops)."""
        for spectator in self.clients:
            spectator.end()
        self.clients.clear()
