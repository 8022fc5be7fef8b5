import { setTimeout as sleep } from 'node:timers/promises';
import { ManualClock } from '../../../src/core/clock';
import { newSubjectState } from '../../../src/core/envelope';
import { silentLogger } from '../../../src/core/logger';
import { createMetrics } from '../../../src/core/metrics';
import { seededRng } from '../../../src/core/rng';
import type { PipelineConfig } from '../../../src/pipeline/schema';
import { buildPipeline } from '../../../src/runner/build';
import { FrontierCounts } from '../../../src/sources/frontier/counts';
import { RedisFrontier } from '../../../src/sources/frontier/frontier';
import { frozenSimsite, MAPPINGS, pipelineFor } from '../../helpers/crawl';
import { useRedis, useSearch, type TestRedis, type TestSearch } from '../../helpers/services';

const DAY_MS = 86_400_000;

/**
 * A zombie (fewer than min_followers when discovered) is recorded unscheduled; when a later fans
 * list shows it at or above the threshold it should be promoted: scheduled, visited, indexed.
 * simsite's follower counts are fixed, so the second crawl lowers the threshold instead.
 */
describe('zombie users re-listed above min_followers', () => {
  let r: TestRedis;
  let s: TestSearch;
  let site: Awaited<ReturnType<typeof frozenSimsite>>;
  let zombieUids: string[] = [];
  let firstRun: { frontier: RedisFrontier; profiles: Set<string>; fansPages: number };
  let secondRun: { frontier: RedisFrontier; profiles: Set<string>; fansPages: number };
  const states: Record<string, unknown>[] = [];

  beforeAll(async () => {
    r = await useRedis('zombie-promo');
    s = await useSearch('zombie-promo');
    site = await frozenSimsite(200, 31);
    const w = site.world;
    // A seed whose first fans page holds fans on both sides of a threshold.
    const firstPage = (i: number) => [...w.fansOf(i)].slice(0, 20);
    let seed = -1;
    let threshold = 0;
    for (const u of w.users) {
      const counts = firstPage(u.index).map((f) => w.followersCount(f)).sort((a, b) => a - b);
      if (counts.length < 20 || u.zombie) continue;
      const t = counts[10]!;
      if (counts.filter((c) => c < t).length >= 3 && counts.filter((c) => c >= t).length >= 3) {
        seed = u.index;
        threshold = t;
        break;
      }
    }
    if (seed < 0) throw new Error('no seed with fans on both sides of a threshold');
    zombieUids = firstPage(seed).filter((f) => w.followersCount(f) < threshold).map((f) => String(w.users[f]!.uid));
    const base = pipelineFor(site, 'zombie-promo', [`weibo:user:${w.users[seed]!.uid}`]);
    if (base.parse.type !== 'weibo_api') throw new Error('pipelineFor gives a weibo_api pipeline');
    // The seed and its first fans page only: max_users stops discovery there.
    const parse = { ...base.parse, discover_fans: true, fans_page_limit: 1, fans_every_visits: 1, max_users: 21, min_followers: threshold };
    const run = async (config: PipelineConfig) => {
      const mark = site.requestLog.entries().length;
      const built = await buildPipeline(config, {
        redis: r.redis, search: s.client, indexPrefix: s.prefix, mappingsDir: MAPPINGS, clock: site.frozen, rng: seededRng(1),
        logger: silentLogger, metrics: createMetrics(), sleep: (ms) => sleep(ms), namespace: `${r.prefix}:frontier`,
      });
      await built.runner.run({ untilIdle: true });
      await built.close();
      const log = site.requestLog.entries().slice(mark);
      const fansPages = log.filter((e) => e.url.includes(`231051_-_fans_-_${w.users[seed]!.uid}`)).length;
      const profiles = new Set(log.map((e) => /containerid=100505(\d+)/.exec(e.url)?.[1]).filter((x): x is string => x !== undefined));
      return { frontier: built.frontier, profiles, fansPages };
    };
    firstRun = await run({ ...base, parse });
    for (const uid of zombieUids) states.push({ uid, ...(await firstRun.frontier.getState(`weibo:user:${uid}`)), due: await firstRun.frontier.nextDue(`weibo:user:${uid}`) });
    // A day later the seed is visited again and its fans list read again.
    site.frozen.advanceMs(DAY_MS + 1000);
    secondRun = await run({ ...base, seeds: [], parse: { ...parse, max_users: 41, min_followers: 0 } });
  });

  afterAll(async () => {
    await site.close();
    await s.cleanup();
    await r.cleanup();
  });

  it('are recorded as zombies, unscheduled and never fetched, on the first crawl', () => {
    expect(zombieUids.length).toBeGreaterThanOrEqual(3);
    for (const st of states) expect(st).toMatchObject({ status: 'zombie', visits: 0, due: undefined });
    expect(zombieUids.some((uid) => firstRun.profiles.has(uid))).toBe(false);
    // The second crawl did re-read the seed's fans list (so the zombies were offered again).
    expect(secondRun.fansPages).toBe(1);
  });

  // The frontier's offer promotes a recorded zombie offered again with a due time.
  it('are promoted when a later fans list shows them at or above the threshold: active, visited once', async () => {
    for (const uid of zombieUids) {
      expect(await secondRun.frontier.getState(`weibo:user:${uid}`)).toMatchObject({ status: 'active', visits: 1 });
      expect(secondRun.profiles.has(uid)).toBe(true);
    }
  });
});

