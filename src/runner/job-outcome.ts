import type { SubjectState } from '../core/envelope';
import type { FreshetError } from '../core/errors';
import { backoffMs, type RetryPolicy } from '../core/retry';
import type { Rng } from '../core/rng';
import type { RedisFrontierConfig } from '../sources/redis-frontier';

export interface FailedVisit {
  state: SubjectState;
  nextDueMs: number;
  deadLetter: boolean;
}

/**
 * What a failed visit does to the subject. Throttling defers it without counting a failure;
 * anything else counts, backs off exponentially, and after `max_failures` (or at once for errors
 * that can never succeed) the subject is dead-lettered and parked, not forgotten.
 */
export function failedVisit(
  state: SubjectState,
  err: FreshetError,
  nowMs: number,
  source: RedisFrontierConfig,
  retry: RetryPolicy,
  rng: Rng,
): FailedVisit {
  if (err.kind === 'throttled') {
    return { state, nextDueMs: nowMs + Math.max(err.retryAfterMs ?? 0, backoffMs(1, retry, rng)), deadLetter: false };
  }
  const failures = state.failures + 1;
  const parked = err.kind === 'non_retryable' || failures >= source.max_failures;
  const next = parked
    ? nowMs + source.park_secs * 1000
    : nowMs + Math.max(retry.base_delay_ms, backoffMs(failures + 1, { ...retry, jitter: 'none' }, rng));
  return { state: { ...state, failures }, nextDueMs: next, deadLetter: parked };
}
