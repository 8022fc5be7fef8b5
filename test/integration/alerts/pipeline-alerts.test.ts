import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toQuery, type SavedQuery } from '../../../src/alerts/saved-queries';
import type { PipelineConfig } from '../../../src/pipeline/schema';
import { indexName } from '../../../src/search/templates';
import { build, frozenSimsite, pipelineFor, seedsOf } from '../../helpers/crawl';
import { engine, itWhen } from '../../helpers/engine';
import { useRedis, useSearch, type TestRedis, type TestSearch } from '../../helpers/services';

const needs = { 'the percolator': engine().percolator, 'delete-by-query': engine().deleteByQuery };

/** The pipeline file's `alerts:` section, run with the crawl the way `freshet run` runs it. */
describe('alerts in the pipeline file (real crawl, real search node)', () => {
  let r: TestRedis;
  let s: TestSearch;
  let site: Awaited<ReturnType<typeof frozenSimsite>>;
  let dir: string;
  let out: string;
  let config: PipelineConfig;
  let queries: SavedQuery[];

  beforeAll(async () => {
    r = await useRedis('pipeline-alerts');
    s = await useSearch('pipeline-alerts');
    site = await frozenSimsite(16, 41);
    dir = mkdtempSync(join(tmpdir(), 'freshet-alerts-'));
    out = join(dir, 'alerts.ndjson');
    const [a, b] = site.world.users;
    queries = [
      { name: 'watched-authors', authors: [String(a!.uid), String(b!.uid)] },
      { name: 'negative-weibo', platform: 'weibo', sentiment: 'negative' },
    ];
    config = pipelineFor(site, 'pipeline-alerts', seedsOf(site), `stages:
  - { type: language }
  - { type: sentiment }
alerts:
  interval_secs: 1
  ndjson: ${JSON.stringify(out)}
  queries:
    - { name: watched-authors, authors: ${JSON.stringify(queries[0]!.authors)} }
    - { name: negative-weibo, platform: weibo, sentiment: negative }
`);
  });
  afterAll(async () => {
    await site?.close();
    await s?.cleanup();
    await r?.cleanup();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const notified = (): string[] => readFileSync(out, 'utf8').trim().split('\n').filter(Boolean)
    .map((l) => JSON.parse(l) as { alert: string; post_id: string }).map((n) => `${n.alert}:${n.post_id}`);

  /** What each saved query matches among this pipeline's posts, by a plain search (no percolator). */
  async function matching(): Promise<string[]> {
    const index = indexName(s.prefix, 'posts');
    await s.client.indices.refresh({ index });
    const pairs: string[] = [];
    for (const q of queries) {
      const res = await s.client.search<{ id: string }>({
        index, size: 10_000, _source: ['id'],
        query: { bool: { filter: [toQuery(q), { term: { pipeline: config.name } }] } },
      });
      for (const h of res.hits.hits) pairs.push(`${q.name}:${h._source!.id}`);
    }
    return pairs.sort();
  }

  async function crawl(): Promise<void> {
    const built = await build(config, r.redis, s.client, s.prefix);
    expect(built.alerts).toBeDefined();
    await built.alerts!.start();
    try {
      await built.runner.run({ untilIdle: true });
    } finally {
      await built.alerts!.stop();
      await built.close();
    }
  }

  itWhen(needs, 'notifies each matching post once, and each matching new post once on the next crawl', async () => {
    await crawl();
    const first = notified();
    const expected1 = await matching();
    for (const q of queries) expect([q.name, expected1.some((p) => p.startsWith(`${q.name}:`))]).toEqual([q.name, true]);
    expect([...first].sort()).toEqual(expected1);

    // New posts appear; every subject is visited again (old posts come back with a newer crawled_at too).
    const built = await build(config, r.redis, s.client, s.prefix);
    site.frozen.advanceMs(2 * 86_400_000);
    expect(await built.frontier.reschedule(seedsOf(site), 0)).toBe(site.world.users.length);
    await built.close();
    await crawl();
    const all = notified();
    const expected2 = await matching();
    expect(expected2.length).toBeGreaterThan(expected1.length);
    // Exactly once per (alert, post): the new matches were added, nothing was repeated.
    expect(new Set(all).size).toBe(all.length);
    expect([...all].sort()).toEqual(expected2);
    expect(all.slice(first.length).every((p) => !expected1.includes(p))).toBe(true);
  });

  itWhen(needs, 'watches only its own pipeline\'s posts in its own percolator index', async () => {
    const alertsIndex = indexName(s.prefix, `alerts-${config.name}`);
    const res = await s.client.search<{ alert_name: string }>({ index: alertsIndex, size: 10 });
    expect(res.hits.hits.map((h) => h._source!.alert_name).sort()).toEqual(['negative-weibo', 'watched-authors']);
  });
});
