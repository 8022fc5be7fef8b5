import type { Client, estypes } from '@elastic/elasticsearch';
import { TopicDetector, type DetectorOptions, type SentimentLabel, type Topic } from '../enrichers/topics/detector';
import { topicTerms } from '../enrichers/topics/terms';
import { defaultModelDir } from '../enrichers/sentiment/model';
import { opinionSupport, readOpinionWords, ZH_NO_OPINION_BELOW } from '../enrichers/sentiment/neutral';
import type { OpinionWords } from '../enrichers/sentiment/opinion-words';

/**
 * Emerging topics from the posts index: the posts of a background span and the recent window are
 * read in time order (search_after on created_at, bounded), replayed through the online detector,
 * and the topics first seen inside the window are returned and written as topic documents.
 */
export interface TopicScanOptions {
  /** The posts index (with its prefix). */
  index: string;
  /** Topics first seen at or after this instant are reported. */
  sinceMs: number;
  nowMs: number;
  /** How much history before `sinceMs` forms the background. */
  backgroundMs: number;
  /** At most this many posts are read (the newest window is never cut: the background is). */
  maxPosts: number;
  segment: (text: string) => string[];
  detector?: Partial<DetectorOptions>;
  limit: number;
  /**
   * How the sentiment stage's zh opinion gate read the posts (its words and `zh_no_opinion_below`):
   * a low-confidence zh label whose only opinion words lie inside the topic's own terms counts
   * neutral in the topic's mix. The shipped models' words and the stage's default by default.
   */
  opinion?: TopicOpinion;
}

export interface TopicOpinion {
  words: () => OpinionWords | undefined;
  below: number;
}

/**
 * The gate as a sentiment stage configured it (its `model_dir` and `zh_no_opinion_below`); the
 * shipped models' words and the stage's default when not given. Words are read on the first post
 * that needs them.
 */
export function topicOpinion(gate: { model_dir?: string | undefined; zh_no_opinion_below?: number | undefined } = {}): TopicOpinion {
  let words: OpinionWords | undefined | null = null;
  const dir = gate.model_dir ?? defaultModelDir();
  return { words: () => (words === null ? (words = readOpinionWords(dir)) : words), below: gate.zh_no_opinion_below ?? ZH_NO_OPINION_BELOW };
}

export interface TopicScan {
  topics: Topic[];
  postsRead: number;
  /** The background was cut to stay within maxPosts. */
  truncated: boolean;
}

interface PostSource {
  platform?: string;
  id?: string;
  text?: string;
  lang?: string;
  author?: { id?: string };
  created_at?: string;
  sentiment?: { label?: SentimentLabel; confidence?: number };
  dup_of?: string;
}

const PAGE = 1000;

async function countSince(client: Client, index: string, fromMs: number, toMs: number): Promise<number> {
  const res = await client.count({ index, ignore_unavailable: true, allow_no_indices: true, query: { range: { created_at: { gte: new Date(fromMs).toISOString(), lte: new Date(toMs).toISOString() } } } });
  return res.count;
}

export async function scanTopics(client: Client, o: TopicScanOptions): Promise<TopicScan> {
  let fromMs = o.sinceMs - o.backgroundMs;
  let truncated = false;
  // Shorten the background until the span fits; the window itself is always read whole.
  while (fromMs < o.sinceMs && (await countSince(client, o.index, fromMs, o.nowMs)) > o.maxPosts) {
    fromMs += Math.max(60_000, Math.floor((o.sinceMs - fromMs) / 2));
    truncated = true;
  }
  fromMs = Math.min(fromMs, o.sinceMs);
  const det = new TopicDetector({ warmupMs: Math.min(o.sinceMs - fromMs, 3 * 3_600_000), ...o.detector });
  const bucketMs = o.detector?.bucketMs ?? 5 * 60_000;
  const found = new Map<string, Topic>();
  let next = Math.floor(fromMs / bucketMs) * bucketMs + bucketMs;
  const detect = (at: number): void => {
    for (const t of det.detect(at, o.limit)) if (t.firstSeenMs >= o.sinceMs) found.set(t.id, t);
  };
  const opinion = o.opinion ?? topicOpinion();
  let after: estypes.SortResults | undefined;
  let read = 0;
  for (;;) {
    const res = await client.search<PostSource>({
      index: o.index, size: PAGE, ignore_unavailable: true, allow_no_indices: true,
      query: { range: { created_at: { gte: new Date(fromMs).toISOString(), lte: new Date(o.nowMs).toISOString() } } },
      // Ties broken by keyword fields: Elasticsearch 8 refuses to sort on _id (no fielddata).
      sort: [{ created_at: 'asc' }, { platform: 'asc' }, { id: 'asc' }],
      _source: ['platform', 'id', 'text', 'lang', 'author.id', 'created_at', 'sentiment.label', 'sentiment.confidence', 'dup_of'],
      ...(after ? { search_after: after } : {}),
    });
    const hits = res.hits.hits;
    for (const h of hits) {
      const p = h._source;
      const at = p?.created_at ? Date.parse(p.created_at) : Number.NaN;
      if (!p || typeof p.text !== 'string' || Number.isNaN(at)) continue;
      while (at >= next) { detect(next); next += bucketMs; }
      const label = p.sentiment?.label;
      const support = label && typeof p.sentiment?.confidence === 'number'
        ? opinionSupport(label, p.lang, p.sentiment.confidence, p.text, opinion.below, opinion.words) : undefined;
      det.add({
        id: h._id ?? `${p.platform}:${p.id}`, author: p.author?.id ?? h._id ?? '', createdMs: at,
        terms: topicTerms(p.text, p.lang ?? '', { segment: o.segment }),
        ...(label ? { sentiment: label } : {}), ...(support?.length ? { opinion: support } : {}),
        cluster: p.dup_of ?? h._id ?? '',
      });
      read++;
    }
    if (hits.length < PAGE) break;
    after = hits[hits.length - 1]!.sort;
  }
  while (next <= o.nowMs) { detect(next); next += bucketMs; }
  detect(o.nowMs);
  const topics = [...found.values()].sort((a, b) => b.score - a.score).slice(0, o.limit);
  return { topics, postsRead: read, truncated };
}

/** A topic as its document in the topics index. */
export function topicDocument(t: Topic, detectedAtMs: number): Record<string, unknown> {
  return {
    id: t.id, label: t.label, terms: t.terms, score: t.score,
    first_seen: new Date(t.firstSeenMs).toISOString(), last_seen: new Date(t.lastSeenMs).toISOString(), detected_at: new Date(detectedAtMs).toISOString(),
    posts: t.posts,
    volume: t.volume.map((v) => ({ start: new Date(v.startMs).toISOString(), posts: v.posts })),
    sentiment: { ...t.sentiment },
    top_posts: t.topPosts.map((p) => ({ id: p.id, copies: p.copies })),
  };
}

/** Upserts the topics (by id: a re-run over the same posts rewrites the same documents). */
export async function writeTopics(client: Client, index: string, topics: Topic[], detectedAtMs: number): Promise<void> {
  if (topics.length === 0) return;
  const operations = topics.flatMap((t) => [{ index: { _index: index, _id: t.id } }, topicDocument(t, detectedAtMs)]);
  const res = await client.bulk({ operations, refresh: 'wait_for' });
  if (res.errors) {
    const first = res.items.find((i) => i.index?.error)?.index?.error;
    throw new Error(`writing topics to ${index} failed: ${first?.reason ?? 'unknown bulk error'}`);
  }
}
