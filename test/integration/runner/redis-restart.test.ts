import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { recordingLogger, type LogRecord } from '../../../src/core/logger';
import { indexName } from '../../../src/search/templates';
import { build, frozenSimsite, indexedPosts, pipelineFor, seedsOf, truthIds } from '../../helpers/crawl';
import { ownRedis, type OwnRedis } from '../../helpers/redis-server';
import { useSearch, type TestSearch } from '../../helpers/services';

async function postCount(s: TestSearch): Promise<number> {
  const index = indexName(s.prefix, 'posts');
  try {
    await s.client.indices.refresh({ index, ignore_unavailable: true, allow_no_indices: true });
    return (await s.client.count({ index, ignore_unavailable: true, allow_no_indices: true })).count;
  } catch {
    return 0; // the index is being created: its shards do not answer searches yet
  }
}

describe('Redis killed (SIGKILL) and restarted from its AOF mid-crawl', () => {
  let redisServer: OwnRedis;
  let s: TestSearch;
  beforeAll(async () => {
    redisServer = await ownRedis('free');
    s = await useSearch('redis-restart');
  });
  afterAll(async () => {
    await s.cleanup();
    await redisServer.stop();
  });

  it('loses and duplicates nothing: claims pause, acks wait, the crawl finishes', async () => {
    const site = await frozenSimsite(100, 51);
    const redis = new Redis(redisServer.url, { maxRetriesPerRequest: 2 });
    redis.on('error', () => undefined); // reconnection is ioredis's job; the runner sees failed commands
    const records: LogRecord[] = [];
    try {
      const config = pipelineFor(site, 'redis-restart', seedsOf(site));
      const built = await build({ ...config, source: { ...config.source, max_in_flight: 8 } }, redis, s.client, s.prefix, recordingLogger(records));
      const run = built.runner.run({ untilIdle: true });
      const truth = truthIds(site);
      for (let i = 0; i < 600 && (await postCount(s)) < truth.size * 0.3; i++) await sleep(25);
      await redisServer.crash();
      const atCrash = await postCount(s);
      expect(atCrash).toBeLessThan(truth.size);
      await sleep(3000); // Redis stays down for 3 s while visits in flight finish and try to ack
      await redisServer.start();
      const summary = await run;
      await built.close();

      expect(summary.stoppedBy).toBe('idle');
      expect(summary.jobsFailed).toBe(0);
      expect(summary.documents.dead_lettered).toBe(0);
      // The outage was noticed (failed claims or acks), and survived.
      expect(records.some((r) => r.fields && (r.fields as { code?: string }).code === 'E_REDIS_UNAVAILABLE')).toBe(true);
      const got = await indexedPosts(s.client, indexName(s.prefix, 'posts'));
      expect([...truth.keys()].filter((id) => !got.has(id))).toEqual([]);
      expect(got.size).toBe(truth.size);
      // The frontier came back from the AOF whole: every subject visited once, nothing leased.
      expect(await built.counts.stats()).toMatchObject({ subjects: 100, leased: 0, dueNow: 0 });
      for (const subject of seedsOf(site)) expect((await built.frontier.getState(subject))?.visits).toBe(1);
    } finally {
      redis.disconnect();
      await site.close();
    }
  });
});
