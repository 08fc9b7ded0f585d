"""The UI-free session: a human and scripted bots through whole deals (blind, opening, draw,
second round, showdown; parol with the 5.5 make-up; a passed deal), hand histories saved and
replayed, the summary. The scripted policies here are shared with the other play tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from engine_helpers import stacked_deck

from italian_poker.engine.actions import AMOUNT_KINDS, Action, ActionKind
from italian_poker.engine.cards import Card, Rank, parse_cards
from italian_poker.engine.deal import Outcome, Phase
from italian_poker.engine.errors import (
    ActionNotAvailableError,
    InvalidAmountError,
    InvalidDrawError,
    NotYourTurnError,
    SeatError,
)
from italian_poker.engine.history import loads, replay
from italian_poker.engine.observer import PublicView, SeatView
from italian_poker.engine.policy import Policy, makeup_due
from italian_poker.engine.rules import Rules, preset
from italian_poker.play.explain import summary_lines
from italian_poker.play.session import Session, SessionState, default_stack
from italian_poker.play.storage import HistoryStore
from italian_poker.table.commands import SitOut
from italian_poker.table.defaults import default_action
from italian_poker.table.events import OverReason
from italian_poker.table.narration import deal_report
from italian_poker.table.vocabulary import Language

K = ActionKind
PASSIVE = (K.DECLINE, K.PASS, K.CHECK, K.CALL, K.DRAW, K.SHOW, K.MAKE_UP)
"""Never bets: declines blinds, passes, checks, calls, stands pat, shows, makes up."""
PAROL_SAYER = (K.DECLINE, K.PASS, K.PAROL, K.CHECK, K.CALL, K.DRAW, K.SHOW, K.MAKE_UP)
OPENER = (K.DECLINE, K.OPEN, K.PASS, K.PAROL, K.CHECK, K.CALL, K.DRAW, K.SHOW, K.MAKE_UP)
FOLDER = (K.DECLINE, K.PASS, K.FOLD, K.CHECK, K.DRAW, K.SHOW, K.SIT_OUT)
NAMES = ("Player", "Anna", "Bruno", "Carla")


@dataclass
class Scripted:
    """A bot that takes the first legal action of ``prefer`` (amounts: the least allowed);
    the 5.5 make-up: ``MAKE_UP`` if preferred, else sit out. Keeps every view it was given."""

    prefer: Sequence[ActionKind] = PASSIVE
    discard: int = 0
    """Cards changed at the draw (the last ones in hand)."""
    seen: list[SeatView] = field(default_factory=list)

    def act(self, view: SeatView) -> Action:
        self.seen.append(view)
        if makeup_due(view) is not None:
            return Action(K.MAKE_UP if K.MAKE_UP in self.prefer else K.SIT_OUT)
        legal = {la.kind: la for la in view.legal_actions}
        for kind in self.prefer:
            if kind in legal:
                if kind is K.DRAW and self.discard:
                    return Action(kind, cards=view.hand[-self.discard :])
                amount = legal[kind].min_amount if kind in AMOUNT_KINDS else None
                return Action(kind, amount)
        raise AssertionError(f"no scripted action among {sorted(legal)}")


@dataclass
class Stubborn:
    """A bot that always answers ``action``, legal or not."""

    action: Action

    def act(self, view: SeatView) -> Action:
        return self.action


def new_session(
    prefer: Mapping[str, Sequence[ActionKind]] | None = None,
    *,
    rules: Rules | None = None,
    stack: int = 100,
    store: HistoryStore | None = None,
    names: Sequence[str] = NAMES,
    seed: int | None = 1,
) -> tuple[Session, dict[str, Scripted]]:
    """A session for ``names[0]`` (the human) against scripted bots (passive by default)."""
    table = rules or preset("standard", players=len(names))
    bots = {name: Scripted((prefer or {}).get(name, PASSIVE)) for name in names[1:]}
    session = Session(table, names, names[0], bots, stack=stack, seed=seed, store=store)
    return session, bots


def deck(hands: dict[int, str], stock: str = "", players: int = 4) -> tuple[Card, ...]:
    """A stacked deck for a session whose human (seat 0) sits left of the dealer (last seat)."""
    return stacked_deck(players, hands, dealer=players - 1, stock=stock)


FULL_DEAL_HANDS = {
    0: "Jh Jd 8c 9s Ac",  # the human: jacks open (3.3(a))
    1: "Kh Ks 7d 8d 9h",  # Anna: kings
    2: "7c 8h Tc Qd Kd",
    3: "7s 8s Ts Qs 9d",
}
FULL_DEAL_STOCK = "Js Ah"
"""The human changes 8c 9s and draws a full house, jacks full of aces."""


def session_at_human_draw() -> Session:
    """The full deal, the human having declined the blind and opened with jacks for 1: the
    human is to draw."""
    session, _ = new_session()
    session.start_deal(deck=deck(FULL_DEAL_HANDS, FULL_DEAL_STOCK))
    session.act(Action(K.DECLINE))
    session.play_bots()
    session.act(Action(K.OPEN, 1))
    session.play_bots()
    return session


def play_full_deal(session: Session) -> None:
    """Decline the blind, open, change two, bet, show: the scripted full deal."""
    assert session.legal_actions()[0].kind is K.BLIND  # Art. 2: before any card is seen
    view = session.human_view()
    assert view is not None and view.hand == ()
    session.act(Action(K.DECLINE))
    session.play_bots()
    session.act(Action(K.OPEN, 2))
    session.play_bots()
    view = session.human_view()
    assert view is not None and view.phase is Phase.DRAW
    session.act(session.draw_action([2, 3]))
    session.play_bots()
    session.act(Action(K.BET, 5))
    session.play_bots()
    assert session.state is not SessionState.HUMAN_TURN  # the table shows for you (5.4)
    session.play_bots()


def test_full_deal_blind_opening_draw_second_round_showdown(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path)
    session, bots = new_session(store=store)
    assert session.state is SessionState.BETWEEN_DEALS
    session.start_deal(deck=deck(FULL_DEAL_HANDS, FULL_DEAL_STOCK))
    assert session.state is SessionState.HUMAN_TURN  # the human sits at the dealer's left
    play_full_deal(session)
    assert session.state is SessionState.BETWEEN_DEALS
    (finished,) = session.finished
    result = finished.view.result
    assert result is not None and result.outcome is Outcome.WON
    assert result.winnings == {0: 1 * 4 + 2 * 4 + 5 * 4}  # antes, openings, bets
    assert finished.view.shown_ranks[0].describe("en").startswith("Full house")
    # Every bot was asked only through its own seat's view.
    for name, bot in bots.items():
        assert bot.seen and all(v.seat == v.names.index(name) for v in bot.seen)
    report = deal_report(finished, Language.EN)
    assert any("Player shows" in line and "Full house" in line for line in report)
    assert any("Player wins 32" in line and "higher category" in line for line in report)
    assert any("Player opened and proves it with J♥ J♦" in line for line in report)
    # The hand history is saved and replays to the same result.
    assert finished.history_path is not None
    assert finished.history_path.parent.parent == tmp_path
    deal = replay(loads(finished.history_path.read_text(encoding="utf-8")))
    assert deal.result is not None and deal.result.stacks == result.stacks


def test_illegal_human_actions_are_refused_and_change_nothing() -> None:
    session, _ = new_session()
    session.start_deal(deck=deck(FULL_DEAL_HANDS, FULL_DEAL_STOCK))
    session.act(Action(K.DECLINE))
    session.play_bots()
    before = session.human_view()
    with pytest.raises(InvalidAmountError, match="1 to 10"):
        session.act(Action(K.OPEN, 99))
    with pytest.raises(ActionNotAvailableError):
        session.act(Action(K.CHECK))
    assert session.human_view() == before
    assert session.state is SessionState.HUMAN_TURN
    session.act(Action(K.OPEN, 1))
    session.play_bots()
    before = session.human_view()
    with pytest.raises(InvalidDrawError, match="positions are 1 to 5, not 6"):
        session.draw_action([5])
    with pytest.raises(InvalidDrawError, match="at most 4"):
        session.act(session.draw_action([0, 1, 2, 3, 4]))  # 4.1
    assert session.human_view() == before
    with pytest.raises(NotYourTurnError):
        session.step()  # the human is to act, not a bot
    session.act(session.draw_action([]))  # servito
    assert session.state is SessionState.BOT_TURN
    with pytest.raises(NotYourTurnError, match="Anna is to act"):
        session.act(Action(K.CHECK))


def test_split_opening_is_announced_for_the_human_opener() -> None:
    session = session_at_human_draw()
    # Discarding one jack breaks the opening: 4.4 asks for the announcement.
    action = session.draw_action([0])
    assert action.split and action.cards == parse_cards("Jh")
    event = session.act(action)
    assert event.split and event.discards == parse_cards("Jh")


@pytest.mark.parametrize(("preset_name", "face_up"), [("standard", False), ("003", True)])
def test_bots_draws_show_how_many_cards_changed(preset_name: str, face_up: bool) -> None:
    session, bots = new_session(rules=preset(preset_name, players=4))
    bots["Anna"].discard = 3
    # The human opens with jacks (a stacked deck: the test never depends on a shuffle).
    session.start_deal(deck=deck(FULL_DEAL_HANDS, FULL_DEAL_STOCK))
    while session.state is not SessionState.BETWEEN_DEALS:
        view = session.human_view()
        assert view is not None
        if session.state is SessionState.BOT_TURN:
            event = session.step()
            if event.player == "Anna" and event.kind is K.DRAW:
                break
            continue
        kinds = {la.kind for la in session.legal_actions()}
        if view.phase is Phase.OPENING:
            session.act(Action(K.OPEN, 1) if K.OPEN in kinds else Action(K.PASS))
        else:
            session.act(Action(next(k for k in PASSIVE if k in kinds)))
    else:
        raise AssertionError("Anna never drew")
    # The human learns how many cards Anna changed; which ones only if face up (003).
    assert event.cards_changed == 3
    assert bool(event.discards) is face_up
    view = session.human_view()
    assert view is not None and view.cards_changed[1] == 3


def test_human_blind_deal_has_no_opening_to_prove() -> None:
    session, _ = new_session()
    session.start_deal(deck=deck(FULL_DEAL_HANDS, FULL_DEAL_STOCK))
    blind = session.legal_actions()[0]
    assert blind.kind is K.BLIND and blind.min_amount == 4  # Art. 2: equal to the pot
    session.act(Action(K.BLIND))
    session.play_bots()  # Anna declines the controbuio; everyone calls the blind
    assert {la.kind for la in session.legal_actions()} == {K.CHECK, K.RAISE}  # 2.5
    session.act(Action(K.CHECK))
    session.play_bots()
    session.act(session.draw_action([]))
    session.play_bots()
    session.act(Action(K.CHECK))
    session.play_bots()
    assert session.state is not SessionState.HUMAN_TURN  # the table shows for you (5.4)
    session.play_bots()
    (finished,) = session.finished
    report = deal_report(finished, Language.IT)
    assert any("Nessuna apertura da dimostrare" in line for line in report)


def test_parol_deal_then_the_human_makes_up_to_play() -> None:
    prefer = {"Anna": OPENER, "Bruno": PAROL_SAYER, "Carla": PAROL_SAYER}
    hands = {0: "7h 8c 9d Qs Kc", 1: "Ah Ad 7d 8d 9h"}
    session, _ = new_session(prefer)
    session.start_deal(deck=deck(hands))
    session.act(Action(K.DECLINE))
    session.play_bots()
    session.act(Action(K.PASS))
    session.play_bots()  # Anna opens for 1, Bruno and Carla call
    assert {la.kind for la in session.legal_actions()} == {K.FOLD, K.CALL, K.RAISE}
    session.act(Action(K.FOLD))
    session.play_bots()  # draw, then everyone says parol (5.4(a))
    (finished,) = session.finished
    result = finished.view.result
    assert result is not None and result.outcome is Outcome.PAROL
    assert result.makeups[0] == 1  # 5.5: the opening bet the human did not match
    assert finished.next_requirement.min_pair is Rank.KING
    report = deal_report(finished, Language.EN)
    assert any("Everyone said parol (5.4(a))" in line for line in report)
    assert any("Player folded in the first round" in line and "1 (5.5)" in line for line in report)
    assert any("Kings or better" in line for line in report)
    # The next deal begins with the human's 5.5 decision, then no blind is offered.
    session.start_deal()
    assert session.state is SessionState.HUMAN_TURN
    assert [la.kind for la in session.legal_actions()] == [K.MAKE_UP, K.SIT_OUT]
    event = session.act(Action(K.MAKE_UP))
    assert event.kind is K.MAKE_UP and event.amount == 1
    view = session.human_view()
    assert view is not None and view.phase is Phase.OPENING
    assert view.requirement.min_pair is Rank.KING


def fold_into_a_parol(session: Session) -> None:
    """The human (seat 0: no opening hand) declines the blind, passes and folds to Anna's
    opening; Bruno and Carla say parol: the deal is abandoned by parol (5.5)."""
    session.start_deal(deck=deck({0: "7h 8c 9d Qs Kc", 1: "Ah Ad 7d 8d 9h"}))
    for action in (K.DECLINE, K.PASS, K.FOLD):
        session.act(Action(action))
        session.play_bots()


def test_human_sits_out_after_parol_and_the_bots_play_on() -> None:
    prefer = {"Anna": OPENER, "Bruno": PAROL_SAYER, "Carla": PAROL_SAYER}
    session, _ = new_session(prefer)
    fold_into_a_parol(session)
    session.start_deal()
    session.act(Action(K.SIT_OUT))
    assert not session.human_in_deal and session.human_view() is None
    view = session.table_view()
    # The observer's public view: no hand, no legal action, no hidden field at all.
    assert isinstance(view, PublicView) and not hasattr(view, "hand")
    session.play_bots()
    assert len(session.finished) == 2 and not session.finished[1].human_in_deal
    assert session.state is SessionState.BETWEEN_DEALS


def test_no_deal_after_the_make_up_answers_is_reported() -> None:
    """5.5: with Bruno and Carla sitting out, the human's sit-out leaves Anna alone: the
    session reports the machine's ``NoDeal`` (the pot waits), and the next attempt asks the
    question again."""
    prefer = {"Anna": OPENER, "Bruno": PAROL_SAYER, "Carla": PAROL_SAYER}
    session, _ = new_session(prefer)
    fold_into_a_parol(session)
    session.machine.handle(SitOut(session.player_id("Bruno")))
    session.machine.handle(SitOut(session.player_id("Carla")))
    session.start_deal()
    assert session.no_deal is None
    session.act(Action(K.SIT_OUT))
    assert session.no_deal is not None and session.no_deal.carried == session.match.carried > 0
    assert session.state is SessionState.BETWEEN_DEALS and len(session.finished) == 1
    session.start_deal()
    assert session.no_deal is None
    assert [la.kind for la in session.legal_actions()] == [K.MAKE_UP, K.SIT_OUT]


def test_passed_deal_escalates_the_requirement() -> None:
    session, _ = new_session()
    session.start_deal(deck=deck(FULL_DEAL_HANDS))
    session.act(Action(K.DECLINE))
    session.play_bots()
    session.act(Action(K.PASS))
    session.play_bots()
    (finished,) = session.finished
    assert finished.outcome is Outcome.PASSED
    assert finished.next_requirement.min_pair is Rank.QUEEN  # 3.5: J -> Q
    report = deal_report(finished, Language.EN)
    assert report[1:4] == [
        "Your hand: J♥ J♦ A♣ 9♠ 8♣: Pair of Jacks",
        "Everyone passed (3.5): nobody opened and the pot of 4 stays for the next deal.",
        "Next deal: to open you need Queens or better (or four to a straight flush).",
    ]
    assert session.requirement.min_pair is Rank.QUEEN
    session.start_deal()
    view = session.human_view()
    assert view is not None and view.pot == 8  # the carried pot and four new antes


def test_passed_deal_under_003_returns_the_antes() -> None:
    session, _ = new_session(rules=preset("003", players=4))
    session.start_deal()  # 003 plays counter-clockwise: the human still speaks first
    assert session.state is SessionState.HUMAN_TURN
    while session.state is SessionState.HUMAN_TURN:
        kinds = {la.kind for la in session.legal_actions()}
        session.act(Action(K.DECLINE if K.DECLINE in kinds else K.PASS))
        session.play_bots()
    assert session.state is SessionState.BETWEEN_DEALS
    report = deal_report(session.finished[0], Language.IT)
    assert any("piatto di parole" in line for line in report)


def test_bot_choosing_an_illegal_action_plays_a_safe_one() -> None:
    table = preset("standard")
    bots: dict[str, Policy] = {
        "Anna": Stubborn(Action(K.RAISE, 999)),
        "Bruno": Scripted(),
        "Carla": Scripted(),
    }
    session = Session(table, NAMES, "Player", bots, stack=100, seed=1)
    session.start_deal(deck=deck(FULL_DEAL_HANDS))
    session.act(Action(K.DECLINE))
    session.act(Action(K.PASS))
    event = session.step()  # Anna cannot raise before the opening: she passes instead
    assert event.player == "Anna" and event.kind is K.PASS
    assert event.bot_error is not None and "raise 999" in event.bot_error


def test_fallback_prefers_what_costs_nothing() -> None:
    from italian_poker.engine.actions import LegalAction

    legal = (LegalAction(K.FOLD), LegalAction(K.CALL, 4, 4), LegalAction(K.RAISE, 5, 14))
    assert default_action(legal) == Action(K.FOLD)
    assert default_action((LegalAction(K.DRAW, max_cards=4),)) == Action(K.DRAW)
    with pytest.raises(ValueError):
        default_action(())


def test_summary_counts_deals_chips_and_pots(tmp_path: Path) -> None:
    session, _ = new_session(store=HistoryStore(tmp_path))
    session.start_deal(deck=deck(FULL_DEAL_HANDS, FULL_DEAL_STOCK))
    play_full_deal(session)
    # The deal passes to the left (Art. 1): the human deals, Anna speaks first.
    session.start_deal(deck=stacked_deck(4, FULL_DEAL_HANDS, dealer=0))
    session.play_bots()
    session.act(Action(K.PASS))
    session.play_bots()
    session.start_deal()  # left unfinished
    summary = session.summary()
    assert (summary.deals, summary.won, summary.passed, summary.parol) == (2, 1, 1, 0)
    assert summary.abandoned
    player, anna, *_ = summary.players
    assert (player.start, player.end, player.pots_won) == (100, 100 - 1 - 2 - 5 + 32 - 1, 1)
    assert anna.change == -1 - 2 - 5 - 1
    assert summary.biggest_pot is not None and summary.biggest_pot.winners == ("Player",)
    assert summary.histories is not None
    assert sorted(p.name for p in summary.histories.iterdir()) == [
        "deal-0001.phh",
        "deal-0002.phh",
    ]
    lines = summary_lines(summary, Language.EN)
    assert lines[1] == "Deals played: 2 (1 won, 1 passed, 0 abandoned by parol)"
    assert "Player: 100 → 123 (+23), 1 pot won" in lines
    assert any("left unfinished" in line for line in lines)
    assert any(str(summary.histories) in line for line in lines)
    # The passed deal's antes are still in the pot (3.5), no one's yet: no one pays.
    assert sum(p.change for p in summary.players) == -4
    assert "Settling up waits for the pot: 4 chips are still in it." in lines
    assert not any(" pays " in line for line in lines)


def bust_the_human() -> Session:
    """A heads-up session where the human (3 chips) loses them all to Anna."""
    opener_without_parol = [k for k in OPENER if k is not K.PAROL]
    session, _ = new_session(
        {"Anna": opener_without_parol},
        names=("Player", "Anna"),
        rules=preset("standard", players=2),
        stack=3,
    )
    hands = {0: "9h Th Qc Kd As", 1: "Ah Ad 9d Td Jc"}
    session.start_deal(deck=stacked_deck(2, hands, dealer=1))
    session.act(Action(K.DECLINE))
    session.play_bots()
    session.act(Action(K.PASS))
    session.play_bots()  # Anna opens for 1
    session.act(Action(K.CALL))
    session.play_bots()
    session.act(session.draw_action([]))
    session.play_bots()
    session.act(Action(K.BET, 1))  # all in
    session.play_bots()
    assert session.state is not SessionState.HUMAN_TURN  # the table shows for you (5.4)
    session.play_bots()
    return session


def test_human_busting_ends_the_session() -> None:
    session = bust_the_human()
    assert session.state is SessionState.OVER
    assert session.over_reason is OverReason.HUMAN_BUSTED
    summary = session.summary()
    assert summary.players[0].left and summary.players[0].end == 0
    assert "You have no chips left." in summary_lines(summary, Language.EN)


def test_a_busted_human_buys_back_in_and_plays_on() -> None:
    """The terminal's player is the host of their own table: their chip request (a rebuy of
    the starting stack) is approved at once, and they are back for the next deal."""
    session = bust_the_human()
    assert session.can_rebuy
    assert session.rebuy() == 3
    assert session.state is SessionState.BETWEEN_DEALS
    assert session.machine.chip_desk.approved == {0: 1}
    assert not session.can_rebuy  # seated again
    summary = session.summary()
    human = summary.players[0]
    assert (human.start, human.end, human.left) == (6, 3, False)
    session.start_deal()
    assert session.human_in_deal


def test_session_checks_its_players() -> None:
    table = preset("standard")
    with pytest.raises(SeatError, match="not among"):
        Session(table, NAMES, "Zoe", {}, stack=100)
    with pytest.raises(SeatError, match="no bot for Carla"):
        Session(table, NAMES, "Player", {"Anna": Scripted(), "Bruno": Scripted()}, stack=100)
    session, _ = new_session()
    session.start_deal()
    with pytest.raises(SeatError):
        session.start_deal()


def test_save_failure_is_reported_and_the_game_goes_on(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("", encoding="utf-8")
    session, _ = new_session(store=HistoryStore(blocker))
    session.start_deal(deck=deck(FULL_DEAL_HANDS))
    session.act(Action(K.DECLINE))
    session.play_bots()
    session.act(Action(K.PASS))
    session.play_bots()
    (finished,) = session.finished
    assert finished.history_path is None and finished.save_error
    assert session.state is SessionState.BETWEEN_DEALS


@pytest.mark.parametrize(
    ("name", "expected"), [("standard", 200), ("001", 400), ("002", 200), ("003", 200)]
)
def test_default_stack_suits_the_preset(name: str, expected: int) -> None:
    assert default_stack(preset(name)) == expected


def test_seeded_sessions_deal_the_same_cards() -> None:
    first, _ = new_session(seed=42)
    second, _ = new_session(seed=42)
    for session in (first, second):
        session.start_deal()
        session.act(Action(K.DECLINE))
    assert first.human_view() == second.human_view()
