import { build, frozenSimsite, pipelineFor, seedsOf } from '../../helpers/crawl';
import { useRedis, useSearch, type TestRedis, type TestSearch } from '../../helpers/services';

/**
 * Issue 24: Node turns a timer delay above 2^31−1 ms into 1 ms. `--duration-secs 2592000` (30
 * days) stopped the run after a few ms, and `lease_secs: 10000000` heartbeat Redis in a loop.
 */
describe('a run with durations past what a Node timer holds', () => {
  let r: TestRedis;
  let s: TestSearch;
  let site: Awaited<ReturnType<typeof frozenSimsite>>;

  beforeAll(async () => {
    r = await useRedis('long-timers');
    s = await useSearch('long-timers');
    site = await frozenSimsite(20, 5);
  });
  afterAll(async () => {
    await site.close();
    await s.cleanup();
    await r.cleanup();
  });

  it('a 30-day duration does not stop the run, and huge lease and reap periods do not spin', async () => {
    const parsed = pipelineFor(site, 'long-timers', seedsOf(site));
    // Past the schema on purpose: the runner's timers must hold even if a value got by validation.
    const config = { ...parsed, source: { ...parsed.source, lease_secs: 10_000_000, reap_interval_secs: 10_000_000 } };
    const built = await build(config, r.redis, s.client, s.prefix);
    const sent = jest.spyOn(r.redis, 'sendCommand');
    try {
      const summary = await built.runner.run({ untilIdle: true, durationMs: 2_592_000 * 1000 });
      expect(summary).toMatchObject({ stoppedBy: 'idle', jobs: 20, jobsFailed: 0 });
      // 20 visits took ~135 commands here; with the heartbeat on a 1 ms loop, ~730 in 1.4 s.
      expect(sent.mock.calls.length).toBeLessThan(400);
    } finally {
      sent.mockRestore();
      await built.close();
    }
  });
});
