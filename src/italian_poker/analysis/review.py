"""The review of a player's decisions in saved hand histories: what the advice was, and the
expected chips each decision lost against it (estimates, defined here).

Each deal the player was dealt in is replayed action by action through the engine; at each of
the player's decisions the player's own :class:`~italian_poker.engine.observer.SeatView` (what the
observer let them know then, nothing more) is judged:

- **The draw** (Art. 4): the advisor's choices (:func:`~italian_poker.analysis.advisor.
  advise_view`, ranked by ``ev``, the estimated share of the pot at the showdown against the
  rivals still in) give the best keep and the kept cards' own ``ev``. The loss is
  ``(best ev - chosen ev) * pot``, where *pot* is every chip in the middle when the player
  drew (the second round's bets and any fold after the draw are left out).
- **A bet faced** (first or second round, something to call ``C`` into a pot ``P``): with
  ``e`` the strong bot's equity (:func:`~italian_poker.analysis.bots.strong.equity`: the chance
  of ending ahead of every live rival, read from their actions and draws), the advice is to
  stay (call or raise) when ``e >= C / (P + C)`` (the pot odds), else to fold. A fold that
  should have stayed loses ``e * (P + C) - C``; a call or raise that should have folded loses
  ``C - e * (P + C)``. ``C`` is capped at the player's stack.
- **No bet to face** (open or pass, 3.3; bet, check or parol, 5.2; the last blind bettor's
  raise or check, 2.5) with ``K`` live rivals: the advice is to put chips in when
  ``e >= 1 / (K + 1)`` (more than a fair share), else not to. The loss is
  ``b * |e * (K + 1) - 1|``, what a bet of ``b`` chips gains or loses if every live rival
  called it; ``b`` is the chips the bet put in, or the smallest legal bet for a bet not made.

A decision *matches* the advice when its loss is 0 (for a draw: the chosen keep's ``ev`` is
the best's). The size of a bet or raise is not judged, nor are the blinds (Art. 2, before the
cards are seen), the showdown and the 5.5 make-up. Every figure is an estimate: the advisor's
``ev`` and the strong bot's equity model the rivals, and the bets assume nobody reacts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from italian_poker.analysis.advisor import advise_view
from italian_poker.analysis.bots.strong import equity
from italian_poker.analysis.i18n import tr
from italian_poker.engine.actions import Action, ActionKind
from italian_poker.engine.cards import Card, format_cards
from italian_poker.engine.deal import Deal, Phase
from italian_poker.engine.history import HandHistory
from italian_poker.engine.observer import SeatView, seat_view
from italian_poker.table.catalogue import decimal, percent
from italian_poker.table.vocabulary import Language, action_label

_BETS = frozenset({ActionKind.OPEN, ActionKind.BET, ActionKind.RAISE})
"""The kinds that put chips in without a bet to face."""
_STAY = frozenset({ActionKind.CALL, ActionKind.RAISE})
_ROUNDS = frozenset({Phase.OPENING, Phase.FIRST_ROUND, Phase.SECOND_ROUND})


class Reference(StrEnum):
    """Which estimate judged a decision (the module docstring)."""

    DRAW = "draw"
    """The advisor's best keep."""
    POT_ODDS = "pot-odds"
    """A bet faced: stay when the equity reaches the pot odds."""
    FAIR_SHARE = "fair-share"
    """No bet to face: put chips in when the equity is above a fair share."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the player and its review.

    ``action`` is the action's number in the history (from 1, as a replay numbers them);
    ``done`` and ``advised`` the kinds played and advised; for a draw ``kept`` and
    ``best_keep`` the cards kept and the advisor's best keep, ``value`` and ``best_value``
    their ``ev``; for a bet ``value`` is the equity and ``best_value`` the threshold it is
    compared with (pot odds or fair share). ``pot`` the chips in the middle then, ``to_call``
    the chips to call; ``loss`` the expected chips lost (an estimate, 0 when matched)."""

    deal: str
    number: int | None
    action: int
    phase: Phase
    reference: Reference
    done: ActionKind
    advised: ActionKind
    kept: tuple[Card, ...]
    best_keep: tuple[Card, ...]
    value: float
    best_value: float
    pot: int
    to_call: int
    loss: float

    @property
    def matched(self) -> bool:
        """Whether the decision is the advice's (no chips lost)."""
        return self.loss == 0

    def to_dict(self) -> dict[str, object]:
        """JSON-ready values (docs/review.md)."""
        item: dict[str, object] = {
            "deal": self.deal,
            "number": self.number,
            "action": self.action,
            "phase": self.phase.value,
            "reference": self.reference.value,
            "done": self.done.value,
            "advised": self.advised.value,
            "value": self.value,
            "best_value": self.best_value,
            "pot": self.pot,
            "to_call": self.to_call,
            "matched": self.matched,
            "loss": self.loss,
        }
        if self.reference is Reference.DRAW:
            item["kept"] = [str(c) for c in self.kept]
            item["best_keep"] = [str(c) for c in self.best_keep]
        return item


