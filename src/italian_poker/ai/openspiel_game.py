"""Italian Poker as an OpenSpiel game: ``python_italian_poker``.

The state drives the engine's :class:`~italian_poker.engine.match.Match` through its public
API and decides no rule itself. Chance picks every card the engine takes from the deck, one
at a time and in the order it takes them: the five cards each before a deal begins (before
the blinds, which are bet without seeing them), and, at the draw, the cards a player's draw
is served from the stock, the fourth cards (4.2) and the order of every reshuffle of the
discards (4.3). The engine deals from a stacked deck: the cards chance picked so far, then the
rest in index order, which the engine has not reached yet. A draw's cards are counted by the
engine (``Deal.deck_cards_taken``); chance picks them and they go on top of the live deal's
stock (``Deal.restack``) before the draw is made, as do the five cards each of a deal begun
with the blinds. Where only applying tells (a reshuffle may follow, a deal begun without
blinds or by the last 5.5 answer), the action is applied to a copy of the match rebuilt from
the steps so far, and applied again once chance picked what it takes.

Returns are in chips: each player's chips after the last deal whose pot was won (or handed
back) less the starting stack. A pot still carried when the episode ends (every player
passed, or parol, 5.4(a)) is void: those deals give nothing, so the game is zero-sum.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pyspiel

from italian_poker.ai.config import DEFAULTS, GameConfig, game_config
from italian_poker.ai.encoding import NUM_ACTIONS, describe, legal_ids, to_action
from italian_poker.ai.observation import ItalianPokerObserver
from italian_poker.engine.actions import Action, ActionKind, LegalAction
from italian_poker.engine.cards import Card
from italian_poker.engine.deck import MAX_PLAYERS, MIN_PLAYERS, stripped_deck
from italian_poker.engine.errors import SeatError
from italian_poker.engine.match import Match, MatchPhase

GAME_NAME = "python_italian_poker"
"""The short name the game is registered under."""

CARDS = 52
"""Chance outcomes: a card, by index."""

_PROBED = frozenset({ActionKind.MAKE_UP, ActionKind.SIT_OUT})
"""The kinds that may begin a deal (the last 5.5 answer): tried on the match first (a draw
is counted by the engine, or tried when it may reshuffle). Any other action takes no card
chance has not picked: the five cards each are picked before a deal begins."""

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Italian Poker (poker all'italiana)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=False,
    parameter_specification=DEFAULTS,
)


def player_name(player: int) -> str:
    """The name of OpenSpiel player ``player`` at the engine's table (its player id is
    ``player``)."""
    return f"P{player}"


def _game_info(config: GameConfig) -> pyspiel.GameInfo:
    n, stack = config.players, config.stack
    # Each raise lifts the bet by a chip at least, and each is answered by the others.
    per_round = (stack + 1) * n
    decisions = 4 + 2 * per_round + 5 * n
    chance = CARDS + 2 * 4 * n
    return pyspiel.GameInfo(
        num_distinct_actions=NUM_ACTIONS,
        max_chance_outcomes=CARDS,
        num_players=n,
        min_utility=float(-stack),
        max_utility=float((n - 1) * stack),
        utility_sum=0.0,
        max_game_length=config.deals * (decisions + chance),
    )


class ItalianPokerGame(pyspiel.Game):  # type: ignore[misc]
    """The game; ``params`` as in :data:`~italian_poker.ai.config.DEFAULTS`."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        self.config = game_config(given)
        super().__init__(_GAME_TYPE, _game_info(self.config), {**DEFAULTS, **given})

    def new_initial_state(self) -> ItalianPokerState:
        """The start of an episode: chance is to deal."""
        return ItalianPokerState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> ItalianPokerObserver:
        """The observer of ``iig_obs_type`` (default: the observation, no perfect recall)."""
        return ItalianPokerObserver(
            self.config,
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
            params,
        )


