// Labels of the browser table in English and Italian, with the game's own terms.
// Game narration (log lines, results, requirements) comes from the server's en/it fields;
// this module holds only the labels of the page itself and the names of cards.

export const LANGS = ["en", "it"];

const MESSAGES = {
  title: ["Italian Poker", "Poker all'italiana"],
  lobby_title: ["Italian Poker: online table", "Poker all'italiana: tavolo online"],
  lobby_intro: [
    "Create a table, share the invite link, and play with friends and bots. Play chips only.",
    "Crea un tavolo, condividi il link di invito e gioca con amici e bot. Solo fiches finte.",
  ],
  create_title: ["Create a table", "Crea un tavolo"],
  join_title: ["Join a table", "Entra in un tavolo"],
  table_name: ["Table name", "Nome del tavolo"],
  preset: ["Rules", "Regole"],
  preset_standard: ["Standard (formal rulebook)", "Standard (regolamento formale)"],
  preset_001: ["001", "001"],
  preset_002: ["002", "002"],
  preset_003: ["003 (discards face up)", "003 (scarti scoperti)"],
  preset_fantini: ["Fantini/Santelia tie-break", "Spareggio Fantini/Santelia"],
  seats: ["Seats", "Posti"],
  stack: ["Starting chips", "Fiches iniziali"],
  ante: ["Ante (empty = as the rules say)", "Posta (vuoto = come da regole)"],
  structure: ["Betting structure", "Struttura delle puntate"],
  structure_default: ["As the rules say", "Come da regole"],
  "structure_spread-limit": ["Spread limit", "Limite a forbice"],
  "structure_fixed-limit": ["Fixed limit", "Limite fisso"],
  "structure_pot-limit": ["Pot limit", "Limite al piatto"],
  "structure_no-limit": ["No limit", "Senza limite"],
  timer_on: ["Turn timer", "Tempo per turno"],
  turn_seconds: ["Seconds per turn", "Secondi per turno"],
  time_bank: ["Time bank (seconds)", "Riserva di tempo (secondi)"],
  nickname: ["Your nickname", "Il tuo nome"],
  nickname_hint: ["1 to 20 characters", "Da 1 a 20 caratteri"],
  language: ["Language", "Lingua"],
  create: ["Create table", "Crea il tavolo"],
  invite_link: ["Invite link", "Link di invito"],
  join: ["Take a seat", "Siediti"],
  join_prompt: [
    "You are invited to this table. Choose a nickname to take a seat.",
    "Sei invitato a questo tavolo. Scegli un nome per sederti.",
  ],
  bad_invite: [
    "Paste the whole invite link (it contains /t/ followed by the invite).",
    "Incolla il link di invito completo (contiene /t/ seguito dall'invito).",
  ],
  working: ["Working…", "Un momento…"],
  // Table.
  connecting: ["Connecting…", "Connessione…"],
  connected: ["Connected", "Connesso"],
  reconnecting: ["Connection lost: reconnecting…", "Connessione persa: riconnessione…"],
  token_refused: [
    "This seat's token was refused: take a seat again.",
    "Il codice del tuo posto non è valido: siediti di nuovo.",
  ],
  origin_refused: [
    "The server refused this page's origin: open the invite link from the server's address.",
    "Il server ha rifiutato l'origine della pagina: apri il link dall'indirizzo del server.",
  ],
  no_table: [
    "No table has this invite: check the link with the host.",
    "Nessun tavolo ha questo invito: controlla il link con chi ti ha invitato.",
  ],
  pot: ["Pot", "Piatto"],
  to_open: ["To open", "Per aprire"],
  phase: ["Phase", "Fase"],
  dealer: ["Dealer", "Mazziere"],
  dealer_button: ["D", "M"],
  you: ["you", "tu"],
  bot: ["bot", "bot"],
  host: ["host", "padrone di casa"],
  stack_short: ["Chips", "Fiches"],
  bet_short: ["Bet", "Puntata"],
  empty_seat: ["Empty seat", "Posto libero"],
  status_active: ["in the deal", "in gioco"],
  status_folded: ["folded", "ha lasciato"],
  status_seated: ["seated", "al tavolo"],
  status_out: ["not dealt in", "non gioca la mano"],
  status_sitting_out: ["sits out", "sta fuori"],
  status_empty: ["empty", "libero"],
  disconnected: ["disconnected", "disconnesso"],
  changed: ["changed {n}", "ne ha cambiate {n}"],
  to_act: ["to act", "di turno"],
  your_turn: ["Your turn", "Tocca a te"],
  waiting_for: ["Waiting for {name}", "Tocca a {name}"],
  seconds_left: ["{s} s left", "{s} s rimasti"],
  time_bank_left: ["time bank {s} s", "riserva {s} s"],
  timer_off: ["no turn timer", "senza tempo per turno"],
  your_hand: ["Your hand", "Le tue carte"],
  no_hand: ["No cards", "Nessuna carta"],
  hidden_card: ["Hidden card", "Carta coperta"],
  cards_of: ["Cards of {name}", "Carte di {name}"],
  actions: ["Your actions", "Le tue azioni"],
  no_actions: ["Nothing to do now.", "Ora non devi fare nulla."],
  amount: ["Total bet for this round", "Puntata totale in questo giro"],
  amount_range: ["{min} to {max}", "da {min} a {max}"],
  amount_bad: [
    "Type a whole number of chips from {min} to {max}.",
    "Scrivi un numero intero di fiches da {min} a {max}.",
  ],
  draw_title: ["Draw", "Cambio"],
  draw_help: [
    "Click the cards to change (up to {max}; keys 1-5), then confirm (Enter). None marked = stand pat (S).",
    "Tocca le carte da cambiare (fino a {max}; tasti 1-5), poi conferma (Invio). Nessuna = servito (S).",
  ],
  draw_too_many: ["You may change at most {max} cards (4.1).", "Puoi cambiare al massimo {max} carte (4.1)."],
  draw_confirm: ["Change {n}", "Cambio {n}"],
  stand_pat: ["Stand pat", "Servito"],
  split: ["Announce a split opening (4.4, opener only)", "Annuncio che spezzo l'apertura (4.4, solo chi ha aperto)"],
  selected: ["marked to change", "da cambiare"],
  log: ["Action log", "Registro delle azioni"],
  result: ["Result of the deal", "Risultato della mano"],
  no_result: ["After each deal: who won what, and why.", "Dopo ogni mano: chi ha vinto cosa, e perché."],
  hand_category: ["Your hand: {category}", "La tua mano: {category}"],
  sit_out: ["Sit out", "Sto fuori"],
  sit_in: ["Sit in", "Rientro"],
  four_colour: ["Four-colour deck", "Mazzo a quattro colori"],
  host_controls: ["Host controls", "Comandi del padrone di casa"],
  add_bot: ["Add bot", "Aggiungi bot"],
  bot_level: ["Bot level", "Livello del bot"],
  level_random: ["random", "casuale"],
  level_simple: ["simple", "semplice"],
  level_strong: ["strong", "forte"],
  start: ["Start", "Inizia"],
  pause: ["Pause", "Pausa"],
  resume: ["Resume", "Riprendi"],
  remove: ["Remove", "Togli"],
  kick: ["Kick", "Allontana"],
  remove_label: ["Remove {name}", "Togli {name}"],
  adjust_stack: ["Set chips", "Imposta fiches"],
  seat: ["Seat", "Posto"],
  copy_invite: ["Copy invite link", "Copia il link di invito"],
  copied: ["Invite link copied.", "Link di invito copiato."],
  copy_failed: ["Copy the link by hand: {url}", "Copia il link a mano: {url}"],
  ledger: ["Ledger", "Registro delle fiches"],
  ledger_show: ["Show ledger", "Mostra il registro"],
  ledger_empty: ["No entries yet.", "Ancora nessuna voce."],
  ledger_kind: ["Entry", "Voce"],
  ledger_amount: ["Amount", "Importo"],
  ledger_hand: ["Deal", "Mano"],
  ledger_buy_in: ["buy-in", "entrata"],
  ledger_adjust: ["adjusted by the host", "modifica del padrone di casa"],
  ledger_result: ["result of the deal", "risultato della mano"],
  ledger_cash_out: ["cash-out", "uscita"],
  name: ["Name", "Nome"],
  status_lobby: ["waiting to start", "in attesa di iniziare"],
  status_playing: ["playing", "in gioco"],
  status_paused: ["paused", "in pausa"],
  error_prefix: ["Refused", "Rifiutato"],
  error_stale: [
    "The table moved on before your action arrived; look again and act on the current view.",
    "Il tavolo è andato avanti prima della tua azione; guarda di nuovo e agisci ora.",
  ],
  key_hint: ["key {key}", "tasto {key}"],
  key_enter: ["Enter", "Invio"],
  histories: ["My hand histories", "Le mie mani"],
  download: ["Download", "Scarica"],
  dismiss: ["Dismiss", "Chiudi"],
  phase_blinds: ["Blinds", "Buio"],
  phase_opening: ["Opening", "Apertura"],
  "phase_first-round": ["First betting round", "Primo giro di puntate"],
  phase_draw: ["Draw", "Cambio"],
  "phase_second-round": ["Second betting round", "Secondo giro di puntate"],
  phase_showdown: ["Showdown", "Si mostrano le carte"],
  phase_complete: ["Deal over", "Mano finita"],
  phase_lobby: ["Waiting for players", "In attesa dei giocatori"],
  phase_paused: ["Paused", "In pausa"],
  "phase_between-deals": ["Between deals", "Tra una mano e l'altra"],
  "phase_make-up": ["Make-up after the parol (5.5)", "Rientro dopo la parola (5.5)"],
  phase_over: ["The match is over", "La partita è finita"],
  hidden_cards: ["{n} hidden cards", "{n} carte coperte"],
  back_to_lobby: ["Lobby", "Ingresso"],
  lang_switch: ["Italiano", "English"],
  lang_switch_label: ["Passa all'italiano", "Switch to English"],
};

