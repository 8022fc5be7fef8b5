import { recordingLogger, type LogRecord } from '../../../src/core/logger';
import { parsePipeline } from '../../../src/pipeline/load';
import { indexName } from '../../../src/search/templates';
import { truthAllPosts } from '../../../src/simsite';
import { build, frozenSimsite, indexedPosts } from '../../helpers/crawl';
import { hostileServer, loadHostileCases, type HostileCase } from '../../helpers/hostile-server';
import { useRedis, useSearch } from '../../helpers/services';

const GOOD_USERS = 12;

describe('hostile answers through the whole crawl path (test/fixtures/bad/http)', () => {
  it('fail each visit with its code, dead-letter or reschedule it (a soft block and one bad page only reschedule), and never stop the other subjects', async () => {
    const cases = loadHostileCases();
    const r = await useRedis('hostile');
    const s = await useSearch('hostile');
    const site = await frozenSimsite(cases.length + GOOD_USERS, 41);
    const users = site.world.users.map((u) => String(u.uid));
    const byUid = new Map<string, HostileCase>(cases.map((c, i) => [users[i]!, c]));
    const good = users.slice(cases.length);
    const hostile = await hostileServer(site.url, byUid);
    const records: LogRecord[] = [];
    try {
      const config = parsePipeline(`name: hostile
seeds: ${JSON.stringify(users.map((u) => `weibo:user:${u}`))}
source: { type: redis_frontier, shards: 4, max_in_flight: 16, poll_interval_ms: 50, lease_secs: 30, max_failures: 2, park_secs: 3600 }
fetch:
  type: http_fetch
  allowed_cidrs: [127.0.0.0/8]
  respect_robots: false
  total_timeout_ms: 4000 # the bomb is cut by size; under load its inflating took over 1.5 s and timed out first
  retry: { max_attempts: 1, base_delay_ms: 30000, max_delay_ms: 60000 }
parse: { type: weibo_api, base_url: "${hostile.url}", first_visit_page_limit: 1000 }
sink: { type: elasticsearch, flush_interval_ms: 100, replicas: 0 }
schedule: { type: fixed_interval, interval_secs: 86400 }
`, 'hostile.yaml');
      const built = await build(config, r.redis, s.client, s.prefix, recordingLogger(records));
      const first = await built.runner.run({ untilIdle: true });
      expect(first.jobs).toBe(users.length);

      const endedWith = (uid: string, msg: string): string[] => records
        .filter((x) => x.msg === msg && (x.fields as { subject?: string }).subject === `weibo:user:${uid}`)
        .map((x) => (x.fields as { code: string }).code);
      const report = cases.map((c, i) => ({ name: c.name, want: c.code, got: endedWith(users[i]!, c.partial ? 'visit stopped early; the rest is read again soon' : 'visit failed') }));
      expect(report.filter((x) => x.got.join() !== (x.want ?? ''))).toEqual([]);

      const dead = async () => new Map((await built.deadLetters.read(1000)).map((d) => [d['subject']!, d['code']!]));
      const dlq1 = await dead();
      const failing = cases.filter((c) => c.code !== null);
      for (const [i, c] of cases.entries()) {
        const subject = `weibo:user:${users[i]}`;
        const state = await built.frontier.getState(subject);
        if (c.code === null) {
          // Completed, but nothing of the bogus posts kept: no watermark that would hide real posts.
          expect({ name: c.name, ...state }).toMatchObject({ name: c.name, visits: 1, failures: 0 });
          expect(state?.watermark).toBeUndefined();
          continue;
        }
        // A soft block is throttling and a bad page passes: neither counts a failure nor is dead-lettered.
        const counted = !c.throttled && !c.partial;
        expect({ name: c.name, failures: state?.failures, dead: dlq1.get(subject) }).toEqual({ name: c.name, failures: counted ? 1 : 0, dead: c.retryable || !counted ? undefined : c.code });
        // Retryable: back off (not due again now); non-retryable: parked for park_secs; a soft block waits out its backoff;
        // a bad page is read again within minutes, not a day.
        const due = await built.frontier.nextDue(subject);
        expect(due).toBeGreaterThan(Date.now() + 20_000);
        if (c.partial || c.throttled) expect(due).toBeLessThan(Date.now() + 3_600_000);
      }

      // Every other subject completed, every one of their posts indexed.
      for (const uid of good) expect(await built.frontier.getState(`weibo:user:${uid}`)).toMatchObject({ visits: 1, failures: 0 });
      const goodSet = new Set(good);
      const truth = [...truthAllPosts(site.world, site.world.historyStartMs, site.clock.nowMs())].filter((p) => goodSet.has(String(p.uid)));
      expect(truth.length).toBeGreaterThan(50);
      const got = await indexedPosts(s.client, indexName(s.prefix, 'posts'));
      expect(truth.filter((p) => !got.has(p.id))).toEqual([]);
      expect(got.size).toBe(truth.length); // and nothing from the hostile answers
      expect(first.documents.dead_lettered).toBe(0);
      expect(first.jobsFailed).toBe(failing.filter((c) => !c.throttled && !c.partial).length);
      await built.close();

      // The retried ones fail again and, at max_failures, are dead-lettered with their code.
      const again = await build(config, r.redis, s.client, s.prefix, recordingLogger(records));
      for (const [i, c] of cases.entries()) {
        if (!c.retryable) continue;
        expect(await again.frontier.reschedule([`weibo:user:${users[i]}`], 0)).toBe(1);
      }
      const second = await again.runner.run({ untilIdle: true });
      await again.close();
      expect(second.jobs).toBe(cases.filter((c) => c.retryable).length);
      const dlq2 = await dead();
      for (const [i, c] of cases.entries()) {
        expect({ name: c.name, dead: dlq2.get(`weibo:user:${users[i]}`) }).toEqual({ name: c.name, dead: c.throttled || c.partial ? undefined : (c.code ?? undefined) });
      }
    } finally {
      await hostile.close();
      await site.close();
      await s.cleanup();
      await r.cleanup();
    }
  });
});
