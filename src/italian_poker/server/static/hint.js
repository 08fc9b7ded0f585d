// The draw hint: during your own draw, the server's best keeps for your hand
// (state.advice, from your own view only, when the host has the hint on), each with the
// chance of winning and of improving; "Use the hint" (key H) marks the best one's discards.
// The list folds away (a <details>): open at first on a wide screen, closed on a phone, where
// the actions panel sticks to the bottom of the screen and must leave the hand in view.

import { formatNumber, t } from "/static/i18n.js";
import { cardFace } from "/static/cards.js";
import { el } from "/static/dom.js";

/** The key that marks the hint's discards. */
export const HINT_KEY = "h";

/** The discards of the best keep, or null while there is no hint to use. */
export function hintDiscards(st) {
  const advice = st && Array.isArray(st.advice) ? st.advice : [];
  return advice.length ? advice[0].discard : null;
}

let folded = false; // whether the list's first fold (open or not) has been set

function percent(lang, value) {
  return formatNumber(lang, 100 * value, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

function entry(lang, item) {
  const kept = item.keep.length
    ? el("span", { class: "hint-cards" }, ...item.keep.map((code) => cardFace(lang, code)))
    : el("span", { class: "hint-cards", text: t(lang, "hint_keep_none") });
  const text = t(lang, "hint_line", {
    count: item.discard.length, win: percent(lang, item.win), improve: percent(lang, item.improve),
  }) + (item.split ? t(lang, "hint_split") : "");
  return el("li", {}, kept, el("span", { class: "hint-text", text }));
}

/** Show the hint in the draw panel while `drawing` (your draw now) and the table has it on;
 *  `disabled`: the draw cannot be played now (offline). */
export function renderHint(st, lang, { drawing, disabled, touch }) {
  const box = document.getElementById("hint");
  const on = Boolean(drawing && st.table && st.table.advice);
  box.hidden = !on;
  if (!on) return;
  const details = document.getElementById("hint-details");
  if (!folded) {
    details.open = !window.matchMedia("(max-width: 700px)").matches;
    folded = true;
  }
  const advice = Array.isArray(st.advice) ? st.advice : null;
  const status = document.getElementById("hint-status");
  status.textContent = advice === null ? t(lang, "hint_wait") : advice.length ? "" : t(lang, "hint_none");
  status.hidden = !status.textContent;
  const list = document.getElementById("hint-list");
  list.replaceChildren(...(advice || []).map((item) => entry(lang, item)));
  details.hidden = !(advice && advice.length);
  const use = document.getElementById("hint-use");
  use.hidden = !(advice && advice.length);
  use.disabled = disabled;
  use.textContent = touch ? t(lang, "hint_use") : `${t(lang, "hint_use")} (${HINT_KEY.toUpperCase()})`;
}
