"""What a front end needs of draw advice: one ranked choice (:class:`AdviceItem`) and the
advisor that gives them for a seat (:data:`Advisor`).

The advisor itself (:func:`italian_poker.analysis.advisor.advise_view`) is a front end; the
terminal game may not import it, so the command line passes it in, typed as here. Its
:class:`~italian_poker.analysis.advisor.Advice` results satisfy :class:`AdviceItem` as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from italian_poker.engine.cards import Card
from italian_poker.engine.observer import SeatView


class AdviceItem(Protocol):
    """One legal keep/discard choice at the draw and what it is worth."""

    @property
    def kept(self) -> tuple[Card, ...]:
        """The cards kept."""
        ...

    @property
    def discards(self) -> tuple[Card, ...]:
        """The cards changed."""
        ...

    @property
    def ev(self) -> float:
        """The expected share of the pot at the showdown (0 to 1): the chance of winning."""
        ...

    @property
    def improve(self) -> float:
        """The exact chance of ending in a higher category than the hand's own (0 to 1)."""
        ...

    @property
    def split(self) -> bool:
        """4.4: the opener breaks the opening with this choice."""
        ...


Advisor = Callable[[SeatView], Sequence[AdviceItem]]
"""The advice for a seat's own hand before its draw, best first, from its view alone; raises
:class:`ValueError` (with a message a person can read) when there is none to give."""

ADVICE_SHOWN = 3
"""How many of the best choices a front end shows."""

__all__ = ["ADVICE_SHOWN", "AdviceItem", "Advisor"]
