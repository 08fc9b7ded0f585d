"""Hand histories that replay exactly, in a text format based on PHH (Poker Hand History).

A :class:`HandHistory` describes one deal completely: the rules, the seats and their stacks
before the antes, the dealer, what the deal inherited (carried chips, the pair needed, 5.5
make-ups, whether blinds were allowed), the whole deck order, the recorded reshuffles (4.3),
every player action and, for a finished deal, the result. :func:`replay` rebuilds the
:class:`~italian_poker.engine.deal.Deal` from it, re-applies every action and checks the
recorded result; :func:`dumps` / :func:`loads` write and read the TOML text described in
``docs/hand-history.md``. Nothing here does I/O: reading and writing files is the caller's job.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

from italian_poker.engine.actions import Action, ActionKind
from italian_poker.engine.cards import Card, Rank, format_cards, parse_cards
from italian_poker.engine.deal import (
    MAX_DRAW,
    ActionRecord,
    Deal,
    DealResult,
    DealStart,
    Outcome,
    Phase,
    PotAward,
)
from italian_poker.engine.errors import ItalianPokerError
from italian_poker.engine.match import CompletedDeal
from italian_poker.engine.opening import parse_min_pair
from italian_poker.engine.rules import BettingStructure, Rules
from italian_poker.engine.vocabulary import ACTION_PHRASES, SPLIT_OPENING, STAND_PAT, italian_term
from italian_poker.engine.wording import count

VARIANT = "ITA"
"""The PHH ``variant`` code of Italian Poker (not one of PHH's own codes: a PHH reader such as
PokerKit will not replay it)."""

FORMAT_VERSION = 1
"""``_format``: the version of the Italian extensions to PHH written by :func:`dumps`."""


class HistoryError(ItalianPokerError, ValueError):
    """A hand history that cannot be read or does not replay.

    ``index`` is the 0-based position of the offending player action in
    :attr:`HandHistory.actions`, which counts player actions only (``None`` when the problem
    is not one player action, e.g. a dealer line); :func:`loads` and :func:`replay` number
    them alike, and the message starts ``action {index + 1} ({notation}):``. ``seat`` is its
    seat (``None`` if unreadable) and ``notation`` its text, e.g. ``"p2 cbr 9"``.
    """

    def __init__(
        self,
        message: str,
        *,
        index: int | None = None,
        seat: int | None = None,
        notation: str | None = None,
    ) -> None:
        if index is not None:
            message = f"action {index + 1} ({notation}): {message}"
        super().__init__(message)
        self.index = index
        self.seat = seat
        self.notation = notation


@dataclass(frozen=True, slots=True)
class HistoryAction:
    """One player action: ``seat`` (0-based) and the action. Calls carry no amount (the
    engine fills it in); ``shown`` are the cards of a show at the showdown."""

    seat: int
    action: Action
    shown: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class Dealt:
    """Cards the dealer gave a seat, after ``after`` player actions: the five-card deal (3.1),
    the cards of a draw or, when ``late``, the fourth card of a draw of four (4.2). Derived from
    the deck; recorded so that a reader sees the cards and a replay can check them."""

    after: int
    seat: int
    cards: tuple[Card, ...]
    late: bool = False


@dataclass(frozen=True, slots=True)
class HistoryResult:
    """How the deal ended: outcome, final stacks, pots awarded, chips carried forward."""

    outcome: Outcome
    stacks: tuple[int, ...]
    awards: tuple[PotAward, ...]
    carried: int

    @property
    def winnings(self) -> tuple[int, ...]:
        """Chips won by each seat across pots (PHH ``winnings``)."""
        won = [0] * len(self.stacks)
        for award in self.awards:
            for seat, share in zip(award.winners, award.shares, strict=True):
                won[seat] += share
        return tuple(won)


@dataclass(frozen=True, slots=True)
class HandHistory:
    """Everything needed to replay one deal exactly, and how it ended (``result`` is ``None``
    for a deal not yet over). Seats are 0-based here and ``p1``..``pN`` in the text."""

    rules: Rules
    names: tuple[str, ...]
    stacks: tuple[int, ...]
    """Stacks before the antes."""
    dealer: int
    carried: int
    min_pair: Rank
    blinds_allowed: bool
    makeups: tuple[int, ...]
    deck: tuple[Card, ...]
    reshuffles: tuple[tuple[Card, ...], ...]
    actions: tuple[HistoryAction, ...]
    result: HistoryResult | None = None
    dealt: tuple[Dealt, ...] = ()
    number: int | None = None

    @classmethod
    def from_deal(cls, deal: Deal, *, number: int | None = None) -> HandHistory:
        """The history of ``deal`` so far (finished or not)."""
        return _build(
            deal.start,
            deal.deck_order,
            tuple(deal.reshuffles),
            deal.actions,
            deal.result,
            number,
            deal.hands,
        )

    @classmethod
    def from_completed(cls, completed: CompletedDeal) -> HandHistory:
        """The history of a deal a :class:`~italian_poker.engine.match.Match` recorded."""
        return _build(
            completed.start,
            completed.deck,
            completed.reshuffles,
            completed.actions,
            completed.result,
            completed.number,
            None,
        )

    def start(self) -> DealStart:
        """The :class:`DealStart` that re-creates this deal with the recorded deck."""
        return DealStart(
            rules=self.rules,
            names=self.names,
            stacks=self.stacks,
            dealer=self.dealer,
            carried=self.carried,
            min_pair=self.min_pair,
            blinds_allowed=self.blinds_allowed,
            makeups=self.makeups,
            deck=self.deck,
            reshuffles=self.reshuffles,
        )


# --- building and replaying -----------------------------------------------------------------


def _build(
    start: DealStart,
    deck: Sequence[Card],
    reshuffles: tuple[tuple[Card, ...], ...],
    records: Sequence[ActionRecord],
    result: DealResult | None,
    number: int | None,
    hands: Sequence[Sequence[Card]] | None,
) -> HandHistory:
    final_hands = hands
    actions = []
    for record in records:
        action = record.action
        if action.kind is ActionKind.CALL:
            action = Action(ActionKind.CALL)
        shown: tuple[Card, ...] = ()
        if action.kind is ActionKind.SHOW:
            if final_hands is None:
                final_hands = _hands_at_end(start, deck, reshuffles, records)
            shown = tuple(final_hands[record.seat])
        actions.append(HistoryAction(record.seat, action, shown))
    history = HandHistory(
        rules=start.rules,
        names=start.names,
        stacks=start.stacks,
        dealer=start.dealer,
        carried=start.carried,
        min_pair=start.min_pair or start.rules.min_pair,
        blinds_allowed=start.blinds_allowed,
        makeups=start.makeups or (0,) * len(start.names),
        deck=tuple(deck),
        reshuffles=reshuffles,
        actions=tuple(actions),
        result=None if result is None else _result_of(result),
        number=number,
    )
    _, dealt = _run(history)
    return _replace_dealt(history, dealt)


def _hands_at_end(
    start: DealStart,
    deck: Sequence[Card],
    reshuffles: tuple[tuple[Card, ...], ...],
    records: Sequence[ActionRecord],
) -> list[list[Card]]:
    deal = Deal(_restart(start, deck, reshuffles))
    for record in records:
        deal.apply(record.action, seat=record.seat)
    return deal.hands


def _restart(
    start: DealStart, deck: Sequence[Card], reshuffles: tuple[tuple[Card, ...], ...]
) -> DealStart:
    return replace(start, deck=tuple(deck), reshuffles=reshuffles)


def _result_of(result: DealResult) -> HistoryResult:
    return HistoryResult(result.outcome, result.stacks, result.awards, result.carried)


def _replace_dealt(history: HandHistory, dealt: tuple[Dealt, ...]) -> HandHistory:
    return HandHistory(
        rules=history.rules,
        names=history.names,
        stacks=history.stacks,
        dealer=history.dealer,
        carried=history.carried,
        min_pair=history.min_pair,
        blinds_allowed=history.blinds_allowed,
        makeups=history.makeups,
        deck=history.deck,
        reshuffles=history.reshuffles,
        actions=history.actions,
        result=history.result,
        dealt=dealt,
        number=history.number,
    )


def replay(history: HandHistory) -> Deal:
    """Re-create the deal with the recorded deck and reshuffles, re-apply every action and
    check the recorded dealing and result. Raises :class:`HistoryError` naming the offending
    action (an illegal or tampered one) or the result that differs."""
    deal, dealt = _run(history)
    if not any(d.after == 0 for d in history.dealt):
        # Histories written before the deal at the start got its dealer lines (no blinds
        # offered, 3.1) are read as they were written.
        dealt = tuple(d for d in dealt if d.after > 0)
    if history.dealt and _dealt_key(dealt) != _dealt_key(history.dealt):
        for i, (recorded, actual) in enumerate(zip(history.dealt, dealt, strict=False)):
            if _dealt_key((recorded,)) != _dealt_key((actual,)):
                raise HistoryError(
                    f"dealer line {i + 1} gives p{recorded.seat + 1} "
                    f"{format_cards(recorded.cards)} {_after(recorded.after)}, but the deck "
                    f"deals p{actual.seat + 1} {format_cards(actual.cards)} "
                    f"{_after(actual.after)}"
                )
        raise HistoryError(
            f"the history records {count(len(history.dealt), 'dealer line')}, "
            f"the deck deals {len(dealt)}"
        )
    if history.result is not None:
        if deal.result is None:
            raise HistoryError("the history records a result, but the deal is not over")
        _check_result(history.result, _result_of(deal.result), history.names)
    return deal


def _after(actions: int) -> str:
    """When a dealer line comes: ``after action K`` (player actions counted from 1)."""
    return f"after action {actions}" if actions else "before any action"


def _dealt_key(dealt: Sequence[Dealt]) -> list[tuple[int, int, tuple[Card, ...]]]:
    """What a replay checks of the dealer lines (``late`` is only a comment)."""
    return [(d.after, d.seat, d.cards) for d in dealt]


def _run(history: HandHistory) -> tuple[Deal, tuple[Dealt, ...]]:
    """Replay the actions, collecting the cards dealt after each step."""
    try:
        deal = Deal(history.start())
    except ItalianPokerError as error:
        raise HistoryError(f"the deal cannot start: {error}") from None
    dealt: list[Dealt] = []
    # Without blinds to bet first (Art. 2) the five cards are dealt as the deal starts (3.1).
    _collect_dealt(deal, [[] for _ in deal.hands], 0, None, dealt)
    for i, entry in enumerate(history.actions):
        notation = action_notation(entry)
        if deal.is_over:
            raise HistoryError(
                "the deal is already over", index=i, seat=entry.seat, notation=notation
            )
        if entry.seat != deal.actor:
            actor = deal.actor
            raise HistoryError(
                f"it is p{(actor or 0) + 1}'s turn ({deal.names[actor or 0]}), "
                f"not p{entry.seat + 1}'s",
                index=i,
                seat=entry.seat,
                notation=notation,
            )
        if entry.action.kind is ActionKind.SHOW and _indices(entry.shown) != _indices(
            deal.hands[entry.seat]
        ):
            raise HistoryError(
                f"p{entry.seat + 1} holds {format_cards(deal.hands[entry.seat])}, "
                f"not {format_cards(entry.shown)}",
                index=i,
                seat=entry.seat,
                notation=notation,
            )
        if entry.shown and entry.action.kind is not ActionKind.SHOW:
            raise HistoryError(
                "only a show names cards", index=i, seat=entry.seat, notation=notation
            )
        before = [list(h) for h in deal.hands]
        try:
            deal.apply(entry.action, seat=entry.seat)
        except ItalianPokerError as error:
            raise HistoryError(str(error), index=i, seat=entry.seat, notation=notation) from None
        if len(deal.reshuffles) > len(history.reshuffles):
            raise HistoryError(
                "the discards had to be reshuffled (4.3) but no reshuffle is recorded",
                index=i,
                seat=entry.seat,
                notation=notation,
            )
        _collect_dealt(deal, before, i + 1, entry, dealt)
    if len(deal.reshuffles) != len(history.reshuffles):
        raise HistoryError(
            f"the history records {count(len(history.reshuffles), 'reshuffle')} (4.3), "
            f"the deal used {len(deal.reshuffles)}"
        )
    return deal, tuple(dealt)


def _indices(cards: Sequence[Card]) -> list[int]:
    return sorted(c.index for c in cards)


def _collect_dealt(
    deal: Deal,
    before: list[list[Card]],
    after: int,
    entry: HistoryAction | None,
    out: list[Dealt],
) -> None:
    new = {s: [c for c in deal.hands[s] if c not in before[s]] for s in range(deal.n)}
    late: dict[int, list[Card]] = {}
    if entry is not None and entry.action.kind is ActionKind.DRAW:
        seat = entry.seat
        now = min(len(entry.action.cards), MAX_DRAW - 1)
        if now:
            out.append(Dealt(after, seat, tuple(new[seat][:now])))
        late = {s: cards for s, cards in new.items() if cards and s != seat}
        if new[seat][now:]:
            late[seat] = new[seat][now:]
        for s in deal.fourth_due:
            if s in late:
                out.append(Dealt(after, s, tuple(late.pop(s)), late=True))
        return
    for s in deal.order_from(deal.next_seat(deal.dealer)):
        if new[s]:
            out.append(Dealt(after, s, tuple(new[s])))


def _check_result(recorded: HistoryResult, actual: HistoryResult, names: Sequence[str]) -> None:
    if recorded.outcome is not actual.outcome:
        raise HistoryError(
            f"the recorded outcome is {recorded.outcome.value}, the replay gives "
            f"{actual.outcome.value}"
        )
    if recorded.stacks != actual.stacks:
        diffs = ", ".join(
            f"p{s + 1} ({names[s]}) {a} not {b}"
            for s, (a, b) in enumerate(zip(actual.stacks, recorded.stacks, strict=True))
            if a != b
        )
        raise HistoryError(f"the recorded final stacks differ from the replay: {diffs}")
    if recorded.carried != actual.carried:
        raise HistoryError(
            f"the recorded carried pot is {recorded.carried}, the replay gives {actual.carried}"
        )
    key = [(a.amount, a.eligible, a.winners, a.shares) for a in recorded.awards]
    real = [(a.amount, a.eligible, a.winners, a.shares) for a in actual.awards]
    if key != real:
        raise HistoryError(
            f"the recorded pot awards differ from the replay: recorded "
            f"{_awards_text(recorded.awards)}, replay {_awards_text(actual.awards)}"
        )


def _awards_text(awards: Sequence[PotAward]) -> str:
    if not awards:
        return "none"
    return "; ".join(
        f"{a.amount} to "
        + ", ".join(f"p{w + 1} {s}" for w, s in zip(a.winners, a.shares, strict=True))
        for a in awards
    )


# --- action notation --------------------------------------------------------------------------

_AMOUNT_CODES = {
    ActionKind.BLIND: "buio",
    ActionKind.CONTROBUIO: "controbuio",
    ActionKind.OVER: "over",
    ActionKind.OPEN: "open",
    ActionKind.BET: "cbr",
    ActionKind.RAISE: "cbr",
}
_PLAIN_CODES = {
    ActionKind.DECLINE: "decline",
    ActionKind.PASS: "pass",
    ActionKind.FOLD: "f",
    ActionKind.CALL: "cc",
    ActionKind.CHECK: "cc",
    ActionKind.PAROL: "parol",
    ActionKind.MUCK: "sm",
}
_BY_CODE = {
    "buio": ActionKind.BLIND,
    "controbuio": ActionKind.CONTROBUIO,
    "over": ActionKind.OVER,
    "open": ActionKind.OPEN,
    "decline": ActionKind.DECLINE,
    "pass": ActionKind.PASS,
    "f": ActionKind.FOLD,
    "parol": ActionKind.PAROL,
}
SPLIT_FLAG = "!split"


def _cards_text(cards: Sequence[Card]) -> str:
    """PHH card notation: cards concatenated without separators."""
    return "".join(str(c) for c in cards)


def action_notation(entry: HistoryAction) -> str:
    """The PHH-style notation of a player action, e.g. ``"p2 cbr 9"``, ``"p1 sd Jc !split"``."""
    actor = f"p{entry.seat + 1}"
    action = entry.action
    kind = action.kind
    if kind is ActionKind.DRAW:
        text = f"{actor} sd"
        if action.cards:
            text += " " + _cards_text(action.cards)
        return text + (f" {SPLIT_FLAG}" if action.split else "")
    if kind is ActionKind.SHOW:
        return f"{actor} sm {_cards_text(entry.shown)}"
    if kind in _AMOUNT_CODES:
        return f"{actor} {_AMOUNT_CODES[kind]} {action.amount}"
    return f"{actor} {_PLAIN_CODES[kind]}"


def _dealt_notation(dealt: Dealt) -> str:
    text = f"d dh p{dealt.seat + 1} {_cards_text(dealt.cards)}"
    return text + (" # late fourth card (4.2)" if dealt.late else "")


def _digits(text: str) -> bool:
    """Whether ``text`` is a whole number in ASCII digits (``"²".isdigit()`` is true too)."""
    return text.isascii() and text.isdigit()


@dataclass(frozen=True, slots=True)
class _Raw:
    """A parsed player line before ``cc`` and ``cbr`` are resolved against the deal."""

    seat: int
    code: str
    amount: int | None
    cards: tuple[Card, ...]
    split: bool
    text: str


def _parse_line(text: str, players: int, action: int, dealer_line: int) -> _Raw | Dealt | None:
    """One string of ``actions``: a player action (the ``action``-th, from 0, if it is one), a
    dealer line (the ``dealer_line``-th, from 0) or a no-op. Errors number them as replay does:
    ``action K (NOTATION): ...``, ``dealer line D (NOTATION): ...``, counting from 1."""
    body = text.split("#", 1)[0].split()
    if not body:
        return None  # a PHH no-op: empty or a commentary
    notation = text.strip()
    dealer = body[0] == "d"
    seat: int | None = None

    def fail(message: str) -> HistoryError:
        if dealer:
            return HistoryError(f"dealer line {dealer_line + 1} ({notation}): {message}")
        return HistoryError(message, index=action, seat=seat, notation=notation)

    def seat_of(token: str) -> int:
        if token[:1] == "p" and _digits(token[1:]) and 1 <= int(token[1:]) <= players:
            return int(token[1:]) - 1
        raise fail(f"{token!r} is not a player p1..p{players}")

    def cards_of(tokens: list[str]) -> tuple[Card, ...]:
        try:
            return parse_cards(" ".join(tokens))
        except ItalianPokerError as error:
            raise fail(str(error)) from None

    if dealer:
        if len(body) < 4 or body[1] != "dh":
            raise fail("a dealer line reads 'd dh pN cards'")
        return Dealt(-1, seat_of(body[2]), cards_of(body[3:]), late="late fourth" in text)
    if len(body) < 2:
        raise fail("an action reads 'pN code [arguments]'")
    seat = seat_of(body[0])
    code, args = body[1], body[2:]
    if code in ("sd", "sm"):
        split = SPLIT_FLAG in args
        if split and code == "sm":
            raise fail("only a draw (sd) may announce a split")
        cards = cards_of([a for a in args if a != SPLIT_FLAG])
        return _Raw(seat, code, None, cards, split, text)
    if code in ("cbr", "buio", "controbuio", "over", "open"):
        if len(args) != 1 or not _digits(args[0]):
            raise fail(f"{code} needs one amount in whole chips")
        return _Raw(seat, code, int(args[0]), (), False, text)
    if code in ("cc", *_BY_CODE):
        if args:
            raise fail(f"{code} takes no arguments")
        return _Raw(seat, code, None, (), False, text)
    raise fail(
        f"unknown action {code!r}; known: buio, controbuio, over, decline, pass, open, "
        "f, cc, cbr, parol, sd, sm"
    )


def _resolve(raw: _Raw, deal: Deal | None) -> HistoryAction:
    """The engine action of a parsed line. PHH's ``cc`` (check or call) and ``cbr`` (bet or
    raise) are resolved by what the deal offers at that point; without a deal to ask (after an
    illegal action), as call and raise."""
    kinds = {la.kind for la in deal.legal_actions()} if deal is not None else set()
    if raw.code == "cc":
        kind = ActionKind.CHECK if ActionKind.CHECK in kinds else ActionKind.CALL
        return HistoryAction(raw.seat, Action(kind))
    if raw.code == "cbr":
        kind = ActionKind.BET if ActionKind.BET in kinds else ActionKind.RAISE
        return HistoryAction(raw.seat, Action(kind, raw.amount))
    if raw.code == "sd":
        return HistoryAction(raw.seat, Action(ActionKind.DRAW, cards=raw.cards, split=raw.split))
    if raw.code == "sm":
        if raw.cards:
            return HistoryAction(raw.seat, Action(ActionKind.SHOW), raw.cards)
        return HistoryAction(raw.seat, Action(ActionKind.MUCK))
    return HistoryAction(raw.seat, Action(_BY_CODE[raw.code], raw.amount))


# --- TOML writing -----------------------------------------------------------------------------

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f"}
_ESCAPES["\r"] = "\\r"


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string, escaping quotes, backslashes and control characters."""
    out = []
    for ch in text:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def toml_value(value: object) -> str:
    """A TOML value for the subset used here: str, bool, int, lists, and dicts (inline)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        items = ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items() if v is not None)
        return "{" + items + "}"
    raise TypeError(f"cannot write {type(value).__name__} as TOML here")


def _seat(seat: int) -> str:
    return f"p{seat + 1}"


def _phase_comment(phase: Phase) -> str:
    return {
        Phase.BLINDS: "blinds (Art. 2)",
        Phase.OPENING: "opening (Art. 3)",
        Phase.FIRST_ROUND: "first betting round (Art. 3)",
        Phase.DRAW: "draw (Art. 4)",
        Phase.SECOND_ROUND: "second betting round (Art. 5)",
        Phase.SHOWDOWN: "showdown (Art. 6-7)",
        Phase.COMPLETE: "end",
    }[phase]


def _action_lines(history: HandHistory) -> Iterator[str]:
    """The ``actions`` array: player actions, the dealer's lines and phase comments."""
    phases = _phases(history)
    dealt = list(history.dealt)
    reshuffle_at = _reshuffle_positions(history)
    phase: Phase | None = None
    for i in range(len(history.actions) + 1):
        if i in reshuffle_at:
            yield '  "# the discards are reshuffled (4.3)",'
        while dealt and dealt[0].after == i:
            yield f"  {toml_string(_dealt_notation(dealt.pop(0)))},"
        if i == len(history.actions):
            break
        if phases[i] is not phase:
            phase = phases[i]
            yield f"  # {_phase_comment(phase)}"
        yield f"  {toml_string(action_notation(history.actions[i]))},"