const RANK_NAMES = {
  en: {
    2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven", 8: "Eight", 9: "Nine",
    T: "Ten", J: "Jack", Q: "Queen", K: "King", A: "Ace",
  },
  it: {
    2: "Due", 3: "Tre", 4: "Quattro", 5: "Cinque", 6: "Sei", 7: "Sette", 8: "Otto", 9: "Nove",
    T: "Dieci", J: "Jack", Q: "Donna", K: "Re", A: "Asso",
  },
};

const SUIT_NAMES = {
  en: { h: "hearts", d: "diamonds", c: "clubs", s: "spades" },
  it: { h: "cuori", d: "quadri", c: "fiori", s: "picche" },
};

export const SUIT_SYMBOLS = { h: "♥", d: "♦", c: "♣", s: "♠" };

// One-key shortcuts, the same in both languages (Italian initials: a=apro, p=passo, v=vedo,
// r=rilancio, b=busso, u=punto, l=parola, f=lascio, i=buio, n=niente buio, s=servito).
export const ACTION_KEYS = {
  open: "a", pass: "p", call: "v", raise: "r", check: "b", bet: "u", parol: "l", fold: "f",
  blind: "i", controbuio: "c", over: "o", decline: "n", show: "s", muck: "m", "make-up": "e",
  "sit-out": "x",
};

