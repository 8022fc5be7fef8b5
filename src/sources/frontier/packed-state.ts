import type { SubjectState } from '../../core/envelope';
import { Reader, Writer } from './packed-io';
import { packSchedule, unpackSchedule } from './packed-schedule';
import { decodeSubjectName, decodeUrlText, encodeSubjectName, encodeUrlText } from './subject-name';

/**
 * A subject's state packed for Redis's small-hash (listpack) encoding: a listpack holds values of
 * at most 64 bytes (hash-max-listpack-value, the default), and a typical visited subject packs
 * into about 40 (its JSON is about 250). Anything that does not fit the compact fields falls back
 * to JSON inside the same frame, which only costs memory.
 *
 * Stored value = 7-byte big-endian due time in microseconds (all 0xFF when not scheduled) + packed
 * state, so a Lua script reads and rewrites the due time with string.sub and never decodes the
 * state. Microseconds, not milliseconds: the runner orders discovery levels by thousandths of a
 * millisecond (breadth-first), and claims go by due time.
 *
 * Packed state: flags A (bits 0–1 status, 2 lastVisitMs, 3 lastPostMs, 4 watermark, 5 followers,
 * 6 depth, 7 flags B follows), flags B (0 via, 1 meta, 2 schedule, 3 other keys as JSON, 4 via
 * relative to the subject's own name, 5 via a coded subject name, 6 schedule in the scheduler's
 * compact form, 7 whole state as JSON), then varints: firstSeenMs, postsSeen, visits, failures,
 * the optional fields in flag order (times as zigzag deltas from firstSeenMs), values as `packValue`.
 *
 * Lossless, except the poisson scheduler's own record (bit 6, packed-schedule.ts): its numbers are
 * kept at the precision the scheduler needs (1e-3 post, 1e-3 h), which takes it from about 80
 * bytes to about 20.
 *
 * Versions: a flag or dictionary entry is only ever added, never reassigned, so every state
 * stored earlier still reads (bits 4–5 of flags B and the keys `v`, `b` came with issue 20, bit 6
 * with the compact schedule record; a record stored generically before it reads as it was).
 *
 * `via` of a discovered web page is the name of the page that linked to it, as long as the page's
 * own name (70 bytes is common): stored whole it would push the state past listpack's 64 bytes.
 * Links mostly stay on their site, so via is kept as the length of the prefix it shares with the
 * subject's own name plus the rest, coded like a name's (bit 4, when `subject` is given to pack and unpack), or coded
 * like a stored subject name (bit 5, subject-name.ts), whichever is shorter. A link across sites
 * can still take a state past 64 bytes (its bucket then becomes a hashtable: memory, not loss).
 */

/** Shorter shared prefixes are not worth a relative via. */
const MIN_SHARED_PREFIX = 12;

/** Code units `via` shares with `subject` from the start, never ending inside a surrogate pair. */
function sharedPrefix(subject: string, via: string): number {
  const max = Math.min(subject.length, via.length);
  let n = 0;
  while (n < max && subject.charCodeAt(n) === via.charCodeAt(n)) n++;
  if (n > 0 && n < via.length && via.charCodeAt(n - 1) >= 0xd800 && via.charCodeAt(n - 1) <= 0xdbff) n--;
  return n;
}

export const DUE_BYTES = 7;
/** First byte of the due time of a subject that is not scheduled (recorded, leased, never again). */
const NEVER_DUE_BYTE = 0xff;
/** Latest representable due time (µs below 2^53, exact in a Lua double): year 2255. */
const MAX_DUE_US = 2 ** 53 - 1;

const STATUSES = ['active', 'zombie', 'gone', 'dead'] as const;
const KNOWN = new Set(['firstSeenMs', 'lastVisitMs', 'lastPostMs', 'watermark', 'postsSeen', 'visits', 'failures', 'status', 'followers', 'schedule', 'meta', 'via', 'depth']);
const DECIMAL = /^(0|[1-9][0-9]{0,19})$/;
const U64 = 2n ** 64n;

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
const isTime = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n);

/**
 * One value: a header varint h, kind = h mod 4, len = h div 4. Kind 0: UTF-8 string of len bytes;
 * 1: a string of canonical decimal digits below 2^64, as a varint (ids, container ids); 2: a
 * number that is an exact multiple of 1e-6 (the scheduler rounds to that), as a zigzag varint of
 * its millionths; 3: anything else, as JSON of len bytes.
 */
