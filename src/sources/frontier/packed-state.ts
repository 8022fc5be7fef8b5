import type { SubjectState } from '../../core/envelope';
import { Reader, Writer } from './packed-io';
import { packSchedule, unpackSchedule } from './packed-schedule';
import { STATUSES, unpackSubjectV1 } from './packed-state-v1';
import { packRecord, packValue, unpackRecord, unpackValue } from './packed-value';

/**
 * A subject's state packed for Redis's small-hash (listpack) encoding: a listpack holds values of
 * at most 64 bytes (hash-max-listpack-value, the default, which operators do not tune), and one
 * larger value turns its whole bucket into a hashtable, about half as much memory again per subject. A
 * weibo user or a web page under the poisson schedule packs into 55–64 (its JSON is about 400).
 * Anything that does not fit the compact fields falls back to JSON inside the same frame, which
 * only costs memory.
 *
 * Stored value = 7-byte big-endian due time in microseconds (all 0xFF when not scheduled) + packed
 * state, so a Lua script reads and rewrites the due time with string.sub and never decodes the
 * state. Microseconds, not milliseconds: the runner orders discovery levels by thousandths of a
 * millisecond (breadth-first), and claims go by due time.
 *
 * Packed state (layout 2): flags A (bits 0–1 status — the Lua scripts read them —, 2 lastVisitMs,
 * 3 lastPostMs, 4 watermark, 5 followers, 6 depth, 7 always set), flags B (bit 0 always set: the
 * layout; 1 meta, 2 schedule in the scheduler's compact form, 3 schedule as a generic record,
 * 4 other keys as JSON, 5 lastPostMs in whole seconds, 6 meta.containerid is weibo's timeline
 * container of the subject's uid), then varints: firstSeen, postsSeen, visits, failures, the
 * optional fields in flag order, values as `packValue` (packed-value.ts).
 *
 * Times. firstSeenMs and lastVisitMs are kept to the whole second (floored): firstSeen as seconds
 * from 2026-01-01 (four bytes until 2030), lastVisit as seconds from it. The scheduler reads them
 * in hours (its own record is at 1e-3 h), and a post counts as new when its time is after
 * lastVisitMs: post times are whole seconds (weibo's created_at, RSS and HTTP dates), and for
 * those "after t" and "after t floored" agree. lastPostMs is exact: in whole seconds from
 * firstSeen when it is a whole second, else milliseconds.
 *
 * Not stored: `via` (the page or command that offered the subject; nothing reads it, and on the
 * web it is as long as a URL). The poisson scheduler's record is kept at the precision the
 * scheduler needs (packed-schedule.ts); web_pages' hex ETags at half their length
 * (packed-value.ts). Everything else is lossless.
 *
 * Versions: layout 1 (packed-state-v1.ts) set bit 7 of flags B only in its JSON frame (0x80 0x80),
 * so flags B with bits 7 and 0 set mark layout 2, and both read.
 */

export const DUE_BYTES = 7;
/** First byte of the due time of a subject that is not scheduled (recorded, leased, never again). */
const NEVER_DUE_BYTE = 0xff;
/** Latest representable due time (µs below 2^53, exact in a Lua double): year 2255. */
const MAX_DUE_US = 2 ** 53 - 1;
/** 2026-01-01T00:00:00Z in seconds: firstSeen is stored from it. */
const EPOCH_SECS = 1_767_225_600;
/** Weibo's timeline container of a user is this prefix and the uid (the subject name's digits). */
const WEIBO_TIMELINE_CONTAINER = '107603';

const LAYOUT_2 = 0x81;
const B_META = 2;
const B_SCHEDULE_COMPACT = 4;
const B_SCHEDULE = 8;
const B_OTHER = 16;
const B_POST_SECS = 32;
const B_CONTAINER = 64;

const KNOWN = new Set(['firstSeenMs', 'lastVisitMs', 'lastPostMs', 'watermark', 'postsSeen', 'visits', 'failures', 'status', 'followers', 'schedule', 'meta', 'via', 'depth']);

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
const isTime = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n);

