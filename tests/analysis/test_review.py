"""The review of a player's decisions (analysis/review.py): the draw against the advisor's
best keep, bets against the strong bot's equity and the pot odds or a fair share, and the
expected chips lost, 0 for a decision that matches."""

from __future__ import annotations

from pathlib import Path

import pytest
from review_fixtures import FLUSH, bot_session, flush_deal

from italian_poker.analysis.review import Reference, review, review_deal, review_lines
from italian_poker.engine.actions import Action, ActionKind
from italian_poker.engine.cards import parse_cards
from italian_poker.engine.deal import Phase
from italian_poker.engine.history import loads
from italian_poker.table.vocabulary import Language


def test_a_pat_flush_thrown_away_loses_chips_and_the_advisor_keeps_it() -> None:
    """Art. 4: seat 2 breaks a pat flush keeping three hearts; the advisor stands pat."""
    decisions = review_deal(flush_deal(), 2, "flush")
    draw = next(d for d in decisions if d.reference is Reference.DRAW)
    assert draw.action == 6 and draw.phase is Phase.DRAW
    assert draw.kept == parse_cards("Jh Qh Kh")
    assert draw.best_keep == parse_cards(FLUSH)
    assert draw.pot == 24  # 4 antes and two bets of 10, as the player drew
    assert draw.best_value > 0.9 > draw.value
    assert draw.loss == pytest.approx((draw.best_value - draw.value) * 24)
    assert not draw.matched


def test_decisions_that_match_the_advice_lose_nothing() -> None:
    """Seat 1 opens two pair (3.3(a)), changes its odd card and checks: all as advised."""
    decisions = review_deal(flush_deal(), 1, "flush")
    assert [(d.action, d.reference) for d in decisions] == [
        (1, Reference.FAIR_SHARE),
        (5, Reference.DRAW),
        (7, Reference.FAIR_SHARE),
    ]
    assert all(d.matched and d.loss == 0 for d in decisions)
    assert decisions[1].kept == decisions[1].best_keep == parse_cards("Ad As 8c 8d")
    assert [d.advised for d in decisions] == [ActionKind.OPEN, ActionKind.DRAW, ActionKind.CHECK]


def test_a_fold_above_the_pot_odds_loses_the_call_it_should_have_made() -> None:
    """Folding a pat flush to a bet of 10 into 14: the call would have been worth
    ``e * (P + C) - C``."""
    history = flush_deal(seat_two=Action(ActionKind.FOLD))
    (fold,) = review_deal(history, 2, "fold")
    assert fold.reference is Reference.POT_ODDS
    assert (fold.done, fold.advised) == (ActionKind.FOLD, ActionKind.CALL)
    assert (fold.pot, fold.to_call) == (14, 10)
    assert fold.best_value == pytest.approx(10 / 24)  # the pot odds
    assert fold.value > fold.best_value
    assert fold.loss == pytest.approx(fold.value * 24 - 10)


def test_the_review_of_bot_sessions_adds_up(tmp_path: Path) -> None:
    """Over deals played by bots: only the player's decisions, each loss 0 exactly when it
    matched, the totals the sum of the decisions, the worst the largest losses."""
    paths = bot_session(tmp_path, deals=6)
    histories = [(str(p), loads(p.read_text(encoding="utf-8"))) for p in paths]
    result = review(histories, "Player")
    # Only the deals the player was dealt into (one may sit out a deal after a parol, 5.5).
    played = tuple(path for path, history in histories if "Player" in history.names)
    assert len(played) >= len(paths) - 1
    assert result.deals == played
    assert result.decisions
    for decision in result.decisions:
        history = dict(histories)[decision.deal]
        assert history.actions[decision.action - 1].seat == 0  # the player's own action
        assert decision.loss >= 0
        assert decision.matched == (decision.loss == 0)
    assert result.matched == sum(d.loss == 0 for d in result.decisions)
    assert result.loss == pytest.approx(sum(d.loss for d in result.decisions))
    assert result.per_deal == pytest.approx(result.loss / len(played))
    worst = result.worst(3)
    assert [d.loss for d in worst] == sorted((d.loss for d in result.decisions), reverse=True)[
        : len(worst)
    ]
    assert all(d.loss > 0 for d in worst)


def test_a_player_not_dealt_in_has_nothing_reviewed() -> None:
    result = review([("flush", flush_deal())], "Nobody")
    assert result.deals == () and result.decisions == () and result.per_deal == 0


def test_the_review_in_both_languages() -> None:
    result = review([("flush.phh", flush_deal())], "P2")
    english = review_lines(result, Language.EN)
    assert english[0] == "Review of P2: 1 deal, 3 decisions reviewed, 2 as advised"
    assert english[2] == "Costliest decisions:"
    assert english[3].startswith("- flush.phh, action 6: kept Jh Qh Kh (win ")
    assert "the advisor keeps 7h 9h Jh Qh Kh" in english[3]
    italian = review_lines(result, Language.IT)
    assert italian[0] == "Revisione di P2: 1 mano, 3 decisioni riviste, 2 come consigliato"
    assert italian[1].startswith("Fiches perse attese (una stima): ")
    assert "il consigliere tiene 7h 9h Jh Qh Kh" in italian[3]
