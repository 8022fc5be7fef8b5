import { setTimeout as sleep } from 'node:timers/promises';
import { ManualClock } from '../../../src/core/clock';
import { silentLogger } from '../../../src/core/logger';
import { createMetrics } from '../../../src/core/metrics';
import { seededRng } from '../../../src/core/rng';
import { auditLines } from '../../../src/monitor/ledger';
import { parsePipeline } from '../../../src/pipeline/load';
import { buildPipeline } from '../../../src/runner/build';
import { readLedger } from '../../../src/runner/ledger';
import { indexName } from '../../../src/search/templates';
import { createWorld, startSimsite, truthPostsOf, type SimsiteHandle } from '../../../src/simsite';
import { MAPPINGS } from '../../helpers/crawl';
import { useRedis, useSearch, type TestRedis, type TestSearch } from '../../helpers/services';

const HOUR_MS = 3_600_000;

/**
 * The completeness ledger through the crawl path: posts lost from the index (no gap explains them)
 * are listed by the audit with their number, read again on the visit after a profile read, and the
 * books close; every other subject is complete all along.
 */
describe('completeness ledger', () => {
  let r: TestRedis;
  let s: TestSearch;
  let site: SimsiteHandle;

  beforeAll(async () => {
    r = await useRedis('ledger');
    s = await useSearch('ledger');
  });
  afterAll(async () => {
    await site?.close();
    await s.cleanup();
    await r.cleanup();
  });

  it('lists exactly the subjects with posts missing, re-reads them, and closes the books', async () => {
    const world = createWorld({ seed: 23, users: 60, historyDays: 4 });
    const frozen = new ManualClock(world.startMs);
    site = await startSimsite({ world, clock: frozen, port: 0, weibo: { era: 'modern2022' } });
    const users = world.users.filter((u) => !u.zombie && world.postCountAt(u.index, world.startMs) >= 15).slice(0, 6);
    const seeds = users.map((u) => `weibo:user:${u.uid}`);
    const config = parsePipeline(`name: ledger
seeds: ${JSON.stringify(seeds)}
source: { type: redis_frontier, shards: 2, max_in_flight: 8, poll_interval_ms: 20 }
fetch: { type: http_fetch, allow_private_networks: true, respect_robots: false }
parse: { type: weibo_api, base_url: ${site.url}, first_visit_page_limit: 100, profile_every_visits: 2, monitor: {} }
sink: { type: elasticsearch, flush_interval_ms: 50, replicas: 0 }
schedule: { type: fixed_interval, interval_secs: ${4 * 3600} }
`, 'ledger.yaml');
    const deps = {
      redis: r.redis, search: s.client, indexPrefix: s.prefix, mappingsDir: MAPPINGS, clock: frozen, rng: seededRng(1),
      logger: silentLogger, metrics: createMetrics(), sleep: (ms: number) => sleep(ms), namespace: `${r.prefix}:frontier`,
    };
    const posts = indexName(s.prefix, 'posts');
    const ix = { posts, users: indexName(s.prefix, 'users') };
    const round = async (first: boolean): Promise<void> => {
      const built = await buildPipeline({ ...config, seeds: first ? seeds : [] }, deps);
      await built.runner.run({ untilIdle: true });
      await built.close();
      await s.client.indices.refresh({ index: `${posts},${ix.users}` });
    };
    await round(true);
    const ledger = async () => {
      const built = await buildPipeline({ ...config, seeds: [] }, deps);
      const entries = await readLedger(built.frontier, s.client, ix);
      await built.close();
      return entries;
    };
    const before = await ledger();
    expect(before.map((e) => [e.subject, e.complete])).toEqual([...seeds].sort().map((x) => [x, true]));

    // Three posts of one user are lost from the index (a write that never happened).
    const victim = users[2]!;
    const lost = [...truthPostsOf(world, victim.index, world.historyStartMs, world.startMs)].slice(3, 6).map((p) => `weibo:${p.id}`);
    for (const id of lost) await s.client.delete({ index: posts, id });
    await s.client.indices.refresh({ index: posts });
    const audit = auditLines(await ledger());
    expect(audit.slice(0, -1)).toEqual([`weibo:user:${victim.uid}\tdeclared=${before.find((e) => e.subject === `weibo:user:${victim.uid}`)!.declared}\tindexed=${before.find((e) => e.subject === `weibo:user:${victim.uid}`)!.active - 3}\ttombstoned=0\tmissing=3\tuncounted`]);
    expect(audit.at(-1)).toMatch(/^6 subjects, 1 with open gaps; completeness 9\d\.\d\d %$/);

    // The next visit (the one after a profile read) notices and reads the timeline again.
    frozen.advanceMs(4 * HOUR_MS);
    await round(false);
    for (const id of lost) expect((await s.client.exists({ index: posts, id }))).toBe(true);
    const after = await ledger();
    expect(after.filter((e) => !e.complete)).toEqual([]);
  }, 120_000);
});
