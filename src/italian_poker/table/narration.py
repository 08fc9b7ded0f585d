"""The narration of a table, in both languages: each action, the end of each deal, the
table's own events and a session's summary. Every front end tells what happens with it.

:func:`explain_award` works out why a pot went where it went (a higher category, higher
cards, the suit tie-break of 7.4, the cyclic straight flush of 7.2 *la minima batte la
massima*, the three-way split of 7.3, everyone else folding); :func:`deal_report` narrates a
finished deal from one player's final view, or a spectator's (shown hands, pots and reasons,
the opener's proof, passed deals and parol with what happens next); :func:`describe_event`
one decision; :func:`summary_lines` the session. A :class:`Line` is a sentence in both
languages at once, as the online table's public log keeps it (:func:`line`,
:func:`event_line`, :func:`report_lines`). The words come from
:mod:`italian_poker.table.vocabulary`.
"""

from __future__ import annotations

import shlex
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from italian_poker.engine.actions import ActionKind
from italian_poker.engine.cards import Card, Rank, format_cards
from italian_poker.engine.deal import Outcome, Phase, PotAward
from italian_poker.engine.draw import MAX_DRAW
from italian_poker.engine.hand_rank import (
    Category,
    HandRank,
    StraightFlushClass,
    Tiebreak,
    best_ranks,
)
from italian_poker.engine.observer import PublicView, SeatView
from italian_poker.table.events import (
    Event,
    FinishedDeal,
    OverReason,
    SessionSummary,
    hand_rank,
)
from italian_poker.table.paths import APP_NAME
from italian_poker.table.settle_up import settle_up
from italian_poker.table.vocabulary import Language, action_label, amount_text, joined, tr


class WinReason(StrEnum):
    """Why a pot was won."""

    UNCALLED = "uncalled"
    """Everyone else folded: no showdown (3.7, 5.4(c))."""
    ONLY_ELIGIBLE = "only-eligible"
    """The only hand left in this pot: the others folded or mucked."""
    CATEGORY = "category"
    RANKS = "ranks"
    SUIT = "suit"
    """Equal ranks: the suit decides (7.4, or the Fantini/Santelia reading)."""
    MIN_BEATS_MAX = "min-beats-max"
    """7.2: *la minima batte la massima*."""
    STRAIGHT_FLUSH_CLASS = "straight-flush-class"
    """7.2: the maximum beats the medium, the medium the minimum."""
    THREE_WAY = "three-way"
    """7.3: one straight flush of each class: the pot is split."""
    TIE = "tie"


@dataclass(frozen=True, slots=True)
class AwardExplanation:
    """Why a pot went to its winners; ``loser`` is the best beaten hand, if any was shown."""

    reason: WinReason
    winner: HandRank | None = None
    loser: HandRank | None = None
    loser_seat: int | None = None


def explain_award(award: PotAward, shown: Mapping[int, HandRank]) -> AwardExplanation:
    """Why ``award`` went to its winners, given the hands ``shown`` at the showdown."""
    winners = award.winners
    if any(w not in shown for w in winners):
        return AwardExplanation(WinReason.UNCALLED)
    winner = shown[winners[0]]
    classes = {shown[w].straight_flush_class for w in winners}
    if len(winners) == 3 and None not in classes and len(classes) == 3:
        return AwardExplanation(WinReason.THREE_WAY, winner)
    losers = [s for s in award.eligible if s in shown and s not in winners]
    if not losers:
        reason = WinReason.TIE if len(winners) > 1 else WinReason.ONLY_ELIGIBLE
        return AwardExplanation(reason, winner)
    loser_seat = losers[best_ranks([shown[s] for s in losers])[0]]
    loser = shown[loser_seat]
    if len(winners) > 1:
        return AwardExplanation(WinReason.TIE, winner, loser, loser_seat)
    mine, theirs = winner.straight_flush_class, loser.straight_flush_class
    if mine is not None and theirs is not None and mine is not theirs:
        cyclic = mine is StraightFlushClass.MINIMUM and theirs is StraightFlushClass.MAXIMUM
        reason = WinReason.MIN_BEATS_MAX if cyclic else WinReason.STRAIGHT_FLUSH_CLASS
    elif winner.category is not loser.category:
        reason = WinReason.CATEGORY
    elif winner.ranks != loser.ranks:
        reason = WinReason.RANKS
    else:
        reason = WinReason.SUIT
    return AwardExplanation(reason, winner, loser, loser_seat)


