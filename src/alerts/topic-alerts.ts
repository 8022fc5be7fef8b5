import type { Client } from '@elastic/elasticsearch';
import type { Cluster, Redis } from 'ioredis';
import { z } from 'zod';
import type { Topic } from '../enrichers/topics/detector';
import { scanTopics, type TopicOpinion } from './topics';

/**
 * A topic alert: notified once per emerging topic (`freshet topics`' detector over the posts
 * index) that emerged in the last `window_minutes`, has at least `min_posts` posts and, when
 * given, one of `keywords` among its terms (a substring of a term or of its label) and at least
 * `min_share` of its labelled posts with `sentiment`.
 */
export const topicAlertSchema = z.strictObject({
  name: z.string().regex(/^[\w.-]+$/, 'letters, digits, _ . - only'),
  keywords: z.array(z.string().min(1)).optional(),
  min_posts: z.number().int().min(1).default(10),
  sentiment: z.enum(['positive', 'neutral', 'negative']).optional(),
  min_share: z.number().min(0).max(1).default(0),
  window_minutes: z.number().positive().default(60),
  background_hours: z.number().positive().default(24),
});

export type TopicAlert = z.infer<typeof topicAlertSchema>;

export interface TopicNotification {
  alert: string;
  kind: 'topic';
  topic: string;
  topic_id: string;
  terms: string[];
  first_seen: string;
  posts: number;
  sentiment: Record<'positive' | 'neutral' | 'negative', number>;
}

export function topicMatches(a: TopicAlert, t: Topic): boolean {
  if (t.posts < a.min_posts) return false;
  if (a.keywords) {
    const terms = [t.label, ...t.terms].map((x) => x.toLowerCase());
    if (!a.keywords.some((k) => terms.some((x) => x.includes(k.toLowerCase())))) return false;
  }
  if (a.sentiment) {
    const n = t.sentiment.positive + t.sentiment.neutral + t.sentiment.negative;
    if (n === 0 || t.sentiment[a.sentiment] / n < a.min_share) return false;
  }
  return true;
}

/** One scan over the longest window of the alerts, then each alert's matches, each topic notified once per alert. */
export async function checkTopicAlerts(o: {
  client: Client; redis: Redis | Cluster; postsIndex: string; keyPrefix: string; alerts: TopicAlert[]; nowMs: number;
  segment: (text: string) => string[]; notify(n: TopicNotification): Promise<void>; maxPosts?: number;
  /** How the labels' zh gate was configured (see TopicScanOptions.opinion). */
  opinion?: TopicOpinion;
}): Promise<number> {
  if (o.alerts.length === 0) return 0;
  const windowMs = Math.max(...o.alerts.map((a) => a.window_minutes)) * 60_000;
  const backgroundMs = Math.max(...o.alerts.map((a) => a.background_hours)) * 3_600_000;
  const scan = await scanTopics(o.client, {
    index: o.postsIndex, sinceMs: o.nowMs - windowMs, nowMs: o.nowMs, backgroundMs, maxPosts: o.maxPosts ?? 500_000, segment: o.segment, limit: 50, ...(o.opinion ? { opinion: o.opinion } : {}),
  });
  let notified = 0;
  for (const a of o.alerts) {
    for (const t of scan.topics) {
      if (t.firstSeenMs < o.nowMs - a.window_minutes * 60_000 || !topicMatches(a, t)) continue;
      const key = `${o.keyPrefix}alerts:topic:${a.name}:${t.id}`;
      if ((await o.redis.set(key, '1', 'PX', (a.window_minutes * 60_000 + backgroundMs) * 2, 'NX')) !== 'OK') continue;
      try {
        await o.notify({
          alert: a.name, kind: 'topic', topic: t.label, topic_id: t.id, terms: t.terms.slice(0, 10), first_seen: new Date(t.firstSeenMs).toISOString(),
          posts: t.posts, sentiment: { ...t.sentiment },
        });
      } catch (err) {
        // Not delivered: forget the marker so the next pass tries again.
        await o.redis.del(key);
        throw err;
      }
      notified++;
    }
  }
  return notified;
}
