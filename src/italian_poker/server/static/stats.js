// The table's statistics (GET /api/tables/{invite}/stats): every player's deals played,
// opened, at the showdown and won, net chips and biggest pot over the table's finished deals,
// as the table layer counts them (italian_poker/table/statistics.py, which defines each
// number). Public information: the same for every player. The words are the vocabulary's,
// looked up by i18n.js; the numbers are the server's, shown as they come.

import { t } from "/static/i18n.js";
import { api } from "/static/seat_store.js";
import { el } from "/static/dom.js";

/** The columns: a field of the server's row and the label heading it (the terminal's too). */
export const COLUMNS = [
  ["name", "stats_player"],
  ["played", "stats_played"],
  ["opened", "stats_opened"],
  ["showdowns", "stats_showdowns"],
  ["showdowns_won", "stats_showdowns_won"],
  ["won_without_showdown", "stats_won_without_showdown"],
  ["net", "stats_net"],
  ["biggest_pot", "stats_biggest_pot"],
];

/** A net as the terminal writes it: +14, -3, 0. */
export function signed(chips) {
  return chips > 0 ? `+${chips}` : String(chips);
}

function cellText(row, field) {
  return field === "net" ? signed(row.net) : String(row[field]);
}

/** The statistics `data` (the route's answer) as page elements in `lang`: a table with a
 * caption, column and row headers, then the totals in words. */
export function statsNodes(data, lang) {
  const totals = data.totals;
  if (!totals.deals) return [el("p", { class: "muted", text: t(lang, "stats_empty") })];
  const head = el("tr", {}, ...COLUMNS.map(([, key]) => el("th", { scope: "col", text: t(lang, key) })));
  const rows = data.players.map((row) => el("tr", { "data-name": row.name },
    el("th", { scope: "row", text: row.name }),
    ...COLUMNS.slice(1).map(([field]) => el("td", { "data-field": field, text: cellText(row, field) }))));
  const table = el("table", { class: "stats" },
    el("caption", { text: t(lang, "stats_title") }),
    el("thead", {}, head),
    el("tbody", {}, ...rows));
  const deals = t(lang, "stats_deals", {
    deals: totals.deals, opened: totals.opened, passed: totals.passed,
    parols: totals.parols, showdowns: totals.showdowns,
  });
  const carried = t(lang, "stats_carried", {
    carried_in: totals.carried_in, carried_out: totals.carried_out, net: signed(totals.net),
  });
  return [table, el("p", { class: "stats-totals", text: deals }), el("p", { class: "stats-totals", text: carried })];
}

/** Fetch the statistics of the table at `invite` with the player's `token` and show them in
 * `box`, in `lang`, with a link to the statistics across every table this browser has a seat
 * at (/stats); throws the server's refusal (the page shows it). */
export async function showStats(box, invite, token, lang) {
  const data = await api("GET", `/api/tables/${invite}/stats`, undefined, token);
  const across = el("p", { class: "stats-group" },
    el("a", { href: "/stats", text: t(lang, "group_stats_title") }));
  box.replaceChildren(...statsNodes(data, lang), across);
}
