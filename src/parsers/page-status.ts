/**
 * Whether a page is gone: a 404 or 410 seen twice, at least a grace period apart, marks it
 * deleted; one alone only makes it suspect (sites answer 404 for a while during deploys). A
 * timeout, a 5xx, a 429 or any error is no evidence at all: the state stays as it was. A 2xx
 * or 304 clears the suspicion; a permanent redirect says the page moved.
 */
export interface GoneState {
  /** When a 404/410 was first seen since the page was last there. */
  firstMissingMs?: number;
  /** Set once the page is marked deleted. */
  deletedMs?: number;
}

export type PageVerdict = 'live' | 'suspect' | 'deleted' | 'moved' | 'unknown';

/** What one visit observed: an HTTP status, or an error with no status (timeout, reset, DNS). */
export type VisitObservation = { status: number } | { error: string };

export const DEFAULT_DELETION_GRACE_MS = 6 * 3_600_000;

export function observeStatus(state: GoneState, obs: VisitObservation, nowMs: number, graceMs = DEFAULT_DELETION_GRACE_MS): { state: GoneState; verdict: PageVerdict } {
  if ('error' in obs) return { state, verdict: state.deletedMs !== undefined ? 'deleted' : 'unknown' };
  const s = obs.status;
  if ((s >= 200 && s < 300) || s === 304) return { state: {}, verdict: 'live' };
  if (s === 301 || s === 308) return { state: {}, verdict: 'moved' };
  if (s === 404 || s === 410) {
    if (state.deletedMs !== undefined) return { state, verdict: 'deleted' };
    if (state.firstMissingMs === undefined) return { state: { firstMissingMs: nowMs }, verdict: 'suspect' };
    if (nowMs - state.firstMissingMs >= graceMs) return { state: { firstMissingMs: state.firstMissingMs, deletedMs: nowMs }, verdict: 'deleted' };
    return { state, verdict: 'suspect' };
  }
  // 5xx, 429, 403 and the rest say nothing about whether the page still exists.
  return { state, verdict: state.deletedMs !== undefined ? 'deleted' : 'unknown' };
}
