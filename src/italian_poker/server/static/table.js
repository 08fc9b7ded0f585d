// The browser table: one seat's view of the game, over the table's WebSocket.
// The page holds no game data of its own: everything shown comes from the server's "state"
// messages, which carry only what this seat may see. At /w/{watch} it is the spectators'
// page (watch.js): the spectators' socket, the public view only, no seat and no action.

import { actionLabel, cardName, initialLang, pick, saveLang, t, translatePage } from "/static/i18n.js";
import { cardBack as backOf, cardFace as faceOf } from "/static/cards.js";
import { api, forgetSeat, loadSeat, offerHint, saveSeat } from "/static/seat_store.js";
import { refusalText, renderDesk, setupDesk, waitForSeat } from "/static/desk.js";
import { breaksOpening, maxDraw } from "/static/draw_rules.js";
import { showStats } from "/static/stats.js";
import { isChatMessage, onChatMessage, renderChat, setupChat } from "/static/chat.js";
import {
  downloadLedger, renderLedgerAccess, setLedgerVisibility, showLedger as showLedgerIn,
} from "/static/ledger.js";
import { el } from "/static/dom.js";
import { renderFair, renderFairHost, setupFair } from "/static/fair_panel.js";
import { HINT_KEY, hintDiscards, renderHint } from "/static/hint.js";
import { renderMatch } from "/static/match.js";
import {
  DealReplays, hideSeatControls, renderWatchControls, renderWatchNote, renderWatching, setWatch,
  watchOf, watchUrl,
} from "/static/watch.js";

const AMOUNT_KINDS = new Set(["open", "bet", "raise"]);
const LIVE_PHASES = new Set(["blinds", "opening", "first-round", "draw", "second-round", "showdown"]);
const PING_MS = 20000;
const TOUCH = window.matchMedia("(hover: none) and (pointer: coarse)").matches; // no keyboard hints
const STILL = window.matchMedia("(prefers-reduced-motion: reduce)"); // no flying chips
const CHIP_MS = 900;
const PHONE = window.matchMedia("(max-width: 700px)"); // your cards in the panel at the bottom
const READ_KEY = "t"; // reads the table aloud (the live region)
// The Italian names explained when offered (a line under the buttons); the others on hover.
const EXPLAINED = new Set(["blind", "controbuio", "over", "decline", "parol", "make-up", "sit-out", "muck"]);

const watch = watchOf(window.location.pathname); // a spectator's page: the watch link's secret
const invite = watch ? "" : decodeURIComponent(window.location.pathname.split("/").filter(Boolean).pop() || "");
const $ = (id) => document.getElementById(id);

const app = {
  lang: initialLang(),
  langChosen: localStorage.getItem("italian-poker.lang") !== null,
  seat: watch ? null : loadSeat(invite),
  socket: null,
  retries: 0,
  closedForGood: false,
  message: null, // the latest "state" message
  log: [], // the public log's newest lines: a state's "log" replaces them, its "events" add to them
  selected: new Set(), // cards marked for the draw
  handKey: "",
  legalKey: "",
  waiting: false, // an action was sent and no answer came yet
  lastTurnAnnounced: null,
  pending: [],
  stackDrafts: new Map(), // chips the host is typing, by seat
  pendingTimer: null,
  offline: false, // the connection was lost after a state came: actions wait for the next one
  flownHand: null, // the deal whose chips were last sent flying to its winners
  audio: null, // the AudioContext of the turn sound, made when the player switches it on
  blink: null, // the title's blink timer while the tab is hidden on this player's turn
  amount: null, // the bet's size chosen with the slider, the sizes or the field (a round total)
  amountKey: "", // the turn the chosen size belongs to
};

const meBox = $("me"); // your cards, moved to your own seat on the felt at every render
// A spectator one deal behind: each deal once it has ended, step by step (watch.js).
const replays = new DealReplays((frame, line) => {
  render();
  if (line) announce(pick(app.lang, line));
  if (frame && frame.result) flyChips(frame, false);
});

// ---------------------------------------------------------------- helpers

function tr(key, values) {
  return t(app.lang, key, values);
}

function showFailure(error) {
  showError(`${tr("error_prefix")}: ${error.message}`);
}

function showError(message) {
  $("error-text").textContent = message;
  $("error").hidden = !message;
}

function announce(text) {
  if (!text) return;
  app.pending.push(text);
  if (app.pendingTimer) return;
  app.pendingTimer = setTimeout(() => {
    $("live").textContent = app.pending.join(" ");
    app.pending = [];
    app.pendingTimer = null;
  }, 150);
}

function state() {
  return replays.frame || (app.message ? app.message.state : null);
}

function mySeat(st) {
  if (!st || st.you === null || st.you === undefined) return null;
  return st.seats.find((s) => s.seat === st.you) || null;
}

function legal(st) {
  return st && Array.isArray(st.legal) ? st.legal : [];
}

function findLegal(kind) {
  return legal(state()).find((a) => a.kind === kind) || null;
}

function keyFor(entry) {
  return entry.key || null; // the server sends each action's one-key shortcut
}

function fourColour() {
  return localStorage.getItem("italian-poker.four-colour") === "1";
}

// ---------------------------------------------------------------- cards

/** A card face in the page's language (static/cards.js). */
function cardFace(code, options = {}) {
  return faceOf(app.lang, code, options);
}

function cardBack() {
  return backOf(app.lang);
}

// ---------------------------------------------------------------- rendering

