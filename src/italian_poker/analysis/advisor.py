"""The advisor (*consigliere*): every legal draw of a hand, with its odds, ranked by its value.

For a five-card hand before the draw, each legal way to keep cards (one to five kept: a draw
changes 0 to 4 cards, 000 Art. 4, so 31 choices) gets:

- the exact chance of each final :class:`~italian_poker.engine.hand_rank.Category`, over every
  set of replacement cards from the cards this player has not seen, all equally likely
  (:func:`~italian_poker.analysis.draw_odds.draw_outcomes`: full enumeration, no sampling);
- ``improve``: the exact chance that the final category is above the hand's own (standing pat
  never improves);
- ``ev``, the **expected share of the pot at the showdown against K opponents**: the expected
  value, over this choice's exact final hands, of the chance that the final hand beats each of
  K opponents, ties counted half, taken as independent (``E[beats(final) ** K]``). Each
  opponent's final hand is modelled as the strong bot models a rival it knows nothing about
  (:func:`~italian_poker.analysis.bots.reading.rival_model` with an empty reading): five cards
  dealt at random from the same stripped deck, then drawn the plain way (a made straight, flush
  or better kept whole, else the pairs, trips or quads, else four to a flush, else the highest
  card), estimated once per deck and tie-break rule from a fixed-seed sample of 40,000 deals,
  so the same on every run. Left out: betting and folds, the cards this hand removes from the
  opponents' deck, the straight-flush cycle of 7.2 (hands are compared by ``HandRank.value``),
  and any dependence between the opponents. ``ev`` is therefore an estimate on an exact
  distribution; the category chances and ``improve`` are exact.
- ``split``: for an opener (``opening`` given), whether the choice breaks the opening
  combination (4.4: it must then be announced, and the discards are kept apart for the proof),
  by the engine's own rule
  (:meth:`~italian_poker.engine.actions.LegalAction.breaks_opening` over
  :func:`~italian_poker.engine.opening.opening_groups`). Where the rules forbid a split the
  choices that would need one are left out.

:func:`advise` returns the choices best first: highest ``ev``, then fewer cards changed;
:func:`advise_view` gives them for a seat's own hand from its
:class:`~italian_poker.engine.observer.SeatView` (what a front end's advice key or hint needs).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from italian_poker.analysis.bots.reading import Reading, rival_model
from italian_poker.analysis.draw_odds import (
    draw_distributions,
    draw_outcomes,
)
from italian_poker.engine.actions import ActionKind, LegalAction
from italian_poker.engine.cards import Card
from italian_poker.engine.deck import check_players
from italian_poker.engine.draw import MAX_DRAW
from italian_poker.engine.hand_rank import Cards, Category, Tiebreak, evaluate, read_hand
from italian_poker.engine.observer import SeatView
from italian_poker.engine.opening import OpeningRequirement, opening_groups


class AdviceError(ValueError):
    """Advice asked for what cannot be: a bad number of opponents, or an opener whose hand
    does not meet the opening requirement."""


@dataclass(frozen=True, slots=True)
class Advice:
    """One legal keep/discard choice of a hand and what it is worth (module docstring).

    ``category_counts[c]`` of the ``combinations`` equally likely sets of replacement cards
    end in category ``c``; ``improve_count`` of them end above the hand's own category."""

    kept: tuple[Card, ...]
    discards: tuple[Card, ...]
    combinations: int
    category_counts: tuple[int, ...]
    improve_count: int
    ev: float
    """The expected share of the pot at the showdown against the opponents modelled."""
    split: bool
    """4.4: the opener breaks the opening with this choice (always false for others)."""

    def probability(self, category: Category) -> float:
        """The exact chance of ending in ``category``."""
        return self.category_counts[category] / self.combinations

    @property
    def probabilities(self) -> dict[Category, float]:
        """The exact chance of each category, lowest category first."""
        return {c: self.category_counts[c] / self.combinations for c in Category}

    @property
    def improve(self) -> float:
        """The exact chance of ending in a higher category than the hand's own."""
        return self.improve_count / self.combinations


