import { FreshetError } from '../../../src/core/errors';
import { backoffMs, decideRetry, defaultRetryPolicy, parseRetryAfterMs, retryPolicySchema } from '../../../src/core/retry';
import { seededRng } from '../../../src/core/rng';

const policy = retryPolicySchema.parse({ max_attempts: 3, base_delay_ms: 100, max_delay_ms: 1000, max_retry_after_secs: 10, jitter: 'none' });
const err = (kind: FreshetError['kind'], retryAfterMs?: number) => new FreshetError('E_UNEXPECTED', kind, 'x', {}, undefined, retryAfterMs);
const rng = seededRng(1);

describe('decideRetry', () => {
  it('retries retryable errors with capped exponential backoff, then dead-letters', () => {
    expect(decideRetry(err('retryable'), 1, policy, rng)).toEqual({ action: 'retry', delayMs: 100 });
    expect(decideRetry(err('retryable'), 2, policy, rng)).toEqual({ action: 'retry', delayMs: 200 });
    expect(decideRetry(err('retryable'), 3, policy, rng)).toEqual({ action: 'dead_letter' });
  });

  it('waits at least Retry-After when throttled, and reschedules a long wait instead of sleeping', () => {
    expect(decideRetry(err('throttled', 2000), 1, policy, rng)).toEqual({ action: 'retry', delayMs: 2000 });
    expect(decideRetry(err('throttled', 60_000), 1, policy, rng)).toEqual({ action: 'reschedule', delayMs: 60_000 });
    expect(decideRetry(err('throttled', 10), 3, policy, rng)).toEqual({ action: 'reschedule', delayMs: 400 });
  });

  it('dead-letters non-retryable errors and fails on critical ones', () => {
    expect(decideRetry(err('non_retryable'), 1, policy, rng)).toEqual({ action: 'dead_letter' });
    expect(decideRetry(err('critical'), 1, policy, rng)).toEqual({ action: 'fail' });
  });
});

describe('backoffMs', () => {
  it('caps the delay and jitters within [0, cap)', () => {
    expect(backoffMs(20, policy, rng)).toBe(1000);
    const jittered = { ...defaultRetryPolicy, base_delay_ms: 1000, max_delay_ms: 8000 };
    const r = seededRng(3);
    for (let i = 0; i < 200; i++) {
      const d = backoffMs(4, jittered, r);
      expect(d).toBeGreaterThanOrEqual(0);
      expect(d).toBeLessThan(8000);
    }
  });
});

describe('parseRetryAfterMs', () => {
  it('reads seconds and HTTP dates, ignores garbage', () => {
    const now = Date.parse('2026-11-21T10:00:00Z');
    expect(parseRetryAfterMs('5', now)).toBe(5000);
    expect(parseRetryAfterMs('Sat, 21 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfterMs('Sat, 21 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfterMs('soon', now)).toBeUndefined();
    expect(parseRetryAfterMs(undefined, now)).toBeUndefined();
  });
});
