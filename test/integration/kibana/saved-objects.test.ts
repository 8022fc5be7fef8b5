import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client, estypes } from '@elastic/elasticsearch';
import { sendBulk } from '../../../src/sinks/bulk';
import { mergedUpdateLines } from '../../../src/sinks/post-merge-script';
import { indexName } from '../../../src/search/templates';
import { build, frozenSimsite, MAPPINGS, pipelineFor, seedsOf } from '../../helpers/crawl';
import { poissonScheduleSchema } from '../../../src/schedule/refit';
import { useRedis, useSearch, type TestRedis, type TestSearch } from '../../helpers/services';
import { writeTopics } from '../../../src/alerts/topics';
import type { Topic } from '../../../src/enrichers/topics/detector';

function sampleTopic(i: number): Topic {
  const at = Date.parse('2026-11-21T10:00:00Z') + i * 600_000;
  return {
    id: `#topic${i}@${new Date(at).toISOString()}`, label: `#topic${i}`, terms: [`#topic${i}`, `phrase ${i}`], firstSeenMs: at, lastSeenMs: at + 1_800_000, score: 6 + i,
    volume: [{ startMs: at, posts: 8 + i }], posts: 20 + i, sentiment: { positive: i, neutral: 2, negative: 10 }, topPosts: [{ id: `weibo:${i}`, copies: 3 }],
  };
}

interface Obj { type: string; id: string; attributes: Record<string, unknown>; references: { name: string; type: string; id: string }[] }
interface Agg { id: string; type: string; schema: string; params: Record<string, unknown> }

