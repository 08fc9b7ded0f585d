"""Every deal of an online table is dealt from a provably fair deck (docs/fairness.md).

The steps, each an event of the table's log but the players' values:

1. ``commit`` ``{deal, commitment, seed}``: before the deal's first card the table seals a
   deck (:class:`~italian_poker.engine.fair_source.SealedDeck`, a seed from the CSPRNG) and
   every seat and spectator is sent the commitment. The seed stays in the server's log (a
   restart deals the same deck); nobody is sent it before its reveal.
2. The seated players' values (``fair_value`` messages: the page sends random bytes, or the
   text its player typed) are kept until the deal starts; a value for a commitment no longer
   taking values is refused (:class:`FairValueRefused`). Bots' values, and the values of the
   seats that sent none in time, come from the server's CSPRNG.
3. ``deal`` carries ``fair`` ``{values, from, slots}``: the values in the table's seat order of
   the seats dealt in, who gave each (:class:`ValueFrom`) and those seats; the deal takes its
   cards from ``sealed.source(values)``.
4. The seed is revealed at each deal's end or when the host closes the table's books (the
   ``fair_reveal`` switch, :class:`~italian_poker.engine.fair_source.Reveal`; a ``reveal``
   event reveals every finished deal's seed).

:func:`takes` is what the browser's verifier (``static/fairness.js``) needs of a finished
deal besides its record: each time the deal took cards, for whom, the cards, the discards
shuffled in first and the cards of the stack the player was not allowed.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from italian_poker.engine.card_source import CHANCE, Why
from italian_poker.engine.deal import Deal
from italian_poker.engine.fair_shuffle import MAX_VALUE_SIZE, VALUE_SIZE, check_values
from italian_poker.engine.fair_source import FairDeck, FairSource, Reveal, SealedDeck
from italian_poker.engine.history import HandHistory, dumps
from italian_poker.engine.match import CompletedDeal
from italian_poker.server.i18n import line
from italian_poker.server.refusal import Refusal
from italian_poker.table.narration import Line

FAIR = "fair"
"""The key of a ``deal`` event's values (and of the state message's fair-deck object)."""


class ValueFrom(StrEnum):
    """Who gave a seat's value."""

    PLAYER = "player"
    """The player's page (random bytes, or the text they typed)."""
    BOT = "bot"
    """The server's CSPRNG, for a bot."""
    SERVER = "server"
    """The server's CSPRNG, for a player who sent none in time."""


class FairValueRefused(Refusal):
    """A value that no deal takes now: the deal it was for has started (or none is sealed)."""

    def __init__(self, message: str) -> None:
        super().__init__("fair_value_refused", message, 409)


@dataclass(frozen=True, slots=True)
class DealtFair:
    """A deal's fair deck as the table dealt it: its record (with the seed), the table's seat
    of each value and who gave it."""

    deck: FairDeck
    slots: tuple[int, ...]
    given_by: tuple[ValueFrom, ...]

    def public(self, revealed: bool) -> dict[str, Any]:
        """What everyone may know: the seed once ``revealed``."""
        deck = self.deck
        return {
            "deal": deck.deal,
            "commitment": deck.commitment.hex(),
            "values": [v.hex() for v in deck.values],
            "from": [g.value for g in self.given_by],
            "slots": list(self.slots),
            "seed": deck.seed.hex() if revealed and deck.seed is not None else None,
        }


def parse_value(text: object) -> bytes:
    """A ``fair_value`` message's value: lowercase hexadecimal of 0 to
    :data:`MAX_VALUE_SIZE` bytes; raises :class:`ValueError` with what is wrong."""
    if not isinstance(text, str) or len(text) > 2 * MAX_VALUE_SIZE:
        raise ValueError(f"a value is hexadecimal of at most {MAX_VALUE_SIZE} bytes")
    try:
        return bytes.fromhex(text)
    except ValueError:
        raise ValueError("a value is hexadecimal (two digits a byte)") from None


