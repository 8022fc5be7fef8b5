import type { SubjectState } from '../core/envelope';
import type { FreshetError } from '../core/errors';
import { decideRetry, type RetryPolicy } from '../core/retry';
import type { Rng } from '../core/rng';
import type { RedisFrontierConfig } from '../sources/redis-frontier';

export interface FailedVisit {
  state: SubjectState;
  nextDueMs: number;
  deadLetter: boolean;
}

/**
 * What a failed visit does to the subject, decided by `decideRetry` like any other retry, with
 * the visit as the attempt. Throttling reschedules it without counting a failure; anything else
 * counts, backs off exponentially (no jitter: the frontier spreads due times anyway), and after
 * `max_failures` (or at once for errors that can never succeed) the subject is dead-lettered and
 * parked, not forgotten. A critical error is counted like a retryable one: the run stops for it,
 * and the subject is tried again soon after a restart.
 */
export function failedVisit(
  state: SubjectState,
  err: FreshetError,
  nowMs: number,
  source: Pick<RedisFrontierConfig, 'max_failures' | 'park_secs'>,
  retry: RetryPolicy,
  rng: Rng,
): FailedVisit {
  if (err.kind === 'throttled') {
    const resumeMs = resumeDueMs(err.retryAfterMs, nowMs, retry, rng) + longestUnservedFirstMs(state.lastVisitMs, nowMs);
    return { state, nextDueMs: resumeMs, deadLetter: false };
  }
  const failures = state.failures + 1;
  // Attempt failures + 1 of max_failures + 1: the first failure waits two base delays.
  const d = decideRetry({ kind: err.kind === 'critical' ? 'retryable' : err.kind, retryAfterMs: undefined }, failures + 1, { ...retry, max_attempts: source.max_failures + 1, jitter: 'none' }, rng);
  if (d.action === 'retry') return { state: { ...state, failures }, nextDueMs: nowMs + Math.max(retry.base_delay_ms, d.delayMs), deadLetter: false };
  return { state: { ...state, failures }, nextDueMs: nowMs + source.park_secs * 1000, deadLetter: true };
}

/**
 * When a subject a limit refused is due again: as soon as the refusal allows (its retry-after, or
 * the policy's backoff), decided by `decideRetry` with the visit as the one attempt (a visit is
 * never retried in place, always given back to the frontier). For a throttled visit, and for the
 * rest of a visit that paused at a refusal after reading some pages.
 */
export function resumeDueMs(retryAfterMs: number | undefined, nowMs: number, retry: RetryPolicy, rng: Rng): number {
  const d = decideRetry({ kind: 'throttled', retryAfterMs }, 1, { ...retry, max_attempts: 1 }, rng);
  return nowMs + (d.action === 'reschedule' ? d.delayMs : 0);
}

/** When the rest of a visit a limit paused after some pages is due: served, it ranks behind those the limit refused outright. */
export function pausedDueMs(retryAfterMs: number | undefined, nowMs: number, retry: RetryPolicy, rng: Rng): number {
  return resumeDueMs(retryAfterMs, nowMs, retry, rng) + longestUnservedFirstMs(nowMs, nowMs);
}

/** The spread of the tie-break below: far below any visit interval, far above the frontier's microsecond resolution. */
export const LIMIT_TIE_SPREAD_MS = 1000;

/**
 * Subjects a limit refused (an identity quota run out, an origin's slot too far away) are all due
 * again the moment it lifts, one instant for all of them, and the frontier breaks ties by subject:
 * the same subjects would come last, and starve, at every reset. This offset, under a second,
 * orders them by how long each has gone unserved (`lastServedMs`: its last visit that read
 * something; undefined, never visited: first of all), longest first, so those starved by one
 * exhaustion are served first after it.
 */
export function longestUnservedFirstMs(lastServedMs: number | undefined, nowMs: number): number {
  if (lastServedMs === undefined) return 0;
  const unservedHours = Math.max(0, nowMs - lastServedMs) / 3_600_000;
  return Math.round(LIMIT_TIE_SPREAD_MS / (1 + unservedHours));
}