function render() {
  translatePage(document, app.lang);
  $("lang-switch").textContent = tr("lang_switch");
  $("lang-switch").setAttribute("aria-label", tr("lang_switch_label"));
  document.body.classList.toggle("four-colour", fourColour());
  document.body.classList.toggle("touch", TOUCH);
  $("four-colour").checked = fourColour();
  $("sound").checked = soundOn();
  $("notify").checked = notifyOn();
  $("notify-row").hidden = !window.Notification || Boolean(watch);
  $("outage").hidden = !app.offline;
  document.body.classList.toggle("offline", app.offline);
  if ($("conn").dataset.state) $("conn").textContent = tr($("conn").dataset.state);
  const st = state();
  renderChat({ lang: app.lang, host: Boolean(st && st.host), offline: app.offline });
  if (!st) return;
  const focused = document.activeElement && document.activeElement.dataset
    ? document.activeElement.dataset.fkey : null;
  if (!app.blink) document.title = pageTitle(st);
  $("table-name").textContent = st.table.name;
  $("game").dataset.seq = app.message ? String(app.message.seq) : ""; // the state shown
  renderMatch(st, app.lang, watch ? null : st.you, reEnter);
  renderCenter(st);
  renderFair(st, { lang: app.lang, send, rerender: render, spectator: Boolean(watch) });
  renderSeats(st);
  renderHand(st);
  renderActions(st);
  renderResult(st);
  renderLog();
  renderWatchNote(st, app.lang);
  if (watch) {
    renderWatching(st, app.lang, replays);
  } else {
    renderHost(st);
    renderDesk(st, deskContext());
    renderLedgerAccess(st, app.lang);
    renderSitToggle(st);
  }
  if (focused) {
    const again = document.querySelector(`[data-fkey="${CSS.escape(focused)}"]`);
    if (again && again !== document.activeElement) again.focus();
  }
}

function phaseText(st) {
  if (st.table.status === "paused") return tr("phase_paused");
  const key = `phase_${st.phase}`;
  const text = tr(key);
  return text === key ? st.phase : text;
}

function pageTitle(st) {
  return `${watch ? `${tr("watching")}: ` : ""}${st.table.name} · ${tr("title")}`;
}

/** What each seat won in the deal just ended, by seat: {seat: chips}. */
function winnings(st) {
  const won = new Map();
  const awards = st.result && Array.isArray(st.result.awards) ? st.result.awards : [];
  for (const award of awards) {
    award.winners.forEach((seat, i) => won.set(seat, (won.get(seat) || 0) + (award.shares[i] ?? 0)));
  }
  return won;
}

function renderCenter(st) {
  const won = winnings(st);
  if (won.size) {
    // After a deal, until the next: the pot, who won it and why, on the felt.
    $("pot").textContent = tr("pot", { pot: st.result.awards.reduce((sum, a) => sum + a.amount, 0) });
    $("awards").replaceChildren(...st.result.awards.map(
      (award) => el("p", { text: pick(app.lang, award.line) })));
  } else {
    $("pot").textContent = tr("pot", { pot: st.pot });
    $("awards").replaceChildren();
  }
  $("phase").textContent = phaseText(st);
  // Art. 2: a deal played on a blind needs no opening.
  const requirement = pick(app.lang, st.requirement);
  $("requirement").textContent = st.blind
    ? tr("no_opening_blind")
    : requirement ? `${tr("to_open")}: ${requirement}` : "";
  renderTurn(st);
}

function renderTurn(st) {
  const node = $("turn");
  if (st.to_act === null || st.to_act === undefined) {
    node.textContent = "";
    node.classList.remove("mine");
    renderTimerBar($("timer-bar"), null);
    renderTimerBar($("my-timer"), null);
    return;
  }
  const seat = st.seats.find((s) => s.seat === st.to_act);
  const mine = st.to_act === st.you;
  let text = mine ? tr("your_turn") : tr("waiting_for", { name: seat ? seat.name : "?" });
  const clock = turnClock(st);
  if (clock) {
    text += ` · ${tr("seconds_left", { s: Math.ceil(clock.turnLeft) })}`;
    if (mine && clock.bank !== null) {
      text += ` · ${tr("time_bank_left", { s: Math.ceil(clock.bankLeft) })}`;
    }
  } else if (st.table.turn_seconds === null) {
    text += ` · ${tr("timer_off")}`;
  }
  node.textContent = text;
  node.classList.toggle("mine", mine);
  renderTimerBar($("timer-bar"), clock);
  renderTimerBar($("my-timer"), mine ? clock : null);
}

/** The turn's clock as the page can tell it: seconds left of the turn, then of the time bank
 * (spent once the turn's own seconds are gone); null without a timer, or while offline (the
 * server, not this page, keeps the time: the last reading would only drift on). */
function turnClock(st) {
  if (!st.deadline || app.offline || st.to_act === null || st.to_act === undefined) return null;
  const over = Date.now() / 1000 - st.deadline;
  const bank = typeof st.time_bank === "number" ? st.time_bank : null;
  return {
    turnLeft: Math.max(0, -over),
    turnSeconds: Number(st.table.turn_seconds) || 1,
    bank,
    bankLeft: bank === null ? 0 : Math.max(0, bank - Math.max(0, over)),
  };
}

function renderTimerBar(bar, clock) {
  bar.hidden = !clock;
  if (!clock) return;
  const onBank = clock.turnLeft <= 0 && clock.bank;
  const share = onBank ? clock.bankLeft / clock.bank : clock.turnLeft / clock.turnSeconds;
  bar.classList.toggle("bank", Boolean(onBank));
  bar.classList.toggle("low", share < 0.25);
  bar.firstElementChild.style.width = `${Math.max(0, Math.min(1, share)) * 100}%`;
}

