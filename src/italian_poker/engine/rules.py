"""Rules of a table: the defaults of the formal rulebook (000) and every house-rule option.

``Rules()`` is the standard game; :func:`preset` returns the named presets reproducing the four
source documents. Each option names the article or document it comes from; the decisions the
documents leave open are explained in ``docs/rules.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any

from italian_poker.engine.cards import Rank
from italian_poker.engine.deck import MAX_PLAYERS, MIN_PLAYERS, check_players
from italian_poker.engine.errors import RulesError
from italian_poker.engine.hand_rank import Tiebreak
from italian_poker.engine.opening import parse_min_pair


class BettingStructure(StrEnum):
    """How much a bet or raise may be (000 Art. 1; 002's betting structures)."""

    FIXED_LIMIT = "fixed-limit"
    """Bets and raises of exactly ``small_bet`` (first round) and ``big_bet`` (second round)."""
    SPREAD_LIMIT = "spread-limit"
    """Bets and raises anywhere between ``min_bet`` and ``max_bet``."""
    POT_LIMIT = "pot-limit"
    """Bets and raises from ``min_bet`` up to the pot after calling."""
    NO_LIMIT = "no-limit"
    """Bets and raises from ``min_bet`` up to the whole stack (table stakes)."""


class BlindSize(StrEnum):
    """The size of the *buio* (000 Art. 2: the pot; 003: double the pot; a house rule: a
    multiple of the ante)."""

    POT = "pot"
    DOUBLE_POT = "double-pot"
    ANTES = "antes"
    """House rule (no document): ``blind_antes`` times the ante, whatever the pot holds."""


class Direction(StrEnum):
    """Direction of play and deal (000: clockwise; 003: counter-clockwise)."""

    CLOCKWISE = "clockwise"
    COUNTER_CLOCKWISE = "counter-clockwise"


class AllPassPolicy(StrEnum):
    """What happens when every player passes (000 Art. 3.5 and the variants)."""

    ESCALATE = "escalate"
    """000: the pot stays; the pair needed rises J -> Q -> K, then returns to J."""
    POT_STAYS = "pot-stays"
    """001/002: the pot stays; the requirement does not change."""
    RETURN_BETS = "return-bets"
    """003 *piatto di parole*: antes returned; the next deal needs kings or better."""


class Escalation(StrEnum):
    """The ladder the requirement climbs after each deal every player passed, under
    ``all_pass="escalate"`` (000 Art. 3.5: J -> Q -> K, then jacks again)."""

    KINGS = "j-q-k"
    """000 3.5: jacks, queens, kings; after a third passed deal, jacks again."""
    ACES = "j-q-k-a"
    """House rule (no document): aces after kings, then jacks again."""
    TWO_PAIR = "j-q-k-two-pair"
    """House rule (no document): two pair (no single pair) after kings, then jacks again."""


class SecondRoundStarter(StrEnum):
    """Who begins the second betting round (000 Art. 5.1 and the variants)."""

    LAST_RAISER = "last-raiser"
    """000: the last first-round raiser, else the opener or the last blind bettor."""
    FIRST_ROUND_STARTER = "first-round-starter"
    """001: the player who began the first round, or the next active one."""
    OPENER = "opener"
    """002: the opener (or last blind bettor), or the next active one in turn."""


class ShowdownOrder(StrEnum):
    """Who shows first at the showdown; the others follow in turn."""

    LAST_AGGRESSOR = "last-aggressor"
    """002: the last raiser, else the first bettor, else the first player after the dealer."""
    LAST_BETTOR = "last-bettor"
    """001: the last player who bet or raised, else the first player after the dealer."""


class ParolLatecomers(StrEnum):
    """What a player owes to be dealt in while a parol pot is carried (5.5 read further), when
    they had no part in the abandoned hand, or sat out a deal after it (decided in docs/rules.md).
    """

    MAKE_UP = "make-up"
    """Decided: they pay what they owe toward the carried pot (what a player who stayed for the
    draw has put in, less what they put in themselves) as a make-up when next dealt in; one who
    cannot afford it (and the ante) is not dealt in until the pot is won."""
    WAIT = "wait"
    """They are not dealt in until the carried pot is won."""
    ANTE = "ante"
    """They play for the carried pot for the ante alone."""


class OddChip(StrEnum):
    """Who gets the chips that do not divide evenly when a pot is split."""

    FIRST_AFTER_DEALER = "first-after-dealer"
    """The winner nearest the dealer's left, in the direction of play."""
    HIGHEST_SUIT = "highest-suit"
    """The winner whose hand's deciding card is of the highest suit (7.4's suit order)."""


@dataclass(frozen=True, slots=True)
class Rules:
    """Everything agreed before play (000 Art. 1). Validated on creation.

    Amounts are whole chips. Defaults follow the formal rulebook (000); the presets in
    :data:`PRESETS` reproduce documents 001, 002 and 003.
    """

    name: str = "standard"
    players: int = 4
    """Seats at the table, 2 to 9. The deck is stripped for the players dealt in (section 1)."""
    min_players: int = 2
    """The fewest players a deal is dealt to: 2 (001: 2 to 9 players); 4 in preset ``003``
    ("i giocatori ammessi variano da 4 a 6"). With fewer able to play, the match waits."""

    # Antes and betting (000 Art. 1-2; 001; 002; 003).
    ante: int = 1
    dealer_ante: int = 0
    """Extra ante paid by the dealer (003: *il mazziere investa una cifra superiore*)."""
    structure: BettingStructure = BettingStructure.SPREAD_LIMIT
    min_bet: int = 1
    max_bet: int = 10
    """Spread limit: the largest bet or raise; ignored by the other structures."""
    small_bet: int = 1
    big_bet: int = 2
    """Fixed limit: the bet size of the first and of the second round."""
    second_round_doubled: bool = False
    """001: limits doubled in the second round (spread and pot limit minimums, max bet)."""
    raise_cap: int | None = None
    """The most raises in one betting round (None: no cap; 000 Art. 1, agreed before play)."""
    raise_cap_heads_up: bool = False
    """Decided: the cap also binds when no more than two players who are not all-in are left
    in the hand (off: raising is then unlimited unless the cap was reached with three or more,
    as 002 reports and cardrooms play)."""
    short_all_in_is_raise: bool = False
    """Decided: an all-in raise short of a full raise counts as a raise: toward ``raise_cap``
    and as the last raiser who begins the second round (5.1). Off: it is not a raise."""
    short_all_ins_add_up: bool = True
    """Decided: short all-in raises that together make a full raise re-open the betting to a
    player who had acted and now faces at least a full raise (the cardroom convention)."""

    # Blinds (000 Art. 2).
    blind_allowed: bool = True
    blind_size: BlindSize = BlindSize.POT
    blind_antes: int = 2
    """Under ``blind_size="antes"``: the blind is this many antes (1 or more)."""
    controbuio_allowed: bool = True
    over_allowed: bool = True

    # Seating and order.
    direction: Direction = Direction.CLOCKWISE

    # Opening (000 Art. 3).
    min_pair: Rank = Rank.JACK
    four_straight_flush_opens: bool = True
    """3.3(b): four consecutive cards of one suit without the ace may open."""
    four_straight_flush_always: bool = True
    """3.3(b) also opens on a deal after every player passed or said parol (000 3.5: "the
    four-card straight flush option in 3.3(b) is unchanged"; 5.5). ``False``: only the pair
    then (003: "potra' pero' essere aperta solo con una coppia di Re o di Assi")."""
    all_pass: AllPassPolicy = AllPassPolicy.ESCALATE
    escalation: Escalation = Escalation.KINGS
    """The ladder of ``all_pass="escalate"`` (3.5): ``j-q-k`` (000), ``j-q-k-a`` or
    ``j-q-k-two-pair`` (house rules); a table whose ``min_pair`` is higher starts from it."""
    all_pass_same_dealer: bool = False
    """After a deal every player passed (3.5): ``False``, the deal passes on (000 Art. 1);
    ``True``, the deal counts as not played and the same dealer deals again (003's *piatto di
    parole*: "la mano si considera non giocata")."""
    blind_after_all_pass: bool = True
    """Whether a blind is offered on the deal after one every player passed (3.5): ``True``
    (000 Art. 2 makes no exception); ``False`` in preset ``003``, whose next deal "potra'
    pero' essere aperta solo con una coppia di Re o di Assi" (a blind opens without one)."""
    passed_players_may_play: bool = True
    """Left open: a player who passed before the opening may still call or raise (yes)."""
    opener_must_prove: bool = True
    """Left open: the opener shows the opening combination at the end of the deal, even uncalled."""

    # Draw (000 Art. 4).
    opener_may_split: bool = True
    """4.4: the opener may break the opening combination, announcing it."""
    discards_face_up: bool = False
    """003: discards stay face up in front of the player."""

    # Second round and showdown (000 Art. 5-7).
    second_round_starter: SecondRoundStarter = SecondRoundStarter.LAST_RAISER
    parol_allowed: bool = True
    parol_min_pair: Rank = Rank.KING
    """5.5: the pair needed on the deal after a parol."""
    parol_latecomers: ParolLatecomers = ParolLatecomers.MAKE_UP
    """Decided (5.5 read further): what a player who had no part in the abandoned hand, or who
    sat out a deal after it, owes to play for the carried parol pot."""
    showdown_order: ShowdownOrder = ShowdownOrder.LAST_AGGRESSOR
    muck_allowed: bool = True
    """002: a losing hand may be mucked instead of shown."""
    tiebreak: Tiebreak = Tiebreak.STANDARD
    odd_chip: OddChip = OddChip.FIRST_AFTER_DEALER

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if (
                f.type in ("int", "int | None")
                and value is not None
                and (isinstance(value, bool) or not isinstance(value, int))
            ):
                raise RulesError(f"{f.name} must be a whole number, got {value!r}")
            if f.type == "bool" and type(value) is not bool:
                raise RulesError(f"{f.name} must be true or false, got {value!r}")
            if f.type == "str" and (type(value) is not str or not value.strip()):
                raise RulesError(f"{f.name} must be a name (text), got {value!r}")
        try:
            check_players(self.players)
        except ValueError as error:
            raise RulesError(str(error)) from None
        if not 2 <= self.min_players <= self.players:
            raise RulesError(
                f"min_players must be 2 to the {self.players} seats (players), "
                f"got {self.min_players}"
            )
        _coerce_enums(self)
        if self.ante < 0 or self.dealer_ante < 0:
            raise RulesError("antes cannot be negative")
        if self.ante == 0 and self.dealer_ante == 0 and self.blind_allowed:
            raise RulesError("a blind is a bet equal to the pot: it needs an ante")
        if self.structure is BettingStructure.FIXED_LIMIT:
            if self.small_bet < 1 or self.big_bet < 1:
                raise RulesError("fixed-limit bet sizes must be at least 1 chip")
        elif self.min_bet < 1:
            raise RulesError("the minimum bet must be at least 1 chip")
        if self.structure is BettingStructure.SPREAD_LIMIT and self.max_bet < self.min_bet:
            raise RulesError(
                f"the maximum bet ({self.max_bet}) is below the minimum bet ({self.min_bet})"
            )
        if self.raise_cap is not None and self.raise_cap < 0:
            raise RulesError("the raise cap cannot be negative")
        if self.over_allowed and not self.controbuio_allowed:
            raise RulesError("an over doubles a controbuio: allow the controbuio too")
        if self.controbuio_allowed and not self.blind_allowed:
            raise RulesError("a controbuio doubles a blind: allow the blind too")
        if self.parol_min_pair < self.min_pair:
            raise RulesError("the pair needed after a parol cannot be below the usual one")
        if self.blind_antes < 1:
            raise RulesError(f"blind_antes must be 1 or more antes, got {self.blind_antes}")
        if self.blind_size is BlindSize.ANTES and self.blind_allowed and self.ante == 0:
            raise RulesError(
                'blind_size="antes" makes the blind a multiple of the ante: it needs an ante'
            )
        if self.escalation is not Escalation.KINGS and self.all_pass is not AllPassPolicy.ESCALATE:
            raise RulesError(
                f"escalation={self.escalation.value!r} is the ladder of all_pass='escalate'; "
                f"with all_pass={self.all_pass.value!r} the requirement does not climb"
            )
        if not self.four_straight_flush_always and not self.four_straight_flush_opens:
            raise RulesError(
                "four_straight_flush_always=False bars 3.3(b) after a passed deal or a parol: "
                "it needs four_straight_flush_opens=True"
            )

    @property
    def chips_to_be_dealt_in(self) -> int:
        """The fewest chips a player needs to be dealt in: the most one deal can ask as antes
        (Art. 1), the dealer's extra ante included (003), and at least one chip."""
        return max(self.ante + self.dealer_ante, 1)

    @property
    def players_range(self) -> tuple[int, int]:
        """Seats allowed at the table (:meth:`with_options` lowers ``min_players`` with them)."""
        return (MIN_PLAYERS, MAX_PLAYERS)

    def to_dict(self) -> dict[str, Any]:
        """The rules as plain JSON-ready values. The options of :data:`ADDED_OPTIONS` are left
        out at their default: rules saved before those options existed (a hand history, a
        table's log) read back, and are written again, as they were."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in ADDED_OPTIONS and value == f.default:
                continue
            out[f.name] = (
                value.label
                if isinstance(value, Rank)
                else (value.value if isinstance(value, StrEnum) else value)
            )
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Rules from :meth:`to_dict`'s output; unknown keys are an error."""
        if not isinstance(data, dict) or not all(type(key) is str for key in data):
            raise RulesError(f"rules are a mapping of option names to values, not {data!r}")
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise RulesError(f"unknown rule option(s): {', '.join(unknown)}")
        return cls(**data)

    def with_options(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated again). Fewer seats than
        ``min_players`` (``preset("003").with_options(players=3)``) are the house's choice:
        unless ``min_players`` is changed too, the deal goes to all of them."""
        names = {f.name for f in fields(self)}
        unknown = sorted(set(changes) - names)
        if unknown:
            raise RulesError(f"unknown rule option(s): {', '.join(unknown)}")
        players = changes.get("players")
        if type(players) is int and players < self.min_players and "min_players" not in changes:
            changes["min_players"] = max(players, 2)
        return replace(self, **changes)


ADDED_OPTIONS = frozenset(
    {
        "min_players",
        "all_pass_same_dealer",
        "blind_after_all_pass",
        "blind_antes",
        "escalation",
        "four_straight_flush_always",
    }
)
"""Options that saved rules may lack: their defaults keep the game those rules were played under."""

_ENUM_FIELDS: dict[str, type[StrEnum]] = {
    "structure": BettingStructure,
    "blind_size": BlindSize,
    "direction": Direction,
    "all_pass": AllPassPolicy,
    "escalation": Escalation,
    "second_round_starter": SecondRoundStarter,
    "showdown_order": ShowdownOrder,
    "odd_chip": OddChip,
    "parol_latecomers": ParolLatecomers,
    "tiebreak": Tiebreak,
}


def _coerce_enums(rules: Rules) -> None:
    """Accept plain strings for enum options (as in JSON) and check them."""
    for name, enum_type in _ENUM_FIELDS.items():
        value = getattr(rules, name)
        try:
            object.__setattr__(rules, name, enum_type(value))
        except ValueError:
            choices = ", ".join(m.value for m in enum_type)
            raise RulesError(f"{name} must be one of {choices}; got {value!r}") from None
    for name in ("min_pair", "parol_min_pair"):
        try:
            object.__setattr__(rules, name, parse_min_pair(getattr(rules, name)))
        except ValueError as error:
            raise RulesError(f"{name}: {error}") from None


PRESETS: dict[str, Rules] = {
    "standard": Rules(),
    "001": Rules(
        name="001",
        structure=BettingStructure.SPREAD_LIMIT,
        second_round_doubled=True,
        blind_allowed=False,
        controbuio_allowed=False,
        over_allowed=False,
        four_straight_flush_opens=False,
        all_pass=AllPassPolicy.POT_STAYS,
        second_round_starter=SecondRoundStarter.FIRST_ROUND_STARTER,
        showdown_order=ShowdownOrder.LAST_BETTOR,
        muck_allowed=False,
    ),
    "002": Rules(
        name="002",
        blind_allowed=False,
        controbuio_allowed=False,
        over_allowed=False,
        four_straight_flush_opens=False,
        all_pass=AllPassPolicy.POT_STAYS,
        second_round_starter=SecondRoundStarter.OPENER,
        showdown_order=ShowdownOrder.LAST_AGGRESSOR,
        muck_allowed=True,
    ),
    "003": Rules(
        name="003",
        dealer_ante=1,
        blind_size=BlindSize.DOUBLE_POT,
        controbuio_allowed=False,
        over_allowed=False,
        direction=Direction.COUNTER_CLOCKWISE,
        all_pass=AllPassPolicy.RETURN_BETS,
        all_pass_same_dealer=True,
        blind_after_all_pass=False,
        min_players=4,
        discards_face_up=True,
    ),
    "fantini": Rules(name="fantini", tiebreak=Tiebreak.FANTINI),
}
"""Named presets: ``standard`` (000), ``001``, ``002``, ``003`` as written, and ``fantini``
(standard with the Fantini/Santelia tie-break of 002)."""


def preset(name: str, **changes: Any) -> Rules:
    """The preset called ``name``, with optional changes (e.g. ``players=5``), made as
    :meth:`Rules.with_options` makes them."""
    try:
        if type(name) is not str:
            raise KeyError(name)
        base = PRESETS[name]
    except KeyError:
        raise RulesError(
            f"unknown rules preset {name!r}; choose one of {', '.join(PRESETS)}"
        ) from None
    return base.with_options(**changes) if changes else base
