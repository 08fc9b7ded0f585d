"""The one vocabulary of the game in English and Italian: every word a front end says.

The engine's own words (cards, hands, actions, phases) come from
:mod:`italian_poker.engine.vocabulary`; this module adds what the front ends say on top of
them: the table's terms (:data:`TERMS`, the glossary's *mazziere*, *piatto*, *invito*, ...),
the messages of the terminal game and the sentences of the narration (:data:`MESSAGES`,
looked up by :func:`tr`), and the labels of the browser's pages (:func:`page_strings`, which
the server sends to the browser: the browser keeps no copy of its own). The terms are those
of docs/rules.md's glossary, as an Italian table says them (a test checks it).

:func:`action_label` names an action (*apro*, *vedo*, *rilancio*, ...) and
:data:`ACTION_KEYS` gives each action its one-key shortcut, the same in both languages.

Counted words follow the count through one mechanism, :func:`plural`: in a template a
number placeholder may carry the two forms as its format, ``{count:card|cards}`` (``1 card``,
``2 cards``); a ``#`` in a form places the number, ``{amount:ti serve # fiche|ti servono #
fiches}``. The browser's lookup (``static/i18n.js``) reads the same notation.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from typing import Any

from italian_poker.engine.actions import ActionKind
from italian_poker.engine.cards import Card, Suit
from italian_poker.engine.deal import Phase
from italian_poker.engine.vocabulary import (
    ACTION_NAMES,
    CARD_NAME,
    PHASE_NAMES,
    RANK_NAMES,
    Language,
    Pair,
    action_name,
    card_name,
    phase_name,
    pick,
)
from italian_poker.engine.vocabulary import SUIT_NAMES as _SUITS_BY_LETTER

__all__ = [
    "ACTION_KEYS",
    "ACTION_LABELS",
    "BOT_NAMES",
    "HUMAN_NAMES",
    "MESSAGES",
    "PAGE_MESSAGES",
    "PHASE_LABELS",
    "SUIT_NAMES",
    "TERMS",
    "Language",
    "Pair",
    "action_label",
    "amount_text",
    "card_label",
    "counted",
    "detect_language",
    "either",
    "joined",
    "key_label",
    "page_strings",
    "phase_label",
    "pick",
    "plural",
    "suit_name",
    "tr",
]


def detect_language(environ: Mapping[str, str]) -> Language:
    """Italian when the locale (``LC_ALL``, ``LC_MESSAGES`` or ``LANG``) starts with ``it``,
    else English."""
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(variable, "")
        if value:
            return Language.IT if value.lower().startswith("it") else Language.EN
    return Language.EN


ACTION_LABELS: dict[ActionKind, Pair] = {kind: ACTION_NAMES[kind.value] for kind in ActionKind}
"""Each action's name on its button and in the log: (English, Italian), the engine's
vocabulary."""

ACTION_KEYS: dict[ActionKind, str] = {
    ActionKind.OPEN: "a",
    ActionKind.PASS: "p",
    ActionKind.CALL: "v",
    ActionKind.RAISE: "r",
    ActionKind.CHECK: "b",
    ActionKind.BET: "u",
    ActionKind.PAROL: "l",
    ActionKind.FOLD: "f",
    ActionKind.BLIND: "i",
    ActionKind.CONTROBUIO: "c",
    ActionKind.OVER: "o",
    ActionKind.DECLINE: "n",
    ActionKind.DRAW: "enter",
    ActionKind.SHOW: "s",
    ActionKind.MUCK: "m",
    ActionKind.MAKE_UP: "e",
    ActionKind.SIT_OUT: "x",
}
"""One-key shortcuts, the same in both languages and in both front ends (mostly the Italian
initials: a=apro, p=passo, v=vedo, r=rilancio, b=busso, u=punto, l=parola, f=fold/lascio,
i=buio, ...)."""

PHASE_LABELS: dict[Phase, Pair] = {phase: PHASE_NAMES[phase.value] for phase in Phase}
"""Each phase of a deal, from the engine's vocabulary."""

SUIT_NAMES: dict[Suit, Pair] = {
    suit: _SUITS_BY_LETTER[suit.letter] for suit in sorted(Suit, reverse=True)
}
"""Each suit, highest first (hearts, diamonds, clubs, spades), from the engine's vocabulary."""

BOT_NAMES: tuple[str, ...] = (
    "Anna",
    "Bruno",
    "Carla",
    "Dario",
    "Elena",
    "Fabio",
    "Giulia",
    "Marco",
)
"""Names of the terminal game's bots, seated in this order after the human."""

HUMAN_NAMES: dict[Language, str] = {Language.EN: "Player", Language.IT: "Giocatore"}
"""The human player's name at the terminal game's table."""

TERMS: dict[str, Pair] = {
    "dealer": ("dealer", "mazziere"),
    "deal": ("deal", "mano"),
    "pot": ("pot", "piatto"),
    "side_pot": ("side pot", "piatto laterale"),
    "chips": ("chips", "fiches"),
    "ante": ("ante", "invito"),
    "opener": ("opener", "chi ha aperto"),
    "stand_pat": ("stand pat", "servito"),
    "discards": ("discards", "scarti"),
}
"""The table's nouns, as docs/rules.md's glossary gives them (lower case; the messages
capitalise them where a sentence begins)."""


def _capital(pair: Pair) -> Pair:
    return pair[0][:1].upper() + pair[0][1:], pair[1][:1].upper() + pair[1][1:]