function renderSeats(st) {
  const list = $("seats");
  $("me-home").append(meBox); // out of the seat about to be rebuilt
  list.replaceChildren();
  const won = winnings(st);
  const n = st.seats.length;
  const me = st.you ?? 0;
  const live = LIVE_PHASES.has(st.phase);
  const dealt = live && st.phase !== "blinds";
  for (const seat of st.seats) {
    // Seats around the table, this seat at the bottom.
    const angle = Math.PI / 2 + (2 * Math.PI * ((seat.seat - me + n) % n)) / n;
    const x = 50 + 42 * Math.cos(angle);
    const y = 50 + 40 * Math.sin(angle);
    const classes = ["seat", `status-${seat.status}`];
    const order = (seat.seat - me + n) % n + (seat.status === "empty" ? n : 0); // play order from yours, empty seats last
    if (seat.seat === st.to_act) classes.push("to-act");
    if (seat.seat === st.you) classes.push("you");
    if (won.has(seat.seat)) classes.push("winner");
    const item = el("li", {
      class: classes.join(" "),
      style: `--x:${x.toFixed(1)}%;--y:${y.toFixed(1)}%;order:${order}`,
      "data-seat": seat.seat,
      "aria-current": seat.seat === st.to_act ? "true" : null,
    });
    if (seat.status === "empty") {
      item.append(el("div", { class: "name", text: `${tr("seat")} ${seat.seat + 1}: ${tr("empty_seat")}` }));
      list.append(item);
      continue;
    }
    const tags = [];
    if (seat.seat === st.you) tags.push(tr("you"));
    if (seat.bot) tags.push(`${tr("bot")} ${tr(`level_${seat.bot}`)}`);
    if (!seat.connected && !seat.bot) tags.push(tr("disconnected"));
    if (won.has(seat.seat)) tags.push(tr("winner"));
    const name = el("div", { class: "name" }, el("strong", { text: seat.name }));
    if (tags.length) name.append(el("span", { class: "tags", text: ` (${tags.join(", ")})` }));
    if (seat.seat === st.dealer) {
      name.append(el("span", {
        class: "dealer-button", role: "img", title: tr("dealer"), "aria-label": tr("dealer"),
        text: tr("dealer_button"),
      }));
    }
    item.append(name);
    item.append(el("div", { class: "chips" }, el("span", { text: tr("stack", { stack: seat.stack }) })));
    if (seat.bet) {
      // The bet of this round in front of the seat, towards the pot.
      item.append(el("span", {
        class: "bet bet-chip", "data-bet": seat.bet,
        style: `--dx:${(-Math.cos(angle)).toFixed(2)};--dy:${(-Math.sin(angle)).toFixed(2)}`,
        text: tr("bet_in_round", { amount: seat.bet }),
      }));
    }
    const status = [tr(seat.status === "active" && !live ? "status_seated" : `status_${seat.status}`)];
    if (live && seat.sit_out) status.push(tr("sit_out_pending"));
    if (seat.changed !== null && seat.changed !== undefined) {
      status.push(seat.changed === 0 ? tr("stood_pat") : tr("changed", { count: seat.changed }));
    }
    if (seat.seat === st.to_act) status.push(tr("to_act"));
    item.append(el("div", { class: "status", text: status.join(" · ") }));
    const last = pick(app.lang, seat.last_action);
    if (last) item.append(el("div", { class: "last-action", text: last }));
    if (seat.seat === st.you) {
      (PHONE.matches ? $("dock-hand") : item).append(meBox);
    } else {
      const cards = el("div", { class: "seat-cards" });
      if (Array.isArray(seat.cards) && seat.cards.length) {
        cards.setAttribute("role", "group");
        cards.setAttribute("aria-label", tr("cards_of", { name: seat.name }));
        for (const code of seat.cards) cards.append(cardFace(code));
        const label = pick(app.lang, seat.cards_label); // the faces have their names already
        if (label) cards.setAttribute("title", label);
        item.append(cards);
      } else if (dealt && seat.status === "active") {
        cards.setAttribute("role", "img");
        const size = st.table.hand_size; // 3.1, as the server sends it
        cards.setAttribute("aria-label", tr("hidden_cards", { n: size }));
        for (let i = 0; i < size; i += 1) {
          cards.append(el("span", { class: "card back", "aria-hidden": "true" }));
        }
        item.append(cards);
      }
    }
    list.append(item);
  }
}

function drawEntry(st) {
  return st.to_act === st.you ? legal(st).find((a) => a.kind === "draw") || null : null;
}

function renderHand(st) {
  const hand = st.hand && Array.isArray(st.hand.cards) ? st.hand.cards : [];
  const key = `${app.message.hand}:${hand.join(",")}`;
  const draw = drawEntry(st);
  if (key !== app.handKey || !draw) {
    app.selected = new Set([...app.selected].filter((c) => draw && hand.includes(c)));
    app.handKey = key;
  }
  const box = $("hand");
  box.replaceChildren();
  if (!hand.length) box.append(el("span", { class: "muted", text: tr("no_hand") }));
  for (const code of hand) {
    box.append(draw
      ? cardFace(code, {
        button: true, pressed: app.selected.has(code), disabled: app.offline, onclick: () => toggleCard(code),
      })
      : cardFace(code));
  }
  // After a draw of four, the fifth card comes once the others have drawn (4.2).
  const due = LIVE_PHASES.has(st.phase) && hand.length && hand.length < 5 ? 5 - hand.length : 0;
  for (let i = 0; i < due; i += 1) {
    box.append(el("span", { class: "card pending", role: "img", "aria-label": tr("card_to_come"), text: "?" }));
  }
  const category = st.hand ? pick(app.lang, st.hand.category) : "";
  $("category").textContent = due
    ? tr("hand_pending", { held: hand.length, due })
    : category ? tr("hand_category", { category }) : "";
  $("draw-controls").hidden = !draw;
  if (draw) {
    const max = maxDraw(draw);
    $("draw-help").textContent = tr(TOUCH ? "draw_help_touch" : "draw_help", { max });
    const n = app.selected.size;
    const confirm = $("draw-confirm");
    const label = n ? tr("draw_confirm", { n }) : tr("stand_pat");
    const keys = n ? tr("key_enter") : `S / ${tr("key_enter")}`;
    confirm.textContent = TOUCH ? label : `${label} (${keys})`;
    confirm.disabled = blocked();
    confirm.dataset.fkey = "draw-confirm";
    $("split-note").hidden = !breaksOpening(draw, [...app.selected]);
  } else {
    $("split-note").hidden = true;
  }
  renderHint(st, app.lang, { drawing: Boolean(draw), disabled: blocked(), touch: TOUCH });
}

/** An amount as the terminal's buttons say it: what you add and, when chips of yours are in
 * the round already, what your bet becomes: "10 (to 20)"; "5" with nothing in yet. */
function amountText(total, already) {
  if (!(already > 0)) return String(total);
  return tr("amount_added", { added: total - already, total });
}

/** The sizes the structure allows for a bet of `entry` (round totals), labelled: minimum,
 * half pot, pot, all-in (or maximum), each only once and only within its range. */