function packValue(w: Writer, v: unknown): void {
  if (typeof v === 'string') {
    if (DECIMAL.test(v) && BigInt(v) < U64) {
      w.uint(1);
      w.big(BigInt(v));
      return;
    }
    const b = Buffer.from(v, 'utf8');
    w.uint(b.length * 4);
    w.raw(b);
    return;
  }
  if (typeof v === 'number' && Number.isFinite(v) && !Object.is(v, -0)) {
    const micro = Math.round(v * 1e6);
    if (Number.isSafeInteger(micro) && micro / 1e6 === v) {
      w.uint(2);
      w.zigzag(micro);
      return;
    }
  }
  const b = Buffer.from(JSON.stringify(v), 'utf8');
  w.uint(b.length * 4 + 3);
  w.raw(b);
}

function unpackValue(r: Reader): unknown {
  const h = r.uint();
  const kind = h % 4;
  const len = (h - kind) / 4;
  if (kind === 0) return r.text(len);
  if (kind === 1) return r.big().toString();
  if (kind === 2) return r.zigzag() / 1e6;
  return JSON.parse(r.text(len)) as unknown;
}

/**
 * Record keys the adapters and the scheduler write on every subject, one byte each instead of
 * their length. Append only: an index, once stored in Redis, must keep its meaning.
 */
const KEY_DICT = ['containerid', 'ep', 'eh', 'dn', 'dc', 'ds', 'v', 'b'] as const;
const KEY_INDEX = new Map<string, number>(KEY_DICT.map((k, i) => [k, i]));

/** A record: count, then per entry its key (odd header: dictionary index; even: string) and value. */
function packRecord(w: Writer, rec: Record<string, unknown>): void {
  const entries = Object.entries(rec).filter(([, v]) => v !== undefined);
  w.uint(entries.length);
  for (const [k, v] of entries) {
    const i = KEY_INDEX.get(k);
    if (i !== undefined) w.uint(i * 2 + 1);
    else {
      const b = Buffer.from(k, 'utf8');
      w.uint(b.length * 2);
      w.raw(b);
    }
    packValue(w, v);
  }
}

function unpackRecord(r: Reader): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let n = r.uint(); n > 0; n--) {
    const h = r.uint();
    const k = h % 2 === 1 ? KEY_DICT[(h - 1) / 2] : r.text(h / 2);
    if (k === undefined) throw new RangeError('packed state: unknown key index');
    out[k] = unpackValue(r);
  }
  return out;
}

function compactable(s: SubjectState): boolean {
  return isCount(s.firstSeenMs) && isCount(s.postsSeen) && isCount(s.visits) && isCount(s.failures)
    && (STATUSES as readonly string[]).includes(s.status)
    && (s.lastVisitMs === undefined || isTime(s.lastVisitMs)) && (s.lastPostMs === undefined || isTime(s.lastPostMs))
    && (s.watermark === undefined || typeof s.watermark === 'string')
    && (s.followers === undefined || isCount(s.followers)) && (s.depth === undefined || isCount(s.depth))
    && (s.via === undefined || typeof s.via === 'string')
    && (s.meta === undefined || (typeof s.meta === 'object' && s.meta !== null && !Array.isArray(s.meta)))
    && (s.schedule === undefined || (typeof s.schedule === 'object' && s.schedule !== null && !Array.isArray(s.schedule)));
}

function encodeDue(buf: Buffer, dueMs: number): void {
  if (dueMs < 0 || Number.isNaN(dueMs)) {
    buf.fill(NEVER_DUE_BYTE, 0, DUE_BYTES);
    return;
  }
  let us = Math.min(Math.round(dueMs * 1000), MAX_DUE_US);
  for (let i = DUE_BYTES - 1; i >= 0; i--) {
    buf[i] = us % 256;
    us = Math.floor(us / 256);
  }
}

