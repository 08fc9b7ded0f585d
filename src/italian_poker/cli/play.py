"""``italian-poker play``: the full-screen game against bots."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from italian_poker.cli.errors import fail
from italian_poker.cli.language import chosen_language
from italian_poker.engine.deck import MAX_PLAYERS, MIN_PLAYERS
from italian_poker.engine.errors import ItalianPokerError
from italian_poker.engine.fair_source import Reveal
from italian_poker.engine.seeds import derive_seed
from italian_poker.engine.wording import count

if TYPE_CHECKING:
    from italian_poker.table.formats import MatchFormat


def _interactive() -> bool:
    """Whether standard input and output are a terminal (the full-screen game needs one)."""
    import sys

    return sys.stdin.isatty() and sys.stdout.isatty()


def _match_format(kind: str, deals: int | None, schedule: str | None, chips: int) -> MatchFormat:
    """The match format the options ask for (a sit and go starts everyone with ``chips``)."""
    from italian_poker.table.formats import (
        CASH,
        SCHEDULES,
        FormatError,
        FormatKind,
        MatchFormat,
        parse_schedule,
    )

    kinds = ", ".join(k.value for k in FormatKind)
    if kind not in {k.value for k in FormatKind}:
        raise FormatError(f"--format must be one of {kinds}, got {kind!r}")
    if kind != FormatKind.FIXED and deals is not None:
        raise FormatError("--deals is the length of a fixed match: add --format fixed")
    if kind == FormatKind.CASH:
        if schedule is not None:
            raise FormatError("--schedule raises the ante of a fixed match or a sit and go")
        return CASH
    chosen = None if schedule is None else parse_schedule(schedule)
    if chosen is not None and chosen.timed:
        raise FormatError("--schedule: the terminal game counts levels in deals, not minutes")
    if kind == FormatKind.FIXED:
        if deals is None:
            raise FormatError("--format fixed needs --deals N")
        return MatchFormat.fixed(deals, chosen)
    return MatchFormat.sit_and_go(chips, chosen or SCHEDULES["standard"])


def play(
    players: Annotated[int, typer.Option(help="Players at the table, you included (2-9).")] = 4,
    rules: Annotated[
        str, typer.Option(help="Rules preset: standard, 001, 002, 003 or fantini.")
    ] = "standard",
    stack: Annotated[
        int | None,
        typer.Option(help="Chips each player starts with (default: suited to the preset)."),
    ] = None,
    ante: Annotated[
        int | None, typer.Option(help="Ante each player pays per deal (default: the preset's).")
    ] = None,
    bots: Annotated[
        str, typer.Option(help="Bot level: random, simple, strong or expert.")
    ] = "strong",
    lang: Annotated[
        str | None, typer.Option(help="Language: it or en (default: from the locale).")
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            help="Seed for a reproducible session (bots, and the fair decks' seeds and values: "
            "a game anyone with the seed can foresee)."
        ),
    ] = None,
    reveal: Annotated[
        str,
        typer.Option(
            help="When the fair decks' seeds are revealed: close (when you leave the table, to "
            "seeds.reveal) or deal (in each deal's history; shows folded hands and the undealt "
            "cards) (docs/fairness.md)."
        ),
    ] = "close",
    four_colour: Annotated[
        bool,
        typer.Option(
            "--four-colour", help="Four-colour deck: hearts red, diamonds blue, clubs green."
        ),
    ] = False,
    name: Annotated[str | None, typer.Option(help="Your name at the table.")] = None,
    advice: Annotated[
        bool,
        typer.Option(
            "--advice", help="Advice at your draw: key h shows the 3 best keeps (docs/advisor.md)."
        ),
    ] = False,
    match_format: Annotated[
        str,
        typer.Option(
            "--format", help="Match format: cash (play as long as you like), fixed or sit-and-go."
        ),
    ] = "cash",
    deals: Annotated[
        int | None, typer.Option(help="Deals of a fixed-length match (--format fixed).")
    ] = None,
    schedule: Annotated[
        str | None,
        typer.Option(
            help="Ante schedule: turbo, standard or slow, or levels such as 1x4,2x4,4x4 "
            "(ante x deals); default: standard for a sit and go, none for a fixed match."
        ),
    ] = None,
) -> None:
    """Play Italian Poker in the terminal against bots (docs/playing.md)."""

    from italian_poker.analysis.advisor import advise_view
    from italian_poker.analysis.bots import bot_level, make_bot
    from italian_poker.engine.rules import preset
    from italian_poker.play.i18n import HUMAN_NAMES
    from italian_poker.play.session import Session, default_stack
    from italian_poker.table.names import BOT_NAMES

    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise fail(
            f"--players must be {MIN_PLAYERS} to {MAX_PLAYERS} (you and {MIN_PLAYERS - 1} to "
            f"{MAX_PLAYERS - 1} bots), got {players}"
        )
    if reveal not in tuple(Reveal):
        raise fail(f"--reveal must be close or deal, got {reveal!r}")
    if ante is not None and ante < 0:
        raise fail(f"--ante cannot be negative, got {ante}")
    try:
        table = preset(rules, players=players)
    except ItalianPokerError as error:
        raise fail(str(error)) from None
    if ante is not None:
        try:
            table = table.with_options(ante=ante)
        except ItalianPokerError as error:
            raise fail(f"--ante {ante} with rules {rules!r}: {error}") from None
    smallest = table.chips_to_be_dealt_in
    chips = default_stack(table) if stack is None else stack
    if chips < smallest:
        raise fail(f"--stack must be at least {count(smallest, 'chip')} (one ante), got {chips}")
    try:
        chosen = _match_format(match_format, deals, schedule, chips)
        for step in () if chosen.schedule is None else chosen.schedule.levels:
            step.rules(table)  # every level is playable under these rules
    except ItalianPokerError as error:
        raise fail(str(error)) from None
    try:
        level = bot_level(bots)
    except ValueError as error:
        raise fail(f"--bots: {error}") from None
    language = chosen_language(lang)
    human = HUMAN_NAMES[language] if name is None else name.strip()
    opponents = list(BOT_NAMES[: players - 1])
    if not human:
        raise fail("--name cannot be empty")
    if human in opponents:
        raise fail(f"--name {human!r} is a bot's name; choose another")
    if not _interactive():
        typer.echo(
            "italian-poker play is a full-screen game and needs an interactive terminal "
            "(standard input and output are not a terminal here). Run it in a terminal; "
            "to let bots play each other, use: italian-poker simulate",
            err=True,
        )
        raise typer.Exit(code=1)

    from italian_poker.play.app import run_game
    from italian_poker.play.explain import summary_lines
    from italian_poker.play.storage import HistoryStore

    policies = {
        bot: make_bot(level, seed=None if seed is None else derive_seed(seed, "bot", i))
        for i, bot in enumerate(opponents, start=1)
    }
    session = Session(
        table,
        [human, *opponents],
        human,
        policies,
        stack=chips,
        seed=seed,
        store=HistoryStore.default(),
        match_format=chosen,
        fair=True,
        reveal=Reveal(reveal),
    )
    summary = run_game(
        session,
        lang=language,
        four_colour=four_colour,
        advisor=advise_view if advice else None,
    )
    try:
        revealed = session.reveal()  # the table closes: the fair decks' seeds
    except OSError as problem:
        revealed = None
        typer.echo(f"error: the seeds could not be revealed: {problem}", err=True)
    if _interactive():  # else its terminal closed: nobody to tell
        typer.echo("\n".join(summary_lines(summary, language)))
        if revealed is not None:
            typer.echo(f"Seeds revealed: {revealed} (italian-poker verify {revealed.parent})")
    if summary.error is not None:
        raise typer.Exit(code=1)  # the game crashed: never exit 0 after an error
