"""The expert bot: search by playouts over sampled deals, with the strong policy as the guide.

:class:`ExpertPolicy` reads only its :class:`SeatView`. At a decision that search decides (the
opening, a betting round's fold, call, check, bet, raise or parol, and the draw, Art. 3-5) it
takes a few candidate actions (the strong policy's choice among them) and, for each of a fixed
number of *worlds*, plays the rest of the deal out (itself as :class:`StrongPolicy`, each
rival in the style read for it, below); it
chooses the candidate with the most chips at the end on average (common worlds for every
candidate, so the comparison is paired), but only when it beats the strong choice by more than
a margin of standard errors of the paired difference: with a few dozen playouts the noise
would otherwise do the choosing. The margin is :attr:`ExpertPolicy.confidence` where every
rival in the hand reads as strong (the playouts then model them as they play) and grows to
:attr:`ExpertPolicy.doubt_confidence` as one reads as another style (:func:`margin`).

A world is a full deal consistent with the view, rebuilt through the engine's public API, not
by re-implementing rules: the unseen cards (the rivals' hands, the stock) are shuffled into a
stacked deck (:class:`DealStart`'s ``deck``), the view's public actions are applied again to a
fresh :class:`Deal`, and the world is kept only if the engine accepts every action and the
seat's own hand and legal actions come out as in the view. The rivals' hands are read from what
they did (the opponent reading of :mod:`~italian_poker.analysis.bots.reading`, here by
rejection): a rival who opened must meet the requirement (the engine checks it, 3.3), one who
passed seldom holds an opening hand, and one who changed ``k`` cards seldom holds a hand whose
plain draw changes another number (Art. 4). Each world is then weighed by how well it explains
the bets (:func:`reading_weight`): the chance, by the exact odds of the rival's style, that
each rival still in the hand would have taken the action seen with the world's cards, so that a
strong rival's raise makes the worlds where they hold a good hand count more; the comparison of
the candidates is weighted so. As that weight reads the pass and the draw again, for a rival
still in the hand the rejection only says where to look: the chance it kept the world is
divided out (:attr:`World.kept_odds`), else those actions would count twice. The style is
learnt over the match (:mod:`~italian_poker.analysis.bots.styles`: strong, or simple, whose
bets say nothing of its cards): each rival is read as the mixture of the styles its past deals
make likely, and played in each playout with a style drawn from that world's posterior. Where
no world can be rebuilt (a reshuffle, 4.3, or a fourth card, 4.2, that the rebuilt stock does
not reproduce), the strong policy decides.

The budget is fixed in playouts (:attr:`ExpertPolicy.playouts`, shared among the
candidates), so a seeded expert is deterministic; an optional ``time_limit`` stops the search
early on a slow machine at the cost of that determinism.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from italian_poker.analysis.bots.simple import draw_keep
from italian_poker.analysis.bots.strong import StrongPolicy, bet_size
from italian_poker.analysis.bots.styles import (
    STRONG_ONLY,
    STYLES,
    StyleBook,
    action_chances,
    drawn_style,
    mixed,
)
from italian_poker.engine.actions import Action, ActionKind, LegalAction
from italian_poker.engine.card_source import SECURE, StackedSource
from italian_poker.engine.cards import Card
from italian_poker.engine.deal import Deal, DealStart, Phase
from italian_poker.engine.deck import stripped_deck
from italian_poker.engine.errors import IllegalActionError
from italian_poker.engine.observer import PublicAction, SeatView, seat_view

WORLD_TRIES = 40
"""Deck shuffles tried per world (the rivals' reading rejects most, cheaply)."""

MAX_REPLAYS = 4
"""Replays through the engine tried per world (each a fresh deal with the view's actions)."""

MISREAD_ODDS = 0.15
"""The chance a sampled hand that contradicts a rival's pass or draw count is kept anyway."""

_SEARCHED = (Phase.OPENING, Phase.FIRST_ROUND, Phase.SECOND_ROUND, Phase.DRAW)
_BETS = (ActionKind.BET, ActionKind.RAISE, ActionKind.OPEN)
_PLAIN = (ActionKind.FOLD, ActionKind.CALL, ActionKind.CHECK, ActionKind.PASS, ActionKind.PAROL)


@dataclass(slots=True)
class ExpertPolicy:
    """Chooses by expected chips over playouts of sampled worlds (see the module docstring)."""

    rng: random.Random
    playouts: int = 60
    """Playouts per decision in the second round with four seats in the hand, shared among
    the candidates (at least ``min_worlds`` each); scaled by 4 / seats in the hand (two
    seats: twice as many, six: two thirds), and half as many before the second round."""
    min_worlds: int = 6
    """Worlds per candidate at the least."""
    confidence: float = 1.0
    """Standard errors by which a candidate must beat the strong choice to replace it when
    every rival in the hand reads as strong (1.0: against three strong bots it made +0.435 ±
    0.118 a deal more than 2.0 on the same 6,000 deals, docs/performance.md)."""
    doubt_confidence: float = 2.0
    """The margin when a rival in the hand is surely not strong; between, :func:`margin`
    (against three simple bots 1.0 throughout made 0.227 a deal less than the strong bot on
    the same 8,000 deals; this, +0.009 on another 8,000, docs/performance.md)."""
    time_limit: float | None = None
    """Seconds a decision may take, counted from its start: the search begins no world that
    would likely end after them (None: no limit; deterministic)."""
    learn_styles: bool = True
    """Learn each rival's style over the match (False: read every rival as strong)."""
    guide: StrongPolicy = field(init=False)
    book: StyleBook = field(init=False, default_factory=StyleBook)
    """What this seat has learnt of the rivals' styles."""

    def __post_init__(self) -> None:
        self.guide = StrongPolicy(random.Random(self.rng.random()))

    def act(self, view: SeatView) -> Action:
        """The action for ``view``: searched where it matters, else the strong policy's."""
        began = time.perf_counter()
        proposal = self.guide.act(view)
        if view.phase not in _SEARCHED or len(view.legal_actions) < 1:
            return proposal
        candidates = _candidates(view, proposal, self.guide)
        if len(candidates) < 2:
            return proposal
        # Before the second round a playout has the draws still to play, the costly part of
        # the strong policy (exact draw odds): half the playouts there.
        # A playout costs about one strong decision per seat still in: fewer players, more.
        budget = self.playouts * 4 // max(len(_live(view)), 2)
        if view.phase is not Phase.SECOND_ROUND:
            budget //= 2
        worlds = max(self.min_worlds, budget // len(candidates))
        seed = self.rng.getrandbits(64)
        beliefs = {
            s: self.book.beliefs(view.player_ids[s]) if self.learn_styles else STRONG_ONLY
            for s in _live(view)
            if s != view.seat
        }
        deadline = None if self.time_limit is None else began + self.time_limit
        searched = _search(view, candidates, worlds, seed, deadline, beliefs)
        if searched is None:
            return proposal
        if self.learn_styles:
            self.book.observe(view, searched.likelihoods)
        confidence = margin(beliefs.values(), self.confidence, self.doubt_confidence)
        return candidates[_chosen(searched.results, searched.weights, confidence)]


def margin(beliefs: Iterable[Sequence[float]], sure: float, doubtful: float) -> float:
    """The standard errors a candidate must win by: ``sure`` where every rival's beliefs
    (chances of each style in :data:`STYLES`, strong first) say strong, ``doubtful`` where
    one surely plays another style, in proportion between. The playouts play a rival in the
    style read for it: a doubtful read is a noisier model, so it must be outplayed by more."""
    doubt = max((1.0 - chances[0] for chances in beliefs), default=0.0)
    return sure + (doubtful - sure) * doubt


def _chosen(results: Sequence[Sequence[float]], weights: Sequence[float], confidence: float) -> int:
    """The candidate to play: the best on weighted average if it beats the first (the strong
    choice) by more than ``confidence`` standard errors of the paired difference, else the
    first. Few playouts are noisy: without the margin the noise, not the cards, would choose.
    The error counts the worlds as many as their weights are worth (Kish's effective size)."""
    total = sum(weights)
    means = [sum(w * x for w, x in zip(weights, r, strict=True)) / total for r in results]
    best = max(range(len(results)), key=lambda i: (means[i], i == 0))
    effective = total * total / sum(w * w for w in weights)
    if best == 0 or effective < 2:
        return 0
    diffs = [b - a for a, b in zip(results[0], results[best], strict=True)]
    mean = means[best] - means[0]
    variance = sum(w * (d - mean) ** 2 for w, d in zip(weights, diffs, strict=True)) / total
    error = math.sqrt(variance / (effective - 1))
    return best if mean > confidence * error else 0


def _live(view: SeatView) -> list[int]:
    """The seats still in the hand."""
    return [s for s in range(view.players) if not view.folded[s]]


# --- candidates ---------------------------------------------------------------------------


def _candidates(view: SeatView, proposal: Action, guide: StrongPolicy) -> list[Action]:
    """The actions compared: the strong choice, and the other kinds offered (a bet or raise
    at a middling and at a large size); at the draw, the best keeps by the strong measure."""
    if view.phase is Phase.DRAW:
        return _draw_candidates(view, proposal, guide)
    found: list[Action] = [proposal]
    for legal in view.legal_actions:
        if legal.kind in _BETS:
            for strength in (0.5, 0.9):
                found.append(Action(legal.kind, bet_size(view, legal, strength)))
        elif legal.kind in _PLAIN:
            found.append(Action(legal.kind))
    unique: list[Action] = []
    for action in found:
        if action not in unique:
            unique.append(action)
    return unique


def _draw_candidates(view: SeatView, proposal: Action, guide: StrongPolicy) -> list[Action]:
    legal = next(la for la in view.legal_actions if la.kind is ActionKind.DRAW)
    choices = guide.draw_choices(view, legal.max_cards)
    beats = guide.beat_table(view)
    ranked = sorted(choices, key=lambda c: -c.dist.expectation(beats))
    found = [proposal]
    for choice in ranked[:3]:
        action = Action(ActionKind.DRAW, cards=choice.dist.discards, split=choice.split)
        if action not in found:
            found.append(action)
    return found


# --- worlds -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Searched:
    """What a search found: per candidate, the seat's final chips in each world (the same
    worlds for every candidate); each world's :func:`reading_weight`; per rival seat, the mean
    chance each style gives their actions over the worlds (their likelihood)."""

    results: list[list[float]]
    weights: list[float]
    likelihoods: dict[int, tuple[float, ...]]


def _search(
    view: SeatView,
    candidates: Sequence[Action],
    worlds: int,
    seed: int,
    deadline: float | None,
    beliefs: dict[int, tuple[float, ...]],
) -> _Searched | None:
    """Up to ``worlds`` rebuilt deals played out after each candidate, every rival in a style
    drawn from ``beliefs`` (by seat) and the world; None when no deal can be rebuilt. With a
    ``deadline`` (a :func:`time.perf_counter` reading), no world is begun that the worlds so
    far, on average, say would end after it."""
    rng = random.Random(seed)
    start = time.perf_counter()
    results: list[list[float]] = [[] for _ in candidates]
    weights: list[float] = []
    sums = {s: [0.0] * len(STYLES) for s in beliefs}
    played = 0
    failures = 0
    while played < worlds and failures < worlds:
        world = sample_world(view, rng, relaxed=failures >= worlds // 2)
        if world is None:
            failures += 1
            continue
        chances = action_chances(world.start, world.actions, view, world.deck)
        styles = [0] * view.players
        for s, row in chances.items():
            styles[s] = drawn_style(row, beliefs.get(s, STRONG_ONLY), rng)
            counted = [x / world.kept_odds for x in row]
            sums[s] = [
                a + b for a, b in zip(sums.get(s, [0.0] * len(STYLES)), counted, strict=True)
            ]
        playout_seed = rng.getrandbits(64)
        for i, action in enumerate(candidates):
            results[i].append(_play_out(world, view.seat, action, playout_seed, styles))
        weights.append(_weight(world, chances, beliefs))
        played += 1
        if deadline is not None:
            now = time.perf_counter()
            if now + (now - start) / played > deadline:
                break
    if played == 0:
        return None
    likelihoods = {s: tuple(x / played for x in row) for s, row in sums.items()}
    return _Searched(results, weights, likelihoods)


def _mixture(chances: dict[int, tuple[float, ...]], beliefs: dict[int, tuple[float, ...]]) -> float:
    """The chance of every rival's actions, each rival's style the mixture ``beliefs``."""
    return math.prod(mixed(row, beliefs.get(s, STRONG_ONLY)) for s, row in chances.items())


def reading_weight(
    world: World, view: SeatView, beliefs: dict[int, tuple[float, ...]] | None = None
) -> float:
    """How well ``world`` explains what the rivals still in the hand did: the product, over
    them, of the chance their style (``beliefs`` by seat, a mixture of
    :data:`~.styles.STYLES`; strong when left out) takes the actions seen with the world's
    cards (:func:`~.styles.action_chances`: exact odds, each action at least
    :data:`~.styles.READ_FLOOR`). A rival who has folded is not read."""
    return _mixture(action_chances(world.start, world.actions, view, world.deck), beliefs or {})


def world_weight(
    world: World, view: SeatView, beliefs: dict[int, tuple[float, ...]] | None = None
) -> float:
    """What a sampled ``world`` counts for in the search: its :func:`reading_weight` divided
    by the chance the rejection kept it (:attr:`World.kept_odds`)."""
    return _weight(
        world, action_chances(world.start, world.actions, view, world.deck), beliefs or {}
    )


def _weight(
    world: World, chances: dict[int, tuple[float, ...]], beliefs: dict[int, tuple[float, ...]]
) -> float:
    """:func:`world_weight` from the rivals' chances already read."""
    return _mixture(chances, beliefs) / world.kept_odds


def _play_out(world: World, seat: int, first: Action, seed: int, styles: Sequence[int]) -> float:
    """The seat's stack at the end of ``world`` after ``first``: the seat then played by the
    strong policy, every other seat in its style (``styles``, indices into :data:`STYLES`)."""
    deal = world.rebuilt()
    deal.apply(first, seat)
    rng = random.Random(seed)
    bots = [
        StrongPolicy(rng) if s == seat else STYLES[styles[s]].player(rng) for s in range(deal.n)
    ]
    while (actor := deal.actor) is not None:
        deal.apply(bots[actor].act(seat_view(deal, actor)), actor)
    result = deal.result
    assert result is not None
    return float(result.stacks[seat])


@dataclass(frozen=True, slots=True)
class World:
    """A deal consistent with a view: its start, its stacked deck and the actions that bring
    it to the view's moment."""

    start: DealStart
    actions: tuple[Action, ...]
    kept_odds: float = 1.0
    """The chance the reading by rejection kept the hands of the rivals still in the hand
    (:data:`MISREAD_ODDS` for each action of theirs the hands contradict). Those rivals'
    actions are all read again, exactly, by :func:`reading_weight`: a world counts for its
    weight divided by this, or a contradicted action would be counted against it twice."""
    deck: tuple[Card, ...] = ()
    """The deck's order, dealt as a stacked deck (the 4.3 reshuffles securely)."""

    def rebuilt(self) -> Deal:
        """A fresh deal at the view's moment."""
        deal = Deal(self.start, StackedSource(self.deck, then=SECURE))
        for action in self.actions:
            deal.apply(action)
        return deal


def sample_world(view: SeatView, rng: random.Random, *, relaxed: bool) -> World | None:
    """A world consistent with ``view`` (the unseen cards shuffled), or None if the engine
    refuses the one drawn; ``relaxed`` leaves the rivals' reading out."""
    base = _start_without_deck(view)
    if base is None:
        return None
    mine = _own_draw(view)
    discards_seen = {a.seat: a.discards for a in view.actions if a.kind is ActionKind.DRAW}
    replays = 0
    for _ in range(WORLD_TRIES):
        for kept in _own_keeps(view, mine):
            order, actions, kept_odds = _stack(view, rng, kept, mine, discards_seen, relaxed)
            if order is None:
                break
            if replays == MAX_REPLAYS:
                return None
            replays += 1
            world = World(base, tuple(actions), kept_odds, tuple(order))
            try:
                deal = world.rebuilt()
            except IllegalActionError:
                continue
            if _matches(deal, view):
                return world
    return None


def _start_without_deck(view: SeatView) -> DealStart | None:
    """The deal's start as far as the view tells it: stacks before antes are the stacks now
    plus what each seat put in (the dealer's dead ante, 003, too); every other dead chip
    (carried pot, 5.5 make-ups) is taken as carried."""
    rules = view.rules
    n = view.players
    extra = [rules.dealer_ante if i == view.dealer else 0 for i in range(n)]
    stacks = tuple(view.stacks[i] + view.committed[i] + extra[i] for i in range(n))
    carried = view.pot - sum(view.committed) - rules.dealer_ante
    if carried < 0:
        return None
    blinds = any(a.phase is Phase.BLINDS for a in view.actions)
    return DealStart(
        rules=rules,
        names=view.names,
        stacks=stacks,
        dealer=view.dealer,
        carried=carried,
        min_pair=view.requirement.min_pair,
        blinds_allowed=blinds or (rules.blind_allowed and _blinds_offered(view)),
        player_ids=view.player_ids,
    )


def _blinds_offered(view: SeatView) -> bool:
    """Whether the view's deal offered blinds: it did when an action of the blinds phase is
    recorded; a deal that is still in that phase offers them now."""
    return view.phase is Phase.BLINDS


def _own_draw(view: SeatView) -> PublicAction | None:
    for action in view.actions:
        if action.seat == view.seat and action.kind is ActionKind.DRAW:
            return action
    return None


def _own_keeps(view: SeatView, mine: PublicAction | None) -> list[tuple[Card, ...]]:
    """The cards of the hand that may have been kept at the seat's draw (all of them before
    it): subsets holding the cards kept apart (4.4)."""
    hand = view.hand
    if mine is None:
        return [hand]
    keep = len(hand) - (mine.cards_changed or 0)
    apart = set(view.kept_apart)
    subsets = [c for c in itertools.combinations(hand, keep) if apart <= set(c)]
    return subsets[:4]


def _stack(
    view: SeatView,
    rng: random.Random,
    kept: tuple[Card, ...],
    mine: PublicAction | None,
    discards_seen: dict[int, tuple[Card, ...]],
    relaxed: bool,
) -> tuple[list[Card] | None, list[Action], float]:
    """A deck order for a world, the actions that replay the view in it, and the chance the
    reading kept the hands of the rivals still in the hand (:attr:`World.kept_odds`)."""
    n = view.players
    seat = view.seat
    deck = stripped_deck(n).cards
    own_start = list(kept) + (list(mine.discards) if mine is not None else [])
    new_cards = [c for c in view.hand if c not in kept]
    known = set(own_start) | set(view.hand)
    for s, cards in discards_seen.items():
        if s != seat:
            known |= set(cards)
    unseen = [c for c in deck if c not in known]
    rng.shuffle(unseen)
    hands: list[list[Card]] = [[] for _ in range(n)]
    hands[seat] = own_start
    for s, cards in discards_seen.items():
        if s != seat:
            hands[s] = list(cards)
    pool = iter(unseen)
    for s in range(n):
        while len(hands[s]) < 5:
            hands[s].append(next(pool))
    kept_odds = 1.0
    for s in range(n):
        if s == seat:
            continue
        misreads = _misreads(view, s, tuple(hands[s]), relaxed)
        if misreads is None or (misreads and rng.random() >= MISREAD_ODDS**misreads):
            return None, [], 1.0
        if not view.folded[s]:
            kept_odds *= MISREAD_ODDS**misreads
    rest = list(pool)
    order: list[Card] = []
    first = (view.dealer + (1 if _clockwise(view) else -1)) % n
    step = 1 if _clockwise(view) else -1
    seats = [(first + step * i) % n for i in range(n)]
    for i in range(5):
        for s in seats:
            order.append(hands[s][i])
    stock: list[Card] = []
    actions: list[Action] = []
    for public in view.actions:
        if public.kind is ActionKind.DRAW:
            changed = public.cards_changed or 0
            if public.seat == seat:
                stock.extend(new_cards)
                actions.append(Action(ActionKind.DRAW, cards=public.discards, split=public.split))
            else:
                discards = public.discards or _rival_discards(hands[public.seat], changed, n)
                stock.extend(rest[:changed])
                del rest[:changed]
                actions.append(Action(ActionKind.DRAW, cards=tuple(discards)))
        else:
            actions.append(Action(public.kind, public.amount))
    order.extend(stock)
    order.extend(rest)
    if len(order) != len(deck):
        return None, [], 1.0
    return order, actions, kept_odds


def _clockwise(view: SeatView) -> bool:
    return str(view.rules.direction.value).lower().startswith("clock")


def _misreads(view: SeatView, seat: int, hand: tuple[Card, ...], relaxed: bool) -> int | None:
    """The reading by rejection: None where ``hand`` cannot be ``seat``'s (they opened
    without the opening, 3.3: the engine would refuse it), else how many of their actions it
    contradicts (a pass holding the opening; a draw of another number than the hand's plain
    draw). ``relaxed``: only the opening is read (0 or None)."""
    qualifies = view.requirement.is_met(hand, players=view.players)
    misreads = 0
    for action in view.actions:
        if action.seat != seat:
            continue
        if action.kind is ActionKind.OPEN and not qualifies:
            return None
        if relaxed:
            continue
        if action.kind is ActionKind.PASS and qualifies:
            misreads += 1
        if action.kind is ActionKind.DRAW and action.cards_changed is not None:
            plain = 5 - len(draw_keep(hand, view.players))
            misreads += plain != action.cards_changed
    return misreads


def _rival_discards(hand: list[Card], changed: int, players: int) -> list[Card]:
    """``changed`` cards of a rival's hand to discard: the ones a plain draw throws first."""
    keep = set(draw_keep(hand, players))
    ordered = sorted(hand, key=lambda c: (c in keep, c.rank))
    return ordered[:changed]


def _matches(deal: Deal, view: SeatView) -> bool:
    """Whether the rebuilt deal shows the seat what the view shows."""
    if deal.actor != view.actor or deal.phase is not view.phase:
        return False
    if sorted(c.index for c in deal.hands[view.seat]) != sorted(c.index for c in view.hand):
        return False
    legal: tuple[LegalAction, ...] = deal.legal_actions()
    return legal == view.legal_actions


__all__ = [
    "MAX_REPLAYS",
    "MISREAD_ODDS",
    "WORLD_TRIES",
    "ExpertPolicy",
    "World",
    "margin",
    "reading_weight",
    "sample_world",
    "world_weight",
]
