"""The ``italian-poker`` command line."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from typer.core import TyperGroup

from italian_poker.engine.cards import format_cards
from italian_poker.engine.deck import MAX_PLAYERS, MIN_PLAYERS
from italian_poker.engine.errors import ItalianPokerError
from italian_poker.engine.hand_rank import Tiebreak, best_ranks, evaluate, read_hands
from italian_poker.engine.seeds import derive_seed
from italian_poker.engine.vocabulary import Language
from italian_poker.engine.wording import count

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from italian_poker.analysis.advisor import Advice
    from italian_poker.engine.cards import Card
    from italian_poker.engine.history import HandHistory

_CLICK_ERROR: type[Exception] = next(
    c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException"
)
"""Click's base of usage errors (Typer's own copy of Click in recent Typer, else Click's)."""


class _OneLineErrors(TyperGroup):
    """The commands, with usage errors (a bad number, an unknown option, a missing argument)
    printed as one line, ``error: ... (see: italian-poker CMD --help)``, exit code 2."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        names = (args, prog_name, complete_var)
        if not standalone_mode:
            return super().main(*names, False, windows_expand_args, **extra)
        try:
            code = super().main(*names, False, windows_expand_args, **extra)
        except _CLICK_ERROR as error:
            _usage_error(error)
        except typer.Abort:
            typer.echo("error: aborted", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


def _usage_error(error: Any) -> NoReturn:
    """Print a Click error on one line and exit with its code (2 for usage errors)."""
    if type(error).__name__ == "NoArgsIsHelpError":  # no command: the help is the message
        if error.format_message():  # with rich, the help is already printed
            error.show()
        sys.exit(error.exit_code)
    text = " ".join(str(error.format_message()).split()).rstrip(".")
    if text[:1].isupper() and not text[1:2].isupper():
        text = text[0].lower() + text[1:]
    ctx = getattr(error, "ctx", None)
    text += f" (see: {'italian-poker' if ctx is None else ctx.command_path} --help)"
    typer.echo(f"error: {text}", err=True)
    sys.exit(error.exit_code)


app = typer.Typer(
    name="italian-poker",
    cls=_OneLineErrors,
    help="Italian Poker (poker all'italiana): play, rank hands, replay, count statistics "
    "and simulate.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def fail(message: str) -> typer.Exit:
    """Print ``message`` as an error and return the exit (code 2) to raise."""
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(code=2)


def chosen_language(lang: str | None) -> Language:
    """The language ``--lang`` names (``it`` or ``en``), else the environment's."""
    import os

    from italian_poker.table.vocabulary import detect_language

    if lang is None:
        return detect_language(os.environ)
    if lang.lower() in ("it", "en"):
        return Language(lang.lower())
    raise fail(f"--lang must be it or en, got {lang!r}")


def fail_in(language: Language, frame: str, message: str, /, **values: object) -> typer.Exit:
    """Print the analysis commands' ``message`` in ``language``, inside the command's error line
    ``frame``, and return the exit (code 2) to raise."""
    from italian_poker.analysis.i18n import tr

    typer.echo(tr(language, frame, message=tr(language, message, **values)), err=True)
    return typer.Exit(code=2)


def history_files(
    target: str, stop: Callable[..., typer.Exit], missing: str, empty: str
) -> list[Path]:
    """The saved histories ``target`` names: that file, or every ``.phh`` file in that folder
    and its sub-folders, sorted; raises ``stop(missing)`` or ``stop(empty)`` (with
    ``path=target``) when there is no such path or no history in it."""
    from pathlib import Path

    path = Path(target)
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise stop(missing, path=target)
    files = sorted(f for f in path.rglob("*.phh") if f.is_file())
    if not files:
        raise stop(empty, path=target)
    return files


