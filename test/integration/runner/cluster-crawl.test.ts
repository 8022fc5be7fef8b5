import type { Cluster } from 'ioredis';
import { indexName } from '../../../src/search/templates';
import { frozenSimsite, indexedPosts, seedsOf, spawnRun, truthIds, writeCliPipeline } from '../../helpers/crawl';
import { deleteClusterKeys, startRedisCluster, type RedisClusterHandle } from '../../helpers/redis-cluster';
import { useSearch, type TestSearch } from '../../helpers/services';

interface WorkerSummary {
  jobs: number;
  jobsFailed: number;
  leasesLost: number;
  stoppedBy: string;
}

/** Runs `freshet run` (the built CLI) as a separate worker process; resolves with its JSON summary. */
async function runWorker(file: string, env: NodeJS.ProcessEnv, simsiteUrl: string): Promise<{ code: number | null; summary: WorkerSummary }> {
  const w = spawnRun(file, ['--until-idle', '--var', `SIMSITE_URL=${simsiteUrl}`], env);
  const code = await w.exited;
  return { code, summary: w.summary<WorkerSummary>() };
}

describe('two workers sharing one frontier on a real Redis Cluster', () => {
  let rc: RedisClusterHandle;
  let cluster: Cluster;
  let s: TestSearch;

  beforeAll(async () => {
    rc = await startRedisCluster('free');
    cluster = rc.client();
    s = await useSearch('cluster-crawl');
  }, 90_000);
  afterAll(async () => {
    await s.cleanup();
    cluster.disconnect();
    await rc.stop();
  });

  it('split the subjects between them and index every post exactly once', async () => {
    const site = await frozenSimsite(100, 31);
    const name = `cluster-${s.prefix.slice(2, -1)}`;
    const file = writeCliPipeline(name, seedsOf(site), 'shards: 12, max_in_flight: 6, claim_batch: 2, lease_secs: 30, poll_interval_ms: 50', `politeness: { min_delay_ms: 0, max_wait_ms: 2000, max_concurrency_per_origin: 8 }
schedule: { type: fixed_interval, interval_secs: 86400 }
`);
    // FRESHET_REDIS_URL points nowhere: the workers must use the cluster seeds.
    const env = { ...process.env, FRESHET_REDIS_CLUSTER: rc.seeds, FRESHET_REDIS_URL: 'redis://127.0.0.1:1', FRESHET_INDEX_PREFIX: s.prefix, FRESHET_LOG_LEVEL: 'warn' };
    try {
      const [a, b] = await Promise.all([runWorker(file, env, site.url), runWorker(file, env, site.url)]);
      expect([a.code, b.code]).toEqual([0, 0]);
      expect([a.summary.stoppedBy, b.summary.stoppedBy]).toEqual(['idle', 'idle']);
      // Both did real work, and together exactly one visit per subject: no claim overlapped.
      expect(a.summary.jobs).toBeGreaterThan(10);
      expect(b.summary.jobs).toBeGreaterThan(10);
      expect(a.summary.jobs + b.summary.jobs).toBe(100);
      expect(a.summary.jobsFailed + b.summary.jobsFailed + a.summary.leasesLost + b.summary.leasesLost).toBe(0);
      // No URL was fetched twice: no subject was visited by both workers.
      const urls = site.requestLog.entries().map((e) => e.url);
      expect(urls.length).toBeGreaterThan(100);
      expect(new Set(urls).size).toBe(urls.length);

      const truth = truthIds(site);
      const got = await indexedPosts(s.client, indexName(s.prefix, 'posts'));
      expect(truth.size).toBeGreaterThan(300);
      expect([...truth.keys()].filter((id) => !got.has(id))).toEqual([]);
      expect(got.size).toBe(truth.size);
      expect([...got.values()].filter((d) => d.version !== 1)).toEqual([]); // nothing indexed twice
      // The frontier's keys are spread over the three masters.
      const perNode = await Promise.all(cluster.nodes('master').map((n) => n.dbsize()));
      expect(perNode.filter((n) => n > 0)).toHaveLength(3);
    } finally {
      await site.close();
      await deleteClusterKeys(cluster, `freshet:${name}*`);
    }
  });
});