describe('the frontier offer and zombies', () => {
  it('promotes only a recorded zombie offered with a due time; leaves leased and scheduled subjects as they are', async () => {
    const t = await useRedis('zombie-offer');
    try {
      const clock = new ManualClock(1_000_000);
      const opts = { namespace: `${t.prefix}f`, shards: 2, leaseMs: 10_000, bloomCapacity: 1000, bloomFalsePositiveRate: 0.01, deadLetterMaxLen: 10 };
      const f = new RedisFrontier(t.redis, opts, clock);
      const zombie = { ...newSubjectState(1000, { status: 'zombie', followers: 3, depth: 2 }) };
      const active = { ...newSubjectState(2000, { followers: 30, depth: 1 }) };
      expect(await f.record([{ subject: 'weibo:user:z', state: zombie }])).toBe(1);
      expect(await f.offer([{ subject: 'weibo:user:s', state: { ...active, visits: 2 } }], 5_000_000)).toBe(1);
      expect(await f.offer([{ subject: 'weibo:user:l', state: { ...active, visits: 7 } }], 0)).toBe(1);
      const [leased] = await f.claim(1);
      expect(leased!.subject).toBe('weibo:user:l');
      // Recording the zombie again changes nothing; offering it to visit promotes it (not a new subject).
      expect(await f.record([{ subject: 'weibo:user:z', state: zombie }])).toBe(0);
      expect(await f.nextDue('weibo:user:z')).toBeUndefined();
      expect(await f.offer(['z', 's', 'l'].map((x) => ({ subject: `weibo:user:${x}`, state: active })), 1_200_000)).toBe(0);
      expect(await f.getState('weibo:user:z')).toEqual(active);
      expect(await f.nextDue('weibo:user:z')).toBe(1_200_000);
      // A scheduled subject keeps its state and due time; a leased one stays leased and unchanged.
      expect(await f.getState('weibo:user:s')).toEqual({ ...active, visits: 2 });
      expect(await f.nextDue('weibo:user:s')).toBe(5_000_000);
      expect(await f.nextDue('weibo:user:l')).toBeUndefined();
      expect(await f.getState('weibo:user:l')).toEqual({ ...active, visits: 7 });
      expect(await new FrontierCounts(t.redis, opts, clock).stats()).toMatchObject({ subjects: 3, due: 2, leased: 1 });
    } finally {
      await t.cleanup();
    }
  });
});
