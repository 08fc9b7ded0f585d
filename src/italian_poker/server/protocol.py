"""The WebSocket messages: the per-seat ``state`` built from the public view of the deal
(:class:`PublicView`, the observer's: it has no hidden card) and the seat's own
:class:`SeatView`, and what a client sends: one pydantic model per message type
(:data:`ClientMessage`), read by :func:`parse_message`.

A seat's own cards come only from its own view; other seats' cards only from ``shown`` (the
showdown) of the public view. The Deal itself is never read here.

Messages are encoded to JSON text once and the same text goes to every connection it is for:
a change builds the public part of the ``state`` once (:func:`public_state`, with the log's
text kept per table by :class:`LogText`), then each seat's message adds that seat's own part
(:func:`state_text`).
"""

from __future__ import annotations

import json
import json.encoder
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from italian_poker.engine.actions import ActionKind, LegalAction
from italian_poker.engine.cards import ALL_CARDS, Card
from italian_poker.engine.deck import HAND_SIZE
from italian_poker.engine.draw import MAX_DRAW
from italian_poker.engine.hand_rank import evaluate
from italian_poker.engine.match import MatchPhase
from italian_poker.engine.observer import PublicView, SeatView
from italian_poker.engine.opening import OpeningRequirement
from italian_poker.server.match_message import match_json
from italian_poker.server.table_state import LogLine, TableState, TableStatus
from italian_poker.table.advice import ADVICE_SHOWN, AdviceItem
from italian_poker.table.narration import shown_cards
from italian_poker.table.vocabulary import (
    ACTION_KEYS,
    Language,
    action_label,
    amount_text,
    card_label,
)


def _compact_encoder() -> Callable[[Any], str]:
    """``json.JSONEncoder(separators=(",", ":")).encode``, the same text, without building
    the C encoder again at each call: built once, with no check for circular references
    (no message refers to itself). Where the interpreter has no C encoder, the library's."""
    library = json.JSONEncoder(separators=(",", ":"))
    make: Any = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return library.encode
    chunks = make(
        None,
        library.default,
        json.encoder.encode_basestring_ascii,
        None,
        ":",
        ",",
        False,
        False,
        True,
    )

    def encode(value: Any) -> str:
        return "".join(chunks(value, 0))

    return encode


_ENCODE = _compact_encoder()


@dataclass(frozen=True, slots=True)
class Clock:
    """The turn timer of the seat to act, as sent to clients."""

    deadline: float | None
    time_bank: float | None


_CODES = tuple(str(card) for card in ALL_CARDS)
_LABELS = {
    lang.value: tuple(card_label(card, lang) for card in ALL_CARDS)
    for lang in (Language.EN, Language.IT)
}


def card_codes(cards: tuple[Card, ...]) -> list[str]:
    """``["Ah", "Td", ...]``."""
    return [_CODES[card.index] for card in cards]


def cards_label(cards: tuple[Card, ...]) -> dict[str, str]:
    """Text labels of ``cards`` in both languages."""
    return {
        lang: ", ".join(labels[card.index] for card in cards) for lang, labels in _LABELS.items()
    }


def _legal(options: tuple[LegalAction, ...], already: int = 0) -> list[dict[str, Any]]:
    return [_legal_entry(option, already) for option in options]


def _legal_entry(option: LegalAction, already: int = 0) -> dict[str, Any]:
    """One legal action for the page, its label with its amount as the terminal's button
    says it (what the player adds and, with chips ``already`` in the round, what the bet
    becomes: ``Call 10 (to 20)``); the opener's draw also lists the card groups that show
    the opening (4.4: discarding a card of each breaks it, and the split is announced)."""
    entry: dict[str, Any] = {
        "kind": option.kind.value,
        "min": option.min_amount,
        "max": option.max_amount,
        "max_cards": option.max_cards,
        "label": {
            "en": _button_label(option, already, Language.EN),
            "it": _button_label(option, already, Language.IT),
        },
        "key": ACTION_KEYS.get(option.kind),
    }
    if option.split_unless_kept is not None:
        entry["split_unless_kept"] = [card_codes(group) for group in option.split_unless_kept]
    return entry


def _button_label(option: LegalAction, already: int, lang: Language) -> str:
    label = action_label(option.kind, lang)
    low, high = option.min_amount, option.max_amount
    if low is None or high is None:
        return label
    return f"{label} {amount_text(low, high, already, lang)}"


