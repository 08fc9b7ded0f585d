"""``italian-poker rank``: rank hands and name the winner(s)."""

from __future__ import annotations

from typing import Annotated

import typer

from italian_poker.cli.errors import fail
from italian_poker.engine.cards import format_cards
from italian_poker.engine.errors import ItalianPokerError
from italian_poker.engine.hand_rank import Tiebreak, best_ranks, evaluate, read_hands


def rank(
    hands: Annotated[list[str], typer.Argument(help='Five-card hands, e.g. "Ah Kh Qh Jh Th".')],
    players: Annotated[int, typer.Option(help="Players at the table (2-9): sets the deck.")] = 4,
    tiebreak: Annotated[
        Tiebreak, typer.Option(help="Suit tie-break: standard (7.4) or fantini.")
    ] = Tiebreak.STANDARD,
) -> None:
    """Rank hands and name the winner(s)."""
    try:
        parsed = read_hands(hands, players=players)  # one deck: no card in two hands
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