function betSizes(st, entry, already) {
  const me = mySeat(st);
  const highest = Math.max(0, ...st.seats.map((s) => s.bet || 0));
  const toCall = Math.max(0, highest - already);
  const wholePot = st.pot + toCall; // the pot once you have called
  const allIn = me ? me.stack + already : null;
  const sizes = [
    ["size_min", entry.min],
    ["size_half_pot", highest + Math.floor(wholePot / 2)],
    ["size_pot", highest + wholePot],
    [entry.max === allIn ? "size_all_in" : "size_max", entry.max],
  ];
  const seen = new Set();
  return sizes.filter(([, amount]) => {
    if (amount < entry.min || amount > entry.max || seen.has(amount)) return false;
    seen.add(amount);
    return true;
  });
}

function renderActions(st) {
  const box = $("action-buttons");
  box.replaceChildren();
  const entries = st.to_act === st.you ? legal(st).filter((a) => a.kind !== "draw") : [];
  const signature = JSON.stringify([app.message.hand, app.message.seq, entries]);
  const amountEntries = entries.filter((a) => AMOUNT_KINDS.has(a.kind) && a.min !== a.max);
  const me = mySeat(st);
  const already = me ? me.bet || 0 : 0;
  $("actions").classList.toggle("has-actions", entries.length > 0 || Boolean(drawEntry(st)));
  $("actions").classList.toggle("docked", Boolean(me) && !watch);
  renderTurnLine(st, entries, already);
  if (!entries.length && !drawEntry(st)) {
    box.append(el("p", { class: "muted", text: tr("no_actions") }));
  }
  if (amountEntries.length) {
    const low = Math.min(...amountEntries.map((a) => a.min));
    if (signature !== app.legalKey && app.amountKey !== `${app.message.hand}:${app.message.seq}`) {
      app.amount = low;
      app.amountKey = `${app.message.hand}:${app.message.seq}`;
    }
    // New actions: the field says the amount before the buttons and the line are labelled.
    if (signature !== app.legalKey) $("amount").value = String(app.amount ?? low);
  }
  const chosen = chosenAmount();
  const help = [];
  for (const entry of entries) {
    const key = keyFor(entry);
    const name = actionLabel(app.lang, entry.kind);
    let text = pick(app.lang, entry.label) || name;
    const fixed = entry.min !== null && entry.min !== undefined && entry.min === entry.max;
    if (fixed && !text.includes(String(entry.min))) text += ` ${entry.min}`;
    if (AMOUNT_KINDS.has(entry.kind) && !fixed && chosen !== null) {
      text = `${name} ${amountText(chosen, already)}`; // the size chosen, before it is pressed
    }
    const explain = tr(`explain_${entry.kind}`);
    const explained = explain !== `explain_${entry.kind}`;
    if (explained && EXPLAINED.has(entry.kind)) help.push(explain);
    const button = el("button", {
      type: "button",
      class: `action action-${entry.kind}`,
      "data-kind": entry.kind,
      "data-fkey": `action-${entry.kind}`,
      title: explained ? explain : null,
      // The name is the visible label (WCAG 2.5.3); the key is told by aria-keyshortcuts.
      "aria-keyshortcuts": key ? key.toUpperCase() : null,
      disabled: blocked(),
      onclick: () => act(entry),
    }, el("span", { text }), key ? el("kbd", { "aria-hidden": "true", text: key.toUpperCase() }) : null);
    box.append(button);
  }
  $("action-help").replaceChildren(...help.map((line) => el("li", { text: line })));
  const row = $("amount-row");
  row.hidden = !amountEntries.length;
  if (amountEntries.length) {
    const low = Math.min(...amountEntries.map((a) => a.min));
    const high = Math.max(...amountEntries.map((a) => a.max));
    const input = $("amount");
    const slider = $("amount-slider");
    input.disabled = app.offline;
    slider.disabled = app.offline;
    input.min = slider.min = String(low);
    input.max = slider.max = String(high);
    if (chosen !== null) slider.value = String(chosen);
    const sizes = betSizes(st, amountEntries[0], already).map(([key, amount]) => el("button", {
      type: "button", class: "size", "data-amount": amount, "data-fkey": `size-${key}`,
      "aria-pressed": String(amount === chosen), disabled: app.offline,
      text: tr(key, { amount: amountText(amount, already) }),
      onclick: () => chooseAmount(amount),
    }));
    $("amount-sizes").replaceChildren(...sizes);
    const range = amountEntries
      .map((a) => `${actionLabel(app.lang, a.kind)}: ${tr("amount_range", { min: a.min, max: a.max })}`)
      .join(" · ");
    $("amount-range").textContent = chosen === null ? range : `${tr("bet_becomes", { total: chosen })} · ${range}`;
    input.setAttribute("aria-describedby", "amount-range");
  }
  app.legalKey = signature;
}

/** The pot, what you must add to call and your bet this round, by the actions. */
function renderTurnLine(st, entries, already) {
  $("turn-pot").textContent = tr("pot", { pot: st.pot });
  const call = entries.find((a) => a.kind === "call");
  const mine = st.to_act === st.you && st.you !== null;
  $("turn-call").textContent = !mine ? ""
    : call ? tr("to_call", { amount: call.min - already }) : tr("nothing_to_call");
  $("my-bet").textContent = already ? tr("my_bet", { amount: already }) : "";
}

/** The bet's size the field says (a whole number), else null. */
function chosenAmount() {
  const text = $("amount").value.trim();
  if (/^\d+$/.test(text)) return Number.parseInt(text, 10);
  return app.amount;
}

function chooseAmount(amount) {
  app.amount = amount;
  $("amount").value = String(amount);
  const st = state();
  if (st) renderActions(st);
}

function renderResult(st) {
  const box = $("result-lines");
  box.replaceChildren();
  const lines = st.result && Array.isArray(st.result.lines) ? st.result.lines : [];
  if (!lines.length) {
    box.append(el("p", { class: "muted", text: tr("no_result") }));
    return;
  }
  for (const line of lines) box.append(el("p", { text: pick(app.lang, line) }));
}

const LOG_LINES = 50;

// The log as the server sends it: whole in a connection's first state (and in one that is no
// event's), then only the lines of each change's events.
function keepLog(st) {
  if (Array.isArray(st.log)) app.log = st.log.slice(-LOG_LINES);
  else if (Array.isArray(st.events)) app.log = app.log.concat(st.events).slice(-LOG_LINES);
}

