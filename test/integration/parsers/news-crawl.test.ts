import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createMetrics } from '../../../src/core/metrics';
import { silentLogger } from '../../../src/core/logger';
import { seededRng } from '../../../src/core/rng';
import { loadPipeline } from '../../../src/pipeline/load';
import { buildPipeline } from '../../../src/runner/build';
import { indexName } from '../../../src/search/templates';
import { deadLetterKey } from '../../../src/sources/frontier/keys';
import { frozenSimsite, MAPPINGS, PIPELINES } from '../../helpers/crawl';
import { useRedis, useSearch } from '../../helpers/services';

/**
 * pipelines/news.yaml over simsite's news site, with rules for its links only: index pages are
 * followed (pagination and article links), article pages become `pages` documents whose main
 * text the text_density stage finds (from the DOM the adapter parsed), then language and
 * sentiment are added.
 */
describe('web_pages with page_document rule sets over simsite news', () => {
  // The shipped file's threads and stages; all stages on 2 threads; text_density alone on 1 thread; all on the main thread.
  it.each([[undefined, undefined], [2, 3], [1, 1], [0, undefined]])('indexes every article once with its main text, and nothing of the index pages (worker_threads %s, worker_stages %s)', async (threads, workerStages) => {
    const r = await useRedis('news-crawl');
    const s = await useSearch('news-crawl');
    const site = await frozenSimsite(300, 5);
    const name = 'news';
    try {
      // The shipped pipeline file, as a user runs it.
      const shipped = loadPipeline(join(PIPELINES, 'news.yaml'), { SIMSITE_URL: site.url });
      if (shipped.sink.type !== 'elasticsearch') throw new Error('pipelines/news.yaml: expected the elasticsearch sink');
      // Ten minutes: the sink must flush because every job in flight waits on it (one document per
      // job), not because the interval passed; the test would time out otherwise.
      if (shipped.parse.type !== 'web_pages') throw new Error('pipelines/news.yaml: expected a web_pages parser');
      const parse = { ...shipped.parse, ...(threads === undefined ? {} : { worker_threads: threads, worker_stages: workerStages }) };
      const config = { ...shipped, parse, sink: { ...shipped.sink, flush_interval_ms: 600_000 } };
      const metrics = createMetrics();
      const built = await buildPipeline(config, {
        redis: r.redis, search: s.client, indexPrefix: s.prefix, mappingsDir: MAPPINGS, clock: site.frozen, rng: seededRng(1),
        logger: silentLogger, metrics, sleep: (ms) => sleep(ms), namespace: `${r.prefix}:${name}`,
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
      // Stages on worker threads are counted in the pipeline's metrics as on the main thread.
      for (const stage of ['text_density', 'language', 'sentiment']) expect(metrics.stageTally(stage)).toEqual({ received: want.length, sent: want.length });

      const index = indexName(s.prefix, 'pages');
      await s.client.indices.refresh({ index });
      const res = await s.client.search<{
        url: string; title: string; text: string; lang: string; sentiment?: { label: string }; author?: string; published_at?: string; crawled_at: string;
      }>({ index, size: 1000 });
      const got = new Map(res.hits.hits.map((h) => [new URL(h._source!.url).pathname, h._source!]));
      expect([...got.keys()].sort()).toEqual(want.map((a) => a['url'] as string).sort());
      const words = (t: string) => t.replace(/\s+/g, ' ').trim();
      for (const a of want) {
        const d = got.get(a['url'] as string)!;
        // A Chinese story's text begins with its headline (extractors/cjk-headline.ts), as Chinese news
        // references and readers take it; an English one's only where the headline is part of the article block.
        expect(words(d.text)).toBe(words(a['lang'] === 'zh' ? `${a['title'] as string} ${a['text'] as string}` : a['text'] as string));
        expect(d.title).toBe(a['title']);
        expect(d.lang).toBe(a['lang']);
        expect(['positive', 'negative', 'neutral']).toContain(d.sentiment?.label);
        // The article's own publication time (shown as Beijing wall-clock time, made exact with
        // the page's metadata) and author: the post -> index delay of an article is measured from it.
        expect(Math.floor(Date.parse(d.published_at!) / 60_000)).toBe(Math.floor((a['publishedMs'] as number) / 60_000));
        expect(d.author).toBe(a['author']);
        expect(Date.parse(d.crawled_at) - Date.parse(d.published_at!)).toBeGreaterThanOrEqual(0);
      }
      // The index answers a delay query on the article documents: every one has a publication time.
      const delays = await s.client.count({ index, query: { exists: { field: 'published_at' } } });
      expect(delays.count).toBe(want.length);
    } finally {
      await site.close();
      await r.cleanup();
      await s.cleanup();
    }
  }, 120_000);
});