def _phases(history: HandHistory) -> list[Phase]:
    """The phase of each action (by a replay; the phase is only a comment in the text)."""
    phases: list[Phase] = []
    try:
        deal = Deal(history.start())
        for entry in history.actions:
            phases.append(deal.phase)
            deal.apply(entry.action, seat=entry.seat)
        return phases
    except ItalianPokerError:
        return phases + [Phase.COMPLETE] * (len(history.actions) - len(phases))


def _reshuffle_positions(history: HandHistory) -> set[int]:
    positions: set[int] = set()
    try:
        deal = Deal(history.start())
        for i, entry in enumerate(history.actions):
            count = len(deal.reshuffles)
            deal.apply(entry.action, seat=entry.seat)
            if len(deal.reshuffles) > count:
                positions.add(i + 1)
    except ItalianPokerError:
        pass
    return positions


def _antes(history: HandHistory) -> list[int]:
    rules = history.rules
    return [
        rules.ante + (rules.dealer_ante if s == history.dealer else 0)
        for s in range(len(history.names))
    ]


def _bet_fields(rules: Rules) -> dict[str, int]:
    if rules.structure is BettingStructure.FIXED_LIMIT:
        return {"small_bet": rules.small_bet, "big_bet": rules.big_bet}
    return {"min_bet": rules.min_bet}


