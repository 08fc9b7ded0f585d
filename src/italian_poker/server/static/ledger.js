// The table's ledger: per person what they bought in, cashed out, hold now and are up or
// down, the chips in the pot, the totals (the nets and the pot come to zero), who pays whom to
// settle up (the fewest transfers, worked out by the server; none while the pot holds chips),
// every entry, and the rows or the settle-up as a CSV download. The host always sees it; a player while the host allows
// it (the host's switch, sent in every state as table.players_see_ledger).

import { formatDate, formatNumber, t } from "/static/i18n.js";
import { api } from "/static/seat_store.js";
import { el } from "/static/dom.js";

const shown = { data: null, lang: null }; // the ledger last shown, re-drawn in another language

function chips(lang, amount, signed = false) {
  return formatNumber(lang, amount, signed ? { signDisplay: "exceptZero" } : {});
}

function kindText(lang, kind) {
  const key = `ledger_${kind}`;
  const text = t(lang, key);
  return text === key ? String(kind ?? "") : text;
}

function when(lang, created) {
  return formatDate(lang, created, { dateStyle: "medium", timeStyle: "medium" });
}

function numberCell(text, data) {
  return el("td", { class: "num", "data-value": data, text });
}

function summaryTable(lang, summary) {
  const columns = ["ledger_bought_in", "ledger_cashed_out", "ledger_stack", "ledger_net"];
  const head = el("tr", {}, el("th", { scope: "col", text: t(lang, "name") }),
    ...columns.map((key) => el("th", { scope: "col", class: "num", text: t(lang, key) })));
  const rows = summary.people.map((person) => el("tr", { "data-player": person.player ?? "" },
    el("th", {
      scope: "row",
      text: person.seated ? person.nickname : `${person.nickname} (${t(lang, "ledger_left")})`,
    }),
    numberCell(chips(lang, person.bought_in), person.bought_in),
    numberCell(chips(lang, person.cashed_out), person.cashed_out),
    numberCell(chips(lang, person.stack), person.stack),
    numberCell(chips(lang, person.net, true), person.net)));
  // The pot holds chips no one has in front of them: its line brings the nets to zero.
  rows.push(el("tr", { class: "ledger-pot" },
    el("th", { scope: "row", text: t(lang, "ledger_in_pot") }),
    el("td"), el("td"),
    numberCell(chips(lang, summary.in_pot), summary.in_pot),
    numberCell(chips(lang, summary.in_pot, true), summary.in_pot)));
  const totals = summary.totals;
  const foot = el("tr", { class: "ledger-totals" },
    el("th", { scope: "row", text: t(lang, "ledger_total") }),
    numberCell(chips(lang, totals.bought_in), totals.bought_in),
    numberCell(chips(lang, totals.cashed_out), totals.cashed_out),
    numberCell(chips(lang, totals.stack), totals.stack),
    numberCell(chips(lang, totals.net, true), totals.net));
  return el("table", { class: "ledger ledger-summary" },
    el("caption", { text: t(lang, "ledger_by_player") }),
    el("thead", {}, head), el("tbody", {}, ...rows), el("tfoot", {}, foot));
}

/** Who pays whom to settle up ("Anna pays Bruno 30"); while the pot holds chips, that they
 *  settle once it is won. */
function settleList(lang, summary) {
  const heading = el("h3", { text: t(lang, "ledger_settle_up") });
  const transfers = summary.settle_up;
  let body;
  if (transfers === null || transfers === undefined) {
    body = el("p", { class: "muted", text: t(lang, "ledger_settle_later", { pot: summary.in_pot }) });
  } else if (!transfers.length) {
    body = el("p", { class: "muted", text: t(lang, "ledger_settled") });
  } else {
    body = el("ul", {}, ...transfers.map((transfer) => el("li", {
      "data-payer": transfer.payer_player ?? "",
      "data-payee": transfer.payee_player ?? "",
      "data-amount": transfer.amount,
      text: t(lang, "ledger_pays", {
        payer: transfer.payer, payee: transfer.payee, amount: chips(lang, transfer.amount),
      }),
    })));
  }
  return el("section", { class: "ledger-settle" }, heading, body);
}

