import type { SubjectState } from '../../src/core/envelope';

/**
 * A compact state as the frontier's packed layout 2 keeps it (src/sources/frontier/packed-state.ts):
 * firstSeenMs and lastVisitMs floored to the whole second, `via` not stored; the rest as it was
 * (the scheduler's record aside, which keeps 1e-3 post / 1e-3 h: compare it on its own).
 */
export function asStored(s: SubjectState): SubjectState {
  const { via: _via, ...rest } = s;
  const out: SubjectState = { ...rest, firstSeenMs: Math.floor(s.firstSeenMs / 1000) * 1000 };
  if (s.lastVisitMs !== undefined) out.lastVisitMs = Math.floor(s.lastVisitMs / 1000) * 1000;
  return out;
}
