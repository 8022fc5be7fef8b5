import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@elastic/elasticsearch';
import { silentLogger } from '../../../src/core/logger';
import { createMetrics } from '../../../src/core/metrics';
import { seededRng } from '../../../src/core/rng';
import type { PipelineConfig } from '../../../src/pipeline/schema';
import { buildPipeline, type BuiltPipeline } from '../../../src/runner/build';
import type { RunSummary } from '../../../src/runner/types';
import { indexName } from '../../../src/search/templates';
import { findPostByMid, truthComments, truthPostsOf, type Era } from '../../../src/simsite';
import { frozenSimsite, MAPPINGS, pipelineFor } from '../../helpers/crawl';
import { useRedis, useSearch, type TestRedis, type TestSearch } from '../../helpers/services';
import { expectedPost, pickPost } from '../../helpers/weibo-truth';

type Site = Awaited<ReturnType<typeof frozenSimsite>>;
interface Indexed { body: Record<string, unknown>; version: number }

const MAX_USERS = 150;
const MAX_IN_FLIGHT = 32;
const DAY_MS = 86_400_000;

async function allDocs(search: Client, index: string): Promise<Map<string, Indexed>> {
  await search.indices.refresh({ index });
  const out = new Map<string, Indexed>();
  let res = await search.search<Record<string, unknown>>({ index, size: 2000, version: true, scroll: '1m', sort: ['_doc'] });
  while (res.hits.hits.length > 0) {
    for (const h of res.hits.hits) out.set(h._id!, { body: h._source!, version: h._version ?? 0 });
    res = await search.scroll<Record<string, unknown>>({ scroll_id: res._scroll_id!, scroll: '1m' });
  }
  return out;
}

/** The simsite clock is the runner's clock too: relative dates are read against the site's "now". */
async function crawl(site: Site, config: PipelineConfig, r: TestRedis, s: TestSearch): Promise<{ built: BuiltPipeline; summary: RunSummary }> {
  const built = await buildPipeline(config, {
    redis: r.redis, search: s.client, indexPrefix: s.prefix, mappingsDir: MAPPINGS, clock: site.frozen, rng: seededRng(1),
    logger: silentLogger, metrics: createMetrics(), sleep: (ms) => sleep(ms), namespace: `${r.prefix}:frontier`,
  });
  const summary = await built.runner.run({ untilIdle: true });
  await built.close();
  return { built, summary };
}

