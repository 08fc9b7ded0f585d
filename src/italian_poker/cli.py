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


def main() -> None:
    """Entry point of the ``italian-poker`` console script."""
    app()
