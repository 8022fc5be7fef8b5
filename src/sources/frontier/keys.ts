import { createHash } from 'node:crypto';

/**
 * Key layout. Every key of one shard shares a hash tag (`{<ns>:s<N>}`), so each Lua script touches
 * one slot and the same scripts run on a single Redis and on Redis Cluster.
 */
export interface ShardKeys {
  due: string;
  lease: string;
  owner: string;
  state: string;
  bloom: string;
}

export function shardKeys(namespace: string, shard: number): ShardKeys {
  const tag = `${namespace}:{${namespace}:s${shard}}`;
  return { due: `${tag}:due`, lease: `${tag}:lease`, owner: `${tag}:owner`, state: `${tag}:state`, bloom: `${tag}:bloom` };
}

/** Politeness state of one origin lives in its own slot: it is shared by all shards and workers. */
export function originKey(namespace: string, origin: string): string {
  return `${namespace}:{${namespace}:o:${origin}}:polite`;
}

export function originHoldersKey(namespace: string, origin: string): string {
  return `${namespace}:{${namespace}:o:${origin}}:holders`;
}

export function deadLetterKey(namespace: string): string {
  return `${namespace}:{${namespace}:dlq}:stream`;
}

export function shardOf(subject: string, shards: number): number {
  if (shards === 1) return 0;
  const h = createHash('sha1').update(subject).digest();
  return h.readUInt32BE(0) % shards;
}

/** Per-minute throughput counters (acks, documents), for `freshet status`. */
export function throughputKey(namespace: string, minute: number): string {
  return `${namespace}:{${namespace}:tp}:${minute}`;
}