def read_history(
    file: Path, language: Language, *, redacted: str | None = None
) -> HandHistory | str:
    """The history saved in ``file``, replayed by the rules; or, in ``language``, why it can't
    be read (with ``redacted``, the vocabulary's reason for a redacted player's view)."""
    import tomllib

    from italian_poker.analysis.i18n import tr
    from italian_poker.engine.history import loads
    from italian_poker.engine.history import replay as replay_history

    try:
        text = file.read_text(encoding="utf-8")
        if redacted is not None:
            try:
                hidden = tomllib.loads(text.removeprefix("\ufeff")).get("_redacted") is True
            except tomllib.TOMLDecodeError:
                hidden = False  # loads names the problem
            if hidden:
                return tr(language, redacted)
        history = loads(text)
        replay_history(history)  # what is read is what the rules allow
    except OSError as error:
        return tr(language, "stats_cannot_read", reason=error.strerror or str(error))
    except UnicodeDecodeError as error:
        byte, position = error.object[error.start], error.start
        return tr(language, "stats_not_text", byte=byte, position=position)
    except ItalianPokerError as error:
        return str(error)
    return history


def _interactive() -> bool:
    """Whether standard input and output are a terminal (the full-screen game needs one)."""
    import sys

    return sys.stdin.isatty() and sys.stdout.isatty()


@app.command()
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
        int | None, typer.Option(help="Seed for a reproducible session (shuffles and bots).")
    ] = None,
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
    )
    summary = run_game(
        session,
        lang=language,
        four_colour=four_colour,
        advisor=advise_view if advice else None,
    )
    if _interactive():  # else its terminal closed: nobody to tell
        typer.echo("\n".join(summary_lines(summary, language)))
    if summary.error is not None:
        raise typer.Exit(code=1)  # the game crashed: never exit 0 after an error


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


@app.command()
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


def advice_json(choices: Sequence[Advice], *, opener: bool) -> list[dict[str, object]]:
    """``advise --json``: per choice, best first, ``keep``, ``discard``, ``categories`` (every
    ``Category`` in lower case) and ``ev``; ``split`` too for an opener."""
    report = []
    for choice in choices:
        item: dict[str, object] = {
            "keep": [str(c) for c in choice.kept],
            "discard": [str(c) for c in choice.discards],
            "categories": {c.name.lower(): p for c, p in choice.probabilities.items()},
            "ev": choice.ev,
        }
        if opener:
            item["split"] = choice.split
        report.append(item)
    return report


def advice_lines(
    cards: Sequence[Card],
    choices: Sequence[Advice],
    *,
    players: int,
    opponents: int,
    seen: int,
    opener: bool,
    tiebreak: Tiebreak,
    language: Language,
) -> list[str]:
    """``advise``'s text: the hand, what the figures mean, each choice (best first) with its
    value, its chance of improving and of each final hand (highest first), then the opener's
    note or, for a hand that could open, the hint of ``--opener``."""
    from italian_poker.analysis.i18n import tr
    from italian_poker.engine.deck import stripped_deck
    from italian_poker.engine.opening import OpeningRequirement
    from italian_poker.table.catalogue import percent as as_percent

    italian = language is Language.IT

    def percent(chance: float) -> str:
        if 0 < chance < 0.0005:
            return "<" + as_percent(0.001, language)
        return as_percent(chance, language)

    rank = evaluate(cards, players=players, tiebreak=tiebreak)
    description = rank.description_it if italian else rank.description
    deck = len(stripped_deck(players))
    unseen = deck - len(cards) - seen
    lines = [
        tr(language, "advise_hand", hand=format_cards(cards), rank=description),
        tr(
            language,
            "advise_model",
            deck=deck,
            players=players,
            unseen=unseen,
            opponents=opponents,
        ),
    ]
    for position, choice in enumerate(choices, start=1):
        if choice.discards:
            kept, change = format_cards(choice.kept), format_cards(choice.discards)
            what = tr(language, "advise_keep", kept=kept, change=change)
        else:
            what = tr(language, "advise_stand_pat")
        line = tr(
            language,
            "advise_choice",
            position=position,
            choice=what,
            ev=percent(choice.ev),
            improve=percent(choice.improve),
        )
        lines.append(line + (tr(language, "advise_split") if choice.split else ""))
        odds = [
            f"{c.italian if italian else c.english} {percent(p)}"
            for c, p in reversed(choice.probabilities.items())
            if p > 0
        ]
        lines.append("   " + ", ".join(odds))
    if opener:
        lines.append(tr(language, "advise_split_note"))
    elif OpeningRequirement().is_met(cards, players=players):
        lines.append(tr(language, "advise_opener_hint"))
    return lines