def _table_lines(history: HandHistory) -> list[str]:
    """The TOML lines before the deck and actions: hand number, antes, bets, seats, stacks."""
    lines = [f"hand = {history.number}"] if history.number is not None else []
    return [
        *lines,
        f"antes = {toml_value(_antes(history))}",
        *(f"{k} = {v}" for k, v in _bet_fields(history.rules).items()),
        f"starting_stacks = {toml_value(history.stacks)}",
        f"players = {toml_value(history.names)}",
        f"seat_count = {history.rules.players}",
        f"_dealer = {toml_string(_seat(history.dealer))}",
        f"_carried = {history.carried}",
        f"_min_pair = {toml_string(history.min_pair.label)}",
        f"_blinds_allowed = {toml_value(history.blinds_allowed)}",
        f"_makeups = {toml_value(history.makeups)}",
    ]


def dumps(history: HandHistory) -> str:
    """The history as PHH-based TOML text (see ``docs/hand-history.md``)."""
    lines = [
        "# Italian Poker hand history: PHH with Italian extensions (docs/hand-history.md)",
        f"variant = {toml_string(VARIANT)}",
        f"_format = {FORMAT_VERSION}",
    ]
    lines += [
        *_table_lines(history),
        "_deck = [",
        *(
            "  " + ", ".join(toml_string(str(c)) for c in history.deck[k : k + 13]) + ","
            for k in range(0, len(history.deck), 13)
        ),
        "]",
    ]
    if history.reshuffles:
        lines.append("_reshuffles = [")
        lines += [f"  {toml_value([str(c) for c in order])}," for order in history.reshuffles]
        lines.append("]")
    else:
        lines.append("_reshuffles = []")
    lines += ["actions = [", *_action_lines(history), "]"]
    return "\n".join([*lines, *_result_and_rules_lines(history)]) + "\n"


