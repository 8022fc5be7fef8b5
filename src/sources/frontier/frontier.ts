import { randomBytes } from 'node:crypto';
import type { Clock } from '../../core/clock';
import type { Job, SubjectState } from '../../core/envelope';
import { ErrorCodes, FreshetError } from '../../core/errors';
import type { AckItem, JobLeases, Offered, SubjectIntake } from '../contract';
import { FrontierLayout, type FrontierOptions, type RedisLike } from './layout';
import { packSubject, packedDue, unpackSubject } from './packed-state';
import { decodeSubjectName, encodeSubjectName } from './subject-name';

export type { FrontierOptions } from './layout';

/**
 * The Redis frontier: subjects with packed state in small listpack buckets, an index of bucket due
 * times, leases with expiry and a Bloom filter for discovery dedup. It claims, leases and
 * acknowledges; its numbers are FrontierCounts' and its dead letters DeadLetterStream's. All
 * writes are Lua scripts on one shard's keys (layout: scripts.ts).
 */
export class RedisFrontier implements JobLeases, SubjectIntake {
  readonly opts: FrontierOptions;
  private readonly redis: RedisLike;
  private readonly clock: Clock;
  private readonly layout: FrontierLayout;
  private readonly token: string;
  private nextShard = 0;
  private naming?: Promise<SubjectNaming>;

  constructor(redis: RedisLike, opts: FrontierOptions, clock: Clock) {
    this.redis = redis;
    this.opts = opts;
    this.clock = clock;
    this.layout = new FrontierLayout(redis, opts);
    this.token = randomBytes(8).toString('hex');
  }

  /**
   * How this frontier stores subject names, fixed when it is created and kept in shard 0's counts
   * hash (`names`): `compact` (subject-name.ts) for a new frontier; `plain` (names as they are) for
   * one that already held subjects before the codec existed, so its stored names still match.
   */
  private names(): Promise<SubjectNaming> {
    this.naming ??= (async () => {
      const n = this.layout.keys[0]!.counts;
      const stored = await this.redis.hget(n, 'names');
      if (stored === 'compact' || stored === 'plain') return NAMINGS[stored];
      if (stored !== null) throw new FreshetError(ErrorCodes.configInvalid, 'critical', `frontier ${this.opts.namespace} stores subject names as "${stored}", which this version cannot read`, { namespace: this.opts.namespace });
      const held = await Promise.all(this.layout.keys.map((k) => this.redis.hget(k.counts, 'subjects')));
      const mode = held.some((h) => Number(h ?? 0) > 0) ? 'plain' : 'compact';
      await this.redis.hsetnx(n, 'names', mode);
      return NAMINGS[(await this.redis.hget(n, 'names')) === 'plain' ? 'plain' : 'compact'];
    })().catch((err: unknown) => {
      this.naming = undefined;
      throw err;
    });
    return this.naming;
  }