function rowsTable(lang, rows) {
  const head = el("tr", {},
    el("th", { scope: "col", text: t(lang, "ledger_time") }),
    el("th", { scope: "col", text: t(lang, "name") }),
    el("th", { scope: "col", text: t(lang, "ledger_kind") }),
    el("th", { scope: "col", class: "num", text: t(lang, "ledger_amount") }),
    el("th", { scope: "col", class: "num", text: t(lang, "ledger_hand") }));
  const body = rows.map((row) => el("tr", { "data-kind": row.kind },
    el("td", {}, el("time", { datetime: row.created, text: when(lang, row.created) })),
    el("td", { text: row.nickname }),
    el("td", { text: kindText(lang, row.kind) }),
    numberCell(chips(lang, row.amount), row.amount),
    el("td", { class: "num", text: row.hand ?? "" })));
  return el("table", { class: "ledger ledger-rows" },
    el("caption", { text: t(lang, "ledger_rows") }),
    el("thead", {}, head), el("tbody", {}, ...body));
}

function draw(box, lang, data) {
  shown.data = data;
  shown.lang = lang;
  box.replaceChildren();
  if (!data.ledger.length) {
    box.append(el("p", { class: "muted", text: t(lang, "ledger_empty") }));
    return;
  }
  // Why the net here and the statistics' net differ: the antes already in the next pot.
  const note = el("p", { class: "note ledger-net-note", text: t(lang, "ledger_net_note") });
  box.append(summaryTable(lang, data.summary), note, settleList(lang, data.summary),
    rowsTable(lang, data.ledger));
}

/** The token that may read the ledger: the host's, else the player's. */
function tokenOf(seat) {
  return (seat && (seat.host_token || seat.player_token)) || null;
}

/** Fetch the ledger and show it in `box` (the server refuses a player it is hidden from). */
export async function showLedger(box, { invite, seat, lang }) {
  const data = await api("GET", `/api/tables/${invite}/ledger`, undefined, tokenOf(seat));
  draw(box, lang, data);
}

/** Download the ledger's rows as CSV, the same values as the JSON rows; or, with `part`
 *  "settle", who pays whom (payer, payee, amount), a table of its own. */
export async function downloadLedger({ invite, seat }, part = "rows") {
  const settle = part === "settle";
  const response = await fetch(`/api/tables/${invite}/ledger.csv${settle ? "?part=settle" : ""}`, {
    headers: { Authorization: `Bearer ${tokenOf(seat)}` },
  });
  if (!response.ok) {
    let message = `${response.status}`;
    try {
      message = (await response.json()).message || message;
    } catch {
      // not JSON: the status says it
    }
    throw new Error(message);
  }
  const url = URL.createObjectURL(await response.blob());
  const link = el("a", { href: url, download: settle ? "settle-up.csv" : "ledger.csv" });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The host lets the players see the ledger (`players` true), or keeps it. */
export async function setLedgerVisibility({ invite, seat }, players) {
  await api("POST", `/api/tables/${invite}/ledger-visibility`, { players }, seat && seat.host_token);
}

/** After each state: the ledger's panel for the host, and for a player while allowed; the
 *  host's switch as the table has it; a ledger shown is drawn again in a new language. */
export function renderLedgerAccess(st, lang) {
  const panel = document.getElementById("ledger-panel");
  const allowed = !!(st.host || st.table.players_see_ledger);
  panel.hidden = !allowed;
  const box = document.getElementById("ledger");
  if (!allowed) {
    shown.data = null;
    box.replaceChildren();
  } else if (shown.data && shown.lang !== lang) {
    draw(box, lang, shown.data);
  }
  const toggle = document.getElementById("ledger-players");
  if (toggle && document.activeElement !== toggle) toggle.checked = !!st.table.players_see_ledger;
}
