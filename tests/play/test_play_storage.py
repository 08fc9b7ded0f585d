"""Where the game keeps hand histories: the platform's data directory or
``ITALIAN_POKER_DATA_DIR``, one folder per session, files that sort by time."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from platformdirs import user_data_path

from italian_poker.play.storage import HistoryStore, histories_dir, history_filename
from italian_poker.table.paths import DATA_DIR_VARIABLE, data_dir


def test_data_dir_follows_the_platform_or_the_variable(tmp_path: Path) -> None:
    assert data_dir({}) == user_data_path("italian-poker")
    assert data_dir({DATA_DIR_VARIABLE: str(tmp_path)}) == tmp_path
    assert histories_dir({DATA_DIR_VARIABLE: str(tmp_path)}) == tmp_path / "histories"


def test_default_store_reads_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(DATA_DIR_VARIABLE, str(tmp_path))
    assert HistoryStore.default().root == tmp_path / "histories"


def test_file_and_folder_names_sort_by_time(tmp_path: Path) -> None:
    names = [history_filename(n) for n in (10, 2, 1)]
    assert sorted(names) == ["deal-0001.phh", "deal-0002.phh", "deal-0010.phh"]
    early = HistoryStore(tmp_path, datetime(2025, 1, 31, 9, 5, 7)).session_name
    late = HistoryStore(tmp_path, datetime(2025, 1, 31, 21, 0, 0)).session_name
    assert early == "2025-01-31_09-05-07" and early < late


def test_sessions_started_in_the_same_second_get_their_own_folders(tmp_path: Path) -> None:
    when = datetime(2025, 3, 1, 12, 0, 0)
    first = HistoryStore(tmp_path, when)
    second = HistoryStore(tmp_path, when)
    a = first.session_directory()
    b = second.session_directory()
    assert a != b and a.name == "2025-03-01_12-00-00" and b.name == "2025-03-01_12-00-00-2"
    assert first.session_directory() == a  # created once, then reused