class ItalianPokerState(pyspiel.State):  # type: ignore[misc]
    """One episode: the engine's match, and what chance has picked."""

    def __init__(self, game: ItalianPokerGame) -> None:
        super().__init__(game)
        self._config = game.config
        self._steps: list[Action | None] = []
        """What was done to the match: an action, or ``None`` for the start of a deal."""
        self._decks: list[list[Card]] = []
        """Per deal, the cards chance picked, in the order the engine takes them."""
        self._sizes: list[int] = []
        """Per deal, the players dealt in (0 until the deal begins)."""
        self._reshuffles: list[list[tuple[Card, ...]]] = []
        """Per deal, the order of each reshuffle (4.3) chance picked."""
        self._waiting: Action | None = None
        self._waits = False
        """Whether a step waits for chance (``_waiting``, ``None`` for a deal's start)."""
        self._need = 0
        """Cards chance still picks from the deck before the step waiting."""
        self._restack = 0
        """Cards chance picks for the step waiting that then go on top of the live match's
        stock (``Deal.restack``), the step applied after them: no rebuild."""
        self._pool: tuple[Card, ...] = ()
        self._order: list[Card] = []
        """A reshuffle being ordered: its cards, and the order picked so far."""
        self._taken: set[int] = set()
        """The indices of the cards of ``_decks[-1]``."""
        self._player: int | None = None
        self._offered: tuple[tuple[LegalAction, ...], tuple[Card, ...]] | None = None
        """What the engine offers the player to act, and their hand when it is to draw: read
        once per decision (the legal ids and the action applied both need them)."""
        """:meth:`current_player`, once worked out after the last action."""
        self._settled = (self._config.stack,) * self._config.players
        self._over = False
        self._match: Match | None = self._rebuild()
        self._start_next()

    @property
    def match(self) -> Match:
        """The engine's match after every step kept (rebuilt when a step tried on it waits
        for chance)."""
        if self._match is None:
            self._match = self._rebuild()
        return self._match

    # --- the engine, driven ------------------------------------------------------------------

    def _rebuild(self) -> Match:
        """A new match with every step so far applied."""
        config = self._config
        seats = [(player_name(p), config.stack, p) for p in range(config.players)]
        match = Match(config.rules, seats, dealer=0, seed=0)
        deal = -1
        for step in self._steps:
            if step is None:
                deal += 1
                match.start_deal(deck=self._deck(deal), reshuffles=self._reshuffles[deal], seed=0)
            else:
                match.apply(step)
        return match

    def _deck(self, deal: int) -> list[Card] | None:
        """The stacked deck of ``deal``: the cards picked, then the rest in index order."""
        size = self._sizes[deal]
        if not size:
            return None
        picked = self._decks[deal]
        taken = {c.index for c in picked}
        return picked + [c for c in stripped_deck(size).cards if c.index not in taken]

    def _start_next(self) -> None:
        self._decks.append([])
        self._taken = set()
        self._sizes.append(0)
        self._reshuffles.append([])
        self._try(None, live=True)

    def _try(self, step: Action | None, *, live: bool = False) -> None:
        """Apply ``step`` to a rebuilt copy (``live``: to the match itself, as its deck is
        the one to try); keep it, or have chance pick what it takes."""
        probe = self.match if live else self._rebuild()
        k = len(self._decks) - 1
        done = len(probe.completed)
        try:
            if step is None:
                probe.start_deal(deck=self._deck(k), reshuffles=self._reshuffles[k], seed=0)
            else:
                probe.apply(step)
        except SeatError:
            if step is not None:
                raise
            self._over = True  # fewer than two players can be dealt in
            return
        begun = len(probe.completed) + (probe.phase is MatchPhase.IN_DEAL)
        deal = probe.deal
        if begun == k + 1 and deal is not None:
            if not self._sizes[k]:
                self._sizes[k] = deal.n
            consumed = len(deal.deck_order)
            if not deal.reshuffles:
                consumed -= len(deal.stock)
            need = max(consumed, 5 * deal.n) - len(self._decks[k])
            recorded = len(self._reshuffles[k])
            if need > 0 or len(deal.reshuffles) > recorded:
                if step is None and live and need > 0 and not any(deal.hands):
                    # A deal begun with its cards still in the stock (the blinds come
                    # first): the cards chance picks are stacked on it as they come.
                    self._wait(None, need=need)
                    self._restack = need
                    return
                if live:
                    self._match = None  # the step went on: rebuilt when next needed
                if need > 0:
                    self._wait(step, need=need)
                else:
                    pool = tuple(sorted(deal.reshuffles[recorded], key=_index))
                    self._wait(step, pool=pool)
                return
        self._waits = False
        self._waiting = None
        self._steps.append(step)
        self._match = probe
        self._after(done, started=step is None)

    def _wait(self, step: Action | None, *, need: int = 0, pool: tuple[Card, ...] = ()) -> None:
        self._waits = True
        self._waiting = step
        self._need = need
        self._pool = pool
        self._order = []
        self._restack = 0

    def _resume(self) -> None:
        """The step waiting, on the live match, once chance picked the cards it takes: they
        go on top of the stock in the order picked, then the step is applied."""
        match = self.match
        deal = match.deal
        assert deal is not None
        step = self._waiting
        picked = self._decks[-1]
        if step is None:  # the whole deck as a rebuild stacks it: picked, then index order
            whole = self._deck(len(self._decks) - 1)
            assert whole is not None
            deal.restack(whole)
        else:
            deal.restack(picked[len(picked) - self._restack :])
        self._waits = False
        self._waiting = None
        self._restack = 0
        done = len(match.completed)
        if step is not None:
            match.apply(step)
        self._steps.append(step)
        self._after(done, started=step is None)

    def _after(self, done: int, *, started: bool = False) -> None:
        """After a step: note a settled pot, end the episode or start the next deal."""
        match = self.match
        if match.phase not in (MatchPhase.BETWEEN_DEALS, MatchPhase.OVER):
            return
        if len(match.completed) > done:
            if match.completed[-1].result.carried == 0:
                self._settled = self._chips(match)
        elif started or match.phase is MatchPhase.BETWEEN_DEALS:
            self._over = True  # no deal could begin
            return
        if len(match.completed) >= self._config.deals or match.phase is MatchPhase.OVER:
            self._over = True
            return
        self._start_next()

    def _chips(self, match: Match) -> tuple[int, ...]:
        """Each player's chips, seated or gone."""
        chips = [0] * self._config.players
        for seat in match.seats:
            chips[seat.player_id] = seat.stack
        for name, taken in match.departed:
            chips[int(name[1:])] = taken
        return tuple(chips)

    # --- pyspiel.State -----------------------------------------------------------------------

    def current_player(self) -> int:
        """The player to act, chance, or terminal."""
        player = self._player
        if player is not None:
            return player
        if self._over:
            player = _TERMINAL
        elif self._waits:
            player = _CHANCE
        else:
            actor = self.match.actor
            assert actor is not None
            player = int(actor[1:])
        self._player = player
        return player

    def _actor_hand(self, legal: tuple[LegalAction, ...]) -> tuple[Card, ...]:
        """The hand of the player to act, as its view shows it, when it is to draw (the
        draw masks read it); else no cards are needed."""
        match = self.match
        actor = match.actor
        if actor is None or not legal or legal[0].kind is not ActionKind.DRAW:
            return ()
        return match.view(actor).hand

    def _legal_actions(self, player: int) -> list[int]:
        offer = self._offered
        if offer is None:
            legal = self.match.legal_actions()
            offer = self._offered = (legal, self._actor_hand(legal))
        return legal_ids(offer[0], offer[1], self._config.rules.opener_may_split)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards chance may pick next, each as likely."""
        if self._pool:
            ordered = {c.index for c in self._order}
            left = [c.index for c in self._pool if c.index not in ordered]
        else:
            taken = self._taken
            left = [i for i in _deck_indices(self._sizes[-1]) if i not in taken]
        p = 1.0 / len(left)
        return [(index, p) for index in left]

    def _apply_action(self, action: int) -> None:
        self._player = None
        offered, self._offered = self._offered, None
        if self._waits:
            card = Card.from_index(action)
            if self._pool:
                self._order.append(card)
                if len(self._order) == len(self._pool):
                    self._reshuffles[-1].append(tuple(self._order))
                    self._pool, self._order = (), []
                    self._try(self._waiting)
            else:
                self._decks[-1].append(card)
                self._taken.add(action)
                self._need -= 1
                if not self._need:
                    if self._restack:
                        self._resume()
                    else:
                        self._try(self._waiting)
            return
        match = self.match
        if offered is None:
            legal = match.legal_actions()
            offered = (legal, self._actor_hand(legal))
        step = to_action(action, offered[0], offered[1])
        if step.kind is ActionKind.DRAW and match.deal is not None:
            taken = match.deal.deck_cards_taken(step)
            if taken:
                self._wait(step, need=taken)  # chance picks them, then the draw is made
                self._restack = taken
                return
            if taken is None:
                self._try(step, live=True)  # a reshuffle may follow (4.3): learned by trying
                return
        elif step.kind in _PROBED:
            self._try(step, live=True)
            return
        done = len(match.completed)
        match.apply(step)
        self._steps.append(step)
        self._after(done)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {Card.from_index(action)}"
        return describe(action)

    def is_terminal(self) -> bool:
        """Whether the episode is over."""
        return self._over

    def returns(self) -> list[float]:
        """Chips won or lost by each player (0 before the end)."""
        if not self._over:
            return [0.0] * self._config.players
        return [float(s - self._config.stack) for s in self._settled]

    def __str__(self) -> str:
        parts = []
        for k, picked in enumerate(self._decks):
            cards = " ".join(str(c) for c in picked)
            orders = " / ".join(" ".join(str(c) for c in o) for o in self._reshuffles[k])
            parts.append(f"deal {k + 1}: {cards}" + (f" reshuffled {orders}" if orders else ""))
        steps = " ".join("start" if s is None else str(s) for s in self._steps)
        return "\n".join([*parts, f"steps: {steps}"])


def _index(card: Card) -> int:
    return card.index


@cache
def _deck_indices(players: int) -> tuple[int, ...]:
    """The indices of the cards of the deck for ``players``, in order."""
    return tuple(c.index for c in stripped_deck(players).cards)


_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_CHANCE = int(pyspiel.PlayerId.CHANCE)


pyspiel.register_game(_GAME_TYPE, ItalianPokerGame)