def _result_and_rules_lines(history: HandHistory) -> list[str]:
    """The TOML lines after the actions: the result, the rules and the pot awards."""
    lines: list[str] = []
    result = history.result
    if result is not None:
        lines += [
            f"finishing_stacks = {toml_value(result.stacks)}",
            f"winnings = {toml_value(result.winnings)}",
            f"_outcome = {toml_string(result.outcome.value)}",
            f"_carried_out = {result.carried}",
        ]
    lines += ["", "[_rules]"]
    lines += [f"{k} = {toml_value(v)}" for k, v in history.rules.to_dict().items() if v is not None]
    for award in result.awards if result is not None else ():
        lines += [
            "",
            "[[_awards]]",
            f"amount = {award.amount}",
            f"eligible = {toml_value([_seat(s) for s in award.eligible])}",
            f"winners = {toml_value([_seat(s) for s in award.winners])}",
            f"shares = {toml_value(award.shares)}",
            f"reason = {toml_string(award.reason)}",
        ]
    return lines


# --- TOML reading -----------------------------------------------------------------------------


class _Fields:
    """Typed access to the parsed TOML, raising :class:`HistoryError` on a bad field."""

    def __init__(self, data: dict[str, Any], where: str = "") -> None:
        self.data = data
        self.where = where

    def _get(self, key: str, default: Any = ...) -> Any:
        if key not in self.data:
            if default is ...:
                raise HistoryError(f"missing field {self.where}{key}")
            return default
        return self.data[key]

    def _bad(self, key: str, what: str) -> HistoryError:
        return HistoryError(f"field {self.where}{key} must be {what}, got {self.data[key]!r}")

    def whole(self, key: str, default: Any = ...) -> int:
        value = self._get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise self._bad(key, "a whole number of 0 or more")
        return value

    def text(self, key: str, default: Any = ...) -> str:
        value = self._get(key, default)
        if not isinstance(value, str):
            raise self._bad(key, "a string")
        return value

    def flag(self, key: str) -> bool:
        value = self._get(key)
        if not isinstance(value, bool):
            raise self._bad(key, "true or false")
        return value

    def wholes(self, key: str, length: int | None = None) -> tuple[int, ...]:
        value = self._get(key)
        if not isinstance(value, list) or any(
            isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in value
        ):
            raise self._bad(key, "an array of whole numbers")
        if length is not None and len(value) != length:
            raise self._bad(key, f"an array of {count(length, 'number')} (one per player)")
        return tuple(value)

    def texts(self, key: str, default: Any = ...) -> list[str]:
        value = self._get(key, default)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self._bad(key, "an array of strings")
        return value

    def cards(self, key: str, value: object) -> tuple[Card, ...]:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise HistoryError(f'field {self.where}{key} must be an array of cards like "Ah"')
        try:
            cards = parse_cards(" ".join(value))
        except ItalianPokerError as error:
            raise HistoryError(f"field {self.where}{key}: {error}") from None
        if len(cards) != len(value):
            raise HistoryError(f"field {self.where}{key} must hold one card per string")
        return cards

    def seat(self, key: str, value: object, players: int) -> int:
        if (
            isinstance(value, str)
            and value[:1] == "p"
            and _digits(value[1:])
            and 1 <= int(value[1:]) <= players
        ):
            return int(value[1:]) - 1
        raise HistoryError(f"field {self.where}{key}: {value!r} is not a player p1..p{players}")


