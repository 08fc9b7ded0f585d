"""``italian-poker verify``: check that saved hand histories were dealt from their fair decks
(docs/fairness.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from italian_poker.cli.errors import fail

if TYPE_CHECKING:
    from pathlib import Path

HISTORY_SUFFIX = ".phh"
REVEAL_SUFFIX = ".reveal"


def _files(paths: list[str]) -> tuple[list[Path], list[Path]]:
    """The histories and the reveal files ``paths`` name: files as given, folders searched
    with their sub-folders; raises the usage error for a path that does not exist."""
    from pathlib import Path

    histories: list[Path] = []
    reveals: list[Path] = []
    for text in paths:
        path = Path(text)
        if path.is_file():
            (reveals if path.suffix == REVEAL_SUFFIX else histories).append(path)
        elif path.is_dir():
            histories += sorted(f for f in path.rglob(f"*{HISTORY_SUFFIX}") if f.is_file())
            reveals += sorted(f for f in path.rglob(f"*{REVEAL_SUFFIX}") if f.is_file())
        else:
            raise fail(f"no such file or folder: {text}")
    return histories, reveals


def _read(file: Path) -> str:
    """The text of ``file``; raises :class:`ValueError` with the reason it cannot be read."""
    try:
        return file.read_text(encoding="utf-8")
    except OSError as error:
        raise ValueError(f"cannot read: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        byte = f"byte 0x{error.object[error.start]:02x} at position {error.start}"
        raise ValueError(f"not a text file (UTF-8): {byte}") from None


def _deal_of(text: str) -> str:
    """``deal N`` for the history ``text`` that does not load, from its ``hand`` field or its
    ``[_fair]`` table; ``deal`` if neither can be read."""
    import tomllib

    try:
        data = tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError:
        return "deal"
    fair = data.get("_fair")
    number = data.get("hand", fair.get("deal") if isinstance(fair, dict) else None)
    return f"deal {number}" if isinstance(number, int) else "deal"


def verify(
    paths: Annotated[
        list[str],
        typer.Argument(
            help="Hand histories (.phh), reveal files (.reveal) or folders holding them.",
            metavar="FILE_OR_FOLDER",
            show_default=False,
        ),
    ],
) -> None:
    """Check that each deal's cards came from its fair deck: the revealed seed matches the
    commitment, and the deck made from the seed, the players' values and the deal number
    gives every card dealt, drawn and served after a reshuffle (docs/fairness.md). Prints
    a line per deal; the exit code is 1 if any deal failed or has no fair deck."""
    from italian_poker.engine.errors import ItalianPokerError
    from italian_poker.engine.history import loads
    from italian_poker.engine.history.fairness import Verdict, loads_reveals, verify_fair

    histories, reveal_files = _files(paths)
    if not histories:
        raise fail(f"no {HISTORY_SUFFIX} files in {' '.join(paths)}")
    seeds: dict[bytes, bytes] = {}
    counts = dict.fromkeys(Verdict, 0)
    for file in reveal_files:
        try:
            seeds.update(loads_reveals(_read(file)))
        except (ValueError, ItalianPokerError) as error:
            typer.echo(f"{file}: failed: {error}")
            counts[Verdict.FAILED] += 1
    for file in histories:
        try:
            text = _read(file)
        except ValueError as error:
            typer.echo(f"{file}: failed: {error}")
            counts[Verdict.FAILED] += 1
            continue
        try:
            history = loads(text)
        except ItalianPokerError as error:
            typer.echo(f"{_deal_of(text)}: failed: {error} ({file})")
            counts[Verdict.FAILED] += 1
            continue
        found = verify_fair(history, seeds)
        counts[found.verdict] += 1
        number = (
            history.number
            if history.number is not None
            else (history.fair.deal if history.fair is not None else None)
        )
        deal = "deal" if number is None else f"deal {number}"
        if found.verdict is Verdict.VERIFIED:
            typer.echo(f"{deal}: verified ({file})")
        else:
            typer.echo(f"{deal}: {found.verdict.value}: {found.reason} ({file})")
    typer.echo(
        ", ".join(f"{counts[v]} {v.value}" for v in Verdict if counts[v] or v is Verdict.VERIFIED)
    )
    if counts[Verdict.FAILED] or counts[Verdict.UNFAIR]:
        raise typer.Exit(code=1)
