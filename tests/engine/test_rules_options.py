"""Rules: validation (RulesError for contradictions), the presets against their documents, and
a check that every option of :class:`Rules` has a scenario test somewhere in the suite."""

from __future__ import annotations

import importlib
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from engine_helpers import kinds, new_deal, new_match, rules, stacked_deck

from italian_poker import (
    PRESETS,
    Action,
    ActionKind,
    AllPassPolicy,
    BettingStructure,
    BlindSize,
    Direction,
    OddChip,
    Phase,
    PlayerCountError,
    Rank,
    Rules,
    RulesError,
    SecondRoundStarter,
    ShowdownOrder,
    Tiebreak,
    preset,
)
from italian_poker.engine.actions import call, draw, fold, open_, parol

# --- validation -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "changes",
    [
        {"players": 1},
        {"players": 10},
        {"players": "4"},
        {"ante": -1},
        {"dealer_ante": -1},
        {"ante": 1.5},
        {"ante": True},
        {"ante": 0},  # a blind equals the pot: it needs an ante
        {"structure": "fixed-limit", "small_bet": 0},
        {"structure": "fixed-limit", "big_bet": 0},
        {"min_bet": 0},
        {"min_bet": 5, "max_bet": 4},
        {"raise_cap": -1},
        {"min_players": 1},
        {"min_players": 5},  # more than the four seats
        {"min_players": 3.0},
        {"name": None},
        {"controbuio_allowed": False},  # the over doubles a controbuio
        {"blind_allowed": False},  # a controbuio doubles a blind
        {"min_pair": "Q", "parol_min_pair": "J"},  # 5.5 cannot ask less than 3.3
        {"min_pair": "10"},
        {"min_pair": Rank.TEN},
        {"structure": "unlimited"},
        {"direction": "sideways"},
        {"all_pass": "nothing"},
        {"tiebreak": "suitless"},
    ],
)
def test_rules_errors(changes: dict[str, Any]) -> None:
    """Contradictory or invalid options raise RulesError (a ValueError)."""
    with pytest.raises((RulesError, PlayerCountError)) as error:
        Rules(**changes)
    assert isinstance(error.value, ValueError)


def test_rules_accept_consistent_options() -> None:
    """Consistent combinations are accepted; strings become enums."""
    options: dict[str, Any] = {
        "ante": 0,
        "dealer_ante": 0,
        "blind_allowed": False,
        "controbuio_allowed": False,
        "over_allowed": False,
        "structure": "pot-limit",  # JSON-style strings are accepted
        "min_pair": "K",
        "parol_min_pair": "A",
    }
    table = Rules(**options)
    assert table.structure is BettingStructure.POT_LIMIT
    assert table.min_pair is Rank.KING and table.parol_min_pair is Rank.ACE
    assert Rules(over_allowed=False).controbuio_allowed
    assert Rules(min_bet=5, max_bet=5).max_bet == 5


def test_rules_round_trip_and_unknown_options() -> None:
    """to_dict/from_dict round-trip; unknown options and presets are errors."""
    for table in PRESETS.values():
        assert Rules.from_dict(table.to_dict()) == table
    with pytest.raises(RulesError):
        Rules.from_dict({"antes": 2})
    with pytest.raises(RulesError):
        Rules().with_options(colour="red")
    with pytest.raises(RulesError):
        preset("004")
    with pytest.raises(RulesError):
        Rules().with_options(max_bet=0)
    assert preset("standard", players=6).players == 6


# --- presets against their documents --------------------------------------------------------


def test_preset_standard_is_the_rulebook_000() -> None:
    """000: blinds of the pot, controbuio and over; clockwise; jacks, 3.3(b); escalation;
    the last raiser begins the second round; parol with kings after (5.5)."""
    table = preset("standard")
    assert table == Rules()
    assert table.blind_allowed and table.controbuio_allowed and table.over_allowed
    assert table.blind_size is BlindSize.POT
    assert table.direction is Direction.CLOCKWISE
    assert table.min_pair is Rank.JACK and table.four_straight_flush_opens
    assert table.all_pass is AllPassPolicy.ESCALATE
    assert table.opener_may_split
    assert table.second_round_starter is SecondRoundStarter.LAST_RAISER
    assert table.parol_allowed and table.parol_min_pair is Rank.KING
    assert table.tiebreak is Tiebreak.STANDARD


