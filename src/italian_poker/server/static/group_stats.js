// A group's statistics (the page /stats): every player's numbers over the tables this
// browser holds a seat at, added up by the server (POST /api/stats counts them with the
// table layer's italian_poker/table/statistics.py, as `italian-poker stats` counts folders:
// the same name at two tables is one player). The person chooses the tables, all by
// default; a table the server could not count is said so, and may be forgotten here. The
// seats' tokens travel in the request's body only.

import { initialLang, saveLang, t, translatePage } from "/static/i18n.js";
import { allSeats, api, forgetSeat } from "/static/seat_store.js";
import { statsNodes } from "/static/stats.js";
import { el } from "/static/dom.js";

/** The most tables one request counts together (server/limits.py's MAX_STATS_TABLES). */
export const MAX_TABLES = 50;

const REFUSALS = { no_table: "group_stats_no_table", forbidden: "group_stats_forbidden" };

const $ = (id) => document.getElementById(id);

const app = {
  lang: initialLang(),
  seats: [], // the seats listed, oldest first: {invite, player_token, saved}
  older: 0, // seats left out of the list (more than MAX_TABLES)
  chosen: new Set(), // the invites to count
  known: new Map(), // invite -> the server's word on the table: {counted, name, deals, error}
  data: null, // the latest answer
  loading: 0, // the latest request, so that a slow answer does not replace a newer one
  busy: false,
};

function tr(key, values) {
  return t(app.lang, key, values);
}

function showError(message) {
  $("group-error").textContent = message;
  $("group-error").hidden = !message;
}

// ---------------------------------------------------------------- rendering

function render() {
  translatePage(document, app.lang);
  document.title = `${tr("group_stats_title")} · ${tr("title")}`;
  $("lang-switch").textContent = tr("lang_switch");
  $("lang-switch").setAttribute("aria-label", tr("lang_switch_label"));
  const none = app.seats.length === 0;
  $("no-seats").hidden = !none;
  $("table-choice").hidden = none;
  $("older").hidden = app.older === 0;
  $("older").textContent = app.older ? tr("group_stats_older", { count: app.older, max: MAX_TABLES }) : "";
  renderList();
  renderResult();
}

function tableLabel(seat, index) {
  const known = app.known.get(seat.invite);
  if (!known || known.name === null) return tr("group_stats_table_unnamed", { number: index + 1 });
  return tr("group_stats_table", { name: known.name, deals: known.deals });
}

function renderList() {
  const list = $("table-list");
  list.replaceChildren(...app.seats.map((seat, index) => {
    const known = app.known.get(seat.invite);
    const refused = known && known.error ? known.error : null;
    const box = el("input", {
      type: "checkbox", name: "table", value: seat.invite,
      checked: app.chosen.has(seat.invite), disabled: refused !== null,
      onchange: (event) => choose(seat.invite, event.currentTarget.checked),
    });
    const item = el("li", { "data-invite": seat.invite, class: refused ? "refused" : null },
      el("label", { class: "check" }, box, el("span", { text: tableLabel(seat, index) })));
    if (refused) {
      item.append(
        el("span", { class: "refusal", text: tr(REFUSALS[refused] || "group_stats_no_table") }),
        el("button", {
          type: "button", class: "small forget", text: tr("group_stats_forget"),
          onclick: () => forget(seat.invite),
        }));
    }
    return item;
  }));
}

function renderResult() {
  const shown = app.seats.length > 0;
  $("group-result").hidden = !shown;
  if (!shown) return;
  const status = $("group-status");
  const box = $("group-stats");
  if (app.chosen.size === 0 && !app.data) {
    status.textContent = tr("group_stats_choose");
    box.replaceChildren();
    return;
  }
  if (app.busy || !app.data) {
    status.textContent = tr("group_stats_loading");
    return;
  }
  const counted = app.data.tables.filter((table) => table.counted).length;
  status.textContent = tr("group_stats_counted", { count: counted, deals: app.data.totals.deals });
  box.replaceChildren(...statsNodes(app.data, app.lang));
}

// ---------------------------------------------------------------- counting

async function count() {
  const ticket = ++app.loading;
  const tables = app.seats
    .filter((seat) => app.chosen.has(seat.invite))
    .map((seat) => ({ invite: seat.invite, token: seat.player_token }));
  if (!tables.length) {
    app.busy = false;
    app.data = null;
    render();
    return;
  }
  app.busy = true;
  render();
  try {
    const data = await api("POST", "/api/stats", { tables });
    if (ticket !== app.loading) return;
    for (const table of data.tables) {
      app.known.set(table.invite, table);
      if (!table.counted) app.chosen.delete(table.invite); // not asked for again
    }
    app.data = data;
    showError("");
  } catch (error) {
    if (ticket !== app.loading) return;
    app.data = null;
    showError(`${tr("error_prefix")}: ${error.message}`);
  }
  app.busy = false;
  render();
}

function choose(invite, chosen) {
  if (chosen) app.chosen.add(invite);
  else app.chosen.delete(invite);
  count();
}

function forget(invite) {
  forgetSeat(invite);
  app.seats = app.seats.filter((seat) => seat.invite !== invite);
  app.chosen.delete(invite);
  app.known.delete(invite);
  render();
}

// ---------------------------------------------------------------- wiring

$("choose-all").addEventListener("click", () => {
  for (const seat of app.seats) {
    const known = app.known.get(seat.invite);
    if (!known || !known.error) app.chosen.add(seat.invite);
  }
  count();
});
$("choose-none").addEventListener("click", () => {
  app.chosen.clear();
  count();
});
$("lang-switch").addEventListener("click", () => {
  app.lang = app.lang === "it" ? "en" : "it";
  saveLang(app.lang);
  render();
});

const seats = allSeats();
app.older = Math.max(0, seats.length - MAX_TABLES);
app.seats = seats.slice(app.older); // the newest MAX_TABLES, oldest first
app.chosen = new Set(app.seats.map((seat) => seat.invite));
render();
count();
