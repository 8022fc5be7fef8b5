import { setTimeout as sleep } from 'node:timers/promises';
import { recordingLogger, type LogRecord } from '../../../src/core/logger';
import { parsePipeline } from '../../../src/pipeline/load';
import { indexName } from '../../../src/search/templates';
import { deadLetterKey } from '../../../src/sources/frontier/keys';
import { build, frozenSimsite, indexedPosts, seedsOf, truthIds } from '../../helpers/crawl';
import { useRedis, useSearch } from '../../helpers/services';

const SHARDS = 4;

describe('simsite misbehaving: 5xx bursts, held requests, slow bodies, truncated and malformed JSON', () => {
  it('indexes every post eventually, each once, with no subject given up', async () => {
    const r = await useRedis('site-faults');
    const s = await useSearch('site-faults');
    const site = await frozenSimsite(60, 71, {
      faults: {
        seed: 9,
        serverErrors: { rate: 0.04, burstLength: 3, status: 503 },
        timeouts: { rate: 0.02, holdMs: 4000 },
        slowBody: { rate: 0.02, bytesPerSec: 2000 },
        truncated: { rate: 0.02 },
        malformed: { rate: 0.01 },
      },
    });
    const records: LogRecord[] = [];
    const namespace = `${s.prefix}frontier`;
    try {
      const config = parsePipeline(`name: site-faults
seeds: ${JSON.stringify(seedsOf(site))}
source: { type: redis_frontier, shards: ${SHARDS}, max_in_flight: 16, poll_interval_ms: 50, lease_secs: 30, max_failures: 8 }
fetch:
  type: http_fetch
  allowed_cidrs: [127.0.0.0/8]
  respect_robots: false
  total_timeout_ms: 1500
  headers_timeout_ms: 1500
  retry: { max_attempts: 4, base_delay_ms: 50, max_delay_ms: 400 }
parse: { type: weibo_api, base_url: "${site.url}", first_visit_page_limit: 1000, bad_page_backoff_secs: 1 }
sink: { type: elasticsearch, flush_interval_ms: 100, replicas: 0 }
schedule: { type: fixed_interval, interval_secs: 86400 }
`, 'site-faults.yaml');
      // --until-idle stops when nothing is due *now*; a visit that failed is due again after its
      // backoff (under a second here), one cut short by an unreadable page resumes after
      // bad_page_backoff_secs (doubling), so crawl again until no such visit is pending.
      let jobs = 0;
      for (let round = 0; round < 80; round++) {
        const built = await build(config, r.redis, s.client, s.prefix, recordingLogger(records));
        const summary = await built.runner.run({ untilIdle: true });
        await built.close();
        jobs += summary.jobs;
        if ((await built.counts.countDue(Date.now() + 60_000)) === 0) break;
        await sleep(500);
      }

      const faults = site.requestLog.entries().filter((e) => e.fault !== null);
      const kinds = new Set(faults.map((e) => e.fault));
      expect(faults.length).toBeGreaterThan(20);
      expect([...kinds].sort()).toEqual(['malformed', 'serverError', 'slowBody', 'timeout', 'truncated']);
      const failedCodes = new Set(records.filter((x) => x.msg === 'visit failed').map((x) => (x.fields as { code: string }).code));
      // Truncated or malformed pages fail the visit, which is retried later; anything else must be transient too.
      expect([...failedCodes]).toContain('E_PARSE_JSON');
      for (const code of failedCodes) expect(['E_PARSE_JSON', 'E_FETCH_HTTP_STATUS', 'E_FETCH_TIMEOUT', 'E_FETCH_CONNECTION']).toContain(code);
      expect(jobs).toBeGreaterThan(60);

      const truth = truthIds(site);
      const got = await indexedPosts(s.client, indexName(s.prefix, 'posts'));
      expect([...truth.keys()].filter((id) => !got.has(id))).toEqual([]);
      expect(got.size).toBe(truth.size);
      const dead = await r.redis.xlen(deadLetterKey(namespace));
      expect(dead).toBe(0);
    } finally {
      await site.close();
      await s.cleanup();
      await r.cleanup();
    }
  });
});
