"""A replayed deal in words (``italian-poker replay``): English, with the Italian terms of the
game from :mod:`italian_poker.engine.vocabulary`."""

from __future__ import annotations

from typing import Any

from italian_poker.engine.actions import ActionKind
from italian_poker.engine.cards import format_cards
from italian_poker.engine.deal import ActionRecord, Deal, Outcome
from italian_poker.engine.history.file_format import antes_of
from italian_poker.engine.history.model import HandHistory
from italian_poker.engine.vocabulary import ACTION_PHRASES, SPLIT_OPENING, STAND_PAT, italian_term
from italian_poker.engine.wording import count


def describe_action(record: ActionRecord, deal: Deal) -> str:
    """One replayed action in words, English with the Italian term, e.g.
    ``"Bruno raises to 8 (rilancio)"``."""
    name = deal.names[record.seat]
    action = record.action
    english, italian = ACTION_PHRASES[action.kind], italian_term(action.kind)
    if action.kind is ActionKind.DRAW:
        count = len(action.cards)
        if count == 0:
            return f"{name} {STAND_PAT[0]} ({STAND_PAT[1]})"
        text = f"{name} {english} {count} ({format_cards(action.cards)}) ({italian} {count})"
        if action.split:
            text += f", announcing {SPLIT_OPENING[0]} ({SPLIT_OPENING[1]}, 4.4)"
        return text
    if action.kind is ActionKind.SHOW:
        rank = deal.shown.get(record.seat)
        cards = format_cards(deal.hands[record.seat])
        what = f": {rank.description} / {rank.description_it}" if rank is not None else ""
        return f"{name} shows {cards} ({italian}){what}"
    amount = f" {action.amount}" if action.amount is not None else ""
    return f"{name} {english}{amount} ({italian})"


def describe(history: HandHistory, deal: Deal) -> list[str]:
    """A readable account of ``history`` as replayed into ``deal`` (see :func:`replay`)."""
    n = len(history.names)
    rules = history.rules
    lines = [
        f"Deal{'' if history.number is None else f' {history.number}'}: {count(n, 'player')}, "
        f"rules {rules.name!r}, {len(deal.deck)}-card deck, "
        f"dealer {history.names[history.dealer]} (p{history.dealer + 1})",
        f"To open: {deal.requirement.describe()} / {deal.requirement.describe('it')}",
    ]
    if history.carried:
        lines.append(f"Chips carried from earlier deals: {history.carried}")
    if not history.blinds_allowed:
        lines.append("No blinds on this deal (the deal after a parol, 5.5)")
    lines.append("Seats:")
    antes = antes_of(history)
    for s, name in enumerate(history.names):
        extra = f", make-up {history.makeups[s]}" if history.makeups[s] else ""
        chips = count(history.stacks[s], "chip")
        lines.append(f"  p{s + 1} {name}: {chips}, ante {antes[s]}{extra}")
    lines.append("Actions:")
    dealt = list(history.dealt)
    for i in range(len(deal.actions) + 1):
        while dealt and dealt[0].after == i:
            d = dealt.pop(0)
            late = " (the fourth card, after everyone else, 4.2)" if d.late else ""
            lines.append(f"     dealer gives {deal.names[d.seat]} {format_cards(d.cards)}{late}")
        if i < len(deal.actions):
            lines.append(f"  {i + 1:>3}. {describe_action(deal.actions[i], deal)}")
    if deal.reshuffles:
        times = count(len(deal.reshuffles), "time")
        lines.append(f"The discards were reshuffled {times} (4.3)")
    result = deal.result
    if result is None:
        lines.append("The deal is not over.")
        return lines
    if result.proof:
        lines.append(f"Opening proved with {format_cards(result.proof)}")
    outcome = {
        Outcome.WON: "the pot is won",
        Outcome.PASSED: "everyone passed (3.5): the pot stays for the next deal",
        Outcome.PAROL: "everyone said parol (5.4(a)): the pot goes to the next deal",
    }[result.outcome]
    lines.append(f"Outcome: {outcome}")
    for award in result.awards:
        shares = ", ".join(
            f"{deal.names[w]} {share}" for w, share in zip(award.winners, award.shares, strict=True)
        )
        lines.append(f"Pot of {award.amount}: {shares} ({award.reason})")
    if result.carried:
        lines.append(f"Carried to the next deal: {result.carried}")
    if any(result.returned):
        lines.append(f"Antes returned: {list(result.returned)}")
    for s, amount in enumerate(result.makeups):
        if amount:
            lines.append(f"{deal.names[s]} must make up {amount} to play the next deal (5.5)")
    lines.append("Final stacks:")
    for s, name in enumerate(history.names):
        change = result.stacks[s] - history.stacks[s]
        lines.append(f"  p{s + 1} {name}: {result.stacks[s]} ({change:+d})")
    return lines


def summary(history: HandHistory, deal: Deal) -> dict[str, Any]:
    """JSON-ready final stacks and pot awards of a replayed deal."""
    result = deal.result
    return {
        "players": list(history.names),
        "starting_stacks": list(history.stacks),
        "complete": result is not None,
        "outcome": None if result is None else result.outcome.value,
        "final_stacks": list(deal.stacks if result is None else result.stacks),
        "carried": None if result is None else result.carried,
        "awards": [
            {
                "amount": a.amount,
                "eligible": [history.names[s] for s in a.eligible],
                "winners": [history.names[s] for s in a.winners],
                "shares": list(a.shares),
                "reason": a.reason,
            }
            for a in (result.awards if result is not None else ())
        ],
    }