const objects = readFileSync(join(__dirname, '..', '..', '..', 'kibana', 'freshet.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Obj);
const byId = new Map(objects.map((o) => [`${o.type}:${o.id}`, o]));
const of = (type: string): Obj[] => objects.filter((o) => o.type === type);

/** field path → mapping type, from mappings/<name>.json (sub-fields as `field.sub`). */
function mappingFields(name: string): Map<string, string> {
  const m = JSON.parse(readFileSync(join(MAPPINGS, `${name}.json`), 'utf8')) as { template: { mappings: { properties: Record<string, unknown> } } };
  const out = new Map<string, string>();
  const walk = (props: Record<string, unknown>, pre: string): void => {
    for (const [k, v] of Object.entries(props) as [string, { type?: string; properties?: Record<string, unknown>; fields?: Record<string, { type: string }> }][]) {
      if (v.properties) walk(v.properties, `${pre}${k}.`);
      else out.set(`${pre}${k}`, v.type ?? 'object');
      for (const [sub, sv] of Object.entries(v.fields ?? {})) out.set(`${pre}${k}.${sub}`, sv.type);
    }
  };
  walk(m.template.mappings.properties, '');
  return out;
}

/** The logical index of a data view: `freshet-posts*` → posts. */
function logicalIndex(dataViewId: string): string {
  const title = String(byId.get(`index-pattern:${dataViewId}`)!.attributes['title']);
  return title.replace(/^freshet-/, '').replace(/\*$/, '');
}

const NUMERIC = new Set(['long', 'integer', 'short', 'float', 'double', 'scaled_float']);
const AGG_TYPES: Record<string, (t: string) => boolean> = {
  date_histogram: (t) => t === 'date',
  avg: (t) => NUMERIC.has(t), sum: (t) => NUMERIC.has(t), histogram: (t) => NUMERIC.has(t),
  max: (t) => NUMERIC.has(t) || t === 'date', min: (t) => NUMERIC.has(t) || t === 'date',
  terms: (t) => t === 'keyword' || t === 'boolean' || NUMERIC.has(t),
  cardinality: (t) => t !== 'text',
};

const searchSource = (o: Obj): { query: { query: string }; indexRefName?: string } =>
  JSON.parse(String((o.attributes['kibanaSavedObjectMeta'] as { searchSourceJSON: string }).searchSourceJSON)) as { query: { query: string }; indexRefName?: string };
const visState = (o: Obj): { type: string; aggs: Agg[] } => JSON.parse(String(o.attributes['visState'])) as { type: string; aggs: Agg[] };
const dataViewOf = (o: Obj): string => o.references.find((r) => r.type === 'index-pattern')!.id;

/** The KQL the objects use: `field : *` or `field : "value"`, nothing else (so the test can translate it exactly). */
function kqlToDsl(kql: string): estypes.QueryDslQueryContainer {
  if (!kql) return { match_all: {} };
  const m = /^([\w.]+) : (\*|"([^"]*)")$/.exec(kql);
  if (!m) throw new Error(`unsupported KQL in saved objects: ${kql}`);
  return m[2] === '*' ? { exists: { field: m[1]! } } : { term: { [m[1]!]: m[3]! } };
}

/** A visualisation's aggs as the search request Kibana would send (buckets nested in order, metrics innermost). */
function toEsAggs(aggs: Agg[]): { aggs: Record<string, estypes.AggregationsAggregationContainer>; path: string[] } {
  const metrics: Record<string, estypes.AggregationsAggregationContainer> = {};
  for (const a of aggs.filter((x) => x.schema === 'metric' && x.type !== 'count')) metrics[a.id] = { [a.type]: { field: String(a.params['field']) } };
  const buckets = aggs.filter((x) => x.schema !== 'metric');
  let inner: Record<string, estypes.AggregationsAggregationContainer> = metrics;
  for (const b of [...buckets].reverse()) {
    const p = b.params;
    let c: estypes.AggregationsAggregationContainer;
    if (b.type === 'date_histogram') c = { date_histogram: { field: String(p['field']), calendar_interval: 'day', min_doc_count: 1 } };
    else if (b.type === 'histogram') c = { histogram: { field: String(p['field']), interval: Number(p['interval']) } };
    else if (b.type === 'terms') {
      const orderBy = String(p['orderBy']);
      const isCount = aggs.find((a) => a.id === orderBy)?.type === 'count';
      c = { terms: { field: String(p['field']), size: Number(p['size']), order: isCount ? { _count: 'desc' } : { [orderBy]: 'desc' } } };
    } else throw new Error(`bucket agg ${b.type} not handled`);
    inner = { [b.id]: { ...c, ...(Object.keys(inner).length ? { aggs: inner } : {}) } };
  }
  return { aggs: inner, path: buckets.map((b) => b.id) };
}

const STATUSES = ['deleted', 'removed', 'restricted', 'account_gone'];

/** Tombstones eight crawled posts and edits six others, as deletion monitoring does. */
async function goneAndEdited(client: Client, index: string): Promise<void> {
  await client.indices.refresh({ index });
  const res = await client.search<{ id: string; created_at: string; crawled_at: string; text: string }>({ index, size: 14, sort: [{ created_at: 'desc' }], _source: ['id', 'created_at', 'crawled_at', 'text'] });
  const lines = res.hits.hits.map((h, i) => {
    const p = h._source!;
    const created = Date.parse(p.created_at);
    if (i < 8) {
      const firstMissing = created + (i + 1) * 3 * 3_600_000;
      return mergedUpdateLines(index, h._id!, {
        status: STATUSES[i % 4], last_seen_at: new Date(firstMissing - 4 * 3_600_000).toISOString(), first_missing_at: new Date(firstMissing).toISOString(),
        status_checked_at: new Date(firstMissing + 60_000).toISOString(), status_reason: 'message', lived_hours: (i + 1) * 3,
      }, 'tombstone', 20);
    }
    const crawled = new Date(Date.parse(p.crawled_at) + 3_600_000).toISOString();
    return mergedUpdateLines(index, h._id!, { ...h._source, text: `${p.text} 更新：补充一下`, crawled_at: crawled, edited_at: crawled, edit_count: 1 }, 'post', 20);
  });
  const items = await sendBulk(client, Buffer.from(lines.join('')), 30_000, true);
  expect(items.map((x) => x.result)).toEqual(lines.map(() => 'updated'));
}

describe('kibana/freshet.ndjson', () => {
  it('has unique ids and every reference resolves to an object of the named type in the file', () => {
    expect(byId.size).toBe(objects.length);
    for (const o of objects) {
      for (const r of o.references) expect([o.id, r.name, byId.has(`${r.type}:${r.id}`)]).toEqual([o.id, r.name, true]);
    }
    for (const o of [...of('visualization'), ...of('search')]) {
      const src = searchSource(o);
      expect(o.references.map((r) => r.name)).toContain(src.indexRefName);
    }
    for (const d of of('dashboard')) {
      const panels = JSON.parse(String(d.attributes['panelsJSON'])) as { panelRefName: string }[];
      expect(panels.length).toBeGreaterThan(4);
      expect(panels.map((p) => p.panelRefName).sort()).toEqual(d.references.map((r) => r.name).sort());
    }
    expect(of('index-pattern').map((o) => o.attributes['title']).sort()).toEqual(['freshet-pages*', 'freshet-posts*', 'freshet-topics*', 'freshet-users*']);
    expect(of('dashboard').map((o) => o.attributes['title'])).toEqual(expect.arrayContaining(['freshet: Opinion', 'freshet: Crawl', 'freshet: Topics', 'freshet: Deletions']));
  });

  it('names only mapped fields, each of a type its aggregation accepts', () => {
    for (const dv of of('index-pattern')) {
      expect(mappingFields(logicalIndex(dv.id)).get(String(dv.attributes['timeFieldName']))).toBe('date');
    }
    for (const v of of('visualization')) {
      const fields = mappingFields(logicalIndex(dataViewOf(v)));
      for (const a of visState(v).aggs) {
        if (a.type === 'count') continue;
        const type = fields.get(String(a.params['field']));
        expect([v.id, a.id, a.params['field'], type !== undefined && AGG_TYPES[a.type]!(type)]).toEqual([v.id, a.id, a.params['field'], true]);
      }
      const q = searchSource(v).query.query;
      if (q) expect(fields.has(q.split(' ')[0]!)).toBe(true);
    }
    for (const s of of('search')) {
      const fields = mappingFields(logicalIndex(dataViewOf(s)));
      for (const c of s.attributes['columns'] as string[]) expect([s.id, c, fields.has(c)]).toEqual([s.id, c, true]);
      for (const [f] of s.attributes['sort'] as [string, string][]) expect([s.id, f, fields.get(f) !== 'text' && fields.has(f)]).toEqual([s.id, f, true]);
    }
  });

  describe('against the real search node with crawled simsite data', () => {
    let r: TestRedis;
    let s: TestSearch;
    let site: Awaited<ReturnType<typeof frozenSimsite>>;

    beforeAll(async () => {
      r = await useRedis('kibana');
      s = await useSearch('kibana');
      site = await frozenSimsite(40, 11);
      // The poisson schedule: profiles then carry an estimated post rate next to status and visits.
      const config = {
        ...pipelineFor(site, 'kibana', seedsOf(site), 'stages:\n  - { type: language }\n  - { type: sentiment }\n  - { type: keywords }\n  - { type: simhash }\n'),
        schedule: poissonScheduleSchema.parse({ type: 'poisson', budget_per_hour: 600, page_size: 10 }),
      };
      const built = await build(config, r.redis, s.client, s.prefix);
      await built.runner.run({ untilIdle: true });
      await built.close();
      // A frozen crawl deletes and edits nothing: the Deletions view reads eight posts tombstoned and
      // six edited, written as the monitoring crawl writes them (through the post merge script).
      await goneAndEdited(s.client, indexName(s.prefix, 'posts'));
      // A frozen crawl has no break-out, so the Topics view reads five topic documents as `freshet topics` writes them.
      await writeTopics(s.client, indexName(s.prefix, 'topics'), Array.from({ length: 5 }, (_, i) => sampleTopic(i)), Date.parse('2026-11-21T12:00:00Z'));
      await s.client.indices.refresh({ index: `${s.prefix}*` });
    }, 120_000);
    afterAll(async () => {
      await site.close();
      await s.cleanup();
      await r.cleanup();
    });

    const indexOf = (o: Obj): string => indexName(s.prefix, logicalIndex(dataViewOf(o)));

    it('runs every visualisation aggregation and gets buckets and metric values back', async () => {
      for (const v of of('visualization')) {
        const { aggs, path } = toEsAggs(visState(v).aggs);
        const res = await s.client.search({ index: indexOf(v), size: 0, query: kqlToDsl(searchSource(v).query.query), ...(path.length || Object.keys(aggs).length ? { aggs } : {}) });
        const total = typeof res.hits.total === 'number' ? res.hits.total : res.hits.total!.value;
        expect([v.id, total > 0]).toEqual([v.id, true]);
        // Walk the first bucket at every level down to the metrics.
        let level = res.aggregations as Record<string, unknown> | undefined;
        for (const id of path) {
          const buckets = (level?.[id] as { buckets: Record<string, unknown>[] }).buckets;
          expect([v.id, id, buckets.length > 0]).toEqual([v.id, id, true]);
          level = buckets[0];
        }
        for (const a of visState(v).aggs.filter((x) => x.schema === 'metric' && x.type !== 'count')) {
          const value = (level?.[a.id] as { value: number | null } | undefined)?.value;
          expect([v.id, a.id, typeof value === 'number']).toEqual([v.id, a.id, true]);
        }
      }
    });

    it('the Crawl view\'s profiles carry each watched user\'s status, estimated rate, last and next visit', async () => {
      const res = await s.client.search<Record<string, unknown>>({ index: indexName(s.prefix, 'users'), size: 1000, query: { terms: { subject: seedsOf(site) } } });
      expect(res.hits.hits.length).toBe(seedsOf(site).length);
      for (const h of res.hits.hits) {
        const u = h._source!;
        expect([u['subject'], u['status'], typeof u['rate_per_hour'], Date.parse(String(u['next_visit'])) > Date.parse(String(u['last_visit']))])
          .toEqual([u['subject'], 'active', 'number', true]);
      }
    });

    it('runs every saved search with its sort and finds posts with the shown columns', async () => {
      for (const o of of('search')) {
        const sort = (o.attributes['sort'] as [string, 'asc' | 'desc'][]).map(([f, d]) => ({ [f]: { order: d } }));
        const res = await s.client.search<Record<string, unknown>>({ index: indexOf(o), size: 5, sort, query: kqlToDsl(searchSource(o).query.query) });
        expect([o.id, res.hits.hits.length]).toEqual([o.id, 5]);
        expect(res.hits.hits[0]!._source![logicalIndex(dataViewOf(o)) === 'topics' ? 'label' : 'text']).toEqual(expect.any(String));
      }
    });

    it('the Deletions view shows who, when, the last text and how long each gone post lived', async () => {
      const o = byId.get('search:freshet-deletions')!;
      const res = await s.client.search<Record<string, unknown>>({ index: indexOf(o), size: 20, sort: [{ first_missing_at: { order: 'desc' } }], query: kqlToDsl(searchSource(o).query.query) });
      expect(res.hits.hits.length).toBe(8);
      for (const h of res.hits.hits) {
        const p = h._source!;
        expect([STATUSES.includes(String(p['status'])), typeof p['text'], typeof (p['author'] as { name?: unknown })['name'], typeof p['lived_hours']]).toEqual([true, 'string', 'string', 'number']);
        expect(Date.parse(String(p['last_seen_at']))).toBeLessThan(Date.parse(String(p['first_missing_at'])));
      }
    });

    it('the crawl enriched posts with sentiment, keywords and simhash', async () => {
      const index = indexName(s.prefix, 'posts');
      const labels = await s.client.search({ index, size: 0, aggs: { l: { terms: { field: 'sentiment.label' } } }, query: { exists: { field: 'keywords' } } });
      const buckets = (labels.aggregations!['l'] as { buckets: { key: string }[] }).buckets.map((b) => b.key);
      expect(buckets).toEqual(expect.arrayContaining(['positive', 'negative']));
      const hashed = await s.client.count({ index, query: { exists: { field: 'simhash' } } });
      const all = await s.client.count({ index });
      expect(hashed.count).toBe(all.count);
    });
  });
});