_SWITCHES = tuple(f.name for f in fields(Rules) if f.type in ("bool", bool))
"""The options of :class:`Rules` that are on or off: ``true`` or ``false`` in ``[_rules]``."""


def loads(text: str) -> HandHistory:
    """Read a history written by :func:`dumps` (or by hand). Raises :class:`HistoryError` on
    bad TOML, a missing or malformed field or an unknown action. Legality is :func:`replay`'s
    business: a tampered but well-formed history loads, and replay names the bad action."""
    try:
        data = tomllib.loads(text.removeprefix("\ufeff"))  # a byte order mark (some editors)
    except tomllib.TOMLDecodeError as error:
        raise HistoryError(f"not valid TOML: {error}") from None
    f = _Fields(data)
    variant = f.text("variant")
    if variant != VARIANT:
        raise HistoryError(f"variant {variant!r} is not Italian Poker ({VARIANT!r})")
    if data.get("_redacted") is True:
        raise HistoryError(
            "this history is one player's view of the deal (_redacted = true): the others' "
            "cards and the deck are left out, so it cannot be replayed"
        )
    version = f.whole("_format", FORMAT_VERSION)
    if version != FORMAT_VERSION:
        raise HistoryError(f"format version {version} is not supported ({FORMAT_VERSION})")
    rules_data = data.get("_rules")
    if not isinstance(rules_data, dict):
        raise HistoryError("missing table [_rules]")
    for option in _SWITCHES:
        if option in rules_data and not isinstance(rules_data[option], bool):
            raise HistoryError(
                f"[_rules]: {option} must be true or false, got {rules_data[option]!r}"
            )
    try:
        rules = Rules.from_dict(rules_data)
    except (ItalianPokerError, TypeError) as error:
        raise HistoryError(f"[_rules]: {error}") from None
    names = tuple(f.texts("players"))
    n = len(names)
    stacks = f.wholes("starting_stacks", n)
    dealer = f.seat("_dealer", f.text("_dealer"), n)
    try:
        min_pair = parse_min_pair(f.text("_min_pair"))
    except ItalianPokerError as error:
        raise HistoryError(f"field _min_pair: {error}") from None
    deck = f.cards("_deck", data.get("_deck"))
    reshuffle_data = data.get("_reshuffles", [])
    if not isinstance(reshuffle_data, list):
        raise HistoryError("field _reshuffles must be an array of arrays of cards")
    reshuffles = tuple(
        f.cards(f"_reshuffles[{k}]", order) for k, order in enumerate(reshuffle_data)
    )
    history = HandHistory(
        rules=rules,
        names=names,
        stacks=stacks,
        dealer=dealer,
        carried=f.whole("_carried", 0),
        min_pair=min_pair,
        blinds_allowed=f.flag("_blinds_allowed"),
        makeups=f.wholes("_makeups", n),
        deck=deck,
        reshuffles=reshuffles,
        actions=(),
        number=f.whole("hand", None) if "hand" in data else None,
    )
    antes = f.wholes("antes", n)
    if list(antes) != _antes(history):
        raise HistoryError(
            f"antes {list(antes)} do not match the rules' ante and dealer ante ({_antes(history)})"
        )
    actions, dealt = _read_actions(f.texts("actions"), history)
    result = _read_result(data, f, n)
    return HandHistory(
        rules=history.rules,
        names=names,
        stacks=stacks,
        dealer=dealer,
        carried=history.carried,
        min_pair=min_pair,
        blinds_allowed=history.blinds_allowed,
        makeups=history.makeups,
        deck=deck,
        reshuffles=reshuffles,
        actions=actions,
        result=result,
        dealt=dealt,
        number=history.number,
    )


