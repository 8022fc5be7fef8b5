import { join } from 'node:path';
import { applyTemplates, indexName, loadTemplates } from '../../../src/search/templates';
import { parseSince, searchText } from '../../../src/cli/commands/search';
import { silentLogger } from '../../../src/core/logger';
import { apiRoutes, type ServeDeps } from '../../../src/cli/serve/routes';
import { startServe } from '../../../src/cli/serve/server';
import type { CrawlViews } from '../../../src/cli/serve/crawl-views';
import { useSearch, type TestSearch } from '../../helpers/services';

const MAPPINGS = join(__dirname, '..', '..', '..', 'mappings');
const DAY_MS = 86_400_000;
const NOW_MS = Date.parse('2026-04-10T12:00:00Z');

const posts = [
  { platform: 'weibo', id: '1', text: '地铁又晚点了，真让人生气', created_at: '2026-04-10T08:00:00Z', lang: 'zh', sentiment: { score: -0.9, label: 'negative' } },
  { platform: 'weibo', id: '2', text: '今天坐地铁很顺利，心情很好', created_at: '2026-04-09T08:00:00Z', lang: 'zh', sentiment: { score: 0.8, label: 'positive' } },
  { platform: 'weibo', id: '3', text: '去年的地铁新线终于开通了', created_at: '2026-03-01T08:00:00Z', lang: 'zh', sentiment: { score: 0.2, label: 'positive' } },
  { platform: 'twitter', id: '4', text: 'The subway was late again, so annoying', created_at: '2026-04-10T09:00:00Z', lang: 'en', sentiment: { score: -0.7, label: 'negative' } },
  { platform: 'weibo', id: '5', text: 'Took the subway downtown, smooth ride', created_at: '2026-04-10T10:00:00Z', lang: 'en', sentiment: { score: 0.6, label: 'positive' } },
];

describe('freshet search filters and highlights (real search node)', () => {
  let t: TestSearch;
  let index: string;

  beforeAll(async () => {
    t = await useSearch('search-filters');
    await applyTemplates(t.client, loadTemplates(MAPPINGS), { prefix: t.prefix, settings: { number_of_replicas: 0 } });
    index = indexName(t.prefix, 'posts');
    await t.client.helpers.bulk({ datasource: posts, onDocument: (d) => ({ index: { _index: index, _id: `${d.platform}:${d.id}` } }), refreshOnCompletion: index });
  });
  afterAll(async () => t.cleanup());

  const ids = (hits: { fields: Record<string, unknown> }[]): string[] => hits.map((h) => String(h.fields['id'])).sort();

  it('highlights Chinese and English matches', async () => {
    const zh = await searchText(t.client, index, '地铁', 10);
    expect(ids(zh.hits)).toEqual(['1', '2', '3']);
    expect(zh.hits.every((h) => h.highlight.some((s) => s.includes('«地') || s.includes('«地铁»')))).toBe(true);
    const en = await searchText(t.client, index, 'subway', 10);
    expect(ids(en.hits)).toEqual(['4', '5']);
    expect(en.hits[0]!.highlight.join(' ')).toContain('«subway»');
  });

  it('filters by sentiment, platform and time', async () => {
    expect(ids((await searchText(t.client, index, '地铁', 10, { sentiment: 'negative' })).hits)).toEqual(['1']);
    expect(ids((await searchText(t.client, index, 'subway', 10, { platform: 'twitter' })).hits)).toEqual(['4']);
    expect(ids((await searchText(t.client, index, '地铁', 10, { sinceMs: parseSince('7d', NOW_MS) })).hits)).toEqual(['1', '2']);
    expect(ids((await searchText(t.client, index, '地铁 subway', 10, { sinceMs: parseSince('2026-04-10T00:00:00Z', NOW_MS), sentiment: 'positive' })).hits)).toEqual(['5']);
  });

  it('parses relative and absolute --since values', () => {
    expect(parseSince('24h', NOW_MS)).toBe(NOW_MS - DAY_MS);
    expect(parseSince('2w', NOW_MS)).toBe(NOW_MS - 14 * DAY_MS);
    expect(parseSince('2026-04-01', NOW_MS)).toBe(Date.parse('2026-04-01'));
    expect(() => parseSince('yesterday-ish', NOW_MS)).toThrow(/expected/);
  });

  it('serves the same search over HTTP on loopback (freshet serve: GET /api/search), with facets', async () => {
    const deps: ServeDeps = {
      pipelines: new Map(), views: undefined as unknown as CrawlViews, search: t.client, indexPrefix: t.prefix, clock: { nowMs: () => NOW_MS },
      health: () => Promise.resolve({ redis: true, search: true }),
    };
    const api = await startServe({ host: '127.0.0.1', port: 0, routes: apiRoutes(deps), deps, openApi: {}, logger: silentLogger });
    try {
      expect(api.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const res = await fetch(`${api.url}/api/search?q=${encodeURIComponent('地铁')}&sentiment=negative&since=7d`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { total: number; hits: { fields: { id: string }; highlight: string[] }[]; facets: { sentiment: { key: string; count: number }[] } };
      expect(body.hits.map((h) => h.fields.id)).toEqual(['1']);
      expect(body.hits[0]!.highlight.join(' ')).toContain('«');
      expect(body.facets.sentiment).toEqual([{ key: 'negative', count: 1 }]);
      const all = (await (await fetch(`${api.url}/api/search?q=${encodeURIComponent('地铁 subway')}&platform=weibo`)).json()) as typeof body;
      expect(all.facets.sentiment).toEqual([{ key: 'positive', count: 3 }, { key: 'negative', count: 1 }]);
      expect((await fetch(`${api.url}/api/search`)).status).toBe(400);
      expect((await fetch(`${api.url}/api/search?q=x&sentiment=angry`)).status).toBe(400);
      expect((await fetch(`${api.url}/api/search?q=x`, { method: 'POST', headers: { 'content-type': 'application/json' } })).status).toBe(405);
      expect((await fetch(`${api.url}/api/_bulk`)).status).toBe(404);
      // The search page: highlighted hits; a time facet narrows to its day (not "since that day").
      const page = await (await fetch(`${api.url}/search?q=${encodeURIComponent('地铁')}`)).text();
      expect(page).toContain('<mark>');
      expect([...page.matchAll(/data-hit="([^"]+)"/g)].map((m) => m[1]).sort()).toEqual(['weibo:1', 'weibo:2', 'weibo:3']);
      const dayLink = /href="(\/search\?[^"]*since=2026-04-09[^"]*)"/.exec(page)![1]!.replace(/&amp;/g, '&');
      expect(dayLink).toContain('until=2026-04-10');
      const day = await (await fetch(`${api.url}${dayLink}`)).text();
      expect([...day.matchAll(/data-hit="([^"]+)"/g)].map((m) => m[1])).toEqual(['weibo:2']);
    } finally {
      await api.close();
    }
  });
});