def _seat_status(
    state: TableState, slot: int, public: PublicView | None, index: int | None, live: bool
) -> str:
    """``slot``'s status; ``index``: its seat in the deal (:meth:`TableState.deal_index`),
    ``live``: whether a deal is under way."""
    seat = state.slots[slot]
    if seat is None:
        return "empty"
    if live and public is not None and index is not None:
        return "folded" if public.folded[index] else "active"
    if seat.sitting_out:
        return "sitting_out"
    if live or state.busted(slot):
        return "out"
    return "active"


def encode(value: Any) -> str:
    """A message (or any part of one) as the compact JSON text sent to clients."""
    return _ENCODE(value)


class LogText:
    """A table's public log as JSON text for the ``state`` messages: each line is encoded
    once, when it is first seen, and the lines are joined again only when the whole log is
    asked for after it changed.

    The log only grows at its end (dropping its oldest lines beyond its length), and a table
    rebuilt from its events has new line objects: the lines after the last one seen, found
    by identity, are the new ones, and when it is not there everything is encoded again."""

    def __init__(self) -> None:
        self._last: LogLine | None = None
        self._lines: list[str] = []
        self._text: str | None = "[]"

    def text(self, log: Sequence[LogLine]) -> str:
        """``log`` as a JSON list of ``{"seq", "en", "it"}``."""
        self._catch_up(log)
        if self._text is None:
            self._text = "[" + ",".join(self._lines) + "]"
        return self._text

    def after(self, log: Sequence[LogLine], seq: int) -> str:
        """The lines of ``log`` said by events after ``seq`` as a JSON list, from the same
        encoded lines."""
        self._catch_up(log)
        new = 0
        while new < len(log) and log[len(log) - 1 - new].seq > seq:
            new += 1
        return "[" + ",".join(self._lines[len(self._lines) - new :]) + "]"

    def _catch_up(self, log: Sequence[LogLine]) -> None:
        """Encode the lines of ``log`` not seen yet."""
        size = len(log)
        last = log[-1] if size else None
        if last is self._last and size == len(self._lines):
            return
        new = 0
        while new < size and log[size - 1 - new] is not self._last:
            new += 1
        kept = self._lines[len(self._lines) - (size - new) :] if new < size else []
        self._lines = kept + [_log_entry(line) for line in list(log)[size - new :]]
        self._last = last
        self._text = None


def _log_entry(entry: LogLine) -> str:
    return _ENCODE({"seq": entry.seq, "en": entry.line.en, "it": entry.line.it})


_NO_CARDS = ',"cards":null,"cards_label":null'
"""A seat entry's cards when it shows none (a string inside the text has each ``"`` escaped:
this is found only where the entry's own members are)."""


