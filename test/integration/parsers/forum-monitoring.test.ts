import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createMetrics } from '../../../src/core/metrics';
import { silentLogger } from '../../../src/core/logger';
import { seededRng } from '../../../src/core/rng';
import { loadPipeline } from '../../../src/pipeline/load';
import { buildPipeline } from '../../../src/runner/build';
import { indexName } from '../../../src/search/templates';
import { frozenSimsite, MAPPINGS, PIPELINES } from '../../helpers/crawl';
import { useRedis, useSearch } from '../../helpers/services';

interface ThreadRow { tid: number; boardId: number; flavour: string; posts: number; pages: number }
interface PostRow { pid: number; tid: number; floor: number; text: string; url: string }

describe('pipelines/forum-monitor.yaml: forum boards monitored incrementally (web_pages thread_lists)', () => {
  it('indexes every reply of the monitored boards exactly once, reading only the pages with new posts', async () => {
    const label = 'forum-monitor';
    const r = await useRedis(label);
    const s = await useSearch(label);
    const site = await frozenSimsite(200, 11, { sites: { threadsPerBoard: 25, news: { validators: true } } });
    try {
      const boards = (await (await fetch(`${site.url}/_truth/forum/boards`)).json()) as { id: number; flavour: string }[];
      const seeds = boards.map((b) => `web:page:${site.url}${b.flavour === 'discuz' ? `/forum/forum-${b.id}-1.html` : `/phpbb/viewforum.php?f=${b.id}`}`);
      // The shipped file, as a user runs it (its seeds are simsite's six boards).
      const config = loadPipeline(join(PIPELINES, 'forum-monitor.yaml'), { SIMSITE_URL: site.url });
      expect(config.seeds).toEqual(seeds);
      const deps = {
        redis: r.redis, search: s.client, indexPrefix: s.prefix, mappingsDir: MAPPINGS, clock: site.frozen, rng: seededRng(1),
        logger: silentLogger, metrics: createMetrics(), sleep: (ms: number) => sleep(ms), namespace: `${r.prefix}:${label}`,
      };
      let revisitRequests = 0;
      let wholeRequests = 0;
      const postsAtStart = ((await (await fetch(`${site.url}/_truth/forum/posts`)).json()) as PostRow[]).length;
      for (let round = 0; round < 5; round++) {
        const since = site.frozen.nowMs();
        if (round > 0) site.frozen.advanceMs(6 * 3_600_000 + 1000);
        const built = await buildPipeline({ ...config, seeds: round === 0 ? seeds : [] }, deps);
        const summary = await built.runner.run({ untilIdle: true });
        await built.close();
        expect(summary.jobsFailed).toBe(0);
        if (round === 0) continue;
        revisitRequests += site.requestLog.entries().filter((e) => e.simMs > since).length;
        // Re-reading every listed thread whole, with the board page, would have cost:
        const threads = (await (await fetch(`${site.url}/_truth/forum/threads`)).json()) as ThreadRow[];
        // (the list pages themselves: 20 threads a Discuz page, 10 a phpBB one)
        wholeRequests += boards.reduce((n, b) => n + Math.ceil(threads.filter((t) => t.boardId === b.id).length / (b.flavour === 'discuz' ? 20 : 10)), 0) + threads.reduce((n, t) => n + t.pages, 0);
      }
      const truth = (await (await fetch(`${site.url}/_truth/forum/posts`)).json()) as PostRow[];
      const index = indexName(s.prefix, 'posts');
      await s.client.indices.refresh({ index });
      const res = await s.client.search<{ text: string; url: string }>({ index, size: 10_000, version: true });
      // Replies came in while the boards were monitored, on the threads' last pages.
      expect(truth.length).toBeGreaterThan(postsAtStart + 20);
      expect(res.hits.hits.length).toBe(truth.length);
      // Each written once, never again.
      expect(res.hits.hits.filter((h) => h._version !== 1).length).toBe(0);
      const words = (t: string) => t.replace(/\s+/g, ' ').trim();
      expect(res.hits.hits.map((h) => words(h._source!.text)).sort()).toEqual(truth.map((p) => words(p.text)).sort());
      expect(revisitRequests).toBeLessThan(0.3 * wholeRequests);
    } finally {
      await site.close();
      await r.cleanup();
      await s.cleanup();
    }
  }, 240_000);
});
