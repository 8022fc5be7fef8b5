import { readFileSync } from 'node:fs';
import type { estypes } from '@elastic/elasticsearch';
import { parse } from 'yaml';
import { z } from 'zod';
import { spikeSchema, type Spike } from './spikes';
import { topicAlertSchema, type TopicAlert } from './topic-alerts';

/** One saved query: every criterion given must hold (keywords: any of them). */
export const savedQuerySchema = z.strictObject({
  name: z.string().regex(/^[\w.-]+$/, 'letters, digits, _ . - only'),
  /** Phrases searched in the post text (Chinese-aware analysis); any one matches. */
  keywords: z.array(z.string().min(1)).optional(),
  /** Author ids or screen names; any one matches. */
  authors: z.array(z.string().min(1)).optional(),
  sentiment: z.enum(['positive', 'neutral', 'negative']).optional(),
  platform: z.string().optional(),
}).refine((q) => q.keywords || q.authors || q.sentiment || q.platform, { message: 'a saved query needs at least one criterion' });

export const alertsFileSchema = z.strictObject({
  alerts: z.array(savedQuerySchema).default([]),
  spikes: z.array(spikeSchema).default([]),
  /** Emerging topics (`freshet topics`), each notified once. */
  topics: z.array(topicAlertSchema).default([]),
}).refine((f) => f.alerts.length + f.spikes.length + f.topics.length > 0, { message: 'no alerts, spikes or topics' });

export type SavedQuery = z.infer<typeof savedQuerySchema>;

export function loadAlertsFile(path: string): { alerts: SavedQuery[]; spikes: Spike[]; topics: TopicAlert[] } {
  const parsed = alertsFileSchema.safeParse(parse(readFileSync(path, 'utf8')));
  if (!parsed.success) throw new Error(`${path}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const names = new Set<string>();
  for (const q of [...parsed.data.alerts, ...parsed.data.spikes, ...parsed.data.topics]) {
    if (names.has(q.name)) throw new Error(`${path}: duplicate alert name ${q.name}`);
    names.add(q.name);
  }
  return parsed.data;
}

/** The query the percolator stores for a saved query. */
export function toQuery(q: SavedQuery): estypes.QueryDslQueryContainer {
  const filter: estypes.QueryDslQueryContainer[] = [];
  if (q.keywords) filter.push({ bool: { should: q.keywords.map((k) => ({ match_phrase: { text: k } })), minimum_should_match: 1 } });
  if (q.authors) filter.push({ bool: { should: [{ terms: { 'author.id': q.authors } }, { terms: { 'author.name': q.authors } }], minimum_should_match: 1 } });
  if (q.sentiment) filter.push({ term: { 'sentiment.label': q.sentiment } });
  if (q.platform) filter.push({ term: { platform: q.platform } });
  return { bool: { filter } };
}
