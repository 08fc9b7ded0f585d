"""The kinds of event in a table's log: each changes the table one way
(:meth:`TableState.apply <italian_poker.server.table_state.TableState.apply>`), with the
payload its docstring gives."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["EventKind"]


class EventKind(StrEnum):
    """The kinds of events in a table's log."""

    SEAT = "seat"
    """A player or a bot takes a seat: ``{seat, nickname, bot}``."""
    UNSEAT = "unseat"
    """A seat is emptied (kick, bot removed): ``{seat}``; for a player dealt in, at the end
    of the deal."""
    START = "start"
    PAUSE = "pause"
    RESUME = "resume"
    STACK = "stack"
    """The host sets a seat's chips, between deals: ``{seat, amount}`` (a busted player is
    back with them)."""
    SIT_OUT = "sit_out"
    SIT_IN = "sit_in"
    LEDGER_VISIBILITY = "ledger_visibility"
    """The host lets the players see the ledger, or no longer: ``{players}`` (a bool)."""
    ADVICE = "advice"
    """The host turns the draw hint on or off for the table: ``{on}`` (a bool); it holds
    from the next state the players are sent, the draw under way included."""
    WATCH = "watch"
    """The host opens the table to spectators, gives them a new link, closes it, or sets the
    delay of one deal: ``{hash, delay}``, ``hash`` the sha256 of the watch link's secret
    (null: no link), ``delay`` a bool (spectators see each deal once it has ended)."""
    DEAL = "deal"
    """The next deal begins: the cards it dealt (``taken``); ``fair``, the players' values
    for the sealed deck (:mod:`~italian_poker.server.fair_deal`); ``seed`` only on tables
    set up with ``settings.seed`` (tests, replays); ``now``, the server's clock, on a table
    whose match is timed in minutes (the level rises, or the match ends, by it: no deal
    begins then)."""
    COMMIT = "commit"
    """The deck of the next deal is sealed: ``{deal, commitment, seed}``
    (:mod:`~italian_poker.server.fair_deal`; the seed is never sent before its reveal)."""
    FAIR_REVEAL = "fair_reveal"
    """The host's reveal switch: ``{when}``, ``"deal"`` (each deal's seed at its end) or
    ``"close"`` (when the host closes the table's books)."""
    REVEAL = "reveal"
    """The host closes the table's books: the seeds of every finished deal are revealed."""
    LOCK = "lock"
    """The host or the co-host locks the table or opens it (server/home_desk.py)."""
    CO_HOST = "co_host"
    """The host names the co-host, or nobody."""
    CHIP_CAPS = "chip_caps"
    """The host or the co-host sets the caps on chip requests."""
    CHIP_ASK = "chip_ask"
    """A seated player asks for chips: a rebuy or a top-up."""
    CHIP_ANSWER = "chip_answer"
    """The host or the co-host approves or refuses a chip request."""
    SEAT_ASK = "seat_ask"
    """A newcomer at a locked table asks for a seat."""
    SEAT_ANSWER = "seat_answer"
    """The host or the co-host admits a newcomer into a seat, or refuses them."""
    ACTION = "action"
    """A command of the seat to act (:mod:`italian_poker.server.event_payloads`): their own
    action, a bot's choice or a turn the table plays for them; ``taken``, the cards it took;
    ``bank``, the seat's time bank left after it (seats on the turn timer only)."""
