import { Cluster, type Redis } from 'ioredis';
import { originHoldersKey, originKey } from './origin-politeness';

export interface OriginReading {
  origin: string;
  /** When the origin's next request may start (ms); null when no request waits on a delay. */
  nextAtMs: number | null;
  /** Requests holding one of the origin's concurrency slots now. */
  inFlight: number;
}

function globEscape(s: string): string {
  return s.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}

/**
 * The per-origin politeness slots of a crawl as Redis holds them (the status page's limits), at
 * most `max` origins. SCAN, never KEYS; on a Cluster every master is scanned.
 */
export async function readOriginSlots(redis: Redis | Cluster, namespace: string, nowMs: number, max = 200): Promise<OriginReading[]> {
  const prefix = `${namespace}:{${namespace}:o:`;
  const pattern = `${globEscape(prefix)}*}:polite`;
  const nodes: Redis[] = redis instanceof Cluster ? redis.nodes('master') : [redis];
  const origins: string[] = [];
  for (const node of nodes) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      for (const k of keys) if (origins.length < max) origins.push(k.slice(prefix.length, -'}:polite'.length));
      cursor = next;
    } while (cursor !== '0' && origins.length < max);
  }
  origins.sort();
  const out: OriginReading[] = [];
  for (const origin of origins) {
    const [next, held] = await Promise.all([
      redis.hget(originKey(namespace, origin), 'next'),
      redis.zcount(originHoldersKey(namespace, origin), nowMs, '+inf'),
    ]);
    const nextAtMs = next === null ? null : Number(next);
    out.push({ origin, nextAtMs: nextAtMs !== null && nextAtMs > nowMs ? nextAtMs : null, inFlight: held });
  }
  return out;
}
