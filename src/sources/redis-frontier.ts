import { z } from 'zod';
import type { Clock } from '../core/clock';
import { FrontierCounts } from './frontier/counts';
import { DeadLetterStream } from './frontier/dead-letters';
import { RedisFrontier } from './frontier/frontier';
import type { FrontierOptions, RedisLike } from './frontier/layout';
import { timerMs, timerSecs } from '../core/timers';

/** The `redis_frontier` source: where subjects are claimed from, and how many may be in flight. */
export const redisFrontierConfigSchema = z.strictObject({
  type: z.literal('redis_frontier'),
  /** Key groups (hash tags); more shards spread a crawl over a Redis Cluster. */
  shards: z.number().int().min(1).max(1024).default(4),
  lease_secs: timerSecs(5).int().default(300),
  /** Fetch credits: claimed subjects not yet acknowledged (with max_settling, being visited). Bounds memory whatever the frontier size. */
  max_in_flight: z.number().int().min(1).max(10_000).default(64),
  /**
   * Jobs whose visit ended and whose documents the sink is still indexing: each gives its fetch
   * credit back to the next visit and waits on one of these until its ack, so fetching goes on
   * through a bulk flush. Claimed and unacknowledged jobs are at most max_in_flight + this.
   * 0 (the default): a job holds its fetch credit until its ack. Off by default: on a loaded
   * 2-core machine it cost CPU per page and did not raise throughput (README).
   */
  max_settling: z.number().int().min(0).max(10_000).default(0),
  /**
   * Bytes of response bodies the visits in flight may hold while they are read, decoded and
   * parsed (each visit holds its largest body until it ends); a fetch waits for room, its socket
   * pushing back on the server. Credits bound how many visits, this what they weigh. 0: no limit.
   * The process takes several times this (each body is also text, and a DOM while parsed).
   */
  max_bytes_in_flight: z.number().int().min(0).max(2 ** 40).default(32 * 1024 * 1024),
  claim_batch: z.number().int().min(1).max(1000).default(32),
  poll_interval_ms: timerMs(10).default(500),
  reap_interval_secs: timerSecs(1).default(10),
  bloom_capacity: z.number().int().min(1).default(1_000_000),
  bloom_false_positive_rate: z.number().gt(0).lt(1).default(0.001),
  dead_letter_max_len: z.number().int().min(100).default(100_000),
  /** After this many consecutive failed visits a subject is dead-lettered and parked. */
  max_failures: z.number().int().min(1).default(5),
  /** How long a dead-lettered subject is parked before it is tried again. */
  park_secs: z.number().int().min(60).default(86_400),
});

export type RedisFrontierConfig = z.infer<typeof redisFrontierConfigSchema>;

/** The frontier of a crawl and what sits next to it on the same keys: its counts and its dead letters. */
export interface OpenFrontier {
  frontier: RedisFrontier;
  counts: FrontierCounts;
  deadLetters: DeadLetterStream;
}

export function frontierOptions(config: RedisFrontierConfig, namespace: string): FrontierOptions {
  return {
    namespace,
    shards: config.shards,
    leaseMs: config.lease_secs * 1000,
    bloomCapacity: config.bloom_capacity,
    bloomFalsePositiveRate: config.bloom_false_positive_rate,
    deadLetterMaxLen: config.dead_letter_max_len,
  };
}

/** Opens the `redis_frontier` source of a pipeline under `namespace` (no I/O until used). */
export function openFrontier(redis: RedisLike, config: RedisFrontierConfig, namespace: string, clock: Clock): OpenFrontier {
  const opts = frontierOptions(config, namespace);
  return { frontier: new RedisFrontier(redis, opts, clock), counts: new FrontierCounts(redis, opts, clock), deadLetters: new DeadLetterStream(redis, opts, clock) };
}