def hand_order(cards: Sequence[Card], rank: HandRank) -> tuple[Card, ...]:
    """A shown hand in its own order: the combination first (the larger group before the
    smaller, the higher rank first), then the other cards from the highest; a straight from
    its top card, a low ace last (Art. 6); equal ranks by suit, hearts first (7.4):
    ``A♣ K♥ K♠ A♦ A♥`` reads ``A♥ A♦ A♣ K♥ K♠``."""
    if rank.category in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
        low_ace = rank.ranks[0] is not Rank.ACE

        def step(card: Card) -> tuple[int, ...]:
            value = 1 if low_ace and card.rank is Rank.ACE else int(card.rank)
            return (-value, -int(card.suit))

        return tuple(sorted(cards, key=step))
    counts = Counter(card.rank for card in cards)
    return tuple(
        sorted(cards, key=lambda card: (-counts[card.rank], -int(card.rank), -int(card.suit)))
    )


def shown_cards(view: SeatView | PublicView, seat: int) -> tuple[Card, ...]:
    """The hand ``seat`` showed at the showdown, in the hand's order (:func:`hand_order`);
    empty when it showed none."""
    cards = view.shown.get(seat, ())
    rank = view.shown_ranks.get(seat)
    return hand_order(cards, rank) if cards and rank is not None else tuple(cards)


def cards_text(cards: Sequence[Card]) -> str:
    """Cards with suit symbols: ``A♥ 10♦ 7♣``."""
    return format_cards(cards, symbols=True)


def _class_name(cls: StraightFlushClass, lang: Language) -> str:
    return tr(lang, f"sf_{cls.value}")


def reason_text(
    explanation: AwardExplanation,
    names: Sequence[str],
    lang: Language,
    *,
    tiebreak: Tiebreak = Tiebreak.STANDARD,
    second_round: bool = True,
) -> str:
    """The reason of :func:`explain_award` in words; ``second_round`` tells 5.4(c) from 3.7
    for a pot won uncalled."""
    reason = explanation.reason
    if reason is WinReason.UNCALLED:
        return tr(lang, "reason_uncalled_second" if second_round else "reason_uncalled_first")
    if reason is WinReason.ONLY_ELIGIBLE:
        return tr(lang, "reason_only_eligible")
    if reason is WinReason.THREE_WAY:
        return tr(lang, "reason_three_way")
    if reason is WinReason.MIN_BEATS_MAX:
        return tr(lang, "reason_min_beats_max")
    winner, loser, seat = explanation.winner, explanation.loser, explanation.loser_seat
    if reason is WinReason.TIE or winner is None or loser is None or seat is None:
        return tr(lang, "reason_tie")
    loser_text = tr(lang, "report_possessive", name=names[seat], hand=loser.describe(lang))
    winner_text = winner.describe(lang)
    if reason is WinReason.STRAIGHT_FLUSH_CLASS:
        assert winner.straight_flush_class is not None and loser.straight_flush_class is not None
        return tr(
            lang,
            "reason_sf_class",
            winner_class=_class_name(winner.straight_flush_class, lang),
            loser_class=_class_name(loser.straight_flush_class, lang),
        )
    if reason is WinReason.CATEGORY:
        note = (
            tr(lang, "flush_note")
            if winner.category is Category.FLUSH and loser.category is Category.FULL_HOUSE
            else ""
        )
        return tr(lang, "reason_category", winner=winner_text, loser=loser_text, flush_note=note)
    if reason is WinReason.RANKS:
        return tr(lang, "reason_ranks", winner=winner_text, loser=loser_text)
    key = "tiebreak_fantini" if tiebreak is Tiebreak.FANTINI else "tiebreak_standard"
    return tr(lang, "reason_suit", winner=winner_text, loser=loser_text, tiebreak=tr(lang, key))


def award_line(
    award: PotAward,
    index: int,
    deal: FinishedDeal,
    lang: Language,
) -> str:
    """One pot of a finished deal: who won how much, and why."""
    view = deal.view
    names = view.names
    explanation = explain_award(award, view.shown_ranks)
    last_phase = view.actions[-1].phase if view.actions else Phase.OPENING
    reason = reason_text(
        explanation,
        names,
        lang,
        tiebreak=view.rules.tiebreak,
        second_round=last_phase is Phase.SECOND_ROUND,
    )
    pot = tr(lang, "report_side_pot") if index > 0 else ""
    winners = [names[w] for w in award.winners]
    if len(winners) == 1:
        return tr(
            lang, "report_wins", names=winners[0], amount=award.amount, pot=pot, reason=reason
        )
    shares = ", ".join(
        f"{names[w]} {share}" for w, share in zip(award.winners, award.shares, strict=True)
    )
    return tr(
        lang,
        "report_split",
        names=joined(winners, lang),
        amount=award.amount,
        pot=pot,
        shares=shares,
        reason=reason,
    )