MESSAGES: dict[str, Pair] = {
    # Table.
    "title": ("Italian Poker", "Poker all'italiana"),
    "status": (
        "Rules {rules} · deal {number} · {phase} · {opening}",
        "Regole {rules} · mano {number} · {phase} · {opening}",
    ),
    "status_to_open": ("to open: {requirement}", "per aprire: {requirement}"),
    "status_blind": ("blind: no opening needed (2, blind)", "buio: non serve aprire (2, buio)"),
    "status_idle": (
        "Rules {rules} · {players:player|players} · {deck}-card deck",
        "Regole {rules} · {players:giocatore|giocatori} · mazzo da {deck:carta|carte}",
    ),
    "pot": ("Pot {pot}", "Piatto {pot}"),
    "current_bet": ("bet to match {bet}", "puntata da pareggiare {bet}"),
    "stack": ("Chips {stack}", "Fiches {stack}"),
    "bet_in_round": ("bet {amount}", "puntata {amount}"),
    "dealer": TERMS["dealer"],
    "you": ("you", "tu"),
    "your_turn": ("Your turn", "Tocca a te"),
    "thinking": ("{name} is thinking...", "{name} sta pensando..."),
    "folded": ("folded", "ha lasciato"),
    "sitting_out": ("sits out this deal", "salta la mano"),
    "busted": ("left the table", "ha lasciato il tavolo"),
    "opener": ("opener", "ha aperto"),
    "changed": ("changed {count:card|cards}", "{count:ne ha cambiata #|ne ha cambiate #}"),
    "stood_pat": ("stood pat", "servito"),
    "your_hand": ("Your hand", "Le tue carte"),
    "no_cards_yet": (
        "No cards yet: the blind is bet before the deal (2, blind)",
        "Ancora nessuna carta: il buio si punta prima della distribuzione (2, buio)",
    ),
    "hand_pending": (
        "{held:card|cards} held; {due:card|cards} still to come, after the others have drawn (4.2)",
        "{held:carta|carte} in mano; {due:manca ancora # carta, che arriva|mancano ancora # "
        "carte, che arrivano} dopo il cambio degli altri (4.2)",
    ),
    "not_in_deal": (
        "You are not in this deal: the bots play it out",
        "Non giochi questa mano: la giocano i bot",
    ),
    # Prompts.
    "prompt_blind": (
        "Bet {kind} of {amount} before seeing your cards, or decline. [{key}] bet, [{decline}] "
        "decline",
        "Punti {kind} da {amount} prima di vedere le carte, o rinunci? [{key}] punta, "
        "[{decline}] rinuncia",
    ),
    "prompt_opening": (
        "Nobody has opened. To open you need {requirement}.",
        "Nessuno ha aperto. Per aprire serve {requirement}.",
    ),
    "prompt_cannot_open": (
        "Your hand does not open: you need {requirement}. You can only pass.",
        "Non puoi aprire: serve {requirement}. Puoi solo passare.",
    ),
    "prompt_call": (
        "you add {amount:chip|chips} to call. {choices}?",
        "aggiungi {amount:fiche|fiches} per vedere. {choices}?",
    ),
    "prompt_call_to": (
        "you add {amount:chip|chips} to call (your bet becomes {total}). {choices}?",
        "aggiungi {amount:fiche|fiches} per vedere (la tua puntata va a {total}). {choices}?",
    ),
    "prompt_no_bet": (
        "there is no bet to call. {choices}?",
        "non c'è nessuna puntata da vedere. {choices}?",
    ),
    "prompt_draw": (
        "Draw: press 1-5 to mark the cards to change (up to 4), Enter to confirm; "
        "none marked = stand pat.",
        "Cambio: premi 1-5 per segnare le carte da cambiare (fino a 4), Invio per confermare; "
        "nessuna = servito.",
    ),
    "prompt_draw_split": (
        "These discards break your opening: the split is announced and they are kept apart "
        "for the proof (4.4).",
        "Questi scarti spezzano l'apertura: lo si annuncia e restano da parte per la prova (4.4).",
    ),
    "prompt_showdown": (
        "Showdown: show your hand, or muck it without showing.",
        "Si scoprono le carte: mostra la mano, o butta le carte coperte.",
    ),
    "prompt_showdown_show": ("Showdown: show your hand.", "Si scoprono le carte: mostra la mano."),
    "prompt_makeup": (
        "After the parol: make up {amount:chip|chips} to play this deal (5.5), or sit it out.",
        "Dopo la parola: adegui la puntata con {amount:fiche|fiches} per giocare questa mano "
        "(5.5), o salti la mano.",
    ),
    "prompt_amount": (
        "{action}: type your total bet for this round, {low} to {high}, then Enter (Esc cancels).",
        "{action}: scrivi la tua puntata totale in questo giro, da {low} a {high}, poi Invio "
        "(Esc annulla).",
    ),
    "prompt_amount_added": (
        "{action}: type the total your bet becomes, {low} to {high} (you add {added_low} to "
        "{added_high}), then Enter (Esc cancels).",
        "{action}: scrivi a quanto va la tua puntata, da {low} a {high} (aggiungi da "
        "{added_low} a {added_high}), poi Invio (Esc annulla).",
    ),
    "amount_added": ("{added} (to {total})", "{added} (a {total})"),
    "amount_placeholder": ("{low}-{high}", "{low}-{high}"),
    "amount_not_number": (
        "{text!r} is not a number of chips: type a whole number from {low} to {high}.",
        "{text!r} non è un numero di fiches: scrivi un numero intero da {low} a {high}.",
    ),
    "amount_out_of_range": (
        "{amount} is outside the allowed range: type a number from {low} to {high}.",
        "{amount} è fuori dai limiti: scrivi un numero da {low} a {high}.",
    ),
    "key_not_available": (
        "{key!r} does nothing now. Keys: {keys}",
        "{key!r} ora non fa nulla. Tasti: {keys}",
    ),
    "too_many_cards": (
        "You may change at most {max:card|cards} (4.1).",
        "Puoi cambiare al massimo {max:carta|carte} (4.1).",
    ),
    "next_deal": (
        "Press Enter for the next deal, ? for help, q to quit.",
        "Premi Invio per la prossima mano, ? per l'aiuto, q per uscire.",
    ),
    "next_deal_button": ("Next deal", "Prossima mano"),
    "report_empty": (
        "After each deal: the hands shown, who won what and why.",
        "Dopo ogni mano: le carte mostrate, chi ha vinto cosa e perché.",
    ),
    "game_over": (
        "The game is over. Press q (or Enter) for the summary.",
        "La partita è finita. Premi q (o Invio) per il riepilogo.",
    ),
    # Log lines.
    "log_deal_start": (
        "Deal {number}: {dealer} deals; to open: {requirement}",
        "Mano {number}: distribuisce {dealer}; per aprire: {requirement}",
    ),
    "log_action": ("{name}: {action}", "{name}: {action}"),
    "log_draw": ("{name} changes {count}", "{name} cambia {count}"),
    "log_draw_cards": ("{name} changes {count}: {cards}", "{name} cambia {count}: {cards}"),
    "log_draw_pat": ("{name} stands pat", "{name}: servito"),
    "log_fourth_later": (
        "{name} gets the fourth card after everyone else has drawn (4.2)",
        "{name} riceve la quarta carta dopo il cambio di tutti gli altri (4.2)",
    ),
    "log_split": (
        "{name} announces a split opening (4.4)",
        "{name} annuncia che spezza l'apertura (4.4)",
    ),
    "log_bot_error": (
        "{name}'s bot chose an illegal action ({error}); it plays {action} instead.",
        "Il bot di {name} ha scelto un'azione non valida ({error}); gioca {action}.",
    ),
    "log_saved": ("Hand history saved: {path}", "Cronologia della mano salvata: {path}"),
    "log_save_failed": (
        "Could not save the hand history: {error}",
        "Impossibile salvare la cronologia della mano: {error}",
    ),
    # After the deal (explain).
    "report_title": ("Deal {number}", "Mano {number}"),
    "report_shown": ("{name} shows {cards}: {category}", "{name} mostra {cards}: {category}"),
    "report_mucked": ("{name} mucks without showing", "{name} non mostra le carte"),
    "report_your_hand": ("Your hand: {cards}: {category}", "La tua mano: {cards}: {category}"),
    "report_wins": (
        "{names} wins {amount}{pot}: {reason}",
        "{names} vince {amount}{pot}: {reason}",
    ),
    "report_split": (
        "{names} split {amount}{pot} ({shares}): {reason}",
        "{names} si dividono {amount}{pot} ({shares}): {reason}",
    ),
    "report_side_pot": (" (side pot)", " (piatto laterale)"),
    "reason_uncalled_first": (
        "everyone else folded, so the pot is won without showing (3.7)",
        "tutti gli altri hanno lasciato: il piatto si vince senza mostrare (3.7)",
    ),
    "reason_uncalled_second": (
        "everyone else folded, so the pot is won without showing (5.4(c))",
        "tutti gli altri hanno lasciato: il piatto si vince senza mostrare (5.4(c))",
    ),
    "reason_only_eligible": (
        "the only hand left in this pot (the others folded or mucked)",
        "l'unica mano rimasta in questo piatto (gli altri hanno lasciato o non hanno mostrato)",
    ),
    "reason_category": (
        "{winner} beats {loser}: a higher category (6, ranking){flush_note}",
        "{winner} batte {loser}: una combinazione più alta (6, valore delle mani){flush_note}",
    ),
    "flush_note": (
        "; in Italian poker a flush beats a full house",
        "; nel poker all'italiana il colore batte il full",
    ),
    "reason_ranks": (
        "{winner} beats {loser}: higher cards",
        "{winner} batte {loser}: carte più alte",
    ),
    "reason_suit": (
        "{winner} beats {loser}: equal ranks, the suit decides ({tiebreak}): "
        "hearts > diamonds > clubs > spades",
        "{winner} batte {loser}: a parità di valori decide il seme ({tiebreak}): "
        "cuori > quadri > fiori > picche (Come Quando Fuori Piove)",
    ),
    "reason_min_beats_max": (
        "la minima batte la massima: the minimum straight flush beats the maximum (7.2)",
        "la minima batte la massima (7.2)",
    ),
    "reason_sf_class": (
        "the {winner_class} straight flush beats the {loser_class} (7.2)",
        "la scala reale {winner_class} batte la {loser_class} (7.2)",
    ),
    "reason_three_way": (
        "three straight flushes, minimum, medium and maximum: the pot is split (7.3)",
        "tre scale reali, minima, media e massima: il piatto si divide (7.3)",
    ),
    "reason_tie": ("equal hands share the pot", "mani uguali si dividono il piatto"),
    "sf_minimum": ("minimum", "minima"),
    "sf_medium": ("medium", "media"),
    "sf_maximum": ("maximum", "massima"),
    "tiebreak_standard": ("7.4", "7.4"),
    "tiebreak_fantini": ("Fantini/Santelia", "Fantini/Santelia"),
    "report_possessive": ("{name}'s {hand}", "{hand} di {name}"),
    "report_passed": (
        "Everyone passed (3.5): nobody opened and the pot of {pot} stays for the next deal.",
        "Tutti hanno passato (3.5): nessuno ha aperto e il piatto di {pot} resta per la "
        "prossima mano.",
    ),
    "report_passed_returned": (
        "Everyone passed (3.5, passed deal): the antes go back to the players.",
        "Tutti hanno passato (3.5, piatto di parole): gli inviti tornano ai giocatori.",
    ),
    "report_parol": (
        "Everyone said parol (5.4(a)): the hand is abandoned and the pot of {pot} goes to the "
        "next deal, with no blinds (5.5).",
        "Tutti hanno detto parola (5.4(a)): la mano si abbandona e il piatto di {pot} passa "
        "alla prossima mano, senza buio (5.5).",
    ),
    "report_makeup": (
        "{name} folded in the first round: to play the next deal they must make up {amount} (5.5).",
        "{name} ha lasciato al primo giro: per giocare la prossima mano deve adeguare la "
        "puntata con {amount} (5.5).",
    ),
    "report_next_requirement": (
        "Next deal: to open you need {requirement}.",
        "Prossima mano: per aprire serve {requirement}.",
    ),
    "report_proof": (
        "{name} opened and proves it with {cards} (3.3).",
        "{name} ha aperto e lo dimostra con {cards} (3.3).",
    ),
    "report_blind_no_proof": (
        "No opening to prove: the pot was played on a blind (2, blind).",
        "Nessuna apertura da dimostrare: si è giocato sul buio (2, buio).",
    ),
    "report_stacks": ("Chips: {stacks}", "Fiches: {stacks}"),
    # Session summary.
    "summary_title": ("Session summary", "Riepilogo della partita"),
    "summary_deals": (
        "Deals played: {deals} ({won} won, {passed} passed, {parol} abandoned by parol)",
        "Mani giocate: {deals} ({won:vinta|vinte}, {passed:passata|passate}, "
        "{parol:abbandonata|abbandonate} con parola)",
    ),
    "summary_player": (
        "{name}: {start} → {end} ({change:+d}), {pots:pot|pots} won",
        "{name}: {start} → {end} ({change:+d}), {pots:piatto vinto|piatti vinti}",
    ),
    "summary_player_left": (
        "{name}: {start} → {end} ({change:+d}), {pots:pot|pots} won, left the table",
        "{name}: {start} → {end} ({change:+d}), {pots:piatto vinto|piatti vinti}, ha lasciato "
        "il tavolo",
    ),
    "summary_biggest": (
        "Biggest pot: {amount}, won by {names} in deal {number}",
        "Piatto più grande: {amount}, vinto da {names} nella mano {number}",
    ),
    "summary_histories": (
        "Hand histories: {path} (replay with: {command} replay {quoted})",
        "Cronologie delle mani: {path} (rivedile con: {command} replay {quoted})",
    ),
    "summary_error": (
        "The game stopped on an error ({error}); this is the session as it stood then. "
        "Please report it with the traceback above.",
        "La partita si è interrotta per un errore ({error}); ecco la partita com'era a quel "
        "punto. Per favore segnalalo con il traceback qui sopra.",
    ),
    "summary_no_histories": ("No deal was completed.", "Nessuna mano è stata completata."),
    "summary_abandoned": (
        "The deal in progress was left unfinished and is not counted.",
        "La mano in corso è stata lasciata a metà e non conta.",
    ),
    "summary_human_busted": ("You have no chips left.", "Hai finito le fiches."),
    "summary_table_won": (
        "Nobody else can play on: you have won the table!",
        "Nessun altro può continuare: hai vinto il tavolo!",
    ),
    "summary_match_over": (
        "Fewer than two players can be dealt in: the game is over.",
        "Meno di due giocatori possono ricevere le carte: la partita è finita.",
    ),
    "summary_close": ("Press q or Enter to leave.", "Premi q o Invio per uscire."),
    "no_deal": (
        "After the make-up answers fewer than two players can be dealt in (5.5): no deal; "
        "the pot of {pot} waits for the next.",
        "Dopo le risposte sull'adeguamento meno di due giocatori possono ricevere le carte (5.5): "
        "nessuna mano; il piatto di {pot} aspetta la prossima.",
    ),
    # Statistics (table/statistics.py): the terminal's `italian-poker stats` and the page.
    "stats_title": ("Statistics", "Statistiche"),
    "stats_player": ("Player", "Giocatore"),
    "stats_played": ("Deals played", "Mani giocate"),
    "stats_opened": ("Opened", "Aperture"),
    "stats_showdowns": ("Showdowns", "Showdown"),
    "stats_showdowns_won": ("Won at showdown", "Vinte allo showdown"),
    "stats_won_without_showdown": ("Won without showdown", "Vinte senza showdown"),
    "stats_net": ("Net", "Saldo"),
    "stats_biggest_pot": ("Biggest pot", "Piatto più grande"),
    "stats_deals": (
        "{deals:deal|deals}: {opened} opened, {passed} passed, {parols} abandoned by parol, "
        "{showdowns} to a showdown",
        "{deals:mano|mani}: {opened:aperta|aperte}, {passed:passata|passate}, "
        "{parols:abbandonata|abbandonate} con parola, {showdowns} allo showdown",
    ),
    "stats_carried": (
        "Chips in these pots from earlier deals: {carried_in}; carried on to later deals: "
        "{carried_out}; the nets add up to {net}",
        "Fiches nei piatti da mani precedenti: {carried_in}; passate a mani successive: "
        "{carried_out}; i saldi sommano a {net}",
    ),
    "stats_unfinished": (
        "{count:deal|deals} not over, left out",
        "{count:mano non finita|mani non finite}, non contate",
    ),
    "stats_empty": ("No deal is finished yet.", "Ancora nessuna mano finita."),
    "stats_files": (
        "{files:hand history|hand histories} in {folder}",
        "{files:cronologia di mano|cronologie di mani} in {folder}",
    ),
    "stats_error": ("error: {message}", "errore: {message}"),
    "stats_warning": (
        "warning: {file}: {reason}; left out",
        "attenzione: {file}: {reason}; esclusa",
    ),
    "stats_no_folder": ("no such folder: {path}", "cartella inesistente: {path}"),
    "stats_no_histories": (
        "no hand histories (*.phh) in {path} or its folders",
        "nessuna cronologia di mano (*.phh) in {path} né nelle sue cartelle",
    ),
    "stats_none_read": (
        "none of the {files:hand history|hand histories} in {folder} could be counted",
        "nessuna delle {files:cronologia di mano|cronologie di mani} in {folder} si è potuta "
        "contare",
    ),
    "stats_cannot_read": ("cannot read: {reason}", "impossibile leggere: {reason}"),
    "stats_not_text": (
        "not a text file (UTF-8): byte 0x{byte:02x} at position {position}",
        "non è un file di testo (UTF-8): byte 0x{byte:02x} alla posizione {position}",
    ),
    "stats_not_over": ("the deal is not over", "la mano non è finita"),
    # The advisor (italian-poker advise).
    "advise_error": ("error: {message}", "errore: {message}"),
    "advise_bad_card": (
        "cannot read card {card!r}: write a rank (2-9, T or 10, J, Q, K, A) followed by a suit "
        "(h, d, c, s or ♥ ♦ ♣ ♠), e.g. 'Ah 10d 7c'",
        "carta {card!r} illeggibile: scrivi un valore (2-9, T o 10, J, Q, K, A) seguito da un "
        "seme (h, d, c, s o ♥ ♦ ♣ ♠), per esempio 'Ah 10d 7c'",
    ),
    "advise_hand_size": (
        "a hand has five cards, you gave {count:card|cards}",
        "una mano ha cinque carte, {count:ne hai data #|ne hai date #}",
    ),
    "advise_duplicate": (
        "{card} is given twice: a hand has five different cards",
        "{card} compare due volte: una mano ha cinque carte diverse",
    ),
    "advise_seen_in_hand": (
        "--seen: {card} is in your hand; give only the other cards you have seen",
        "--seen: {card} è nella tua mano; indica solo le altre carte viste",
    ),
    "advise_seen_twice": (
        "--seen: {card} is given twice",
        "--seen: {card} compare due volte",
    ),
    "advise_not_in_deck": (
        "{card} is not in the deck for {players:player|players} ({deck:card|cards}, lowest "
        "rank {low})",
        "{card} non è nel mazzo per {players:giocatore|giocatori} ({deck:carta|carte}, valore "
        "più basso {low})",
    ),
    "advise_players": (
        "--players must be 2 to 9, got {players}",
        "--players deve essere da 2 a 9, non {players}",
    ),
    "advise_opponents": (
        "--opponents must be 1 to {max} at a table of {players:player|players}, got {value}",
        "--opponents deve essere da 1 a {max} a un tavolo di {players:giocatore|giocatori}, "
        "non {value}",
    ),
    "advise_min_pair": (
        "--min-pair must be J, Q, K or A, got {value!r}",
        "--min-pair deve essere J, Q, K o A, non {value!r}",
    ),
    "advise_min_pair_alone": (
        "--min-pair is the pair the opener opened with: give --opener too",
        "--min-pair è la coppia con cui si è aperto: aggiungi anche --opener",
    ),
    "advise_opener_hint": (
        "If you opened with this hand, add --opener to see which draws break the opening (4.4).",
        "Se hai aperto con questa mano, aggiungi --opener per vedere quali cambi spezzano "
        "l'apertura (4.4).",
    ),
    "advise_not_opener": (
        "--opener: {hand} does not open; it needs {requirement}",
        "--opener: {hand} non apre; serve {requirement}",
    ),
    "advise_hand": ("Hand: {hand} ({rank})", "Mano: {hand} ({rank})"),
    "advise_model": (
        "Deck of {deck:card|cards} for {players:player|players}; {unseen:card|cards} unseen. "
        "Win = expected share of the pot at the showdown against {opponents:opponent|opponents}, "
        "each dealt at random and drawing the plain way (an estimate); the odds of each hand "
        "are exact.",
        "Mazzo di {deck:carta|carte} per {players:giocatore|giocatori}; {unseen:carta|carte} non "
        "viste. Vinci = quota attesa del piatto allo showdown contro {opponents:avversario|"
        "avversari}, ognuno con cinque carte a caso e un cambio semplice (una stima); le "
        "probabilità di ogni punto sono esatte.",
    ),
    "advise_choice": (
        "{position}. {choice}: win {ev}, improve {improve}",
        "{position}. {choice}: vinci {ev}, migliora {improve}",
    ),
    "advise_keep": ("keep {kept}, change {change}", "tieni {kept}, cambia {change}"),
    "advise_stand_pat": ("stand pat (keep all five)", "servito (tieni tutte e cinque)"),
    "advise_split": (
        " (breaks the opening: announce the split)",
        " (spezza l'apertura: annuncialo)",
    ),
    "advise_split_note": (
        "You opened: a draw marked as breaking the opening must be announced, and its discards "
        "are kept apart for the proof (4.4).",
        "Hai aperto: un cambio che spezza l'apertura va annunciato, e i suoi scarti restano da "
        "parte per la prova (4.4).",
    ),
    # The review of saved hands (italian-poker review, analysis/review.py).
    "review_error": ("error: {message}", "errore: {message}"),
    "review_no_path": ("no such file or folder: {path}", "file o cartella inesistente: {path}"),
    "review_no_histories": (
        "no hand histories (*.phh) in {path} or its folders",
        "nessuna cronologia di mano (*.phh) in {path} né nelle sue cartelle",
    ),
    "review_none_read": (
        "none of the {files:hand history|hand histories} in {path} could be reviewed",
        "nessuna delle {files:cronologia di mano|cronologie di mani} in {path} si è potuta "
        "rivedere",
    ),
    "review_no_player": (
        "{player!r} was dealt in none of these deals; the histories name: {names} "
        "(choose one with --player)",
        "{player!r} non ha giocato nessuna di queste mani; le cronologie nominano: {names} "
        "(scegline uno con --player)",
    ),
    "review_bad_seat": (
        "--seat must be 1 to {most}, got {seat}",
        "--seat deve essere da 1 a {most}, non {seat}",
    ),
    "review_player_and_seat": (
        "give --player or --seat, not both",
        "indica --player o --seat, non entrambi",
    ),
    "review_redacted": (
        "one player's view of the deal (the others' cards and the deck are unknown): it "
        "cannot be replayed, so it cannot be reviewed",
        "la mano vista da un solo giocatore (carte altrui e mazzo sconosciuti): non si può "
        "rigiocare, quindi non si può rivedere",
    ),
    "review_warning": (
        "warning: {file}: {reason}; not reviewed",
        "attenzione: {file}: {reason}; non rivista",
    ),
    "review_summary": (
        "Review of {player}: {deals:deal|deals}, {count:decision|decisions} reviewed, "
        "{matched} as advised",
        "Revisione di {player}: {deals:mano|mani}, {count:decisione rivista|decisioni "
        "riviste}, {matched} come consigliato",
    ),
    "review_loss": (
        "Expected chips lost (an estimate): {loss} in all, {per_deal} per deal",
        "Fiches perse attese (una stima): {loss} in tutto, {per_deal} per mano",
    ),
    "review_skipped": (
        "{count:file|files} not reviewed (named above)",
        "{count:file non rivisto|file non rivisti} (indicati sopra)",
    ),
    "review_worst": ("Costliest decisions:", "Decisioni più costose:"),
    "review_where": ("{deal}, action {action}", "{deal}, azione {action}"),
    "review_line": ("- {where}: {what}; lost {loss}", "- {where}: {what}; persi {loss}"),
    "review_draw": (
        "kept {kept} (win {ev}), the advisor keeps {best} (win {best_ev}), pot {pot}",
        "tenute {kept} (vinci {ev}), il consigliere tiene {best} (vinci {best_ev}), piatto {pot}",
    ),
    "review_bet_odds": (
        "{done} with equity {equity} against pot odds {threshold} ({call} to call into "
        "{pot}): advised {advised}",
        "{done} con equità {equity} contro quota del piatto {threshold} ({call} da vedere su "
        "{pot}): consigliato {advised}",
    ),
    "review_bet_share": (
        "{done} with equity {equity} against a fair share of {threshold} (pot {pot}): "
        "advised {advised}",
        "{done} con equità {equity} contro una quota equa di {threshold} (piatto {pot}): "
        "consigliato {advised}",
    ),
    "review_estimate": (
        "Estimates: the draw by the advisor's win chance times the pot at the draw; bets by "
        "the strong bot's equity against the pot odds or a fair share (docs/review.md).",
        "Stime: il cambio con la probabilità di vincita del consigliere per il piatto al "
        "cambio; le puntate con l'equità del bot forte contro la quota del piatto o una quota "
        "equa (docs/review.md).",
    ),
    # The online table's events (the server's public log).
    "table_seat": ("{name} takes seat {seat}", "{name} si siede al posto {seat}"),
    "table_leave": ("{name} leaves the table", "{name} lascia il tavolo"),
    "table_leave_after_deal": (
        "{name} leaves the table after this deal",
        "{name} lascia il tavolo dopo questa mano",
    ),
    "table_start": ("The game starts", "Si comincia"),
    "table_pause": ("The host pauses the game", "L'organizzatore mette in pausa"),
    "table_resume": ("The game resumes", "Si riprende"),
    "table_stack": (
        "The host sets {name}'s chips to {amount}",
        "L'organizzatore porta le fiches di {name} a {amount}",
    ),
    "table_advice_on": (
        "The host turns the draw hint on",
        "L'organizzatore accende il consiglio al cambio",
    ),
    "table_advice_off": (
        "The host turns the draw hint off",
        "L'organizzatore spegne il consiglio al cambio",
    ),
    "table_ledger_shown": (
        "The host lets the players see the ledger",
        "L'organizzatore mostra il registro ai giocatori",
    ),
    "table_ledger_hidden": (
        "Only the host sees the ledger now",
        "Ora solo l'organizzatore vede il registro",
    ),
    "table_watch_opened": (
        "The host opens the table to spectators",
        "L'organizzatore apre il tavolo agli spettatori",
    ),
    "table_watch_opened_delayed": (
        "The host opens the table to spectators, who see each deal once it has ended",
        "L'organizzatore apre il tavolo agli spettatori, che vedono ogni mano quando è finita",
    ),
    "table_watch_closed": (
        "The host closes the table to spectators",
        "L'organizzatore chiude il tavolo agli spettatori",
    ),
    "table_watch_new_link": (
        "The host gives spectators a new watch link: the old one no longer works",
        "L'organizzatore dà agli spettatori un nuovo link: il vecchio non funziona più",
    ),
    "table_watch_delay_on": (
        "Spectators now see each deal once it has ended",
        "Ora gli spettatori vedono ogni mano quando è finita",
    ),
    "table_watch_delay_off": (
        "Spectators now see each deal as it is played",
        "Ora gli spettatori vedono ogni mano mentre si gioca",
    ),
    "watch_under_way": (
        "Deal {number} is under way: spectators see it when it ends",
        "La mano {number} è in corso: gli spettatori la vedono quando finisce",
    ),
    "table_sit_out": ("{name} sits out", "{name} sta fuori"),
    "table_sit_in": ("{name} is back", "{name} torna al tavolo"),
    "table_automatic": ("{line} (automatic)", "{line} (automatico)"),
    # Help.
    "help_title": ("Help", "Aiuto"),
    "help_keys": ("Keys", "Tasti"),
    "help_key": ("Key", "Tasto"),
    "help_action": ("Action", "Azione"),
    "help_close": ("Press Esc, q or ? to close.", "Premi Esc, q o ? per chiudere."),
    "help_missing": (
        "The rules text is not installed. See docs/rules.md in the project.",
        "Il testo delle regole non è installato. Vedi docs/rules.md nel progetto.",
    ),
    "help_key_cards": ("toggle card 1-5 for the draw", "segna/togli la carta 1-5 per il cambio"),
    "help_key_enter": (
        "confirm the draw; next deal",
        "conferma il cambio; prossima mano",
    ),
    "help_key_help": ("this help", "questo aiuto"),
    "help_key_quit": ("quit with the session summary", "esci con il riepilogo"),
    "help_key_escape": ("cancel an amount", "annulla un importo"),
    "help_key_advice": (
        "advice at your draw: the 3 best keeps (needs --advice)",
        "consiglio al tuo cambio: le 3 tenute migliori (serve --advice)",
    ),
    # Advice at the draw (italian-poker play --advice).
    "advice_off": (
        "Advice is off. To turn it on, start the game with: italian-poker play --advice",
        "Il consiglio è spento. Per accenderlo avvia il gioco con: italian-poker play --advice",
    ),
    "advice_not_now": (
        "Advice is given at your draw only.",
        "Il consiglio si dà solo al tuo cambio.",
    ),
    "advice_title": ("Advice (best keeps first):", "Consiglio (tenute migliori prima):"),
    "advice_line": (
        "{rank}. keep {kept}, change {count:card|cards}: win {win}%, improve {improve}%",
        "{rank}. tieni {kept}, cambia {count:carta|carte}: vinci {win}%, migliori {improve}%",
    ),
    "advice_split": (
        " (breaks the opening: announce the split, 4.4)",
        " (spezza l'apertura: si annuncia, 4.4)",
    ),
    "footer_help": ("Help", "Aiuto"),
    "footer_quit": ("Quit", "Esci"),
    "footer_confirm": ("confirm", "conferma"),
    "footer_cancel": ("cancel", "annulla"),
}
"""Message key -> (English, Italian) template."""

