import { createHash } from 'node:crypto';
import { connectSearch } from '../../../src/search/client';
import { indexName } from '../../../src/search/templates';
import { bulkProxy } from '../../helpers/bulk-proxy';
import { build, frozenSimsite, indexedPosts, pipelineFor, seedsOf, truthIds } from '../../helpers/crawl';
import { testSettings, useRedis, useSearch } from '../../helpers/services';

/** A stable pseudo-random bucket of a document id, 0..99. */
const bucket = (id: string): number => createHash('sha1').update(id).digest().readUInt16BE(0) % 100;

describe('the search node rejecting bulk items', () => {
  it('retries 429 items until accepted and dead-letters mapping errors with their code', async () => {
    const r = await useRedis('bulk-reject');
    const s = await useSearch('bulk-reject');
    const site = await frozenSimsite(40, 61);
    const posts = indexName(s.prefix, 'posts');
    // A quarter of all items is throttled twice; a tenth of the posts breaks the strict mapping.
    const proxy = await bulkProxy(testSettings().esUrl, {
      throttleTimes: (id) => (bucket(id) < 25 ? 2 : 0),
      poison: (id, index) => index === posts && bucket(`p${id}`) < 10,
    });
    const viaProxy = await connectSearch({ url: proxy.url });
    try {
      const built = await build(pipelineFor(site, 'bulk-reject', seedsOf(site)), r.redis, viaProxy.client, s.prefix);
      const summary = await built.runner.run({ untilIdle: true });
      const dead = await built.deadLetters.read(10_000);
      const stats = await built.counts.stats();
      await built.close();

      const truth = truthIds(site);
      const poisoned = [...truth.keys()].filter((id) => bucket(`pweibo:${id}`) < 10);
      expect(proxy.stats.throttled).toBeGreaterThan(100);
      expect(poisoned.length).toBeGreaterThan(10);
      expect(proxy.stats.poisoned).toBe(poisoned.length);

      // Mapping errors: dead-lettered once each, with their code and the node's reason.
      expect(summary.documents.dead_lettered).toBe(poisoned.length);
      expect(dead.map((d) => d['id']).sort()).toEqual(poisoned.map((id) => `weibo:${id}`).sort());
      for (const d of dead) {
        expect(d).toMatchObject({ code: 'E_SEARCH_ITEM_REJECTED', stage: 'elasticsearch' });
        expect(d['message']).toMatch(/strict_dynamic_mapping_exception/);
      }
      // Throttled items: retried until accepted; everything else indexed exactly once.
      const got = await indexedPosts(s.client, posts);
      const poisonedSet = new Set(poisoned);
      expect([...truth.keys()].filter((id) => !poisonedSet.has(id) && !got.has(id))).toEqual([]);
      expect(got.size).toBe(truth.size - poisoned.length);
      expect([...got.values()].filter((d) => d.version !== 1)).toEqual([]);
      expect(summary.jobsFailed).toBe(0);
      expect(stats).toMatchObject({ subjects: 40, leased: 0, dueNow: 0, deadLetters: poisoned.length });
    } finally {
      await viaProxy.client.close();
      await proxy.close();
      await site.close();
      await s.cleanup();
      await r.cleanup();
    }
  });
});
