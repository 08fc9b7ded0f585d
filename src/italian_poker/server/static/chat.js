// The table's chat: the messages the server sends on the table's WebSocket
// (chat_log after the hello, then chat and chat_removed), a line to write one, and each
// reader's own mute. Muting is this browser's choice alone: the person ids muted at a table
// are kept in localStorage, their messages are not shown (the page says how many it hides),
// and nobody else is affected or told. The host's page offers to remove a message or all of
// a person's (table.js makes the calls). Texts are set as text, never as HTML.

import { formatDate, t } from "/static/i18n.js";
import { el } from "/static/dom.js";

const MUTED_PREFIX = "italian-poker.chat-muted.";
const KEPT = 200; // messages held at most (the server sends the newest 50 after a hello)
const NEAR = 20; // characters left when the counter is marked
const ERRORS = {
  chat_empty: "chat_error_empty",
  chat_too_long: "chat_error_too_long",
  chat_bad_character: "chat_error_bad_character",
  chat_rate_limited: "chat_error_rate_limited",
  chat_not_seated: "chat_error_not_seated",
  chat_not_sent: "chat_error_not_sent",
  chat_unavailable: "chat_error_unavailable",
};
const $ = (id) => document.getElementById(id);

const chat = {
  invite: "",
  send: null, // table.js's send(message): false when not connected
  remove: null, // table.js's host call: remove(path) for DELETE /api/tables/{invite}{path}
  messages: new Map(), // by id, as the server sent them
  you: null, // this connection's person id (its messages' "player")
  maxLength: 200,
  muted: new Map(), // person id -> the nickname they wrote under, when muted
  lang: "en",
  host: false,
  offline: false,
  pending: null, // the text last sent, given back to the box if it is refused
  error: null, // [key, values] or a server's message
  focus: null, // the button to focus after the next drawing
  drawn: "", // what the list was last drawn from
};

function tr(key, values) {
  return t(chat.lang, key, values);
}

function loadMuted() {
  try {
    const saved = JSON.parse(localStorage.getItem(MUTED_PREFIX + chat.invite) || "{}");
    return new Map(Object.entries(saved).filter(([, name]) => typeof name === "string"));
  } catch {
    return new Map();
  }
}

function saveMuted() {
  localStorage.setItem(MUTED_PREFIX + chat.invite, JSON.stringify(Object.fromEntries(chat.muted)));
}

/** Wire the chat's line: `invite` names the table, `send` is table.js's (the WebSocket's)
 * and `remove(path)` its host call. */
export function setupChat({ invite, send, remove }) {
  chat.invite = invite;
  chat.send = send;
  chat.remove = remove;
  chat.muted = loadMuted();
  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    submit();
  });
  $("chat-input").addEventListener("input", () => {
    if (chat.error) { // typing again: the refusal was read
      chat.error = null;
      drawError();
    }
    renderCount();
  });
  draw();
}

/** Whether `message` (from the WebSocket) is the chat's: its messages and its refusals. */
export function isChatMessage(message) {
  const type = message && message.type;
  if (type === "chat" || type === "chat_log" || type === "chat_removed") return true;
  return type === "error" && typeof message.code === "string" && message.code.startsWith("chat_");
}

/** Take a chat message of the server's. */
export function onChatMessage(message) {
  if (message.type === "chat_log") {
    chat.you = message.you;
    chat.maxLength = message.max_length || chat.maxLength;
    // The newest messages replace what is held, but for any that came after them.
    const newest = Math.max(0, ...message.messages.map((m) => m.id));
    const later = [...chat.messages.values()].filter((m) => m.id > newest);
    chat.messages = new Map([...message.messages, ...later].map((m) => [m.id, m]));
  } else if (message.type === "chat") {
    const line = message.message;
    chat.messages.set(line.id, line);
    while (chat.messages.size > KEPT) chat.messages.delete(Math.min(...chat.messages.keys()));
    if (line.player === chat.you) {
      chat.pending = null;
    } else if (!chat.muted.has(String(line.player))) {
      $("chat-live").textContent = tr("chat_says", { name: line.nickname, text: line.text });
    }
  } else if (message.type === "chat_removed") {
    for (const id of message.ids) chat.messages.delete(id);
  } else if (message.type === "error") {
    const key = ERRORS[message.code];
    chat.error = key ? [key, { max: chat.maxLength }] : message.message || message.code;
    const box = $("chat-input");
    if (chat.pending !== null && !box.value) box.value = chat.pending; // not sent: back in the box
    chat.pending = null;
  }
  draw();
}

/** Draw the chat for the page as it is now: its language, whether this is the host's page
 * (who may remove messages), whether the connection is lost. */
export function renderChat({ lang, host, offline }) {
  const changed = lang !== chat.lang || host !== chat.host || offline !== chat.offline;
  chat.lang = lang;
  chat.host = host;
  chat.offline = offline;
  if (changed) draw();
}