@dataclass(frozen=True, slots=True)
class Review:
    """A player's decisions over some deals: ``deals`` the ids of the deals reviewed (the
    player dealt in), ``decisions`` in the order played."""

    player: str
    deals: tuple[str, ...]
    decisions: tuple[Decision, ...]

    @property
    def matched(self) -> int:
        """The decisions that matched the advice."""
        return sum(d.matched for d in self.decisions)

    @property
    def loss(self) -> float:
        """The expected chips lost over every decision (an estimate)."""
        return sum(d.loss for d in self.decisions)

    @property
    def per_deal(self) -> float:
        """The expected chips lost per deal reviewed."""
        return self.loss / len(self.deals) if self.deals else 0.0

    def worst(self, count: int = 5) -> tuple[Decision, ...]:
        """The ``count`` decisions that lost the most, worst first (none that matched)."""
        lost = [d for d in self.decisions if not d.matched]
        return tuple(sorted(lost, key=lambda d: -d.loss)[:count])

    def to_dict(self, worst: int = 5) -> dict[str, object]:
        """JSON-ready values (docs/review.md)."""
        return {
            "player": self.player,
            "deals": len(self.deals),
            "decisions": len(self.decisions),
            "matched": self.matched,
            "loss": self.loss,
            "loss_per_deal": self.per_deal,
            "worst": [d.to_dict() for d in self.worst(worst)],
            "reviewed": [d.to_dict() for d in self.decisions],
        }


def _draw(view: SeatView, action: Action, deal: str, number: int | None, at: int) -> Decision:
    """The draw against the advisor's best keep (the module docstring)."""
    choices = advise_view(view)
    thrown = set(action.cards)
    chosen = next(c for c in choices if set(c.discards) == thrown)
    best = choices[0]
    return Decision(
        deal,
        number,
        at,
        view.phase,
        Reference.DRAW,
        ActionKind.DRAW,
        ActionKind.DRAW,
        chosen.kept,
        best.kept,
        chosen.ev,
        best.ev,
        view.pot,
        0,
        (best.ev - chosen.ev) * view.pot if chosen.ev < best.ev else 0.0,
    )


def _bet(view: SeatView, action: Action, deal: str, number: int | None, at: int) -> Decision | None:
    """A betting decision against pot odds or a fair share (the module docstring); ``None``
    when there was no choice to make."""
    legal = {la.kind: la for la in view.legal_actions}
    seat = view.seat
    rivals = sum(1 for s in range(view.players) if s != seat and not view.folded[s])
    share = equity(view)
    done = action.kind
    if view.to_call > 0:
        if ActionKind.FOLD not in legal or not legal.keys() & _STAY:
            return None
        call = min(view.to_call, view.stacks[seat])
        price = call / (view.pot + call)
        stays = share >= price
        staying = ActionKind.CALL if ActionKind.CALL in legal else ActionKind.RAISE
        advised = staying if stays else ActionKind.FOLD
        gain = share * (view.pot + call) - call
        wrong = (done in _STAY) != stays
        return Decision(
            deal,
            number,
            at,
            view.phase,
            Reference.POT_ODDS,
            done,
            advised,
            (),
            (),
            share,
            price,
            view.pot,
            call,
            abs(gain) if wrong else 0.0,
        )
    # 3.3 open or pass; 5.2 bet, check or parol; 2.5 the last blind bettor's raise or check.
    offer = next(
        (legal[k] for k in (ActionKind.OPEN, ActionKind.BET, ActionKind.RAISE) if k in legal), None
    )
    others = [k for k in (ActionKind.CHECK, ActionKind.PASS, ActionKind.PAROL) if k in legal]
    if offer is None or not others or rivals == 0:
        return None
    fair = 1 / (rivals + 1)
    bets = share >= fair
    advised = offer.kind if bets else others[0]
    put = view.round_bets[seat]
    chips = (action.amount or 0) - put if done in _BETS else (offer.min_amount or 0) - put
    wrong = (done in _BETS) != bets
    loss = chips * abs(share * (rivals + 1) - 1) if wrong else 0.0
    return Decision(
        deal,
        number,
        at,
        view.phase,
        Reference.FAIR_SHARE,
        done,
        advised,
        (),
        (),
        share,
        fair,
        view.pot,
        0,
        loss,
    )


