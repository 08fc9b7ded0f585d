"""``italian-poker replay``: verify and print saved hand histories."""

from __future__ import annotations

from typing import Annotated

import typer

from italian_poker.cli.errors import fail
from italian_poker.engine.errors import ItalianPokerError


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
    files = sorted(f for f in target.glob("*.phh") if f.is_file()) if target.is_dir() else [target]
    if not files:
        # The game keeps each session in a folder of its own (histories/<date>_<time>/).
        inner = sorted(d for d in target.glob("*") if d.is_dir() and any(d.glob("*.phh")))
        where = f"; its folders hold some (replay one of them, e.g. {inner[0]})" if inner else ""
        raise fail(f"no .phh files in {path}{where}")
    summaries = []
    for file in files:
        try:
            history = loads(file.read_text(encoding="utf-8"))
            deal = replay_history(history)
        except OSError as error:
            raise fail(f"{file}: cannot read: {error.strerror or error}") from None
        except UnicodeDecodeError as error:
            byte = f"byte 0x{error.object[error.start]:02x} at position {error.start}"
            raise fail(f"{file}: not a text file (UTF-8): {byte}") from None
        except ItalianPokerError as error:
            raise fail(f"{file}: {error}") from None
        if json_output:
            summaries.append({"file": str(file), **summary(history, deal)})
        else:
            if len(files) > 1:
                typer.echo(f"== {file}")
            typer.echo("\n".join(describe(history, deal)))
            if deal.result is not None:
                typer.echo(f"Verified: every action replays and the result matches ({file.name}).")
            else:
                typer.echo(
                    f"Verified: every action replays ({file.name}); the deal is not over, so "
                    "there is no result to check."
                )
    if json_output:
        typer.echo(json.dumps(summaries[0] if len(files) == 1 else summaries, indent=2))