class EncodedParts:
    """A table's parts of the ``state`` messages as JSON text, kept from one change to the
    next and encoded again only when what they hold changes: the ``table`` object, each
    seat's public entry, each seat's entry with its own cards and its ``hand``. Each member
    of these objects holds values of one type (or null), so equal objects are the same
    text."""

    def __init__(self) -> None:
        self._table: tuple[tuple[Any, ...], dict[str, Any], str] | None = None
        self._seats: dict[int, tuple[tuple[Any, ...] | None, dict[str, Any], str]] = {}
        self._own: dict[int, tuple[str, tuple[Card, ...], str]] = {}
        self._labels: dict[int, tuple[tuple[Card, ...], str]] = {}
        self._requirement: tuple[OpeningRequirement, dict[str, str]] | None = None
        self._hands: dict[int, tuple[tuple[Card, ...], int, str]] = {}

    def table(
        self, key: tuple[Any, ...], build: Callable[[], dict[str, Any]]
    ) -> tuple[dict[str, Any], str]:
        """The ``table`` object and its text; ``key``: everything it is built from (the
        options by identity: a table's options never change)."""
        kept = self._table
        if kept is not None and kept[0] == key:
            return kept[1], kept[2]
        table = build()
        text = _ENCODE(table)
        self._table = (key, table, text)
        return table, text

    def seat(self, slot: int, key: tuple[Any, ...] | None) -> tuple[dict[str, Any], str]:
        """``slot``'s public entry and its text; ``key``: what :func:`public_state` read of
        the seat (:func:`_seat_entry`; None: the seat is empty), built again only when that
        changed."""
        kept = self._seats.get(slot)
        if kept is not None and kept[0] == key:
            return kept[1], kept[2]
        entry = _empty_seat(slot) if key is None else _seat_entry(slot, key)
        text = _ENCODE(entry)
        self._seats[slot] = (key, entry, text)
        return entry, text

    def own_seat(self, slot: int, entry: dict[str, Any], text: str, cards: tuple[Card, ...]) -> str:
        """``slot``'s entry (``text``: its public text) with its own ``cards`` in it."""
        kept = self._own.get(slot)
        if kept is not None and kept[1] == cards and kept[0] == text:
            return kept[2]
        if entry["cards"] is None:
            # The public entry's cards are null: its text with the seat's own put in.
            at = text.rindex(_NO_CARDS)
            own = f',"cards":{_ENCODE(card_codes(cards))},"cards_label":{self._label(slot, cards)}'
            mine = text[:at] + own + text[at + len(_NO_CARDS) :]
        else:
            mine = _ENCODE(dict(entry, cards=card_codes(cards), cards_label=cards_label(cards)))
        self._own[slot] = (text, cards, mine)
        return mine

    def _label(self, slot: int, cards: tuple[Card, ...]) -> str:
        """:func:`cards_label` of ``slot``'s own ``cards`` as text, kept until they change."""
        kept = self._labels.get(slot)
        if kept is None or kept[0] != cards:
            kept = self._labels[slot] = (cards, _ENCODE(cards_label(cards)))
        return kept[1]

    def requirement(self, requirement: OpeningRequirement) -> dict[str, str]:
        """What opens the deal, in both languages (the same object while it is the same:
        not to be changed)."""
        kept = self._requirement
        if kept is None or kept[0] != requirement:
            described = {"en": requirement.describe("en"), "it": requirement.describe("it")}
            kept = self._requirement = (requirement, described)
        return kept[1]

    def hand(self, slot: int, own: SeatView) -> str:
        """``slot``'s ``hand`` as text: its cards and, with five, their category."""
        kept = self._hands.get(slot)
        if kept is not None and kept[0] == own.hand and kept[1] == own.players:
            return kept[2]
        text = _ENCODE(_own_hand(own))
        self._hands[slot] = (own.hand, own.players, text)
        return text


def _own_hand(own: SeatView) -> dict[str, Any]:
    """A seat's ``hand`` from its own view: its cards and, with five, their category."""
    hand: dict[str, Any] = {"cards": card_codes(own.hand), "category": None}
    if len(own.hand) == 5:
        rank = evaluate(own.hand, players=own.players, tiebreak=own.rules.tiebreak)
        hand["category"] = {"en": rank.describe("en"), "it": rank.describe("it")}
    return hand


@dataclass(frozen=True, slots=True)
class PublicState:
    """What every seat's ``state`` message has in common, built and encoded once per change
    (:func:`public_state`); :func:`state_text` adds what only one seat may see. It reads the
    table as it was when built: use it before the table changes again."""

    state: TableState
    table: str
    """The ``table`` object's JSON text."""
    table_object: dict[str, Any]
    """The same object (a spectator's is it without the invite)."""
    before_seats: str
    """The members ``dealer`` to ``requirement`` as JSON text (``"dealer":0,...``)."""
    seats: tuple[dict[str, Any], ...]
    """Each seat's public entry: no cards but those shown at the showdown."""
    seat_texts: tuple[str, ...]
    """The same entries as JSON text."""
    after_legal: str
    """The members ``log`` (when sent), ``result`` and ``events`` as JSON text."""
    live: bool
    actor: int | None
    parts: EncodedParts
    """The table's texts kept from one state to the next."""


def _empty_seat(slot: int) -> dict[str, Any]:
    """Empty seat ``slot``'s public entry."""
    return {
        "seat": slot,
        "name": None,
        "bot": None,
        "stack": 0,
        "bet": 0,
        "status": "empty",
        "connected": False,
        "last_action": None,
        "changed": None,
        "cards": None,
        "cards_label": None,
    }


