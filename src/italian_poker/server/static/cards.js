// Card faces, shared by the table (table.js) and the hand replayer (replay.js): rank and suit
// symbol, coloured by suit (style.css), named by what it shows and then its spoken name ("Q♦
// Queen of diamonds": a name that holds the visible text, WCAG 2.5.3, so that voice control
// can say what it sees); a face-down card names itself "Hidden card" and carries no code.

import { SUIT_SYMBOLS, cardName, parseCode, rankText, t } from "/static/i18n.js";
import { el } from "/static/dom.js";

/** A card face in `lang`: a button for the draw (`button`, `pressed`, `disabled`, `onclick`),
 * else an image. A code that is no card gives a card back. */
export function cardFace(lang, code, { button = false, pressed = false, disabled = false, onclick = null } = {}) {
  const card = parseCode(code);
  if (!card) return cardBack(lang);
  const name = `${rankText(code)}${SUIT_SYMBOLS[card.suit]} ${cardName(lang, code)}`;
  const node = document.createElement(button ? "button" : "span");
  node.className = `card suit-${card.suit}${pressed ? " selected" : ""}`;
  node.setAttribute("aria-label", pressed ? `${name}, ${t(lang, "selected")}` : name);
  node.setAttribute("data-card", code);
  if (button) {
    node.type = "button";
    node.setAttribute("aria-pressed", pressed ? "true" : "false");
    node.setAttribute("data-fkey", `card-${code}`);
    node.disabled = disabled;
    if (onclick) node.addEventListener("click", onclick);
  } else {
    node.setAttribute("role", "img");
  }
  node.append(
    el("span", { class: "rank", "aria-hidden": "true", text: rankText(code) }),
    el("span", { class: "suit", "aria-hidden": "true", text: SUIT_SYMBOLS[card.suit] }),
  );
  return node;
}

/** A face-down card, named "Hidden card" in `lang`. */
export function cardBack(lang) {
  return el("span", { class: "card back", role: "img", "aria-label": t(lang, "hidden_card") });
}
