"""Every string of the terminal game in English and Italian, with the game's own terms.

:func:`tr` looks a message up by key and fills its ``{placeholders}``; :func:`action_label`
names an action (*apro*, *vedo*, *rilancio*, ...) and :data:`ACTION_KEYS` gives each action
its one-key shortcut, the same in both languages. Hand categories come from the engine
(``HandRank.description`` / ``description_it``).

Counted words follow the count through one mechanism, :func:`plural`: in a template a
number placeholder may carry the two forms as its format, ``{count:card|cards}`` (``1 card``,
``2 cards``); a ``#`` in a form places the number, ``{amount:ti serve # fiche|ti servono #
fiches}``.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from enum import StrEnum

from italian_poker.engine.actions import ActionKind
from italian_poker.engine.cards import Suit
from italian_poker.engine.deal import Phase


class Language(StrEnum):
    """The languages of the game."""

    EN = "en"
    IT = "it"


def detect_language(environ: Mapping[str, str]) -> Language:
    """Italian when the locale (``LC_ALL``, ``LC_MESSAGES`` or ``LANG``) starts with ``it``,
    else English."""
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(variable, "")
        if value:
            return Language.IT if value.lower().startswith("it") else Language.EN
    return Language.EN


ACTION_LABELS: dict[ActionKind, tuple[str, str]] = {
    ActionKind.BLIND: ("Blind", "Buio"),
    ActionKind.CONTROBUIO: ("Counter-blind", "Controbuio"),
    ActionKind.OVER: ("Over", "Over"),
    ActionKind.DECLINE: ("No blind", "Niente buio"),
    ActionKind.PASS: ("Pass", "Passo"),
    ActionKind.OPEN: ("Open", "Apro"),
    ActionKind.FOLD: ("Fold", "Lascio"),
    ActionKind.CALL: ("Call", "Vedo"),
    ActionKind.RAISE: ("Raise", "Rilancio"),
    ActionKind.CHECK: ("Check", "Busso"),
    ActionKind.BET: ("Bet", "Punto"),
    ActionKind.PAROL: ("Parol", "Parola"),
    ActionKind.DRAW: ("Draw", "Cambio"),
    ActionKind.SHOW: ("Show", "Mostro"),
    ActionKind.MUCK: ("Muck", "Non mostro"),
    ActionKind.MAKE_UP: ("Make up", "Rientro"),
    ActionKind.SIT_OUT: ("Sit out", "Sto fuori"),
}
"""Each action's name on its button and in the log: (English, Italian)."""

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
"""One-key shortcuts, the same in both languages (mostly the Italian initials: a=apro,
p=passo, v=vedo, r=rilancio, b=busso, u=punto, l=parola, f=fold/lascio, i=buio, ...)."""

PHASE_LABELS: dict[Phase, tuple[str, str]] = {
    Phase.BLINDS: ("Blinds", "Buio"),
    Phase.OPENING: ("Opening", "Apertura"),
    Phase.FIRST_ROUND: ("First betting round", "Primo giro di puntate"),
    Phase.DRAW: ("Draw", "Cambio"),
    Phase.SECOND_ROUND: ("Second betting round", "Secondo giro di puntate"),
    Phase.SHOWDOWN: ("Showdown", "Si mostrano le carte"),
    Phase.COMPLETE: ("Deal over", "Mano finita"),
}

SUIT_NAMES: dict[Suit, tuple[str, str]] = {
    Suit.HEARTS: ("hearts", "cuori"),
    Suit.DIAMONDS: ("diamonds", "quadri"),
    Suit.CLUBS: ("clubs", "fiori"),
    Suit.SPADES: ("spades", "picche"),
}

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
"""Names of the bots, seated in this order after the human."""

HUMAN_NAMES: dict[Language, str] = {Language.EN: "Player", Language.IT: "Giocatore"}
"""The human player's name at the table."""