function compactable(s: SubjectState): boolean {
  return isCount(s.firstSeenMs) && isCount(s.postsSeen) && isCount(s.visits) && isCount(s.failures)
    && (STATUSES as readonly string[]).includes(s.status)
    && (s.lastVisitMs === undefined || isTime(s.lastVisitMs)) && (s.lastPostMs === undefined || isTime(s.lastPostMs))
    && (s.watermark === undefined || typeof s.watermark === 'string')
    && (s.followers === undefined || isCount(s.followers)) && (s.depth === undefined || isCount(s.depth))
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

/** Weibo's timeline container id of `subject` (its trailing digits are the uid); undefined without digits. */
function timelineContainer(subject: string | undefined): string | undefined {
  const uid = subject === undefined ? undefined : /[0-9]+$/.exec(subject)?.[0];
  return uid === undefined ? undefined : WEIBO_TIMELINE_CONTAINER + uid;
}

function packCompact(w: Writer, s: SubjectState, subject: string | undefined): void {
  const other = Object.fromEntries(Object.entries(s).filter(([k, v]) => !KNOWN.has(k) && v !== undefined));
  const hasOther = Object.keys(other).length > 0;
  let meta = s.meta;
  const container = meta !== undefined && meta['containerid'] !== undefined && meta['containerid'] === timelineContainer(subject);
  if (container) {
    const { containerid: _c, ...rest } = meta!;
    meta = Object.keys(rest).length > 0 ? rest : undefined;
  }
  const schedule = new Writer();
  const compactSchedule = s.schedule !== undefined && packSchedule(schedule, s.schedule);
  const postSecs = s.lastPostMs !== undefined && s.lastPostMs % 1000 === 0;
  const b = LAYOUT_2 | (meta !== undefined ? B_META : 0) | (compactSchedule ? B_SCHEDULE_COMPACT : 0)
    | (s.schedule !== undefined && !compactSchedule ? B_SCHEDULE : 0) | (hasOther ? B_OTHER : 0)
    | (postSecs ? B_POST_SECS : 0) | (container ? B_CONTAINER : 0);
  const a = STATUSES.indexOf(s.status) | (s.lastVisitMs !== undefined ? 4 : 0) | (s.lastPostMs !== undefined ? 8 : 0)
    | (s.watermark !== undefined ? 16 : 0) | (s.followers !== undefined ? 32 : 0) | (s.depth !== undefined ? 64 : 0) | 128;
  w.byte(a);
  w.byte(b);
  const firstSecs = Math.floor(s.firstSeenMs / 1000);
  w.zigzag(firstSecs - EPOCH_SECS);
  w.uint(s.postsSeen);
  w.uint(s.visits);
  w.uint(s.failures);
  if (s.lastVisitMs !== undefined) w.zigzag(Math.floor(s.lastVisitMs / 1000) - firstSecs);
  if (s.lastPostMs !== undefined) w.zigzag(postSecs ? s.lastPostMs / 1000 - firstSecs : s.lastPostMs - firstSecs * 1000);
  if (s.watermark !== undefined) packValue(w, s.watermark);
  if (s.followers !== undefined) w.uint(s.followers);
  if (s.depth !== undefined) w.uint(s.depth);
  if (meta !== undefined) packRecord(w, meta);
  if (compactSchedule) w.raw(schedule.buffer(0));
  else if (s.schedule !== undefined) packRecord(w, s.schedule);
  if (hasOther) packValue(w, other);
}

/** Packs a state behind its due time (negative dueMs: not scheduled); `subject`: its name (see containerid above). */
export function packSubject(s: SubjectState, dueMs: number, subject?: string): Buffer {
  const w = new Writer();
  if (!compactable(s)) {
    w.byte(0x80);
    w.byte(0x80);
    w.raw(Buffer.from(JSON.stringify(s), 'utf8'));
  } else packCompact(w, s, subject);
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

function unpackCompact(r: Reader, a: number, b: number, subject: string | undefined): SubjectState {
  const firstSecs = r.zigzag() + EPOCH_SECS;
  const s: SubjectState = { firstSeenMs: firstSecs * 1000, postsSeen: r.uint(), visits: r.uint(), failures: r.uint(), status: STATUSES[a & 3]! };
  if (a & 4) s.lastVisitMs = (firstSecs + r.zigzag()) * 1000;
  if (a & 8) s.lastPostMs = b & B_POST_SECS ? (firstSecs + r.zigzag()) * 1000 : firstSecs * 1000 + r.zigzag();
  if (a & 16) s.watermark = unpackValue(r) as string;
  if (a & 32) s.followers = r.uint();
  if (a & 64) s.depth = r.uint();
  if (b & B_META) s.meta = unpackRecord(r) as Record<string, string>;
  if (b & B_CONTAINER) {
    const containerid = timelineContainer(subject);
    if (containerid === undefined) throw new RangeError('packed state: containerid comes from the subject name, which was not given');
    s.meta = { containerid, ...s.meta };
  }
  if (b & B_SCHEDULE_COMPACT) s.schedule = unpackSchedule(r);
  else if (b & B_SCHEDULE) s.schedule = unpackRecord(r);
  if (b & B_OTHER) Object.assign(s, unpackValue(r) as Record<string, unknown>);
  return s;
}

/** The state packed behind a due time, in either layout; `subject`: its name, which some fields are stored relative to. */
export function unpackSubject(value: Buffer, subject?: string): SubjectState {
  const r = new Reader(value, DUE_BYTES);
  const a = r.byte();
  const b = a & 128 ? r.byte() : 0;
  if (b === 0x80) return JSON.parse(r.rest()) as SubjectState;
  if (b & 128) return unpackCompact(r, a, b, subject);
  return unpackSubjectV1(r, a, b, subject);
}
