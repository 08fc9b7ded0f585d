// The draw's rules the page applies before sending (4.1, 4.4), read from the legal action the
// server sent: the page never decides them on its own and restates none of the rules' numbers.

/** 4.4: whether discarding ``cards`` breaks the opening the opener's draw ``entry`` shows,
 * as the engine's ``LegalAction.breaks_opening``: the server sends ``split_unless_kept`` (the
 * groups that show the opening by themselves) on the opener's draw only, and a draw that keeps
 * no group whole breaks it. An empty list (a straight, flush or full opening: no smaller group
 * shows it) means any discard breaks it; standing pat never does. */
export function breaksOpening(entry, cards) {
  const groups = entry && entry.split_unless_kept;
  if (!Array.isArray(groups) || !cards.length) return false;
  return groups.every((group) => group.some((code) => cards.includes(code)));
}

/** 4.1: how many cards the draw ``entry`` lets the seat change (none without an entry). */
export function maxDraw(entry) {
  const max = entry ? entry.max_cards ?? entry.max : 0;
  return typeof max === "number" && max >= 0 ? max : 0;
}
