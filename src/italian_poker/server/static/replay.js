// The hand replayer: a finished deal step by step, as this seat may see it.
// The page holds no game data of its own: the frames come from the server
// (GET /api/tables/{invite}/histories/{hand}/frames), replayed there through the engine and
// read from its observer, so they carry only the cards this seat may see: its own, the others'
// once shown at the showdown. Keys: left and right arrows step, Home and End go to the ends
// (no key hints on a touch screen, as on the table's page). The last step shows the deal's
// end as the table does after a deal: the pot won, each pot's sentence, the winners marked.

import { actionLabel, initialLang, pick, saveLang, t, translatePage } from "/static/i18n.js";
import { cardBack, cardFace } from "/static/cards.js";
import { api, loadSeat } from "/static/seat_store.js";
import { el } from "/static/dom.js";

const $ = (id) => document.getElementById(id);
const TOUCH = window.matchMedia("(hover: none) and (pointer: coarse)").matches; // as table.js

/** The invite and the hand of a path "/t/{invite}/hands/{hand}". */
function placeOf(pathname) {
  const match = /^\/t\/([^/]+)\/hands\/([^/]+)\/?$/.exec(pathname);
  if (!match) return { invite: "", hand: null };
  const hand = /^[0-9]{1,10}$/.test(match[2]) ? Number(match[2]) : null;
  return { invite: decodeURIComponent(match[1]), hand };
}

const place = placeOf(window.location.pathname);
const invite = place.invite;

const app = {
  lang: initialLang(),
  seat: loadSeat(invite),
  hand: place.hand,
  hands: [], // the deals this seat was dealt in (GET /histories)
  replay: null, // the frames of the deal shown
  step: 0,
  status: "replay_loading", // a message key shown instead of the deal, or null
  loading: 0, // the latest load, so that a slow answer does not replace a newer one
};

// ---------------------------------------------------------------- helpers

function tr(key, values) {
  return t(app.lang, key, values);
}

function showError(message) {
  $("error-text").textContent = message;
  $("error").hidden = !message;
}

function announce(text) {
  $("live").textContent = "";
  // A new text after an empty one: a screen reader reads it even when it repeats.
  setTimeout(() => { $("live").textContent = text; }, 50);
}

function fourColour() {
  return localStorage.getItem("italian-poker.four-colour") === "1";
}

function handPath(hand) {
  return `/t/${encodeURIComponent(invite)}/hands/${hand}`;
}

function frame() {
  return app.replay ? app.replay.frames[app.step] : null;
}

/** What each seat won at the deal's end, by seat, on the last step only: {seat: chips}. */
function winnings() {
  const won = new Map();
  if (app.step !== app.replay.frames.length - 1) return won;
  for (const award of app.replay.awards) {
    award.winners.forEach((seat, i) => won.set(seat, (won.get(seat) || 0) + (award.shares[i] ?? 0)));
  }
  return won;
}

function phaseName(phase) {
  const key = `phase_${phase}`;
  const text = tr(key);
  return text === key ? phase : text;
}

// ---------------------------------------------------------------- rendering

function render() {
  translatePage(document, app.lang);
  document.body.classList.toggle("touch", TOUCH);
  $("lang-switch").textContent = tr("lang_switch");
  $("lang-switch").setAttribute("aria-label", tr("lang_switch_label"));
  document.body.classList.toggle("four-colour", fourColour());
  $("four-colour").checked = fourColour();
  $("back").href = invite ? `/t/${encodeURIComponent(invite)}` : "/";
  const title = app.hand ? `${tr("replay_deal", { number: app.hand })} · ` : "";
  document.title = `${title}${tr("replay_title")} · ${tr("title")}`;
  renderPicker();
  const status = $("status-message");
  status.hidden = !app.status;
  status.textContent = app.status ? tr(app.status) : "";
  const shown = !!app.replay && !app.status;
  for (const id of ["replay-table", "controls", "step", "result", "share"]) $(id).hidden = !shown;
  $("public-note").hidden = !shown || app.replay.you !== null;
  if (!shown) return;
  const current = frame();
  renderCenter(current);
  renderSeats(current);
  renderControls();
  $("step-line").textContent = pick(app.lang, current.line);
  renderResult();
  $("download").hidden = !app.replay.download;
}

function renderPicker() {
  const picker = $("hand-picker");
  const hands = new Set(app.hands);
  if (app.hand) hands.add(app.hand);
  const sorted = [...hands].sort((a, b) => a - b);
  picker.replaceChildren(...sorted.map((hand) => el("option", {
    value: String(hand), text: tr("replay_deal", { number: hand }),
  })));
  if (app.hand) picker.value = String(app.hand);
  picker.disabled = sorted.length === 0;
}