const ACTION_LABELS = {
  blind: ["Blind", "Buio"],
  controbuio: ["Counter-blind", "Controbuio"],
  over: ["Over", "Over"],
  decline: ["No blind", "Niente buio"],
  pass: ["Pass", "Passo"],
  open: ["Open", "Apro"],
  fold: ["Fold", "Lascio"],
  call: ["Call", "Vedo"],
  raise: ["Raise", "Rilancio"],
  check: ["Check", "Busso"],
  bet: ["Bet", "Punto"],
  parol: ["Parol", "Parola"],
  draw: ["Draw", "Cambio"],
  show: ["Show", "Mostro"],
  muck: ["Muck", "Non mostro"],
  "make-up": ["Make up", "Rientro"],
  "sit-out": ["Sit out", "Sto fuori"],
};

/** The label called `key` in `lang`, with `{placeholders}` filled from `values`. */
export function t(lang, key, values = {}) {
  const pair = MESSAGES[key];
  if (!pair) return key;
  const template = lang === "it" ? pair[1] : pair[0];
  return template.replace(/\{(\w+)\}/g, (_, name) => (name in values ? String(values[name]) : `{${name}}`));
}

/** The text of a server's {en, it} pair in `lang`. */
export function pick(lang, pair) {
  if (!pair) return "";
  if (typeof pair === "string") return pair;
  return (lang === "it" ? pair.it : pair.en) ?? pair.en ?? "";
}

/** The name of an action kind in `lang` (Vedo / Call). */
export function actionLabel(lang, kind) {
  const pair = ACTION_LABELS[kind];
  return pair ? (lang === "it" ? pair[1] : pair[0]) : kind;
}

/** Split a card code such as "Th" or "10h" into its rank letter and suit letter. */
export function parseCode(code) {
  const match = /^(10|[2-9TJQKA])([hdcs])$/i.exec(code || "");
  if (!match) return null;
  const rank = match[1] === "10" ? "T" : match[1].toUpperCase();
  return { rank, suit: match[2].toLowerCase() };
}

/** The spoken name of a card: "Ace of hearts" / "Asso di cuori". */
export function cardName(lang, code) {
  const card = parseCode(code);
  if (!card) return t(lang, "hidden_card");
  const l = lang === "it" ? "it" : "en";
  const joiner = l === "it" ? " di " : " of ";
  return RANK_NAMES[l][card.rank] + joiner + SUIT_NAMES[l][card.suit];
}

/** The rank as printed on a card: 2-10, J, Q, K, A. */
export function rankText(code) {
  const card = parseCode(code);
  if (!card) return "?";
  return card.rank === "T" ? "10" : card.rank;
}

/** The preferred language: saved choice, else the browser's, else English. */
export function initialLang(fallback) {
  const saved = localStorage.getItem("italian-poker.lang");
  if (saved && LANGS.includes(saved)) return saved;
  if (fallback && LANGS.includes(fallback)) return fallback;
  return (navigator.language || "en").toLowerCase().startsWith("it") ? "it" : "en";
}

/** Remember the chosen language. */
export function saveLang(lang) {
  localStorage.setItem("italian-poker.lang", lang);
}

/** Fill every element with data-i18n (text) or data-i18n-label (aria-label) in `root`. */
export function translatePage(root, lang) {
  document.documentElement.lang = lang;
  for (const el of root.querySelectorAll("[data-i18n]")) {
    el.textContent = t(lang, el.dataset.i18n);
  }
  for (const el of root.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(lang, el.dataset.i18nLabel));
  }
}
