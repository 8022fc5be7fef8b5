import type { Client, estypes } from '@elastic/elasticsearch';
import type { Cluster, Redis } from 'ioredis';
import { percolate } from './percolator';

export interface AlertNotification {
  alert: string;
  post_id: string;
  index: string;
  platform?: unknown;
  author?: unknown;
  text?: unknown;
  sentiment?: unknown;
  created_at?: unknown;
  crawled_at?: unknown;
}

export interface WatchOptions {
  client: Client;
  redis: Redis | Cluster;
  /** The posts index (or pattern) to watch and the percolator index of the saved queries. */
  postsIndex: string;
  alertsIndex: string;
  /** Redis key prefix for the checkpoint and the sent-once markers. */
  keyPrefix: string;
  notify(n: AlertNotification): Promise<void>;
  /** Only posts matching this too (a pipeline's alerts watch that pipeline's posts). */
  filter?: estypes.QueryDslQueryContainer;
  batchSize?: number;
  /** How long a sent-once marker is kept (a post is re-crawled within this time at most once per alert). */
  sentTtlSecs?: number;
  /** Re-read this far before the checkpoint, for posts whose refresh was late; the markers dedupe them. */
  overlapMs?: number;
}

/**
 * One pass: every post crawled since the checkpoint is percolated against the saved queries, and
 * each (alert, post) pair is notified once. `SET NX` on a marker before notifying makes "once"
 * hold across passes, restarts and concurrent watchers.
 */
export async function pollAlertsOnce(o: WatchOptions): Promise<{ scanned: number; notified: number }> {
  const checkpointKey = `${o.keyPrefix}alerts:checkpoint`;
  const sinceMs = Number((await o.redis.get(checkpointKey)) ?? 0);
  const from = new Date(Math.max(0, sinceMs - (o.overlapMs ?? 5_000))).toISOString();
  const size = o.batchSize ?? 200;
  let scanned = 0;
  let notified = 0;
  let maxSeenMs = sinceMs;
  let after: estypes.SortResults | undefined;
  for (;;) {
    const res = await o.client.search<Record<string, unknown>>({
      index: o.postsIndex, size, ignore_unavailable: true, allow_no_indices: true,
      query: { bool: { filter: [{ range: { crawled_at: { gte: from } } }, ...(o.filter ? [o.filter] : [])] } },
      sort: [{ crawled_at: 'asc' }, { id: 'asc' }],
      ...(after ? { search_after: after } : {}),
    });
    const hits = res.hits.hits;
    if (hits.length === 0) break;
    const matches = await percolate(o.client, o.alertsIndex, hits.map((h) => h._source!));
    for (let i = 0; i < hits.length; i++) {
      const h = hits[i]!;
      const doc = h._source!;
      maxSeenMs = Math.max(maxSeenMs, Date.parse(String(doc['crawled_at'])) || 0);
      for (const alert of matches[i]!) {
        const marker = `${o.keyPrefix}alerts:sent:${alert}:${h._id}`;
        const first = await o.redis.set(marker, '1', 'EX', o.sentTtlSecs ?? 30 * 86_400, 'NX');
        if (first !== 'OK') continue;
        try {
          await o.notify({
            alert, post_id: String(doc['id'] ?? h._id), index: h._index, platform: doc['platform'], author: doc['author'],
            text: doc['text'], sentiment: doc['sentiment'], created_at: doc['created_at'], crawled_at: doc['crawled_at'],
          });
        } catch (err) {
          // Not delivered: the next pass (checkpoint not advanced) tries this post again.
          await o.redis.del(marker);
          throw err;
        }
        notified++;
      }
    }
    scanned += hits.length;
    after = hits[hits.length - 1]!.sort;
    if (hits.length < size) break;
  }
  await o.redis.set(checkpointKey, String(maxSeenMs));
  return { scanned, notified };
}
