import { setTimeout as sleep } from 'node:timers/promises';
import { connectSearch } from '../../../src/search/client';
import { indexName } from '../../../src/search/templates';
import { build, frozenSimsite, indexedPosts, pipelineFor, seedsOf, truthIds } from '../../helpers/crawl';
import { testSettings, useRedis, useSearch } from '../../helpers/services';
import { tcpProxy } from '../../helpers/tcp-proxy';

/**
 * Settling credits (source.max_settling): a job whose visit ended gives its fetch credit to the
 * next visit while the sink indexes its documents; it is acknowledged only once they are indexed.
 */
describe('settling credits against the real search node and Redis', () => {
  it('visits up to max_settling more subjects while no bulk request is answered, acknowledges none of them, and indexes every post once the node answers', async () => {
    const r = await useRedis('settling');
    const s = await useSearch('settling');
    const site = await frozenSimsite(30, 12);
    const proxy = await tcpProxy(testSettings().esUrl);
    const viaProxy = await connectSearch({ url: proxy.url, requestTimeoutMs: 5000 });
    try {
      const config = pipelineFor(site, 'settling', seedsOf(site));
      const built = await build({ ...config, source: { ...config.source, max_in_flight: 4, max_settling: 6, claim_batch: 4 } }, r.redis, viaProxy.client, s.prefix);
      // The templates are in place (build applied them): from now on every bulk request fails and is retried.
      proxy.pause();
      const run = built.runner.run({ untilIdle: true });
      let most = 0;
      for (let t = 0; t < 60; t++) {
        await sleep(50);
        most = Math.max(most, built.runner.inFlightJobs);
      }
      const held = built.runner.progress();
      // 4 visits then 6 more on the freed fetch credits, then claims wait: 4 + 6 subjects, none acknowledged.
      expect(held.claimed).toBe(10);
      expect(most).toBe(10);
      expect(held.jobs).toBe(0);
      expect(held.documents.indexed).toBe(0);
      expect((await built.counts.stats({ exact: true })).leased).toBe(10);
      await sleep(500);
      expect(built.runner.progress().claimed).toBe(10);

      proxy.resume();
      const summary = await run;
      await built.close();
      expect(summary).toMatchObject({ jobs: 30, jobsFailed: 0, documents: { dead_lettered: 0, dropped: 0 } });
      const truth = truthIds(site);
      const got = await indexedPosts(s.client, indexName(s.prefix, 'posts'));
      expect([...truth.keys()].filter((id) => !got.has(id))).toEqual([]);
      expect((await built.counts.stats({ exact: true })).leased).toBe(0);
    } finally {
      await viaProxy.client.close();
      await proxy.close();
      await site.close();
      await s.cleanup();
      await r.cleanup();
    }
  }, 120_000);
});