def _read_actions(
    lines: list[str], history: HandHistory
) -> tuple[tuple[HistoryAction, ...], tuple[Dealt, ...]]:
    n = len(history.names)
    deal: Deal | None
    try:
        deal = Deal(history.start())
    except ItalianPokerError:
        deal = None
    actions: list[HistoryAction] = []
    dealt: list[Dealt] = []
    for line in lines:
        parsed = _parse_line(line, n, len(actions), len(dealt))
        if parsed is None:
            continue
        if isinstance(parsed, Dealt):
            dealt.append(Dealt(len(actions), parsed.seat, parsed.cards, parsed.late))
            continue
        entry = _resolve(parsed, deal)
        actions.append(entry)
        if deal is not None:
            try:
                deal.apply(entry.action, seat=entry.seat)
            except ItalianPokerError:
                deal = None  # replay() will name this action
    return tuple(actions), tuple(dealt)


def _read_result(data: dict[str, Any], f: _Fields, n: int) -> HistoryResult | None:
    if "_outcome" not in data:
        return None
    try:
        outcome = Outcome(f.text("_outcome"))
    except ValueError:
        choices = ", ".join(o.value for o in Outcome)
        raise HistoryError(f"field _outcome must be one of {choices}") from None
    awards_data = data.get("_awards", [])
    if not isinstance(awards_data, list) or not all(isinstance(a, dict) for a in awards_data):
        raise HistoryError("_awards must be an array of tables [[_awards]]")
    awards = []
    for k, item in enumerate(awards_data):
        a = _Fields(item, f"_awards[{k}].")
        winners = tuple(a.seat("winners", w, n) for w in a.texts("winners"))
        shares = a.wholes("shares", len(winners))
        awards.append(
            PotAward(
                amount=a.whole("amount"),
                eligible=tuple(a.seat("eligible", e, n) for e in a.texts("eligible")),
                winners=winners,
                shares=shares,
                reason=a.text("reason", ""),
            )
        )
    result = HistoryResult(
        outcome=outcome,
        stacks=f.wholes("finishing_stacks", n),
        awards=tuple(awards),
        carried=f.whole("_carried_out"),
    )
    if "winnings" in data and f.wholes("winnings", n) != result.winnings:
        raise HistoryError(
            f"winnings {list(f.wholes('winnings', n))} do not add up to the pot awards "
            f"({list(result.winnings)})"
        )
    return result


