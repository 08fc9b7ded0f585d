"""The hand-history file format: PHH-based TOML, written by :func:`dumps` and read by
:func:`loads` (``docs/hand-history.md``). Nothing here does I/O: reading and writing files is
the caller's job."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from dataclasses import fields
from typing import Any

from italian_poker.engine.card_source import CHANCE, RecordedSource, StackedSource
from italian_poker.engine.cards import Card, parse_cards
from italian_poker.engine.deal import Deal, Outcome, Phase, PotAward
from italian_poker.engine.errors import ItalianPokerError
from italian_poker.engine.history.fairness import fair_lines, read_fair
from italian_poker.engine.history.model import (
    FORMAT_VERSION,
    VARIANT,
    Dealt,
    HandHistory,
    HistoryAction,
    HistoryError,
    HistoryResult,
    card_operations,
    from_operations,
)
from italian_poker.engine.history.notation import (
    action_notation,
    dealt_notation,
    digits,
    parse_line,
    resolve,
)
from italian_poker.engine.history.replay import phases_of, reshuffle_points
from italian_poker.engine.opening import parse_min_pair
from italian_poker.engine.operations import CardsDrawn, FourthCardDealt, HandsDealt
from italian_poker.engine.rules import BettingStructure, Rules
from italian_poker.engine.wording import count

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


def seat_text(seat: int) -> str:
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
    phases = phases_of(history)
    dealt = list(history.dealt)
    reshuffle_at = reshuffle_points(history)
    phase: Phase | None = None
    for i in range(len(history.actions) + 1):
        if i in reshuffle_at:
            yield '  "# the discards are reshuffled (4.3)",'
        while dealt and dealt[0].after == i:
            yield f"  {toml_string(dealt_notation(dealt.pop(0)))},"
        if i == len(history.actions):
            break
        if phases[i] is not phase:
            phase = phases[i]
            yield f"  # {_phase_comment(phase)}"
        yield f"  {toml_string(action_notation(history.actions[i]))},"


def antes_of(history: HandHistory) -> list[int]:
    rules = history.rules
    return [
        rules.ante + (rules.dealer_ante if s == history.dealer else 0)
        for s in range(len(history.names))
    ]


def _bet_fields(rules: Rules) -> dict[str, int]:
    if rules.structure is BettingStructure.FIXED_LIMIT:
        return {"small_bet": rules.small_bet, "big_bet": rules.big_bet}
    return {"min_bet": rules.min_bet}


def table_lines(history: HandHistory) -> list[str]:
    """The TOML lines before the actions: hand number, antes, bets, seats, stacks."""
    lines = [f"hand = {history.number}"] if history.number is not None else []
    return [
        *lines,
        f"antes = {toml_value(antes_of(history))}",
        *(f"{k} = {v}" for k, v in _bet_fields(history.rules).items()),
        f"starting_stacks = {toml_value(history.stacks)}",
        f"players = {toml_value(history.names)}",
        f"seat_count = {history.rules.players}",
        f"_dealer = {toml_string(seat_text(history.dealer))}",
        f"_carried = {history.carried}",
        f"_min_pair = {toml_string(history.min_pair.label)}",
        f"_blinds_allowed = {toml_value(history.blinds_allowed)}",
        f"_makeups = {toml_value(history.makeups)}",
        # Written only when they differ from the default: older histories read as they were.
        *(["_two_pair = true"] if history.two_pair else []),
        *([] if history.four_straight_flush else ["_four_straight_flush = false"]),
    ]


def dumps(history: HandHistory) -> str:
    """The history as PHH-based TOML text (see ``docs/hand-history.md``)."""
    lines = [
        "# Italian Poker hand history: PHH with Italian extensions (docs/hand-history.md)",
        f"variant = {toml_string(VARIANT)}",
        f"_format = {FORMAT_VERSION}",
    ]
    lines += [*table_lines(history), "actions = [", *_action_lines(history), "]"]
    lines += result_and_rules_lines(history)
    if history.fair is not None:
        lines += fair_lines(history.fair)
    return "\n".join(lines) + "\n"


def result_and_rules_lines(history: HandHistory) -> list[str]:
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
            f"eligible = {toml_value([seat_text(s) for s in award.eligible])}",
            f"winners = {toml_value([seat_text(s) for s in award.winners])}",
            f"shares = {toml_value(award.shares)}",
            f"reason = {toml_string(award.reason)}",
        ]
    return lines


# --- reading -----------------------------------------------------------------------------


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
            and digits(value[1:])
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
    if version not in (1, FORMAT_VERSION):
        raise HistoryError(f"format version {version} is not supported (1 to {FORMAT_VERSION})")
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
    stacked: tuple[Card, ...] | None = None
    if version == 1:
        # Version 1 recorded the deck order and each reshuffle's order: served in turn, as a
        # stacked source serves them, they deal the cards the deal took then.
        stacked = f.cards("_deck", data.get("_deck"))
        reshuffle_data = data.get("_reshuffles", [])
        if not isinstance(reshuffle_data, list):
            raise HistoryError("field _reshuffles must be an array of arrays of cards")
        for k, order in enumerate(reshuffle_data):
            stacked += f.cards(f"_reshuffles[{k}]", order)
    history = HandHistory(
        rules=rules,
        names=names,
        stacks=stacks,
        dealer=dealer,
        carried=f.whole("_carried", 0),
        min_pair=min_pair,
        blinds_allowed=f.flag("_blinds_allowed"),
        makeups=f.wholes("_makeups", n),
        actions=(),
        number=f.whole("hand", None) if "hand" in data else None,
        two_pair=f.flag("_two_pair") if "_two_pair" in data else False,
        four_straight_flush=(
            f.flag("_four_straight_flush") if "_four_straight_flush" in data else True
        ),
    )
    antes = f.wholes("antes", n)
    if list(antes) != antes_of(history):
        raise HistoryError(
            f"antes {list(antes)} do not match the rules' ante and dealer ante "
            f"({antes_of(history)})"
        )
    actions, dealt = _read_actions(f.texts("actions"), history, stacked)
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
        actions=actions,
        result=result,
        dealt=dealt,
        number=history.number,
        two_pair=history.two_pair,
        four_straight_flush=history.four_straight_flush,
        fair=read_fair(data),
    )


def _read_actions(
    lines: list[str], history: HandHistory, stacked: tuple[Card, ...] | None
) -> tuple[tuple[HistoryAction, ...], tuple[Dealt, ...]]:
    """The player actions and the dealer's lines. The actions are read against the deal as
    they come (a call's amount, a show's cards), the deal given the dealer's lines as they are
    read; a version 1 history (``stacked``: its deck and reshuffles) is dealt from them, and
    its dealer's lines are the cards the deal took (checked against those it wrote)."""
    n = len(history.names)
    recorded = RecordedSource()
    deal: Deal | None
    try:
        deal = Deal(history.start(), CHANCE if stacked is None else StackedSource(stacked))
    except ItalianPokerError:
        deal = None
    actions: list[HistoryAction] = []
    dealt: list[Dealt] = []
    for line in lines:
        parsed = parse_line(line, n, len(actions), len(dealt))
        if parsed is None:
            continue
        if isinstance(parsed, Dealt):
            dealt.append(Dealt(len(actions), parsed.seat, parsed.cards, parsed.late))
            continue
        if deal is not None and stacked is None:
            deal = _dealt_so_far(deal, recorded, dealt)
        entry = resolve(parsed, deal)
        actions.append(entry)
        if deal is not None:
            try:
                deal.apply(entry.action, seat=entry.seat)
            except ItalianPokerError:
                deal = None  # replay() will name this action
    if stacked is not None:
        dealt = _stacked_lines(history, stacked, actions, dealt)
    return tuple(actions), tuple(dealt)


