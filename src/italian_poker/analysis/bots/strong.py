"""The strong bot: exact draw odds, hand strength against the rivals read, and pot odds.

:class:`StrongPolicy` reads only its :class:`SeatView`. Its one measure is *equity*: the chance
that its final hand beats every live rival's, where each rival's final hand is modelled from
what the view shows of them (:mod:`~italian_poker.analysis.bots.reading`: whether they opened,
how many cards they changed) and a rival who has not yet put chips in may still fold. Before
the draw the bot's own final hand is the exact distribution of its best keep/discard choice
(:func:`~italian_poker.analysis.draw_odds.draw_distributions`, for the deck in use, with the
discards seen face up under 003 out of the stock); after the draw it is known.

With that figure it opens, bets and raises when ahead, calls when the pot odds pay, folds
otherwise; says parol (5.2(c)) with a hand below its fair share; sometimes blinds (Art. 2),
bluffs (betting after a weak-looking draw, or standing pat with nothing and betting), at
controlled rates; keeps or proves the opening as 4.4 requires (announcing a split only when
the rules allow it and the draw is worth it); mucks a beaten hand where 002 allows; and answers
the 5.5 make-up by the carried pot it would play for.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from italian_poker.analysis.bots.chance import Chance, Draws
from italian_poker.analysis.bots.reading import Reading, Table, rival_model
from italian_poker.analysis.draw_expectations import draw_expectations
from italian_poker.analysis.draw_odds import DrawDistribution, draw_distributions, hand_ladder
from italian_poker.engine.actions import Action, ActionKind, LegalAction
from italian_poker.engine.cards import Card
from italian_poker.engine.deal import MAX_DRAW, Phase
from italian_poker.engine.hand_rank import evaluate
from italian_poker.engine.observer import SeatView
from italian_poker.engine.policy import makeup_due
from italian_poker.engine.rules import BettingStructure

STAY_UNDECIDED = 0.55
"""The chance a rival who has put no chips in the round yet stays in the hand."""


@dataclass(frozen=True, slots=True)
class _Choice:
    """A legal keep/discard choice and its final hands; ``split`` when it breaks the opening."""

    dist: DrawDistribution
    split: bool


@dataclass(slots=True)
class StrongPolicy:
    """Plays by equity and pot odds (see the module docstring).

    The rates are the chances of each optional play when its conditions hold.
    """

    rng: random.Random
    blind_rate: float = 0.05
    """Blind, controbuio or over (Art. 2) when the stake is small against the stack."""
    bluff_rate: float = 0.05
    """Bet a weak hand in the second round when every rival drew two cards or more."""
    pat_bluff_rate: float = 0.04
    """Stand pat with nothing against one or two rivals, to bet afterwards."""
    slowplay_rate: float = 0.1
    """Check a very strong hand in the second round instead of betting it."""
    shared_tables: bool = False
    """Before the draw, take the best draw's equity from sums over the deck shared by every
    hand seen with the same view (:func:`~.draw_expectations.draw_expectations`):
    the same figures up to rounding, much cheaper when one view is read with many hands (a
    rival's decisions over sampled deals), dearer for a single hand."""

    def act(self, view: SeatView) -> Action:
        """The action for ``view``; answers the 5.5 make-up when it is asked for."""
        return self.decide(view, Draws(self.rng))

    def decide(self, view: SeatView, chance: Chance) -> Action:
        """:meth:`act` with its random choices drawn from ``chance``."""
        due = makeup_due(view)
        if due is not None:
            return Action(ActionKind.MAKE_UP if self._makes_up(view, due) else ActionKind.SIT_OUT)
        legal = {la.kind: la for la in view.legal_actions}
        if not legal:
            raise ValueError("this seat has nothing to do: it is not its turn")
        phase = view.phase
        if phase is Phase.BLINDS:
            return self._blind(view, legal, chance)
        if phase is Phase.SHOWDOWN:
            # 002: MUCK is offered only for a hand already beaten; showing it wins nothing.
            return Action(ActionKind.MUCK if ActionKind.MUCK in legal else ActionKind.SHOW)
        if phase is Phase.DRAW:
            return self._draw(view, legal[ActionKind.DRAW], chance)
        if phase is Phase.OPENING:
            return self._open(view, legal)
        return self._bet(view, legal, chance)

    # --- reading the table --------------------------------------------------------------

    def beat_table(self, view: SeatView) -> Table:
        """Per ladder position, the chance of ending ahead of every live rival."""
        players, tiebreak = view.players, view.rules.tiebreak
        table = np.ones(len(hand_ladder(players, tiebreak)), dtype=np.float64)
        aggression = _aggression(view)
        for seat in _rivals(view):
            opened = view.requirement if view.opener == seat else None
            reading = Reading(opened, view.cards_changed[seat], aggression[seat])
            beats = rival_model(reading, players=players, tiebreak=tiebreak)
            if _undecided(view, seat):
                beats = 1.0 - STAY_UNDECIDED * (1.0 - beats)
            table = table * beats
        return table

    def draw_choices(self, view: SeatView, max_discards: int) -> list[_Choice]:
        """The legal keep/discard choices: an opener breaks the opening only where 4.4 lets
        them (announcing the split)."""
        dists = draw_distributions(
            view.hand,
            players=view.players,
            known=_known_discards(view),
            max_discards=max_discards,
            tiebreak=view.rules.tiebreak,
        )
        opener = view.opener == view.seat
        return [
            _Choice(dist, opener and not view.requirement.kept_proves(dist.kept))
            for dist in dists
            if _may_keep(view, dist.kept)
        ]

    def _equity(self, view: SeatView) -> float:
        """The chance of winning at the showdown: after the draw with the hand held, before
        it with the best legal draw."""
        beats = self.beat_table(view)
        if view.cards_changed[view.seat] is not None:
            return _made_equity(view, beats)
        return max(e for _discards, e in self._draws(view, beats, MAX_DRAW))

    def _draws(
        self, view: SeatView, beats: Table, max_discards: int
    ) -> list[tuple[tuple[Card, ...], float]]:
        """Each legal draw's discards with its equity (the chance of its final hand ending
        ahead, ``beats``), fewest discards first."""
        if self.shared_tables and not _known_discards(view):
            tables = draw_expectations(beats, view.players, view.rules.tiebreak)
            return [
                (thrown, e)
                for kept, thrown, e in tables.of(view.hand, max_discards)
                if _may_keep(view, kept)
            ]
        return [
            (c.dist.discards, c.dist.expectation(beats))
            for c in self.draw_choices(view, max_discards)
        ]

    # --- decisions ----------------------------------------------------------------------

    def _makes_up(self, view: SeatView, due: int) -> bool:
        """5.5: pay ``due`` to play for the carried pot when the share it buys is worth it."""
        result = view.result
        carried = result.carried if result is not None else 0
        stack = view.stacks[view.seat]
        return due <= stack // 3 and due * view.players <= 2 * carried

    def _blind(
        self, view: SeatView, legal: dict[ActionKind, LegalAction], chance: Chance
    ) -> Action:
        """Art. 2: sometimes a blind, controbuio or over, when the stake is affordable."""
        for kind in (ActionKind.BLIND, ActionKind.CONTROBUIO, ActionKind.OVER):
            offer = legal.get(kind)
            if offer is None or offer.min_amount is None:
                continue
            affordable = offer.min_amount * 8 <= view.stacks[view.seat]
            rate = self.blind_rate if kind is ActionKind.BLIND else self.blind_rate / 2
            if affordable and chance.happens(rate):
                return Action(kind)
        return Action(ActionKind.DECLINE)

    def _open(self, view: SeatView, legal: dict[ActionKind, LegalAction]) -> Action:
        """3.3: open a qualifying hand, sized by its equity; otherwise pass."""
        opening = legal.get(ActionKind.OPEN)
        if opening is None:
            return Action(ActionKind.PASS)
        equity = self._equity(view)
        return Action(ActionKind.OPEN, bet_size(view, opening, 0.4 + 0.6 * equity))

    def _draw(self, view: SeatView, legal: LegalAction, chance: Chance) -> Action:
        """Art. 4: the legal choice with the best equity; rarely a bluff standing pat."""
        draws = self._draws(view, self.beat_table(view), legal.max_cards)
        discards, equity = max(draws, key=lambda d: (d[1], -len(d[0])))
        rivals = len(_rivals(view))
        if rivals <= 2 and discards and equity < 0.25 and chance.happens(self.pat_bluff_rate):
            return Action(ActionKind.DRAW)  # all five kept: the opening is kept too (4.4)
        kept = [c for c in view.hand if c not in discards]
        split = view.opener == view.seat and not view.requirement.kept_proves(kept)
        return Action(ActionKind.DRAW, cards=discards, split=split)

    def _bet(self, view: SeatView, legal: dict[ActionKind, LegalAction], chance: Chance) -> Action:
        """A betting round (3.6, Art. 5): by equity against pot odds."""
        equity = self._equity(view)
        rivals = len(_rivals(view))
        second = view.phase is Phase.SECOND_ROUND
        value_at = max(0.3, (0.6 if second else 0.55) - 0.1 * (rivals - 1))
        raise_at = max(0.4, (0.72 if second else 0.62) - 0.1 * (rivals - 1))
        to_call = view.to_call
        raise_at += 0.1 * _my_raises(view)  # each raise of ours already in: re-raise tighter
        if to_call > 0:
            raising = legal.get(ActionKind.RAISE)
            if raising is not None and equity >= raise_at:
                return Action(ActionKind.RAISE, bet_size(view, raising, equity))
            price = to_call / (view.pot + to_call)
            if ActionKind.CALL in legal and equity >= price:
                return Action(ActionKind.CALL)
            return Action(ActionKind.FOLD)
        betting = legal.get(ActionKind.BET)
        if betting is None:
            # The last blind bettor's option (2.5): end the round or raise.
            raising = legal.get(ActionKind.RAISE)
            if raising is not None and equity >= raise_at:
                return Action(ActionKind.RAISE, bet_size(view, raising, equity))
            return Action(ActionKind.CHECK)
        if equity >= value_at and not (equity > 0.9 and chance.happens(self.slowplay_rate)):
            return Action(ActionKind.BET, bet_size(view, betting, equity))
        if equity < 0.3 and self._bluffs(view, rivals, chance):
            return Action(ActionKind.BET, bet_size(view, betting, 0.7))
        if ActionKind.PAROL in legal and equity < 1.0 / (rivals + 1):
            return Action(ActionKind.PAROL)  # 5.2(c): abandon a hand below its fair share
        return Action(ActionKind.CHECK)

    def _bluffs(self, view: SeatView, rivals: int, chance: Chance) -> bool:
        """Whether to bet a weak hand: always after standing pat on nothing (the bluff begun
        at the draw), else at ``bluff_rate`` when every rival drew two cards or more."""
        if rivals > 2:
            return False
        if view.cards_changed[view.seat] == 0:
            return chance.happens(0.85)
        changed = [view.cards_changed[s] for s in _rivals(view)]
        weak = all(c is not None and c >= 2 for c in changed)
        return weak and chance.happens(self.bluff_rate)


def _known_discards(view: SeatView) -> list[Card]:
    """The others' discards this seat has seen (the observer shows them when they lie face
    up, 003; otherwise an action carries none)."""
    return [c for a in view.actions if a.seat != view.seat for c in a.discards]


def _may_keep(view: SeatView, kept: Sequence[Card]) -> bool:
    """Whether the seat may keep ``kept``: an opener breaks the opening only where the
    rules let them announce a split (4.4)."""
    if view.opener != view.seat or view.rules.opener_may_split:
        return True
    return view.requirement.kept_proves(kept)


def _rivals(view: SeatView) -> list[int]:
    """The seats still in the hand besides the viewer's."""
    return [s for s in range(view.players) if s != view.seat and not view.folded[s]]


def _aggression(view: SeatView) -> list[int]:
    """Per seat, the bets and raises made in the deal (an opening is read by itself)."""
    counts = [0] * view.players
    for action in view.actions:
        if action.kind in (ActionKind.BET, ActionKind.RAISE):
            counts[action.seat] += 1
    return counts


def _my_raises(view: SeatView) -> int:
    """The bets and raises this seat has made in the current round."""
    return sum(
        1
        for a in view.actions
        if a.seat == view.seat and a.phase is view.phase and a.kind is ActionKind.RAISE
    )


def _undecided(view: SeatView, seat: int) -> bool:
    """A rival who may yet fold without having put a chip in voluntarily: before the draw,
    neither the opener nor a blind bettor, with nothing bet in this round."""
    if view.cards_changed[seat] is not None or view.phase is Phase.SECOND_ROUND:
        return False
    return seat != view.opener and seat not in view.blinders and view.round_bets[seat] == 0


def _made_equity(view: SeatView, beats: Table) -> float:
    """Equity of the hand held, after the draw."""
    ladder = hand_ladder(view.players, view.rules.tiebreak)
    value = evaluate(view.hand, players=view.players, tiebreak=view.rules.tiebreak).value
    return float(beats[int(ladder.positions([value])[0])])


def bet_size(view: SeatView, legal: LegalAction, strength: float) -> int:
    """An amount for an open, bet or raise: a share of the pot that grows with ``strength``
    (half the pot to the whole pot, all-in only with a near-certain winner), within the
    legal range."""
    low, high = legal.min_amount, legal.max_amount
    assert low is not None and high is not None
    pot = view.pot + view.to_call
    share = 0.5 + 0.5 * min(max(strength, 0.0), 1.0)
    target = view.current_bet + max(1, round(share * pot))
    if view.rules.structure is BettingStructure.NO_LIMIT and strength < 0.95:
        target = min(target, view.current_bet + max(pot, 1))
    return min(max(target, low), high)


def equity(view: SeatView) -> float:
    """The strong bot's measure for ``view`` (the module docstring): the chance of ending
    ahead of every live rival read from the view, with the hand held after the draw, with the
    best legal draw before it."""
    return StrongPolicy(random.Random(0))._equity(view)


__all__ = ["STAY_UNDECIDED", "StrongPolicy", "bet_size", "equity"]
