"""Players' statistics over hand histories (``italian_poker.table.statistics``): the
documented examples counted by hand, passed deals and parols whose pots carry on (3.5,
5.4(a), 5.5), split pots and side pots, and properties over seeded random matches of every
preset: nets add up to the carried chips, each player's net is their stack's change over the
match, every count is bounded by the deals played."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from pathlib import Path

import pytest
from engine_helpers import apply_random
from hypothesis import given, settings
from hypothesis import strategies as st

from italian_poker.engine.actions import Action, ActionKind
from italian_poker.engine.card_source import SeededSource
from italian_poker.engine.deal import Deal, DealStart, Outcome, PotAward
from italian_poker.engine.history import HandHistory, HistoryAction, dumps, loads
from italian_poker.engine.match import Match, MatchPhase
from italian_poker.engine.rules import PRESETS, Rules, preset
from italian_poker.table.statistics import (
    COLUMNS,
    PlayerStatistics,
    Statistics,
    StatisticsTotals,
    pots_won,
    signed,
    statistics_lines,
    statistics_of,
)
from italian_poker.table.vocabulary import MESSAGES, Language, tr

DOCS = Path(__file__).resolve().parents[2] / "docs" / "hand-history.md"
NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Ivo", "Luca")


def documented(index: int) -> HandHistory:
    """Example ``index`` (0-based) of docs/hand-history.md."""
    text = re.findall(r"```toml\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S)[index]
    return loads(text)


def rows(statistics: Statistics) -> dict[str, PlayerStatistics]:
    return {row.name: row for row in statistics.players}


def played_match(name: str, players: int, seed: int, deals: int) -> Match:
    """A match of up to ``deals`` deals of random legal play (5.5 answers at random)."""
    rng = random.Random(seed)
    stacks = [rng.choice([20, 60, 200]) for _ in range(players)]
    match = Match(preset(name, players=players), list(zip(NAMES, stacks, strict=False)), seed=seed)
    while len(match.completed) < deals and match.phase is not MatchPhase.OVER:
        match.start_deal(seed=rng.randrange(10**6))
        while match.actor is not None:
            if match.phase is MatchPhase.IN_DEAL:
                apply_random(match, rng)
            else:
                match.apply(Action(rng.choice([ActionKind.MAKE_UP, ActionKind.SIT_OUT])))
    return match


def histories_of(match: Match) -> list[HandHistory]:
    return [HandHistory.from_completed(completed) for completed in match.completed]


# --- the documented deals, counted by hand ---------------------------------------------------


def test_example_1_an_opening_and_a_showdown() -> None:
    """Carla opens (3.3), Dario and Carla go to the showdown, Carla's straight takes the 26."""
    counted = statistics_of([documented(0)])
    assert counted.players == (
        PlayerStatistics("Anna", 1, 0, 0, 0, 0, -3, 0),
        PlayerStatistics("Bruno", 1, 0, 0, 0, 0, -1, 0),
        PlayerStatistics("Carla", 1, 1, 1, 1, 0, +15, 26),
        PlayerStatistics("Dario", 1, 0, 1, 0, 0, -11, 0),
    )
    assert counted.totals == StatisticsTotals(
        deals=1,
        opened=1,
        passed=0,
        parols=0,
        showdowns=1,
        carried_in=0,
        carried_out=0,
        net=0,
        unfinished=0,
    )


def test_example_2_a_blind_is_no_opening() -> None:
    """Bruno's buio and Carla's controbuio (Art. 2): nobody opens; Dario wins the 38."""
    counted = rows(statistics_of([documented(1)]))
    assert [row.opened for row in counted.values()] == [0, 0, 0, 0]
    assert counted["Dario"] == PlayerStatistics("Dario", 1, 0, 1, 1, 0, +24, 38)
    assert counted["Carla"] == PlayerStatistics("Carla", 1, 0, 1, 0, 0, -14, 0)
    assert counted["Bruno"].showdowns == 0 and counted["Bruno"].net == -9


