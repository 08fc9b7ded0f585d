// The fair-deck verifier (the static page /verify): the hand histories a player downloaded,
// dropped, chosen or pasted, each checked in this browser by fairness.js (the seed against
// the commitment, then every card dealt, drawn, late or reshuffled against the deck the seed
// and the values give). Nothing is sent anywhere.

import { initialLang, saveLang, t, translatePage } from "/static/i18n.js";
import { verifyHistory } from "/static/fairness.js";
import { el } from "/static/dom.js";

const $ = (id) => document.getElementById(id);
const app = { lang: initialLang(), results: [] };

function tr(key, values) {
  return t(app.lang, key, values);
}

function verdictText(result) {
  if (result.verdict === "verified") return `✓ ${tr("fair_verified")}`;
  if (result.verdict === "unrevealed") return tr("fair_unrevealed");
  if (result.verdict === "no fair deck") return tr("verify_no_fair");
  return `✗ ${tr("fair_failed", { reason: result.reason })}`;
}

function render() {
  translatePage(document, app.lang);
  $("lang-switch").textContent = tr("lang_switch");
  $("lang-switch").setAttribute("aria-label", tr("lang_switch_label"));
  $("results").replaceChildren(...app.results.map((result) => el("li", {
    class: `verify-result ${result.verdict.replaceAll(" ", "-")}`,
    "data-verdict": result.verdict,
    "data-card": result.card == null ? "" : String(result.card),
    text: `${result.name}${result.deal != null ? ` (#${result.deal})` : ""}: ${verdictText(result)}`,
  })));
  const counts = {};
  for (const result of app.results) counts[result.verdict] = (counts[result.verdict] || 0) + 1;
  $("summary").textContent = Object.entries(counts).map(([verdict, n]) => `${n} ${verdict}`).join(", ");
}

async function check(named) {
  app.results = [];
  for (const { name, text } of named) {
    app.results.push({ name, ...(await verifyHistory(text)) });
  }
  render();
}

async function readFiles(files) {
  const named = [];
  for (const file of files) named.push({ name: file.name, text: await file.text() });
  await check(named);
}

$("files").addEventListener("change", (event) => readFiles(event.currentTarget.files));
$("drop").addEventListener("dragover", (event) => event.preventDefault());
$("drop").addEventListener("drop", (event) => {
  event.preventDefault();
  readFiles(event.dataTransfer.files);
});
$("check").addEventListener("click", () => check([{ name: "pasted", text: $("paste").value }]));
$("lang-switch").addEventListener("click", () => {
  app.lang = app.lang === "it" ? "en" : "it";
  saveLang(app.lang);
  render();
});
render();