@app.command()
def advise(
    hand: Annotated[
        list[str],
        typer.Argument(help='The five cards before the draw, e.g. "Jh Jd 7c 8s 9h".'),
    ],
    players: Annotated[int, typer.Option(help="Players at the table (2-9): sets the deck.")] = 4,
    opponents: Annotated[
        int | None,
        typer.Option(help="Opponents still in the hand (1 to players - 1; default: all)."),
    ] = None,
    opener: Annotated[
        bool,
        typer.Option("--opener", help="You opened: mark the draws that break the opening (4.4)."),
    ] = False,
    min_pair: Annotated[
        str | None,
        typer.Option(help="With --opener: the lowest pair that opened (J, Q, K or A; default J)."),
    ] = None,
    seen: Annotated[
        str,
        typer.Option(
            help="Other cards you have seen, out of the stock: discards face up (003), "
            'e.g. "Qs 8d".'
        ),
    ] = "",
    tiebreak: Annotated[
        Tiebreak, typer.Option(help="Suit tie-break: standard (7.4) or fantini.")
    ] = Tiebreak.STANDARD,
    json_output: Annotated[
        bool,
        typer.Option(
            "--json",
            help='Print a JSON list, best first, of {"keep", "discard", "categories", "ev"} '
            '(and "split" with --opener).',
        ),
    ] = False,
    lang: Annotated[
        str | None, typer.Option(help="Language: it or en (default: from the locale).")
    ] = None,
) -> None:
    """The advisor (consigliere): every legal draw of a hand (keep one to five cards, 31
    choices), ranked best first, with the exact chance of each final hand and of improving,
    and "win": the expected share of the pot at the showdown against the opponents, each
    modelled as dealt five random cards of the deck and drawing the plain way (an estimate;
    betting left out). See docs/advisor.md."""
    import json

    from italian_poker.analysis.advisor import advise as advise_hand
    from italian_poker.engine.cards import parse_cards
    from italian_poker.engine.deck import stripped_deck
    from italian_poker.engine.errors import CardParseError
    from italian_poker.engine.opening import OpeningRequirement, parse_min_pair

    language = chosen_language(lang)

    def stop(message: str, /, **values: object) -> typer.Exit:
        return fail_in(language, "advise_error", message, **values)

    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise stop("advise_players", players=players)
    if opponents is not None and not 1 <= opponents <= players - 1:
        raise stop("advise_opponents", max=players - 1, players=players, value=opponents)
    if min_pair is not None and not opener:
        raise stop("advise_min_pair_alone")
    try:
        requirement = OpeningRequirement(parse_min_pair(min_pair or "J")) if opener else None
    except ItalianPokerError:
        raise stop("advise_min_pair", value=min_pair) from None

    def read(text: str) -> list[Card]:
        cards: list[Card] = []
        for word in text.replace(",", " ").replace(";", " ").split():
            try:
                cards.extend(parse_cards(word, unique=False))
            except CardParseError:
                raise stop("advise_bad_card", card=word) from None
        return cards

    cards = read(" ".join(hand))
    if len(cards) != 5:
        raise stop("advise_hand_size", count=len(cards))
    twice = next((c for i, c in enumerate(cards) if c in cards[:i]), None)
    if twice is not None:
        raise stop("advise_duplicate", card=str(twice))
    known = read(seen)
    both = next((c for i, c in enumerate(known) if c in cards or c in known[:i]), None)
    if both is not None:
        message = "advise_seen_in_hand" if both in cards else "advise_seen_twice"
        raise stop(message, card=str(both))
    deck = stripped_deck(players)
    outside = next((c for c in (*cards, *known) if c not in deck), None)
    if outside is not None:
        low = deck.lowest_rank.label
        raise stop(
            "advise_not_in_deck", card=str(outside), players=players, deck=len(deck), low=low
        )
    shown = format_cards(cards)
    if requirement is not None and not requirement.is_met(cards, players=players):
        raise stop("advise_not_opener", hand=shown, requirement=requirement.describe(language))
    rivals = players - 1 if opponents is None else opponents
    choices = advise_hand(
        cards,
        players=players,
        opponents=rivals,
        known=known,
        tiebreak=tiebreak,
        opening=requirement,
    )
    if json_output:
        typer.echo(json.dumps(advice_json(choices, opener=opener), indent=2))
        return
    lines = advice_lines(
        cards,
        choices,
        players=players,
        opponents=rivals,
        seen=len(known),
        opener=opener,
        tiebreak=tiebreak,
        language=language,
    )
    typer.echo("\n".join(lines))


