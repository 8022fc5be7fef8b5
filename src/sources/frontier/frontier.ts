import { randomBytes } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';
import type { Clock } from '../../core/clock';
import type { Job, SubjectState } from '../../core/envelope';
import { ErrorCodes, FreshetError } from '../../core/errors';
import { bloomSize, type BloomSize } from './bloom';
import { deadLetterKey, originHoldersKey, originKey, shardKeys, shardOf, throughputKey, type ShardKeys } from './keys';
import { recordScript } from './record-script';
import { ackScript, claimScript, extendScript, offerScript, politeScript, reapScript, releaseScript } from './scripts';

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

export interface DeadLetter {
  code: string;
  stage: string;
  subject?: string;
  id?: string;
  message: string;
  payload?: unknown;
}

type RedisLike = Redis | Cluster;

export type PoliteSlot = { kind: 'taken' } | { kind: 'wait'; waitMs: number } | { kind: 'too_far'; waitMs: number } | { kind: 'busy' };
type Runner = (...args: (string | number)[]) => Promise<unknown>;

const COMMANDS = {
  freshetClaim: { lua: claimScript, numberOfKeys: 4 },
  freshetAck: { lua: ackScript, numberOfKeys: 4 },
  freshetExtend: { lua: extendScript, numberOfKeys: 2 },
  freshetReap: { lua: reapScript, numberOfKeys: 3 },
  freshetOffer: { lua: offerScript, numberOfKeys: 3 },
  freshetPolite: { lua: politeScript, numberOfKeys: 2 },
  freshetRelease: { lua: releaseScript, numberOfKeys: 1 },
} as const;

/**
 * The Redis frontier: subjects with compact state, a due ZSET, leases with expiry, a Bloom filter
 * for discovery dedup and cross-worker politeness. All writes are Lua scripts on one shard's keys.
 */
export class RedisFrontier {
  readonly opts: FrontierOptions;
  private readonly redis: RedisLike;
  private readonly clock: Clock;
  private readonly keys: ShardKeys[];
  private readonly bloom: BloomSize;
  private readonly token: string;
  private nextShard = 0;

  constructor(redis: RedisLike, opts: FrontierOptions, clock: Clock) {
    this.redis = redis;
    this.opts = opts;
    this.clock = clock;
    this.keys = Array.from({ length: opts.shards }, (_, i) => shardKeys(opts.namespace, i));
    // The Bloom filter is per shard: size each for its share of the capacity.
    this.bloom = bloomSize(Math.max(1, Math.ceil(opts.bloomCapacity / opts.shards)), opts.bloomFalsePositiveRate);
    this.token = randomBytes(8).toString('hex');
    for (const [name, def] of Object.entries(COMMANDS)) redis.defineCommand(name, def);
  }

  private run(name: keyof typeof COMMANDS): Runner {
    return (this.redis as unknown as Record<string, Runner>)[name]!.bind(this.redis);
  }

  /** Adds subjects not yet known; known ones are left as they are. Returns how many were new. */
  async offer(items: { subject: string; state: SubjectState }[], dueMs = this.clock.nowMs()): Promise<number> {
    const byShard = new Map<number, (string | number)[]>();
    for (const { subject, state } of items) {
      const s = shardOf(subject, this.opts.shards);
      const args = byShard.get(s) ?? [];
      args.push(subject, JSON.stringify(state));
      byShard.set(s, args);
    }
    const added = await Promise.all([...byShard].map(([shard, pairs]) => {
      const k = this.keys[shard]!;
      return this.run('freshetOffer')(k.bloom, k.state, k.due, this.bloom.bits, this.bloom.hashes, dueMs, ...pairs);
    }));
    return added.reduce<number>((sum, n) => sum + Number(n), 0);
  }

  /**
   * Adds subjects as known but never due (zombies): dedup like `offer`, no due entry. Known
   * subjects are left as they are. Returns how many were new.
   */
  async record(items: { subject: string; state: SubjectState }[]): Promise<number> {
    const byShard = new Map<number, string[]>();
    for (const { subject, state } of items) {
      const s = shardOf(subject, this.opts.shards);
      byShard.set(s, [...(byShard.get(s) ?? []), subject, JSON.stringify(state)]);
    }
    const added = await Promise.all([...byShard].map(([shard, pairs]) => {
      const k = this.keys[shard]!;
      return this.redis.eval(recordScript, 2, k.bloom, k.state, this.bloom.bits, this.bloom.hashes, ...pairs);
    }));
    return added.reduce<number>((sum, n) => sum + Number(n), 0);
  }