def _dealt_so_far(deal: Deal, recorded: RecordedSource, dealt: list[Dealt]) -> Deal | None:
    """``deal`` given the cards of the dealer's lines read so far that it has not had; None
    if they do not deal (replay() will say why)."""
    if len(dealt) < deal.n:
        return deal  # not yet the five cards of every seat (3.1)
    operations = card_operations(dealt, deal.n)
    taken = sum(isinstance(op, HandsDealt | CardsDrawn | FourthCardDealt) for op in deal.operations)
    recorded.extend(operations[taken + len(recorded.pending) :])
    try:
        while (due := deal.cards_due()) is not None and recorded.pending:
            cards = recorded.take(due)
            assert cards is not None
            deal.deal_cards(cards)
    except ItalianPokerError:
        return None
    return deal


def _stacked_lines(
    history: HandHistory,
    stacked: tuple[Card, ...],
    actions: list[HistoryAction],
    written: list[Dealt],
) -> list[Dealt]:
    """Version 1: the dealer's lines of the cards the recorded deck and reshuffles dealt
    (:func:`from_operations`), or, if they do not replay, the lines as written."""
    try:
        deal = Deal(history.start(), StackedSource(stacked))
        for entry in actions:
            deal.apply(entry.action, seat=entry.seat)
    except ItalianPokerError:
        return written
    lines = list(from_operations(deal.start, deal.operations, None, None).dealt)
    if not any(d.after == 0 for d in written):
        # Written before the deal at the start had its dealer lines (no blinds offered, 3.1).
        expected = [d for d in lines if d.after > 0]
    else:
        expected = lines
    if [(d.after, d.seat, d.cards) for d in written] != [
        (d.after, d.seat, d.cards) for d in expected
    ]:
        return written  # replay() names the line that differs
    return lines


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