def _seat_entry(slot: int, key: tuple[Any, ...]) -> dict[str, Any]:
    """Taken seat ``slot``'s public entry from what :func:`public_state` read of it: its
    name, bot, stack, bet, status, whether connected, last action, change, whether it sits
    out once the deal ends, and the cards it showed (at the showdown only)."""
    name, bot, stack, bet, status, connected, last_action, changed, sit_out, shown = key
    entry: dict[str, Any] = {
        "seat": slot,
        "name": name,
        "bot": bot,
        "stack": stack,
        "bet": bet,
        "status": status,
        "connected": connected,
        "last_action": last_action.as_json() if last_action else None,
        "changed": changed,
        "cards": None,
        "cards_label": None,
    }
    if sit_out:
        entry["sit_out"] = True  # sits out once this deal ends (its turns play themselves)
    if shown:
        entry["cards"] = card_codes(shown)
        entry["cards_label"] = cards_label(shown)
    return entry


def public_state(
    state: TableState,
    *,
    invite: str,
    connected: set[int],
    clock: Clock,
    log: LogText,
    events_after: int | None = None,
    spectators: int = 0,
    parts: EncodedParts | None = None,
) -> PublicState:
    """The public part of every seat's ``state``, from the table and the public view only
    (never a seat's own view). After events (``events_after``: the seq the last state sent
    showed), ``"events"`` holds the log's lines of the events after it, those this state is
    the first to show, and the log is not sent again: the page adds them to the lines it
    has. Otherwise (``None``: a connection's first state, a hello, or a change that is no
    event, such as who is connected or the clock) ``"log"`` holds the whole recent log, which
    replaces what the page shows, and ``"events"`` is empty. ``spectators``: how many watch
    (``table.watch.spectators``). ``parts``: the table's texts kept from the states before
    (None: everything is encoded afresh)."""
    parts = EncodedParts() if parts is None else parts
    public = state.public_view()
    match = state.match
    live = match is not None and match.phase is MatchPhase.IN_DEAL
    seats = []
    seat_texts = []
    for i, seat in enumerate(state.slots):
        if seat is None:
            entry, text = parts.seat(i, None)
            seats.append(entry)
            seat_texts.append(text)
            continue
        index = state.deal_index(i)
        bet = 0
        shown: tuple[Card, ...] = ()
        if public is not None and index is not None:
            if live:
                bet = public.round_bets[index]
            shown = shown_cards(public, index)
        key = (
            seat.nickname,
            seat.bot,
            state.stack(i),
            bet,
            _seat_status(state, i, public, index, live),
            seat.bot is not None or i in connected,
            seat.last_action,
            seat.changed,
            live and seat.sitting_out and index is not None,
            shown,
        )
        entry, text = parts.seat(i, key)
        seats.append(entry)
        seat_texts.append(text)
    requirement = state.requirement()
    dealer = None
    if public is not None and state.deal_slots:
        dealer = state.deal_slots[public.dealer]
    outcome = state.outcome
    options = state.options
    status = state.status
    see_ledger, advice_on = state.switches.players_see_ledger, state.switches.advice_on
    watch_open, watch_delay = state.switches.watch_hash is not None, state.switches.watch_delay

    def table_object() -> dict[str, Any]:
        return {
            "name": state.name,
            "invite": invite,
            "status": status.value,
            "preset": options.get("preset"),
            "options": options,
            "turn_seconds": options.get("turn_seconds"),
            "lang": options.get("lang", "it"),
            "players_see_ledger": see_ledger,
            "advice": advice_on,
            "watch": {"open": watch_open, "delay": watch_delay, "spectators": spectators},
            # The rules' constants the page shows (the engine's: 3.1, 4.1): it restates none.
            "hand_size": HAND_SIZE,
            "max_draw": MAX_DRAW,
        }

    table, table_text = parts.table(
        (
            state.name,
            invite,
            status,
            options,
            see_ledger,
            advice_on,
            watch_open,
            watch_delay,
            spectators,
        ),
        table_object,
    )
    actor = state.actor_slot()
    before_seats = {
        "dealer": dealer,
        "to_act": actor,
        "deadline": clock.deadline,
        "time_bank": clock.time_bank,
        "phase": (public.phase.value if live and public is not None else _between(state)),
        "pot": public.pot if live and public is not None else (match.carried if match else 0),
        "requirement": parts.requirement(requirement),
        # Art. 2: once a blind is bet, the deal needs no opening.
        "blind": bool(live and public is not None and public.blinders),
        "desk": state.desk.as_json(),  # the lock, the co-host, the requests (home_desk.py)
        # The fair deck (server/fair_deal.py): its commitment before the cards.
        "fair": state.fair.message(state.hand, state.completed(state.hand or 0)),
    }
    match_status = match_json(state)
    if match_status is not None:  # a table with a match format (a cash game has none)
        before_seats["match"] = match_status
    result = (
        "null"
        if outcome is None or live
        else _ENCODE(
            {
                "hand": outcome.hand,
                "lines": [line.as_json() for line in outcome.lines],
                "awards": list(outcome.awards),
            }
        )
    )
    return PublicState(
        state=state,
        table=table_text,
        table_object=table,
        before_seats=_ENCODE(before_seats)[1:-1],
        seats=tuple(seats),
        seat_texts=tuple(seat_texts),
        after_legal=(
            f'"log":{log.text(state.log)},"result":{result},"events":[]'
            if events_after is None
            else f'"result":{result},"events":{log.after(state.log, events_after)}'
        ),
        live=live,
        actor=actor,
        parts=parts,
    )


