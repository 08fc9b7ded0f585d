// The browser's words in English and Italian: only the code that looks them up and writes
// numbers and dates as each language does. The words themselves are the server's catalogue
// (italian_poker/server/locale/en.po and it.po, with the glossary's terms): the server sends
// them (GET /api/strings/{lang}) and this module loads both languages before any page script
// runs (top-level await), so a switch of language needs no reload. Game narration (log lines,
// results, requirements) comes from the server's en/it fields of each message. Plurals,
// numbers and dates follow the browser's CLDR data (Intl), as Babel's do on the server.

export const LANGS = ["en", "it"];

const EMPTY = { messages: {}, actions: {}, ranks: {}, suits: {}, card: "{rank} {suit}" };

async function load(lang) {
  try {
    const response = await fetch(`/api/strings/${lang}`);
    if (response.ok) return await response.json();
  } catch {
    // Unreachable server: the keys stand in for the words.
  }
  return EMPTY;
}

const STRINGS = Object.fromEntries(
  await Promise.all(LANGS.map(async (lang) => [lang, await load(lang)])),
);

function strings(lang) {
  return STRINGS[lang === "it" ? "it" : "en"];
}

export const SUIT_SYMBOLS = { h: "♥", d: "♦", c: "♣", s: "♠" };

// A placeholder: {name}, or {name:one|many}, a counted word that agrees with the number
// (a "#" in a form places the number, else it comes first), as the server's templates write it.
const PLACEHOLDER = /\{(\w+)(?::([^{}|]*)\|([^{}]*))?\}/g;

const PLURALS = Object.fromEntries(LANGS.map((lang) => [lang, new Intl.PluralRules(lang)]));

function locale(lang) {
  return lang === "it" ? "it" : "en";
}

/** The label called `key` in `lang`, with `{placeholders}` filled from `values`. */
export function t(lang, key, values = {}) {
  const template = strings(lang).messages[key];
  if (template === undefined) return key;
  return template.replace(PLACEHOLDER, (whole, name, one, many) => {
    if (!(name in values)) return whole;
    const value = String(values[name]);
    if (one === undefined) return value;
    const form = PLURALS[locale(lang)].select(Number(values[name])) === "one" ? one : many;
    return form.includes("#") ? form.replaceAll("#", value) : `${value} ${form}`;
  });
}

/** `value` as `lang` writes a number (12.5 / 12,5), with Intl.NumberFormat's `options`. */
export function formatNumber(lang, value, options = {}) {
  return new Intl.NumberFormat(locale(lang), options).format(value);
}

/** The moment `value` (a date or its ISO text) as `lang` writes it, with
 *  Intl.DateTimeFormat's `options` ("Dec 6, 2026" / "6 dic 2026"); the text itself if it is no
 *  date. */
export function formatDate(lang, value, options = { dateStyle: "medium" }) {
  const moment = new Date(value);
  if (Number.isNaN(moment.getTime())) return String(value ?? "");
  return new Intl.DateTimeFormat(locale(lang), options).format(moment);
}

/** The name of an action kind in `lang` (Vedo / Call). */
export function actionLabel(lang, kind) {
  return strings(lang).actions[kind] || kind;
}

/** The spoken name of a card: "Ace of hearts" / "Asso di cuori". */
export function cardName(lang, code) {
  const card = parseCode(code);
  if (!card) return t(lang, "hidden_card");
  const words = strings(lang);
  return words.card
    .replace("{rank}", words.ranks[card.rank] ?? card.rank)
    .replace("{suit}", words.suits[card.suit] ?? card.suit);
}

/** The text of a server's {en, it} pair in `lang`. */
export function pick(lang, pair) {
  if (!pair) return "";
  if (typeof pair === "string") return pair;
  return (lang === "it" ? pair.it : pair.en) ?? pair.en ?? "";
}

/** Split a card code such as "Th" or "10h" into its rank letter and suit letter. */
export function parseCode(code) {
  const match = /^(10|[2-9TJQKA])([hdcs])$/i.exec(code || "");
  if (!match) return null;
  const rank = match[1] === "10" ? "T" : match[1].toUpperCase();
  return { rank, suit: match[2].toLowerCase() };
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