function renderLog() {
  const list = $("log-lines");
  list.replaceChildren();
  for (const entry of replays.log() || app.log) {
    list.append(el("li", { text: pick(app.lang, entry) }));
  }
  list.scrollTop = list.scrollHeight;
}

/** What the desk (desk.js) needs of the page. */
function deskContext() {
  return { lang: app.lang, invite, seat: app.seat, state, onError: showError };
}

/** A newcomer at a locked table: wait for the host's answer, then connect (or say no). */
function waitForAdmission() {
  const prompt = $("join").querySelector("[data-i18n=join_prompt]");
  $("join-form").hidden = true;
  prompt.hidden = true;
  waitForSeat({
    invite,
    token: app.seat.player_token,
    lang: () => app.lang,
    onAdmitted: (seat) => {
      saveSeat(invite, { ...app.seat, seat });
      app.seat = loadSeat(invite);
      connect();
    },
    onRefused: () => {
      forgetSeat(invite);
      app.seat = null;
      $("join-form").hidden = false;
      prompt.hidden = false;
    },
  });
}

function renderSitToggle(st) {
  const me = mySeat(st);
  const button = $("sit-toggle");
  button.hidden = !me;
  if (!me) return;
  const out = me.status === "sitting_out" || Boolean(me.sit_out); // pending until the deal ends
  button.textContent = out ? tr("sit_in") : tr("sit_out");
  button.dataset.mode = out ? "sit_in" : "sit_out";
}

function renderHost(st) {
  $("host").hidden = !st.host;
  $("host-row").hidden = !st.host;
  if (!st.host) return;
  $("invite-url").value = inviteUrl();
  const status = st.table.status;
  $("start").hidden = status !== "lobby";
  $("pause").hidden = status !== "playing";
  $("resume").hidden = status !== "paused";
  renderWatchControls(st, watchContext());
  renderFairHost(st, app.lang);
  const advice = $("advice-on");
  if (document.activeElement !== advice) advice.checked = Boolean(st.table.advice);
  const list = $("host-seats");
  list.replaceChildren();
  const sitAndGo = Boolean(st.match && st.match.kind === "sit-and-go");
  for (const seat of st.seats) {
    if (seat.status === "empty") continue;
    const item = el("li", { class: "row" }, el("span", { class: "grow", text: `${seat.seat + 1}. ${seat.name}` }));
    if (seat.seat !== st.you) {
      const verb = seat.bot ? tr("remove") : tr("kick");
      item.append(el("button", {
        type: "button", class: "small", "data-fkey": `remove-${seat.seat}`,
        "aria-label": `${verb}: ${seat.name}`, text: verb, onclick: () => removeSeat(seat),
      }));
    }
    // A sit and go's stacks change only in play: no chips to set.
    if (sitAndGo) {
      list.append(item);
      continue;
    }
    const draft = app.stackDrafts.get(seat.seat);
    const input = el("input", {
      type: "number", min: "0", value: draft ?? String(seat.stack), class: "stack-input",
      "data-fkey": `stack-input-${seat.seat}`, "aria-label": `${tr("adjust_stack")}: ${seat.name}`,
      oninput: (event) => app.stackDrafts.set(seat.seat, event.target.value),
    });
    item.append(input, el("button", {
      type: "button", class: "small", "data-fkey": `stack-${seat.seat}`,
      "aria-label": `${tr("adjust_stack")}: ${seat.name}`, text: tr("adjust_stack"),
      onclick: () => adjustStack(seat, input.value),
    }));
    list.append(item);
  }
}

// ---------------------------------------------------------------- actions

function send(message) {
  if (!app.socket || app.socket.readyState !== WebSocket.OPEN) {
    showError(tr("reconnecting"));
    return false;
  }
  app.socket.send(JSON.stringify(message));
  return true;
}

function sendAction(action) {
  const message = app.message;
  if (!message) return;
  const sent = send({
    type: "action",
    hand: message.hand,
    seq: message.seq,
    action: { kind: action.kind, amount: action.amount ?? null, cards: action.cards ?? [], split: !!action.split },
  });
  if (sent) {
    app.waiting = true;
    showError("");
    render();
  }
}

/** Whether actions wait: one was sent and not answered, or the connection is lost. */
function blocked() {
  return app.waiting || app.offline;
}

function act(entry) {
  if (blocked()) return;
  if (AMOUNT_KINDS.has(entry.kind)) {
    let amount = entry.min;
    if (entry.min !== entry.max) {
      const text = $("amount").value.trim();
      amount = /^\d+$/.test(text) ? Number.parseInt(text, 10) : NaN;
      if (!(amount >= entry.min && amount <= entry.max)) {
        showError(tr("amount_bad", { min: entry.min, max: entry.max }));
        $("amount").focus();
        return;
      }
    }
    sendAction({ kind: entry.kind, amount });
    return;
  }
  sendAction({ kind: entry.kind });
}

function toggleCard(code) {
  const st = state();
  const draw = st && drawEntry(st);
  if (!draw || app.offline) return;
  if (app.selected.has(code)) {
    app.selected.delete(code);
  } else if (app.selected.size >= maxDraw(draw)) {
    showError(tr("draw_too_many", { max: maxDraw(draw) }));
    return;
  } else {
    app.selected.add(code);
  }
  showError("");
  render();
}

/** Mark the best keep's discards (the hint's), in place of what was marked. */
function useHint() {
  const st = state();
  const discards = hintDiscards(st);
  if (!discards || !drawEntry(st) || app.offline) return;
  app.selected = new Set(discards);
  showError("");
  render();
}

function confirmDraw(standPat = false) {
  const st = state();
  if (!st || !drawEntry(st) || blocked()) return;
  const hand = st.hand ? st.hand.cards : [];
  const cards = standPat ? [] : hand.filter((c) => app.selected.has(c));
  sendAction({ kind: "draw", cards, split: breaksOpening(drawEntry(st), cards) });
}

async function hostCall(method, path, body) {
  try {
    await api(method, `/api/tables/${invite}${path}`, body, app.seat && app.seat.host_token);
    showError("");
    return true;
  } catch (error) {
    showFailure(error);
    return false;
  }
}

