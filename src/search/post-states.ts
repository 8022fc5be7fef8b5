import type { Client } from '@elastic/elasticsearch';
import { compareIds, type IndexedPost, type PostStatus, type Span } from '../monitor/tombstones';

/**
 * Reads the monitoring state of a subject's stored posts (status, last seen, first miss, pending
 * not-found answers) for the ids a visit's reads covered: one search per visit. Post ids are
 * keywords of one length on the microblog (16-digit mids), so a keyword range is the numeric range;
 * the result is filtered numerically anyway. The newest `maxPosts` are read (a visit covers a few
 * pages, far fewer); a span beyond them waits for a later visit.
 */
export interface PostStatesOptions {
  /** The physical posts index (prefix included). */
  index: string;
  maxPosts?: number;
  requestTimeoutMs?: number;
}

interface Source {
  id?: string;
  status?: string;
  last_seen_at?: string;
  first_missing_at?: string;
  not_found_count?: number;
  created_at?: string;
}

const STATUSES = new Set<PostStatus>(['active', 'deleted', 'removed', 'restricted', 'account_gone']);
const ms = (iso: string | undefined): number | undefined => {
  if (iso === undefined) return undefined;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : undefined;
};

const inSpan = (id: string, s: Span): boolean => (s.low === null || compareIds(id, s.low) >= 0) && (s.high === null || compareIds(id, s.high) <= 0);

export function postStatesReader(client: Client, o: PostStatesOptions): (subject: string, spans: readonly Span[]) => Promise<IndexedPost[]> {
  const size = o.maxPosts ?? 2000;
  return async (subject, spans) => {
    if (spans.length === 0) return [];
    const ranges = spans.map((s) => ({ range: { id: { ...(s.low !== null ? { gte: s.low } : {}), ...(s.high !== null ? { lte: s.high } : {}) } } }));
    const res = await client.search<Source>({
      index: o.index, size, ignore_unavailable: true, allow_no_indices: true,
      _source: ['id', 'status', 'last_seen_at', 'first_missing_at', 'not_found_count', 'created_at'],
      query: { bool: { filter: [{ term: { subject } }, { bool: { should: ranges, minimum_should_match: 1 } }] } },
      sort: [{ id: 'desc' }],
    }, { requestTimeout: o.requestTimeoutMs ?? 30_000, maxRetries: 0 });
    const out: IndexedPost[] = [];
    for (const h of res.hits.hits) {
      const s = h._source;
      if (!s?.id || !spans.some((sp) => inSpan(s.id!, sp))) continue;
      const status = STATUSES.has(s.status as PostStatus) ? (s.status as PostStatus) : 'active';
      const post: IndexedPost = { id: s.id, status };
      const seen = ms(s.last_seen_at);
      if (seen !== undefined) post.lastSeenAtMs = seen;
      const missing = ms(s.first_missing_at);
      if (missing !== undefined) post.firstMissingAtMs = missing;
      if (typeof s.not_found_count === 'number') post.notFoundCount = s.not_found_count;
      const created = ms(s.created_at);
      if (created !== undefined) post.createdAtMs = created;
      out.push(post);
    }
    return out;
  };
}
