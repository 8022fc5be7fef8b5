import { setTimeout as sleep } from 'node:timers/promises';
import { createMetrics } from '../../../src/core/metrics';
import { silentLogger } from '../../../src/core/logger';
import { seededRng } from '../../../src/core/rng';
import { parsePipeline } from '../../../src/pipeline/load';
import { buildPipeline } from '../../../src/runner/build';
import { indexName } from '../../../src/search/templates';
import { deadLetterKey } from '../../../src/sources/frontier/keys';
import { frozenSimsite, MAPPINGS } from '../../helpers/crawl';
import { useRedis, useSearch } from '../../helpers/services';

/**
 * A news site crawled with rules for its links only: index pages are followed (pagination and
 * article links), article pages become `pages` documents whose main text the text_density stage
 * finds (from the DOM the adapter parsed), then language and sentiment are added.
 */
describe('web_pages with page_document rule sets over simsite news', () => {
  it('indexes every article once with its main text, and nothing of the index pages', async () => {
    const r = await useRedis('news-crawl');
    const s = await useSearch('news-crawl');
    const site = await frozenSimsite(300, 5);
    const name = 'news';
    try {
      const config = parsePipeline(`name: ${name}
seeds: ["web:page:${site.url}/news/"]
source: { type: redis_frontier, shards: 2, max_in_flight: 16, poll_interval_ms: 20, lease_secs: 30 }
fetch: { type: http_fetch, allow_private_networks: true, respect_robots: false, connections_per_origin: 16 }
parse:
  type: web_pages
  max_pages_per_visit: 100
  rules:
    - name: news-index
      match: { regex: ['/news/(\\?page=\\d+)?$'] }
      pagination: { selector: a.next }
      links: { selector: ul.news-list a, regex: '/news/\\d+\\.html$' }
    - name: news-article
      match: { regex: ['/news/\\d+\\.html$'] }
      page_document: true
      links: { selector: 'a[href]', regex: '/news/\\d+\\.html$' }
stages:
  - { type: text_density, min_chars: 20 }
  - { type: language }
  - { type: sentiment }
# Ten minutes: the sink must flush because every job in flight waits on it (one document per
# job), not because the interval passed; the test would time out otherwise.
sink: { type: elasticsearch, flush_interval_ms: 600000, replicas: 0 }
schedule: { type: fixed_interval, interval_secs: 86400 }
`, `${name}.yaml`);
      const built = await buildPipeline(config, {
        redis: r.redis, search: s.client, indexPrefix: s.prefix, mappingsDir: MAPPINGS, clock: site.frozen, rng: seededRng(1),
        logger: silentLogger, metrics: createMetrics(), sleep: (ms) => sleep(ms), namespace: `${r.prefix}:${name}`,
      });
      let summary;
      try {
        summary = await built.runner.run({ untilIdle: true });
      } finally {
        await built.close();
      }
      const want = (await (await fetch(`${site.url}/_truth/articles`)).json()) as Record<string, unknown>[];
      expect(want.length).toBeGreaterThan(100);
      expect(summary.jobsFailed).toBe(0);
      expect(await r.redis.xlen(deadLetterKey(`${r.prefix}:${name}`))).toBe(0);
      // One visit for the index (its pages followed within the visit), one per article.
      expect(summary.jobs).toBe(want.length + 1);

      const index = indexName(s.prefix, 'pages');
      await s.client.indices.refresh({ index });
      const res = await s.client.search<{ url: string; title: string; text: string; lang: string; sentiment?: { label: string } }>({ index, size: 1000 });
      const got = new Map(res.hits.hits.map((h) => [new URL(h._source!.url).pathname, h._source!]));
      expect([...got.keys()].sort()).toEqual(want.map((a) => a['url'] as string).sort());
      const words = (t: string) => t.replace(/\s+/g, ' ').trim();
      for (const a of want) {
        const d = got.get(a['url'] as string)!;
        expect(words(d.text)).toBe(words(a['text'] as string));
        expect(d.title).toBe(a['title']);
        expect(d.lang).toBe(a['lang']);
        expect(['positive', 'negative', 'neutral']).toContain(d.sentiment?.label);
      }
    } finally {
      await site.close();
      await r.cleanup();
      await s.cleanup();
    }
  }, 120_000);
});