# --- reading a replayed deal in words ---------------------------------------------------------


def describe_action(record: ActionRecord, deal: Deal) -> str:
    """One replayed action in words, English with the Italian term, e.g.
    ``"Bruno raises to 8 (rilancio)"``."""
    name = deal.names[record.seat]
    action = record.action
    english, italian = ACTION_PHRASES[action.kind], italian_term(action.kind)
    if action.kind is ActionKind.DRAW:
        count = len(action.cards)
        if count == 0:
            return f"{name} {STAND_PAT[0]} ({STAND_PAT[1]})"
        text = f"{name} {english} {count} ({format_cards(action.cards)}) ({italian} {count})"
        if action.split:
            text += f", announcing {SPLIT_OPENING[0]} ({SPLIT_OPENING[1]}, 4.4)"
        return text
    if action.kind is ActionKind.SHOW:
        rank = deal.shown.get(record.seat)
        cards = format_cards(deal.hands[record.seat])
        what = f": {rank.description} / {rank.description_it}" if rank is not None else ""
        return f"{name} shows {cards} ({italian}){what}"
    amount = f" {action.amount}" if action.amount is not None else ""
    return f"{name} {english}{amount} ({italian})"


def describe(history: HandHistory, deal: Deal) -> list[str]:
    """A readable account of ``history`` as replayed into ``deal`` (see :func:`replay`)."""
    n = len(history.names)
    rules = history.rules
    lines = [
        f"Deal{'' if history.number is None else f' {history.number}'}: {count(n, 'player')}, "
        f"rules {rules.name!r}, {len(history.deck)}-card deck, "
        f"dealer {history.names[history.dealer]} (p{history.dealer + 1})",
        f"To open: {deal.requirement.describe()} / {deal.requirement.describe('it')}",
    ]
    if history.carried:
        lines.append(f"Chips carried from earlier deals: {history.carried}")
    if not history.blinds_allowed:
        lines.append("No blinds on this deal (the deal after a parol, 5.5)")
    lines.append("Seats:")
    antes = _antes(history)
    for s, name in enumerate(history.names):
        extra = f", make-up {history.makeups[s]}" if history.makeups[s] else ""
        chips = count(history.stacks[s], "chip")
        lines.append(f"  p{s + 1} {name}: {chips}, ante {antes[s]}{extra}")
    lines.append("Actions:")
    dealt = list(history.dealt)
    for i in range(len(deal.actions) + 1):
        while dealt and dealt[0].after == i:
            d = dealt.pop(0)
            late = " (the fourth card, after everyone else, 4.2)" if d.late else ""
            lines.append(f"     dealer gives {deal.names[d.seat]} {format_cards(d.cards)}{late}")
        if i < len(deal.actions):
            lines.append(f"  {i + 1:>3}. {describe_action(deal.actions[i], deal)}")
    if history.reshuffles:
        times = count(len(history.reshuffles), "time")
        lines.append(f"The discards were reshuffled {times} (4.3)")
    result = deal.result
    if result is None:
        lines.append("The deal is not over.")
        return lines
    if result.proof:
        lines.append(f"Opening proved with {format_cards(result.proof)}")
    outcome = {
        Outcome.WON: "the pot is won",
        Outcome.PASSED: "everyone passed (3.5): the pot stays for the next deal",
        Outcome.PAROL: "everyone said parol (5.4(a)): the pot goes to the next deal",
    }[result.outcome]
    lines.append(f"Outcome: {outcome}")
    for award in result.awards:
        shares = ", ".join(
            f"{deal.names[w]} {share}" for w, share in zip(award.winners, award.shares, strict=True)
        )
        lines.append(f"Pot of {award.amount}: {shares} ({award.reason})")
    if result.carried:
        lines.append(f"Carried to the next deal: {result.carried}")
    if any(result.returned):
        lines.append(f"Antes returned: {list(result.returned)}")
    for s, amount in enumerate(result.makeups):
        if amount:
            lines.append(f"{deal.names[s]} must make up {amount} to play the next deal (5.5)")
    lines.append("Final stacks:")
    for s, name in enumerate(history.names):
        change = result.stacks[s] - history.stacks[s]
        lines.append(f"  p{s + 1} {name}: {result.stacks[s]} ({change:+d})")
    return lines


