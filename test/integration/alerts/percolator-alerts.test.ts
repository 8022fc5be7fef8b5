import { join } from 'node:path';
import { applyTemplates, indexName, loadTemplates } from '../../../src/search/templates';
import { registerSavedQueries } from '../../../src/alerts/percolator';
import { loadAlertsFile, savedQuerySchema, toQuery, type SavedQuery } from '../../../src/alerts/saved-queries';
import { checkSpikes, type SpikeNotification } from '../../../src/alerts/spikes';
import { pollAlertsOnce, type AlertNotification } from '../../../src/alerts/watcher';
import { engine, itWhen } from '../../helpers/engine';
import { useRedis, useSearch, type TestRedis, type TestSearch } from '../../helpers/services';

const MAPPINGS = join(__dirname, '..', '..', '..', 'mappings');

const post = (id: string, text: string, label: string, authorId: string, crawledAt: string): Record<string, unknown> => ({
  platform: 'weibo', id, text, lang: 'zh', created_at: '2026-04-10T08:00:00Z', crawled_at: crawledAt,
  author: { id: authorId, name: `user${authorId}` }, sentiment: { score: label === 'negative' ? -0.8 : 0.8, label },
});

const queries: SavedQuery[] = [
  { name: 'subway-complaints', keywords: ['地铁', 'subway'], sentiment: 'negative' },
  { name: 'watched-author', authors: ['42'] },
];

/** Saved-query alerts need both; spikes and the file format need neither. */
const needs = { 'the percolator': engine().percolator, 'delete-by-query': engine().deleteByQuery };
const percolates = engine().percolator.ok && engine().deleteByQuery.ok;