def test_the_same_name_at_two_tables_is_one_player() -> None:
    counted = statistics_of([documented(0), documented(1)])
    assert [row.name for row in counted.players] == ["Anna", "Bruno", "Carla", "Dario"]
    assert rows(counted)["Carla"].played == 2 and rows(counted)["Carla"].net == 15 - 14
    assert counted.totals.deals == 2 and counted.totals.showdowns == 2


# --- carried pots ------------------------------------------------------------------------------


def all_pass_then_play(rules: Rules) -> Match:
    """Deal 1: everyone declines the blind and passes (3.5); deal 2 and on: random play
    until a deal is won."""
    match = Match(rules, [(name, 50) for name in NAMES[:3]], seed=4)
    match.start_deal(seed=1)
    while match.actor is not None:
        kinds = {legal.kind for legal in match.legal_actions()}
        match.apply(Action(ActionKind.DECLINE if ActionKind.DECLINE in kinds else ActionKind.PASS))
    rng = random.Random(2)
    while match.completed[-1].result.carried:
        match.start_deal(seed=rng.randrange(10**6))
        while match.actor is not None:
            apply_random(match, rng)
    return match


def test_a_passed_deal_costs_each_player_the_ante_until_a_deal_awards_the_pot() -> None:
    """3.5: the antes stay in the pot; nobody's net has them until the deal that awards
    them, so a passed deal's nets add up to minus the chips it carries out."""
    match = all_pass_then_play(preset("standard", players=3))
    histories = histories_of(match)
    assert histories[0].result is not None and histories[0].result.outcome is Outcome.PASSED
    first = statistics_of(histories[:1])
    assert [row.net for row in first.players] == [-1, -1, -1]
    assert [row.opened for row in first.players] == [0, 0, 0]
    assert first.totals.passed == 1 and first.totals.carried_out == 3
    assert first.totals.net == -3 == first.totals.carried_in - first.totals.carried_out
    whole = statistics_of(histories)
    assert whole.totals.net == 0  # the carried pot was won: every chip is in someone's net
    assert whole.totals.carried_in == whole.totals.carried_out
    assert sum(row.biggest_pot for row in whole.players) >= 3  # the pot held the antes


def test_a_passed_deal_with_the_bets_returned_costs_nothing() -> None:
    """003's piatto di parole (3.5): the antes go back; nothing is carried."""
    rules = preset("standard", players=3).with_options(all_pass="return-bets")
    history = histories_of(all_pass_then_play(rules))[0]
    counted = statistics_of([history])
    assert counted.totals.passed == 1 and counted.totals.carried_out == 0
    assert [row.net for row in counted.players] == [0, 0, 0]


def test_a_parol_carries_the_pot_and_a_make_up_is_in_the_net() -> None:
    """5.4(a): everyone says parol and the pot carries; 5.5: a first-round folder who plays
    the next deal makes up their contribution, which their net includes."""
    for seed in range(200):
        histories = histories_of(played_match("standard", 4, seed, 12))
        outcomes = [h.result.outcome if h.result else None for h in histories]
        parol = [k for k, outcome in enumerate(outcomes) if outcome is Outcome.PAROL]
        made_up = [k for k, h in enumerate(histories) if any(h.makeups)]
        if parol and made_up:
            break
    else:
        pytest.fail("no parol with a make-up in 200 random matches")
    after = histories[made_up[0]]
    assert after.carried > 0
    counted = statistics_of([after])
    assert counted.totals.parols == 0 and counted.totals.carried_in == after.carried
    payer = next(seat for seat, paid in enumerate(after.makeups) if paid)
    assert after.result is not None
    net = after.result.stacks[payer] - after.stacks[payer]
    assert rows(counted)[after.names[payer]].net == net
    assert statistics_of([histories[parol[0]]]).totals.parols == 1


# --- split pots and side pots ------------------------------------------------------------------


