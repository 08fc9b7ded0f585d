// Spectators. The watch page, /w/{watch}, is the table's page in watch mode:
// table.js draws it from the spectators' socket (/ws/watch/{watch}), whose messages carry only
// what everyone at the table sees. This module holds what only that mode does (the "Watching"
// banner, the deals shown step by step once they have ended, with the delay of one deal) and
// the host's Spectators control, which opens and closes the watch link.

import { pick, t } from "/static/i18n.js";
import { api, saveSeat } from "/static/seat_store.js";

const STEP_MS = 1200; // a step of a deal shown after it has ended
const LAST_MS = 3000; // its last step, the result, before the table as it is now
const WATCH = /^\/w\/([A-Za-z0-9_-]{16,64})\/?$/;

/** The watch link's secret in a path "/w/{watch}", or null (a table's page). */
export function watchOf(pathname) {
  const match = WATCH.exec(pathname);
  return match ? match[1] : null;
}

/** The spectators' page of the watch link `watch`, on this server. */
export function watchUrl(watch) {
  return `${window.location.origin}/w/${watch}`;
}

/** The deals a spectator one deal behind is shown once each has ended: each "replay"
 * message's frames (states of the table, built by the server from the public view), one
 * step at a time, then the table as it is. `onStep(frame, line)` is told of every step and
 * of the end (`frame` null). Deals that end meanwhile wait their turn, shown faster. */
export class DealReplays {
  constructor(onStep) {
    this.onStep = onStep;
    this.queue = [];
    this.current = null;
    this.step = 0;
    this.timer = null;
  }

  /** A deal that has just ended. */
  push(replay) {
    if (!replay || !Array.isArray(replay.frames) || !replay.frames.length) return;
    this.queue.push(replay);
    if (!this.current) this.next();
  }

  /** The step shown now (a state of the table), or null. */
  get frame() {
    return this.current ? this.current.frames[this.step] : null;
  }

  /** The log as it stood at this step: the log from before the deal, and each step's line. */
  log() {
    if (!this.current) return null;
    const steps = this.current.frames.slice(0, this.step + 1).map((frame) => frame.line);
    return (this.current.log || []).concat(steps);
  }

  /** Which step of which deal, for the banner. */
  progress() {
    if (!this.current) return null;
    return { number: this.current.hand, n: this.step + 1, total: this.current.frames.length };
  }

  next() {
    clearTimeout(this.timer);
    this.current = this.queue.shift() || null;
    this.step = 0;
    const frame = this.frame;
    this.onStep(frame, frame ? frame.line : null);
    if (this.current) this.schedule();
  }

  schedule() {
    const last = this.step === this.current.frames.length - 1;
    const pace = this.queue.length ? 3 : 1; // deals waiting: a quicker step
    this.timer = setTimeout(() => this.advance(), (last ? LAST_MS : STEP_MS) / pace);
  }

  advance() {
    if (!this.current) return;
    if (this.step >= this.current.frames.length - 1) {
      this.next();
      return;
    }
    this.step += 1;
    this.onStep(this.frame, this.frame.line);
    this.schedule();
  }
}

/** The "Watching" banner of the watch page: what a spectator sees, the delay, the step of a
 * deal being shown or the deal under way (shown when it ends). */
export function renderWatching(st, lang, replays) {
  const banner = document.getElementById("watching");
  banner.hidden = false;
  const watching = st.watching || {};
  const parts = [t(lang, "watching_text")];
  if (watching.delay) parts.push(t(lang, "watching_delayed"));
  document.getElementById("watching-text").textContent = parts.join(" ");
  const progress = replays.progress();
  let now = "";
  if (progress) now = t(lang, "watching_replay", progress);
  else if (watching.line) now = pick(lang, watching.line);
  document.getElementById("watching-line").textContent = now;
  if (!progress && watching.line) document.getElementById("turn").textContent = now;
}

/** The watch page hides what only a seated player has: the actions, the host's controls,
 * the ledger, the hand histories, the statistics, the chat (the players' own: the server
 * sends it to seats only), the sound, sitting out, joining. */
export function hideSeatControls() {
  for (const id of ["join", "actions", "host", "ledger-panel", "histories-show", "histories",
    "stats-show", "stats", "chat", "sit-toggle", "me-home"]) {
    const node = document.getElementById(id);
    if (node) node.hidden = true;
  }
  const sound = document.getElementById("sound");
  if (sound && sound.closest("label")) sound.closest("label").hidden = true;
  document.body.classList.add("watch-page");
}

/** A table's note for everyone at it: open to spectators, one deal behind, how many watch. */
export function renderWatchNote(st, lang) {
  const note = document.getElementById("watch-note");
  const watch = st.table && st.table.watch;
  if (!note) return;
  note.hidden = !(watch && watch.open);
  if (note.hidden) return;
  const parts = [t(lang, watch.delay ? "watch_note_delayed" : "watch_note")];
  if (typeof watch.spectators === "number") parts.push(t(lang, "watch_count", { n: watch.spectators }));
  note.textContent = parts.join(" · ");
}

/** The server's cap on a table's spectators (GET /api/server), asked for once: null until
 * known, or when the server has none. */
let spectatorCap = null;
let capAsked = false;

function askSpectatorCap(then) {
  if (capAsked) return;
  capAsked = true;
  api("GET", "/api/server").then((info) => {
    if (typeof info.spectator_cap === "number") {
      spectatorCap = info.spectator_cap;
      then();
    }
  }).catch(() => {}); // the count alone, as before
}

/** The host's count of spectators: "spectators: n / cap" once the cap is known. */
function spectatorCount(watch, lang) {
  if (!(watch.open && typeof watch.spectators === "number")) return "";
  if (spectatorCap === null) return t(lang, "watch_count", { n: watch.spectators });
  return t(lang, "watch_count_cap", { n: watch.spectators, cap: spectatorCap });
}

/** The host's Spectators control: the watch link on or off, its delay, the link (as this
 * page was given it: the server keeps only its hash) with a copy button, a new link. */
export function renderWatchControls(st, context) {
  const watch = st.table.watch || { open: false, delay: false };
  const lang = context.lang;
  const known = watch.open && context.seat && context.seat.watch ? context.seat.watch : null;
  const open = document.getElementById("watch-open");
  const delay = document.getElementById("watch-delay");
  if (document.activeElement !== open) open.checked = !!watch.open;
  if (document.activeElement !== delay) delay.checked = !!watch.delay;
  document.getElementById("watch-link-row").hidden = !known;
  const url = document.getElementById("watch-url");
  url.value = known ? watchUrl(known) : "";
  document.getElementById("watch-unknown").hidden = !(watch.open && !known);
  document.getElementById("watch-new").hidden = !watch.open;
  const count = document.getElementById("watch-count");
  count.textContent = spectatorCount(watch, lang);
  askSpectatorCap(() => { count.textContent = spectatorCount(watch, lang); });
}

/** Ask the server for the spectators' access (`POST .../watch`) and keep a new link's secret
 * with this page's seat, as its tokens are kept. */
export async function setWatch(context, body) {
  const link = await api("POST", `/api/tables/${context.invite}/watch`, body, context.seat.host_token);
  if (link.watch || !link.open) {
    context.seat.watch = link.open ? link.watch : null;
    saveSeat(context.invite, context.seat);
  }
  return link;
}