def review_deal(history: HandHistory, seat: int, deal: str) -> tuple[Decision, ...]:
    """The decisions of ``seat`` in a deal (``deal``: its id, e.g. its file), each reviewed.
    The history must replay (:func:`~italian_poker.engine.history.replay`)."""
    game = Deal(history.start(), history.source())
    found = []
    for at, entry in enumerate(history.actions, start=1):
        if entry.seat == seat and game.phase in (*_ROUNDS, Phase.DRAW):
            view = seat_view(game, seat)
            if game.phase is Phase.DRAW and entry.action.kind is ActionKind.DRAW:
                found.append(_draw(view, entry.action, deal, history.number, at))
            elif game.phase is not Phase.DRAW:
                judged = _bet(view, entry.action, deal, history.number, at)
                if judged is not None:
                    found.append(judged)
        game.apply(entry.action, seat=entry.seat)
    return tuple(found)


def review(histories: Iterable[tuple[str, HandHistory]], player: str) -> Review:
    """The review of ``player`` over ``histories`` (each with its deal id): the deals the
    player was dealt in (named in the history), every decision reviewed."""
    deals: list[str] = []
    decisions: list[Decision] = []
    for deal, history in histories:
        if player not in history.names:
            continue
        deals.append(deal)
        decisions.extend(review_deal(history, history.names.index(player), deal))
    return Review(player, tuple(deals), tuple(decisions))


# --- in words ------------------------------------------------------------------------------


def _chips(value: float, lang: Language) -> str:
    return decimal(value, lang, 2)


def decision_line(decision: Decision, lang: Language) -> str:
    """One decision in words: where, what was done, what was advised, the chips lost."""
    where = tr(lang, "review_where", deal=decision.deal, action=decision.action)
    if decision.reference is Reference.DRAW:
        what = tr(
            lang,
            "review_draw",
            kept=format_cards(decision.kept) or "-",
            ev=percent(decision.value, lang),
            best=format_cards(decision.best_keep),
            best_ev=percent(decision.best_value, lang),
            pot=decision.pot,
        )
    else:
        what = tr(
            lang,
            "review_bet_odds" if decision.reference is Reference.POT_ODDS else "review_bet_share",
            done=action_label(decision.done, lang),
            advised=action_label(decision.advised, lang),
            equity=percent(decision.value, lang),
            threshold=percent(decision.best_value, lang),
            pot=decision.pot,
            call=decision.to_call,
        )
    return tr(lang, "review_line", where=where, what=what, loss=_chips(decision.loss, lang))


def review_lines(result: Review, lang: Language, worst: int = 5) -> list[str]:
    """The review in words: the totals, then the worst decisions."""
    lines = [
        tr(
            lang,
            "review_summary",
            player=result.player,
            deals=len(result.deals),
            count=len(result.decisions),
            matched=result.matched,
        ),
        tr(
            lang,
            "review_loss",
            loss=_chips(result.loss, lang),
            per_deal=_chips(result.per_deal, lang),
        ),
    ]
    worst_decisions = result.worst(worst)
    if worst_decisions:
        lines.append(tr(lang, "review_worst"))
        lines += [decision_line(d, lang) for d in worst_decisions]
    lines.append(tr(lang, "review_estimate"))
    return lines


__all__ = [
    "Decision",
    "Reference",
    "Review",
    "decision_line",
    "review",
    "review_deal",
    "review_lines",
]