def with_awards(history: HandHistory, awards: tuple[PotAward, ...]) -> HandHistory:
    """``history`` with other pot awards, the finishing stacks following them (what the
    statistics read; a history like this need not replay)."""
    assert history.result is not None
    old = history.result.winnings
    new = [0] * len(history.names)
    for award in awards:
        for seat, share in zip(award.winners, award.shares, strict=True):
            new[seat] += share
    stacks = tuple(s - o + n for s, o, n in zip(history.result.stacks, old, new, strict=True))
    return replace(history, result=replace(history.result, awards=awards, stacks=stacks))


def test_each_sharer_of_a_split_pot_wins_at_the_showdown() -> None:
    """7.3: a split pot; each sharer counts a showdown won and their share as the pot."""
    split = with_awards(documented(0), (PotAward(26, (2, 3), (2, 3), (13, 13), "split"),))
    counted = rows(statistics_of([split]))
    for name in ("Carla", "Dario"):
        assert counted[name].showdowns_won == 1 and counted[name].biggest_pot == 13
    assert statistics_of([split]).totals.net == 0


def test_a_side_pot_only_one_player_could_win_is_no_pot_won() -> None:
    """Table stakes: chips bet beyond what the others could match come back as a pot of one
    eligible player; that player lost the pot they contested."""
    side = with_awards(
        documented(0),
        (
            PotAward(20, (2, 3), (3,), (20,), "best hand"),
            PotAward(6, (2,), (2,), (6,), "only eligible"),
        ),
    )
    assert side.result is not None
    assert pots_won(side.result) == {3: 20}
    counted = rows(statistics_of([side]))
    assert counted["Carla"].showdowns_won == 0 and counted["Carla"].biggest_pot == 0
    assert counted["Dario"].showdowns_won == 1 and counted["Dario"].biggest_pot == 20
    assert counted["Carla"].net == 115 - 26 + 6 - 100  # her own 6 came back: no pot won
    contested_side = with_awards(
        documented(0),
        (
            PotAward(20, (2, 3), (3,), (20,), "best hand"),
            PotAward(6, (2, 3), (2,), (6,), "best hand"),
        ),
    )
    assert rows(statistics_of([contested_side]))["Carla"].showdowns_won == 1


def test_a_muck_is_a_showdown_lost() -> None:
    """002: a losing hand may be mucked at the showdown: the player went to the showdown."""
    for seed in range(100):
        for history in histories_of(played_match("002", 4, seed, 6)):
            muckers = {a.seat for a in history.actions if a.action.kind is ActionKind.MUCK}
            if muckers:
                counted = rows(statistics_of([history]))
                for seat in muckers:
                    row = counted[history.names[seat]]
                    assert (row.showdowns, row.showdowns_won) == (1, 0)
                return
    pytest.fail("no muck in 100 random matches under 002")


# --- what is read ---------------------------------------------------------------------------


def public_only(history: HandHistory) -> HandHistory:
    """``history`` with every card gone: no dealt cards, draws and shows without their
    cards."""
    actions = tuple(
        HistoryAction(a.seat, Action(a.action.kind, a.action.amount, (), a.action.split))
        for a in history.actions
    )
    return replace(history, dealt=(), actions=actions)


def test_no_card_is_read() -> None:
    """The statistics are public: the same without any card of the deal."""
    histories = histories_of(played_match("standard", 5, 7, 20))
    assert statistics_of(map(public_only, histories)) == statistics_of(histories)


def test_a_deal_not_over_is_left_out_and_counted_so() -> None:
    deal = Deal(DealStart(Rules(), NAMES[:3], (20, 20, 20)), SeededSource(3))
    deal.apply(Action(ActionKind.DECLINE))
    counted = statistics_of([HandHistory.from_deal(deal), documented(0)])
    assert counted.totals.unfinished == 1 and counted.totals.deals == 1
    assert [row.name for row in counted.players] == ["Anna", "Bruno", "Carla", "Dario"]
    empty = statistics_of([HandHistory.from_deal(deal)])
    assert empty.players == () and empty.totals.deals == 0
    assert statistics_lines(empty, Language.EN) == [
        "No deal is finished yet.",
        "1 deal not over, left out",
    ]