STATISTICS_PAGE_KEYS = (
    "stats_title",
    "stats_player",
    "stats_played",
    "stats_opened",
    "stats_showdowns",
    "stats_showdowns_won",
    "stats_won_without_showdown",
    "stats_net",
    "stats_biggest_pot",
    "stats_deals",
    "stats_carried",
    "stats_empty",
)
"""The statistics' words the browser's page says too (the others are the terminal's)."""

PAGE_MESSAGES: dict[str, Pair] = {
    # Words the pages share with the terminal game and the engine, taken from there.
    "title": MESSAGES["title"],
    "you": MESSAGES["you"],
    "your_turn": MESSAGES["your_turn"],
    "your_hand": MESSAGES["your_hand"],
    "dealer": MESSAGES["dealer"],
    "pot": MESSAGES["pot"],
    "stack": MESSAGES["stack"],
    "bet_in_round": MESSAGES["bet_in_round"],
    "changed": MESSAGES["changed"],
    "stood_pat": MESSAGES["stood_pat"],
    "status_folded": MESSAGES["folded"],
    "status_sitting_out": ("sits out", "sta fuori"),
    "draw_too_many": MESSAGES["too_many_cards"],
    "no_result": MESSAGES["report_empty"],
    "sit_out": ("Sit out", "Sto fuori"),
    "draw_title": ACTION_NAMES["draw"],
    "stand_pat": _capital(TERMS["stand_pat"]),
    "bot": ("bot", "bot"),
    "host": ("host", "organizzatore"),
    "ledger_hand": _capital(TERMS["deal"]),
    **{f"phase_{phase}": pair for phase, pair in PHASE_NAMES.items()},
    # The lobby.
    "lobby_title": ("Italian Poker: online table", "Poker all'italiana: tavolo online"),
    "lobby_intro": (
        "Create a table, share the invite link, and play with friends and bots. Play chips only.",
        "Crea un tavolo, condividi il link di invito e gioca con amici e bot. Solo fiches finte.",
    ),
    "create_title": ("Create a table", "Crea un tavolo"),
    "join_title": ("Join a table", "Entra in un tavolo"),
    "table_name": ("Table name", "Nome del tavolo"),
    "preset": ("Rules", "Regole"),
    "preset_standard": ("Standard (formal rulebook)", "Standard (regolamento formale)"),
    "preset_001": ("001", "001"),
    "preset_002": ("002", "002"),
    "preset_003": ("003 (discards face up)", "003 (scarti scoperti)"),
    "preset_fantini": ("Fantini/Santelia tie-break", "Spareggio Fantini/Santelia"),
    "seats": ("Seats", "Posti"),
    "starting_stack": ("Starting chips", "Fiches iniziali"),
    "ante": ("Ante (empty = as the rules say)", "Invito (vuoto = come da regole)"),
    "structure": ("Betting structure", "Struttura delle puntate"),
    "structure_default": ("As the rules say", "Come da regole"),
    "structure_spread-limit": ("Spread limit", "Limite a forbice"),
    "structure_fixed-limit": ("Fixed limit", "Limite fisso"),
    "structure_pot-limit": ("Pot limit", "Limite al piatto"),
    "structure_no-limit": ("No limit", "Senza limite"),
    "timer_on": ("Turn timer", "Tempo per turno"),
    "turn_seconds": ("Seconds per turn", "Secondi per turno"),
    "time_bank": ("Time bank (seconds)", "Riserva di tempo (secondi)"),
    "nickname": ("Your nickname", "Il tuo nome"),
    "nickname_hint": ("1 to 20 characters", "Da 1 a 20 caratteri"),
    "language": ("Language", "Lingua"),
    "create": ("Create table", "Crea il tavolo"),
    "invite_link": ("Invite link", "Link di invito"),
    "join": ("Take a seat", "Siediti"),
    "join_prompt": (
        "You are invited to this table. Choose a nickname to take a seat.",
        "Sei invitato a questo tavolo. Scegli un nome per sederti.",
    ),
    "bad_invite": (
        "Paste the whole invite link (it contains /t/ followed by the invite).",
        "Incolla il link di invito completo (contiene /t/ seguito dall'invito).",
    ),
    "working": ("Working…", "Un momento…"),
    # The table.
    "connecting": ("Connecting…", "Connessione…"),
    "connected": ("Connected", "Connesso"),
    "reconnecting": ("Connection lost: reconnecting…", "Connessione persa: riconnessione…"),
    "token_refused": (
        "This seat's token was refused: take a seat again.",
        "Il codice del tuo posto non è valido: siediti di nuovo.",
    ),
    "origin_refused": (
        "The server refused this page's origin: open the invite link from the server's address.",
        "Il server ha rifiutato l'origine della pagina: apri il link dall'indirizzo del server.",
    ),
    "no_table": (
        "No table has this invite: check the link with the host.",
        "Nessun tavolo ha questo invito: controlla il link con chi ti ha invitato.",
    ),
    "to_open": ("To open", "Per aprire"),
    "no_opening_blind": _capital(MESSAGES["status_blind"]),
    "phase": ("Phase", "Fase"),
    "dealer_button": ("D", "M"),
    "empty_seat": ("Empty seat", "Posto libero"),
    "status_active": ("in the deal", "in gioco"),
    "status_seated": ("seated", "al tavolo"),
    "status_out": ("not dealt in", "non gioca la mano"),
    "status_empty": ("empty", "libero"),
    "disconnected": ("disconnected", "disconnesso"),
    "to_act": ("to act", "di turno"),
    "waiting_for": ("Waiting for {name}", "Tocca a {name}"),
    "seconds_left": ("{s} s left", "{s} s rimasti"),
    "time_bank_left": ("time bank {s} s", "riserva {s} s"),
    "timer_off": ("no turn timer", "senza tempo per turno"),
    "winner": ("winner", "vincitore"),
    "sound": ("Sound on your turn", "Suono quando tocca a te"),
    "outage_title": ("Connection lost", "Connessione persa"),
    "outage_text": (
        "Actions are paused until the table is back; the page reconnects by itself.",
        "Le azioni sono sospese finché il tavolo non torna; la pagina si ricollega da sola.",
    ),
    "draw_help_touch": (
        "Tap the cards to change (up to {max}), then confirm. None marked = stand pat.",
        "Tocca le carte da cambiare (fino a {max}), poi conferma. Nessuna = servito.",
    ),
    "no_hand": ("No cards", "Nessuna carta"),
    "hidden_card": ("Hidden card", "Carta coperta"),
    "hidden_cards": ("{n:hidden card|hidden cards}", "{n:carta coperta|carte coperte}"),
    "cards_of": ("Cards of {name}", "Carte di {name}"),
    "actions": ("Your actions", "Le tue azioni"),
    "no_actions": ("Nothing to do now.", "Ora non devi fare nulla."),
    "amount": ("Total bet for this round", "Puntata totale in questo giro"),
    "amount_range": ("{min} to {max}", "da {min} a {max}"),
    "amount_bad": (
        "Type a whole number of chips from {min} to {max}.",
        "Scrivi un numero intero di fiches da {min} a {max}.",
    ),
    "draw_help": (
        "Click the cards to change (up to {max}; keys 1-5), then confirm (Enter). "
        "None marked = stand pat (S).",
        "Tocca le carte da cambiare (fino a {max}; tasti 1-5), poi conferma (Invio). "
        "Nessuna = servito (S).",
    ),
    "draw_confirm": ("Change {n}", "Cambio {n}"),
    # The draw hint (issue 15): the online table's version of the terminal game's advice.
    "hint_table": ("Draw hint for the player to draw", "Consiglio al cambio per chi cambia"),
    "hint_unavailable": (
        "No draw hint on this server",
        "Niente consiglio al cambio su questo server",
    ),
    "hint_title": ("Hint: the best keeps", "Consiglio: le tenute migliori"),
    "hint_line": (
        "change {count:card|cards}: win the pot {win}%, improve {improve}%",
        "cambia {count:carta|carte}: vinci il piatto {win}%, migliori {improve}%",
    ),
    "hint_keep_none": ("keep none", "non tenere nulla"),
    "hint_split": MESSAGES["advice_split"],
    "hint_wait": ("Working out the hint...", "Sto calcolando il consiglio..."),
    "hint_none": ("No hint: no rival is left.", "Nessun consiglio: non resta alcun rivale."),
    "hint_use": ("Use the hint", "Usa il consiglio"),
    "split_note": MESSAGES["prompt_draw_split"],  # the terminal game says the same
    "selected": ("marked to change", "da cambiare"),
    "log": ("Action log", "Registro delle azioni"),
    "result": ("Result of the deal", "Risultato della mano"),
    "hand_category": ("Your hand: {category}", "La tua mano: {category}"),
    "sit_in": ("Sit in", "Torno al tavolo"),
    "four_colour": ("Four-colour deck", "Mazzo a quattro colori"),
    "host_controls": ("Host controls", "Comandi dell'organizzatore"),
    "add_bot": ("Add bot", "Aggiungi bot"),
    "bot_level": ("Bot level", "Livello del bot"),
    "level_random": ("random", "casuale"),
    "level_simple": ("simple", "semplice"),
    "level_strong": ("strong", "forte"),
    "level_expert": ("expert", "esperto"),
    "start": ("Start", "Inizia"),
    "pause": ("Pause", "Pausa"),
    "resume": ("Resume", "Riprendi"),
    "remove": ("Remove", "Togli"),
    "kick": ("Kick", "Allontana"),
    "remove_label": ("Remove {name}", "Togli {name}"),
    "adjust_stack": ("Set chips", "Imposta fiches"),
    "seat": ("Seat", "Posto"),
    "copy_invite": ("Copy invite link", "Copia il link di invito"),
    "copied": ("Invite link copied.", "Link di invito copiato."),
    "copy_failed": ("Copy the link by hand: {url}", "Copia il link a mano: {url}"),
    "ledger": ("Ledger", "Registro delle fiches"),
    "ledger_show": ("Show ledger", "Mostra il registro"),
    "ledger_empty": ("No entries yet.", "Ancora nessuna voce."),
    "ledger_kind": ("Entry", "Voce"),
    "ledger_amount": ("Amount", "Importo"),
    "ledger_buy_in": ("buy-in", "entrata"),
    "ledger_adjust": ("adjusted by the host", "modifica dell'organizzatore"),
    "ledger_result": ("result of the deal", "risultato della mano"),
    "ledger_cash_out": ("cash-out", "uscita"),
    "ledger_players_see": (
        "Players may see the ledger",
        "I giocatori possono vedere il registro",
    ),
    "ledger_by_player": ("Chips by player", "Fiches per giocatore"),
    "ledger_rows": ("Every entry", "Tutte le voci"),
    "ledger_bought_in": ("Bought in", "Entrate"),
    "ledger_cashed_out": ("Cashed out", "Uscite"),
    "ledger_stack": ("Chips now", "Fiches ora"),
    "ledger_net": ("Net", "Saldo"),
    "ledger_in_pot": ("In the pot", "Nel piatto"),
    "ledger_total": ("Total", "Totale"),
    "ledger_left": ("left the table", "ha lasciato il tavolo"),
    "ledger_time": ("Time", "Ora"),
    "ledger_csv": ("Download the ledger (CSV)", "Scarica il registro (CSV)"),
    "name": ("Name", "Nome"),
    "status_lobby": ("waiting to start", "in attesa di iniziare"),
    "status_playing": ("playing", "in gioco"),
    "status_paused": ("paused", "in pausa"),
    "error_prefix": ("Refused", "Rifiutato"),
    "error_stale": (
        "The table moved on before your action arrived; look again and act on the current view.",
        "Il tavolo è andato avanti prima della tua azione; guarda di nuovo e agisci ora.",
    ),
    "key_enter": ("Enter", "Invio"),
    "histories": ("My hand histories", "Le mie mani"),
    **{key: MESSAGES[key] for key in STATISTICS_PAGE_KEYS},
    # The hand replayer.
    "replay_title": ("Hand replayer", "Rivedi le mani"),
    "replay_link": ("Replay deal {number}", "Rivedi la mano {number}"),
    "replay_deal": MESSAGES["report_title"],
    "replay_pick": ("Deal to replay", "Mano da rivedere"),
    "replay_felt": ("The table at this step", "Il tavolo a questo passo"),
    "replay_controls": ("Step through the deal", "Ripercorri la mano"),
    "replay_first": ("First step", "Primo passo"),
    "replay_prev": ("Previous step", "Passo precedente"),
    "replay_next": ("Next step", "Passo successivo"),
    "replay_last": ("Last step", "Ultimo passo"),
    "replay_step": ("Step {n} of {total}", "Passo {n} di {total}"),
    "replay_streets": ("Go to", "Vai a"),
    "replay_keys": (
        "Keys: ← and → one step, Home the first, End the last.",
        "Tasti: ← e → un passo, Home il primo, End l'ultimo.",
    ),
    "replay_action": ("This step", "Questo passo"),
    "replay_result_pending": (
        "The result is told at the last step.",
        "Il risultato si legge all'ultimo passo.",
    ),
    "replay_public": (
        "You were not dealt in this deal: you see what everyone at the table saw, without "
        "the hidden cards.",
        "Non giocavi questa mano: vedi ciò che ha visto tutto il tavolo, senza le carte coperte.",
    ),
    "replay_share": ("Share and download", "Condividi e scarica"),
    "replay_copy": ("Copy the link to this deal", "Copia il link di questa mano"),
    "replay_copied": (
        "Link copied: the others at the table can open it.",
        "Link copiato: gli altri al tavolo possono aprirlo.",
    ),
    "replay_download": (
        "Download the hand history (.phh)",
        "Scarica la cronologia della mano (.phh)",
    ),
    "replay_no_seat": (
        "Take a seat at this table to replay its deals.",
        "Siediti a questo tavolo per rivederne le mani.",
    ),
    "replay_loading": ("Loading the deal…", "Caricamento della mano…"),
    "replay_no_hand": (
        "This table has no finished deal with this number.",
        "Questo tavolo non ha una mano finita con questo numero.",
    ),
    "replay_acted": ("played this step", "ha giocato questo passo"),
    "back_to_table": ("Back to the table", "Torna al tavolo"),
    # A group's statistics (the page /stats).
    "group_stats_title": ("Statistics across your tables", "Statistiche dei tuoi tavoli"),
    "group_stats_intro": (
        "Every player's numbers over the tables this browser has a seat at, added up: the "
        "same name at two tables is one player.",
        "I numeri di ogni giocatore sui tavoli a cui questo browser ha un posto, sommati: lo "
        "stesso nome a due tavoli è un solo giocatore.",
    ),
    "group_stats_tables": ("Tables to count", "Tavoli da contare"),
    "group_stats_all": ("Select all", "Seleziona tutti"),
    "group_stats_none": ("Clear", "Deseleziona tutti"),
    "group_stats_table": (
        "{name} ({deals:finished deal|finished deals})",
        "{name} ({deals:mano finita|mani finite})",
    ),
    "group_stats_table_unnamed": ("Table {number}", "Tavolo {number}"),
    "group_stats_no_table": ("This table no longer exists.", "Questo tavolo non esiste più."),
    "group_stats_forbidden": (
        "Your seat at this table is gone (the host may have removed you).",
        "Il tuo posto a questo tavolo non c'è più (l'host potrebbe averti tolto).",
    ),
    "group_stats_forget": ("Forget this table", "Dimentica questo tavolo"),
    "group_stats_no_seats": (
        "This browser holds no seat at any table yet: create a table or take a seat in the lobby.",
        "Questo browser non ha ancora un posto a nessun tavolo: crea un tavolo o siediti a uno "
        "dalla sala.",
    ),
    "group_stats_choose": ("Choose at least one table.", "Scegli almeno un tavolo."),
    "group_stats_counted": (
        "{count:table|tables} counted: {deals:finished deal|finished deals}.",
        "{count:tavolo contato|tavoli contati}: {deals:mano finita|mani finite}.",
    ),
    "group_stats_older": (
        "{count:older table is|older tables are} not listed: at most {max} tables are counted "
        "together.",
        "{count:tavolo più vecchio non è elencato|tavoli più vecchi non sono elencati}: si "
        "contano al massimo {max} tavoli insieme.",
    ),
    "group_stats_loading": ("Counting…", "Conteggio in corso…"),
    "status_opener": MESSAGES["opener"],
    "dismiss": ("Dismiss", "Chiudi"),
    "phase_lobby": ("Waiting for players", "In attesa dei giocatori"),
    "phase_paused": ("Paused", "In pausa"),
    "phase_between-deals": ("Between deals", "Tra una mano e l'altra"),
    "phase_make-up": (
        "Make-up after the parol (5.5)",
        "Si adegua la puntata dopo la parola (5.5)",
    ),
    "phase_over": ("The match is over", "La partita è finita"),
    # Spectators: the watch page, the host's control, the players' note.
    "watching": ("Watching", "Spettatore"),
    "watching_text": (
        "You are watching: you see what everyone at the table sees, never a hidden card. "
        "Spectators cannot play or take a seat from this page.",
        "Stai guardando: vedi ciò che vede tutto il tavolo, mai una carta coperta. "
        "Da questa pagina non si gioca e non ci si siede.",
    ),
    "watching_delayed": (
        "One deal behind: each deal is shown, step by step, once it has ended.",
        "Una mano indietro: ogni mano si vede, passo per passo, quando è finita.",
    ),
    "watching_replay": (
        "Deal {number} as it was played: step {n} of {total}",
        "La mano {number} come si è giocata: passo {n} di {total}",
    ),
    "watch_void": (
        "This watch link does not work: the host may have closed it or made a new one.",
        "Questo link per guardare non funziona: l'organizzatore può averlo chiuso o cambiato.",
    ),
    "watch_closed": (
        "The host closed this watch link: ask the host for the new one.",
        "L'organizzatore ha chiuso questo link per guardare: chiedigli quello nuovo.",
    ),
    "spectators": ("Spectators", "Spettatori"),
    "watch_open": ("Spectators may watch", "Gli spettatori possono guardare"),
    "watch_delay": (
        "Spectators one deal behind",
        "Spettatori indietro di una mano",
    ),
    "watch_link": ("Watch link", "Link per guardare"),
    "watch_copy": ("Copy watch link", "Copia il link per guardare"),
    "watch_new": ("New watch link", "Nuovo link per guardare"),
    "watch_copied": ("Watch link copied.", "Link per guardare copiato."),
    "watch_link_unknown": (
        "The watch link is open: make a new one to see it here (the old one stops working).",
        "Il link per guardare è aperto: creane uno nuovo per vederlo qui (il vecchio smette "
        "di funzionare).",
    ),
    "watch_note": ("Open to spectators", "Aperto agli spettatori"),
    "watch_count": (
        "{n:# spectator watching|# spectators watching}",
        "{n:# spettatore sta guardando|# spettatori stanno guardando}",
    ),
    "watch_note_delayed": (
        "Open to spectators, one deal behind",
        "Aperto agli spettatori, una mano indietro",
    ),
    "back_to_lobby": ("Lobby", "Sala"),
    "lang_switch": ("Italiano", "English"),
    "lang_switch_label": ("Passa all'italiano", "Switch to English"),
    # The table's chat (static/chat.js).
    "chat": ("Chat", "Chat"),
    "chat_label": ("Message to the table", "Messaggio al tavolo"),
    "chat_placeholder": ("Write to the table", "Scrivi al tavolo"),
    "chat_send": ("Send", "Invia"),
    "chat_count": ("{count}/{max}", "{count}/{max}"),
    "chat_none": ("No messages yet.", "Ancora nessun messaggio."),
    "chat_mute": ("Mute", "Silenzia"),
    "chat_mute_label": ("Mute {name}", "Silenzia {name}"),
    "chat_unmute": ("Unmute", "Riattiva"),
    "chat_unmute_label": ("Unmute {name}", "Riattiva {name}"),
    "chat_muted": ("You muted {name}", "Hai silenziato {name}"),
    "chat_hidden": (
        "{count:message hidden|messages hidden}",
        "{count:messaggio nascosto|messaggi nascosti}",
    ),
    "chat_mute_note": (
        "Only you stop seeing what a muted player writes; they are not told.",
        "Solo tu smetti di vedere ciò che scrive chi hai silenziato; non viene avvisato.",
    ),
    "chat_remove": ("Remove", "Elimina"),
    "chat_remove_label": (
        "Remove the message of {name} at {time}",
        "Elimina il messaggio di {name} delle {time}",
    ),
    "chat_remove_all": ("Remove all from {name}", "Elimina tutti quelli di {name}"),
    "chat_says": ("{name}: {text}", "{name}: {text}"),
    "chat_error_empty": ("Write something first.", "Scrivi qualcosa prima."),
    "chat_error_too_long": (
        "A message is 1 to {max} characters.",
        "Un messaggio ha da 1 a {max} caratteri.",
    ),
    "chat_error_bad_character": (
        "The message holds a character that cannot be sent (an invisible or control "
        "character, a line break, or too many accents on a letter).",
        "Il messaggio contiene un carattere che non si può inviare (invisibile o di "
        "controllo, un a capo, o troppi accenti su una lettera).",
    ),
    "chat_error_rate_limited": (
        "You are writing too fast: wait a moment, then send it again.",
        "Stai scrivendo troppo in fretta: aspetta un momento, poi invialo di nuovo.",
    ),
    "chat_error_not_seated": (
        "Only the players seated at this table can write in its chat.",
        "Solo chi è seduto a questo tavolo può scrivere nella sua chat.",
    ),
    "chat_error_not_sent": (
        "Your message was not sent: send it again in a moment.",
        "Il messaggio non è partito: invialo di nuovo tra un momento.",
    ),
    "chat_error_unavailable": (
        "The chat could not be loaded: reload the page.",
        "Non è stato possibile caricare la chat: ricarica la pagina.",
    ),
    # The turn at a glance, the bet's size, the Italian names explained.
    "amount_added": MESSAGES["amount_added"],  # the terminal's buttons say the same
    "hand_pending": MESSAGES["hand_pending"],
    "card_to_come": ("Card still to come", "Carta ancora da ricevere"),
    "to_call": ("Call {amount} more", "Vedi aggiungendo {amount}"),
    "nothing_to_call": ("Nothing to call", "Niente da vedere"),
    "my_bet": ("Your bet this round: {amount}", "La tua puntata in questo giro: {amount}"),
    "bet_becomes": ("Your bet becomes {total}", "La tua puntata diventa {total}"),
    "size_min": ("Minimum {amount}", "Minimo {amount}"),
    "size_half_pot": ("Half pot {amount}", "Mezzo piatto {amount}"),
    "size_pot": ("Pot {amount}", "Piatto {amount}"),
    "size_all_in": ("All-in {amount}", "Tutto {amount}"),
    "size_max": ("Maximum {amount}", "Massimo {amount}"),
    "explain_blind": (
        "Blind (buio): a bet before the cards are seen; the deal then needs no opening (2, blind)",
        "Buio: una puntata prima di vedere le carte; la mano allora non richiede "
        "l'apertura (2, buio)",
    ),
    "explain_controbuio": (
        "Counter-blind (controbuio): twice the blind, by the next player (2, blind)",
        "Controbuio: il doppio del buio, puntato dal giocatore seguente (2, buio)",
    ),
    "explain_over": (
        "Over (contro-controbuio): twice the counter-blind, by the next player (2, blind)",
        "Over (contro-controbuio): il doppio del controbuio, puntato dal giocatore "
        "seguente (2, buio)",
    ),
    "explain_decline": (
        "No blind: you bet no blind; the deal goes on to the opening (2, blind)",
        "Niente buio: non punti al buio; la mano prosegue con l'apertura (2, buio)",
    ),
    "explain_pass": (
        "Pass (passo): you do not open; you stay in the deal while nobody has opened (3.2)",
        "Passo: non apri; resti nella mano finché nessuno ha aperto (3.2)",
    ),
    "explain_open": (
        "Open (apro): the first bet, allowed only with the hand the opening needs (3.3)",
        "Apro: la prima puntata, permessa solo con il punto richiesto per aprire (3.3)",
    ),
    "explain_check": (
        "Check (busso): no bet now; you stay in the deal (5.2(b))",
        "Busso: non punti ora; resti nella mano (5.2(b))",
    ),
    "explain_bet": (
        "Bet (punto): the first bet of the second round (5.2(a))",
        "Punto: la prima puntata del secondo giro (5.2(a))",
    ),
    "explain_parol": (
        "Parol (parola): you propose to abandon the hand; if everyone says it, the pot "
        "passes to the next deal (5.2(c), 5.4)",
        "Parola: proponi di abbandonare la mano; se la dicono tutti, il piatto passa alla "
        "mano seguente (5.2(c), 5.4)",
    ),
    "explain_make-up": (
        "Make up (adeguo): after the parol you pay in to play the next deal (5.5)",
        "Adeguo: dopo la parola versi la differenza per giocare la mano seguente (5.5)",
    ),
    "explain_sit-out": (
        "Sit out (salto la mano): after the parol you skip the next deal (5.5)",
        "Salto la mano: dopo la parola non giochi la mano seguente (5.5)",
    ),
    "explain_muck": (
        "Muck (non mostro): you concede without showing your hand",
        "Non mostro: lasci il piatto senza mostrare le carte",
    ),
    "sit_out_pending": (
        "sitting out: checks or folds until this deal ends",
        "sta fuori: bussa o lascia fino alla fine di questa mano",
    ),
    "read_table": ("Read the table", "Leggi il tavolo"),
    "summary_turn": ("{name} to act", "Tocca a {name}"),
    "summary_hand": ("Your hand: {cards}", "Le tue carte: {cards}"),
    "notify": ("Notify me on my turn", "Avvisami al mio turno"),
    "notify_denied": (
        "The browser refuses notifications: allow them in its site settings.",
        "Il browser rifiuta le notifiche: permettile nelle impostazioni del sito.",
    ),
    "install_app": ("Install the app", "Installa l'app"),
    "ledger_net_note": (
        "The net here counts every chip paid, the antes already in the next pot included; "
        "the statistics count a deal's chips once it is played, so the two differ by the "
        "antes waiting in the next pot.",
        "Il netto qui conta ogni fiche versata, compresi gli inviti già nel piatto seguente; "
        "le statistiche contano le fiches di una mano quando è giocata, quindi i due "
        "differiscono per gli inviti in attesa nel piatto seguente.",
    ),
}
"""The labels of the browser's pages, key -> (English, Italian) template (the same
``{count:one|many}`` notation). The first entries are the terminal game's or the engine's
own, not copies; the server sends them to the browser (:func:`page_strings`)."""