def test_preset_001() -> None:
    """001: limits doubled in the second round; the first-round starter begins it; show from
    the last bettor; the pot stays without escalation; jacks only."""
    table = preset("001")
    assert table.second_round_doubled
    assert table.structure is BettingStructure.SPREAD_LIMIT
    assert not table.blind_allowed
    assert table.all_pass is AllPassPolicy.POT_STAYS
    assert table.min_pair is Rank.JACK and not table.four_straight_flush_opens
    assert table.second_round_starter is SecondRoundStarter.FIRST_ROUND_STARTER
    assert table.showdown_order is ShowdownOrder.LAST_BETTOR
    assert not table.muck_allowed


def test_preset_002() -> None:
    """002: the opener begins the second round; last aggressor shows first; losers may muck;
    the pot stays after an all-pass deal."""
    table = preset("002")
    assert not table.blind_allowed
    assert table.all_pass is AllPassPolicy.POT_STAYS
    assert table.second_round_starter is SecondRoundStarter.OPENER
    assert table.showdown_order is ShowdownOrder.LAST_AGGRESSOR
    assert table.muck_allowed
    assert table.opener_may_split


def test_preset_003() -> None:
    """003: the dealer antes more; blind = double the pot; counter-clockwise; bets returned
    after an all-pass deal; discards face up; 4/5 of a straight flush opens."""
    table = preset("003")
    assert table.min_players == 4  # "i giocatori ammessi variano da 4 a 6"
    assert table.all_pass_same_dealer and not table.blind_after_all_pass  # a deal not played
    assert table.dealer_ante > 0
    assert table.blind_allowed and table.blind_size is BlindSize.DOUBLE_POT
    assert table.direction is Direction.COUNTER_CLOCKWISE
    assert table.all_pass is AllPassPolicy.RETURN_BETS
    assert table.discards_face_up
    assert table.four_straight_flush_opens
    assert table.min_pair is Rank.JACK


def test_preset_fantini() -> None:
    """002's Fantini/Santelia tie-break on the standard game."""
    assert preset("fantini") == Rules(name="fantini", tiebreak=Tiebreak.FANTINI)


# --- option scenarios not covered elsewhere --------------------------------------------------


def test_art2_over_not_allowed() -> None:
    """over_allowed=False: after a controbuio the cards are dealt at once."""
    deal = new_deal(Rules(over_allowed=False), {})
    deal.apply(Action(ActionKind.BLIND), 1)
    deal.apply(Action(ActionKind.CONTROBUIO), 2)
    assert deal.phase is Phase.FIRST_ROUND and deal.actor == 3


def test_art1_ante_sets_the_pot_and_the_blind() -> None:
    """Art. 1-2: everyone antes; the blind equals the pot so made."""
    deal = new_deal(Rules(ante=3), {})
    assert deal.pot == 12 and deal.stacks == [97] * 4
    assert deal.legal_actions()[0].min_amount == 12


def test_art5_5_parol_min_pair_option() -> None:
    """parol_min_pair: the pair needed on the deal after a parol (5.5: kings by default)."""
    match = new_match(rules(parol_min_pair="A"))
    match.start_deal(
        deck=stacked_deck(4, {1: "Jh Jc 7d 8s Ac", 2: "7s 9c Jd Kh Ad", 0: "9s Js Kd 7h 8d"})
    )
    for name, action in [
        ("P1", open_(2)),
        ("P2", call()),
        ("P3", fold()),
        ("P0", fold()),
        ("P1", draw()),
        ("P2", draw()),
        ("P1", parol()),
        ("P2", parol()),
    ]:
        match.apply(action, name)
    assert match.min_pair is Rank.ACE