class FairDeals:
    """A table's fair decks: the one sealed for the next deal, every deal's record, which
    seeds are revealed and the reveal switch."""

    def __init__(self) -> None:
        self.sealed: SealedDeck | None = None
        """The deck sealed for the next deal, before its values."""
        self.pending: dict[int, bytes] = {}
        """The values the seated players sent for :attr:`sealed` (not in the log: the
        ``deal`` event records the values used)."""
        self.deals: dict[int, DealtFair] = {}
        """Each deal's fair deck, by deal number."""
        self.revealed: set[int] = set()
        """The deals whose seeds are public."""
        self.policy = Reveal.CLOSE
        """When the seeds are revealed."""
        self._takes: dict[int, list[dict[str, Any]]] = {}
        """The cards each finished, revealed deal took (:func:`takes`), once computed."""
        self.on_value: Callable[[], None] | None = None
        """Called after each value a player gives (the scheduler waits for them)."""

    # --- events -------------------------------------------------------------------------------

    def commit(self, payload: dict[str, Any], number: int) -> list[Line]:
        """A ``commit`` event: the deck of deal ``number`` sealed."""
        seed = bytes.fromhex(str(payload["seed"]))
        sealed = SealedDeck.new(number, seed)
        if payload.get("deal") != number:
            raise ValueError(f"the commitment is for deal {payload.get('deal')}, not {number}")
        if payload.get("commitment") != sealed.commitment.hex():
            raise ValueError("the seed does not match the commitment")
        self.sealed, self.pending = sealed, {}
        return [line("fair_sealed", deal=number, commitment=sealed.commitment.hex()[:12])]

    def start(self, payload: dict[str, Any]) -> tuple[FairSource, DealtFair] | None:
        """The source of a ``deal`` event's deal and its record, the sealed deck with its
        values (None for a deal without one: a log written before fair decks, or a seeded
        test table). Changes nothing: :meth:`began` does once the deal is accepted."""
        fair = payload.get(FAIR)
        if fair is None:
            return None
        sealed = self.sealed
        if sealed is None:
            raise ValueError("a fair deal needs its commitment first")
        values = check_values([bytes.fromhex(v) for v in fair["values"]])
        source = sealed.source(values)
        slots = tuple(int(s) for s in fair["slots"])
        given = tuple(ValueFrom(g) for g in fair["from"])
        if not len(slots) == len(given) == len(values):
            raise ValueError("a fair deal's values, slots and givers differ in number")
        return source, DealtFair(source.record(reveal=True), slots, given)

    def began(self, dealt: DealtFair) -> None:
        """The deal of ``dealt`` began: its values are taken."""
        self.deals[dealt.deck.deal] = dealt
        self.sealed, self.pending = None, {}

    def finished(self, number: int) -> None:
        """Deal ``number`` ended: its seed is revealed now when the switch says so."""
        if self.policy is Reveal.DEAL and number in self.deals:
            self.revealed.add(number)

    def switch(self, payload: dict[str, Any]) -> list[Line]:
        """A ``fair_reveal`` event: ``{when}``, ``"deal"`` or ``"close"``."""
        policy = Reveal(str(payload.get("when")))
        if policy is self.policy:
            return []
        self.policy = policy
        return [line("fair_reveal_deal" if policy is Reveal.DEAL else "fair_reveal_close")]

    def reveal(self, finished: int) -> list[Line]:
        """A ``reveal`` event: the seeds of every deal up to ``finished`` (the table closes
        its books)."""
        new = {n for n in self.deals if n <= finished} - self.revealed
        self.revealed |= new
        return [line("fair_revealed", count=len(new))] if new else []

    # --- the players' values --------------------------------------------------------------------

    def give(self, slot: int, commitment: str, value: bytes) -> None:
        """A seated player's value for the deck of ``commitment``; refused once the deal has
        started (or for another deck)."""
        sealed = self.sealed
        if sealed is None or sealed.commitment.hex() != commitment:
            raise FairValueRefused(
                "the deal has started: values are taken only between the commitment and "
                "the first card"
            )
        check_values([value])
        self.pending[slot] = value
        if self.on_value is not None:
            self.on_value()

    def values_payload(self, slots: Sequence[int], bots: set[int]) -> dict[str, Any]:
        """The ``fair`` member of the ``deal`` event for ``slots`` (in the table's seat
        order): each player's value as sent, else a fresh one from the CSPRNG."""
        values: list[str] = []
        given: list[str] = []
        for slot in slots:
            sent = self.pending.get(slot)
            if sent is not None and slot not in bots:
                values.append(sent.hex())
                given.append(ValueFrom.PLAYER.value)
            else:
                values.append(secrets.token_bytes(VALUE_SIZE).hex())
                given.append((ValueFrom.BOT if slot in bots else ValueFrom.SERVER).value)
        return {"values": values, "from": given, "slots": list(slots)}

    # --- reading --------------------------------------------------------------------------------

    def record(self, number: int, *, public: bool = True) -> FairDeck | None:
        """Deal ``number``'s record for a history: with the seed once revealed (or not
        ``public``)."""
        dealt = self.deals.get(number)
        if dealt is None:
            return None
        return dealt.deck if not public or number in self.revealed else dealt.deck.without_seed()

    def message(
        self, hand: int | None, completed: CompletedDeal | None = None
    ) -> dict[str, Any] | None:
        """The state message's ``fair`` object: the deck sealed for the next deal (taking
        values), else that of deal ``hand`` (the current or last one), with the seed once
        revealed and, once ``completed``, the cards it took (:func:`takes`: the browser
        checks them); ``policy`` is the reveal switch."""
        sealed = self.sealed
        if sealed is not None:
            return {
                "deal": sealed.deal,
                "commitment": sealed.commitment.hex(),
                "open": True,
                "policy": self.policy.value,
            }
        dealt = None if hand is None else self.deals.get(hand)
        if dealt is None:
            return None
        message = dealt.public(hand in self.revealed)
        message |= {"open": False, "policy": self.policy.value}
        if message["seed"] is not None and completed is not None and hand is not None:
            if hand not in self._takes:
                self._takes[hand] = takes(HandHistory.from_completed(completed))
            message["takes"] = self._takes[hand]
        return message


