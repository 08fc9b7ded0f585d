// Provably fair decks, checked in the browser (docs/fairness.md, scheme
// italian-poker-fair-deck-v1), written from that page alone with WebCrypto: the commitment is
// SHA-256("italian-poker fair deck v1 commit" || seed); the stream is HMAC-SHA256 blocks keyed
// by the seed over "italian-poker fair deck v1 stream" || u64(deal) || u32(count) ||
// (u32(len) || value)... || u64(i), read four bytes at a time (big-endian); an integer below n
// by rejection sampling; Fisher-Yates from the last position down; cards shuffled from their
// canonical order (rank up, then spades, clubs, diamonds, hearts).
//
// A deal is checked from its record (deal, commitment, values, seed) and its "takes": each
// time the deal took cards, for whom (why: deal, draw or fourth; seats), the cards recorded,
// the discards shuffled in just before (4.3) and the cards of the stack the seat could not
// take (barred: its own reshuffled discards).

export const SCHEME = "italian-poker-fair-deck-v1";
const ENCODER = new TextEncoder();
const COMMIT_LABEL = ENCODER.encode("italian-poker fair deck v1 commit");
const STREAM_LABEL = ENCODER.encode("italian-poker fair deck v1 stream");
const RANKS = "23456789TJQKA";
const SUITS = "scdh";
const TWO_32 = 4294967296;

/** The bytes of lowercase (or uppercase) hexadecimal `hex`; throws on anything else. */
export function hexToBytes(hex) {
  if (typeof hex !== "string" || hex.length % 2 || /[^0-9a-fA-F]/.test(hex)) {
    throw new Error("not hexadecimal");
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Lowercase hexadecimal of `bytes`. */
export function bytesToHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function u32(x) {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, x, false);
  return out;
}

function u64(x) {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(x), false);
  return out;
}

/** The commitment (hex) to `seed` (bytes). */
export async function commitmentOf(seed) {
  const digest = await crypto.subtle.digest("SHA-256", concat([COMMIT_LABEL, seed]));
  return bytesToHex(new Uint8Array(digest));
}

/** The stream's message before the block counter. */
export function streamMessage(deal, values) {
  const parts = [STREAM_LABEL, u64(deal), u32(values.length)];
  for (const value of values) parts.push(u32(value.length), value);
  return concat(parts);
}

/** A player's value typed as text: its UTF-8 bytes after Unicode normalization NFC. */
export function textValue(text) {
  return ENCODER.encode(text.normalize("NFC"));
}

/** A fresh random value: 16 bytes from crypto.getRandomValues. */
export function randomValue() {
  return crypto.getRandomValues(new Uint8Array(16));
}

/** The stream of `seed`, `deal` and `values`, read a word at a time. */
export class Stream {
  constructor(key, message) {
    this.key = key;
    this.message = message;
    this.counter = 0;
    this.words = null;
    this.next = 8;
  }

  static async open(seed, deal, values) {
    const key = await crypto.subtle.importKey(
      "raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"],
    );
    return new Stream(key, streamMessage(deal, values));
  }

  async word() {
    if (this.next === 8) {
      const data = concat([this.message, u64(this.counter)]);
      const block = await crypto.subtle.sign("HMAC", this.key, data);
      this.words = new DataView(block);
      this.counter += 1;
      this.next = 0;
    }
    const x = this.words.getUint32(4 * this.next, false);
    this.next += 1;
    return x;
  }

  /** An integer below `n` (1 <= n <= 2^32), without bias. */
  async below(n) {
    const limit = TWO_32 - (TWO_32 % n);
    for (;;) {
      const x = await this.word();
      if (x < limit) return x % n;
    }
  }
}

