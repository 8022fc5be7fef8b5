import { setTimeout as sleep } from 'node:timers/promises';
import { recordingLogger, type LogRecord } from '../../../src/core/logger';
import { indexName } from '../../../src/search/templates';
import { build, frozenSimsite, indexedPosts, pipelineFor, seedsOf, truthIds } from '../../helpers/crawl';
import { useRedis, useSearch } from '../../helpers/services';

describe('stopping on a signal with slow bodies in flight', () => {
  it('cuts the fetches at once, gives their subjects back due now and unchanged, and a later run loses nothing', async () => {
    const r = await useRedis('stop-signal');
    const s = await useSearch('stop-signal');
    // Every body trickles at 200 B/s: a profile takes ~10 s, a timeline page minutes, each under
    // the default 60 s cap per attempt and 4 attempts; a drain waiting for them took minutes.
    const site = await frozenSimsite(12, 5, { faults: { seed: 1, slowBody: { rate: 1, bytesPerSec: 200 } } });
    const records: LogRecord[] = [];
    try {
      const config = pipelineFor(site, 'stop-signal', seedsOf(site), '');
      const first = await build(config, r.redis, s.client, s.prefix, recordingLogger(records));
      const running = first.runner.run();
      await sleep(1500);
      expect(first.runner.inFlightJobs).toBe(12);
      const stoppedAt = Date.now();
      first.runner.stop('signal');
      const summary = await running;
      const drainMs = Date.now() - stoppedAt;
      await first.close();
      expect(drainMs).toBeLessThan(3000);
      expect(summary).toMatchObject({ jobs: 12, jobsFailed: 0, jobsRequeued: 12, stoppedBy: 'signal' });
      expect(records.filter((x) => x.msg === 'visit failed')).toEqual([]);
      // Given back: nothing leased (no lease to wait out), every subject due now, no failure counted.
      const stats = await first.counts.stats({ exact: true });
      expect(stats).toMatchObject({ subjects: 12, leased: 0, dueNow: 12, deadLetters: 0 });
      for (const seed of seedsOf(site)) expect(await first.frontier.getState(seed)).toMatchObject({ failures: 0, visits: 0 });

      // The site recovers; the next run reads every post, once.
      site.setFaults({});
      const second = await build(config, r.redis, s.client, s.prefix);
      const after = await second.runner.run({ untilIdle: true });
      await second.close();
      expect(after).toMatchObject({ jobs: 12, jobsFailed: 0 });
      const truth = truthIds(site);
      const got = await indexedPosts(s.client, indexName(s.prefix, 'posts'));
      expect([...truth.keys()].filter((id) => !got.has(id))).toEqual([]);
      expect(got.size).toBe(truth.size);
    } finally {
      await site.close();
      await s.cleanup();
      await r.cleanup();
    }
  });
});
