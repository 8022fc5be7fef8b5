/**
 * Platform-like identifiers. Post ids ("mid") are 16-digit strings that grow with publication time,
 * like the real ones, and encode the author so a lookup by id needs no global index.
 */

// Keeps mids at 16 digits from 2013 to 2034 and below 2^53, so clients that parse JSON numbers (since_id) stay exact.
const MID_BASE = 1_000_000_000_000_000n;
const EPOCH_SEC = 1_262_304_000; // 2010-01-01T00:00:00Z
const USER_SLOTS = 10_000_000n; // low 7 digits: author index × 10 + a per-second sequence digit

export interface MidParts {
  createdSec: number;
  userIndex: number;
  seqDigit: number;
}

export function makeMid(createdMs: number, userIndex: number, postIndex: number): string {
  const sec = BigInt(Math.floor(createdMs / 1000) - EPOCH_SEC);
  return (MID_BASE + sec * USER_SLOTS + BigInt(userIndex * 10 + (postIndex % 10))).toString();
}

export function parseMid(mid: string): MidParts | null {
  if (!/^\d{16,19}$/.test(mid)) return null;
  const n = BigInt(mid) - MID_BASE;
  if (n < 0n) return null;
  const low = Number(n % USER_SLOTS);
  return { createdSec: Number(n / USER_SLOTS) + EPOCH_SEC, userIndex: Math.floor(low / 10), seqDigit: low % 10 };
}

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Weibo's bid: the mid cut into 7-digit groups from the right, each written as 4 base62 characters. */
export function midToBid(mid: string): string {
  const groups: string[] = [];
  for (let end = mid.length; end > 0; end -= 7) groups.unshift(mid.slice(Math.max(0, end - 7), end));
  return groups
    .map((g, i) => {
      let n = Number(g);
      let s = '';
      do {
        s = (ALPHABET[n % 62] ?? '0') + s;
        n = Math.floor(n / 62);
      } while (n > 0);
      return i === 0 ? s : s.padStart(4, '0');
    })
    .join('');
}

export function bidToMid(bid: string): string | null {
  if (!/^[0-9a-zA-Z]{1,12}$/.test(bid)) return null;
  const groups: string[] = [];
  for (let end = bid.length; end > 0; end -= 4) groups.unshift(bid.slice(Math.max(0, end - 4), end));
  return groups
    .map((g, i) => {
      let n = 0;
      for (const ch of g) n = n * 62 + ALPHABET.indexOf(ch);
      return i === 0 ? String(n) : String(n).padStart(7, '0');
    })
    .join('');
}

/**
 * Comment ids are JSON ints in the real API; built like mids (time-ordered, below 2^53) from the
 * comment's own second, the post author and the comment's position, so they are unique per world.
 */
export function makeCommentId(createdMs: number, postUserIndex: number, commentIndex: number): number {
  const sec = Math.floor(createdMs / 1000) - EPOCH_SEC;
  return 1_000_000_000_000_000 + sec * 10_000_000 + ((postUserIndex * 1000 + (commentIndex % 1000)) % 10_000_000);
}
