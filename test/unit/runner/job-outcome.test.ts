import { newSubjectState } from '../../../src/core/envelope';
import { FreshetError } from '../../../src/core/errors';
import { retryPolicySchema } from '../../../src/core/retry';
import { seededRng } from '../../../src/core/rng';
import { failedVisit, LIMIT_TIE_SPREAD_MS, longestUnservedFirstMs, pausedDueMs } from '../../../src/runner/job-outcome';
import { redisFrontierConfigSchema } from '../../../src/sources/redis-frontier';

const source = redisFrontierConfigSchema.parse({ type: 'redis_frontier', max_failures: 3, park_secs: 3600 });
const retry = retryPolicySchema.parse({ base_delay_ms: 1000, max_delay_ms: 60_000, jitter: 'none' });
const now = 1_000_000;

describe('failedVisit', () => {
  it('defers a throttled subject by Retry-After without counting a failure', () => {
    const f = failedVisit(newSubjectState(0), new FreshetError('E_FETCH_THROTTLED', 'throttled', 'x', {}, undefined, 30_000), now, source, retry, seededRng(1));
    expect(f.state).toEqual(newSubjectState(0));
    expect(f.deadLetter).toBe(false);
    expect(f.nextDueMs).toBeGreaterThanOrEqual(now + 30_000);
    expect(f.nextDueMs).toBeLessThanOrEqual(now + 30_000 + LIMIT_TIE_SPREAD_MS);
  });

  it('ranks subjects one limit refused by how long each went unserved, longest first, all behind none served', () => {
    const hour = 3_600_000;
    const at = 100 * hour;
    const quota = (lastVisitMs?: number) => failedVisit({ ...newSubjectState(0), ...(lastVisitMs === undefined ? {} : { lastVisitMs }) }, new FreshetError('E_QUOTA_EXHAUSTED', 'throttled', 'x', {}, undefined, hour), at, source, retry, seededRng(1)).nextDueMs;
    const neverVisited = quota();
    const dues = [neverVisited, quota(at - 8 * hour), quota(at - 4 * hour), quota(at - hour), quota(at), pausedDueMs(hour, at, retry, seededRng(1))];
    // Distinct and in order: the frontier claims them longest-unserved first when the quota resets.
    expect([...dues].sort((a, b) => a - b)).toEqual(dues);
    expect(new Set(dues).size).toBe(dues.length - 1); // refused just now ties with paused just now (both served at `at`)
    expect(dues.every((d) => d >= at + hour && d <= at + hour + LIMIT_TIE_SPREAD_MS)).toBe(true);
    expect(longestUnservedFirstMs(at, at)).toBe(LIMIT_TIE_SPREAD_MS);
    expect(longestUnservedFirstMs(at + 5, at)).toBe(LIMIT_TIE_SPREAD_MS); // a clock skew never goes past the spread
  });

  it('backs off retryable failures, then parks and dead-letters at max_failures', () => {
    let state = newSubjectState(0);
    const delays: number[] = [];
    let last;
    for (let i = 0; i < 3; i++) {
      last = failedVisit(state, new FreshetError('E_FETCH_TIMEOUT', 'retryable', 'x'), now, source, retry, seededRng(1));
      state = last.state;
      delays.push(last.nextDueMs - now);
    }
    expect(delays.slice(0, 2)).toEqual([2000, 4000]);
    expect(last).toMatchObject({ deadLetter: true, nextDueMs: now + 3_600_000, state: { failures: 3 } });
  });

  it('parks a subject at once on an error that can never succeed (login wall)', () => {
    const f = failedVisit(newSubjectState(0), new FreshetError('E_LOGIN_REQUIRED', 'non_retryable', 'x'), now, source, retry, seededRng(1));
    expect(f).toMatchObject({ deadLetter: true, nextDueMs: now + 3_600_000, state: { failures: 1 } });
  });
});