  private async put(items: Offered[], dueMs: number): Promise<number> {
    const names = await this.names();
    const stored = items.map((i) => ({ subject: i.subject, name: names.encode(i.subject), state: i.state }));
    const byShard = this.layout.byShard(stored, (i) => i.name);
    const added = await Promise.all([...byShard].map(([shard, group]) => {
      const k = this.layout.keys[shard]!;
      const pairs: (string | Buffer)[] = [];
      for (const { subject, name, state } of group) pairs.push(name, packSubject(state, dueMs, subject));
      return this.layout.script('freshetOffer')(k.bloom, k.bdue, k.counts, this.layout.bloom.bits, this.layout.bloom.hashes, this.layout.buckets, k.bucketPrefix, ...(pairs as string[]));
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
  async offer(items: Offered[], dueMs = this.clock.nowMs()): Promise<number> {
    return this.put(items, Math.max(0, dueMs));
  }

  /**
   * Adds subjects as known but never due (zombies): dedup like `offer`, no due entry. Known
   * subjects are left as they are. Returns how many were new.
   */
  async record(items: Offered[]): Promise<number> {
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
    const k = this.layout.keys[shard]!;
    const names = await this.names();
    const out = (await this.layout.script('freshetClaimBuffer')(k.bdue, k.lease, k.owner, k.counts, now, n, now + this.opts.leaseMs, this.token, k.bucketPrefix)) as Buffer[];
    const jobs: Job[] = [];
    for (let i = 0; i < out.length; i += 2) {
      const subject = names.decode(out[i]!);
      jobs.push({ subject, state: unpackSubject(out[i + 1]!, subject), claimedAtMs: now, leaseToken: this.token });
    }
    return jobs;
  }

  /**
   * Acknowledges visits in one round trip, one script call per shard, all sent at once (on a Redis
   * Cluster each to its own node); returns, per item, whether the lease was still ours.
   */
  async ack(items: AckItem[]): Promise<boolean[]> {
    if (items.length === 0) return [];
    const names = await this.names();
    const stored = items.map((i) => names.encode(i.job.subject));
    const owned: boolean[] = new Array<boolean>(items.length).fill(false);
    const byShard = this.layout.byShard(items.map((_, i) => i), (i) => stored[i]!);
    await Promise.all([...byShard].map(async ([shard, indices]) => {
      const k = this.layout.keys[shard]!;
      const args: (string | number | Buffer)[] = [k.bdue, k.lease, k.owner, k.counts, this.layout.buckets, k.bucketPrefix];
      for (const i of indices) {
        const { job, state, nextDueMs } = items[i]!;
        args.push(stored[i]!, job.leaseToken, packSubject(state, nextDueMs, job.subject));
      }
      const reply = (await this.layout.script('freshetAck')(...(args as (string | number)[])).catch((err: Error) => {
        throw new FreshetError(ErrorCodes.redisUnavailable, 'retryable', `ack failed: ${err.message}`, {}, err);
      })) as unknown[];
      reply.forEach((v, j) => {
        owned[indices[j]!] = Number(v) === 1;
      });
    }));
    return owned;
  }

  /** Keeps the leases of long-running jobs alive. */
  async extend(jobs: Job[]): Promise<number> {
    const names = await this.names();
    const byShard = this.layout.byShard(jobs.map((j) => names.encode(j.subject)), (name) => name);
    const until = this.clock.nowMs() + this.opts.leaseMs;
    let n = 0;
    for (const [shard, subjects] of byShard) {
      const k = this.layout.keys[shard]!;
      n += Number(await this.layout.script('freshetExtend')(k.lease, k.owner, until, this.token, ...(subjects as string[])));
    }
    return n;
  }

  /** Returns expired leases (of dead or stalled workers) to the due queue. */
  async reap(max = 1000): Promise<number> {
    const now = this.clock.nowMs();
    let n = 0;
    for (const k of this.layout.keys) n += Number(await this.layout.script('freshetReap')(k.bdue, k.lease, k.owner, k.counts, now, max, this.layout.buckets, k.bucketPrefix));
    return n;
  }

  /**
   * Makes known subjects due at `dueMs` (default now), unless leased: "visit these again now", for
   * operators and tests. Returns how many were rescheduled.
   */
  async reschedule(subjects: string[], dueMs = this.clock.nowMs()): Promise<number> {
    let n = 0;
    const names = await this.names();
    for (const [shard, list] of this.layout.byShard(subjects.map((s) => names.encode(s)), (name) => name)) {
      const k = this.layout.keys[shard]!;
      n += Number(await this.layout.script('freshetReschedule')(k.bdue, k.owner, k.counts, Math.max(0, Math.round(dueMs)), this.layout.buckets, k.bucketPrefix, ...(list as string[])));
    }
    return n;
  }

  /** Every subject's state (every bucket, pipelined): for refitting the schedule model. O(N). */
  async allStates(): Promise<SubjectState[]> {
    return (await this.allEntries()).map((e) => e.state);
  }

  /** Every subject with its state (every bucket, pipelined): for the completeness ledger. O(N). */
  async allEntries(): Promise<{ subject: string; state: SubjectState }[]> {
    const PAGE = 500;
    const out: { subject: string; state: SubjectState }[] = [];
    const names = await this.names();
    for (const k of this.layout.keys) {
      for (let from = 0; from < this.layout.buckets; from += PAGE) {
        const pipe = this.redis.pipeline();
        // The raw reply (uppercase name: no object transform), so coded field names stay Buffers.
        for (let b = from; b < Math.min(this.layout.buckets, from + PAGE); b++) pipe.callBuffer('HGETALL', `${k.bucketPrefix}${b}`);
        for (const [err, rec] of (await pipe.exec()) ?? []) {
          if (err) throw new FreshetError(ErrorCodes.redisUnavailable, 'retryable', `reading states failed: ${err.message}`, {}, err);
          const flat = rec as Buffer[];
          for (let i = 0; i < flat.length; i += 2) {
            const subject = names.decode(flat[i]!);
            out.push({ subject, state: unpackSubject(flat[i + 1]!, subject) });
          }
        }
      }
    }
    return out;
  }

  async getState(subject: string): Promise<SubjectState | undefined> {
    const name = (await this.names()).encode(subject);
    const raw = await this.redis.hgetBuffer(this.layout.bucketKey(name), name);
    return raw ? unpackSubject(raw, subject) : undefined;
  }

  /** When the subject is due next; undefined when it is unknown, leased or not scheduled. */
  async nextDue(subject: string): Promise<number | undefined> {
    const name = (await this.names()).encode(subject);
    const raw = await this.redis.hgetBuffer(this.layout.bucketKey(name), name);
    return raw ? packedDue(raw) : undefined;
  }
}

interface SubjectNaming {
  encode(subject: string): string | Buffer;
  decode(stored: Buffer): string;
}

const NAMINGS: Record<'compact' | 'plain', SubjectNaming> = {
  compact: { encode: encodeSubjectName, decode: decodeSubjectName },
  plain: { encode: (s) => s, decode: (b) => b.toString('utf8') },
};