describe.each([['modern2022'], ['classic2019']] as [Era][])('social crawl from 5 seeds (%s)', (era) => {
  let r: TestRedis;
  let s: TestSearch;
  let site: Site;
  let config: PipelineConfig;
  const firstVisitMs = new Map<string, number>();

  beforeAll(async () => {
    r = await useRedis(`social-${era}`);
    s = await useSearch(`social-${era}`);
    site = await frozenSimsite(600, 31, { weibo: { era } });
    const seeds = site.world.users.filter((u) => !u.zombie && site.world.fansOf(u.index).length >= 20).slice(0, 5).map((u) => `weibo:user:${u.uid}`);
    const base = pipelineFor(site, `social-${era.slice(0, 6)}`, seeds);
    if (base.parse.type !== 'weibo_api') throw new Error('pipelineFor gives a weibo_api pipeline');
    config = {
      ...base,
      source: { ...base.source, max_in_flight: MAX_IN_FLIGHT },
      // One fans page (20) per user, so the cap is reached at depth 2 and the order shows.
      parse: { ...base.parse, discover_fans: true, fans_page_limit: 1, max_users: MAX_USERS, min_followers: 10 },
    };
  });
  afterAll(async () => {
    await site.close();
    await s.cleanup();
    await r.cleanup();
  });

  it('discovers breadth-first up to max_users, records zombies without visiting them, and indexes every post of every visited user as the truth says', async () => {
    const { built, summary } = await crawl(site, config, r, s);
    expect(summary.jobsFailed).toBe(0);
    expect(summary.documents.dead_lettered).toBe(0);

    const states = new Map<string, NonNullable<Awaited<ReturnType<typeof built.frontier.getState>>>>();
    const log = site.requestLog.entries();
    const profileOrder = log.map((e) => /containerid=100505(\d+)/.exec(e.url)?.[1]).filter((x): x is string => x !== undefined);
    const count = await built.counts.countSubjects();
    expect(count).toBeGreaterThanOrEqual(MAX_USERS);
    // A soft cap: visits running at once each see the same count before offering their fans.
    expect(count).toBeLessThanOrEqual(MAX_USERS + MAX_IN_FLIGHT * 20);

    // Every subject the frontier holds, by status; zombies have no due entry and were never fetched.
    const visited = new Set(profileOrder);
    const subjectsByUid = new Map<string, string>();
    for (const u of site.world.users) subjectsByUid.set(String(u.uid), `weibo:user:${u.uid}`);
    let zombies = 0;
    let active = 0;
    for (const [uid, subject] of subjectsByUid) {
      const st = await built.frontier.getState(subject);
      if (!st) continue;
      states.set(subject, st);
      if (st.status === 'zombie') {
        zombies += 1;
        expect(st.followers).toBeLessThan(10);
        expect(await built.frontier.nextDue(subject)).toBeUndefined();
        expect(visited.has(uid)).toBe(false);
      } else {
        active += 1;
        expect(visited.has(uid)).toBe(true);
        expect(st.visits).toBe(1);
      }
    }
    expect(zombies).toBeGreaterThan(0);
    expect(active).toBeGreaterThan(100);
    expect(summary.jobs).toBe(active);

    // Breadth-first: claims go by due score, i.e. by discovery time and level. A visit offers its
    // fans when it ends, so levels overlap by the visits in flight, but never skip one: no profile of
    // depth d+1 is fetched before the last of depth d-1.
    const depths = profileOrder.map((uid) => states.get(`weibo:user:${uid}`)!.depth ?? 0);
    expect(Math.max(...depths)).toBeGreaterThanOrEqual(2);
    for (let level = 1; level <= Math.max(...depths); level++) {
      const lastShallower = depths.lastIndexOf(level - 1);
      const firstDeeper = depths.indexOf(level + 1);
      if (firstDeeper >= 0) expect(firstDeeper).toBeGreaterThan(lastShallower);
    }

    // Completeness and normalisation against the ground truth, per visited user.
    const nowMs = site.frozen.nowMs();
    const posts = await allDocs(s.client, indexName(s.prefix, 'posts'));
    let expected = 0;
    let found = 0;
    const wrong: unknown[] = [];
    for (const uid of visited) {
      const u = site.world.userByUid(Number(uid))!;
      for (const t of truthPostsOf(site.world, u.index, site.world.historyStartMs, nowMs)) {
        expected += 1;
        const got = posts.get(`weibo:${t.id}`);
        if (!got) continue;
        found += 1;
        const want = expectedPost(site.world, era, t, nowMs);
        if (JSON.stringify(pickPost(got.body)) !== JSON.stringify(pickPost(want)) && wrong.length < 3) wrong.push({ got: pickPost(got.body), want });
      }
      firstVisitMs.set(uid, nowMs);
    }
    expect(expected).toBeGreaterThan(3000);
    expect(found / expected).toBeGreaterThanOrEqual(0.999);
    expect(found).toBe(expected);
    expect(wrong).toEqual([]);
    expect(posts.size).toBe(expected); // nothing from unvisited users
    expect([...posts.values()].filter((d) => d.version !== 1)).toEqual([]);

    const users = await allDocs(s.client, indexName(s.prefix, 'users'));
    const zombieDocs = [...users.values()].filter((d) => d.body['status'] === 'zombie');
    expect(zombieDocs.length).toBe(zombies);
    expect(users.size).toBe(active + zombies);
  });

  it('a later visit after new posts fetches only the new pages and indexes only the new posts', async () => {
    const before = await allDocs(s.client, indexName(s.prefix, 'posts'));
    const t0 = site.frozen.nowMs();
    site.frozen.advanceMs(DAY_MS + 60_000); // fixed_interval: every visited user is due again
    const logStart = site.requestLog.entries().length;
    const { summary } = await crawl(site, { ...config, seeds: [] }, r, s);
    expect(summary.jobsFailed).toBe(0);
    const log = site.requestLog.entries().slice(logStart).map((e) => e.url);
    // No profile (every 10th visit), no fans list (every 30th), no zombie.
    expect(log.filter((u) => u.includes('containerid=100505') || u.includes('_-_fans_-_'))).toEqual([]);

    const t1 = site.frozen.nowMs();
    const after = await allDocs(s.client, indexName(s.prefix, 'posts'));
    let newPosts = 0;
    let allowedPages = 0;
    let longs = 0;
    for (const uid of firstVisitMs.keys()) {
      const u = site.world.userByUid(Number(uid))!;
      const fresh = [...truthPostsOf(site.world, u.index, t0 + 1, t1)];
      newPosts += fresh.length;
      longs += fresh.filter((p) => p.isLong).length;
      // The new posts, the first known one (the stop signal) and a pinned post on page 1.
      allowedPages += Math.max(1, Math.ceil((fresh.length + 2) / 10));
      for (const t of fresh) {
        const got = after.get(`weibo:${t.id}`);
        expect(got && pickPost(got.body)).toEqual(pickPost(expectedPost(site.world, era, t, t1)));
      }
    }
    expect(newPosts).toBeGreaterThan(50);
    const timeline = log.filter((u) => /containerid=(107603|230413)/.test(u));
    expect(timeline.length).toBeLessThanOrEqual(allowedPages);
    expect(timeline.length).toBeGreaterThanOrEqual(firstVisitMs.size);
    expect(log.filter((u) => u.startsWith('/statuses/extend')).length).toBe(longs);
    expect(after.size).toBe(before.size + newPosts);
    // Old posts were not rewritten.
    expect([...after.entries()].filter(([id, d]) => before.has(id) && d.version !== 1)).toEqual([]);
  });
});