def test_odd_chip_and_structure_enums_cover_the_documents() -> None:
    """Every enum option has the values its documents need."""
    assert {s.value for s in BettingStructure} == {
        "fixed-limit",
        "spread-limit",
        "pot-limit",
        "no-limit",
    }
    assert {o.value for o in OddChip} == {"first-after-dealer", "highest-suit"}
    assert kinds(new_deal(rules(), {})) <= {ActionKind.PASS, ActionKind.OPEN}


# --- every option has a scenario --------------------------------------------------------------

OPTION_TESTS: dict[str, list[str]] = {
    "name": ["test_rules_options::test_preset_fantini"],
    "players": [
        "test_deal_scenarios::test_art4_3_reshuffle_when_the_stock_runs_out",
        "test_rules_options::test_rules_errors",
    ],
    "min_players": ["test_match_referee::test_003_deals_four_to_six_players_never_heads_up"],
    "ante": ["test_rules_options::test_art1_ante_sets_the_pot_and_the_blind"],
    "dealer_ante": ["test_deal_scenarios::test_dealer_ante_003"],
    "structure": [
        "test_deal_scenarios::test_fixed_limit_small_and_big_bet",
        "test_deal_scenarios::test_pot_limit",
        "test_deal_scenarios::test_no_limit",
    ],
    "min_bet": ["test_deal_scenarios::test_spread_limit_and_second_round_doubled"],
    "max_bet": ["test_deal_scenarios::test_spread_limit_and_second_round_doubled"],
    "small_bet": ["test_deal_scenarios::test_fixed_limit_small_and_big_bet"],
    "big_bet": ["test_deal_scenarios::test_fixed_limit_small_and_big_bet"],
    "second_round_doubled": ["test_deal_scenarios::test_spread_limit_and_second_round_doubled"],
    "raise_cap": ["test_deal_scenarios::test_raise_cap"],
    "raise_cap_heads_up": [
        "test_full_raise::test_the_cap_is_lifted_heads_up",
        "test_full_raise::test_the_cap_binds_heads_up_under_the_option",
    ],
    "short_all_in_is_raise": [
        "test_full_raise::test_a_short_all_in_counts_toward_the_cap_under_the_option",
        "test_full_raise::test_art5_1_a_short_all_in_is_the_last_raiser_under_the_option",
    ],
    "short_all_ins_add_up": [
        "test_full_raise::test_fixed_two_short_all_ins_make_a_full_raise",
        "test_full_raise::test_short_all_ins_that_add_up_do_not_reopen_when_the_option_is_off",
    ],
    "blind_allowed": ["test_deal_scenarios::test_art2_no_blind_offered_without_the_option"],
    "blind_size": ["test_deal_scenarios::test_art2_003_blind_is_double_the_pot_counter_clockwise"],
    "controbuio_allowed": [
        "test_deal_scenarios::test_art2_003_blind_is_double_the_pot_counter_clockwise"
    ],
    "over_allowed": ["test_rules_options::test_art2_over_not_allowed"],
    "direction": [
        "test_deal_scenarios::test_art3_1_003_deal_counter_clockwise",
        "test_match_scenarios::test_art1_003_the_deal_passes_to_the_right",
    ],
    "min_pair": ["test_deal_scenarios::test_art3_3_opening_requirement_not_met"],
    "four_straight_flush_opens": ["test_deal_scenarios::test_art3_3_opening_requirement_not_met"],
    "all_pass": [
        "test_match_scenarios::test_art3_5_escalation_jacks_queens_kings_jacks",
        "test_match_scenarios::test_art3_5_001_pot_stays_without_escalation",
        "test_match_scenarios::test_art3_5_003_bets_returned_and_kings_next",
    ],
    "all_pass_same_dealer": [
        "test_match_referee::test_003_after_a_piatto_di_parole_the_same_dealer_deals_again"
    ],
    "blind_after_all_pass": ["test_match_referee::test_003_the_kings_only_deal_offers_no_blind"],
    "passed_players_may_play": [
        "test_deal_scenarios::test_art3_4_passed_players_may_call_or_raise",
        "test_deal_scenarios::test_art3_4_passed_players_out_when_the_option_is_off",
    ],
    "parol_latecomers": [
        "test_match_seating::test_parol_latecomer_makes_up_a_stayers_contribution",
        "test_match_seating::test_parol_latecomer_waits_under_the_wait_option",
        "test_match_seating::test_parol_latecomer_plays_for_the_ante_under_the_ante_option",
    ],
    "opener_must_prove": ["test_deal_scenarios::test_opener_need_not_prove_when_the_option_is_off"],
    "opener_may_split": ["test_deal_scenarios::test_art4_4_split_forbidden_by_the_option"],
    "discards_face_up": ["test_views::test_003_discards_face_up_are_public"],
    "second_round_starter": [
        "test_deal_scenarios::test_art5_1_000_last_raiser_begins",
        "test_deal_scenarios::test_art5_1_001_first_round_starter_begins",
        "test_deal_scenarios::test_art5_1_002_opener_begins_even_after_a_raise",
    ],
    "parol_allowed": ["test_deal_scenarios::test_parol_not_offered_when_the_option_is_off"],
    "parol_min_pair": ["test_rules_options::test_art5_5_parol_min_pair_option"],
    "showdown_order": [
        "test_deal_scenarios::test_showdown_001_last_bettor_shows_first",
        "test_deal_scenarios::test_showdown_002_first_bettor_then_last_raiser",
    ],
    "muck_allowed": ["test_deal_scenarios::test_showdown_no_muck_when_the_option_is_off"],
    "tiebreak": ["test_deal_scenarios::test_fantini_tiebreak_option_at_the_showdown"],
    "odd_chip": ["test_deal_scenarios::test_art7_3_three_way_split_and_odd_chip"],
    "escalation": [
        "test_house_options::test_art3_5_ladder_with_aces_after_kings",
        "test_house_options::test_art3_5_ladder_with_two_pair_after_kings",
    ],
    "blind_antes": ["test_house_options::test_art2_blind_of_antes"],
    "four_straight_flush_always": [
        "test_house_options::test_art3_3b_barred_after_a_passed_deal",
        "test_house_options::test_art5_5_3_3b_barred_after_a_parol",
    ],
}


