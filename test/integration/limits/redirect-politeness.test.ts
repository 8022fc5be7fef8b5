import { ManualClock } from '../../../src/core/clock';
import { ErrorCodes } from '../../../src/core/errors';
import { seededRng } from '../../../src/core/rng';
import { HttpFetcher, httpFetchConfigSchema } from '../../../src/fetchers/http-fetch';
import { OriginGate } from '../../../src/limits/origin-gate';
import { OriginPoliteness } from '../../../src/limits/origin-politeness';
import { startServer, type LocalServer } from '../../unit/fetchers/local-server';
import { useRedis, type TestRedis } from '../../helpers/services';

/** Issue 17: a redirect must not reach another origin around that origin's politeness (kept in Redis). */
describe('politeness on redirect hops (real Redis)', () => {
  let r: TestRedis;
  let target: LocalServer;
  let redirector: LocalServer;
  beforeAll(async () => {
    r = await useRedis('redirect-polite');
    target = await startServer((_req, res) => res.end('target'));
    redirector = await startServer((_req, res) => {
      res.writeHead(302, { location: target.url('/page') });
      res.end();
    });
  });
  afterAll(async () => {
    await target.close();
    await redirector.close();
    await r.cleanup();
  });

  it('takes the target origin\'s slot for the hop: a busy target is not requested, the subject is rescheduled', async () => {
    const clock = new ManualClock(1_000_000);
    const slots = new OriginPoliteness(r.redis, `${r.prefix}polite`, clock);
    const gate = (maxWaitMs: number) => new OriginGate(slots, { minDelayMs: 10_000, maxWaitMs, maxConcurrency: 0, holdMs: 60_000, sleep: async () => undefined });
    const fetcher = new HttpFetcher(httpFetchConfigSchema.parse({ allow_private_networks: true, respect_robots: false, retry: { max_attempts: 1 } }), {
      clock, rng: seededRng(1), politeness: gate(1000),
    });
    try {
      // Another worker just sent a request to the target: its next slot is 10 s away.
      const release = await gate(0).acquire(target.origin);
      expect(release).toBeUndefined(); // a minimum delay holds no concurrency slot
      const err = await fetcher.fetch({ url: redirector.url('/go') }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: ErrorCodes.fetchThrottled, kind: 'throttled' });
      expect(redirector.hits).toEqual(['/go']);
      expect(target.hits).toEqual([]);
      // Once the gap has passed the same redirect goes through, and the target's slot moves on.
      clock.advanceMs(10_000);
      const res = await fetcher.fetch({ url: redirector.url('/go') });
      expect(res.text).toBe('target');
      expect(target.hits).toEqual(['/page']);
      expect(await slots.reserve(target.origin, { minDelayMs: 10_000, maxWaitMs: 0, maxConcurrency: 0, holder: '', holdMs: 0 })).toEqual({ kind: 'too_far', waitMs: 10_000 });
    } finally {
      await fetcher.close();
    }
  });
});
