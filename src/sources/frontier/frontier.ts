import { randomBytes } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';
import type { Clock } from '../../core/clock';
import type { Job, SubjectState } from '../../core/envelope';
import type { DeadLetter } from '../../core/dead-letter';
import { ErrorCodes, FreshetError } from '../../core/errors';
import { bloomSize, type BloomSize } from './bloom';
import { bucketOf, bucketsPerShard, deadLetterKey, originHoldersKey, originKey, shardKeys, shardOf, throughputKey, type ShardKeys } from './keys';
import { packSubject, packedDue, unpackSubject } from './packed-state';
import { ackScript, claimScript, countDueScript, extendScript, offerScript, politeScript, reapScript, releaseScript, rescheduleScript } from './scripts';

export interface FrontierOptions {
  /** Key namespace; one per crawl (pipeline name, or a per-test prefix). */
  namespace: string;
  shards: number;
  leaseMs: number;
  bloomCapacity: number;
  bloomFalsePositiveRate: number;
  /** Dead-letter stream length cap (approximate, XADD MAXLEN ~). */
  deadLetterMaxLen: number;
}

export interface FrontierStats {
  subjects: number;
  due: number;
  dueNow: number;
  leased: number;
  deadLetters: number;
  /** Acknowledged visits and settled documents per minute, averaged over the last 5 minutes. */
  visitsPerMin: number;
  docsPerMin: number;
}

const THROUGHPUT_WINDOW_MIN = 5;

export interface AckItem {
  job: Job;
  state: SubjectState;
  /** Negative: do not schedule again. */
  nextDueMs: number;
  /** Documents the visit settled (throughput accounting only). */
  docs?: number;
}

type RedisLike = Redis | Cluster;

export type PoliteSlot = { kind: 'taken' } | { kind: 'wait'; waitMs: number } | { kind: 'too_far'; waitMs: number } | { kind: 'busy' };
type Runner = (...args: (string | number)[]) => Promise<unknown>;

const COMMANDS = {
  freshetClaim: { lua: claimScript, numberOfKeys: 4 },
  freshetAck: { lua: ackScript, numberOfKeys: 4 },
  freshetExtend: { lua: extendScript, numberOfKeys: 2 },
  freshetReap: { lua: reapScript, numberOfKeys: 4 },
  freshetOffer: { lua: offerScript, numberOfKeys: 3 },
  freshetReschedule: { lua: rescheduleScript, numberOfKeys: 3 },
  freshetCountDue: { lua: countDueScript, numberOfKeys: 1 },
  freshetPolite: { lua: politeScript, numberOfKeys: 2 },
  freshetRelease: { lua: releaseScript, numberOfKeys: 1 },
} as const;

/**
 * The Redis frontier: subjects with packed state in small listpack buckets, an index of bucket due
 * times, leases with expiry, a Bloom filter for discovery dedup and cross-worker politeness. All
 * writes are Lua scripts on one shard's keys (layout: scripts.ts).
 */
export class RedisFrontier {
  readonly opts: FrontierOptions;
  private readonly redis: RedisLike;
  private readonly clock: Clock;
  private readonly keys: ShardKeys[];
  private readonly bloom: BloomSize;
  /** Buckets per shard, from the expected size (bloom capacity): fixed for the frontier's life. */
  private readonly buckets: number;
  private readonly token: string;
  private nextShard = 0;

  constructor(redis: RedisLike, opts: FrontierOptions, clock: Clock) {
    this.redis = redis;
    this.opts = opts;
    this.clock = clock;
    this.keys = Array.from({ length: opts.shards }, (_, i) => shardKeys(opts.namespace, i));
    // The Bloom filter is per shard: size each for its share of the capacity.
    this.bloom = bloomSize(Math.max(1, Math.ceil(opts.bloomCapacity / opts.shards)), opts.bloomFalsePositiveRate);
    this.buckets = bucketsPerShard(opts.bloomCapacity, opts.shards);
    this.token = randomBytes(8).toString('hex');
    for (const [name, def] of Object.entries(COMMANDS)) redis.defineCommand(name, def);
  }

  private run(name: keyof typeof COMMANDS | `${keyof typeof COMMANDS}Buffer`): Runner {
    return (this.redis as unknown as Record<string, Runner>)[name]!.bind(this.redis);
  }

  private bucketKey(subject: string): string {
    return `${this.keys[shardOf(subject, this.opts.shards)]!.bucketPrefix}${bucketOf(subject, this.buckets)}`;
  }

