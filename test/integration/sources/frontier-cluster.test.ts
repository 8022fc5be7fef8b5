import type { Cluster } from 'ioredis';
import { ManualClock } from '../../../src/core/clock';
import { newSubjectState } from '../../../src/core/envelope';
import { OriginPoliteness } from '../../../src/limits/origin-politeness';
import { FrontierCounts } from '../../../src/sources/frontier/counts';
import { DeadLetterStream } from '../../../src/sources/frontier/dead-letters';
import { RedisFrontier, type FrontierOptions } from '../../../src/sources/frontier/frontier';
import { shardKeys } from '../../../src/sources/frontier/keys';
import { uniquePrefix } from '../../helpers/services';
import { deleteClusterKeys, startRedisCluster, type RedisClusterHandle } from '../../helpers/redis-cluster';

describe('RedisFrontier on a real Redis Cluster (3 masters)', () => {
  let rc: RedisClusterHandle;
  let cluster: Cluster;
  let clock: ManualClock;
  let opts: FrontierOptions;
  const workers: Cluster[] = [];
  /** A worker: its own cluster connection, as a separate process would have. */
  const worker = () => {
    const c = rc.client();
    workers.push(c);
    const parts = { counts: new FrontierCounts(c, opts, clock), deadLetters: new DeadLetterStream(c, opts, clock), origins: new OriginPoliteness(c, opts.namespace, clock) };
    return Object.assign(new RedisFrontier(c, opts, clock), parts);
  };
  const subjects = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ subject: `weibo:user:${from + i}`, state: newSubjectState(0) }));

  beforeAll(async () => {
    rc = await startRedisCluster('free');
    cluster = rc.client();
  }, 90_000);
  afterAll(async () => {
    cluster.disconnect();
    await rc.stop();
  });
  beforeEach(() => {
    clock = new ManualClock(1_000_000);
    opts = { namespace: uniquePrefix('cluster').slice(0, -1), shards: 16, leaseMs: 10_000, bloomCapacity: 10_000, bloomFalsePositiveRate: 0.01, deadLetterMaxLen: 1000 };
  });
  afterEach(async () => {
    await deleteClusterKeys(cluster, `${opts.namespace}*`);
    for (const w of workers.splice(0)) w.disconnect();
  });

  it('spreads the shards over every master', async () => {
    const f = worker();
    expect(await f.offer(subjects(800))).toBe(800);
    expect(await f.offer(subjects(900))).toBe(100);
    const perNode = await Promise.all(cluster.nodes('master').map(async (node) => {
      let n = 0;
      for (let s = 0; s < opts.shards; s++) if ((await node.exists(shardKeys(opts.namespace, s).counts).catch(() => 0)) === 1) n++;
      return n;
    }));
    expect(perNode).toHaveLength(3);
    expect(perNode.every((n) => n > 0)).toBe(true);
    expect(perNode.reduce((a, b) => a + b, 0)).toBe(opts.shards);
    expect(await f.counts.stats()).toMatchObject({ subjects: 900, due: 900, leased: 0 });
  });

  it('claims from several workers at once never overlap, and acks span slots on every node', async () => {
    await worker().offer(subjects(600));
    const ws = [worker(), worker(), worker()];
    const claimed = new Map<string, number>();
    const acked: Promise<boolean[]>[] = [];
    // Claim concurrently until the queue is dry; each worker acks its own batches (across slots).
    await Promise.all(ws.map(async (w, wi) => {
      for (;;) {
        const jobs = await w.claim(25);
        if (jobs.length === 0) return;
        for (const j of jobs) claimed.set(j.subject, (claimed.get(j.subject) ?? 0) * 10 + wi + 1);
        acked.push(w.ack(jobs.map((job) => ({ job, state: { ...job.state, visits: 1 }, nextDueMs: clock.nowMs() + 60_000 }))));
      }
    }));
    expect(claimed.size).toBe(600);
    expect([...claimed.values()].filter((v) => v > 3)).toEqual([]); // claimed twice → two digits
    const results = (await Promise.all(acked)).flat();
    expect(results).toHaveLength(600);
    expect(results.every(Boolean)).toBe(true);
    const f = worker();
    expect(await f.counts.stats()).toMatchObject({ subjects: 600, due: 600, dueNow: 0, leased: 0 });
    expect((await f.getState('weibo:user:123'))!.visits).toBe(1);
    expect(await f.nextDue('weibo:user:123')).toBe(clock.nowMs() + 60_000);
  });

  it('reaps a dead worker\'s leases for another worker; the dead one\'s late ack is refused', async () => {
    const dead = worker();
    await dead.offer(subjects(40));
    const lost = await dead.claim(40);
    expect(lost).toHaveLength(40);
    const alive = worker();
    expect(await alive.claim(40)).toHaveLength(0);
    clock.advanceMs(11_000);
    expect(await alive.reap()).toBe(40);
    const again = await alive.claim(100);
    expect(new Set(again.map((j) => j.subject))).toEqual(new Set(lost.map((j) => j.subject)));
    expect(await dead.ack(lost.slice(0, 5).map((job) => ({ job, state: job.state, nextDueMs: 0 })))).toEqual([false, false, false, false, false]);
    const items = again.map((job) => ({ job, state: { ...job.state, visits: 1 }, nextDueMs: -1 }));
    expect((await alive.ack(items)).every(Boolean)).toBe(true);
    // Retried after a lost reply (e.g. a Redis restart): recognised as already stored.
    expect((await alive.ack(items)).every(Boolean)).toBe(true);
    expect(await alive.counts.stats()).toMatchObject({ subjects: 40, due: 0, leased: 0 });
  });

  it('keeps extended leases; politeness and dead letters hold across workers', async () => {
    const a = worker();
    const b = worker();
    await a.offer(subjects(30));
    const jobs = await a.claim(30);
    clock.advanceMs(8_000);
    expect(await a.extend(jobs)).toBe(30);
    clock.advanceMs(8_000);
    expect(await b.reap()).toBe(0);

    const p = (holder: string) => ({ minDelayMs: 1000, maxWaitMs: 5000, maxConcurrency: 1, holder, holdMs: 5000 });
    expect(await a.origins.reserve('http://h:1', p('a1'))).toEqual({ kind: 'taken' });
    expect(await b.origins.reserve('http://h:1', p('b1'))).toEqual({ kind: 'busy' });
    await a.origins.release('http://h:1', 'a1');
    expect(await b.origins.reserve('http://h:1', p('b1'))).toEqual({ kind: 'wait', waitMs: 1000 });
    clock.advanceMs(1000);
    expect(await b.origins.reserve('http://h:1', p('b1'))).toEqual({ kind: 'taken' });

    await a.deadLetters.deadLetter({ code: 'E_PARSE_JSON', stage: 'weibo_api', subject: 'weibo:user:1', message: 'truncated' });
    await a.counts.countThroughput(5, 50);
    expect(await b.deadLetters.read()).toEqual([expect.objectContaining({ code: 'E_PARSE_JSON', subject: 'weibo:user:1' })]);
    expect((await b.counts.stats()).deadLetters).toBe(1);
  });
});
