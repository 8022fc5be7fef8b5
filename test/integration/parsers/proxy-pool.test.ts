import { setTimeout as sleep } from 'node:timers/promises';
import { ManualClock } from '../../../src/core/clock';
import { recordingLogger } from '../../../src/core/logger';
import { createMetrics } from '../../../src/core/metrics';
import { seededRng } from '../../../src/core/rng';
import type { PipelineConfig } from '../../../src/pipeline/schema';
import { buildPipeline } from '../../../src/runner/build';
import { indexName } from '../../../src/search/templates';
import { TokenQuota } from '../../../src/limits/token-quota';
import { crawlUntilVisited, frozenSimsite, indexedPosts, MAPPINGS, pipelineFor, postsBeforeLastVisit } from '../../helpers/crawl';
import { httpForwardProxy, type HttpForwardProxy, type ProxyLogEntry } from '../../helpers/http-proxy';
import { useRedis, useSearch } from '../../helpers/services';

const QUOTA_PER_HOUR = 90;
const HOUR_MS = 3_600_000;
const MAX_IN_FLIGHT = 8;
const CREDS = [
  { user: 'px-user-a', pass: 'pa55-alpha-9f3' },
  { user: 'px-user-b', pass: 'pa55-bravo-7c1' },
  { user: 'px-user-c', pass: 'pa55-charlie-2d8' },
];

function maxPerWindow(log: ProxyLogEntry[]): number {
  const per = new Map<number, number>();
  for (const e of log) per.set(Math.floor(e.atMs / HOUR_MS), (per.get(Math.floor(e.atMs / HOUR_MS)) ?? 0) + 1);
  return Math.max(0, ...per.values());
}