  /** Items grouped by the shard of their subject, in their order. */
  private byShard<T>(items: readonly T[], subjectOf: (item: T) => string): Map<number, T[]> {
    const groups = new Map<number, T[]>();
    for (const item of items) {
      const s = shardOf(subjectOf(item), this.opts.shards);
      const group = groups.get(s);
      if (group) group.push(item);
      else groups.set(s, [item]);
    }
    return groups;
  }

  private async put(items: { subject: string; state: SubjectState }[], dueMs: number): Promise<number> {
    const byShard = this.byShard(items, (i) => i.subject);
    const added = await Promise.all([...byShard].map(([shard, group]) => {
      const k = this.keys[shard]!;
      const pairs: (string | Buffer)[] = [];
      for (const { subject, state } of group) pairs.push(subject, packSubject(state, dueMs));
      return this.run('freshetOffer')(k.bloom, k.bdue, k.counts, this.bloom.bits, this.bloom.hashes, this.buckets, k.bucketPrefix, ...(pairs as string[]));
    })).catch((err: Error) => {
      // A worker configured unlike the frontier it joins must not start (it would miss subjects).
      if (err.message.includes('FRESHET_FRONTIER_LAYOUT')) throw new FreshetError(ErrorCodes.configInvalid, 'critical', err.message, { namespace: this.opts.namespace }, err);
      throw err;
    });
    return added.reduce<number>((sum, n) => sum + Number(n), 0);
  }

  /**
   * Adds subjects not yet known; known ones are left as they are, except recorded zombies, which are
   * promoted (take the offered state and due time). Returns how many were new.
   */
  async offer(items: { subject: string; state: SubjectState }[], dueMs = this.clock.nowMs()): Promise<number> {
    return this.put(items, Math.max(0, dueMs));
  }

  /**
   * Adds subjects as known but never due (zombies): dedup like `offer`, no due entry. Known
   * subjects are left as they are. Returns how many were new.
   */
  async record(items: { subject: string; state: SubjectState }[]): Promise<number> {
    return this.put(items, -1);
  }

  /**
   * Claims up to n due subjects. Every shard is asked for an even share at once (one round trip),
   * so a claim takes each shard's earliest-due subjects rather than all of one shard's before the
   * next: across shards, claims stay close to due order (breadth-first discovery) and none starves.
   * Shards that filled their share are asked again for what others could not give.
   */
  async claim(n: number): Promise<Job[]> {
    const now = this.clock.nowMs();
    const shards = this.opts.shards;
    const first = this.nextShard;
    this.nextShard = (this.nextShard + 1) % shards;
    const order = Array.from({ length: shards }, (_, i) => (first + i) % shards);
    const base = Math.floor(n / shards);
    const quotas = order.map((_, i) => base + (i < n % shards ? 1 : 0));
    const got = await Promise.all(order.map((s, i) => (quotas[i]! > 0 ? this.claimFrom(s, quotas[i]!, now) : [])));
    const jobs = got.flat();
    for (let i = 0; i < shards && jobs.length < n; i++) {
      if (quotas[i]! > 0 && got[i]!.length < quotas[i]!) continue; // that shard has nothing more due
      jobs.push(...(await this.claimFrom(order[i]!, n - jobs.length, now)));
    }
    return jobs;
  }

  private async claimFrom(shard: number, n: number, now: number): Promise<Job[]> {
    const k = this.keys[shard]!;
    const out = (await this.run('freshetClaimBuffer')(k.bdue, k.lease, k.owner, k.counts, now, n, now + this.opts.leaseMs, this.token, k.bucketPrefix)) as Buffer[];
    const jobs: Job[] = [];
    for (let i = 0; i < out.length; i += 2) {
      jobs.push({ subject: out[i]!.toString('utf8'), state: unpackSubject(out[i + 1]!), claimedAtMs: now, leaseToken: this.token });
    }
    return jobs;
  }

  /**
   * Acknowledges visits in one round trip, one script call per shard, all sent at once (on a Redis
   * Cluster each to its own node); returns, per item, whether the lease was still ours.
   */
  async ack(items: AckItem[]): Promise<boolean[]> {
    if (items.length === 0) return [];
    const owned: boolean[] = new Array<boolean>(items.length).fill(false);
    const byShard = this.byShard(items.map((_, i) => i), (i) => items[i]!.job.subject);
    await Promise.all([...byShard].map(async ([shard, indices]) => {
      const k = this.keys[shard]!;
      const args: (string | number | Buffer)[] = [k.bdue, k.lease, k.owner, k.counts, this.buckets, k.bucketPrefix];
      for (const i of indices) {
        const { job, state, nextDueMs } = items[i]!;
        args.push(job.subject, job.leaseToken, packSubject(state, nextDueMs));
      }
      const reply = (await this.run('freshetAck')(...(args as (string | number)[])).catch((err: Error) => {
        throw new FreshetError(ErrorCodes.redisUnavailable, 'retryable', `ack failed: ${err.message}`, {}, err);
      })) as unknown[];
      reply.forEach((v, j) => {
        owned[indices[j]!] = Number(v) === 1;
      });
    }));
    return owned;
  }