describe.each([['modern2022'], ['classic2019']] as [Era][])('social crawl with faults (5xx bursts, truncated JSON, 操作过于频繁 bodies) (%s)', (era) => {
  it('ends complete after running until idle and advancing the clock past the backoffs', async () => {
    const r = await useRedis(`social-faults-${era}`);
    const s = await useSearch(`social-faults-${era}`);
    const site = await frozenSimsite(400, 32, { weibo: { era }, faults: { seed: 3, serverErrors: { rate: 0.03, burstLength: 3 }, truncated: { rate: 0.02 }, softErrors: { rate: 0.01, kinds: ['frequent'] } } });
    try {
      const seeds = site.world.users.filter((u) => !u.zombie && site.world.fansOf(u.index).length >= 20).slice(0, 5).map((u) => `weibo:user:${u.uid}`);
      const base = pipelineFor(site, `social-faults-${era.slice(0, 6)}`, seeds);
      if (base.parse.type !== 'weibo_api') throw new Error('pipelineFor gives a weibo_api pipeline');
      const config: PipelineConfig = {
        ...base,
        // No subject parked for a day after max_failures: the test advances the clock to each backoff.
        source: { ...base.source, max_failures: 20 },
        fetch: { ...base.fetch, retry: { ...base.fetch.retry, base_delay_ms: 20, max_delay_ms: 200 } },
        parse: { ...base.parse, discover_fans: true, fans_page_limit: 1, max_users: 80 },
      };
      let failed = 0;
      const pending = async (built: BuiltPipeline): Promise<number[]> => {
        const due: number[] = [];
        for (const u of site.world.users) {
          const subject = `weibo:user:${u.uid}`;
          const st = await built.frontier.getState(subject);
          // Not yet read, failed, or read in part (an unreadable page: the visit resumes at its gap soon).
          const partial = st?.meta?.['bad_pages'] !== undefined || st?.meta?.['gap_since'] !== undefined;
          if (st && st.status === 'active' && (st.visits === 0 || st.failures > 0 || partial)) due.push((await built.frontier.nextDue(subject))!);
        }
        return due;
      };
      let built: BuiltPipeline | undefined;
      for (let round = 0; round < 15; round++) {
        const run = await crawl(site, { ...config, seeds: round === 0 ? seeds : [] }, r, s);
        built = run.built;
        failed += run.summary.jobsFailed;
        const left = await pending(built);
        if (left.length === 0) break;
        site.frozen.advanceMs(Math.max(1, Math.min(...left) - site.frozen.nowMs()));
      }
      // The faults did bite, and the runner retried its way through them.
      expect(site.requestLog.entries().filter((e) => e.fault !== null).length).toBeGreaterThan(10);
      expect(site.requestLog.entries().some((e) => e.fault !== null && /soft/i.test(e.fault))).toBe(true);
      expect(failed).toBeGreaterThan(0);
      expect(await pending(built!)).toEqual([]);

      // Every post published before each user's last (successful) visit, with the fields shown by
      // one of the site's answers to that user (a visit cut short keeps what it read then: the
      // shown date is finer while a post is recent, counts move).
      const posts = await allDocs(s.client, indexName(s.prefix, 'posts'));
      const answeredAt = new Map<string, number[]>();
      for (const e of site.requestLog.entries()) {
        const m = /containerid=(?:107603|230413|100505|230283)(\d+)|[?&](?:uid|value)=(\d+)/.exec(e.url);
        const uid = m?.[1] ?? m?.[2];
        if (uid !== undefined && e.fault === null && e.status === 200) answeredAt.set(uid, [...(answeredAt.get(uid) ?? []), e.simMs]);
      }
      let expected = 0;
      const wrong: unknown[] = [];
      for (const u of site.world.users) {
        const st = await built!.frontier.getState(`weibo:user:${u.uid}`);
        if (!st || st.status !== 'active') continue;
        const times = [st.lastVisitMs!, ...new Set(answeredAt.get(String(u.uid)) ?? [])];
        for (const t of truthPostsOf(site.world, u.index, site.world.historyStartMs, st.lastVisitMs!)) {
          expected += 1;
          const got = posts.get(`weibo:${t.id}`);
          const shown = got && JSON.stringify(pickPost(got.body));
          const wants = times.filter((at) => at >= t.createdMs).map((at) => JSON.stringify(pickPost(expectedPost(site.world, era, t, at))));
          if ((!got || !wants.includes(shown!)) && wrong.length < 3) wrong.push({ got: got && pickPost(got.body), want: pickPost(expectedPost(site.world, era, t, st.lastVisitMs!)) });
        }
      }
      expect(expected).toBeGreaterThan(1500);
      expect(wrong).toEqual([]);
      expect(posts.size).toBe(expected);
    } finally {
      await site.close();
      await s.cleanup();
      await r.cleanup();
    }
  });
});

