"""``italian-poker advise``: the advisor's ranking of every draw of a hand."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated

import typer

from italian_poker.cli.errors import fail_in
from italian_poker.cli.language import chosen_language
from italian_poker.engine.cards import format_cards
from italian_poker.engine.deck import MAX_PLAYERS, MIN_PLAYERS
from italian_poker.engine.errors import ItalianPokerError
from italian_poker.engine.hand_rank import Tiebreak, evaluate
from italian_poker.engine.vocabulary import Language

if TYPE_CHECKING:
    from italian_poker.analysis.advisor import Advice
    from italian_poker.engine.cards import Card


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
