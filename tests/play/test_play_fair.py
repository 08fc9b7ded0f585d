"""The terminal game deals from fair decks (docs/fairness.md): every deal's history records
the commitment and every seated player's value, the seeds are revealed at the table's close
(``seeds.reveal``) or in each history, ``italian-poker verify`` verifies the session's folder,
and a seed makes the fair decks reproducible."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_play_session import NAMES, OPENER, PASSIVE, Scripted
from typer.testing import CliRunner

from italian_poker.cli.app import app
from italian_poker.engine.actions import ActionKind
from italian_poker.engine.errors import SeatError
from italian_poker.engine.fair_source import Reveal
from italian_poker.engine.history import loads
from italian_poker.engine.history.fairness import Verdict, verify_fair
from italian_poker.engine.rules import preset
from italian_poker.play.session import Session, SessionState
from italian_poker.play.storage import REVEAL_FILENAME, HistoryStore

K = ActionKind
HUMAN = Scripted(PASSIVE)


def fair_session(
    root: Path | None, *, seed: int | None = 1, reveal: Reveal = Reveal.CLOSE
) -> Session:
    """Four deals from fair decks: the bots open and change two cards, the human never bets."""
    bots = {name: Scripted(OPENER, discard=2) for name in NAMES[1:]}
    store = None if root is None else HistoryStore(root)
    session = Session(
        preset("standard"),
        NAMES,
        NAMES[0],
        bots,
        stack=100,
        seed=seed,
        store=store,
        fair=True,
        reveal=reveal,
    )
    while len(session.finished) < 4 and session.state is not SessionState.OVER:
        if session.state is SessionState.BETWEEN_DEALS:
            session.start_deal()
        elif session.state is SessionState.BOT_TURN:
            session.step()
        else:
            view = session.human_view()
            assert view is not None
            session.act(HUMAN.act(view))
    return session


def histories(session: Session) -> list[Path]:
    paths = [deal.history_path for deal in session.finished]
    assert all(paths)
    return [p for p in paths if p is not None]


def test_the_seeds_are_revealed_at_the_tables_close(tmp_path: Path) -> None:
    session = fair_session(tmp_path, seed=None)
    saved = histories(session)
    for path in saved:
        history = loads(path.read_text(encoding="utf-8"))
        assert history.fair is not None and history.fair.seed is None
        assert len(history.fair.values) == len(NAMES)
        assert history.fair.deal == history.number
        assert verify_fair(history).verdict is Verdict.UNREVEALED
    folder = saved[0].parent
    before = CliRunner().invoke(app, ["verify", str(folder)])
    assert before.exit_code == 0 and "0 verified, 4 unrevealed" in before.output
    revealed = session.reveal()
    assert revealed == folder / REVEAL_FILENAME
    result = CliRunner().invoke(app, ["verify", str(folder)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "4 verified"
    assert result.output.splitlines()[0] == f"deal 1: verified ({saved[0]})"


def test_the_seeds_go_in_each_history_when_revealed_at_each_deals_end(tmp_path: Path) -> None:
    session = fair_session(tmp_path, reveal=Reveal.DEAL)
    for path in histories(session):
        assert verify_fair(loads(path.read_text(encoding="utf-8"))).verdict is Verdict.VERIFIED
    assert session.reveal() is None
    assert not (tmp_path / REVEAL_FILENAME).exists()


def test_a_seed_makes_the_fair_decks_reproducible() -> None:
    first, second = fair_session(None), fair_session(None)
    assert [s.commitment for s in first.fair_decks.values()] == [
        s.commitment for s in second.fair_decks.values()
    ]
    assert [s.values for s in first.fair_decks.values()] == [
        s.values for s in second.fair_decks.values()
    ]
    unseeded = fair_session(None, seed=None)
    assert unseeded.fair_decks[1].commitment != first.fair_decks[1].commitment


def test_a_reveal_is_at_the_close_or_each_deals_end() -> None:
    with pytest.raises(SeatError, match="close or each deal's end"):
        Session(preset("standard"), NAMES, NAMES[0], {}, stack=100, reveal="never")  # type: ignore[arg-type]


def test_play_refuses_an_unknown_reveal() -> None:
    result = CliRunner().invoke(app, ["play", "--reveal", "never"])
    assert result.exit_code == 2
    assert "--reveal must be close or deal" in result.output