describe('comments in a real crawl', () => {
  it('indexes the hot flow of every post (replies included) through the enrichers into the comments index', async () => {
    const r = await useRedis('social-comments');
    const s = await useSearch('social-comments');
    const site = await frozenSimsite(40, 33);
    try {
      const seeds = site.world.users.slice(0, 12).map((u) => `weibo:user:${u.uid}`);
      const base = pipelineFor(site, 'social-comments', seeds, `stages:
  - { type: language }
  - { type: sentiment }
  - { type: keywords }
  - { type: simhash }`);
      if (base.parse.type !== 'weibo_api') throw new Error('pipelineFor gives a weibo_api pipeline');
      const { summary } = await crawl(site, { ...base, parse: { ...base.parse, comments: true, comments_page_limit: 2 } }, r, s);
      expect(summary.jobsFailed).toBe(0);
      expect(summary.documents.dead_lettered).toBe(0);
      const now = site.frozen.nowMs();
      let expected = 0;
      for (const u of site.world.users.slice(0, 12)) {
        for (const t of truthPostsOf(site.world, u.index, site.world.historyStartMs, now)) {
          const rows = truthComments(site.world, findPostByMid(site.world, t.id)!, now);
          const roots = rows.filter((c) => c['id'] === c['rootId']).slice(0, 40).map((c) => c['id']);
          expected += rows.filter((c) => roots.includes(c['rootId'])).length;
        }
      }
      const comments = await allDocs(s.client, indexName(s.prefix, 'comments'));
      expect(expected).toBeGreaterThan(20);
      expect(comments.size).toBe(expected);
      const sample = [...comments.values()][0]!.body;
      expect(sample).toMatchObject({ platform: 'weibo', lang: expect.any(String), sentiment: expect.any(Object) });
    } finally {
      await site.close();
      await s.cleanup();
      await r.cleanup();
    }
  });
});
