import { join } from 'node:path';
import { Client } from '@elastic/elasticsearch';
import { applyTemplates, indexName, loadTemplates } from '../../../src/search/templates';
import { searchText } from '../../../src/cli/commands/search';
import { engine, itWhen } from '../../helpers/engine';
import { testSettings, useSearch, type TestSearch } from '../../helpers/services';

const MAPPINGS = join(__dirname, '..', '..', '..', 'mappings');

const posts = [
  { platform: 'weibo', id: '5012345678901234567', text: '今天北京的天气很好，大家出去走走吧 #春天# @小明', created_at: '2026-04-01T08:00:00Z', lang: 'zh', hashtags: ['春天'], mentions: ['小明'], author: { id: '1669879400', name: '天气观察', followers: 12000, verified: true } },
  { platform: 'weibo', id: '5012345678901234568', text: '地铁又晚点了，真让人生气', created_at: '2026-04-01T09:00:00Z', lang: 'zh', author: { id: '1669879401', name: '通勤族' } },
  { platform: 'twitter', id: '1790000000000000001', text: 'The weather in Beijing is lovely today', created_at: '2026-04-01T10:00:00Z', lang: 'en', author: { id: '42', name: 'visitor' } },
];

describe('search node round trip (real OpenSearch/Elasticsearch)', () => {
  let t: TestSearch;
  let index: string;

  beforeAll(async () => {
    t = await useSearch('round-trip');
    await applyTemplates(t.client, loadTemplates(MAPPINGS), { prefix: t.prefix, settings: { number_of_replicas: 0 } });
    index = indexName(t.prefix, 'posts');
  });
  afterAll(async () => t.cleanup());

  it('reports the distribution the services script started', () => {
    expect(['opensearch', 'elasticsearch']).toContain(t.conn.info.distribution);
    expect(t.conn.info.major).toBeGreaterThanOrEqual(2);
  });

  it('creates the index from the template in mappings/ (strict, cjk or its recorded fallback, keyword ids)', async () => {
    await t.client.indices.create({ index });
    const mapping = await t.client.indices.getMapping({ index });
    const m = mapping[index]!.mappings;
    expect(m.dynamic).toBe('strict');
    expect((m.properties!['text'] as { analyzer?: string }).analyzer).toBe(engine().textAnalyzer);
    // A node without cjk gets the documented fallback, and the index says so.
    expect((m._meta as Record<string, unknown>)['freshet_analyzer_fallbacks']).toEqual(engine().cjk.ok ? undefined : { cjk: engine().textAnalyzer });
    expect(m.properties!['id']!.type).toBe('keyword');
  });

  it('bulk-indexes posts with per-item results and keeps 19-digit ids exact', async () => {
    const res = await t.client.helpers.bulk({
      datasource: posts,
      onDocument: (doc) => ({ index: { _index: index, _id: `${doc.platform}:${doc.id}` } }),
      refreshOnCompletion: index,
    });
    expect(res.successful).toBe(3);
    expect(res.failed).toBe(0);
    const got = await t.client.get<{ id: string }>({ index, id: 'weibo:5012345678901234567' });
    expect(got._source?.id).toBe('5012345678901234567');
  });

  it('finds Chinese and English text with highlights, the best match first (any analyzer)', async () => {
    const res = await searchText(t.client, index, '天气', 10);
    expect(res.hits[0]!.id).toBe('weibo:5012345678901234567');
    expect(res.hits[0]!.highlight.join(' ')).toMatch(/«天(气»|»«气»)/);
    const en = await searchText(t.client, index, 'weather', 10);
    expect(en.hits.map((h) => h.id)).toEqual(['twitter:1790000000000000001']);
  });

  itWhen({ 'the cjk analyzer': engine().cjk }, 'matches a two-character Chinese word as one bigram through the cjk analyzer', async () => {
    // With single characters (standard), 天气 would also match 生气 in the second post.
    const res = await searchText(t.client, index, '天气', 10);
    expect(res.hits.map((h) => h.id)).toEqual(['weibo:5012345678901234567']);
    expect(res.hits[0]!.highlight.join(' ')).toContain('«天气»');
  });

  it('aggregates by day and by term', async () => {
    const res = await t.client.search({
      index, size: 0,
      aggs: { perDay: { date_histogram: { field: 'created_at', calendar_interval: 'day' } }, byPlatform: { terms: { field: 'platform' } } },
    });
    const aggs = res.aggregations as { perDay: { buckets: { doc_count: number }[] }; byPlatform: { buckets: { key: string; doc_count: number }[] } };
    expect(aggs.perDay.buckets.map((b) => b.doc_count)).toEqual([3]);
    expect(aggs.byPlatform.buckets).toEqual([{ key: 'weibo', doc_count: 2 }, { key: 'twitter', doc_count: 1 }]);
  });

  it('rejects an unmapped field per item instead of mapping it dynamically', async () => {
    const res = await t.client.bulk({ operations: [{ index: { _index: index, _id: 'x:1' } }, { platform: 'x', id: '1', surprise: true }] });
    expect(res.errors).toBe(true);
    expect(res.items[0]!.index!.status).toBe(400);
    expect(res.items[0]!.index!.error!.type).toBe('strict_dynamic_mapping_exception');
  });

  itWhen({ 'an OpenSearch node': engine().distribution === 'opensearch' ? { ok: true } : { ok: false, reason: `this is ${engine().node}, which the stock client is made for` } }, 'needs the OpenSearch transport: the stock client is refused by OpenSearch', async () => {
    const stock = new Client({ node: testSettings().esUrl, maxRetries: 0 });
    await expect(stock.info()).rejects.toThrow();
    await stock.close();
  });
});