def watch_object(state: TableState) -> dict[str, bool]:
    """The ``table`` object's ``watch``: whether the host offers a watch link to spectators
    (``open``), and whether they see each deal only once it has ended (``delay``); the
    players' adds how many watch (``spectators``), the spectators' does not."""
    return {"open": state.switches.watch_hash is not None, "delay": state.switches.watch_delay}


def advice_entries(advice: Sequence[AdviceItem]) -> list[dict[str, Any]]:
    """The state's ``advice``: the best :data:`ADVICE_SHOWN` choices, best first, each the
    cards kept and changed, the chance of winning (``win``) and of improving (``improve``),
    0 to 1, and whether it breaks the opening (``split``, 4.4)."""
    return [
        {
            "keep": card_codes(item.kept),
            "discard": card_codes(item.discards),
            "win": round(item.ev, 4),
            "improve": round(item.improve, 4),
            "split": item.split,
        }
        for item in advice[:ADVICE_SHOWN]
    ]


def draws_now(public: PublicState, slot: int) -> SeatView | None:
    """``slot``'s own view when it is that seat's draw now (the only time it may be given
    the hint), else None."""
    state = public.state
    if public.actor != slot or not public.live or state.status is not TableStatus.PLAYING:
        return None
    own = state.view(slot)
    if own is None or not any(a.kind is ActionKind.DRAW for a in own.legal_actions):
        return None
    return own


def state_text(
    public: PublicState,
    slot: int,
    *,
    host: bool,
    advice: Sequence[dict[str, Any]] | None = None,
) -> str:
    """The ``state`` message for the player in ``slot`` as JSON text: the public part and
    only what that seat may know (its own cards and hand, its legal actions, the hint for
    its own draw, ``advice``: :func:`advice_entries` of its own view, or null), read from
    its own view."""
    state = public.state
    own = state.view(slot)
    live = public.live
    parts = public.parts
    seats = public.seat_texts
    hand = "null"
    if own is not None and own.hand:
        mine = parts.own_seat(slot, public.seats[slot], seats[slot], own.hand)
        seats = (*seats[:slot], mine, *seats[slot + 1 :])
        if live or state.outcome is not None:
            hand = parts.hand(slot, own)
    legal = "[]"
    if public.actor == slot and state.status is TableStatus.PLAYING:
        match = state.match
        if own is not None and live:
            legal = _ENCODE(_legal(own.legal_actions, own.round_bets[own.seat]))
        elif match is not None and match.phase is MatchPhase.MAKE_UP:
            legal = _ENCODE(_legal(state.legal_actions()))
    deal = state.hand
    # The members in the order the message has always had (the browser reads them by name).
    payload = (
        f'{{"table":{public.table},"you":{slot},"host":{"true" if host else "false"},'
        f'{public.before_seats},"seats":[{",".join(seats)}],"hand":{hand},'
        f'"legal":{legal},"advice":{"null" if advice is None else _ENCODE(advice)},'
        f"{public.after_legal}}}"
    )
    return (
        f'{{"type":"state","hand":{"null" if deal is None else deal},"seq":{state.seq},'
        f'"state":{payload}}}'
    )


def _between(state: TableState) -> str:
    match = state.match
    if state.status is TableStatus.LOBBY or match is None or state.hand is None:
        return "lobby"
    if match.phase is MatchPhase.MAKE_UP:
        return "make-up"
    if match.phase is MatchPhase.OVER:
        return "over"
    return "between-deals"


def error_message(code: str, message: str) -> dict[str, Any]:
    """A refusal; the client keeps its view."""
    return {"type": "error", "code": code, "message": message}