MESSAGES: dict[str, tuple[str, str]] = {
    # Table.
    "title": ("Italian Poker", "Poker all'italiana"),
    "status": (
        "Rules {rules} · deal {number} · {phase} · to open: {requirement}",
        "Regole {rules} · mano {number} · {phase} · per aprire: {requirement}",
    ),
    "status_idle": (
        "Rules {rules} · {players:player|players} · {deck}-card deck",
        "Regole {rules} · {players:giocatore|giocatori} · mazzo da {deck:carta|carte}",
    ),
    "pot": ("Pot {pot}", "Piatto {pot}"),
    "current_bet": ("bet to match {bet}", "puntata da pareggiare {bet}"),
    "stack": ("Chips {stack}", "Fiches {stack}"),
    "bet_in_round": ("bet {amount}", "puntata {amount}"),
    "dealer": ("dealer", "mazziere"),
    "you": ("you", "tu"),
    "your_turn": ("Your turn", "Tocca a te"),
    "thinking": ("{name} is thinking...", "{name} sta pensando..."),
    "folded": ("folded", "fuori dalla mano"),
    "sitting_out": ("sits out", "sta fuori"),
    "busted": ("left the table", "ha lasciato il tavolo"),
    "opener": ("opener", "ha aperto"),
    "changed": ("changed {count:card|cards}", "{count:ne ha cambiata #|ne ha cambiate #}"),
    "stood_pat": ("stood pat (servito)", "servito"),
    "your_hand": ("Your hand", "Le tue carte"),
    "no_cards_yet": (
        "No cards yet: the blind is bet before the deal (Art. 2)",
        "Ancora nessuna carta: il buio si punta prima della distribuzione (Art. 2)",
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
        "Bet {kind} of {amount} before seeing your cards, or decline. [i/c/o] bet, [n] decline",
        "Punti {kind} da {amount} prima di vedere le carte, o rinunci? [i/c/o] punta, [n] rinuncia",
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
        "you need {amount:chip|chips} to call. {choices}?",
        "{amount:ti serve # fiche|ti servono # fiches} per vedere. {choices}?",
    ),
    "prompt_no_bet": (
        "there is no bet to call. {choices}?",
        "non c'è nessuna puntata da vedere. {choices}?",
    ),
    "prompt_draw": (
        "Draw: press 1-5 to mark the cards to change (up to 4), Enter to confirm; "
        "none marked = servito.",
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
        "Si mostrano le carte: mostra la mano, o lasciala senza mostrarla.",
    ),
    "prompt_showdown_show": ("Showdown: show your hand.", "Si mostrano le carte: mostra la mano."),
    "prompt_makeup": (
        "After the parol: make up {amount:chip|chips} to play this deal (5.5), or sit it out.",
        "Dopo la parola: rientri con {amount:fiche|fiches} per giocare questa mano (5.5), o "
        "stai fuori.",
    ),
    "prompt_amount": (
        "{action}: type your total bet for this round, {low} to {high}, then Enter (Esc cancels).",
        "{action}: scrivi la tua puntata totale in questo giro, da {low} a {high}, poi Invio "
        "(Esc annulla).",
    ),
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
        "— Deal {number}: {dealer} deals; to open: {requirement} —",
        "— Mano {number}: distribuisce {dealer}; per aprire: {requirement} —",
    ),
    "log_action": ("{name}: {action}", "{name}: {action}"),
    "log_draw": ("{name} changes {count}", "{name} cambia {count}"),
    "log_draw_cards": ("{name} changes {count}: {cards}", "{name} cambia {count}: {cards}"),
    "log_draw_pat": ("{name}: servito (stands pat)", "{name}: servito"),
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
    "log_saved": ("Hand history saved: {path}", "Storia della mano salvata: {path}"),
    "log_save_failed": (
        "Could not save the hand history: {error}",
        "Impossibile salvare la storia della mano: {error}",
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
        "{winner} beats {loser}: a higher category (6){flush_note}",
        "{winner} batte {loser}: una combinazione più alta (6){flush_note}",
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
        "Everyone passed (3.5, piatto di parole): the antes go back to the players.",
        "Tutti hanno passato (3.5, piatto di parole): le poste tornano ai giocatori.",
    ),
    "report_parol": (
        "Everyone said parol (5.4(a)): the hand is abandoned and the pot of {pot} goes to the "
        "next deal, with no blinds (5.5).",
        "Tutti hanno detto parola (5.4(a)): la mano si abbandona e il piatto di {pot} passa "
        "alla prossima mano, senza buio (5.5).",
    ),
    "report_makeup": (
        "{name} folded in the first round: to play the next deal they must make up {amount} (5.5).",
        "{name} ha lasciato al primo giro: per giocare la prossima mano deve rientrare con "
        "{amount} (5.5).",
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
        "No opening to prove: the pot was played on a blind (Art. 2).",
        "Nessuna apertura da dimostrare: si è giocato sul buio (Art. 2).",
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
        "Storie delle mani: {path} (rivedile con: {command} replay {quoted})",
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
    "footer_help": ("Help", "Aiuto"),
    "footer_quit": ("Quit", "Esci"),
}
"""Message key -> (English, Italian) template."""


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
    english, italian = MESSAGES[message]
    template = italian if lang is Language.IT else english
    return _FORMATTER.format(template, **values) if values else template


def either(words: Sequence[str], lang: Language) -> str:
    """Choices in a sentence: ``Fold, Call or Raise`` / ``Lascio, Vedo o Rilancio``."""
    if len(words) <= 1:
        return "".join(words)
    conjunction = " o " if lang is Language.IT else " or "
    return ", ".join(words[:-1]) + conjunction + words[-1]


def action_label(kind: ActionKind, lang: Language) -> str:
    """The name of an action in ``lang``, e.g. ``Vedo`` / ``Call``."""
    english, italian = ACTION_LABELS[kind]
    return italian if lang is Language.IT else english


def phase_label(phase: Phase, lang: Language) -> str:
    """The name of a phase of the deal in ``lang``."""
    english, italian = PHASE_LABELS[phase]
    return italian if lang is Language.IT else english


def suit_name(suit: Suit, lang: Language) -> str:
    """The name of a suit in ``lang`` (``hearts`` / ``cuori``)."""
    english, italian = SUIT_NAMES[suit]
    return italian if lang is Language.IT else english


def key_label(key: str) -> str:
    """How a key is written on a button: ``A``, ``Enter``."""
    return "Enter" if key == "enter" else key.upper()
