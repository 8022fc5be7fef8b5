import { ManualClock } from '../../../../src/core/clock';
import { newSubjectState, type SubjectState } from '../../../../src/core/envelope';
import { packValidators } from '../../../../src/fetchers/conditional-get';
import { RedisFrontier, type FrontierOptions } from '../../../../src/sources/frontier/frontier';
import { shardKeys } from '../../../../src/sources/frontier/keys';
import { useRedis, type TestRedis } from '../../../helpers/services';
import { asStored } from '../../../helpers/stored-state';
import { scheduledStates } from '../../../bench/scale/scheduled-states';

/** Web page subjects stored with coded names (subject-name.ts), seen by everyone else by their full names (issue 20). */
describe('RedisFrontier subject names (real Redis)', () => {
  let t: TestRedis;
  let clock: ManualClock;
  let opts: FrontierOptions;
  const frontier = () => new RedisFrontier(t.redis, opts, clock);

  beforeEach(async () => {
    t = await useRedis('frontier-names');
    clock = new ManualClock(1_795_245_528_873);
    opts = { namespace: `${t.prefix}names`, shards: 4, leaseMs: 10_000, bloomCapacity: 10_000, bloomFalsePositiveRate: 0.01, deadLetterMaxLen: 1000 };
  });
  afterEach(async () => t.cleanup());

  const name = (i: number): string => (i % 10 === 0
    ? `web:page:https://例え.jp/ニュース/${i}?q=für`
    : `web:page:https://www.harbourdaily.example.com/news/2026/11/${100_000 + i}.html`);
  const state = (i: number): SubjectState => ({
    ...newSubjectState(1_795_245_528_000, { depth: 2 }),
    visits: 4, lastVisitMs: 1_795_245_529_000,
    meta: { v: packValidators(i % 2 === 0 ? { etag: `"5f3a9c2e-${i.toString(16)}"`, lastModifiedSecs: 1_795_240_000 } : { etag: `W/"${i}"`, lastModifiedSecs: 1_795_240_000 }), b: (48_213).toString(36) },
  });

  it('keeps web page buckets compact (listpack) and gives every reader the full names and states back', async () => {
    const f = frontier();
    const items = Array.from({ length: 2000 }, (_, i) => ({ subject: name(i), state: state(i) }));
    expect(await f.offer(items, clock.nowMs() - 1)).toBe(2000);
    expect(await f.offer(items.slice(0, 100))).toBe(0);
    const buckets = await t.redis.keys(`${opts.namespace}:*:b:*`);
    expect(buckets.length).toBeGreaterThan(100);
    for (const key of buckets) expect(await t.redis.object('ENCODING', key)).toBe('listpack');
    // Stored fields are coded (shorter than the names), never the names themselves.
    const fields = await t.redis.hkeysBuffer(buckets[0]!);
    expect(fields.every((b) => b[0]! < 0x20)).toBe(true);

    const jobs = await f.claim(2000);
    expect(jobs).toHaveLength(2000);
    const byName = new Map(items.map((x) => [x.subject, x.state]));
    for (const j of jobs) expect(j.state).toEqual(byName.get(j.subject));
    expect(await f.extend(jobs.slice(0, 10))).toBe(10);
    const owned = await f.ack(jobs.map((job) => ({ job, state: { ...job.state, visits: 5 }, nextDueMs: clock.nowMs() + 60_000 })));
    expect(owned.every(Boolean)).toBe(true);
    expect(await f.getState(name(10))).toEqual({ ...state(10), visits: 5 });
    expect(await f.nextDue(name(7))).toBe(clock.nowMs() + 60_000);
    expect(await f.reschedule([name(7), name(10)], clock.nowMs())).toBe(2);
    expect((await f.claim(10)).map((j) => j.subject).sort()).toEqual([name(10), name(7)].sort());
    const entries = await f.allEntries();
    expect(entries.map((e) => e.subject).sort()).toEqual(items.map((x) => x.subject).sort());
    expect((await f.allStates()).filter((s) => s.depth === 2)).toHaveLength(2000);
    expect(await t.redis.hget(shardKeys(opts.namespace, 0).counts, 'names')).toBe('compact');
  });

  it('keeps poisson-scheduled weibo users and web pages in listpack buckets with default Redis limits, states read back to their precision', async () => {
    const weibo = scheduledStates({
      pipeline: 'social.yaml', subjects: 500, visits: 4, medianRatePerHour: 0.1, sigma: 1.5, historyHours: 720, firstVisitMaxPosts: 2000, visitMaxPosts: 100,
      base: { ...newSubjectState(1_795_245_528_873), followers: 1234, watermark: '5012345678901234567', meta: { containerid: '' } },
    });
    const web = scheduledStates({
      pipeline: 'news-monitor.yaml', subjects: 500, visits: 4, medianRatePerHour: 0.02, sigma: 1.5, historyHours: 48, firstVisitMaxPosts: 1, visitMaxPosts: 1, latestOnly: true,
      base: { ...state(1), postsSeen: 0, visits: 0 },
    });
    const user = (i: number): string => `weibo:user:${1_000_000_000 + i * 7919}`;
    const items = [
      ...weibo.map((st, i) => ({ subject: user(i), state: { ...st, meta: { containerid: `107603${1_000_000_000 + i * 7919}` } } })),
      ...web.map((st, i) => ({ subject: name(i + 1), state: st })),
    ];
    const f = frontier();
    expect(await f.offer(items, clock.nowMs() + 3_600_000)).toBe(1000);
    const buckets = await t.redis.keys(`${opts.namespace}:*:b:*`);
    expect(buckets.length).toBeGreaterThan(10);
    expect(await t.redis.config('GET', 'hash-max-listpack-value')).toEqual(['hash-max-listpack-value', '64']);
    for (const key of buckets) expect(await t.redis.object('ENCODING', key)).toBe('listpack');
    const back = new Map((await f.allEntries()).map((e) => [e.subject, e.state]));
    for (const { subject, state: st } of items) {
      const got = back.get(subject)!;
      expect({ ...got, schedule: undefined }).toEqual({ ...asStored(st), schedule: undefined });
      // The evidence to 1e-3 post or hour; the realized delays to 0.1 (packed-schedule.ts).
      for (const [k, v] of Object.entries(st.schedule!)) {
        expect(Math.abs((got.schedule![k] as number) - (v as number))).toBeLessThanOrEqual((k === 'dp' || k === 'dh' ? 0.05 : 0.0005) + 1e-9);
      }
    }
  });

  it('keeps a frontier that held subjects before the codec on plain names (no duplicates, acks still match)', async () => {
    // A frontier filled by the previous version: plain names, no `names` field.
    await t.redis.hset(shardKeys(opts.namespace, 0).counts, 'names', 'plain');
    await frontier().offer([{ subject: name(1), state: state(1) }, { subject: name(2), state: state(2) }], clock.nowMs() - 1);
    await t.redis.hdel(shardKeys(opts.namespace, 0).counts, 'names');
    const buckets = await t.redis.keys(`${opts.namespace}:*:b:*`);
    const stored = (await Promise.all(buckets.map((b) => t.redis.hkeys(b)))).flat();
    expect(stored.sort()).toEqual([name(1), name(2)].sort());

    const f = frontier();
    expect(await f.offer([{ subject: name(1), state: state(1) }])).toBe(0);
    const jobs = await f.claim(10);
    expect(jobs.map((j) => j.subject).sort()).toEqual([name(1), name(2)].sort());
    expect(await f.ack(jobs.map((job) => ({ job, state: job.state, nextDueMs: clock.nowMs() + 1000 })))).toEqual([true, true]);
    expect(await t.redis.hget(shardKeys(opts.namespace, 0).counts, 'names')).toBe('plain');
  });

  it('refuses a naming it does not know, with a clear error', async () => {
    await t.redis.hset(shardKeys(opts.namespace, 0).counts, 'names', 'zstd-v9');
    await expect(frontier().claim(1)).rejects.toThrow(/stores subject names as "zstd-v9"/);
  });
});
