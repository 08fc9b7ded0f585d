"""The ledger's models: its rows, its summary per person with who pays whom to settle up, and
whether the players may read it."""

from __future__ import annotations

from pydantic import Field

from italian_poker.server.ledger import PersonLine, Summary
from italian_poker.server.schemas.base import Model
from italian_poker.table.settle_up import Transfer as Payment


class LedgerVisibility(Model):
    """``POST /api/tables/{invite}/ledger-visibility``."""

    players: bool = Field(strict=True)
    """Whether the players may read the ledger (``true`` or ``false``)."""


class LedgerEntry(Model):
    """One movement of play chips."""

    nickname: str
    player: int | None
    """Who, whatever their nickname (the seq of the event that seated them); None in rows
    written before migration 0003."""
    kind: str
    """``buy_in``, ``adjust``, ``result`` (a deal's net), ``cash_out`` or ``re_entry``."""
    amount: int
    hand: int | None
    created: str
    """When, in ISO 8601."""


class LedgerPerson(Model):
    """One person's line of the summary."""

    player: int | None
    """As in the rows; None for the rows of a nickname written without one."""
    nickname: str
    """The latest nickname."""
    bought_in: int
    """Buy-ins and re-entries, and the chips the host added."""
    cashed_out: int
    """Cash-outs, and the chips the host took off."""
    stack: int
    """The chips in front of them now; 0 once they left."""
    net: int
    """``stack + cashed_out - bought_in``."""
    seated: bool


class LedgerTotals(Model):
    """Every line summed, the pot's included: ``net`` is 0."""

    bought_in: int
    cashed_out: int
    stack: int
    """The players' chips and the pot's."""
    net: int


class Transfer(Model):
    """One payment that settles up: ``payer`` pays ``payee`` ``amount`` chips."""

    payer: str
    """The payer's latest nickname (a person whose net is down)."""
    payer_player: int | None
    """The payer as in the rows' ``player``."""
    payee: str
    """The payee's latest nickname (a person whose net is up)."""
    payee_player: int | None
    """The payee as in the rows' ``player``."""
    amount: int
    """More than zero."""

    @classmethod
    def of(cls, payment: Payment[PersonLine]) -> Transfer:
        """The response's form of ``payment``."""
        return cls(
            payer=payment.payer.nickname,
            payer_player=payment.payer.player,
            payee=payment.payee.nickname,
            payee_player=payment.payee.player,
            amount=payment.amount,
        )


class LedgerSummary(Model):
    """The ledger per person (in the order they first came), the pot, the totals and who
    pays whom to settle up."""

    people: list[LedgerPerson]
    in_pot: int
    """The chips in no one's stack: the pot of the deal under way, or the pot carried to the
    next deal (everyone passed, 3.5; everyone said parol, 5.4(a))."""
    totals: LedgerTotals
    settle_up: list[Transfer] | None
    """The fewest transfers that bring every net to zero, on what each would cash out now
    (payers in the order they first came; empty when nobody is up or down); null while the pot
    holds chips: settle once it is won."""

    @classmethod
    def of(cls, summary: Summary) -> LedgerSummary:
        """The response's form of ``summary``."""
        totals = summary.totals
        return cls(
            people=[
                LedgerPerson(
                    player=p.player,
                    nickname=p.nickname,
                    bought_in=p.bought_in,
                    cashed_out=p.cashed_out,
                    stack=p.stack,
                    net=p.net,
                    seated=p.seated,
                )
                for p in summary.people
            ],
            in_pot=summary.in_pot,
            totals=LedgerTotals(
                bought_in=totals.bought_in,
                cashed_out=totals.cashed_out,
                stack=totals.stack,
                net=totals.net,
            ),
            settle_up=None
            if (payments := summary.settle_up) is None
            else [Transfer.of(payment) for payment in payments],
        )


class Ledger(Model):
    """``GET /api/tables/{invite}/ledger``: the rows, oldest first, and their summary."""

    ledger: list[LedgerEntry]
    summary: LedgerSummary
