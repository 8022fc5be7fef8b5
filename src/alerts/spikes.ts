import type { Client } from '@elastic/elasticsearch';
import type { Cluster, Redis } from 'ioredis';
import { z } from 'zod';

/** A sentiment spike: at least `min_posts` posts of that sentiment (optionally on a topic) created in the last window, and at least `min_share` of all posts on that topic. */
export const spikeSchema = z.strictObject({
  name: z.string().regex(/^[\w.-]+$/, 'letters, digits, _ . - only'),
  sentiment: z.enum(['positive', 'neutral', 'negative']).default('negative'),
  keywords: z.array(z.string().min(1)).optional(),
  window_minutes: z.number().positive().default(60),
  min_posts: z.number().int().min(1),
  min_share: z.number().min(0).max(1).default(0),
});

export type Spike = z.infer<typeof spikeSchema>;

export interface SpikeNotification {
  alert: string;
  kind: 'spike';
  sentiment: string;
  posts: number;
  share: number;
  window_start: string;
  window_end: string;
}

/**
 * Checks each spike over the window ending now; notifies at most once per spike and window
 * (windows are aligned to multiples of their length, so a lasting spike is reported once per window).
 */
export async function checkSpikes(o: {
  client: Client; redis: Redis | Cluster; postsIndex: string; keyPrefix: string; spikes: Spike[]; nowMs: number;
  notify(n: SpikeNotification): Promise<void>;
}): Promise<number> {
  let notified = 0;
  for (const sp of o.spikes) {
    const windowMs = sp.window_minutes * 60_000;
    const start = new Date(o.nowMs - windowMs).toISOString();
    const topic = sp.keywords ? [{ bool: { should: sp.keywords.map((k) => ({ match_phrase: { text: k } })), minimum_should_match: 1 } }] : [];
    const base = { index: o.postsIndex, ignore_unavailable: true, allow_no_indices: true };
    const all = await o.client.count({ ...base, query: { bool: { filter: [{ range: { created_at: { gte: start, lte: new Date(o.nowMs).toISOString() } } }, ...topic] } } });
    const hit = await o.client.count({ ...base, query: { bool: { filter: [{ range: { created_at: { gte: start, lte: new Date(o.nowMs).toISOString() } } }, { term: { 'sentiment.label': sp.sentiment } }, ...topic] } } });
    const share = all.count > 0 ? hit.count / all.count : 0;
    if (hit.count < sp.min_posts || share < sp.min_share) continue;
    const bucket = Math.floor(o.nowMs / windowMs);
    const first = await o.redis.set(`${o.keyPrefix}alerts:spike:${sp.name}:${bucket}`, '1', 'PX', windowMs * 2, 'NX');
    if (first !== 'OK') continue;
    await o.notify({ alert: sp.name, kind: 'spike', sentiment: sp.sentiment, posts: hit.count, share: Math.round(share * 1000) / 1000, window_start: start, window_end: new Date(o.nowMs).toISOString() });
    notified++;
  }
  return notified;
}
