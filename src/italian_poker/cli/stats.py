"""``italian-poker stats``: each player's statistics over saved hand histories."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from italian_poker.cli.errors import fail_in
from italian_poker.cli.histories import history_files, read_history
from italian_poker.cli.language import chosen_language

if TYPE_CHECKING:
    from italian_poker.engine.history import HandHistory


def stats(
    folder: Annotated[
        str,
        typer.Argument(help="A folder of hand histories (.phh), read with all its folders."),
    ],
    json_output: Annotated[
        bool, typer.Option("--json", help="Print the statistics as JSON.")
    ] = False,
    lang: Annotated[
        str | None, typer.Option(help="Language: it or en (default: from the locale).")
    ] = None,
) -> None:
    """Each player's statistics over the saved hand histories in a folder and its folders
    (deals played, opened, at the showdown, won, net, biggest pot). A file that cannot be
    read is left out with a warning (docs/playing.md)."""
    import json

    from italian_poker.analysis.i18n import tr
    from italian_poker.table.statistics import statistics_lines, statistics_of

    language = chosen_language(lang)

    def stop(message: str, /, **values: object) -> typer.Exit:
        return fail_in(language, "stats_error", message, **values)

    files = history_files(folder, stop, "stats_no_folder", "stats_no_histories")
    histories: list[HandHistory] = []
    skipped: list[dict[str, str]] = []
    for file in files:
        read = read_history(file, language)
        if not isinstance(read, str) and read.result is not None:
            histories.append(read)
            continue
        reason = read if isinstance(read, str) else tr(language, "stats_not_over")
        skipped.append({"file": str(file), "reason": reason})
        typer.echo(tr(language, "stats_warning", file=file, reason=reason), err=True)
    if not histories:
        raise stop("stats_none_read", files=len(files), folder=folder)
    result = statistics_of(histories)
    if json_output:
        report = {"folder": folder, "files": len(files), "skipped": skipped, **result.to_dict()}
        typer.echo(json.dumps(report, indent=2, ensure_ascii=False))
        return
    typer.echo(tr(language, "stats_files", files=len(files), folder=folder))
    typer.echo("\n".join(statistics_lines(result, language)))