def plural(count: int, one: str, many: str) -> str:
    """``one`` when ``count`` is exactly 1, else ``many``: English and Italian alike use the
    plural for 0 and from 2 on (0 chips, 1 chip, 2 chips; 0 mani, 1 mano, 2 mani)."""
    return one if count == 1 else many


def counted(count: int, one: str, many: str) -> str:
    """``count`` with the form of a word that agrees with it: ``1 chip``, ``2 chips``. A
    ``#`` in the forms places the number (``ne ha cambiata #``); without one the number comes
    first."""
    form = plural(count, one, many)
    return form.replace("#", str(count)) if "#" in form else f"{count} {form}"


class _MessageFormatter(string.Formatter):
    """``str.format`` plus the plural format ``{count:one|many}`` (see :func:`counted`)."""

    def format_field(self, value: object, format_spec: str) -> str:
        if "|" in format_spec:
            if not isinstance(value, int) or isinstance(value, bool):
                raise TypeError(f"a counted word needs a whole number, got {value!r}")
            one, _, many = format_spec.partition("|")
            return counted(value, one, many)
        result: str = super().format_field(value, format_spec)
        return result


_FORMATTER = _MessageFormatter()


def tr(lang: Language, message: str, /, **values: object) -> str:
    """The message called ``message`` in ``lang``, with ``values`` filled in (counted words
    agree with their numbers, :func:`counted`)."""
    return fill(MESSAGES[message], lang, **values)


