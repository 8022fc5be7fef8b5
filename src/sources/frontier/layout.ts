import type { Cluster, Redis } from 'ioredis';
import { bloomSize, type BloomSize } from './bloom';
import { bucketOf, bucketsPerShard, shardKeys, shardOf, type ShardKeys } from './keys';
import { ackScript, claimScript, countDueScript, extendScript, sampleDueScript, offerScript, reapScript, rescheduleScript } from './scripts';

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

export type RedisLike = Redis | Cluster;
export type ScriptRunner = (...args: (string | number)[]) => Promise<unknown>;

const COMMANDS = {
  freshetClaim: { lua: claimScript, numberOfKeys: 4 },
  freshetAck: { lua: ackScript, numberOfKeys: 4 },
  freshetExtend: { lua: extendScript, numberOfKeys: 2 },
  freshetReap: { lua: reapScript, numberOfKeys: 4 },
  freshetOffer: { lua: offerScript, numberOfKeys: 3 },
  freshetReschedule: { lua: rescheduleScript, numberOfKeys: 3 },
  freshetCountDue: { lua: countDueScript, numberOfKeys: 1 },
  freshetSampleDue: { lua: sampleDueScript, numberOfKeys: 1 },
} as const;

export type FrontierCommand = keyof typeof COMMANDS;

/**
 * Where a frontier's subjects live: its shards' keys, buckets per shard and Bloom size, all
 * derived from the options (fixed for the frontier's life), and its Lua scripts as commands.
 * Shared by the frontier and its counts, which read the same keys.
 */
export class FrontierLayout {
  readonly keys: ShardKeys[];
  readonly bloom: BloomSize;
  /** Buckets per shard, from the expected size (bloom capacity). */
  readonly buckets: number;

  constructor(private readonly redis: RedisLike, readonly opts: FrontierOptions) {
    this.keys = Array.from({ length: opts.shards }, (_, i) => shardKeys(opts.namespace, i));
    // The Bloom filter is per shard: size each for its share of the capacity.
    this.bloom = bloomSize(Math.max(1, Math.ceil(opts.bloomCapacity / opts.shards)), opts.bloomFalsePositiveRate);
    this.buckets = bucketsPerShard(opts.bloomCapacity, opts.shards);
    for (const [name, def] of Object.entries(COMMANDS)) redis.defineCommand(name, def);
  }

  /** A script as a function of its keys and arguments (`…Buffer`: replies as Buffers). */
  script(name: FrontierCommand | `${FrontierCommand}Buffer`): ScriptRunner {
    return (this.redis as unknown as Record<string, ScriptRunner>)[name]!.bind(this.redis);
  }

  bucketKey(subject: string | Buffer): string {
    return `${this.keys[shardOf(subject, this.opts.shards)]!.bucketPrefix}${bucketOf(subject, this.buckets)}`;
  }

  /** Items grouped by the shard of their subject, in their order. */
  byShard<T>(items: readonly T[], subjectOf: (item: T) => string | Buffer): Map<number, T[]> {
    const groups = new Map<number, T[]>();
    for (const item of items) {
      const s = shardOf(subjectOf(item), this.opts.shards);
      const group = groups.get(s);
      if (group) group.push(item);
      else groups.set(s, [item]);
    }
    return groups;
  }
}