  /** Claims up to n due subjects, visiting shards round-robin so none starves. */
  async claim(n: number): Promise<Job[]> {
    const now = this.clock.nowMs();
    const jobs: Job[] = [];
    for (let tried = 0; tried < this.opts.shards && jobs.length < n; tried++) {
      const k = this.keys[this.nextShard]!;
      this.nextShard = (this.nextShard + 1) % this.opts.shards;
      const out = (await this.run('freshetClaim')(k.due, k.lease, k.owner, k.state, now, n - jobs.length, now + this.opts.leaseMs, this.token)) as string[];
      for (let i = 0; i < out.length; i += 2) {
        jobs.push({ subject: out[i]!, state: parseState(out[i + 1]!, now), claimedAtMs: now, leaseToken: this.token });
      }
    }
    return jobs;
  }

  /**
   * Acknowledges visits in one round trip; returns, per item, whether the lease was still ours.
   * On a Redis Cluster a pipeline may only span one slot group, so there it is one pipeline per
   * shard, all sent at once.
   */
  async ack(items: AckItem[]): Promise<boolean[]> {
    if (items.length === 0) return [];
    const groups = new Map<number, number[]>();
    items.forEach(({ job }, i) => {
      const g = this.redis.isCluster ? shardOf(job.subject, this.opts.shards) : 0;
      groups.set(g, [...(groups.get(g) ?? []), i]);
    });
    const owned: boolean[] = new Array<boolean>(items.length).fill(false);
    await Promise.all([...groups.values()].map(async (indices) => {
      const pipe = this.redis.pipeline() as unknown as Record<string, (...a: (string | number)[]) => unknown> & { exec(): Promise<[Error | null, unknown][] | null> };
      for (const i of indices) {
        const { job, state, nextDueMs } = items[i]!;
        const k = this.keys[shardOf(job.subject, this.opts.shards)]!;
        pipe['freshetAck']!(k.due, k.lease, k.owner, k.state, job.subject, job.leaseToken, JSON.stringify(state), Math.round(nextDueMs));
      }
      const res = (await pipe.exec()) ?? [];
      res.forEach(([err, v], j) => {
        if (err) throw new FreshetError(ErrorCodes.redisUnavailable, 'retryable', `ack failed: ${err.message}`, {}, err);
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
    const byShard = new Map<number, string[]>();
    for (const j of jobs) {
      const s = shardOf(j.subject, this.opts.shards);
      byShard.set(s, [...(byShard.get(s) ?? []), j.subject]);
    }
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
    for (const k of this.keys) n += Number(await this.run('freshetReap')(k.due, k.lease, k.owner, now, max));
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

  async countSubjects(): Promise<number> {
    const counts = await Promise.all(this.keys.map((k) => this.redis.hlen(k.state)));
    return counts.reduce((a, b) => a + b, 0);
  }

  /** Every subject's state (HSCAN per shard): for refitting the schedule model. */
  async allStates(): Promise<SubjectState[]> {
    const out: SubjectState[] = [];
    for (const k of this.keys) {
      let cursor = '0';
      do {
        const [next, kv] = await this.redis.hscan(k.state, cursor, 'COUNT', 1000);
        for (let i = 1; i < kv.length; i += 2) out.push(parseState(kv[i]!, 0));
        cursor = next;
      } while (cursor !== '0');
    }
    return out;
  }

  async getState(subject: string): Promise<SubjectState | undefined> {
    const k = this.keys[shardOf(subject, this.opts.shards)]!;
    const raw = await this.redis.hget(k.state, subject);
    return raw ? parseState(raw, 0) : undefined;
  }

  async nextDue(subject: string): Promise<number | undefined> {
    const k = this.keys[shardOf(subject, this.opts.shards)]!;
    const score = await this.redis.zscore(k.due, subject);
    return score === null ? undefined : Number(score);
  }

  async stats(): Promise<FrontierStats> {
    const now = this.clock.nowMs();
    const s: FrontierStats = { subjects: 0, due: 0, dueNow: 0, leased: 0, deadLetters: 0, visitsPerMin: 0, docsPerMin: 0 };
    for (const k of this.keys) {
      const [subjects, due, dueNow, leased] = await Promise.all([
        this.redis.hlen(k.state), this.redis.zcard(k.due), this.redis.zcount(k.due, '-inf', now), this.redis.zcard(k.lease),
      ]);
      s.subjects += subjects;
      s.due += due;
      s.dueNow += dueNow;
      s.leased += leased;
    }
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

function parseState(raw: string, nowMs: number): SubjectState {
  if (raw === '') return { firstSeenMs: nowMs, postsSeen: 0, visits: 0, failures: 0, status: 'active' };
  return JSON.parse(raw) as SubjectState;
}
