// The match format on the table's page: the level in force, the next one and when it comes
// (in deals, or in minutes on the server's clock), the deals or the time left of a fixed
// match, the re-entry button of a player busted out of a sit and go, and the standings with
// the prizes once the match is over. Everything comes from the state's "match" member (none
// at a cash game); players and spectators see the same.

import { t } from "/static/i18n.js";
import { el } from "/static/dom.js";

const $ = (id) => document.getElementById(id);

/** Whole minutes from now to `at` (seconds since the epoch, the server's clock), at least 0. */
function minutesTo(at) {
  return Math.max(0, Math.ceil((at - Date.now() / 1000) / 60));
}

/** The line under the level: when the next one comes. */
function nextText(lang, level) {
  const next = level.next;
  if (!next) return t(lang, "match_last_level");
  if (level.at_deal !== null && level.at_deal !== undefined) {
    return t(lang, "match_next_deals", { ante: next.ante, deal: level.at_deal });
  }
  const minutes = level.at_time ? minutesTo(level.at_time) : level.minutes;
  return t(lang, "match_next_minutes", { ante: next.ante, count: minutes });
}

/** The match's line: level, next level, length left. */
function matchParts(lang, match) {
  const parts = [];
  const level = match.level;
  if (level) {
    parts.push(el("span", {
      class: "match-level",
      text: t(lang, "match_level", {
        number: level.number, of: level.of, ante: level.ante, low: level.min_bet, high: level.max_bet,
      }),
    }));
    parts.push(el("span", { class: "match-next", text: nextText(lang, level) }));
  }
  if (match.deals_left !== null && match.deals_left !== undefined && !match.finished) {
    parts.push(el("span", { text: t(lang, "match_deals_left", { count: match.deals_left }) }));
  } else if (match.ends_at && !match.finished) {
    parts.push(el("span", { text: t(lang, "match_minutes_left", { count: minutesTo(match.ends_at) }) }));
  } else if (match.minutes && !match.finished) {
    parts.push(el("span", { text: t(lang, "match_minutes_left", { count: match.minutes }) }));
  }
  return parts;
}

function standingsTable(lang, match) {
  const head = el("tr", {},
    el("th", { scope: "col", text: t(lang, "standings_place") }),
    el("th", { scope: "col", text: t(lang, "standings_player") }),
    el("th", { scope: "col", text: t(lang, "standings_chips") }),
    el("th", { scope: "col", text: t(lang, "standings_prize") }));
  const rows = match.standings.map((s) => el("tr", { class: s.place === 1 ? "winner" : "" },
    el("td", { text: String(s.place) }),
    el("td", { text: s.re_entries ? `${s.name} (${t(lang, "standings_re_entries", { count: s.re_entries })})` : s.name }),
    el("td", { text: String(s.chips) }),
    el("td", { text: s.prize ? String(s.prize) : "–" })));
  return el("table", { class: "standings-table" }, el("thead", {}, head), el("tbody", {}, ...rows));
}

/** Draw the match's line, the re-entry request (`you`: this page's seat, or null for a
 * spectator) and the standings; `onReEnter` is called when the button is pressed: it asks
 * the host (desk.js's chip request), and the line beside it says the request waits for the
 * host's answer, or that the host refused it. */
export function renderMatch(st, lang, you, onReEnter) {
  const match = st.match;
  const bar = $("match-bar");
  const box = $("standings");
  const button = $("re-enter");
  const status = $("re-enter-status");
  if (!bar || !box || !button || !status) return;
  bar.hidden = !match;
  box.hidden = !(match && match.finished && match.standings);
  button.hidden = true;
  status.hidden = true;
  if (!match) return;
  const parts = matchParts(lang, match);
  const text = parts.map((part) => part.textContent).join("|");
  if ($("match-line").dataset.text !== text) { // unchanged: left alone (a screen reader's place)
    $("match-line").replaceChildren(...parts);
    $("match-line").dataset.text = text;
  }
  const busted = you !== null && you !== undefined && match.busted.includes(you);
  if (busted && !match.finished) {
    const desk = st.desk;
    const waiting = desk && desk.chips.find((r) => r.seat === you && r.kind === "re_entry");
    const answer = desk && desk.answers[String(you)];
    button.hidden = !match.re_entry && !waiting;
    button.disabled = Boolean(waiting);
    button.textContent = t(lang, "re_enter", { chips: match.starting_chips });
    button.onclick = onReEnter;
    let text = "";
    if (waiting) text = t(lang, "re_enter_waiting", { chips: waiting.chips });
    else if (answer && !answer.approved) text = t(lang, "re_enter_refused");
    status.textContent = text;
    status.hidden = !text;
  }
  if (!box.hidden) {
    const title = el("h2", { id: "standings-title", text: t(lang, "standings_title") });
    box.replaceChildren(title, standingsTable(lang, match));
  }
}