/** Packs a state behind its due time (negative dueMs: not scheduled); `subject`: its name (see via above). */
export function packSubject(s: SubjectState, dueMs: number, subject?: string): Buffer {
  const w = new Writer();
  if (!compactable(s)) {
    w.byte(0x80);
    w.byte(0x80);
    w.raw(Buffer.from(JSON.stringify(s), 'utf8'));
  } else {
    const other = Object.fromEntries(Object.entries(s).filter(([k, v]) => !KNOWN.has(k) && v !== undefined));
    const hasOther = Object.keys(other).length > 0;
    const shared = s.via === undefined || subject === undefined ? 0 : sharedPrefix(subject, s.via);
    const coded = s.via === undefined ? undefined : encodeSubjectName(s.via);
    const tail = shared >= MIN_SHARED_PREFIX ? encodeUrlText(s.via!.slice(shared)) : undefined;
    // Whichever is shorter: on the same site the relative form, across sites usually the coded one.
    const relative = tail !== undefined && (!Buffer.isBuffer(coded) || tail.length < coded.length);
    const schedule = new Writer();
    const compactSchedule = s.schedule !== undefined && packSchedule(schedule, s.schedule);
    const b = (s.via !== undefined ? 1 : 0) | (relative ? 16 : 0) | (Buffer.isBuffer(coded) ? 32 : 0) | (s.meta !== undefined ? 2 : 0) | (s.schedule !== undefined ? 4 : 0)
      | (hasOther ? 8 : 0) | (compactSchedule ? 64 : 0);
    const a = STATUSES.indexOf(s.status) | (s.lastVisitMs !== undefined ? 4 : 0) | (s.lastPostMs !== undefined ? 8 : 0)
      | (s.watermark !== undefined ? 16 : 0) | (s.followers !== undefined ? 32 : 0) | (s.depth !== undefined ? 64 : 0) | (b !== 0 ? 128 : 0);
    w.byte(a);
    if (b !== 0) w.byte(b);
    w.uint(s.firstSeenMs);
    w.uint(s.postsSeen);
    w.uint(s.visits);
    w.uint(s.failures);
    if (s.lastVisitMs !== undefined) w.zigzag(s.lastVisitMs - s.firstSeenMs);
    if (s.lastPostMs !== undefined) w.zigzag(s.lastPostMs - s.firstSeenMs);
    if (s.watermark !== undefined) packValue(w, s.watermark);
    if (s.followers !== undefined) w.uint(s.followers);
    if (s.depth !== undefined) w.uint(s.depth);
    if (relative) {
      w.uint(shared);
      w.uint(tail.length);
      w.raw(tail);
    } else if (Buffer.isBuffer(coded)) {
      w.uint(coded.length);
      w.raw(coded);
    } else if (s.via !== undefined) packValue(w, s.via);
    if (s.meta !== undefined) packRecord(w, s.meta);
    if (compactSchedule) w.raw(schedule.buffer(0));
    else if (s.schedule !== undefined) packRecord(w, s.schedule);
    if (hasOther) packValue(w, other);
  }
  const out = w.buffer(DUE_BYTES);
  encodeDue(out, dueMs);
  return out;
}

/** The due time (ms, to the microsecond) stored in front of a packed state; undefined: not scheduled. */
export function packedDue(value: Buffer): number | undefined {
  if (value[0] === NEVER_DUE_BYTE) return undefined;
  let us = 0;
  for (let i = 0; i < DUE_BYTES; i++) us = us * 256 + value[i]!;
  return us / 1000;
}

/** The state packed behind a due time; `subject`: its name, needed when via was stored relative to it. */
export function unpackSubject(value: Buffer, subject?: string): SubjectState {
  const r = new Reader(value, DUE_BYTES);
  const a = r.byte();
  const b = a & 128 ? r.byte() : 0;
  if (b & 128) return JSON.parse(r.rest()) as SubjectState;
  const s: SubjectState = { firstSeenMs: r.uint(), postsSeen: r.uint(), visits: r.uint(), failures: r.uint(), status: STATUSES[a & 3]! };
  if (a & 4) s.lastVisitMs = s.firstSeenMs + r.zigzag();
  if (a & 8) s.lastPostMs = s.firstSeenMs + r.zigzag();
  if (a & 16) s.watermark = unpackValue(r) as string;
  if (a & 32) s.followers = r.uint();
  if (a & 64) s.depth = r.uint();
  if (b & 16) {
    if (subject === undefined) throw new RangeError('packed state: via is relative to the subject name, which was not given');
    const shared = r.uint();
    s.via = subject.slice(0, shared) + decodeUrlText(r.bytes(r.uint()));
  } else if (b & 32) s.via = decodeSubjectName(r.bytes(r.uint()));
  else if (b & 1) s.via = unpackValue(r) as string;
  if (b & 2) s.meta = unpackRecord(r) as Record<string, string>;
  if (b & 64) s.schedule = unpackSchedule(r);
  else if (b & 4) s.schedule = unpackRecord(r);
  if (b & 8) Object.assign(s, unpackValue(r) as Record<string, unknown>);
  return s;
}
