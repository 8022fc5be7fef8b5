import { setTimeout as sleep } from 'node:timers/promises';
import { ManualClock } from '../../../src/core/clock';
import { silentLogger } from '../../../src/core/logger';
import { createMetrics } from '../../../src/core/metrics';
import { seededRng } from '../../../src/core/rng';
import { parsePipeline } from '../../../src/pipeline/load';
import { buildPipeline } from '../../../src/runner/build';
import { indexName } from '../../../src/search/templates';
import { createWorld, startSimsite, type SimsiteHandle } from '../../../src/simsite';
import { allPostDocs, median, scoreMonitoring } from '../../helpers/monitoring-score';
import { MAPPINGS } from '../../helpers/crawl';
import { useRedis, useSearch, type TestRedis, type TestSearch } from '../../helpers/services';

const HOUR_MS = 3_600_000;
const INTERVAL_MS = 4 * HOUR_MS;
const ROUNDS = 12;

/**
 * Deletion monitoring through the whole crawl path (runner, Redis, OpenSearch) against simsite with
 * a post lifecycle and faults on: posts deleted, removed, restricted and edited while freshet
 * revisits every user every 4 h; 5xx bursts, soft blocks of every kind and truncated bodies injected.
 */
describe('monitored social crawl (deletions, edits, media) with faults on', () => {
  let r: TestRedis;
  let s: TestSearch;
  let site: SimsiteHandle;

  beforeAll(async () => {
    r = await useRedis('monitoring');
    s = await useSearch('monitoring');
  });
  afterAll(async () => {
    await site?.close();
    await s.cleanup();
    await r.cleanup();
  });

  it('records deletions with their status and a bracket holding the true time, no false tombstone, edits as versions, media of every post', async () => {
    const lifecycle = {
      deletedShare: 0.08, removedShare: 0.03, restrictedShare: 0.03, editedShare: 0.1, meanLifetimeMs: 24 * HOUR_MS, meanEditDelayMs: 6 * HOUR_MS,
      videoShare: 0.2, accountGoneShare: 0.1, meanAccountLifetimeMs: 36 * HOUR_MS,
    };
    const world = createWorld({ seed: 61, users: 80, historyDays: 3, lifecycle });
    const frozen = new ManualClock(world.startMs);
    site = await startSimsite({
      world, clock: frozen, port: 0, weibo: { era: 'modern2022' },
      faults: { seed: 5, pathPrefixes: ['/api/', '/statuses/'], serverErrors: { rate: 0.02, burstLength: 2 }, softErrors: { rate: 0.03, kinds: ['captcha', 'frequent', 'captcha_limit', 'captcha_html', 'http432'] }, truncated: { rate: 0.02 } },
    });
    // The busiest users: enough posts to go and to be edited within three days.
    const users = world.users.filter((u) => !u.zombie).sort((a, b) => world.postCountAt(b.index, world.startMs) - world.postCountAt(a.index, world.startMs)).slice(0, 16);
    const seeds = users.map((u) => `weibo:user:${u.uid}`);
    const config = parsePipeline(`name: monitoring
seeds: ${JSON.stringify(seeds)}
source: { type: redis_frontier, shards: 2, max_in_flight: 16, poll_interval_ms: 20, lease_secs: 60 }
fetch: { type: http_fetch, allow_private_networks: true, respect_robots: false, retry: { max_attempts: 3, base_delay_ms: 5, max_delay_ms: 20 } }
parse:
  type: weibo_api
  base_url: ${site.url}
  first_visit_page_limit: 200
  page_limit: 5
  recheck_pages: 10
  recheck_hours: 48
  sweep_pages: 2
  sweep_horizon_days: 10
  monitor: { checks_per_visit: 30 }
sink: { type: elasticsearch, flush_interval_ms: 50, replicas: 0 }
stages:
  - { type: language }
schedule: { type: fixed_interval, interval_secs: ${INTERVAL_MS / 1000} }
`, 'monitoring.yaml');
    const deps = {
      redis: r.redis, search: s.client, indexPrefix: s.prefix, mappingsDir: MAPPINGS, clock: frozen, rng: seededRng(1),
      logger: silentLogger, metrics: createMetrics(), sleep: (ms: number) => sleep(ms), namespace: `${r.prefix}:frontier`,
    };
    for (let round = 0; round < ROUNDS; round++) {
      const built = await buildPipeline({ ...config, seeds: round === 0 ? seeds : [] }, deps);
      await built.runner.run({ untilIdle: true });
      await built.close();
      // Four simulated hours pass in well under the index's 1 s refresh: make this round's posts
      // searchable, as they would be long before the next visit in real time.
      await s.client.indices.refresh({ index: indexName(s.prefix, 'posts') });
      frozen.advanceMs(INTERVAL_MS);
    }
    const docs = await allPostDocs(s.client, indexName(s.prefix, 'posts'));
    const score = scoreMonitoring(docs, { world, era: 'modern2022', uids: users.map((u) => u.uid), endMs: frozen.nowMs(), graceMs: 2 * INTERVAL_MS, intervalMs: INTERVAL_MS });

    // MONITOR_DEBUG=1: the scores and examples of what was missed.
    if (process.env['MONITOR_DEBUG']) console.log(JSON.stringify({ ...score, deletions: { ...score.deletions, bracketWidthsMs: score.deletions.bracketWidthsMs.length } }, null, 1));
    expect(score.falseTombstoneIds).toEqual([]);
    expect(score.deletions.eligible).toBeGreaterThan(20);
    expect({ wrong: score.deletions.wrongStatus, outside: score.deletions.outsideBracket }).toEqual({ wrong: 0, outside: 0 });
    expect(score.deletions.recorded / score.deletions.eligible).toBeGreaterThanOrEqual(0.95);
    expect(median(score.deletions.bracketWidthsMs)).toBeLessThanOrEqual(1.5 * INTERVAL_MS);
    expect(score.edits.eligible).toBeGreaterThan(5);
    expect(score.edits.captured / score.edits.eligible).toBeGreaterThanOrEqual(0.95);
    expect(score.media.eligible).toBeGreaterThan(20);
    expect(score.media.captured).toBe(score.media.eligible);
    expect(score.completeness.duplicates).toBe(0);
    // Tombstoned posts keep their last text.
    const tomb = docs.find((d) => d['status'] !== 'active');
    expect(typeof tomb?.['text']).toBe('string');
  }, 240_000);
});
