import type { Client, estypes } from '@elastic/elasticsearch';
import { filterClauses, textQuery, type SearchFilters, type SearchHit } from './full-text';

export interface FacetBucket {
  key: string;
  count: number;
}

export interface FacetedResult {
  total: number;
  hits: SearchHit[];
  /** Counts among all matches (not only the hits shown), per facet: what a click on one narrows to. */
  facets: { sentiment: FacetBucket[]; platform: FacetBucket[]; author: FacetBucket[]; time: FacetBucket[] };
}

export type TimeInterval = 'hour' | 'day' | 'week';

type Buckets = { buckets?: { key: string | number; key_as_string?: string; doc_count: number }[] };

function buckets(aggs: Record<string, unknown> | undefined, name: string): FacetBucket[] {
  return ((aggs?.[name] as Buckets | undefined)?.buckets ?? []).map((b) => ({ key: b.key_as_string ?? String(b.key), count: b.doc_count }));
}

/**
 * Full-text search with highlights and facets (sentiment, platform, author, time), for the search
 * page and `GET /api/search`. The facets count every match; the filters narrow both.
 */
export async function searchFaceted(client: Client, index: string, query: string, size: number, filters: SearchFilters = {}, interval: TimeInterval = 'day'): Promise<FacetedResult> {
  const res = await client.search<Record<string, unknown>>({
    index, size,
    query: { bool: { must: [textQuery(query)], filter: filterClauses(filters) } },
    highlight: { fields: { text: { fragment_size: 120, number_of_fragments: 2 }, title: {} }, pre_tags: ['«'], post_tags: ['»'] },
    aggs: {
      sentiment: { terms: { field: 'sentiment.label', size: 3 } },
      platform: { terms: { field: 'platform', size: 10 } },
      author: { terms: { field: 'author.name', size: 10 } },
      time: { date_histogram: { field: 'created_at', calendar_interval: interval, min_doc_count: 1 } },
    },
    ignore_unavailable: true, allow_no_indices: true,
  });
  const total = typeof res.hits.total === 'number' ? res.hits.total : (res.hits.total?.value ?? 0);
  const aggs = res.aggregations as Record<string, unknown> | undefined;
  return {
    total,
    hits: res.hits.hits.map((h) => ({ id: h._id ?? '', score: h._score ?? 0, fields: h._source ?? {}, highlight: Object.values(h.highlight ?? {}).flat() })),
    facets: { sentiment: buckets(aggs, 'sentiment'), platform: buckets(aggs, 'platform'), author: buckets(aggs, 'author'), time: buckets(aggs, 'time') },
  };
}

export interface TimelinePoint {
  /** Start of the interval (ms since the epoch). */
  t: number;
  posts: number;
  positive: number;
  neutral: number;
  negative: number;
  /** Mean sentiment score of the interval's posts; null when none has one. */
  meanScore: number | null;
}

/**
 * Post volume and sentiment over time for a query: one point per interval from the first match to
 * the last, empty intervals included (a gap in a chart is a real zero).
 */
export async function timeline(client: Client, index: string, query: string, interval: TimeInterval, filters: SearchFilters = {}): Promise<TimelinePoint[]> {
  const must: estypes.QueryDslQueryContainer[] = query.trim() === '' ? [{ match_all: {} }] : [textQuery(query)];
  const res = await client.search({
    index, size: 0,
    query: { bool: { must, filter: [...filterClauses(filters), { exists: { field: 'created_at' } }] } },
    aggs: {
      time: {
        date_histogram: { field: 'created_at', calendar_interval: interval, min_doc_count: 0 },
        aggs: { mood: { terms: { field: 'sentiment.label', size: 3 } }, score: { avg: { field: 'sentiment.score' } } },
      },
    },
    ignore_unavailable: true, allow_no_indices: true,
  });
  type Point = { key: number; doc_count: number; mood?: Buckets; score?: { value: number | null } };
  const points = ((res.aggregations as Record<string, unknown> | undefined)?.['time'] as { buckets?: Point[] } | undefined)?.buckets ?? [];
  return points.map((b) => {
    const mood = Object.fromEntries((b.mood?.buckets ?? []).map((m) => [String(m.key), m.doc_count]));
    return { t: b.key, posts: b.doc_count, positive: mood['positive'] ?? 0, neutral: mood['neutral'] ?? 0, negative: mood['negative'] ?? 0, meanScore: b.score?.value ?? null };
  });
}
