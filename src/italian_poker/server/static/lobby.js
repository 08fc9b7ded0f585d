// The lobby: create a table (the host takes seat 0) or join one from an invite link.

import { initialLang, saveLang, t, translatePage } from "/static/i18n.js";
import { api, inviteFromLink, offerHint, saveSeat } from "/static/seat_store.js";

let lang = initialLang();

function render() {
  translatePage(document, lang);
  document.title = t(lang, "lobby_title");
  const button = document.getElementById("lang-switch");
  button.textContent = t(lang, "lang_switch");
  button.setAttribute("aria-label", t(lang, "lang_switch_label"));
  document.querySelector("#create-form select[name=lang]").value = lang;
}

function showError(message) {
  const box = document.getElementById("lobby-error");
  box.textContent = message;
  box.hidden = !message;
}

function intOrNull(value) {
  return value === "" || value === null ? null : Number.parseInt(value, 10);
}

async function submitting(form, work) {
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  showError("");
  try {
    await work();
  } catch (error) {
    showError(error.message);
    button.disabled = false;
  }
}

document.getElementById("create-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  const data = new FormData(form);
  const body = {
    name: data.get("name").trim(),
    preset: data.get("preset"),
    seats: intOrNull(data.get("seats")),
    stack: intOrNull(data.get("stack")),
    ante: intOrNull(data.get("ante")),
    structure: data.get("structure") || null,
    turn_seconds: data.get("timer_on") ? intOrNull(data.get("turn_seconds")) : null,
    time_bank_seconds: data.get("timer_on") ? intOrNull(data.get("time_bank_seconds")) ?? 0 : 0,
    host_nickname: data.get("host_nickname").trim(),
    lang: data.get("lang"),
    players_see_ledger: data.get("players_see_ledger") !== null,
    watch: data.get("watch") !== null,
    watch_delay: data.get("watch_delay") !== null,
    // Ticked: the hint if the server has an advisor (left out); unticked: no hint.
    ...(data.get("advice") === null ? { advice: false } : {}),
    ...formatBody(data),
  };
  submitting(form, async () => {
    const created = await api("POST", "/api/tables", body);
    saveSeat(created.invite, created);
    window.location.assign(created.invite_url || `/t/${created.invite}`);
  });
});

/** The match format's members of the new table (none for a cash game): the server checks
 * them and answers with the reason when the format cannot be played. */
function formatBody(data) {
  const kind = data.get("format");
  if (kind === "cash") return {};
  const body = { format: kind };
  const schedule = data.get("schedule");
  if (schedule) body.schedule = schedule === "custom" ? data.get("levels").trim() : schedule;
  if (kind === "fixed") body[data.get("length")] = intOrNull(data.get("length_value"));
  if (kind === "sit-and-go") {
    body.prize_pool = intOrNull(data.get("prize_pool")) ?? 0;
    const shares = data.get("shares").split(/[\s,;]+/).filter(Boolean);
    body.shares = shares.map((share) => Number.parseInt(share, 10));
    const reEntry = data.get("re_entry");
    if (reEntry) body[`re_entry_${reEntry}`] = intOrNull(data.get("re_entry_value"));
  }
  return body;
}

/** Show the format's fields that apply to the format chosen. */
function syncFormat() {
  const form = document.getElementById("create-form");
  const kind = form.elements.format.value;
  const shown = new Set([kind]);
  if (kind !== "cash" && form.elements.schedule.value === "custom") shown.add("custom");
  if (kind === "sit-and-go" && form.elements.re_entry.value) shown.add("re-entry");
  for (const field of form.querySelectorAll("#format-box label[data-format]")) {
    const on = field.dataset.format.split(" ").some((name) => shown.has(name));
    field.hidden = !on;
    for (const input of field.querySelectorAll("input, select")) input.disabled = !on;
  }
  const none = form.querySelector("option[value=''][data-format]");
  none.hidden = kind !== "fixed";
  if (kind === "sit-and-go" && !form.elements.schedule.value) form.elements.schedule.value = "standard";
}

for (const name of ["format", "schedule", "re_entry"]) {
  document.querySelector(`#create-form select[name=${name}]`).addEventListener("change", syncFormat);
}

document.getElementById("join-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  const data = new FormData(form);
  const invite = inviteFromLink(data.get("link"));
  if (!invite) {
    showError(t(lang, "bad_invite"));
    return;
  }
  submitting(form, async () => {
    const seat = await api("POST", `/api/tables/${invite}/seats`, {
      nickname: data.get("nickname").trim(),
    });
    saveSeat(invite, seat);
    window.location.assign(`/t/${invite}`);
  });
});

document.getElementById("lang-switch").addEventListener("click", () => {
  lang = lang === "it" ? "en" : "it";
  saveLang(lang);
  render();
});

document.querySelector("#create-form select[name=lang]").addEventListener("change", (event) => {
  lang = event.target.value;
  saveLang(lang);
  render();
});

const timerBox = document.querySelector("#create-form input[name=timer_on]");
function syncTimer() {
  for (const name of ["turn_seconds", "time_bank_seconds"]) {
    document.querySelector(`#create-form input[name=${name}]`).disabled = !timerBox.checked;
  }
}
timerBox.addEventListener("change", syncTimer);

syncTimer();
syncFormat();
render();
offerHint(document.querySelector("#create-form input[name=advice]")).then(render);
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {}); // the installable app