def summary(history: HandHistory, deal: Deal) -> dict[str, Any]:
    """JSON-ready final stacks and pot awards of a replayed deal."""
    result = deal.result
    return {
        "players": list(history.names),
        "starting_stacks": list(history.stacks),
        "complete": result is not None,
        "outcome": None if result is None else result.outcome.value,
        "final_stacks": list(deal.stacks if result is None else result.stacks),
        "carried": None if result is None else result.carried,
        "awards": [
            {
                "amount": a.amount,
                "eligible": [history.names[s] for s in a.eligible],
                "winners": [history.names[s] for s in a.winners],
                "shares": list(a.shares),
                "reason": a.reason,
            }
            for a in (result.awards if result is not None else ())
        ],
    }


# --- what one player may see ----------------------------------------------------------------

UNKNOWN_CARD = "??"
"""PHH's notation for a card the writer did not see."""


def _visible_action(history: HandHistory, viewer: int, entry: HistoryAction) -> HistoryAction:
    """``entry`` as ``viewer`` saw it: another seat's discards are hidden (unless face up,
    003) and replaced by as many unknown cards."""
    action = entry.action
    if (
        action.kind is ActionKind.DRAW
        and entry.seat != viewer
        and not history.rules.discards_face_up
    ):
        return HistoryAction(entry.seat, Action(ActionKind.DRAW, split=action.split), ())
    return entry


def redacted_record(history: HandHistory, viewer: int) -> dict[str, Any]:
    """The deal as seat ``viewer`` may know it, as JSON-ready values: its own cards, the
    others' only when shown at the showdown; other draws show only how many cards changed
    (their discards when they lie face up, 003). No deck order, no reshuffles."""
    face_up = history.rules.discards_face_up
    actions = []
    for entry in history.actions:
        action = entry.action
        item: dict[str, Any] = {
            "seat": entry.seat,
            "kind": action.kind.value,
            "amount": action.amount,
        }
        if action.kind is ActionKind.DRAW:
            item["count"] = len(action.cards)
            item["split"] = action.split
            if entry.seat == viewer or face_up:
                item["cards"] = [str(c) for c in action.cards]
        if action.kind is ActionKind.SHOW:
            item["cards"] = [str(c) for c in entry.shown]
        actions.append(item)
    dealt = [
        {
            "after": d.after,
            "seat": d.seat,
            "count": len(d.cards),
            "cards": [str(c) for c in d.cards] if d.seat == viewer else None,
            "late": d.late,
        }
        for d in history.dealt
    ]
    result = history.result
    return {
        "hand": history.number,
        "you": viewer,
        "names": list(history.names),
        "dealer": history.dealer,
        "stacks": list(history.stacks),
        "carried": history.carried,
        "min_pair": history.min_pair.label,
        "rules": history.rules.to_dict(),
        "dealt": dealt,
        "actions": actions,
        "result": None
        if result is None
        else {
            "outcome": result.outcome.value,
            "stacks": list(result.stacks),
            "winnings": list(result.winnings),
            "carried": result.carried,
            "awards": [
                {
                    "amount": a.amount,
                    "winners": list(a.winners),
                    "shares": list(a.shares),
                    "reason": a.reason,
                }
                for a in result.awards
            ],
        },
    }


def _redacted_action_line(history: HandHistory, viewer: int, entry: HistoryAction) -> str:
    visible = _visible_action(history, viewer, entry)
    text = action_notation(visible)
    if visible is not entry:
        hidden = UNKNOWN_CARD * len(entry.action.cards)
        head = f"p{entry.seat + 1} sd"
        text = head + (f" {hidden}" if hidden else "") + text[len(head) :]
    return text


def dumps_redacted(history: HandHistory, viewer: int) -> str:
    """The history in the hand-history text format as seat ``viewer`` may see it: the
    deck and reshuffles are left out, cards dealt to the others and their hidden discards are
    written ``??`` (PHH's unknown card). For reading only: it does not replay."""
    lines = [
        "# Italian Poker hand history (docs/hand-history.md), as one player saw it:",
        "# the others' hidden cards are written ?? and the deck is left out; it does not replay.",
        f"variant = {toml_string(VARIANT)}",
        f"_format = {FORMAT_VERSION}",
        "_redacted = true",
        f"_viewer = {toml_string(_seat(viewer))}",
    ]
    lines += [
        *_table_lines(history),
        "actions = [",
    ]
    dealt = list(history.dealt)
    for i in range(len(history.actions) + 1):
        while dealt and dealt[0].after == i:
            d = dealt.pop(0)
            cards = _cards_text(d.cards) if d.seat == viewer else UNKNOWN_CARD * len(d.cards)
            late = " # late fourth card (4.2)" if d.late else ""
            lines.append(f"  {toml_string(f'd dh p{d.seat + 1} {cards}{late}')},")
        if i < len(history.actions):
            entry = history.actions[i]
            lines.append(f"  {toml_string(_redacted_action_line(history, viewer, entry))},")
    lines.append("]")
    return "\n".join([*lines, *_result_and_rules_lines(history)]) + "\n"