def check_opponents(opponents: int | None, players: int) -> int:
    """The number of opponents to model: ``opponents`` (1 to ``players - 1``), by default
    everyone else at the table; :class:`AdviceError` otherwise."""
    check_players(players)
    if opponents is None:
        return players - 1
    if isinstance(opponents, bool) or not isinstance(opponents, int):
        raise AdviceError(f"opponents must be a whole number, got {opponents!r}")
    if not 1 <= opponents <= players - 1:
        raise AdviceError(
            f"opponents must be 1 to {players - 1} at a table of {players}, got {opponents}"
        )
    return opponents


def advise(
    hand: Cards,
    *,
    players: int,
    opponents: int | None = None,
    known: Iterable[Card] = (),
    tiebreak: Tiebreak | str = Tiebreak.STANDARD,
    opening: OpeningRequirement | None = None,
    may_split: bool = True,
) -> tuple[Advice, ...]:
    """Every legal keep/discard choice of ``hand`` with its odds and value, best first.

    ``hand``: five cards of the deck for ``players`` (text such as ``"Jh Jd 7c 8s 9h"`` or
    cards, read by :func:`~italian_poker.engine.hand_rank.read_hand`, with its errors);
    ``opponents``: how many to model (default ``players - 1``); ``known``: cards seen that are
    not in the stock besides the hand (discards face up, 003); ``opening``: the requirement
    the hand opened with, for an opener (the hand must meet it), so that ``split`` is shown and,
    unless ``may_split``, the choices breaking the opening are left out.
    """
    cards = read_hand(hand, players=players)
    rivals = check_opponents(opponents, players)
    rule = Tiebreak(tiebreak)
    seen = tuple(known)
    current = evaluate(cards, players=players, tiebreak=rule).category
    draw = None
    if opening is not None:
        if not opening.is_met(cards, players=players):
            raise AdviceError(
                f"{' '.join(map(str, cards))} does not open: {opening.describe()} is needed"
            )
        draw = LegalAction(
            ActionKind.DRAW,
            max_cards=MAX_DRAW,
            split_unless_kept=opening_groups(cards, opening),
        )
    outcomes = draw_outcomes(cards, players=players, known=seen, tiebreak=rule)
    dists = draw_distributions(cards, players=players, known=seen, tiebreak=rule)
    chances = rival_model(Reading(), players=players, tiebreak=rule) ** rivals
    advice = []
    for outcome, dist in zip(outcomes, dists, strict=True):
        split = draw is not None and draw.breaks_opening(outcome.discards)
        if split and not may_split:
            continue
        advice.append(
            Advice(
                kept=outcome.kept,
                discards=outcome.discards,
                combinations=outcome.combinations,
                category_counts=outcome.category_counts,
                improve_count=sum(outcome.category_counts[current + 1 :]),
                ev=dist.expectation(chances),
                split=split,
            )
        )
    order = sorted(range(len(advice)), key=lambda i: (-advice[i].ev, len(advice[i].discards), i))
    return tuple(advice[i] for i in order)


def advise_view(view: SeatView) -> tuple[Advice, ...]:
    """The advice for a seat's own hand before its draw, from its view alone: the rivals still
    in the hand are the opponents, the others' discards it has seen (face up, 003) are out of
    the stock, and for the opener the requirement met and whether the rules allow a split
    (4.4). :class:`AdviceError` once the seat has drawn or when no rival is left."""
    seat = view.seat
    if view.cards_changed[seat] is not None:
        raise AdviceError("this seat has drawn already: advice is for the draw to come")
    rivals = sum(1 for s in range(view.players) if s != seat and not view.folded[s])
    if rivals == 0:
        raise AdviceError("no rival is left in the hand")
    known = [c for a in view.actions if a.seat != seat for c in a.discards]
    return advise(
        view.hand,
        players=view.players,
        opponents=rivals,
        known=known,
        tiebreak=view.rules.tiebreak,
        opening=view.requirement if view.opener == seat else None,
        may_split=view.rules.opener_may_split,
    )


__all__ = ["Advice", "AdviceError", "advise", "advise_view", "check_opponents"]
