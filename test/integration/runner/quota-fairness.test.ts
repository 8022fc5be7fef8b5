import { ManualClock } from '../../../src/core/clock';
import { newSubjectState } from '../../../src/core/envelope';
import { FreshetError } from '../../../src/core/errors';
import { retryPolicySchema } from '../../../src/core/retry';
import { seededRng } from '../../../src/core/rng';
import { failedVisit, pausedDueMs } from '../../../src/runner/job-outcome';
import { redisFrontierConfigSchema } from '../../../src/sources/redis-frontier';
import { RedisFrontier } from '../../../src/sources/frontier/frontier';
import { useRedis, type TestRedis } from '../../helpers/services';

const HOUR_MS = 3_600_000;
const source = redisFrontierConfigSchema.parse({ type: 'redis_frontier' });
const retry = retryPolicySchema.parse({ base_delay_ms: 5, max_delay_ms: 20, jitter: 'none' });

/**
 * An identity quota that runs out at every reset: each hour it serves the first few subjects the
 * frontier hands out (their visits pause when it runs out, after some pages) and refuses the rest
 * outright, all of them due again at the next reset. The subjects starved by one exhaustion must
 * be served after it, not starve again behind the same few (the frontier's tie order).
 */
describe('quota exhaustion and the frontier (real Redis): starved subjects first at the reset', () => {
  let t: TestRedis;
  beforeEach(async () => { t = await useRedis('quota-fair'); });
  afterEach(async () => t.cleanup());

  // One shard: how shards share claims is the frontier's test; this is the order within one.
  it('serves every subject within ceil(n / served) resets, each no more than once before all had a turn', async () => {
    const clock = new ManualClock(10 * HOUR_MS);
    const frontier = new RedisFrontier(t.redis, { namespace: `${t.prefix}frontier`, shards: 1, leaseMs: 60_000, bloomCapacity: 1000, bloomFalsePositiveRate: 0.01, deadLetterMaxLen: 100 }, clock);
    const n = 12;
    const servedPerReset = 4;
    await frontier.offer(Array.from({ length: n }, (_, i) => ({ subject: `weibo:user:${1000 + i}`, state: newSubjectState(clock.nowMs()) })));
    const servedCount = new Map<string, number>();
    for (let reset = 0; reset < n / servedPerReset; reset++) {
      const now = clock.nowMs();
      const untilReset = HOUR_MS - (now % HOUR_MS);
      // The first claim's visits get the quota (the runner's credits bound what is in flight).
      const jobs = [...await frontier.claim(servedPerReset), ...await frontier.claim(n)];
      expect(jobs).toHaveLength(n);
      const acks = jobs.map((job, i) => {
        if (i < servedPerReset) {
          servedCount.set(job.subject, (servedCount.get(job.subject) ?? 0) + 1);
          // Served: some pages read, then the quota ran out; the rest is due at the reset.
          return { job, state: { ...job.state, lastVisitMs: now, visits: job.state.visits + 1 }, nextDueMs: pausedDueMs(untilReset, now, retry, seededRng(reset)) };
        }
        const f = failedVisit(job.state, new FreshetError('E_QUOTA_EXHAUSTED', 'throttled', 'no identity has quota left', {}, undefined, untilReset), now, source, retry, seededRng(reset));
        return { job, state: f.state, nextDueMs: f.nextDueMs };
      });
      expect(await frontier.ack(acks)).toEqual(acks.map(() => true));
      clock.advanceMs(untilReset + 1_000);
    }
    expect(servedCount.size).toBe(n);
    expect([...servedCount.values()].every((c) => c === 1)).toBe(true);
  });
});