def revealed_text(history: HandHistory) -> str:
    """A history whose seed is revealed, as a download: the whole history (the seed gives
    every card) and, in its ``[_fair]`` table, ``takes``, the cards the deal took as JSON in
    a literal string (what the browser's verifier reads; ``italian-poker verify`` deals the
    deal again itself)."""
    steps = json.dumps(takes(history), separators=(",", ":"))
    return dumps(history) + f"takes = '{steps}'\n"


def takes(history: HandHistory) -> list[dict[str, Any]]:
    """Each time ``history``'s deal took cards, in order: ``why`` (``deal``, ``draw``,
    ``fourth``), ``seats`` (from the dealer's left for the deal; else the seat served),
    ``cards`` (as recorded; the deal's in the order dealt, one at a time), ``shuffled_in`` (the
    discards shuffled into the stack just before, 4.3) and ``barred`` (the cards of the
    stack the seat may not take: its own reshuffled discards while others are left)."""
    source = history.source()
    deal = Deal(history.start(), CHANCE)
    actions = list(history.actions)
    out: list[dict[str, Any]] = []
    while True:
        due = deal.cards_due()
        if due is not None:
            got = source.take(due)
            assert got is not None
            entry: dict[str, Any] = {
                "why": due.why.value,
                "seats": list(due.seats),
                "cards": [str(c) for c in got],
                "shuffled_in": [str(c) for c in due.shuffled_in],
            }
            if due.why is not Why.DEAL:
                allowed = set(due.candidates)
                entry["barred"] = [str(c) for c in deal.stock if c not in allowed]
            out.append(entry)
            deal.deal_cards(got)
            continue
        if not actions:
            return out
        step = actions.pop(0)
        deal.apply(step.action, seat=step.seat)