function renderCenter(current) {
  const replay = app.replay;
  $("deal-title").textContent = tr("replay_deal", { number: replay.hand });
  if (winnings().size) {
    // The end of a won deal, as the table shows it: the pot won, who won it and why.
    $("pot").textContent = tr("pot", { pot: replay.awards.reduce((sum, a) => sum + a.amount, 0) });
    $("awards").replaceChildren(...replay.awards.map((award) => el("p", { text: pick(app.lang, award.line) })));
  } else {
    $("pot").textContent = tr("pot", { pot: current.pot }); // at the end: what is carried on
    $("awards").replaceChildren();
  }
  $("phase").textContent = phaseName(current.phase);
  $("requirement").textContent = current.blind // Art. 2: no opening on a blind
    ? tr("no_opening_blind")
    : `${tr("to_open")}: ${pick(app.lang, replay.requirement)}`;
  const actor = current.to_act === null ? null : current.seats[current.to_act];
  $("turn").textContent = actor ? `${actor.name}: ${tr("to_act")}` : "";
}

/** What each seat did last, up to this step: the action's name and amount. */
function lastActions() {
  const last = new Map();
  for (const shown of app.replay.frames.slice(1, app.step + 1)) {
    const action = shown.action;
    const amount = action.amount === null ? "" : ` ${action.amount}`;
    last.set(action.seat, `${actionLabel(app.lang, action.kind)}${amount}`);
  }
  return last;
}

function renderSeats(current) {
  const replay = app.replay;
  const list = $("seats");
  list.replaceChildren();
  const n = current.seats.length;
  const me = replay.you ?? 0;
  const last = lastActions();
  const won = winnings();
  const acted = current.action ? current.action.seat : null;
  for (const seat of current.seats) {
    // Seats around the table, this seat at the bottom (as on the table's page), a little
    // higher: every seat shows its cards here.
    const angle = Math.PI / 2 + (2 * Math.PI * ((seat.seat - me + n) % n)) / n;
    const x = 50 + 42 * Math.cos(angle);
    const y = 47 + 36 * Math.sin(angle);
    const classes = ["seat", `status-${seat.status}`];
    if (seat.seat === current.to_act) classes.push("to-act");
    if (seat.seat === replay.you) classes.push("you");
    if (seat.seat === acted) classes.push("acted");
    if (won.has(seat.seat)) classes.push("winner");
    const item = el("li", {
      class: classes.join(" "),
      style: `--x:${x.toFixed(1)}%;--y:${y.toFixed(1)}%`,
      "data-seat": seat.seat,
      "aria-current": seat.seat === current.to_act ? "true" : null,
    });
    const name = el("div", { class: "name" }, el("strong", { text: seat.name }));
    const tags = [];
    if (seat.seat === replay.you) tags.push(tr("you"));
    if (won.has(seat.seat)) tags.push(tr("winner"));
    if (tags.length) name.append(el("span", { class: "tags", text: ` (${tags.join(", ")})` }));
    if (seat.seat === replay.dealer) {
      name.append(el("span", {
        class: "dealer-button", role: "img", title: tr("dealer"), "aria-label": tr("dealer"),
        text: tr("dealer_button"),
      }));
    }
    item.append(name);
    item.append(el("div", { class: "chips" },
      el("span", { class: "stack", text: tr("stack", { stack: seat.stack }) }),
      seat.bet ? el("span", { class: "bet", text: ` · ${tr("bet_in_round", { amount: seat.bet })}` }) : null));
    const status = [tr(`status_${seat.status}`)];
    if (seat.changed !== null) {
      status.push(seat.changed === 0 ? tr("stood_pat") : tr("changed", { count: seat.changed }));
    }
    if (seat.seat === current.opener) status.push(tr("status_opener"));
    if (seat.seat === current.to_act) status.push(tr("to_act"));
    if (seat.seat === acted) status.push(tr("replay_acted"));
    item.append(el("div", { class: "status", text: status.join(" · ") }));
    if (last.has(seat.seat)) item.append(el("div", { class: "last-action", text: last.get(seat.seat) }));
    item.append(seatCards(seat));
    list.append(item);
  }
}

/** The seat's cards this viewer sees, face up, and the others face down (no code). */
function seatCards(seat) {
  const cards = el("div", { class: "seat-cards" });
  if (seat.cards.length) {
    cards.setAttribute("role", "group");
    cards.setAttribute("aria-label", tr("cards_of", { name: seat.name }));
    for (const code of seat.cards) cards.append(cardFace(app.lang, code));
  }
  if (seat.hidden) {
    const backs = el("span", {
      class: "backs", role: "img", "aria-label": tr("hidden_cards", { n: seat.hidden }),
    });
    for (let i = 0; i < seat.hidden; i += 1) {
      const back = cardBack(app.lang);
      back.removeAttribute("role");
      back.removeAttribute("aria-label");
      back.setAttribute("aria-hidden", "true");
      backs.append(back);
    }
    cards.append(backs);
  }
  return cards;
}

