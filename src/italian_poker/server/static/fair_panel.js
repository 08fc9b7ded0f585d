// The fair deck on the table page (docs/fairness.md, server/fair_deal.py): the deal's
// commitment before its cards (short, the whole of it on a tap), the seated player's value
// sent as soon as the page sees the commitment (the text typed in the small field, else 16
// random bytes from crypto.getRandomValues), and once the seed is revealed the page's own
// check of every card (fairness.js): "verified", or "failed" naming the card. The host's
// switch: reveal the seeds at each deal's end or when the table closes.

import { t } from "/static/i18n.js";
import { bytesToHex, randomValue, textValue, verifyDeal } from "/static/fairness.js";

const sent = new Map(); // commitment -> the value (hex) this page sent for it
const checks = new Map(); // commitment + seed -> the verdict (a promise, then its answer)
let showWhole = false;

function $(id) {
  return document.getElementById(id);
}

/** The value this page gives for a deck: the player's text (NFC UTF-8), else random bytes. */
function ownValue() {
  const text = $("fair-text") ? $("fair-text").value : "";
  return text ? textValue(text) : randomValue();
}

/** Send the seated player's value for an open commitment, once. */
function giveValue(fair, send) {
  if (!fair.open || sent.has(fair.commitment)) return;
  const value = bytesToHex(ownValue());
  sent.set(fair.commitment, value);
  send({ type: "fair_value", commitment: fair.commitment, value });
}

/** Whether the published list holds the value this page sent (docs/fairness.md, step 2). */
function mineText(lang, st, fair) {
  const mine = sent.get(fair.commitment);
  if (fair.open || mine === undefined || !Array.isArray(fair.values)) return "";
  const at = (fair.slots || []).indexOf(st.you);
  if (at < 0) return "";
  if (fair.from[at] === "server") return t(lang, "fair_mine_late");
  return fair.values[at] === mine ? `✓ ${t(lang, "fair_mine_ok")}` : `✗ ${t(lang, "fair_mine_missing")}`;
}

function checked(fair, rerender) {
  const key = `${fair.commitment}:${fair.seed}`;
  const known = checks.get(key);
  if (known && !(known instanceof Promise)) return known;
  if (!known) {
    const record = { deal: fair.deal, commitment: fair.commitment, values: fair.values, seed: fair.seed };
    const promise = verifyDeal(record, fair.takes).then(
      (answer) => answer,
      (error) => ({ verdict: "failed", reason: String(error && error.message) }),
    ).then((answer) => {
      checks.set(key, answer);
      rerender();
      return answer;
    });
    checks.set(key, promise);
  }
  return null;
}

function statusText(lang, fair, rerender) {
  if (fair.open || !fair.seed) return { text: fair.open ? "" : t(lang, "fair_unrevealed"), state: "sealed" };
  if (!Array.isArray(fair.takes)) return { text: t(lang, "fair_unrevealed"), state: "sealed" };
  const answer = checked(fair, rerender);
  if (!answer) return { text: t(lang, "fair_checking"), state: "checking" };
  if (answer.verdict === "verified") return { text: `✓ ${t(lang, "fair_verified")}`, state: "verified" };
  return { text: `✗ ${t(lang, "fair_failed", { reason: answer.reason })}`, state: "failed" };
}

/** Show the fair deck of the state `st` in `#fair`, and send the player's value (`send`, not
 * for a spectator). `rerender` draws the page again once a check is done. */
export function renderFair(st, { lang, send, rerender, spectator = false }) {
  const box = $("fair");
  if (!box) return;
  const fair = st.fair;
  box.hidden = !fair;
  $("fair-own").hidden = spectator || st.you == null;
  if (!fair) return;
  if (!spectator && st.you != null && send) giveValue(fair, send);
  const code = $("fair-commitment");
  code.textContent = showWhole ? fair.commitment : `${fair.commitment.slice(0, 12)}…`;
  code.setAttribute("aria-expanded", showWhole ? "true" : "false");
  code.title = t(lang, "fair_commitment_title");
  $("fair-label").textContent = `${t(lang, "fair_commitment")} #${fair.deal}`;
  const mine = mineText(lang, st, fair);
  $("fair-mine").hidden = !mine;
  $("fair-mine").textContent = mine;
  const status = statusText(lang, fair, rerender);
  const mark = $("fair-status");
  mark.textContent = status.text;
  mark.dataset.state = status.state;
  box.dataset.state = status.state;
  $("fair-note").hidden = fair.policy !== "deal";
  $("fair-note").textContent = t(lang, "fair_reveal_deal_note");
}

/** Wire the commitment's tap (the whole hex, or short again). */
export function setupFair(rerender) {
  const code = $("fair-commitment");
  if (code) {
    code.addEventListener("click", () => {
      showWhole = !showWhole;
      rerender();
    });
  }
}

/** The host's reveal switch and the table's close, in the host panel. */
export function renderFairHost(st, lang) {
  const select = $("fair-reveal");
  if (!select) return;
  const policy = st.fair ? st.fair.policy : null;
  if (policy && document.activeElement !== select) select.value = policy;
  $("fair-reveal-label").textContent = t(lang, "fair_reveal_switch");
  select.options[0].textContent = t(lang, "fair_reveal_at_close");
  select.options[1].textContent = t(lang, "fair_reveal_at_deal");
  $("fair-close").textContent = t(lang, "fair_close");
}