# --- in words -------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", [Language.EN, Language.IT])
def test_the_table_in_words(lang: Language) -> None:
    counted = statistics_of([documented(0), documented(1)])
    lines = statistics_lines(counted, lang)
    assert lines[0] == tr(lang, "stats_title")
    assert lines[1].split("  ")[0] == tr(lang, "stats_player")
    for _, key in COLUMNS:
        assert tr(lang, key) in lines[1]
    carla = next(line for line in lines if line.startswith("Carla"))
    assert carla.split() == ["Carla", "2", "1", "2", "1", "0", "+1", "26"]
    assert len({len(line) for line in lines[1:7]}) == 1  # the columns line up
    assert lines[-2] == tr(lang, "stats_deals", deals=2, opened=1, passed=0, parols=0, showdowns=2)
    assert lines[-1] == tr(lang, "stats_carried", carried_in=0, carried_out=0, net="0")


def test_the_words_are_the_vocabularys_in_both_languages() -> None:
    lines = statistics_lines(statistics_of([documented(0)]), Language.IT)
    assert lines[0] == "Statistiche" and "Piatto più grande" in lines[1]
    assert lines[-2] == "1 mano: 1 aperta, 0 passate, 0 abbandonate con parola, 1 allo showdown"
    for _, key in COLUMNS:
        english, italian = MESSAGES[key]
        assert english and italian
    assert [signed(n) for n in (14, -3, 0)] == ["+14", "-3", "0"]


# --- properties over random matches ----------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(
    name=st.sampled_from(sorted(PRESETS)),
    players=st.integers(2, 9),
    seed=st.integers(0, 10**6),
    deals=st.integers(1, 12),
)
def test_counts_and_chips_add_up_over_any_match(
    name: str, players: int, seed: int, deals: int
) -> None:
    match = played_match(name, players, seed, deals)
    histories = histories_of(match)
    counted = statistics_of(histories)
    totals = counted.totals
    assert totals.deals == len(histories) and totals.unfinished == 0
    # The nets add up to the chips the pots carried in less those they carried on; over a
    # whole match from its first deal, to minus the pot still carried after the last.
    assert sum(row.net for row in counted.players) == totals.net
    assert totals.net == totals.carried_in - totals.carried_out
    assert totals.net == -match.completed[-1].result.carried
    # Each player's net is the change of their stack over the match.
    first_stacks: dict[str, int] = {}
    last_stacks: dict[str, int] = {}
    for completed in match.completed:
        for seat, player in enumerate(completed.start.names):
            first_stacks.setdefault(player, completed.start.stacks[seat])
            last_stacks[player] = completed.result.stacks[seat]
    for row in counted.players:
        assert row.net == last_stacks[row.name] - first_stacks[row.name], row
    # Every count is bounded by the deals the player played, and adds up across players.
    for row in counted.players:
        assert 0 <= row.opened <= row.played <= totals.deals
        assert row.showdowns_won <= row.showdowns <= row.played
        assert row.showdowns + row.won_without_showdown <= row.played
        assert (row.biggest_pot > 0) <= (row.showdowns_won + row.won_without_showdown > 0)
    assert sum(row.played for row in counted.players) == sum(len(h.names) for h in histories)
    assert sum(row.opened for row in counted.players) == totals.opened
    won = sum(1 for h in histories if h.result is not None and h.result.outcome is Outcome.WON)
    assert won + totals.passed + totals.parols == totals.deals
    assert totals.showdowns <= won
    assert sum(row.won_without_showdown for row in counted.players) == won - totals.showdowns
    assert sum(row.showdowns_won for row in counted.players) >= totals.showdowns
    # The text written and read back counts the same; so does any order of the deals.
    assert statistics_of(loads(dumps(h)) for h in histories) == counted
    shuffled = statistics_of(reversed(histories))
    assert sorted(shuffled.players, key=lambda r: r.name) == sorted(
        counted.players, key=lambda r: r.name
    )
    assert shuffled.totals == totals
