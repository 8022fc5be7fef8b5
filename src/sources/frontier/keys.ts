import { createHash } from 'node:crypto';

/**
 * Key layout. Every key of one shard shares a hash tag (`{<ns>:s<N>}`), so each Lua script touches
 * one slot and the same scripts run on a single Redis and on Redis Cluster. See scripts.ts for
 * what each key holds.
 */
export interface ShardKeys {
  /** ZSET: bucket → lower bound of its earliest due time. */
  bdue: string;
  lease: string;
  owner: string;
  /** HASH: subjects, due (scheduled subjects), buckets (the layout, checked by every write). */
  counts: string;
  bloom: string;
  /** Prefix of the bucket hashes: `<bucketPrefix><i>`. */
  bucketPrefix: string;
}

export function shardKeys(namespace: string, shard: number): ShardKeys {
  const tag = `${namespace}:{${namespace}:s${shard}}`;
  return { bdue: `${tag}:bdue`, lease: `${tag}:lease`, owner: `${tag}:owner`, counts: `${tag}:n`, bloom: `${tag}:bloom`, bucketPrefix: `${tag}:b:` };
}

export function deadLetterKey(namespace: string): string {
  return `${namespace}:{${namespace}:dlq}:stream`;
}

/** Shard of a subject by its stored name (a string, or the Buffer subject-name.ts codes it to). */
export function shardOf(subject: string | Buffer, shards: number): number {
  if (shards === 1) return 0;
  const h = createHash('sha1').update(subject).digest();
  return h.readUInt32BE(0) % shards;
}

/** The bucket of a subject within its shard: the second sha1 word (the Lua uses the same). */
export function bucketOf(subject: string | Buffer, buckets: number): number {
  return createHash('sha1').update(subject).digest().readUInt32BE(4) % buckets;
}

/**
 * Average subjects per bucket at the expected size (bloom capacity). Poisson spread around 64
 * keeps every bucket under Redis's default listpack limit of 128 entries (P(> 128) < 1e-10 each);
 * past about twice the expected size buckets start turning into hashtables: memory grows, nothing
 * else changes.
 */
const SUBJECTS_PER_BUCKET = 64;

export function bucketsPerShard(expectedSubjects: number, shards: number): number {
  return Math.max(1, Math.ceil(expectedSubjects / shards / SUBJECTS_PER_BUCKET));
}

/** Per-minute throughput counters (acks, documents), for `freshet status`. */
export function throughputKey(namespace: string, minute: number): string {
  return `${namespace}:{${namespace}:tp}:${minute}`;
}