  /** Counts acknowledged visits and their documents in this minute's bucket (for `status`). */
  async countThroughput(visits: number, docs: number): Promise<void> {
    const key = throughputKey(this.opts.namespace, Math.floor(this.clock.nowMs() / 60_000));
    await this.redis.pipeline().hincrby(key, 'visits', visits).hincrby(key, 'docs', docs).expire(key, 3600).exec();
  }

  /** Keeps the leases of long-running jobs alive. */
  async extend(jobs: Job[]): Promise<number> {
    const byShard = this.byShard(jobs.map((j) => j.subject), (subject) => subject);
    const until = this.clock.nowMs() + this.opts.leaseMs;
    let n = 0;
    for (const [shard, subjects] of byShard) {
      const k = this.keys[shard]!;
      n += Number(await this.run('freshetExtend')(k.lease, k.owner, until, this.token, ...subjects));
    }
    return n;
  }

  /** Returns expired leases (of dead or stalled workers) to the due queue. */
  async reap(max = 1000): Promise<number> {
    const now = this.clock.nowMs();
    let n = 0;
    for (const k of this.keys) n += Number(await this.run('freshetReap')(k.bdue, k.lease, k.owner, k.counts, now, max, this.buckets, k.bucketPrefix));
    return n;
  }

  /**
   * Makes known subjects due at `dueMs` (default now), unless leased: "visit these again now", for
   * operators and tests. Returns how many were rescheduled.
   */
  async reschedule(subjects: string[], dueMs = this.clock.nowMs()): Promise<number> {
    let n = 0;
    for (const [shard, list] of this.byShard(subjects, (subject) => subject)) {
      const k = this.keys[shard]!;
      n += Number(await this.run('freshetReschedule')(k.bdue, k.owner, k.counts, Math.max(0, Math.round(dueMs)), this.buckets, k.bucketPrefix, ...list));
    }
    return n;
  }

  /**
   * Subjects due at or before `untilMs` (not leased). Scans only buckets that may hold some,
   * 200 buckets (about 13,000 subjects) per script call so Redis never blocks for long.
   */
  async countDue(untilMs = this.clock.nowMs()): Promise<number> {
    const PAGE = 200;
    let n = 0;
    for (const k of this.keys) {
      for (let offset = 0; ; offset += PAGE) {
        const [due, scanned] = (await this.run('freshetCountDue')(k.bdue, untilMs, offset, PAGE, k.bucketPrefix)) as [number, number];
        n += Number(due);
        if (Number(scanned) < PAGE) break;
      }
    }
    return n;
  }

  /**
   * Reserves a fetch slot for an origin (see politeScript). `holder` identifies this request for
   * `releaseOrigin`; the hold expires after `holdMs` whatever happens to this worker.
   */
  async politeness(origin: string, p: { minDelayMs: number; maxWaitMs: number; maxConcurrency: number; holder: string; holdMs: number }): Promise<PoliteSlot> {
    const now = this.clock.nowMs();
    const [code, value] = (await this.run('freshetPolite')(
      originKey(this.opts.namespace, origin), originHoldersKey(this.opts.namespace, origin),
      now, p.minDelayMs, p.maxWaitMs, p.maxConcurrency, p.holder, now + p.holdMs,
    )) as [number, number];
    if (code === 0) return { kind: 'taken' };
    if (code === 3) return { kind: 'wait', waitMs: value };
    return code === 1 ? { kind: 'too_far', waitMs: value } : { kind: 'busy' };
  }

  async releaseOrigin(origin: string, holder: string): Promise<void> {
    await this.run('freshetRelease')(originHoldersKey(this.opts.namespace, origin), holder);
  }

