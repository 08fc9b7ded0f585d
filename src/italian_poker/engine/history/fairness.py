"""Fair decks in hand histories (docs/fairness.md): the ``[_fair]`` table, reveal records and
the check that a history's cards are its fair deck's.

- :func:`fair_lines` and :func:`read_fair`: the ``[_fair]`` table of a history (the scheme,
  the deal number, the commitment, the players' values and, once revealed, the seed; bytes
  as lowercase hexadecimal);
- :func:`dumps_reveals` and :func:`loads_reveals`: a reveal file, the seeds of deals whose
  histories were written before the reveal, each with its commitment;
- :func:`verify_fair`: a history's deal dealt again from its fair deck, card by card, and
  compared with the dealer's lines: a :class:`FairVerdict`.

Nothing does I/O.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from italian_poker.engine.card_source import CHANCE, CardsDue, Why
from italian_poker.engine.cards import Card
from italian_poker.engine.deal import Deal
from italian_poker.engine.errors import ItalianPokerError
from italian_poker.engine.fair_shuffle import SCHEME, SEED_SIZE, commitment
from italian_poker.engine.fair_source import FairDeck, FairSource
from italian_poker.engine.history.model import HistoryError

if TYPE_CHECKING:
    from italian_poker.engine.history.model import HandHistory

__all__ = [
    "REVEAL_VARIANT",
    "FairVerdict",
    "Verdict",
    "dumps_reveals",
    "fair_lines",
    "loads_reveals",
    "read_fair",
    "verify_fair",
]

REVEAL_VARIANT = "ITA-reveal"
"""The ``variant`` of a reveal file."""


def fair_lines(deck: FairDeck) -> list[str]:
    """The ``[_fair]`` table of a history (after a blank line)."""
    lines = [
        "",
        "[_fair]",
        f'scheme = "{deck.scheme}"',
        f"deal = {deck.deal}",
        f'commitment = "{deck.commitment.hex()}"',
        "values = [" + ", ".join(f'"{v.hex()}"' for v in deck.values) + "]",
    ]
    if deck.seed is not None:
        lines.append(f'seed = "{deck.seed.hex()}"')
    return lines


def _hex(table: Mapping[str, Any], key: str, where: str, size: int | None = None) -> bytes:
    value = table.get(key)
    try:
        if not isinstance(value, str) or value != value.lower():
            raise ValueError
        data = bytes.fromhex(value)
    except ValueError:
        raise HistoryError(f"field {where}{key} must be lowercase hexadecimal") from None
    if size is not None and len(data) != size:
        raise HistoryError(f"field {where}{key} must be {size} bytes ({2 * size} hex digits)")
    return data


def read_fair(data: Mapping[str, Any]) -> FairDeck | None:
    """The ``[_fair]`` table of a parsed history, or ``None`` without one. Raises
    :class:`HistoryError` on a malformed table or an unknown scheme."""
    table = data.get("_fair")
    if table is None:
        return None
    if not isinstance(table, dict):
        raise HistoryError("_fair must be a table [_fair]")
    scheme = table.get("scheme")
    if scheme != SCHEME:
        raise HistoryError(f"[_fair]: scheme {scheme!r} is not {SCHEME!r}")
    deal = table.get("deal")
    if isinstance(deal, bool) or not isinstance(deal, int) or not 0 <= deal < 1 << 64:
        raise HistoryError("field _fair.deal must be a whole number")
    values = table.get("values")
    if not isinstance(values, list):
        raise HistoryError("field _fair.values must be an array of hexadecimal strings")
    read = tuple(_hex({"values": v}, "values", "_fair.") for v in values)
    seed = _hex(table, "seed", "_fair.", SEED_SIZE) if "seed" in table else None
    return FairDeck(deal, _hex(table, "commitment", "_fair.", 32), read, seed)


def dumps_reveals(decks: Iterable[FairDeck]) -> str:
    """A reveal file: the seed of each revealed deck, with its deal and commitment."""
    lines = [
        "# Italian Poker fair-deck reveal (docs/fairness.md)",
        f'variant = "{REVEAL_VARIANT}"',
        f'scheme = "{SCHEME}"',
    ]
    for deck in decks:
        if deck.seed is None:
            continue
        lines += [
            "",
            "[[reveal]]",
            f"deal = {deck.deal}",
            f'commitment = "{deck.commitment.hex()}"',
            f'seed = "{deck.seed.hex()}"',
        ]
    return "\n".join(lines) + "\n"


def loads_reveals(text: str) -> dict[bytes, bytes]:
    """The seeds of a reveal file by commitment. Raises :class:`HistoryError` on a malformed
    file or a seed that does not hash to its commitment."""
    try:
        data = tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as error:
        raise HistoryError(f"not valid TOML: {error}") from None
    if data.get("variant") != REVEAL_VARIANT or data.get("scheme") != SCHEME:
        raise HistoryError(f"not a reveal file (variant {REVEAL_VARIANT!r}, scheme {SCHEME!r})")
    entries = data.get("reveal", [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise HistoryError("reveal must be an array of tables [[reveal]]")
    seeds: dict[bytes, bytes] = {}
    for k, entry in enumerate(entries):
        where = f"reveal[{k}]."
        committed = _hex(entry, "commitment", where, 32)
        seed = _hex(entry, "seed", where, SEED_SIZE)
        if commitment(seed) != committed:
            raise HistoryError(f"{where}seed does not match its commitment")
        seeds[committed] = seed
    return seeds


class Verdict(StrEnum):
    """What :func:`verify_fair` found."""

    VERIFIED = "verified"
    """The seed matches the commitment and the deck gives every card recorded."""
    UNREVEALED = "unrevealed"
    """A commitment without its seed: nothing can be checked yet."""
    FAILED = "failed"
    """The seed, the deal number, the values or a card do not match."""
    UNFAIR = "no fair deck"
    """The history records no commitment (its cards came from another source)."""


@dataclass(frozen=True, slots=True)
class FairVerdict:
    """The verdict on one history and, when it failed, why (``reason``, without the deal);
    ``card`` is the 1-based number of the first card that differs, in the order the deal
    took them, when a card does."""

    verdict: Verdict
    reason: str = ""
    card: int | None = None


def _whom(due: CardsDue, k: int, names: tuple[str, ...]) -> str:
    """Who card ``k`` (0-based) of ``due`` went to, in words."""
    if due.why is Why.DEAL:
        seat = due.seats[k % len(due.seats)]
        return f"the deal to seat {seat + 1}, {names[seat]}"
    seat = due.seats[0]
    what = "the draw" if due.why is Why.DRAW else "the late fourth card"
    return f"{what} of seat {seat + 1}, {names[seat]}"


def verify_fair(history: HandHistory, seeds: Mapping[bytes, bytes] | None = None) -> FairVerdict:
    """Whether ``history``'s cards are those of its fair deck: the seed (its own, or the one
    ``seeds`` reveals for its commitment) hashes to the commitment, the deal number is the
    history's, and the deal dealt again from the deck takes every
    card of the dealer's lines, in order: the deal (3.1), the draws (4.1), the late fourth
    cards (4.2), after the reshuffles (4.3) too."""
    fair = history.fair
    if fair is None:
        return FairVerdict(Verdict.UNFAIR, "the history records no commitment")
    seed = fair.seed
    if seed is None and seeds is not None:
        seed = seeds.get(fair.commitment)
    if seed is None:
        return FairVerdict(Verdict.UNREVEALED, "the seed is not revealed")
    if commitment(seed) != fair.commitment:
        return FairVerdict(Verdict.FAILED, "the seed does not match the commitment")
    if history.number is not None and history.number != fair.deal:
        return FairVerdict(
            Verdict.FAILED, f"the commitment is for deal {fair.deal}, not deal {history.number}"
        )
    return _deal_again(history, FairSource(seed, fair.deal, fair.values))


def _taken_order(history: HandHistory, seats: tuple[int, ...]) -> list[Card]:
    """The recorded cards in the order the deal takes them: the five of each seat one at a
    time to ``seats`` (from the dealer's left, 3.1), then every later dealer's line in turn."""
    n = len(history.names)
    hands: dict[int, tuple[Card, ...]] = {line.seat: line.cards for line in history.dealt[:n]}
    size = max((len(cards) for cards in hands.values()), default=0)
    order = [hands[s][k] for k in range(size) for s in seats if s in hands and k < len(hands[s])]
    return order + [card for line in history.dealt[n:] for card in line.cards]


def _deal_again(history: HandHistory, source: FairSource) -> FairVerdict:
    """Deal ``history`` again, its actions as recorded, comparing each card the deck gives
    with the recorded one before it is dealt."""
    recorded = history.source()
    flat: list[Card] = []
    taken = 0
    try:
        deal = Deal(history.start(), CHANCE)
        actions = list(history.actions)
        while True:
            due = deal.cards_due()
            if due is not None:
                if due.why is Why.DEAL:
                    flat = _taken_order(history, due.seats)
                expected = source.take(due)
                for k, theirs in enumerate(expected):
                    number = taken + k + 1
                    whom = _whom(due, k, history.names)
                    if number > len(flat):
                        return FairVerdict(
                            Verdict.FAILED,
                            f"card {number} ({whom}) is missing, the deck gives {theirs.symbol}",
                            number,
                        )
                    mine = flat[number - 1]
                    if mine != theirs:
                        return FairVerdict(
                            Verdict.FAILED,
                            f"card {number} ({whom}) is {mine.symbol}, the deck gives "
                            f"{theirs.symbol}",
                            number,
                        )
                got = recorded.take(due)
                assert got is not None
                deal.deal_cards(got)
                taken += len(got)
                continue
            if not actions:
                break
            entry = actions.pop(0)
            deal.apply(entry.action, seat=entry.seat)
    except ItalianPokerError as error:
        return FairVerdict(Verdict.FAILED, f"after card {taken} the deal does not replay: {error}")
    if len(flat) > taken:
        return FairVerdict(
            Verdict.FAILED,
            f"card {taken + 1} ({flat[taken].symbol}) is recorded but the deal took {taken}",
            taken + 1,
        )
    return FairVerdict(Verdict.VERIFIED)