/** `items` shuffled (Durstenfeld) from `stream`: a new array. */
export async function fisherYates(items, stream) {
  const a = items.slice();
  for (let i = a.length - 1; i >= 1; i -= 1) {
    const j = await stream.below(i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

function cardIndex(code) {
  return RANKS.indexOf(code[0]) * 4 + SUITS.indexOf(code[1]);
}

/** Card codes in canonical order: rank up, then spades, clubs, diamonds, hearts. */
export function canonicalOrder(cards) {
  return cards.slice().sort((a, b) => cardIndex(a) - cardIndex(b));
}

/** The stripped deck for `players` (RULES.md section 1: the top players + 4 ranks), in
 * canonical order. */
export function strippedDeck(players) {
  const out = [];
  for (const rank of RANKS.slice(13 - (players + 4))) for (const suit of SUITS) out.push(rank + suit);
  return out;
}

function whom(take, k) {
  if (take.why === "deal") return { what: "deal", seat: take.seats[k % take.seats.length] + 1 };
  return { what: take.why, seat: take.seats[0] + 1 };
}

function failed(reason, extra = {}) {
  return { verdict: "failed", reason, ...extra };
}

/** Check a deal: `record` {deal, commitment, values (hex), seed (hex or null)} and its
 * `takes`. Answers {verdict: "verified" | "unrevealed" | "failed", reason, card (1-based,
 * the first card that differs), whom ({what, seat}), recorded, expected}. */
export async function verifyDeal(record, takes) {
  if (!record || record.seed == null) return { verdict: "unrevealed", reason: "the seed is not revealed" };
  let seed;
  let values;
  try {
    seed = hexToBytes(record.seed);
    values = record.values.map(hexToBytes);
  } catch (error) {
    return failed("the record is not hexadecimal");
  }
  if (seed.length !== 32) return failed("a seed is 32 bytes");
  if ((await commitmentOf(seed)) !== String(record.commitment).toLowerCase()) {
    return failed("the seed does not match the commitment");
  }
  if (record.hand != null && record.hand !== record.deal) {
    return failed(`the commitment is for deal ${record.deal}, not deal ${record.hand}`);
  }
  const stream = await Stream.open(seed, record.deal, values);
  let stack = null;
  let number = 0;
  for (const take of takes) {
    if (take.why === "deal") {
      if (stack !== null) return failed("a fair deck deals one deal");
      stack = await fisherYates(strippedDeck(take.seats.length), stream);
    } else if (stack === null) {
      return failed("cards were drawn before the deal");
    }
    if (take.shuffled_in && take.shuffled_in.length) {
      stack.push(...(await fisherYates(canonicalOrder(take.shuffled_in), stream)));
    }
    const count = take.cards.length;
    let served;
    if (take.why === "deal") {
      served = stack.splice(0, count);
    } else {
      const barred = new Set(take.barred || []);
      const picked = [];
      for (let i = 0; i < stack.length && picked.length < count; i += 1) {
        if (!barred.has(stack[i])) picked.push(i);
      }
      served = picked.map((i) => stack[i]);
      for (const i of picked.reverse()) stack.splice(i, 1);
    }
    for (let k = 0; k < count; k += 1) {
      const card = number + k + 1;
      const who = whom(take, k);
      if (k >= served.length) {
        return failed(`card ${card} is recorded but the deck holds no more`, { card, whom: who });
      }
      if (served[k] !== take.cards[k]) {
        return failed(`card ${card} is ${take.cards[k]}, the deck gives ${served[k]}`, {
          card, whom: who, recorded: take.cards[k], expected: served[k],
        });
      }
    }
    number += count;
  }
  return { verdict: "verified", reason: "", cards: number };
}

/** The `[_fair]` table of a hand history's text (docs/fairness.md), with the history's
 * `hand` and the server's `takes` when present; null without one. Reads only what it needs:
 * `key = value` lines of that table. */
export function readHistory(text) {
  const lines = text.replace(/^\ufeff/, "").split(/\r?\n/);
  const fair = {};
  let table = "";
  let hand = null;
  for (const raw of lines) {
    const line = raw.trim();
    const header = line.match(/^\[([^\]]+)\]$/);
    if (header) {
      table = header[1].trim();
      continue;
    }
    const pair = line.match(/^([A-Za-z_]+)\s*=\s*(.*)$/);
    if (!pair) continue;
    const [, key, value] = pair;
    if (table === "" && key === "hand") hand = Number(value);
    if (table !== "_fair") continue;
    if (key === "takes") {
      fair.takes = JSON.parse(value.replace(/^'|'$/g, ""));
    } else if (key === "values") {
      fair.values = JSON.parse(value);
    } else if (key === "deal") {
      fair.deal = Number(value);
    } else {
      fair[key] = JSON.parse(value);
    }
  }
  if (!fair.scheme) return null;
  return { ...fair, hand, seed: fair.seed ?? null };
}

/** Check a hand history's text: {verdict, reason, ...} ("no fair deck" without [_fair];
 * "failed" when the history lacks the cards' order, the server's `takes`). */
export async function verifyHistory(text) {
  let record;
  try {
    record = readHistory(text);
  } catch (error) {
    return failed(`the history cannot be read: ${error.message}`);
  }
  if (record === null) return { verdict: "no fair deck", reason: "the history records no commitment" };
  if (record.scheme !== SCHEME) return failed(`unknown scheme ${record.scheme}`);
  if (record.seed == null) return { verdict: "unrevealed", reason: "the seed is not revealed", deal: record.deal };
  if (!Array.isArray(record.takes)) {
    return failed("the history lacks the order of the cards taken (takes): check it with italian-poker verify");
  }
  return { ...(await verifyDeal(record, record.takes)), deal: record.deal };
}
