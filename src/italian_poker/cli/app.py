"""The ``italian-poker`` Typer app: its commands, in the order its help lists them, and the
console script's entry point."""

from __future__ import annotations

import typer

from italian_poker.cli.advise import advise
from italian_poker.cli.errors import OneLineErrors
from italian_poker.cli.play import play
from italian_poker.cli.rank import rank
from italian_poker.cli.replay import replay
from italian_poker.cli.review import review
from italian_poker.cli.serve import serve
from italian_poker.cli.simulate import simulate
from italian_poker.cli.stats import stats
from italian_poker.cli.verify import verify

app = typer.Typer(
    name="italian-poker",
    cls=OneLineErrors,
    help="Italian Poker (poker all'italiana): play, rank hands, replay, verify fair decks, "
    "count statistics and simulate.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

for command in (play, rank, replay, verify, stats, advise, review, simulate, serve):
    app.command()(command)


def main() -> None:
    """Entry point of the ``italian-poker`` console script."""
    app()
