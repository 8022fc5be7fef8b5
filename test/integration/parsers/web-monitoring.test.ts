import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createMetrics } from '../../../src/core/metrics';
import { silentLogger } from '../../../src/core/logger';
import { seededRng } from '../../../src/core/rng';
import { loadPipeline, parsePipeline } from '../../../src/pipeline/load';
import { buildPipeline } from '../../../src/runner/build';
import { RedisFrontier } from '../../../src/sources/frontier/frontier';
import { decodeSubjectName } from '../../../src/sources/frontier/subject-name';
import { frontierOptions, type RedisFrontierConfig } from '../../../src/sources/redis-frontier';
import { indexName } from '../../../src/search/templates';
import type { SiteOptionsInput } from '../../../src/simsite';
import { frozenSimsite, MAPPINGS, PIPELINES } from '../../helpers/crawl';
import { useRedis, useSearch } from '../../helpers/services';

interface ArticleRow { id: number; url: string | null; status: string; versions: { text: string; modifiedMs: number }[] }
interface PageRow { url: string; kind: string }

/**
 * web_pages over simsite's news site as real portals serve it: noisy links (tracking parameters,
 * session ids, AMP copies, dot segments) and traps (an endless calendar, facets, a repeating
 * path). Links are followed broadly (`a[href]` under /news/), as a crawler without site rules does.
 */
/** Everything under /news/ but the author and tag links of the article template, which simsite does not serve. */
const LINKS = '/news/(?!author/|tag/)';

function pipeline(url: string, name: string, seeds: string[], parseExtra = '', stagesExtra = '', sinkExtra = '', fetchExtra = ''): ReturnType<typeof parsePipeline> {
  return parsePipeline(`name: ${name}
seeds: ${JSON.stringify(seeds)}
source: { type: redis_frontier, max_in_flight: 32, poll_interval_ms: 50 }
fetch: { type: http_fetch, allow_private_networks: true, respect_robots: false, connections_per_origin: 16${fetchExtra} }
parse:
  type: web_pages
  max_depth: 50
  max_pages_per_visit: 1
  rules:
    - name: article
      match: { regex: ['/news/(amp/)?(\\d{4}/\\d{2}/)?\\d+\\.html'] }
      page_document: true
      links: { selector: 'a[href]', regex: '${LINKS}' }
    - name: listing
      match: { prefix: ['${url}/news/'] }
      links: { selector: 'a[href]', regex: '${LINKS}' }
${parseExtra}
stages:
  - { type: text_density, min_chars: 20 }
${stagesExtra}
sink: { type: elasticsearch, replicas: 0, flush_interval_ms: 200${sinkExtra} }
schedule: { type: fixed_interval, interval_secs: 86400 }
`, `${name}.yaml`);
}

async function crawl(label: string, news: SiteOptionsInput['news'], parseExtra = '') {
  const r = await useRedis(label);
  const s = await useSearch(label);
  const site = await frozenSimsite(200, 11, { sites: { news } });
  try {
    const config = pipeline(site.url, label, [`web:page:${site.url}/news/`], parseExtra);
    const metrics = createMetrics();
    const built = await buildPipeline(config, {
      redis: r.redis, search: s.client, indexPrefix: s.prefix, mappingsDir: MAPPINGS, clock: site.frozen, rng: seededRng(1),
      logger: silentLogger, metrics, sleep: (ms) => sleep(ms), namespace: `${r.prefix}:${label}`,
    });
    let summary;
    try {
      summary = await built.runner.run({ untilIdle: true });
    } finally {
      await built.close();
    }
    const index = indexName(s.prefix, 'pages');
    await s.client.indices.refresh({ index });
    const res = await s.client.search<{ url: string; text: string }>({ index, size: 5000 });
    const articles = (await (await fetch(`${site.url}/_truth/news/articles`)).json()) as ArticleRow[];
    const pages = (await (await fetch(`${site.url}/_truth/news/pages`)).json()) as PageRow[];
    const fetched = site.requestLog.entries().length;
    const refused = (await metrics.drops.get()).values.filter((v) => v.labels['stage'] === 'trap_guard');
    return { summary, docs: res.hits.hits.map((h) => h._source!), articles, pages, fetched, refused };
  } finally {
    await site.close();
    await r.cleanup();
    await s.cleanup();
  }
}

