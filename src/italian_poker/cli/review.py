"""``italian-poker review``: a player's draws and bets in saved hand histories, reviewed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from italian_poker.cli.errors import fail_in
from italian_poker.cli.histories import history_files, read_history
from italian_poker.cli.language import chosen_language

if TYPE_CHECKING:
    from italian_poker.engine.history import HandHistory


def review(
    path: Annotated[
        str,
        typer.Argument(help="A hand history (.phh), or a folder of them read with its folders."),
    ],
    player: Annotated[
        str | None,
        typer.Option(help="The player reviewed, by name (default: the terminal game's name)."),
    ] = None,
    seat: Annotated[
        int | None, typer.Option(help="The player reviewed, by seat (1 = p1 in the history).")
    ] = None,
    worst: Annotated[int, typer.Option(min=0, help="Costliest decisions listed.")] = 5,
    json_output: Annotated[
        bool, typer.Option("--json", help="Print the review as JSON (docs/review.md).")
    ] = False,
    lang: Annotated[
        str | None, typer.Option(help="Language: it or en (default: from the locale).")
    ] = None,
) -> None:
    """Review a player's draws and bets in saved hand histories: what the advisor (draws)
    and the strong bot's equity against the pot odds (bets) advised, and the expected chips
    each decision lost (estimates; docs/review.md). Files that cannot be replayed, such as
    one player's redacted view, are named and left out."""
    import json

    from italian_poker.analysis.i18n import tr
    from italian_poker.analysis.review import review as review_histories
    from italian_poker.analysis.review import review_lines
    from italian_poker.play.i18n import HUMAN_NAMES

    language = chosen_language(lang)

    def stop(message: str, /, **values: object) -> typer.Exit:
        return fail_in(language, "review_error", message, **values)

    if player is not None and seat is not None:
        raise stop("review_player_and_seat")
    files = history_files(path, stop, "review_no_path", "review_no_histories")
    histories: list[tuple[str, HandHistory]] = []
    skipped: list[dict[str, str]] = []
    for file in files:
        read = read_history(file, language, redacted="review_redacted")
        if not isinstance(read, str):
            histories.append((str(file), read))
            continue
        skipped.append({"file": str(file), "reason": read})
        typer.echo(tr(language, "review_warning", file=file, reason=read), err=True)
    if not histories:
        raise stop("review_none_read", files=len(files), path=path)
    names = list(dict.fromkeys(n for _, h in histories for n in h.names))
    if seat is not None:
        most = max(len(h.names) for _, h in histories)
        if not 1 <= seat <= most:
            raise stop("review_bad_seat", most=most, seat=seat)
        # The player reviewed is the one in that seat in the first deal that has it.
        name = next(h.names[seat - 1] for _, h in histories if seat <= len(h.names))
    else:
        played = [n for n in HUMAN_NAMES.values() if n in names]
        name = player if player is not None else (played[0] if played else "")
    if name not in names:
        shown = name or HUMAN_NAMES[language]
        raise stop("review_no_player", player=shown, names=", ".join(names))
    result = review_histories(histories, name)
    if json_output:
        report = {"path": path, "files": len(files), "skipped": skipped, **result.to_dict(worst)}
        typer.echo(json.dumps(report, indent=2, ensure_ascii=False))
        return
    typer.echo(tr(language, "stats_files", files=len(files), folder=path))
    typer.echo("\n".join(review_lines(result, language, worst)))
    if skipped:
        typer.echo(tr(language, "review_skipped", count=len(skipped)))