/** A busted player of a sit and go asks the host to re-enter with the starting chips (a chip
 * request, routes/desk.py); the host, asking for themself, approves at once. */
async function reEnter() {
  const st = state();
  if (!st || !st.match || !app.seat) return;
  const base = `/api/tables/${invite}`;
  try {
    const desk = await api("POST", `${base}/chip-requests`, { chips: st.match.starting_chips }, app.seat.player_token);
    const mine = desk.chips.find((r) => r.seat === st.you && r.kind === "re_entry");
    if (st.host && mine) {
      await api("POST", `${base}/chip-requests/${mine.request}/answer`, { approve: true }, app.seat.host_token);
    }
    showError("");
  } catch (error) {
    showError(refusalText(app.lang, error));
  }
}

function removeSeat(seat) {
  hostCall("DELETE", `/seats/${seat.seat}`);
}

function adjustStack(seat, value) {
  const amount = Number.parseInt(value, 10);
  if (!(amount >= 0)) {
    showError(tr("amount_bad", { min: 0, max: "∞" }));
    return;
  }
  hostCall("POST", "/stacks", { seat: seat.seat, amount }).then((ok) => {
    if (ok) app.stackDrafts.delete(seat.seat);
  });
}

function ledgerContext() {
  return { invite, seat: app.seat, lang: app.lang };
}

async function showLedger() {
  try {
    await showLedgerIn($("ledger"), ledgerContext());
    showError("");
  } catch (error) {
    showFailure(error);
  }
}

async function downloadLedgerCsv(part = "rows") {
  try {
    await downloadLedger(ledgerContext(), part);
  } catch (error) {
    showFailure(error);
  }
}

async function switchLedger(event) {
  const box = event.currentTarget;
  try {
    await setLedgerVisibility(ledgerContext(), box.checked);
    showError("");
  } catch (error) {
    box.checked = !box.checked;
    showFailure(error);
  }
}

async function switchAdvice(event) {
  const box = event.currentTarget;
  if (!(await hostCall("POST", "/advice", { on: box.checked }))) box.checked = !box.checked;
}

function watchContext() {
  return { invite, seat: app.seat, lang: app.lang };
}

/** The host's Spectators control: the link on or off, the delay, a new link. */
async function changeWatch(body) {
  const st = state();
  if (!st || !app.seat) return;
  const watching = st.table.watch || { open: false, delay: false };
  try {
    await setWatch(watchContext(), { open: watching.open, delay: watching.delay, ...body });
    showError("");
  } catch (error) {
    showFailure(error);
  }
  render();
}

async function copyWatch() {
  const url = app.seat && app.seat.watch ? watchUrl(app.seat.watch) : "";
  if (!url) return;
  try {
    await navigator.clipboard.writeText(url);
    announce(tr("watch_copied"));
    showError("");
  } catch {
    showError(tr("copy_failed", { url }));
  }
}

async function showHistories() {
  const box = $("histories");
  try {
    const data = await api("GET", `/api/tables/${invite}/histories`, undefined, app.seat.player_token);
    box.replaceChildren();
    for (const hand of data.hands) {
      // The replayer steps through the deal and offers its .phh download.
      box.append(el("li", {}, el("a", {
        class: "small link", href: `/t/${encodeURIComponent(invite)}/hands/${hand}`,
        text: tr("replay_link", { number: hand }),
      })));
    }
  } catch (error) {
    showFailure(error);
  }
}

function inviteUrl() {
  return `${window.location.origin}/t/${invite}`;
}

async function copyInvite() {
  const url = inviteUrl();
  try {
    await navigator.clipboard.writeText(url);
    $("copy-note").textContent = tr("copied"); // seen, and read by the status role
    showError("");
  } catch {
    $("invite-url").select();
    showError(tr("copy_failed", { url }));
  }
}

// ---------------------------------------------------------------- keyboard

/** The table in a few words, for the live region: whose turn, the pot, what you must call,
 * your cards and hand. */
function tableSummary(st) {
  const parts = [];
  if (st.to_act !== null && st.to_act !== undefined) {
    const seat = st.seats.find((s) => s.seat === st.to_act);
    parts.push(st.to_act === st.you ? tr("your_turn") : tr("summary_turn", { name: seat ? seat.name : "?" }));
  }
  parts.push(tr("pot", { pot: st.pot }));
  const call = $("turn-call").textContent;
  if (call) parts.push(call);
  const cards = st.hand && Array.isArray(st.hand.cards) ? st.hand.cards : [];
  if (cards.length) parts.push(tr("summary_hand", { cards: cards.map((c) => cardName(app.lang, c)).join(", ") }));
  const category = $("category").textContent;
  if (category) parts.push(category);
  return parts.join(". ");
}

function readTable() {
  const st = state();
  if (!st) return;
  $("live").textContent = "";
  setTimeout(() => { $("live").textContent = tableSummary(st); }, 50);
}

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  const typing = target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA");
  if (!typing && event.key.toLowerCase() === READ_KEY) {
    event.preventDefault();
    readTable();
    return;
  }
  const st = state();
  if (!st || st.to_act !== st.you) return;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  if (target && target.id === "amount" && key === "Enter") {
    const entry = legal(st).find((a) => AMOUNT_KINDS.has(a.kind) && a.min !== a.max);
    if (entry) {
      event.preventDefault();
      act(entry);
    }
    return;
  }
  if (typing) return;
  const draw = drawEntry(st);
  if (draw) {
    const otherButton = target && target.tagName === "BUTTON" && !target.classList.contains("card")
      && target.id !== "draw-confirm";
    if (key === "Enter" && !otherButton) {
      // Enter confirms the draw, also from a card (Space toggles the focused card).
      event.preventDefault();
      confirmDraw();
      return;
    }
    if (key === "s") {
      event.preventDefault();
      confirmDraw(true);
      return;
    }
    if (key === HINT_KEY && hintDiscards(st)) {
      event.preventDefault();
      useHint();
      return;
    }
    const hand = st.hand ? st.hand.cards : [];
    const index = "12345".indexOf(key);
    if (index >= 0 && index < hand.length) {
      event.preventDefault();
      toggleCard(hand[index]);
      return;
    }
  }
  const entry = legal(st).find((a) => a.kind !== "draw" && keyFor(a) === key);
  if (entry) {
    event.preventDefault();
    act(entry);
  }
}