describe('saved-query alerts through the percolator (real search node)', () => {
  let s: TestSearch;
  let r: TestRedis;
  let posts: string;
  let alerts: string;
  const sent: AlertNotification[] = [];
  const poll = () => pollAlertsOnce({ client: s.client, redis: r.redis, postsIndex: posts, alertsIndex: alerts, keyPrefix: r.prefix, notify: async (n) => { sent.push(n); }, overlapMs: 60_000 });
  const index = async (docs: Record<string, unknown>[]): Promise<void> => {
    await s.client.helpers.bulk({ datasource: docs, onDocument: (d) => ({ index: { _index: posts, _id: `weibo:${String(d['id'])}` } }), refreshOnCompletion: posts });
  };

  beforeAll(async () => {
    s = await useSearch('alerts');
    r = await useRedis('alerts');
    await applyTemplates(s.client, loadTemplates(MAPPINGS), { prefix: s.prefix, settings: { number_of_replicas: 0 } });
    posts = indexName(s.prefix, 'posts');
    alerts = indexName(s.prefix, 'alerts');
    if (percolates) await registerSavedQueries(s.client, alerts, MAPPINGS, queries);
    await index([
      post('1', '地铁又晚点了，真让人生气', 'negative', '7', '2026-04-10T09:00:00Z'),
      post('2', '今天坐地铁很顺利', 'positive', '7', '2026-04-10T09:00:01Z'),
      post('3', '天气不错', 'positive', '42', '2026-04-10T09:00:02Z'),
      post('4', '地铁站太挤了，烦死了', 'negative', '42', '2026-04-10T09:00:03Z'),
    ]);
  });
  afterAll(async () => {
    await s.cleanup();
    await r.cleanup();
  });

  it('needs a criterion and builds a filter per criterion', () => {
    expect(savedQuerySchema.safeParse({ name: 'empty' }).success).toBe(false);
    expect((toQuery(queries[0]!).bool!.filter as unknown[]).length).toBe(2);
  });

  itWhen(needs, 'notifies each matching new post once per alert, and never again on later passes or re-crawls', async () => {
    const first = await poll();
    expect(first.scanned).toBe(4);
    const pairs = () => sent.map((n) => `${n.alert}:${n.post_id}`).sort();
    expect(pairs()).toEqual(['subway-complaints:1', 'subway-complaints:4', 'watched-author:3', 'watched-author:4']);

    expect((await poll()).notified).toBe(0);

    // A re-crawl of post 1 (newer crawled_at) and one new matching post.
    await index([post('1', '地铁又晚点了，真让人生气', 'negative', '7', '2026-04-10T10:00:00Z'), post('5', 'subway late again 地铁', 'negative', '9', '2026-04-10T10:00:01Z')]);
    const third = await poll();
    expect(third.notified).toBe(1);
    expect(pairs()).toEqual(['subway-complaints:1', 'subway-complaints:4', 'subway-complaints:5', 'watched-author:3', 'watched-author:4']);
    expect(sent.find((n) => n.post_id === '5')).toMatchObject({ alert: 'subway-complaints', sentiment: { label: 'negative' } });
  });

  itWhen(needs, 're-registering drops saved queries that left the file', async () => {
    await registerSavedQueries(s.client, alerts, MAPPINGS, [queries[1]!]);
    const left = await s.client.search<{ alert_name: string }>({ index: alerts, size: 10 });
    expect(left.hits.hits.map((h) => h._source!.alert_name)).toEqual(['watched-author']);
  });

  it('reports a negative-sentiment spike on a topic once per window', async () => {
    // Also indexed by the percolator test above (skipped on a node without it): idempotent.
    await index([post('5', 'subway late again 地铁', 'negative', '9', '2026-04-10T10:00:01Z')]);
    const spikes: SpikeNotification[] = [];
    const run = (minPosts: number, nowMs: number) => checkSpikes({
      client: s.client, redis: r.redis, postsIndex: posts, keyPrefix: r.prefix, nowMs, notify: async (n) => { spikes.push(n); },
      spikes: [{ name: `subway-anger-${minPosts}`, sentiment: 'negative', keywords: ['地铁', 'subway'], window_minutes: 60, min_posts: minPosts, min_share: 0.5 }],
    });
    const now = Date.parse('2026-04-10T08:30:00Z');
    expect(await run(3, now)).toBe(1);
    expect(spikes[0]).toMatchObject({ alert: 'subway-anger-3', kind: 'spike', posts: 3, share: 0.75 });
    expect(await run(3, now + 60_000)).toBe(0); // same window: already reported
    expect(await run(10, now)).toBe(0); // below the threshold
    expect(await run(3, now + 5 * 3_600_000)).toBe(0); // the posts are outside a later window
  });

  itWhen(needs, 'delivers again on the next pass a notification whose delivery failed', async () => {
    const alertsIndex = indexName(s.prefix, 'alerts-retry');
    await registerSavedQueries(s.client, alertsIndex, MAPPINGS, [{ name: 'author-77', authors: ['77'] }]);
    await index([post('20', '一条新帖', 'positive', '77', '2026-04-10T11:00:00Z'), post('21', '又一条', 'positive', '77', '2026-04-10T11:00:01Z')]);
    const delivered: string[] = [];
    let failures = 1;
    const pass = () => pollAlertsOnce({
      client: s.client, redis: r.redis, postsIndex: posts, alertsIndex, keyPrefix: `${r.prefix}retry:`, overlapMs: 60_000,
      notify: async (n) => {
        if (failures-- > 0) throw new Error('webhook answered 503');
        delivered.push(n.post_id);
      },
    });
    await expect(pass()).rejects.toThrow('503');
    expect(delivered).toEqual([]);
    expect((await pass()).notified).toBe(2);
    expect(delivered.sort()).toEqual(['20', '21']);
    expect((await pass()).notified).toBe(0);
  });

  itWhen({ 'a node without the percolator or delete-by-query': percolates ? { ok: false, reason: 'this node has both' } : { ok: true } },
    'refuses alerts in one line naming what the node lacks, and creates nothing', async () => {
      const err = await registerSavedQueries(s.client, alerts, MAPPINGS, queries).catch((e: unknown) => e as Error);
      expect(err).toBeInstanceOf(Error);
      const message = (err as Error).message;
      expect(message.startsWith(`alerts need features this search node (${engine().node}) lacks: `)).toBe(true);
      if (!engine().percolator.ok) expect(message).toContain(`the percolator (module percolator): ${engine().percolator.reason!}`);
      if (!engine().deleteByQuery.ok) expect(message).toContain(`delete-by-query (module reindex): ${engine().deleteByQuery.reason!}`);
      expect(message).not.toMatch(/\n/);
      expect(await s.client.indices.exists({ index: alerts })).toBe(false);
    });

  it('parses the example alerts file', () => {
    const f = loadAlertsFile(join(__dirname, '..', '..', '..', 'alerts', 'example.yaml'));
    expect(f.alerts.map((a) => a.name)).toContain('subway-complaints');
    expect(f.spikes[0]).toMatchObject({ name: 'subway-anger', sentiment: 'negative', min_posts: 20 });
  });
});