describe('a pool of forward proxies with hourly quotas in Redis', () => {
  it('sends every request through a proxy, never over a quota, benches a refusing proxy, rotates away from a failing one, and leaks no credential', async () => {
    const r = await useRedis('proxy');
    const s = await useSearch('proxy');
    const site = await frozenSimsite(30, 41);
    const now = (): number => site.frozen.nowMs();
    const proxies: HttpForwardProxy[] = [
      // a: healthy throughout; b: its IP is banned after a few requests (403); c: dies (connections dropped).
      await httpForwardProxy({ nowMs: now, auth: CREDS[0]! }),
      await httpForwardProxy({ nowMs: now, auth: CREDS[1]!, failure: { after: 7, mode: 'refuse', status: 403 } }),
      await httpForwardProxy({ nowMs: now, auth: CREDS[2]!, failure: { after: 9, mode: 'drop' } }),
    ];
    const records = recordingLogger();
    const metrics = createMetrics();
    try {
      const seeds = site.world.users.map((u) => `weibo:user:${u.uid}`);
      const base = pipelineFor(site, 'proxy', seeds);
      const config: PipelineConfig = {
        ...base, source: { ...base.source, max_in_flight: MAX_IN_FLIGHT },
        proxies: {
          pool: 'test', urls: [], requests_per_window: QUOTA_PER_HOUR, window_secs: HOUR_MS / 1000, bench_secs: 30 * 24 * 3600, max_bench_secs: 60 * 24 * 3600,
          max_consecutive_failures: 2, failure_bench_secs: 30 * 24 * 3600, slow_ms: 2000, max_wait_ms: 0,
        },
      };
      const { visitedAll, frontier: lastFrontier } = await crawlUntilVisited(site, config, seeds, (round) => ({
        redis: r.redis, search: s.client, indexPrefix: s.prefix, mappingsDir: MAPPINGS, clock: site.frozen, rng: seededRng(round + 1),
        logger: records, metrics, sleep: (ms) => sleep(ms), namespace: `${r.prefix}:frontier`, proxyUrls: proxies.map((p) => p.authUrl),
      }));
      expect(visitedAll).toBe(true);

      // Every request the site saw came through a proxy that forwarded it (the proxies' own logs).
      const forwarded = proxies.flatMap((p) => p.log.filter((e) => e.outcome === 'forwarded'));
      expect(forwarded.length).toBe(site.requestLog.entries().length);
      expect(proxies.every((p) => p.log.some((e) => e.outcome === 'forwarded'))).toBe(true);
      // Credentials reached each proxy (no 407) and no request went around the pool.
      expect(proxies.flatMap((p) => p.log).some((e) => e.outcome === 'auth_failed')).toBe(false);

      // No proxy ever received more than its quota in a window, and the quota really bound.
      for (const p of proxies) expect(maxPerWindow(p.log)).toBeLessThanOrEqual(QUOTA_PER_HOUR);
      expect(maxPerWindow(proxies[0]!.log)).toBe(QUOTA_PER_HOUR);
      expect(new Set(proxies[0]!.log.map((e) => Math.floor(e.atMs / HOUR_MS))).size).toBeGreaterThan(1);

      // b was refused, benched at once (only requests already in flight followed) and never came back.
      const bLog = proxies[1]!.log;
      const firstRefusal = bLog.findIndex((e) => e.outcome === 'refused');
      expect(firstRefusal).toBeGreaterThanOrEqual(0);
      expect(bLog.length - firstRefusal).toBeLessThanOrEqual(MAX_IN_FLIGHT);
      // c failed: after max_consecutive_failures in a row it was benched; traffic went to the others.
      const cLog = proxies[2]!.log;
      const firstDrop = cLog.findIndex((e) => e.outcome === 'dropped');
      expect(firstDrop).toBeGreaterThanOrEqual(0);
      expect(cLog.length - firstDrop).toBeLessThanOrEqual(2 + MAX_IN_FLIGHT);
      const afterDrop = cLog[firstDrop]!.atMs;
      expect(proxies[0]!.log.filter((e) => e.atMs >= afterDrop).length).toBeGreaterThan(cLog.length - firstDrop);
      // The health scores say the same: the failing and the refusing proxy rank below the healthy one.
      const health = new Map((await metrics.registry.getSingleMetric('freshet_proxy_health')!.get()).values.map((v) => [String(v.labels['proxy']), v.value]));
      expect(health.get('2')!).toBeLessThan(health.get('0')!);
      expect(health.get('1')!).toBeLessThan(health.get('0')!);

      // The crawl is complete: every post published before each user's visit is indexed.
      const got = await indexedPosts(s.client, indexName(s.prefix, 'posts'));
      const expected = await postsBeforeLastVisit(site, lastFrontier!);
      for (const id of expected) expect(got.has(id)).toBe(true);
      expect(got.size).toBe(expected.length);

      // No credential anywhere: logs (every field), metrics, Redis, indexed documents.
      const secrets = CREDS.flatMap((c) => [c.pass, Buffer.from(`${c.user}:${c.pass}`).toString('base64')]);
      const logged = JSON.stringify(records.records);
      expect(records.records.some((x) => x.msg.includes('proxy'))).toBe(true);
      const exported = await metrics.registry.metrics();
      expect(exported).toContain('freshet_proxy_requests_total');
      const keys = await r.redis.keys(`${r.prefix}*`);
      const redisDump = JSON.stringify(await Promise.all(keys.map(async (k) => [k, (await r.redis.type(k)) === 'hash' ? await r.redis.hgetall(k) : ''])));
      await s.client.indices.refresh({ index: `${s.prefix}*` });
      const docs = JSON.stringify((await s.client.search({ index: `${s.prefix}*`, size: 2000 })).hits.hits);
      for (const secret of secrets) {
        for (const [where, text] of [['logs', logged], ['metrics', exported], ['redis', redisDump], ['documents', docs]] as const) {
          expect({ where, leaked: text.includes(secret) }).toEqual({ where, leaked: false });
        }
      }
    } finally {
      await Promise.all(proxies.map((p) => p.close()));
      await site.close();
      await s.cleanup();
      await r.cleanup();
    }
  });

  it('a proxy that rejects its credentials (407) is benched like a refusal, the wrong password never logged', async () => {
    const r = await useRedis('proxy-407');
    const s = await useSearch('proxy-407');
    const site = await frozenSimsite(6, 41);
    const now = (): number => site.frozen.nowMs();
    const good = await httpForwardProxy({ nowMs: now, auth: CREDS[0]! });
    const bad = await httpForwardProxy({ nowMs: now, auth: CREDS[1]! });
    const records = recordingLogger();
    try {
      const seeds = site.world.users.map((u) => `weibo:user:${u.uid}`);
      const base = pipelineFor(site, 'proxy-407', seeds);
      const wrong = bad.authUrl.replace(encodeURIComponent(CREDS[1]!.pass), 'wr0ng-pa55word');
      const built = await buildPipeline({
        ...base, source: { ...base.source, max_in_flight: 4 },
        proxies: { pool: 'auth', urls: [], requests_per_window: 10_000, window_secs: 3600, bench_secs: 3600, max_bench_secs: 3600, max_consecutive_failures: 3, failure_bench_secs: 60, slow_ms: 2000, max_wait_ms: 0 },
      }, {
        redis: r.redis, search: s.client, indexPrefix: s.prefix, mappingsDir: MAPPINGS, clock: site.frozen, rng: seededRng(7),
        logger: records, metrics: createMetrics(), sleep: (ms) => sleep(ms), namespace: `${r.prefix}:frontier`, proxyUrls: [good.authUrl, wrong],
      });
      await built.runner.run({ untilIdle: true });
      await built.close();
      // The proxy said 407 to everything it got; it got at most the requests in flight when first refused.
      expect(bad.log.length).toBeGreaterThan(0);
      expect(bad.log.every((e) => e.outcome === 'auth_failed')).toBe(true);
      expect(bad.log.length).toBeLessThanOrEqual(4);
      expect(good.log.filter((e) => e.outcome === 'forwarded').length).toBe(site.requestLog.entries().length);
      expect(records.records.some((x) => x.msg === 'proxy refused; benched' && (x.fields as Record<string, unknown>)['status'] === 407)).toBe(true);
      const logged = JSON.stringify(records.records);
      expect(logged).not.toContain('wr0ng-pa55word');
      expect(logged).not.toContain(Buffer.from(`${CREDS[1]!.user}:wr0ng-pa55word`).toString('base64'));
    } finally {
      await good.close();
      await bad.close();
      await site.close();
      await s.cleanup();
      await r.cleanup();
    }
  });

  it('the quota script takes the first identity of a given order that has quota left and is not benched', async () => {
    const r = await useRedis('proxy-order');
    try {
      const clock = new ManualClock(10 * HOUR_MS);
      const q = new TokenQuota(r.redis, { namespace: r.prefix, pool: 'proxy:p', size: 3, limitPerWindow: 2, windowMs: HOUR_MS }, clock);
      const taken = [];
      for (let i = 0; i < 3; i++) taken.push(await q.take([2, 0, 1]));
      expect(taken).toEqual([{ kind: 'taken', index: 2 }, { kind: 'taken', index: 2 }, { kind: 'taken', index: 0 }]);
      await q.bench(0, HOUR_MS);
      expect(await q.take([0, 1, 2])).toEqual({ kind: 'taken', index: 1 });
      expect(await q.take([0, 2, 1])).toEqual({ kind: 'taken', index: 1 });
      // 2 and 1 spent for this window, 0 benched for the whole of it: wait for the next window.
      expect(await q.take([0, 1, 2])).toEqual({ kind: 'wait', waitMs: HOUR_MS });
      await expect(q.take([0, 1])).rejects.toThrow(RangeError);
    } finally {
      await r.cleanup();
    }
  });

  it('a pipeline that declares proxies refuses to start without any', async () => {
    const r = await useRedis('proxy-none');
    try {
      const base = pipelineFor({ url: 'http://127.0.0.1:1' } as Parameters<typeof pipelineFor>[0], 'proxy-none', []);
      const config: PipelineConfig = {
        ...base, sink: { type: 'blackhole' },
        proxies: { pool: 'none', urls: [], requests_per_window: 1, window_secs: 1, bench_secs: 1, max_bench_secs: 1, max_consecutive_failures: 1, failure_bench_secs: 1, slow_ms: 1, max_wait_ms: 0 },
      };
      await expect(buildPipeline(config, {
        redis: r.redis, indexPrefix: 'x', mappingsDir: MAPPINGS, clock: new ManualClock(0), rng: seededRng(1),
        logger: recordingLogger(), metrics: createMetrics(), sleep: (ms) => sleep(ms), namespace: `${r.prefix}:frontier`,
      })).rejects.toMatchObject({ code: 'E_CONFIG_INVALID', kind: 'critical' });
    } finally {
      await r.cleanup();
    }
  });
});