def fill(pair: Pair, lang: Language, /, **values: object) -> str:
    """The template of ``pair`` (English, Italian) in ``lang`` with ``values`` filled in, as
    :func:`tr` fills a message (and the pages' ``i18n.js`` a page label)."""
    english, italian = pair
    template = italian if lang is Language.IT else english
    return _FORMATTER.format(template, **values) if values else template


def either(words: Sequence[str], lang: Language) -> str:
    """Choices in a sentence: ``Fold, Call or Raise`` / ``Lascio, Vedo o Rilancio``."""
    if len(words) <= 1:
        return "".join(words)
    conjunction = " o " if lang is Language.IT else " or "
    return ", ".join(words[:-1]) + conjunction + words[-1]


def joined(words: Sequence[str], lang: Language) -> str:
    """All of ``words`` in a sentence: ``Anna, Bruno and Carla`` / ``Anna, Bruno e Carla``."""
    if len(words) <= 1:
        return "".join(words)
    conjunction = " e " if lang is Language.IT else " and "
    return ", ".join(words[:-1]) + conjunction + words[-1]


def action_label(kind: ActionKind, lang: Language) -> str:
    """The name of an action in ``lang``, e.g. ``Vedo`` / ``Call``."""
    return action_name(kind, lang)


def phase_label(phase: Phase, lang: Language) -> str:
    """The name of a phase of the deal in ``lang``."""
    return phase_name(phase, lang)


