"""The ``italian-poker`` command line."""

from __future__ import annotations

from typing import Annotated

import typer

from italian_poker.engine.cards import format_cards, parse_cards
from italian_poker.engine.errors import ItalianPokerError
from italian_poker.engine.hand_rank import Tiebreak, best_ranks, evaluate

app = typer.Typer(
    name="italian-poker",
    help="Italian Poker (poker all'italiana): play, rank hands, replay and simulate.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def fail(message: str) -> typer.Exit:
    """Print ``message`` as an error and return the exit (code 2) to raise."""
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(code=2)


@app.command()
def play() -> None:
    """Play Italian Poker in the terminal against bots."""
    typer.echo(
        "The terminal game is coming in the next release. Meanwhile try:\n"
        '  italian-poker rank --players 4 "Ah Kh Qh Jh Th" "7h 8h 9h Th Jh"'
    )


@app.command()
def rank(
    hands: Annotated[list[str], typer.Argument(help='Five-card hands, e.g. "Ah Kh Qh Jh Th".')],
    players: Annotated[int, typer.Option(help="Players at the table (2-9): sets the deck.")] = 4,
    tiebreak: Annotated[
        Tiebreak, typer.Option(help="Suit tie-break: standard (7.4) or fantini.")
    ] = Tiebreak.STANDARD,
) -> None:
    """Rank hands and name the winner(s)."""
    try:
        parsed = [parse_cards(text) for text in hands]
        ranks = [evaluate(hand, players=players, tiebreak=tiebreak) for hand in parsed]
    except ItalianPokerError as error:
        raise fail(str(error)) from None
    for i, (hand, hand_rank) in enumerate(zip(parsed, ranks, strict=True), start=1):
        typer.echo(
            f"{i}. {format_cards(hand)}  {hand_rank.description} / {hand_rank.description_it}"
        )
    best = best_ranks(ranks)
    if len(hands) > 1:
        names = ", ".join(str(i + 1) for i in best)
        if len(best) > 1:
            typer.echo(f"Split pot: hands {names}")
        else:
            typer.echo(f"Winner: hand {names}")


@app.command()
def replay(
    path: Annotated[
        str, typer.Argument(help="A hand history (.phh) file, or a directory of them.")
    ],
    json_output: Annotated[
        bool, typer.Option("--json", help="Print the final stacks and pot awards as JSON.")
    ] = False,
) -> None:
    """Verify a hand history by replaying every action, and print it (docs/hand-history.md)."""
    import json
    from pathlib import Path

    from italian_poker.engine.history import describe, loads, summary
    from italian_poker.engine.history import replay as replay_history

    target = Path(path)
    files = sorted(target.glob("*.phh")) if target.is_dir() else [target]
    if not files:
        raise fail(f"no .phh files in {path}")
    summaries = []
    for file in files:
        try:
            history = loads(file.read_text(encoding="utf-8"))
            deal = replay_history(history)
        except OSError as error:
            raise fail(f"{file}: cannot read: {error.strerror or error}") from None
        except (ItalianPokerError, UnicodeDecodeError) as error:
            raise fail(f"{file}: {error}") from None
        if json_output:
            summaries.append({"file": str(file), **summary(history, deal)})
        else:
            if len(files) > 1:
                typer.echo(f"== {file}")
            typer.echo("\n".join(describe(history, deal)))
            typer.echo(f"Verified: every action replays and the result matches ({file.name}).")
    if json_output:
        typer.echo(json.dumps(summaries[0] if len(files) == 1 else summaries, indent=2))


@app.command()
def simulate(
    hands: Annotated[int, typer.Option(help="Deals to play (1 or more).")] = 1000,
    players: Annotated[int, typer.Option(help="Bots at the table (2-9).")] = 4,
    seed: Annotated[
        int | None, typer.Option(help="Seed for reproducible deals (default: random).")
    ] = None,
    rules: Annotated[
        str, typer.Option(help="Rules preset: standard, 001, 002, 003 or fantini.")
    ] = "standard",
    policy: Annotated[str, typer.Option(help="Bots: simple or random.")] = "simple",
    stack: Annotated[int, typer.Option(help="Chips each bot starts and rebuys with.")] = 100,
) -> None:
    """Play bot-versus-bot deals and print a JSON report (counts, chips, deals per second)."""
    import json

    from italian_poker.analysis.simulation import POLICIES
    from italian_poker.analysis.simulation import simulate as run_simulation
    from italian_poker.engine.rules import preset

    if hands < 1:
        raise fail(f"--hands must be 1 or more, got {hands}")
    if not 2 <= players <= 9:
        raise fail(f"--players must be 2 to 9, got {players}")
    if policy not in POLICIES:
        raise fail(f"--policy must be one of {', '.join(POLICIES)}, got {policy!r}")
    try:
        table = preset(rules, players=players)
        report = run_simulation(hands, players, seed, table, stack=stack, policy=policy)
    except (ItalianPokerError, ValueError) as error:
        raise fail(str(error)) from None
    typer.echo(json.dumps(report.to_dict(), indent=2))


def main() -> None:
    """Entry point of the ``italian-poker`` console script."""
    app()