// ---------------------------------------------------------------- your turn, the chips

function soundOn() {
  return localStorage.getItem("italian-poker.sound") === "1"; // muted unless switched on
}

/** Your turn came: a short tone if the sound is on, and a blinking title if the tab is
 * hidden (until the tab is seen or the turn passes). */
function notifyTurn() {
  if (soundOn() && app.audio) {
    const tone = app.audio.createOscillator();
    const gain = app.audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, app.audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, app.audio.currentTime + 0.35);
    tone.connect(gain).connect(app.audio.destination);
    tone.start();
    tone.stop(app.audio.currentTime + 0.35);
  }
  if (document.hidden && notifyOn() && window.Notification && Notification.permission === "granted") {
    const st = state();
    const body = st ? tableSummary(st) : "";
    const show = (reg) => (reg
      ? reg.showNotification(tr("your_turn"), { body, tag: "your-turn" })
      : new Notification(tr("your_turn"), { body, tag: "your-turn" }));
    if (navigator.serviceWorker && navigator.serviceWorker.controller) {
      navigator.serviceWorker.ready.then(show).catch(() => show(null));
    } else {
      try { show(null); } catch { /* a browser that shows them only from a service worker */ }
    }
  }
  if (document.hidden && !app.blink) {
    let on = false;
    app.blink = setInterval(() => {
      on = !on;
      const st = state();
      document.title = on ? `${tr("your_turn")}!` : (st ? pageTitle(st) : tr("title"));
    }, 1000);
  }
}

function notifyOn() {
  return localStorage.getItem("italian-poker.notify") === "1"; // off unless the player opts in
}

async function switchNotify(event) {
  const box = event.currentTarget;
  if (box.checked && window.Notification && Notification.permission !== "granted") {
    const answer = await Notification.requestPermission();
    if (answer !== "granted") {
      box.checked = false;
      showError(tr("notify_denied"));
    }
  }
  localStorage.setItem("italian-poker.notify", box.checked ? "1" : "0");
}

function stopBlink() {
  if (!app.blink) return;
  clearInterval(app.blink);
  app.blink = null;
  const st = state();
  if (st) document.title = pageTitle(st);
}

/** Once per finished deal: a chip flies from the pot to each winner's seat (not when the
 * player asks for reduced motion, nor on a page that opens after the deal ended). */
function flyChips(st, first) {
  const hand = st.result ? st.result.hand : null;
  if (hand === null || hand === app.flownHand) return;
  app.flownHand = hand;
  if (STILL.matches || first) return;
  const felt = $("felt");
  for (const seat of winnings(st).keys()) {
    const target = document.querySelector(`#seats [data-seat="${seat}"]`);
    if (!target) continue;
    const chip = el("span", { class: "chip-fly", "aria-hidden": "true" });
    felt.append(chip);
    const box = felt.getBoundingClientRect();
    const to = target.getBoundingClientRect();
    const dx = to.left + to.width / 2 - (box.left + box.width / 2);
    const dy = to.top + to.height / 2 - (box.top + box.height / 2);
    chip.animate(
      [{ transform: "translate(-50%, -50%)" }, { transform: `translate(calc(${dx}px - 50%), calc(${dy}px - 50%))` }],
      { duration: CHIP_MS, easing: "ease-in-out", fill: "forwards" },
    ).finished.then(() => chip.remove(), () => chip.remove());
  }
}

// ---------------------------------------------------------------- connection

function setConn(key) {
  $("conn").textContent = tr(key);
  $("conn").dataset.state = key;
}

function connect() {
  if (!app.seat && !watch) return;
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  const path = watch ? `/ws/watch/${watch}` : `/ws/tables/${invite}`;
  const socket = new WebSocket(`${scheme}://${window.location.host}${path}`);
  app.socket = socket;
  setConn(app.retries ? "reconnecting" : "connecting");
  let ping = null;
  socket.addEventListener("open", () => {
    // A spectator has no token: the server sends the state as soon as the socket opens.
    if (!watch) socket.send(JSON.stringify({ type: "hello", token: app.seat.player_token }));
    ping = setInterval(() => send({ type: "ping" }), PING_MS);
  });
  socket.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    onMessage(message);
  });
  socket.addEventListener("close", (event) => {
    clearInterval(ping);
    if (app.socket !== socket) return;
    app.waiting = false;
    if (watch && (event.code === 4404 || event.code === 4410)) {
      app.closedForGood = true; // the host closed (or replaced) the watch link
      showError(tr(event.code === 4404 ? "watch_void" : "watch_closed"));
      $("conn").textContent = "";
      delete $("conn").dataset.state;
      return;
    }
    if (watch && event.code === 4409) showError(tr("watch_full")); // tried again below
    if (event.code === 4401) {
      forgetSeat(invite);
      app.seat = null;
      app.closedForGood = true;
      showError(tr("token_refused"));
      showJoin();
      return;
    }
    if (event.code === 4410) {
      app.closedForGood = true; // the table expired: its game is deleted
      showError(tr("table_expired"));
      setConn("no_table");
      return;
    }
    if (event.code === 4404) {
      app.closedForGood = true;
      showError(tr("no_table"));
      setConn("no_table");
      return;
    }
    if (event.code === 4403) {
      app.closedForGood = true;
      showError(tr("origin_refused"));
      setConn("origin_refused");
      return;
    }
    if (app.closedForGood) return;
    if (app.message) app.offline = true; // the banner, actions off, the clock stopped
    render();
    setConn("reconnecting");
    app.retries += 1;
    setTimeout(connect, Math.min(10000, 500 * 2 ** Math.min(app.retries, 5)));
  });
}

