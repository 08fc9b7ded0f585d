"""``italian-poker simulate``: bot-versus-bot deals and their JSON report."""

from __future__ import annotations

from typing import Annotated

import typer

from italian_poker.cli.errors import fail
from italian_poker.engine.deck import MAX_PLAYERS, MIN_PLAYERS
from italian_poker.engine.errors import ItalianPokerError
from italian_poker.engine.wording import count


def simulate(
    hands: Annotated[int, typer.Option(help="Deals to play (1 or more).")] = 1000,
    players: Annotated[int, typer.Option(help="Bots at the table (2-9).")] = 4,
    seed: Annotated[
        int | None, typer.Option(help="Seed for reproducible deals (default: random).")
    ] = None,
    rules: Annotated[
        str, typer.Option(help="Rules preset: standard, 001, 002, 003 or fantini.")
    ] = "standard",
    bots: Annotated[
        str,
        typer.Option(
            help="Bot level (random, simple, strong or expert) for every seat, or one per seat, "
            "comma-separated in seat order (e.g. strong,simple,simple,simple)."
        ),
    ] = "simple",
    stack: Annotated[int, typer.Option(help="Chips each bot starts and rebuys with.")] = 100,
    workers: Annotated[
        int,
        typer.Option(
            help="Local processes sharing the deals (the report for a --seed is the same for "
            "any number)."
        ),
    ] = 1,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            metavar="ADDRESS",
            help="Play the deals on the Ray cluster at ADDRESS (host:port, ray://host:port or "
            "auto) instead of --workers; needs the package's optional ray extra.",
        ),
    ] = None,
) -> None:
    """Play bot-versus-bot deals and print a JSON report (counts, chips, deals per second).

    The deals are played as matches of 250, each from the starting stacks."""
    import json

    from italian_poker.analysis.parallel import RayUnavailableError, simulate_matches
    from italian_poker.analysis.simulation import POLICIES
    from italian_poker.engine.rules import preset

    if hands < 1:
        raise fail(f"--hands must be 1 or more, got {hands}")
    if workers < 1:
        raise fail(f"--workers must be 1 or more, got {workers}")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise fail(f"--players must be {MIN_PLAYERS} to {MAX_PLAYERS}, got {players}")
    levels = [b.strip().lower() for b in bots.split(",")]
    if "" in levels:
        raise fail(
            f"--bots: a bot level is missing in {bots!r}; give one level for every seat or one "
            "for all, separated by commas (e.g. strong,simple,simple,simple)"
        )
    unknown = [level for level in levels if level not in POLICIES]
    if unknown:
        raise fail(f"--bots: unknown bot level {unknown[0]!r}; choose from {', '.join(POLICIES)}")
    if len(levels) not in (1, players):
        counts = f"{count(players, 'seat')}, {count(len(levels), 'level')}"
        raise fail(f"--bots needs one level for every seat or one for all: {counts}")
    try:
        table = preset(rules, players=players)
        report = simulate_matches(
            hands, players, seed, table, stack=stack, bots=levels, workers=workers, ray_address=ray
        )
    except (ItalianPokerError, ValueError, RayUnavailableError) as error:
        raise fail(str(error)) from None
    typer.echo(json.dumps(report.to_dict(), indent=2))
