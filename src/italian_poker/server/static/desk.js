// The desk (server/home_desk.py) in the table page: the host's (or the co-host's) requests
// with Approve and Refuse, the lock, the co-host and the caps on chip requests; a player's
// "Ask for chips" and the host's answer; a newcomer at a locked table waiting for a seat.
// Every change goes through the REST API (routes/desk.py); the table's state carries the
// desk (state.desk) to every page, so what is shown is always the server's.

import { el } from "/static/dom.js";
import { t } from "/static/i18n.js";
import { api } from "/static/seat_store.js";

const $ = (id) => document.getElementById(id);
const POLL_MS = 2000;

/** A refusal in the player's words: the desk's own code when the catalogue has it. */
export function refusalText(lang, error) {
  const key = `refused_${error.code}`;
  const text = t(lang, key);
  return text === key ? error.message : text;
}

/** Whether this page manages the desk: the host, or the co-host's seat. */
function managing(st) {
  return Boolean(st.host) || (st.desk && st.desk.co_host !== null && st.desk.co_host === st.you);
}

/**
 * Render the desk for state `st`. `ctx`: {lang, invite, seat (the saved seat), onError(text)}.
 */
export function renderDesk(st, ctx) {
  const desk = st.desk;
  const panel = $("desk");
  if (!desk) {
    panel.hidden = true;
    $("chips-ask").hidden = true;
    return;
  }
  renderAsk(st, desk, ctx);
  panel.hidden = !managing(st);
  if (panel.hidden) return;
  const tr = (key, values) => t(ctx.lang, key, values);
  const token = managerToken(st, ctx);
  const call = (path, body) =>
    api("POST", `/api/tables/${ctx.invite}${path}`, body, token).then(
      () => ctx.onError(""),
      (error) => ctx.onError(refusalText(ctx.lang, error)),
    );
  const list = $("desk-requests");
  list.replaceChildren();
  for (const ask of desk.seats) {
    list.append(requestRow(tr("desk_seat_request", { name: ask.name }), `seat-${ask.player}`, [
      [tr("desk_admit"), "primary", () => call(`/seat-requests/${ask.player}/answer`, { admit: true })],
      [tr("desk_refuse"), "", () => call(`/seat-requests/${ask.player}/answer`, { admit: false })],
    ]));
  }
  for (const request of desk.chips) {
    const text = tr(`desk_${request.kind}_request`, { name: request.name, chips: request.chips });
    list.append(requestRow(text, `chips-${request.request}`, [
      [tr("desk_approve"), "primary", () => call(`/chip-requests/${request.request}/answer`, { approve: true })],
      [tr("desk_refuse"), "", () => call(`/chip-requests/${request.request}/answer`, { approve: false })],
    ]));
  }
  $("desk-none").hidden = list.children.length > 0;
  const lock = $("desk-lock");
  if (document.activeElement !== lock) lock.checked = desk.locked;
  $("desk-settings").hidden = !st.host && !managing(st);
  $("desk-co-host-row").hidden = !st.host;
  if (st.host) renderCoHost(st, desk, tr);
  renderCaps(desk.caps);
}

/** The token this page answers with: the host's, else the co-host's own. */
function managerToken(st, ctx) {
  if (!ctx.seat) return null;
  return st.host ? ctx.seat.host_token : ctx.seat.player_token;
}

function requestRow(text, key, buttons) {
  const answers = el("span", { class: "desk-answers" });
  for (const [label, kind, onclick] of buttons) {
    answers.append(el("button", {
      type: "button", class: `small ${kind}`.trim(), "data-fkey": `${key}-${label}`,
      "aria-label": `${label}: ${text}`, text: label, onclick,
    }));
  }
  return el("li", { class: "row desk-request" }, el("span", { class: "grow", text }), answers);
}

function renderCoHost(st, desk, tr) {
  const select = $("desk-co-host");
  if (document.activeElement === select) return;
  const options = [el("option", { value: "", text: tr("desk_co_host_none") })];
  for (const seat of st.seats) {
    if (seat.status === "empty" || seat.bot || seat.seat === st.you) continue;
    options.push(el("option", { value: String(seat.seat), text: seat.name }));
  }
  select.replaceChildren(...options);
  select.value = desk.co_host === null ? "" : String(desk.co_host);
}

