// The seat a browser holds at each table: its player token (and host token, and the host's
// watch link for spectators, whose secret the server gives once), kept per invite
// in sessionStorage (this tab) and localStorage (this browser), so a reload reconnects to the
// same seat. Tokens never appear in the page.

const PREFIX = "italian-poker.seat.";

/** The saved seat for `invite`: {player_token, host_token, seat, watch} or null. */
export function loadSeat(invite) {
  const key = PREFIX + invite;
  const text = sessionStorage.getItem(key) ?? localStorage.getItem(key);
  if (!text) return null;
  try {
    const seat = JSON.parse(text);
    return seat && typeof seat.player_token === "string" ? seat : null;
  } catch {
    return null;
  }
}

/** Save the seat taken at `invite` (with when it was taken, kept across saves). */
export function saveSeat(invite, seat) {
  const before = loadSeat(invite);
  const text = JSON.stringify({
    player_token: seat.player_token,
    host_token: seat.host_token ?? null,
    seat: seat.seat ?? null,
    saved: (before && before.player_token === seat.player_token && before.saved) || new Date().toISOString(),
    watch: seat.watch ?? null,
  });
  sessionStorage.setItem(PREFIX + invite, text);
  localStorage.setItem(PREFIX + invite, text);
}

/** Every seat this browser holds (this tab's and the browser's), oldest first (those saved
 * before seats were dated come first, by invite): [{invite, player_token, saved}]. */
export function allSeats() {
  const invites = new Set();
  for (const storage of [localStorage, sessionStorage]) {
    for (let i = 0; i < storage.length; i += 1) {
      const key = storage.key(i);
      if (key && key.startsWith(PREFIX)) invites.add(key.slice(PREFIX.length));
    }
  }
  const seats = [];
  for (const invite of invites) {
    const seat = loadSeat(invite);
    if (seat) seats.push({ invite, player_token: seat.player_token, saved: seat.saved || "" });
  }
  const order = (seat) => `${seat.saved}\u0000${seat.invite}`;
  return seats.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
}

/** Forget the seat at `invite` (its token was refused). */
export function forgetSeat(invite) {
  sessionStorage.removeItem(PREFIX + invite);
  localStorage.removeItem(PREFIX + invite);
}

/** The invite in a link such as "https://host/t/abc" or "/t/abc", or null. */
export function inviteFromLink(text) {
  const match = /\/t\/([A-Za-z0-9_-]{16,})\/?(?:[?#].*)?$/.exec((text || "").trim());
  return match ? match[1] : null;
}

/**
 * Leave the draw hint's box `box` off and disabled, saying why, on a server without the
 * hint (serve --no-advice, GET /api/server). Translate the page again once it resolves.
 */
export async function offerHint(box) {
  let info;
  try {
    info = await api("GET", "/api/server");
  } catch {
    return; // the server answers for itself when asked for the hint (422 no_advisor)
  }
  if (info.advice) return;
  box.checked = false;
  box.disabled = true;
  box.closest("label").querySelector("[data-i18n]").dataset.i18n = "hint_unavailable";
}

/** POST/GET JSON to the server; throws an Error carrying the server's message on failure. */
export async function api(method, path, body, token) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = new Error(apiMessage(data) || `${response.status} ${response.statusText}`);
    error.status = response.status;
    error.code = data && data.error;
    throw error;
  }
  return data;
}

function apiMessage(data) {
  if (!data) return "";
  if (typeof data.message === "string") return data.message;
  if (typeof data.detail === "string") return data.detail;
  if (Array.isArray(data.detail)) return data.detail.map((d) => d.msg || String(d)).join("; ");
  return "";
}