function renderControls() {
  const total = app.replay.frames.length;
  const ends = { first: app.step === 0, prev: app.step === 0, next: app.step === total - 1, last: app.step === total - 1 };
  for (const [id, disabled] of Object.entries(ends)) {
    // aria-disabled, not disabled: the focused button keeps the focus at either end.
    $(id).setAttribute("aria-disabled", disabled ? "true" : "false");
  }
  $("step-count").textContent = tr("replay_step", { n: app.step + 1, total });
  const streets = $("streets");
  streets.replaceChildren();
  const reached = app.replay.streets.filter((s) => s.frame <= app.step);
  const currentStreet = reached.length ? reached[reached.length - 1].phase : null;
  for (const street of app.replay.streets) {
    streets.append(el("button", {
      type: "button", class: "small street", "data-phase": street.phase,
      "aria-current": street.phase === currentStreet ? "step" : null,
      text: phaseName(street.phase), onclick: () => go(street.frame),
    }));
  }
}

function renderResult() {
  const box = $("result-lines");
  box.replaceChildren();
  const last = app.step === app.replay.frames.length - 1;
  if (!last) {
    // The result names the cards shown at the showdown: not before its step.
    box.append(el("p", { class: "muted", text: tr("replay_result_pending") }));
    return;
  }
  for (const line of app.replay.result) box.append(el("p", { text: pick(app.lang, line) }));
}

// ---------------------------------------------------------------- stepping

function go(step) {
  if (!app.replay) return;
  const target = Math.max(0, Math.min(app.replay.frames.length - 1, step));
  if (target === app.step) return;
  app.step = target;
  render();
  announce(`${tr("replay_step", { n: target + 1, total: app.replay.frames.length })}: ${pick(app.lang, frame().line)}`);
}

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || !app.replay) return;
  const target = event.target;
  if (target && ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName)) return;
  const moves = {
    ArrowLeft: () => go(app.step - 1),
    ArrowRight: () => go(app.step + 1),
    Home: () => go(0),
    End: () => go(app.replay.frames.length - 1),
  };
  const move = moves[event.key];
  if (move) {
    event.preventDefault();
    move();
  }
}

// ---------------------------------------------------------------- loading

function refusal(error) {
  if (error.code === "no_table") return "no_table";
  if (error.code === "no_hand") return "replay_no_hand";
  if (error.status === 403) return "token_refused";
  return null;
}

async function load(hand) {
  const ticket = ++app.loading;
  app.hand = hand;
  app.replay = null;
  app.step = 0;
  app.status = "replay_loading";
  render();
  if (!app.seat) {
    app.status = "replay_no_seat";
    render();
    return;
  }
  if (!hand) {
    app.status = "replay_no_hand";
    render();
    return;
  }
  try {
    const replay = await api(
      "GET", `/api/tables/${encodeURIComponent(invite)}/histories/${hand}/frames`, undefined,
      app.seat.player_token,
    );
    if (ticket !== app.loading) return;
    app.replay = replay;
    app.status = null;
    showError("");
  } catch (error) {
    if (ticket !== app.loading) return;
    app.status = refusal(error) ?? "replay_no_hand";
    if (!refusal(error)) showError(`${tr("error_prefix")}: ${error.message}`);
  }
  render();
}

async function loadHands() {
  if (!app.seat) return;
  try {
    const data = await api(
      "GET", `/api/tables/${encodeURIComponent(invite)}/histories`, undefined, app.seat.player_token,
    );
    app.hands = data.hands;
    renderPicker();
  } catch {
    // The deal's own answer says what is wrong.
  }
}

function choose(hand) {
  if (!hand || hand === app.hand) return;
  window.history.pushState({ hand }, "", handPath(hand));
  load(hand);
}

async function copyLink() {
  const url = `${window.location.origin}${handPath(app.hand)}`;
  try {
    await navigator.clipboard.writeText(url);
    showError("");
    announce(tr("replay_copied"));
  } catch {
    showError(tr("copy_failed", { url }));
  }
}

async function download() {
  const replay = app.replay;
  if (!replay || !replay.download) return;
  const response = await fetch(replay.download, {
    headers: { Authorization: `Bearer ${app.seat.player_token}` },
  });
  if (!response.ok) {
    showError(`${tr("error_prefix")}: ${response.status}`);
    return;
  }
  const url = URL.createObjectURL(await response.blob());
  const link = el("a", { href: url, download: `hand-${String(replay.hand).padStart(4, "0")}.phh` });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// ---------------------------------------------------------------- wiring

$("first").addEventListener("click", () => go(0));
$("prev").addEventListener("click", () => go(app.step - 1));
$("next").addEventListener("click", () => go(app.step + 1));
$("last").addEventListener("click", () => go(app.replay ? app.replay.frames.length - 1 : 0));
$("hand-picker").addEventListener("change", (event) => choose(Number(event.target.value)));
$("copy-link").addEventListener("click", copyLink);
$("download").addEventListener("click", download);
$("error-close").addEventListener("click", () => showError(""));
$("lang-switch").addEventListener("click", () => {
  app.lang = app.lang === "it" ? "en" : "it";
  saveLang(app.lang);
  render();
});
$("four-colour").addEventListener("change", (event) => {
  localStorage.setItem("italian-poker.four-colour", event.target.checked ? "1" : "0");
  render();
});
window.addEventListener("popstate", () => load(placeOf(window.location.pathname).hand));
document.addEventListener("keydown", onKey);

loadHands();
load(app.hand);