function onMessage(message) {
  if (isChatMessage(message)) {
    onChatMessage(message); // chat.js: the chat's messages and refusals
    return;
  }
  if (message.type === "replay") {
    replays.push(message); // a deal that has ended, shown step by step
    return;
  }
  if (message.type === "state") {
    const before = state();
    app.message = message;
    keepLog(message.state);
    if (!app.langChosen && message.state.table && ["en", "it"].includes(message.state.table.lang)) {
      app.lang = message.state.table.lang; // the host's language until this player chooses
    }
    app.retries = 0;
    app.waiting = false;
    app.offline = false;
    setConn("connected");
    showGame();
    render();
    const st = message.state;
    if (!before && st.log && st.log.length) {
      // First view after (re)connecting: nothing to announce but the latest line.
      announce(pick(app.lang, st.log[st.log.length - 1]));
    } else if (Array.isArray(st.events)) {
      // What the events this state is the first to show said, for the live region.
      for (const line of st.events) announce(pick(app.lang, line));
    }
    const turnKey = `${message.hand}:${st.to_act}:${st.phase}`;
    if (st.to_act === st.you && st.you !== null && app.lastTurnAnnounced !== turnKey) {
      announce(tr("your_turn"));
      notifyTurn();
    }
    if (st.to_act !== st.you) stopBlink();
    if (!replays.frame) flyChips(st, !before); // else at the deal's last step
    app.lastTurnAnnounced = st.to_act === st.you ? turnKey : null;
  } else if (message.type === "error") {
    app.waiting = false;
    const text = message.code === "stale" ? tr("error_stale") : message.message || message.code;
    showError(`${tr("error_prefix")}: ${text}`);
    announce(text);
    render();
  }
}

function showGame() {
  $("join").hidden = true;
  $("game").hidden = false;
}

async function showJoin() {
  $("game").hidden = true;
  $("join").hidden = false;
  try {
    const lobby = await api("GET", `/api/tables/${invite}`);
    if (lobby && lobby.name) $("table-name").textContent = lobby.name;
  } catch (error) {
    showError(error.message);
  }
}

// ---------------------------------------------------------------- wiring

$("join-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  const nickname = new FormData(form).get("nickname").trim();
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    const seat = await api("POST", `/api/tables/${invite}/seats`, { nickname });
    saveSeat(invite, seat);
    app.seat = loadSeat(invite);
    app.closedForGood = false;
    showError("");
    if (seat.waiting) {
      waitForAdmission();
    } else {
      connect();
    }
  } catch (error) {
    showError(error.message);
  } finally {
    button.disabled = false;
  }
});

$("lang-switch").addEventListener("click", () => {
  app.lang = app.lang === "it" ? "en" : "it";
  app.langChosen = true;
  saveLang(app.lang);
  render();
});
$("four-colour").addEventListener("change", (event) => {
  localStorage.setItem("italian-poker.four-colour", event.target.checked ? "1" : "0");
  render();
});
// The sound's AudioContext is made on a click or key of the player's, as browsers require.
function prepareSound() {
  if (soundOn() && !app.audio && window.AudioContext) app.audio = new AudioContext();
}
$("sound").addEventListener("change", (event) => {
  localStorage.setItem("italian-poker.sound", event.target.checked ? "1" : "0");
  prepareSound();
});
document.addEventListener("pointerdown", prepareSound, { once: true });
document.addEventListener("keydown", prepareSound, { once: true });
document.addEventListener("visibilitychange", () => {
  if (!document.hidden) stopBlink();
});
$("sit-toggle").addEventListener("click", (event) => send({ type: event.currentTarget.dataset.mode }));
$("error-close").addEventListener("click", () => showError(""));
$("draw-confirm").addEventListener("click", () => confirmDraw());
$("start").addEventListener("click", () => hostCall("POST", "/start"));
$("pause").addEventListener("click", () => hostCall("POST", "/pause"));
$("resume").addEventListener("click", () => hostCall("POST", "/resume"));
$("add-bot").addEventListener("click", () => hostCall("POST", "/bots", { level: $("bot-level").value }));
$("copy-invite").addEventListener("click", copyInvite);
$("notify").addEventListener("change", switchNotify);
$("read-table").addEventListener("click", readTable);
$("amount-slider").addEventListener("input", (event) => chooseAmount(Number(event.target.value)));
$("amount").addEventListener("input", () => {
  const st = state();
  if (st) renderActions(st);
});
PHONE.addEventListener("change", render);
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
// On a phone the panel at the bottom holds your cards: the page ends above it.
new ResizeObserver(() => {
  const docked = PHONE.matches && $("actions").classList.contains("docked") && !$("game").hidden;
  document.body.style.paddingBottom = docked ? `${$("actions").offsetHeight}px` : "";
}).observe($("actions"));
$("watch-open").addEventListener("change", (event) => changeWatch({ open: event.target.checked }));
$("watch-delay").addEventListener("change", (event) => changeWatch({ delay: event.target.checked }));
$("watch-new").addEventListener("click", () => changeWatch({ open: true, new_link: true }));
$("watch-copy").addEventListener("click", copyWatch);
$("ledger-show").addEventListener("click", showLedger);
$("ledger-csv").addEventListener("click", () => downloadLedgerCsv("rows"));
$("ledger-settle-csv").addEventListener("click", () => downloadLedgerCsv("settle"));
$("ledger-players").addEventListener("change", switchLedger);
$("advice-on").addEventListener("change", switchAdvice);
$("fair-reveal").addEventListener("change", (event) => hostCall("POST", "/fair", { reveal: event.currentTarget.value }));
$("fair-close").addEventListener("click", () => hostCall("POST", "/fair/close"));
setupFair(render);
$("hint-use").addEventListener("click", useHint);
$("histories-show").addEventListener("click", showHistories);
setupChat({ invite, send, remove: (path) => hostCall("DELETE", path) });
setupDesk(deskContext);
$("stats-show").addEventListener("click", () => showStats($("stats"), invite, app.seat.player_token, app.lang).catch(showFailure));
document.addEventListener("keydown", onKey);
setInterval(() => {
  const st = state();
  if (st && st.deadline) renderTurn(st);
}, 500);

if (watch) hideSeatControls();
render();
if (!watch) offerHint($("advice-on")).then(render);
if (app.seat && app.seat.seat === null && !app.seat.host_token && !watch) {
  showJoin();
  waitForAdmission(); // a newcomer who asked for a seat at a locked table, back on the page
} else if (app.seat || watch) {
  connect();
} else {
  showJoin();
}