def test_every_rules_option_has_a_scenario_test() -> None:
    """Each option of Rules is exercised by a named scenario test that exists."""
    assert set(OPTION_TESTS) == {f.name for f in fields(Rules)}
    for names in OPTION_TESTS.values():
        for qualified in names:
            module_name, test_name = qualified.split("::")
            module = importlib.import_module(module_name)
            assert callable(getattr(module, test_name, None)), qualified


@pytest.mark.parametrize("value", ["no", 0, 1, None, "false"])
def test_rules_on_off_options_must_be_true_or_false(value: object) -> None:
    """An on/off option given anything but a bool (``parol_allowed="no"``, which is truthy) was
    accepted as is; it is refused."""
    with pytest.raises(RulesError, match="true or false"):
        Rules(parol_allowed=value)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="true or false"):
        Rules().with_options(discards_face_up=value)


def test_every_rules_option_is_in_the_options_table_of_docs_rules_md() -> None:
    """docs/rules.md lists every option of Rules in its table, with its values and default."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")
    rows = {
        line.split("|")[1].strip().strip("`") for line in text.splitlines() if line[:3] == "| `"
    }
    missing = {f.name for f in fields(Rules)} - rows - {"name", "players"}
    assert not missing, f"not in docs/rules.md's options table: {sorted(missing)}"


def test_docs_rules_md_decides_the_readings_the_engine_makes() -> None:
    """The two readings docs/rules.md used to be silent on are decided there with a reason: a
    player joining while a parol pot is carried (``parol_latecomers``) and 003's deal
    "in senso orario a partire dal posto alla immediata destra del mazziere"."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")
    for heading in (
        "### A player who joins, or sits in, while a parol pot is carried",
        '### 003\'s deal "in senso orario a partire dal posto alla immediata destra del mazziere"',
    ):
        assert heading in text
        section = text.split(heading, 1)[1].split("\n### ", 1)[0]
        assert "**Decision**" in section and "**Reason**" in section
    assert preset("003").direction is Direction.COUNTER_CLOCKWISE
