"""Italian Poker as an OpenSpiel game: ``python_italian_poker``.

The state drives a :class:`~italian_poker.table.machine.TableMachine`, as every front end
does: the players sit by their ids, commands go in (``StartDeal``, ``Act``, ``DealCards``)
and events come out; it decides no rule itself. Its deals take their cards from the engine's
:data:`~italian_poker.engine.card_source.CHANCE` source, so the deal stops whenever cards
are due (``machine.cards_due``): the five cards each (3.1, once the blinds are bet or
declined), a draw's cards (4.1), the late fourth cards (4.2), the cards served from the
discards reshuffled in (4.3). Chance is then the player: it picks the cards due one at a time,
each of the candidates the engine names as likely, and they are dealt (``DealCards``) once
all are picked. The machine plays a show the rules force (5.4) at once: it is no decision.

Returns are in chips: each player's chips after the last deal whose pot was won (or handed
back) less the starting stack. A pot still carried when the episode ends (every player
passed, or parol, 5.4(a)) is void: those deals give nothing, so the game is zero-sum.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from functools import cache
from itertools import repeat
from typing import Any

import pyspiel

from italian_poker.ai.config import DEFAULTS, GameConfig, game_config
from italian_poker.ai.encoding import (
    CARDS,
    NUM_ACTIONS,
    SIMPLE_KINDS,
    describe,
    legal_ids,
    to_action,
)
from italian_poker.ai.observation import ItalianPokerObserver
from italian_poker.ai.players import seats
from italian_poker.engine.actions import ActionKind, LegalAction
from italian_poker.engine.card_source import CHANCE
from italian_poker.engine.cards import ALL_CARDS, Card
from italian_poker.engine.deck import MAX_PLAYERS, MIN_PLAYERS
from italian_poker.engine.errors import SeatError
from italian_poker.engine.match import MatchPhase
from italian_poker.engine.operations import CardsDrawn, FourthCardDealt, HandsDealt
from italian_poker.table.commands import Act, Command, DealCards, StartDeal
from italian_poker.table.deal_logs import deal_logs
from italian_poker.table.machine import TableMachine
from italian_poker.table.machine_events import DealFinished, TableEvent

GAME_NAME = "python_italian_poker"
"""The short name the game is registered under."""

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
        self._observers: dict[bool, ItalianPokerObserver] = {}
        self.start: _Start | None = None
        """Where every episode starts, once worked out (by the first initial state)."""

    def observer(self, perfect_recall: bool) -> ItalianPokerObserver:
        """The game's one observer of the information state (``perfect_recall``) or of the
        observation, which the states' tensors and strings are read with (its buffer is
        refilled at every use)."""
        observer = self._observers.get(perfect_recall)
        if observer is None:
            observer = self._observers[perfect_recall] = self.make_py_observer(
                pyspiel.IIGObservationType(perfect_recall=perfect_recall)
            )
        return observer

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


class _Table:
    """The table machine an episode drives and the commands it was handed. A clone copies
    the commands alone and gets a machine when it is first read: the machine of the table
    it was cloned from, if that one has not moved since (it makes its own again if read
    later), else one made by replaying the commands (the machine is deterministic once the
    cards are given, and replaying costs less than copying every object of it). Kept with
    it, what the machine offers the player to act."""

    __slots__ = ("__weakref__", "_machine", "_source", "commands", "config", "ids", "offered")

    def __init__(self, config: GameConfig, commands: list[Command] | None = None) -> None:
        self.config = config
        self._source: weakref.ref[_Table] | None = None
        """The table this one was cloned from."""
        self._machine = None if commands is not None else _new_machine(config)
        self.commands: list[Command] = [] if commands is None else commands
        """The commands handed to the machine, in order."""
        self.offered: tuple[tuple[LegalAction, ...], tuple[Card, ...]] | None = None
        """What the machine offers the player to act, and their hand when it is to draw: read
        once per decision (the legal ids and the action applied both need them)."""
        self.ids: tuple[int, ...] | None = None
        """The legal ids of the player to act, once asked for."""

    @property
    def machine(self) -> TableMachine:
        """The table machine (a clone's made now, if not yet)."""
        machine = self._machine
        if machine is None:
            source = None if self._source is None else self._source()
            self._source = None
            if source is not None and len(source.commands) == len(self.commands):
                machine, source._machine = source._machine, None  # the same commands
            if machine is None:
                machine = _new_machine(self.config)
                for command in self.commands:
                    machine.handle(command)
            self._machine = machine
        return machine

    def handle(self, command: Command) -> list[TableEvent]:
        """Hand ``command`` to the machine: the events; an illegal one raises and changes
        nothing."""
        events = (self._machine or self.machine).handle(command)
        self.commands.append(command)
        return events

    def read_offer(self, player: int) -> None:
        """Read what the machine offers ``player``, to act, and their hand when it is to draw
        (as their view shows it: the draw masks read it)."""
        machine = self._machine or self.machine
        legal = machine.legal_actions()
        hand: tuple[Card, ...] = ()
        if legal and legal[0].kind is _DRAW:
            hand = machine.view(player).hand
        self.offered, self.ids = (legal, hand), None

    def __getstate__(self) -> tuple[object, ...]:
        """What a pickle keeps: the commands and the offer (the machine is made again)."""
        return (self.config, self.commands, self.offered, self.ids)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        self.config, self.commands, self.offered, self.ids = state
        self._machine = self._source = None

    def __deepcopy__(self, memo: dict[int, object]) -> _Table:
        copy = _Table(self.config, self.commands[:])
        copy.offered, copy.ids = self.offered, self.ids
        copy._source = weakref.ref(self)
        memo[id(self)] = copy
        return copy


_IDS: dict[tuple[tuple[LegalAction, ...], bool], tuple[int, ...]] = {}
"""The legal ids of the offers met so far but the draws (they depend on the hand): most
offers come back again and again (fold, call, raise within a range)."""
_IDS_KEPT = 4096
"""The most offers kept."""


def _ids_of(
    legal: tuple[LegalAction, ...], hand: tuple[Card, ...], opener_may_split: bool
) -> tuple[int, ...]:
    """The legal ids of the offer ``legal`` (:func:`~italian_poker.ai.encoding.legal_ids`)."""
    if hand:
        return tuple(legal_ids(legal, hand, opener_may_split))
    key = (legal, opener_may_split)
    ids = _IDS.get(key)
    if ids is None:
        if len(_IDS) >= _IDS_KEPT:
            _IDS.clear()
        ids = _IDS[key] = tuple(legal_ids(legal, (), opener_may_split))
    return ids


@cache
def _simple_acts(players: int) -> tuple[Act, ...]:
    """The command of each player's action without an amount or cards, by
    ``player * len(SIMPLE_KINDS) + id`` (commands are immutable: one serves every use)."""
    return tuple(
        Act(player, to_action(i, (), ())) for player in range(players) for i in range(_SIMPLE)
    )


def _new_machine(config: GameConfig) -> TableMachine:
    """A table of the episode's players, the dealer player 0, nobody watching."""
    return TableMachine(
        config.rules, seats(config.players, config.stack), dealer=0, audiences=False
    )


@dataclass(frozen=True, slots=True)
class _Start:
    """The start of every episode of a game, as its first initial state read it: the
    commands handed to the machine, its offer, and the state's own fields."""

    commands: tuple[Command, ...]
    offered: tuple[tuple[LegalAction, ...], tuple[Card, ...]] | None
    ids: tuple[int, ...] | None
    due: int
    left: tuple[int, ...]
    player: int
    settled: tuple[int, ...]
    over: bool


class ItalianPokerState(pyspiel.State):  # type: ignore[misc]
    """One episode: the table machine, and the cards chance picked for the cards due.

    What the machine says between two steps is read once per step and kept: who is to act
    (chance, a player, or nobody), how many cards are due and the candidates not picked yet,
    and what it offers the player to act (with their hand when it is to draw), so that the
    current player, the chance outcomes and the legal actions cost no call to it."""

    def __init__(self, game: ItalianPokerGame) -> None:
        super().__init__(game)
        self._config = game.config
        self._opener_may_split = game.config.rules.opener_may_split
        self._picked: list[int] = []
        """The cards chance picked for the cards due, by index, in order (dealt once all
        are picked)."""
        self._due = 0
        """How many cards are due now (``machine.cards_due``), or 0."""
        self._left: list[int] = []
        """The indices of the candidates of the cards due not picked yet, in order."""
        self._player = _TERMINAL
        """The player to act, chance, or terminal."""
        self._settled = self._chips = (self._config.stack,) * self._config.players
        """Each player's chips when the last deal whose pot was won (or handed back) ended,
        and when the last deal ended."""
        self._deals = 0
        """The deals finished."""
        self._over = False
        start = game.start
        if start is not None:
            # Every episode starts alike: the machine is made when first read (pyspiel's
            # clone makes an initial state and copies the clone's attributes over it).
            self._table = _Table(self._config, list(start.commands))
            self._table.offered, self._table.ids = start.offered, start.ids
            self._due, self._left, self._player = start.due, list(start.left), start.player
            self._settled, self._over = start.settled, start.over
            return
        self._table = _Table(self._config)
        self._start_next()
        table = self._table
        game.start = _Start(
            tuple(table.commands),
            table.offered,
            table.ids,
            self._due,
            tuple(self._left),
            self._player,
            self._settled,
            self._over,
        )

    @property
    def machine(self) -> TableMachine:
        """The table machine, its deals dealt by chance: read it, never change it."""
        return self._table.machine

    # --- the machine, driven -----------------------------------------------------------------

    def _start_next(self) -> None:
        try:
            events = self._table.handle(StartDeal(source=CHANCE))
        except SeatError:
            self._over = True  # fewer than two players can be dealt in
            self._read()
            return
        self._after(events)

    def _after(self, events: list[TableEvent]) -> None:
        """After a command: note a settled pot, end the episode or start the next deal; then
        read who is to act."""
        machine = self._table.machine
        phase = machine.phase
        if phase is _IN_DEAL or phase is _MAKE_UP:
            self._read()
            return
        finished = False
        for event in events:
            if type(event) is DealFinished:
                finished = True
                self._note(event)
        if not finished or self._deals >= self._config.deals or phase is _OVER:
            self._over = True  # the last deal is over, or no deal could begin
            self._read()
            return
        self._start_next()

    def _read(self) -> None:
        """Read who is to act now: nobody once the episode is over, chance while cards are
        due (and which candidates are left), else the player to act and the offer."""
        table = self._table
        table.offered = table.ids = None
        self._due = 0
        if self._over:
            self._player = _TERMINAL
            return
        machine = table.machine
        player = machine.to_act
        if player is None:
            due = machine.cards_due
            assert due is not None
            self._left = [c.index for c in due.candidates]
            self._due, self._player = due.number, _CHANCE
            return
        self._player = player
        table.read_offer(player)

    def _note(self, finished: DealFinished) -> None:
        """A deal is over: each player dealt in has the chips it ended with (the others keep
        theirs), which settle the returns when its pot was won or handed back."""
        done = finished.completed
        chips = list(self._chips)
        for player, stack in zip(done.start.player_ids, done.result.stacks, strict=True):
            chips[player] = stack
        self._chips = tuple(chips)
        self._deals += 1
        if done.result.carried == 0:
            self._settled = self._chips

    # --- pyspiel.State -----------------------------------------------------------------------

    def current_player(self) -> int:
        """The player to act, chance, or terminal."""
        return self._player

    def is_chance_node(self) -> bool:
        """Whether chance is to pick a card (as ``pyspiel.State.is_chance_node``, without the
        call through C++)."""
        return self._player == _CHANCE

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions of the one to act, as ``pyspiel.State.legal_actions`` gives
        them, without the call through C++: the ids the player may play, sorted; at a chance
        node, the cards chance may pick; none at the end. For another ``player``, pyspiel's
        own answer."""
        current = self._player
        if player is not None and player != current:
            return list(pyspiel.State.legal_actions(self, player))
        if current >= 0:
            table = self._table
            ids = table.ids
            if ids is None:
                offer = table.offered
                assert offer is not None
                ids = table.ids = _ids_of(offer[0], offer[1], self._opener_may_split)
            return list(ids)
        if current == _CHANCE:
            return list(self._left)
        return []

    def _legal_actions(self, player: int) -> list[int]:
        """pyspiel's ``_legal_actions`` (``player`` is the one to act)."""
        ids = self._table.ids
        return list(self._legal_ids() if ids is None else ids)

    def _legal_ids(self) -> tuple[int, ...]:
        table = self._table
        offer = table.offered
        assert offer is not None
        ids = table.ids = _ids_of(offer[0], offer[1], self._opener_may_split)
        return ids

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards chance may pick next, each as likely: the candidates of the cards due
        not picked yet."""
        assert self._player == _CHANCE, "chance is not to pick now"
        left = self._left
        return list(zip(left, repeat(1.0 / len(left))))

    def _apply_action(self, action: int) -> None:
        table = self._table
        if self._due:
            self._left.remove(action)
            picked = self._picked
            picked.append(action)
            if len(picked) < self._due:
                return
            self._picked = []
            self._after(table.handle(DealCards(tuple([_ALL_CARDS[i] for i in picked]))))
            return
        offered = table.offered
        assert offered is not None
        if 0 <= action < _SIMPLE:  # no amount, no cards: one command per player and id
            command = _simple_acts(self._config.players)[self._player * _SIMPLE + action]
        else:
            command = Act(self._player, to_action(action, offered[0], offered[1]))
        machine = table._machine or table.machine
        events = machine.handle(command)
        table.commands.append(command)
        player = machine.to_act
        if player is None:
            self._after(events)
            return
        # The deal goes on (or 5.5's questions): the player to act, and what is offered.
        self._player = player
        legal = machine.legal_actions()
        hand = machine.view(player).hand if legal[0].kind is _DRAW else ()
        table.offered, table.ids = (legal, hand), None

    # The tensors and strings, as pyspiel's State gives them, read with the game's observers
    # (pyspiel's own make an observer at every call); a player out of range goes to pyspiel,
    # which says what is wrong.

    def _observed(self, player: int | None, perfect_recall: bool) -> ItalianPokerObserver | None:
        if player is None or not 0 <= player < self._config.players:
            return None
        game: ItalianPokerGame = self.get_game()  # the game itself, not a copy
        return game.observer(perfect_recall)

    def observation_tensor(self, *args: int) -> list[float]:
        """The observation tensor of ``player`` (default: the one to act)."""
        observer = self._observed(args[0] if args else None, perfect_recall=False)
        if observer is None:
            return list(pyspiel.State.observation_tensor(self, *args))
        observer.set_from(self, args[0])
        return observer.tensor.tolist()

    def information_state_tensor(self, *args: int) -> list[float]:
        """The information state tensor of ``player`` (default: the one to act)."""
        observer = self._observed(args[0] if args else None, perfect_recall=True)
        if observer is None:
            return list(pyspiel.State.information_state_tensor(self, *args))
        observer.set_from(self, args[0])
        return observer.tensor.tolist()

    def observation_string(self, *args: int) -> str:
        """The observation string of ``player`` (default: the one to act)."""
        observer = self._observed(args[0] if args else None, perfect_recall=False)
        if observer is None:
            return str(pyspiel.State.observation_string(self, *args))
        return observer.string_from(self, args[0])

    def information_state_string(self, *args: int) -> str:
        """The information state string of ``player`` (default: the one to act)."""
        observer = self._observed(args[0] if args else None, perfect_recall=True)
        if observer is None:
            return str(pyspiel.State.information_state_string(self, *args))
        return observer.string_from(self, args[0])

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
        for k, log in enumerate(deal_logs(self.machine)):
            taken = [c for op in log.operations for c in _cards_of(op)]
            parts.append(f"deal {k + 1}: {' '.join(str(c) for c in taken)}")
        if self._picked:
            parts.append(f"picked: {' '.join(str(ALL_CARDS[i]) for i in self._picked)}")
        return "\n".join([*parts, f"history: {self.history()}"])


def _cards_of(op: object) -> tuple[Card, ...]:
    """The cards an operation took, if it took any."""
    if isinstance(op, HandsDealt):
        return tuple(c for hand in op.hands for c in hand)
    if isinstance(op, CardsDrawn):
        return op.cards
    if isinstance(op, FourthCardDealt):
        return (op.card,)
    return ()


_ALL_CARDS = ALL_CARDS
_SIMPLE = len(SIMPLE_KINDS)
_DRAW = ActionKind.DRAW
_IN_DEAL = MatchPhase.IN_DEAL
_MAKE_UP = MatchPhase.MAKE_UP
_OVER = MatchPhase.OVER
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_CHANCE = int(pyspiel.PlayerId.CHANCE)


pyspiel.register_game(_GAME_TYPE, ItalianPokerGame)
