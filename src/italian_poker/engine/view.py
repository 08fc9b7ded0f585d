"""What one seat may know about a deal: kept for older imports.

The views and the rules of who sees what live in :mod:`italian_poker.engine.observer`
(:func:`~italian_poker.engine.observer.observe`); this module re-exports its seat view.
"""

from __future__ import annotations

from italian_poker.engine.observer import PublicAction, SeatView, seat_view

__all__ = ["PublicAction", "SeatView", "seat_view"]
