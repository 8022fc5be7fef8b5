import type { SubjectState } from '../../core/envelope';
import type { Reader } from './packed-io';
import { unpackSchedule } from './packed-schedule';
import { unpackRecord, unpackValue } from './packed-value';
import { decodeSubjectName, decodeUrlText } from './subject-name';

/**
 * Reader of the first packed state layout (written until the second, packed-state.ts, replaced
 * it; states stored then still read, and are written in the new layout at their next ack).
 *
 * Flags A (bits 0–1 status, 2 lastVisitMs, 3 lastPostMs, 4 watermark, 5 followers, 6 depth,
 * 7 flags B follows), flags B (0 via, 1 meta, 2 schedule, 3 other keys as JSON, 4 via relative to
 * the subject's own name, 5 via a coded subject name, 6 schedule in the scheduler's compact form,
 * 7 whole state as JSON), then varints: firstSeenMs, postsSeen, visits, failures, the optional
 * fields in flag order (times as zigzag millisecond deltas from firstSeenMs), values as packValue.
 */

export const STATUSES = ['active', 'zombie', 'gone', 'dead'] as const;

/** `r` stands after flags A (`a`) and B (`b`, 0 when absent); `subject`: needed for a relative via. */
export function unpackSubjectV1(r: Reader, a: number, b: number, subject?: string): SubjectState {
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