function ordered() {
  return [...chat.messages.values()].sort((a, b) => a.id - b.id);
}

function timeOf(created) {
  return created ? formatDate(chat.lang, created, { timeStyle: "short" }) : "";
}

function draw() {
  const list = $("chat-lines");
  const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
  const focused = document.activeElement && document.activeElement.dataset
    ? document.activeElement.dataset.ckey : null;
  const hidden = new Map(); // person id -> messages not shown
  const lines = [];
  for (const line of ordered()) {
    const who = String(line.player);
    if (chat.muted.has(who)) {
      hidden.set(who, (hidden.get(who) || 0) + 1);
      continue;
    }
    lines.push(messageItem(line));
  }
  list.replaceChildren(...lines);
  list.hidden = !lines.length;
  $("chat-none").hidden = lines.length > 0 || hidden.size > 0;
  drawMuted(hidden);
  const input = $("chat-input");
  input.maxLength = chat.maxLength;
  input.placeholder = tr("chat_placeholder");
  $("chat-send").disabled = chat.offline;
  renderCount();
  drawError();
  if (atEnd) list.scrollTop = list.scrollHeight;
  // Focus stays where it was; on a button that is gone (its message removed) it goes to the
  // box, and after a mute to the person's Unmute button.
  const target = chat.focus || focused;
  chat.focus = null;
  if (target) {
    const again = document.querySelector(`[data-ckey="${CSS.escape(target)}"]`) || input;
    if (again !== document.activeElement) again.focus();
  }
}

function drawError() {
  const error = $("chat-error");
  error.textContent = Array.isArray(chat.error) ? tr(...chat.error) : (chat.error || "");
  error.hidden = !chat.error;
}

function messageItem(line) {
  const mine = line.player === chat.you;
  const when = timeOf(line.created);
  const tools = el("span", { class: "chat-tools" });
  if (!mine) {
    tools.append(el("button", {
      type: "button", class: "chat-tool", "data-ckey": `mute-${line.id}`,
      "aria-label": tr("chat_mute_label", { name: line.nickname }), text: tr("chat_mute"),
      onclick: () => mute(line),
    }));
  }
  if (chat.host) {
    tools.append(
      el("button", {
        type: "button", class: "chat-tool danger", "data-ckey": `remove-${line.id}`,
        "aria-label": tr("chat_remove_label", { name: line.nickname, time: when }),
        text: tr("chat_remove"), onclick: () => chat.remove(`/chat/${line.id}`),
      }),
      el("button", {
        type: "button", class: "chat-tool danger", "data-ckey": `remove-all-${line.id}`,
        text: tr("chat_remove_all", { name: line.nickname }),
        onclick: () => chat.remove(`/players/${line.player}/chat`),
      }),
    );
  }
  const author = mine ? `${line.nickname} (${tr("you")})` : line.nickname;
  return el("li", { class: mine ? "chat-line mine" : "chat-line", "data-id": line.id, "data-player": line.player },
    el("div", { class: "chat-head" },
      el("strong", { class: "chat-author", text: author }),
      el("time", { datetime: line.created, text: when }),
      tools.childElementCount ? tools : null),
    el("p", { class: "chat-text", dir: "auto", text: line.text }));
}

function drawMuted(hidden) {
  const box = $("chat-muted");
  const list = $("chat-muted-list");
  list.replaceChildren(...[...chat.muted].map(([who, name]) => {
    const count = hidden.get(who) || 0;
    return el("li", { "data-player": who },
      el("span", { text: tr("chat_muted", { name }) }),
      count ? el("span", { class: "chat-hidden", text: `· ${tr("chat_hidden", { count })}` }) : null,
      el("button", {
        type: "button", class: "chat-tool", "data-ckey": `unmute-${who}`,
        "aria-label": tr("chat_unmute_label", { name }), text: tr("chat_unmute"),
        onclick: () => unmute(who),
      }));
  }));
  box.hidden = chat.muted.size === 0;
}

function mute(line) {
  chat.muted.set(String(line.player), line.nickname);
  saveMuted();
  chat.focus = `unmute-${line.player}`;
  draw();
}

function unmute(who) {
  chat.muted.delete(who);
  saveMuted();
  chat.focus = "chat-input";
  draw();
}

function renderCount() {
  const input = $("chat-input");
  const count = [...input.value.trim()].length; // characters, as the server counts them
  const counter = $("chat-count");
  counter.textContent = tr("chat_count", { count, max: chat.maxLength });
  counter.classList.toggle("near", count > chat.maxLength - NEAR);
}

function submit() {
  const input = $("chat-input");
  const text = input.value.trim();
  if (!text) {
    chat.error = ["chat_error_empty", {}];
  } else if ([...text].length > chat.maxLength) {
    chat.error = ["chat_error_too_long", { max: chat.maxLength }];
  } else if (chat.send && chat.send({ type: "chat", text })) {
    chat.error = null;
    chat.pending = input.value;
    input.value = "";
  }
  draw();
}
