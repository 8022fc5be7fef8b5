import { z } from 'zod';
import { timerMs, timerSecs } from '../core/timers';

/** The `redis_frontier` source: where subjects are claimed from, and how many may be in flight. */
export const redisFrontierConfigSchema = z.strictObject({
  type: z.literal('redis_frontier'),
  /** Key groups (hash tags); more shards spread a crawl over a Redis Cluster. */
  shards: z.number().int().min(1).max(1024).default(4),
  lease_secs: timerSecs(5).int().default(300),
  /** Credits: claimed subjects not yet acknowledged. Bounds memory whatever the frontier size. */
  max_in_flight: z.number().int().min(1).max(10_000).default(64),
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