@app.command()
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


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option(
            help="Database URL, e.g. postgresql://user@host/db "
            "(default: SQLite in the data directory)."
        ),
    ] = None,
    public_url: Annotated[
        str | None,
        typer.Option(help="The URL players open, when it differs (e.g. behind a proxy)."),
    ] = None,
    redis_url: Annotated[
        str | None,
        typer.Option(
            help="Redis shared by several server processes on one PostgreSQL database, e.g. "
            "redis://host:6379/0 (default: this process is the only one)."
        ),
    ] = None,
    lease_seconds: Annotated[
        float,
        typer.Option(
            min=0.5,
            help="With --redis-url: how long a process's hold on a table lasts unless renewed "
            "(how long a table waits for another process when its owner dies).",
        ),
    ] = 10.0,
    node: Annotated[
        str | None,
        typer.Option(help="With --redis-url: this process's name (default: host name and pid)."),
    ] = None,
    no_advice: Annotated[
        bool,
        typer.Option(
            "--no-advice",
            help="Run without the draw hint (by default each table may offer it to the "
            "player whose draw it is; the host can turn it off per table).",
        ),
    ] = False,
) -> None:
    """Host an online table: friends play from their browsers, bots fill the seats
    (docs/server.md). With --redis-url, any number of such processes behind one address
    share the tables."""
    import uvicorn

    from italian_poker.analysis.advisor import advise_view
    from italian_poker.analysis.bots import make_bot
    from italian_poker.engine.policy import Policy
    from italian_poker.server.app import create_app
    from italian_poker.server.settings import ServerSettings

    def bot_factory(level: str, seed: int | None) -> Policy:
        return make_bot(level, seed=seed)

    settings = ServerSettings(
        database_url=database_url or "",
        host=host,
        port=port,
        public_url=public_url,
        redis_url=redis_url,
        lease_seconds=lease_seconds,
        node=node,
    )
    if redis_url is not None and settings.resolved_database_url().startswith("sqlite"):
        typer.echo(
            "--redis-url: several processes share one database server; give --database-url "
            "postgresql://... as well",
            err=True,
        )
        raise typer.Exit(2)
    typer.echo(f"Italian Poker server: open {settings.base_url}/ to create a table")
    typer.echo(f"Database: {settings.resolved_database_url()}")
    if redis_url is not None:
        typer.echo(f"Process {settings.resolved_node()}, one of several sharing a Redis")
    uvicorn.run(
        create_app(settings, bot_factory, advisor=None if no_advice else advise_view),
        host=host,
        port=port,
        ws_max_size=65_536,
        log_level="info",
    )


def main() -> None:
    """Entry point of the ``italian-poker`` console script."""
    app()
