import { z } from 'zod';
import type { FreshetError } from './errors';
import type { Rng } from './rng';
import { timerMs, timerSecs } from './timers';

/** Retry policy is data: it lives in the pipeline file and is validated there. */
export const retryPolicySchema = z.strictObject({
  max_attempts: z.number().int().min(1).max(50).default(4),
  base_delay_ms: timerMs(0).default(500),
  max_delay_ms: timerMs(0).default(30_000),
  /** A Retry-After longer than this is not slept through: the subject is rescheduled instead. */
  max_retry_after_secs: timerSecs(0).default(60),
  jitter: z.enum(['full', 'none']).default('full'),
});

export type RetryPolicy = z.infer<typeof retryPolicySchema>;

export const defaultRetryPolicy: RetryPolicy = retryPolicySchema.parse({});

export type RetryDecision =
  /** Try again here (the fetcher, the sink) after `delayMs`. */
  | { action: 'retry'; delayMs: number }
  /** Give the item back to the frontier, due no earlier than `delayMs` from now. */
  | { action: 'reschedule'; delayMs: number }
  /** It will not succeed as it is: keep it in the dead-letter stream (a subject is also parked). */
  | { action: 'dead_letter' }
  | { action: 'fail' };

/**
 * The one place that decides what happens after an error: the fetcher and the renderer per
 * request, the sink per document, the runner per visit (job-outcome.ts). `attempt` counts attempts
 * made so far (1 after the first failure). Capped exponential backoff with full jitter (AWS
 * architecture blog): spreads retries of many workers hitting the same overloaded origin.
 */
export function decideRetry(err: Pick<FreshetError, 'kind' | 'retryAfterMs'>, attempt: number, policy: RetryPolicy, rng: Rng): RetryDecision {
  switch (err.kind) {
    case 'critical':
      return { action: 'fail' };
    case 'non_retryable':
      return { action: 'dead_letter' };
    case 'throttled': {
      const waitMs = Math.max(err.retryAfterMs ?? 0, backoffMs(attempt, policy, rng));
      if (waitMs > policy.max_retry_after_secs * 1000 || attempt >= policy.max_attempts) {
        return { action: 'reschedule', delayMs: waitMs };
      }
      return { action: 'retry', delayMs: waitMs };
    }
    case 'retryable':
      if (attempt >= policy.max_attempts) return { action: 'dead_letter' };
      return { action: 'retry', delayMs: backoffMs(attempt, policy, rng) };
  }
}

export function backoffMs(attempt: number, policy: Pick<RetryPolicy, 'base_delay_ms' | 'max_delay_ms' | 'jitter'>, rng: Rng): number {
  const capped = Math.min(policy.max_delay_ms, policy.base_delay_ms * 2 ** Math.min(60, Math.max(0, attempt - 1)));
  return policy.jitter === 'full' ? Math.floor(rng.next() * capped) : capped;
}

/** While Redis is away (claims, acks): 200 ms doubling to 5 s, no jitter (one worker, one connection). */
const REDIS_OUTAGE = { base_delay_ms: 200, max_delay_ms: 5000, jitter: 'none' } as const;
const NO_JITTER: Rng = { next: () => 0 };

/** The pause before trying Redis again after `failures` failed calls in a row. */
export function redisOutageDelayMs(failures: number): number {
  return backoffMs(failures, REDIS_OUTAGE, NO_JITTER);
}

/** Parses Retry-After (delta seconds or HTTP date) into milliseconds from `nowMs`. */
export function parseRetryAfterMs(value: string | undefined | null, nowMs: number): number | undefined {
  if (value === undefined || value === null) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