def suit_name(suit: Suit, lang: Language) -> str:
    """The name of a suit in ``lang`` (``hearts`` / ``cuori``)."""
    english, italian = SUIT_NAMES[suit]
    return italian if lang is Language.IT else english


def card_label(card: Card, lang: Language) -> str:
    """A card in words: ``Ace of hearts`` / ``Asso di cuori``, ``Ten of hearts`` /
    ``Dieci di cuori``."""
    return card_name(card.rank.letter, card.suit.letter, lang)


def amount_text(low: int, high: int, already: int, lang: Language) -> str:
    """An amount as a button or the log says it, from the round totals ``low`` to ``high``
    and the chips the player had in the round ``already``: what the player adds and, when
    that is not the whole bet, what the bet becomes: ``10 (to 20)``, ``1-10 (to 5-14)``;
    ``5`` or ``1-10`` with nothing in yet."""
    total = str(low) if low == high else f"{low}-{high}"
    if already <= 0:
        return total
    added = str(low - already) if low == high else f"{low - already}-{high - already}"
    return tr(lang, "amount_added", added=added, total=total)


def key_label(key: str) -> str:
    """How a key is written on a button: ``A``, ``Enter``."""
    return "Enter" if key == "enter" else key.upper()


def page_strings(lang: Language) -> dict[str, Any]:
    """Everything the browser's pages say, in ``lang``, as JSON-ready values: the labels
    (:data:`PAGE_MESSAGES`), the actions' names, the ranks and suits in words (keyed by
    letter, as the cards' codes write them) and how a card is named."""
    return {
        "lang": lang.value,
        "messages": {key: pick(pair, lang) for key, pair in PAGE_MESSAGES.items()},
        "actions": {kind.value: pick(pair, lang) for kind, pair in ACTION_LABELS.items()},
        "ranks": {letter: pick(pair, lang) for letter, pair in RANK_NAMES.items()},
        "suits": {letter: pick(pair, lang) for letter, pair in _SUITS_BY_LETTER.items()},
        "card": pick(CARD_NAME, lang),
    }