function renderCaps(caps) {
  const form = $("desk-caps");
  if (form.contains(document.activeElement)) return; // the host is typing
  for (const name of ["minimum", "maximum", "times", "until_level"]) {
    form.elements[name].value = caps[name] === null ? "" : String(caps[name]);
  }
  form.elements.during_deal.checked = caps.during_deal;
}

/** The player's "Ask for chips": the control, and the last answer or the request waiting. */
function renderAsk(st, desk, ctx) {
  const box = $("chips-ask");
  const me = st.seats.find((s) => s.seat === st.you);
  // The host sets chips directly; in a sit and go a busted player asks to re-enter (match.js).
  const sitAndGo = Boolean(st.match && st.match.kind === "sit-and-go");
  box.hidden = !me || me.status === "empty" || Boolean(st.host) || sitAndGo;
  if (box.hidden) return;
  const tr = (key, values) => t(ctx.lang, key, values);
  const waiting = desk.chips.find((r) => r.seat === st.you);
  const answer = desk.answers[String(st.you)];
  const status = $("chips-ask-status");
  if (waiting) {
    status.textContent = tr("ask_chips_waiting", { chips: waiting.chips });
  } else if (answer) {
    status.textContent = tr(answer.approved ? "ask_chips_approved" : "ask_chips_refused", { chips: answer.chips });
  } else {
    status.textContent = "";
  }
  status.hidden = !status.textContent;
  $("chips-ask-send").disabled = Boolean(waiting);
  // The caps as a hint; the server refuses what they do not allow, in the player's words.
  const { minimum, maximum } = desk.caps;
  $("chips-ask-amount").placeholder = maximum === null ? `${minimum}+` : `${minimum}–${maximum}`;
}

/** Wire the desk's controls once. `ctx()`: the context of the latest render. */
export function setupDesk(ctx) {
  const hostCall = (path, body, asHost) => {
    const c = ctx();
    const st = c.state();
    if (!st || !c.seat) return;
    const token = asHost || st.host ? c.seat.host_token : c.seat.player_token;
    api("POST", `/api/tables/${c.invite}${path}`, body, token).then(
      () => c.onError(""),
      (error) => c.onError(refusalText(c.lang, error)),
    );
  };
  $("desk-lock").addEventListener("change", (event) => hostCall("/lock", { locked: event.target.checked }));
  $("desk-co-host").addEventListener("change", (event) => {
    const value = event.target.value;
    hostCall("/co-host", { seat: value === "" ? null : Number(value) }, true);
  });
  $("desk-caps").addEventListener("submit", (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const number = (name) => {
      const text = form.elements[name].value.trim();
      return text === "" ? null : Number.parseInt(text, 10);
    };
    hostCall("/chip-caps", {
      minimum: number("minimum") ?? 1,
      maximum: number("maximum"),
      times: number("times"),
      until_level: number("until_level"),
      during_deal: form.elements.during_deal.checked,
    });
  });
  $("chips-ask-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const c = ctx();
    if (!c.seat) return;
    const chips = Number.parseInt($("chips-ask-amount").value, 10);
    api("POST", `/api/tables/${c.invite}/chip-requests`, { chips }, c.seat.player_token).then(
      () => c.onError(""),
      (error) => c.onError(refusalText(c.lang, error)),
    );
  });
}

/**
 * A newcomer at a locked table: say that the host has the request and ask the server every
 * few seconds where it stands; `onAdmitted()` once admitted, `onRefused()` once refused.
 */
export function waitForSeat({ invite, token, lang, onAdmitted, onRefused }) {
  const note = $("seat-wait");
  note.hidden = false;
  note.textContent = t(lang(), "seat_waiting");
  const poll = async () => {
    let status;
    try {
      status = await api("GET", `/api/tables/${invite}/seat-request`, undefined, token);
    } catch {
      setTimeout(poll, POLL_MS);
      return;
    }
    if (status.status === "admitted") {
      note.hidden = true;
      onAdmitted(status.seat);
    } else if (status.status === "refused") {
      note.textContent = t(lang(), "seat_refused");
      onRefused();
    } else {
      note.textContent = t(lang(), "seat_waiting");
      setTimeout(poll, POLL_MS);
    }
  };
  poll();
}