def deal_report(deal: FinishedDeal, lang: Language) -> list[str]:
    """The after-deal narration: every shown hand with its category, each pot with its
    winners and the reason, the opener's proof, and after a passed deal or a parol what
    happens next. Uses only what the human may know."""
    view = deal.view
    result = view.result
    assert result is not None
    names = view.names
    lines = [tr(lang, "report_title", number=deal.number)]
    for action in view.actions:
        if action.kind is ActionKind.SHOW and action.seat in view.shown:
            rank = view.shown_ranks[action.seat]
            lines.append(
                tr(
                    lang,
                    "report_shown",
                    name=names[action.seat],
                    cards=cards_text(hand_order(view.shown[action.seat], rank)),
                    category=rank.describe(lang),
                )
            )
        elif action.kind is ActionKind.MUCK:
            lines.append(tr(lang, "report_mucked", name=names[action.seat]))
    if deal.human_in_deal and isinstance(view, SeatView) and view.seat not in view.shown:
        mine = hand_rank(view)
        if mine is not None:
            lines.append(
                tr(
                    lang,
                    "report_your_hand",
                    cards=cards_text(hand_order(view.hand, mine)),
                    category=mine.describe(lang),
                )
            )
    if result.outcome is Outcome.WON:
        lines.extend(award_line(award, i, deal, lang) for i, award in enumerate(result.awards))
    elif result.outcome is Outcome.PASSED:
        if any(result.returned):
            lines.append(tr(lang, "report_passed_returned"))
        else:
            lines.append(tr(lang, "report_passed", pot=result.carried))
        lines.append(
            tr(lang, "report_next_requirement", requirement=deal.next_requirement.describe(lang))
        )
    else:
        lines.append(tr(lang, "report_parol", pot=result.carried))
        for seat, amount in enumerate(result.makeups):
            if amount:
                lines.append(tr(lang, "report_makeup", name=names[seat], amount=amount))
        lines.append(
            tr(lang, "report_next_requirement", requirement=deal.next_requirement.describe(lang))
        )
    if result.proof and view.opener is not None:
        lines.append(
            tr(lang, "report_proof", name=names[view.opener], cards=cards_text(result.proof))
        )
    elif result.outcome is not Outcome.PASSED and view.opener is None and view.blinders:
        lines.append(tr(lang, "report_blind_no_proof"))
    stacks = ", ".join(f"{name} {stack}" for name, stack in zip(names, result.stacks, strict=True))
    lines.append(tr(lang, "report_stacks", stacks=stacks))
    return lines


def describe_event(event: Event, lang: Language) -> list[str]:
    """An action for the log, e.g. ``Bruno: Rilancio 8`` or ``Carla cambia 3``."""
    name = event.player
    lines: list[str] = []
    if event.bot_error is not None:
        lines.append(
            tr(
                lang,
                "log_bot_error",
                name=name,
                error=event.bot_error,
                action=action_label(event.kind, lang),
            )
        )
    if event.kind is ActionKind.DRAW:
        count = event.cards_changed or 0
        if count == 0:
            lines.append(tr(lang, "log_draw_pat", name=name))
        elif event.discards:
            lines.append(
                tr(lang, "log_draw_cards", name=name, count=count, cards=cards_text(event.discards))
            )
        else:
            lines.append(tr(lang, "log_draw", name=name, count=count))
        if count == MAX_DRAW:
            lines.append(tr(lang, "log_fourth_later", name=name))
        if event.split:
            lines.append(tr(lang, "log_split", name=name))
        return lines
    label = action_label(event.kind, lang)
    if event.amount is not None:
        label += " " + said_amount(event.amount, event.added, lang)
    lines.append(tr(lang, "log_action", name=name, action=label))
    return lines


def said_amount(amount: int, added: int | None, lang: Language) -> str:
    """A bet's round total ``amount`` as the log says it: with the chips it ``added`` when
    they are not the whole total (:func:`~italian_poker.table.vocabulary.amount_text`)."""
    already = 0 if added is None else amount - added
    return amount_text(amount, amount, already, lang)


