"""The draw as a referee checks it (Art. 4): every legal deal's history replays exactly, with
the late fourth card (4.2) and the reshuffles (4.3) found from the operations log; the proof
of the opening (4.4) is never made of cards another player holds; a split (4.4) is only the
announcement that the opening is broken; a refused action changes nothing."""

from __future__ import annotations

import random

import pytest
from engine_helpers import NO_BLINDS, cards, new_deal, play, rules, snapshot

from italian_poker import Action, ActionKind, Deal, DealStart, Rules
from italian_poker.engine.actions import call, check, draw, fold, open_
from italian_poker.engine.errors import IllegalActionError, InvalidDrawError, SplitError
from italian_poker.engine.history import HandHistory, dumps, loads, replay
from italian_poker.engine.observer import PUBLIC, observe, observe_operations
from italian_poker.engine.operations import FourthCardDealt, Reshuffled

# --- 4.2, 4.3: the dealer's late fourth card, one of his own discards -------------------------

NINE_DECK = (
    "9s Th 8c 5h 7s 9d Jd 4h Js 4d 3c Qs 6c 2d 3d 6s 8h Tc Jc Kh 6d Kd 2c Jh 5d Ah 3s 5s 6h Ac "
    "Qh 8s Qc 7c Qd 8d 9c 3h 5c Ks Ad 4s Ts 2h 9h As Td 7d Kc 4c 2s 7h"
)
"""A deck for nine players, dealer seat 2, in which the last reshuffle (4.3) holds only the
dealer's discards when his late fourth card (4.2) is served."""


def nine_players_dealer_draws_last() -> Deal:
    """Nine players, seat 6 opens; everyone calls; heavy draws run the stock out three times,
    and the dealer (seat 2), drawing four last, gets his fourth card from his own discards."""
    deal = Deal(
        DealStart(
            rules=Rules(**NO_BLINDS, players=9),
            names=tuple(f"P{i}" for i in range(9)),
            stacks=(1000,) * 9,
            dealer=2,
            deck=cards(NINE_DECK),
            seed=54,  # the reshuffles' order (4.3)
        )
    )
    play(
        deal,
        (3, Action(ActionKind.PASS)),
        (4, Action(ActionKind.PASS)),
        (5, Action(ActionKind.PASS)),
        (6, open_(1)),
        *[(s, call()) for s in (7, 8, 0, 1, 2, 3, 4, 5)],
        (3, draw(*cards("4d 9s 9c Jc"))),
        (4, draw(*cards("Th Kh"))),
        (5, draw(*cards("6d Ac"))),
        (6, draw(*cards("Ks 6c 5h Qh"), split=True)),
        (7, draw(*cards("8s 7s 2d Ad"))),
        (8, draw(*cards("Jh 9d Qc 4s"))),
        (0, draw(*cards("6s 7c Jd 5d"))),
        (1, draw()),
        (2, draw(*cards("8d 9h 3s Js"))),
    )
    return deal


def test_the_dealers_late_fourth_card_from_his_own_discards_replays() -> None:
    """4.2, 4.3: the dealer's late fourth card is one of his own discards (nothing else was
    left). The history used to replay with one dealer line fewer (the card was looked for as a
    card new to his hand); the dealer lines are now read from the operations log."""
    deal = nine_players_dealer_draws_last()
    last = deal.operations[-2:]
    assert isinstance(last[0], Reshuffled) and set(last[0].cards) == set(cards("8d 9h 3s Js"))
    assert isinstance(last[1], FourthCardDealt) and last[1].seat == 2
    assert last[1].card in deal.discards[2]
    history = HandHistory.from_deal(deal)
    assert replay(history).hands == deal.hands
    assert replay(loads(dumps(history))).hands == deal.hands
    while deal.actor is not None:
        kinds = {la.kind for la in deal.legal_actions()}
        deal.apply(Action(ActionKind.CHECK if ActionKind.CHECK in kinds else ActionKind.SHOW))
    finished = HandHistory.from_deal(deal, number=1)
    assert replay(loads(dumps(finished))).result == deal.result


def test_the_replayer_frames_the_dealers_late_fourth_card() -> None:
    """The replayer (table/replay_frames.py) replays the same deal to its end."""
    from italian_poker.table.replay_frames import hand_frames

    deal = nine_players_dealer_draws_last()
    while deal.actor is not None:
        kinds = {la.kind for la in deal.legal_actions()}
        deal.apply(Action(ActionKind.CHECK if ActionKind.CHECK in kinds else ActionKind.SHOW))
    history = loads(dumps(HandHistory.from_deal(deal, number=1)))
    frames = hand_frames(history, PUBLIC, deal.requirement)
    assert len(frames.frames) == len(deal.actions) + 1
