import { setTimeout as sleep } from 'node:timers/promises';
import { ManualClock } from '../../../src/core/clock';
import { silentLogger } from '../../../src/core/logger';
import { createMetrics } from '../../../src/core/metrics';
import { seededRng } from '../../../src/core/rng';
import type { PipelineConfig } from '../../../src/pipeline/schema';
import { buildPipeline } from '../../../src/runner/build';
import { indexName } from '../../../src/search/templates';
import { TokenQuota } from '../../../src/limits/token-quota';
import { crawlUntilVisited, frozenSimsite, indexedPosts, MAPPINGS, pipelineFor, postsBeforeLastVisit } from '../../helpers/crawl';
import { useRedis, useSearch } from '../../helpers/services';

const TOKENS = ['tok-a', 'tok-b', 'tok-c'];
const QUOTA_PER_HOUR = 40;
const HOUR_MS = 3_600_000;

describe('identities with hourly quotas in Redis', () => {
  it('never sends more than the quota per identity and window, benches a refused identity, and the crawl completes with the others', async () => {
    const r = await useRedis('quota');
    const s = await useSearch('quota');
    // tok-b is refused (418, the microblog's rate-limit answer) after a handful of requests.
    const site = await frozenSimsite(30, 41, { faults: { rateLimit: { requestsPerSec: 0.0001, burst: 6, status: 418 }, clients: ['SUB:tok-b'] } });
    try {
      const seeds = site.world.users.map((u) => `weibo:user:${u.uid}`);
      const base = pipelineFor(site, 'quota', seeds);
      const config: PipelineConfig = {
        ...base, source: { ...base.source, max_in_flight: 8 },
        identities: { pool: 'weibo', send_as: 'cookie_sub', requests_per_window: QUOTA_PER_HOUR, window_secs: HOUR_MS / 1000, bench_secs: 30 * 24 * 3600, max_wait_ms: 0 },
      };
      const { visitedAll, frontier: lastFrontier } = await crawlUntilVisited(site, config, seeds, () => ({
        redis: r.redis, search: s.client, indexPrefix: s.prefix, mappingsDir: MAPPINGS, clock: site.frozen, rng: seededRng(1),
        logger: silentLogger, metrics: createMetrics(), sleep: (ms) => sleep(ms), namespace: `${r.prefix}:frontier`, identityTokens: TOKENS,
      }), (summary) => {
        expect(summary.jobsFailed).toBe(0);
      });
      expect(visitedAll).toBe(true);

      const log = site.requestLog.entries();
      expect(new Set(log.map((e) => e.client))).toEqual(new Set(TOKENS.map((t) => `SUB:${t}`)));
      // No identity ever exceeds its quota in any window (counted by the site, not by freshet).
      const perWindow = new Map<string, number>();
      for (const e of log) {
        const k = `${e.client}|${Math.floor(e.simMs / HOUR_MS)}`;
        perWindow.set(k, (perWindow.get(k) ?? 0) + 1);
      }
      expect(Math.max(...perWindow.values())).toBe(QUOTA_PER_HOUR);
      // The quota really bound: the crawl needed more than one window.
      expect(new Set(log.map((e) => Math.floor(e.simMs / HOUR_MS))).size).toBeGreaterThan(1);
      // tok-b was refused, benched at once (only requests already in flight followed), and never came back.
      const b = log.filter((e) => e.client === 'SUB:tok-b');
      const firstRefusal = b.findIndex((e) => e.status === 418);
      expect(firstRefusal).toBeGreaterThanOrEqual(0);
      expect(b.length - firstRefusal).toBeLessThanOrEqual(8);

      // And the crawl is complete: every post published before each user's visit is indexed.
      const got = await indexedPosts(s.client, indexName(s.prefix, 'posts'));
      const expected = await postsBeforeLastVisit(site, lastFrontier!);
      for (const id of expected) expect(got.has(id)).toBe(true);
      expect(got.size).toBe(expected.length);
    } finally {
      await site.close();
      await s.cleanup();
      await r.cleanup();
    }
  });

  it('the quota script: round robin over the pool, a window resets, a bench skips an identity, all exhausted says how long to wait', async () => {
    const r = await useRedis('quota-script');
    try {
      const clock = new ManualClock(10 * HOUR_MS);
      const q = new TokenQuota(r.redis, { namespace: r.prefix, pool: 'p', size: 3, limitPerWindow: 2, windowMs: HOUR_MS }, clock);
      const taken = [];
      for (let i = 0; i < 6; i++) taken.push(await q.take());
      expect(taken.map((t) => (t.kind === 'taken' ? t.index : -1)).sort()).toEqual([0, 0, 1, 1, 2, 2]);
      clock.advanceMs(HOUR_MS / 4);
      expect(await q.take()).toEqual({ kind: 'wait', waitMs: (3 * HOUR_MS) / 4 });
      clock.advanceMs((3 * HOUR_MS) / 4);
      await q.bench(1, HOUR_MS / 2);
      const next = [];
      for (let i = 0; i < 4; i++) next.push(await q.take());
      expect(next.map((t) => (t.kind === 'taken' ? t.index : -1)).sort()).toEqual([0, 0, 2, 2]);
      // Only identity 1 is left, benched for half an hour more.
      expect(await q.take()).toEqual({ kind: 'wait', waitMs: HOUR_MS / 2 });
      clock.advanceMs(HOUR_MS / 2);
      expect(await q.take()).toEqual({ kind: 'taken', index: 1 });
    } finally {
      await r.cleanup();
    }
  });

  it('a pipeline that declares identities refuses to start without their tokens', async () => {
    const r = await useRedis('quota-none');
    try {
      const base = pipelineFor({ url: 'http://127.0.0.1:1' } as Parameters<typeof pipelineFor>[0], 'quota-none', []);
      const config: PipelineConfig = { ...base, sink: { type: 'blackhole' }, identities: { pool: 'weibo', send_as: 'bearer', requests_per_window: 1, window_secs: 1, bench_secs: 1, max_wait_ms: 0 } };
      await expect(buildPipeline(config, {
        redis: r.redis, indexPrefix: 'x', mappingsDir: MAPPINGS, clock: new ManualClock(0), rng: seededRng(1),
        logger: silentLogger, metrics: createMetrics(), sleep: (ms) => sleep(ms), namespace: `${r.prefix}:frontier`,
      })).rejects.toMatchObject({ code: 'E_CONFIG_INVALID', kind: 'critical' });
    } finally {
      await r.cleanup();
    }
  });
});
