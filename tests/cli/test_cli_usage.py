"""Bad command lines end with exit code 2 and one line, ``error: ...``, on standard error:
usage errors too (a bad number, an unknown option or value, a missing argument), as the
commands' own checks do. Help is still help."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from italian_poker.cli.app import app

runner = CliRunner()


@pytest.mark.parametrize(
    ("args", "start", "command"),
    [
        (
            ["rank", "--players", "abc", "Ah Kh Qh Jh Th"],
            "error: invalid value for '--players'",
            "rank",
        ),
        (
            ["rank", "--tiebreak", "bogus", "Ah Kh Qh Jh Th"],
            "error: invalid value for '--tiebreak'",
            "rank",
        ),
        (["rank"], "error: missing argument", "rank"),
        (["rank", "--bogus", "Ah Kh Qh Jh Th"], "error: no such option: --bogus", "rank"),
        (["simulate", "--hands", "x"], "error: invalid value for '--hands'", "simulate"),
        (["simulate", "--hands"], "error: option '--hands' requires an argument", None),
        (["simulate", "--players", "3.5"], "error: invalid value for '--players'", "simulate"),
        (["replay"], "error: missing argument", "replay"),
        (["replay", "a.phh", "b.phh"], "error: got unexpected extra argument(s) (b.phh)", "replay"),
        (["bogus"], "error: no such command 'bogus'", None),
        (["play", "--players", "many"], "error: invalid value for '--players'", "play"),
    ],
)
def test_usage_errors_are_one_line(args: list[str], start: str, command: str | None) -> None:
    """Typer printed these as a framed box of several lines under the usage text."""
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(start), lines[0]
    path = "italian-poker" if command is None else f"italian-poker {command}"
    assert lines[0].endswith(f" (see: {path} --help)")
    assert "╭" not in result.stderr and "Traceback" not in result.output


def test_help_is_still_printed() -> None:
    result = runner.invoke(app, ["rank", "--help"])
    assert result.exit_code == 0
    assert "--players" in result.stdout and "--tiebreak" in result.stdout
    bare = runner.invoke(app, [])
    assert bare.exit_code == 2  # no command: the help, as before
    assert "rank" in bare.output and "replay" in bare.output and "simulate" in bare.output
    assert "error:" not in bare.output


def test_serve_with_redis_and_sqlite_is_refused_before_it_starts(tmp_path: Path) -> None:
    """Several processes share one database server: --redis-url with SQLite's file is a
    usage error (exit 2) that says what to give, and no server starts."""
    url = f"sqlite:///{tmp_path / 'x.sqlite3'}"
    result = runner.invoke(
        app, ["serve", "--redis-url", "redis://127.0.0.1:1/0", "--database-url", url]
    )
    assert result.exit_code == 2
    assert "--database-url postgresql://" in result.output
    assert not (tmp_path / "x.sqlite3").exists()


def test_serve_refuses_a_trusted_proxy_that_is_no_address(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'x.sqlite3'}"
    result = runner.invoke(
        app, ["serve", "--trusted-proxy", "proxy.example", "--database-url", url]
    )
    assert result.exit_code == 2
    assert "trusted proxy 'proxy.example'" in result.output
    assert not (tmp_path / "x.sqlite3").exists()


def test_serve_hands_its_limits_to_the_server_and_uvicorn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import uvicorn

    from italian_poker.server.rate_limits import TABLE_CREATIONS, Rate

    ran: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: ran.update(app=app, **options))
    url = f"sqlite:///{tmp_path / 'x.sqlite3'}"
    common = ["serve", "--database-url", url]
    assert runner.invoke(app, common).exit_code == 0
    settings = ran["app"].state.server.settings
    assert settings.table_creations == TABLE_CREATIONS and settings.spectator_cap == 50
    assert settings.trusted_proxies == () and ran["forwarded_allow_ips"] == []
    result = runner.invoke(
        app,
        [
            *common,
            "--trusted-proxy",
            "127.0.0.1",
            "--trusted-proxy",
            "10.0.0.0/8",
            "--tables-per-hour",
            "5",
            "--seats-per-minute",
            "0",
            "--spectator-cap",
            "0",
        ],
    )
    assert result.exit_code == 0, result.output
    settings = ran["app"].state.server.settings
    assert settings.trusted_proxies == ("127.0.0.1", "10.0.0.0/8")
    assert ran["forwarded_allow_ips"] == ["127.0.0.1", "10.0.0.0/8"]
    assert settings.table_creations == Rate(5, 3600.0, 5)
    assert settings.seat_takes is None and settings.spectator_cap is None