  async deadLetter(entry: DeadLetter): Promise<void> {
    const fields: string[] = ['code', entry.code, 'stage', entry.stage, 'message', entry.message, 'at', String(this.clock.nowMs())];
    if (entry.subject) fields.push('subject', entry.subject);
    if (entry.id) fields.push('id', entry.id);
    if (entry.payload !== undefined) fields.push('payload', JSON.stringify(entry.payload));
    await this.redis.xadd(deadLetterKey(this.opts.namespace), 'MAXLEN', '~', this.opts.deadLetterMaxLen, '*', ...fields);
  }

  async readDeadLetters(count = 100): Promise<Record<string, string>[]> {
    const rows = await this.redis.xrange(deadLetterKey(this.opts.namespace), '-', '+', 'COUNT', count);
    return rows.map(([, kv]) => {
      const o: Record<string, string> = {};
      for (let i = 0; i < kv.length; i += 2) o[kv[i]!] = kv[i + 1]!;
      return o;
    });
  }

  /**
   * countDue for the status and gauges: exact while at most STATS_BUCKETS buckets per shard hold
   * due subjects (a crawl that keeps up, and the idle check); past that, the share of the first
   * STATS_BUCKETS scaled to all due buckets, so a backlog of millions costs the same as a small one
   * (a full count of 1 M due subjects takes over a second of Redis time).
   */
  private async estimateDue(untilMs: number): Promise<number> {
    const STATS_BUCKETS = 100;
    let n = 0;
    for (const k of this.keys) {
      const [due, scanned] = (await this.run('freshetCountDue')(k.bdue, untilMs, 0, STATS_BUCKETS, k.bucketPrefix)) as [number, number];
      if (Number(scanned) < STATS_BUCKETS) n += Number(due);
      else n += Math.round((Number(due) / STATS_BUCKETS) * (await this.redis.zcount(k.bdue, '-inf', Math.round(untilMs * 1000))));
    }
    return n;
  }

  async countSubjects(): Promise<number> {
    const counts = await Promise.all(this.keys.map((k) => this.redis.hget(k.counts, 'subjects')));
    return counts.reduce((a, b) => a + Number(b ?? 0), 0);
  }

  /** Every subject's state (every bucket, pipelined): for refitting the schedule model. O(N). */
  async allStates(): Promise<SubjectState[]> {
    const PAGE = 500;
    const out: SubjectState[] = [];
    for (const k of this.keys) {
      for (let from = 0; from < this.buckets; from += PAGE) {
        const pipe = this.redis.pipeline();
        for (let b = from; b < Math.min(this.buckets, from + PAGE); b++) pipe.hvalsBuffer(`${k.bucketPrefix}${b}`);
        for (const [err, vals] of (await pipe.exec()) ?? []) {
          if (err) throw new FreshetError(ErrorCodes.redisUnavailable, 'retryable', `reading states failed: ${err.message}`, {}, err);
          for (const v of vals as Buffer[]) out.push(unpackSubject(v));
        }
      }
    }
    return out;
  }

  async getState(subject: string): Promise<SubjectState | undefined> {
    const raw = await this.redis.hgetBuffer(this.bucketKey(subject), subject);
    return raw ? unpackSubject(raw) : undefined;
  }

  /** When the subject is due next; undefined when it is unknown, leased or not scheduled. */
  async nextDue(subject: string): Promise<number | undefined> {
    const raw = await this.redis.hgetBuffer(this.bucketKey(subject), subject);
    return raw ? packedDue(raw) : undefined;
  }

  async stats(): Promise<FrontierStats> {
    const now = this.clock.nowMs();
    const s: FrontierStats = { subjects: 0, due: 0, dueNow: 0, leased: 0, deadLetters: 0, visitsPerMin: 0, docsPerMin: 0 };
    for (const k of this.keys) {
      const [[subjects, due], leased] = await Promise.all([this.redis.hmget(k.counts, 'subjects', 'due'), this.redis.zcard(k.lease)]);
      s.subjects += Number(subjects ?? 0);
      s.due += Number(due ?? 0);
      s.leased += leased;
    }
    s.dueNow = await this.estimateDue(now);
    s.deadLetters = await this.redis.xlen(deadLetterKey(this.opts.namespace));
    // The last complete minutes, not the current partial one.
    const minute = Math.floor(now / 60_000);
    for (let m = minute - THROUGHPUT_WINDOW_MIN; m < minute; m++) {
      const [visits, docs] = await this.redis.hmget(throughputKey(this.opts.namespace, m), 'visits', 'docs');
      s.visitsPerMin += Number(visits ?? 0) / THROUGHPUT_WINDOW_MIN;
      s.docsPerMin += Number(docs ?? 0) / THROUGHPUT_WINDOW_MIN;
    }
    return s;
  }
}