def summary_lines(
    summary: SessionSummary, lang: Language, *, command: str | None = None
) -> list[str]:
    """The session summary shown on quitting (after an error, it says so first).
    ``command`` is how the replay hint names the program (default: ``italian-poker``; the
    terminal game passes the command that works where the player is)."""
    lines = [tr(lang, "summary_title")]
    if summary.error is not None:
        lines.append(tr(lang, "summary_error", error=summary.error))
    lines += [
        tr(
            lang,
            "summary_deals",
            deals=summary.deals,
            won=summary.won,
            passed=summary.passed,
            parol=summary.parol,
        ),
    ]
    for player in summary.players:
        key = "summary_player_left" if player.left else "summary_player"
        lines.append(
            tr(
                lang,
                key,
                name=player.name,
                start=player.start,
                end=player.end,
                change=player.change,
                pots=player.pots_won,
            )
        )
    lines += settle_up_lines(summary, lang)
    if summary.biggest_pot is not None:
        pot = summary.biggest_pot
        lines.append(
            tr(
                lang,
                "summary_biggest",
                amount=pot.amount,
                names=joined(pot.winners, lang),
                number=pot.number,
            )
        )
    if summary.abandoned:
        lines.append(tr(lang, "summary_abandoned"))
    if summary.over is OverReason.HUMAN_BUSTED:
        lines.append(tr(lang, "summary_human_busted"))
    elif summary.over is OverReason.TABLE_WON:
        lines.append(tr(lang, "summary_table_won"))
    elif summary.over is OverReason.MATCH_OVER:
        lines.append(tr(lang, "summary_match_over"))
    elif summary.over is OverReason.MATCH_FINISHED:
        lines.append(tr(lang, "summary_match_finished"))
    if summary.standings:
        lines.append(tr(lang, "summary_standings"))
    for standing in summary.standings:
        key = "summary_place_prize" if standing.prize else "summary_place"
        lines.append(
            tr(
                lang,
                key,
                place=standing.place,
                name=standing.name,
                chips=standing.chips,
                prize=standing.prize,
            )
        )
    if summary.histories is not None:
        program = APP_NAME if command is None else command
        path = shlex.quote(str(summary.histories))
        lines.append(
            tr(lang, "summary_histories", path=summary.histories, command=program, quoted=path)
        )
    elif summary.deals == 0:
        lines.append(tr(lang, "summary_no_histories"))
    return lines


def settle_up_lines(summary: SessionSummary, lang: Language) -> list[str]:
    """Who pays whom to settle the session's chips won and lost, the fewest transfers
    (:func:`~italian_poker.table.settle_up.settle_up`); nothing when nobody is up or down.
    Chips still in a pot (carried after everyone passed, 3.5, or said parol, 5.4(a)) are no
    one's yet: then it says settling up waits for the pot."""
    nets = {player.name: player.change for player in summary.players}
    in_pot = -sum(nets.values())  # every chip at the table was someone's at the start
    if in_pot:
        return [tr(lang, "summary_settle_later", pot=in_pot)]
    transfers = settle_up(nets)
    if not transfers:
        return []
    return [tr(lang, "summary_settle_up")] + [
        "  " + tr(lang, "summary_pays", payer=t.payer, payee=t.payee, amount=t.amount)
        for t in transfers
    ]


# --- sentences in both languages at once ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Line:
    """A public sentence in both languages."""

    en: str
    it: str

    def as_json(self) -> dict[str, str]:
        """``{"en", "it"}``."""
        return {"en": self.en, "it": self.it}


def both(make: Callable[[Language], str]) -> Line:
    """A :class:`Line` from ``make(lang) -> str``."""
    return Line(make(Language.EN), make(Language.IT))


def line(message: str, /, **values: object) -> Line:
    """The table layer's message called ``message`` (:data:`~italian_poker.table.vocabulary.
    CATALOGUE`) in both languages, e.g. ``line("log_draw_pat", name="Anna")``: ``Anna stands
    pat`` / ``Anna: servito``."""
    return both(lambda lang: tr(lang, message, **values))


def event_line(event: Event, *, automatic: bool = False) -> Line:
    """One decision for a public log, in both languages, on one line (see
    :func:`describe_event`); ``automatic`` when the table played it for the player (a turn
    that ran out of time)."""

    def text(lang: Language) -> str:
        said = " ".join(describe_event(event, lang))
        return tr(lang, "table_automatic", line=said) if automatic else said

    return both(text)


def action_line(kind: ActionKind, amount: int | None = None, added: int | None = None) -> Line:
    """An action's name, with its amount if any, in both languages: ``Raise 8`` /
    ``Rilancio 8``, ``Call 4 (to 8)`` / ``Vedo 4 (a 8)`` when the call ``added`` 4."""

    def text(lang: Language) -> str:
        label = action_label(kind, lang)
        return label if amount is None else f"{label} {said_amount(amount, added, lang)}"

    return both(text)


def award_lines(deal: FinishedDeal) -> list[Line]:
    """Each pot's :func:`award_line` in both languages, in the result's order (none after a
    passed deal or a parol)."""
    result = deal.view.result
    assert result is not None
    if result.outcome is not Outcome.WON:
        return []
    return [
        Line(award_line(award, i, deal, Language.EN), award_line(award, i, deal, Language.IT))
        for i, award in enumerate(result.awards)
    ]


def report_lines(deal: FinishedDeal) -> list[Line]:
    """The after-deal narration (:func:`deal_report`) in both languages, line by line."""
    return [
        Line(en, it)
        for en, it in zip(
            deal_report(deal, Language.EN), deal_report(deal, Language.IT), strict=True
        )
    ]