const path = (u: string): string => {
  const x = new URL(u);
  return x.pathname + x.search;
};

describe('web_pages over a noisy, trapped news site', () => {
  it('indexes every article once under its one URL across tracking parameters, session ids, AMP copies and dot segments', async () => {
    const { docs, articles, summary } = await crawl('web-noise', { trackingLinks: true, sessionIds: 'path' });
    expect(summary.jobsFailed).toBe(0);
    const live = articles.filter((a) => a.status !== 'deleted');
    const byUrl = new Map<string, number>();
    for (const d of docs) byUrl.set(path(d.url), (byUrl.get(path(d.url)) ?? 0) + 1);
    expect([...byUrl.values()].every((n) => n === 1)).toBe(true);
    expect([...byUrl.keys()].sort()).toEqual(live.map((a) => a.url!).sort());
  }, 240_000);

  it('ends by itself on the trap site, having fetched at most 1.05 times the real pages, every article captured', async () => {
    const { docs, articles, pages, fetched, refused } = await crawl('web-traps', { traps: true });
    // Each refusal counted with its reason.
    const reasons = new Set(refused.map((v) => v.labels['reason']));
    for (const r of ['repeated_segment', 'calendar_dates', 'query_name_sets']) expect(reasons).toContain(r);
    const real = pages.filter((p) => p.kind === 'index' || p.kind === 'section' || p.kind === 'article').length;
    expect([...new Set(docs.map((d) => path(d.url)))].sort()).toEqual(articles.map((a) => a.url!).sort());
    expect(fetched).toBeLessThanOrEqual(Math.floor(1.05 * real));
  }, 240_000);

  it('revisits unchanged articles with conditional GETs answered 304 and not re-indexed; edited ones keep their earlier version', async () => {
    const label = 'web-revisit';
    const r = await useRedis(label);
    const s = await useSearch(label);
    const site = await frozenSimsite(200, 11, { sites: { news: { validators: true, editShare: 0.3 } } });
    try {
      const config = pipeline(site.url, label, [`web:page:${site.url}/news/`], '', '  - { type: content_signature }', ', versioned_indices: [pages]');
      const deps = {
        redis: r.redis, search: s.client, indexPrefix: s.prefix, mappingsDir: MAPPINGS, clock: site.frozen, rng: seededRng(1),
        logger: silentLogger, metrics: createMetrics(), sleep: (ms: number) => sleep(ms), namespace: `${r.prefix}:${label}`,
      };
      const truth = async (): Promise<ArticleRow[]> => (await (await fetch(`${site.url}/_truth/news/articles`)).json()) as ArticleRow[];
      const first = await buildPipeline(config, deps);
      await first.runner.run({ untilIdle: true });
      await first.close();
      // What the restart below starts from is only what Redis holds: coded names, and for each
      // article its strong ETag alone (no Last-Modified beside it; issue 20).
      const ns = deps.namespace;
      expect(await r.redis.hget(`${ns}:{${ns}:s0}:n`, 'names')).toBe('compact');
      const stored = await new RedisFrontier(r.redis, frontierOptions(config.source as RedisFrontierConfig, ns), site.frozen).allEntries();
      const articleStates = stored.filter((e) => /\/news\/\d+\.html$/.test(e.subject));
      expect(articleStates.length).toBeGreaterThan(300);
      for (const e of articleStates) expect(e.state.meta?.['v']).toMatch(/^\|"[^"]+"$/);
      const fields = (await Promise.all((await r.redis.keys(`${ns}:*:b:*`)).map((k) => r.redis.hkeysBuffer(k)))).flat();
      expect(fields.map((f) => decodeSubjectName(f)).sort()).toEqual(stored.map((e) => e.subject).sort());
      expect(fields.every((f) => f[0]! < 0x20 && f.length < Buffer.byteLength(decodeSubjectName(f)))).toBe(true);
      const beforeRows = new Map((await truth()).map((a) => [a.url!, a]));
      const before = new Map([...beforeRows].map(([u, a]) => [u, a.versions.length]));
      const t1 = site.frozen.nowMs();
      site.frozen.advanceMs(86_400_000 + 1000);
      const second = await buildPipeline({ ...config, seeds: [] }, deps);
      const summary = await second.runner.run({ untilIdle: true });
      await second.close();
      const after = new Map((await truth()).map((a) => [a.url!, a]));
      const revisits = site.requestLog.entries().filter((e) => e.simMs > t1 && before.has(e.url));
      const unchanged = revisits.filter((e) => after.get(e.url)!.versions.length === before.get(e.url));
      const edited = revisits.filter((e) => after.get(e.url)!.versions.length > before.get(e.url)!);
      expect(unchanged.length).toBeGreaterThan(300);
      expect(edited.length).toBeGreaterThan(0);
      expect(unchanged.filter((e) => e.status === 304).length / unchanged.length).toBeGreaterThanOrEqual(0.95);
      expect(edited.every((e) => e.status === 200)).toBe(true);
      expect(summary.jobsFailed).toBe(0);
      // The 304s are counted, with the bytes they saved.
      const counted = (await deps.metrics.notModified.get()).values[0]!.value;
      expect(counted).toBe(site.requestLog.entries().filter((e) => e.simMs > t1 && e.status === 304).length);
      expect((await deps.metrics.notModifiedBytes.get()).values[0]!.value).toBeGreaterThan(counted * 10_000);
      // Edited articles carry their latest text; the 304s added no documents.
      const index = indexName(s.prefix, 'pages');
      await s.client.indices.refresh({ index });
      type Versioned = { url: string; title: string; lang: string; text: string; modified_at: string; versions?: { text: string; modified_at: string }[] };
      const res = await s.client.search<Versioned>({ index, size: 5000, version: true });
      const words = (t: string) => t.replace(/\s+/g, ' ').trim();
      // A Chinese story's text begins with its headline (extractors/cjk-headline.ts); the truth holds the body.
      const story = (d: { title: string; lang: string }, body: string): string => words(d.lang === 'zh' ? `${d.title} ${body}` : body);
      const editedUrls = new Set(edited.map((e) => e.url));
      let kept = 0;
      for (const h of res.hits.hits) {
        const d = h._source!;
        const a = after.get(path(d.url))!;
        const latest = a.versions[a.versions.length - 1]!;
        expect(d.title.length).toBeGreaterThan(0);
        expect(words(d.text)).toBe(story(d, latest.text));
        expect(Date.parse(d.modified_at)).toBe(latest.modifiedMs);
        if (!editedUrls.has(path(d.url))) {
          // Never re-written: a 304, or a 200 whose text kept its signature (a noop).
          expect(h._version).toBe(1);
          continue;
        }
        const prev = beforeRows.get(path(d.url))!.versions;
        const was = prev[prev.length - 1]!;
        expect(words(d.versions![0]!.text)).toBe(story(d, was.text));
        expect(Date.parse(d.versions![0]!.modified_at)).toBe(was.modifiedMs);
        kept += 1;
      }
      expect(kept).toBe(editedUrls.size);
    } finally {
      await site.close();
      await r.cleanup();
      await s.cleanup();
    }
  }, 240_000);

  it('marks deleted articles (two 404/410 a grace period apart) and moved ones (301), with no false mark while 5xx and timeouts are injected', async () => {
    const label = 'web-gone';
    const r = await useRedis(label);
    const s = await useSearch(label);
    const site = await frozenSimsite(200, 11, {
      sites: { news: { validators: true, editShare: 0.2, deleteShare: 0.15, moveShare: 0.1 } },
      faults: { seed: 3, serverErrors: { rate: 0.1, burstLength: 1 }, timeouts: { rate: 0.03, holdMs: 3000 } },
    });
    try {
      const config = pipeline(site.url, label, [`web:page:${site.url}/news/`], '  mark_gone: true\n  deletion_grace_secs: 3600', '  - { type: content_signature }',
        ', versioned_indices: [pages]', ', headers_timeout_ms: 1000, body_timeout_ms: 1000, total_timeout_ms: 2000, retry: { max_attempts: 1 }');
      const deps = {
        redis: r.redis, search: s.client, indexPrefix: s.prefix, mappingsDir: MAPPINGS, clock: site.frozen, rng: seededRng(1),
        logger: silentLogger, metrics: createMetrics(), sleep: (ms: number) => sleep(ms), namespace: `${r.prefix}:${label}`,
      };
      for (let round = 0; round < 4; round++) {
        if (round > 0) site.frozen.advanceMs(86_400_000 + 1000);
        const built = await buildPipeline({ ...config, seeds: round === 0 ? config.seeds : [] }, deps);
        await built.runner.run({ untilIdle: true });
        await built.close();
      }
      const truth = new Map(((await (await fetch(`${site.url}/_truth/news/articles`)).json()) as (ArticleRow & { originalUrl: string; deletedMs?: number; movedMs?: number })[]).map((a) => [a.originalUrl, a]));
      const index = indexName(s.prefix, 'pages');
      await s.client.indices.refresh({ index });
      type Page = { url: string; status?: string; first_missing_at?: string; moved_to?: string };
      const res = await s.client.search<Page>({ index, size: 5000 });
      const marked = res.hits.hits.map((h) => h._source!).filter((d) => d.status !== undefined);
      const deleted = marked.filter((d) => d.status === 'deleted');
      const moved = marked.filter((d) => d.status === 'moved');
      expect(site.requestLog.entries().filter((e) => e.fault !== null).length).toBeGreaterThan(20);
      expect(deleted.length).toBeGreaterThan(0);
      expect(moved.length).toBeGreaterThan(0);
      for (const d of deleted) {
        const a = truth.get(path(d.url))!;
        expect(a.status).toBe('deleted');
        expect(a.deletedMs!).toBeLessThanOrEqual(Date.parse(d.first_missing_at!));
      }
      for (const d of moved) {
        const a = truth.get(path(d.url))!;
        expect(a.status).toBe('moved');
        expect(path(d.moved_to!)).toBe(a.url);
      }
    } finally {
      await site.close();
      await r.cleanup();
      await s.cleanup();
    }
  }, 300_000);

  it('pipelines/news-monitor.yaml finds every article through robots.txt, the sitemap index and the gzipped monthly sitemaps', async () => {
    const label = 'web-sitemaps';
    const r = await useRedis(label);
    const s = await useSearch(label);
    const site = await frozenSimsite(200, 11, { sites: { news: { announceSitemaps: true } } });
    try {
      // The shipped file, as a user runs it.
      const config = loadPipeline(join(PIPELINES, 'news-monitor.yaml'), { SIMSITE_URL: site.url });
      const built = await buildPipeline(config, {
        redis: r.redis, search: s.client, indexPrefix: s.prefix, mappingsDir: MAPPINGS, clock: site.frozen, rng: seededRng(1),
        logger: silentLogger, metrics: createMetrics(), sleep: (ms) => sleep(ms), namespace: `${r.prefix}:${label}`,
      });
      const summary = await built.runner.run({ untilIdle: true });
      await built.close();
      expect(summary.jobsFailed).toBe(0);
      const fetched = site.requestLog.entries().map((e) => e.url);
      expect(fetched.filter((u) => /\.xml\.gz$/.test(u)).length).toBeGreaterThanOrEqual(1);
      // One robots.txt request serves both the robots rules and the Sitemap: lines (within the cache's TTL).
      expect(fetched.filter((u) => u === '/robots.txt')).toHaveLength(1);
      const index = indexName(s.prefix, 'pages');
      await s.client.indices.refresh({ index });
      const res = await s.client.search<{ url: string }>({ index, size: 5000 });
      const live = ((await (await fetch(`${site.url}/_truth/news/articles`)).json()) as ArticleRow[]).filter((a) => a.status !== 'deleted');
      expect(res.hits.hits.map((h) => path(h._source!.url)).sort()).toEqual(live.map((a) => a.url!).sort());
    } finally {
      await site.close();
      await r.cleanup();
      await s.cleanup();
    }
  }, 240_000);

  it('revisits exactly the articles a sitemap says changed (lastmod), and keeps their new versions', async () => {
    const label = 'web-lastmod';
    const r = await useRedis(label);
    const s = await useSearch(label);
    const site = await frozenSimsite(200, 11, { sites: { news: { announceSitemaps: true, validators: true, editShare: 0.5 } } });
    try {
      const shipped = loadPipeline(join(PIPELINES, 'news-monitor.yaml'), { SIMSITE_URL: site.url });
      // Daily revisits of everything: only the sitemaps' word brings a page back sooner.
      const config = { ...shipped, schedule: { type: 'fixed_interval' as const, interval_secs: 86_400 } };
      const deps = {
        redis: r.redis, search: s.client, indexPrefix: s.prefix, mappingsDir: MAPPINGS, clock: site.frozen, rng: seededRng(1),
        logger: silentLogger, metrics: createMetrics(), sleep: (ms: number) => sleep(ms), namespace: `${r.prefix}:${label}`,
      };
      const truth = async (): Promise<ArticleRow[]> => (await (await fetch(`${site.url}/_truth/news/articles`)).json()) as ArticleRow[];
      const first = await buildPipeline(config, deps);
      await first.runner.run({ untilIdle: true });
      const before = new Map((await truth()).map((a) => [a.url!, a.versions.length]));
      const t1 = site.frozen.nowMs();
      site.frozen.advanceMs(8 * 3_600_000);
      // The sitemap index comes due (as its own schedule would have it); nothing else is due yet.
      expect(await first.frontier.reschedule([`web:sitemap:${site.url}/sitemap.xml`], site.frozen.nowMs())).toBe(1);
      await first.close();
      const second = await buildPipeline({ ...config, seeds: [] }, deps);
      await second.runner.run({ untilIdle: true });
      await second.close();
      const after = await truth();
      const edited = after.filter((a) => before.has(a.url!) && a.versions.length > before.get(a.url!)!).map((a) => a.url!);
      // Articles known before (new ones are found through the sitemaps too, and read once).
      const fetched = new Set(site.requestLog.entries().filter((e) => e.simMs > t1 && before.has(e.url)).map((e) => e.url));
      expect(edited.length).toBeGreaterThan(2);
      expect([...fetched].sort()).toEqual([...edited].sort());
      const index = indexName(s.prefix, 'pages');
      await s.client.indices.refresh({ index });
      const res = await s.client.search<{ url: string; title: string; lang: string; text: string; versions?: { text: string }[] }>({ index, size: 5000 });
      const byUrl = new Map(res.hits.hits.map((h) => [path(h._source!.url), h._source!]));
      const words = (t: string) => t.replace(/\s+/g, ' ').trim();
      // A Chinese story's text begins with its headline (extractors/cjk-headline.ts); the truth holds the body.
      const story = (d: { title: string; lang: string }, body: string): string => words(d.lang === 'zh' ? `${d.title} ${body}` : body);
      for (const a of after.filter((x) => edited.includes(x.url!))) {
        const d = byUrl.get(a.url!)!;
        expect(d.title.length).toBeGreaterThan(0);
        expect(words(d.text)).toBe(story(d, a.versions[a.versions.length - 1]!.text));
        expect(d.versions!.length).toBeGreaterThan(0);
      }
    } finally {
      await site.close();
      await r.cleanup();
      await s.cleanup();
    }
  }, 240_000);
});
