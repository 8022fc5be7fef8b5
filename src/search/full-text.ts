import type { Client, estypes } from '@elastic/elasticsearch';

export interface SearchHit {
  id: string;
  score: number;
  fields: Record<string, unknown>;
  highlight: string[];
}

export interface SearchFilters {
  /** Only documents created (posts) or published (pages) at or after this instant. */
  sinceMs?: number;
  sentiment?: 'positive' | 'neutral' | 'negative';
  platform?: string;
  /** Only posts by this author (exact name). */
  author?: string;
  /** Only documents created (posts) or published (pages) before this instant. */
  untilMs?: number;
}

/** `24h`, `7d`, `30m` before `nowMs`, or an ISO date/time; the instant in ms. */
export function parseSince(value: string, nowMs: number): number {
  const rel = /^(\d+(?:\.\d+)?)\s*(m|h|d|w)$/.exec(value.trim());
  if (rel) return nowMs - Number(rel[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[rel[2] as 'm' | 'h' | 'd' | 'w'];
  const abs = Date.parse(value);
  if (Number.isNaN(abs)) throw new Error('expected 30m, 24h, 7d, 2w or an ISO date');
  return abs;
}

export function filterClauses(f: SearchFilters): estypes.QueryDslQueryContainer[] {
  const out: estypes.QueryDslQueryContainer[] = [];
  if (f.sinceMs !== undefined) {
    const since = new Date(f.sinceMs).toISOString();
    out.push({ bool: { should: [{ range: { created_at: { gte: since } } }, { range: { published_at: { gte: since } } }], minimum_should_match: 1 } });
  }
  if (f.untilMs !== undefined) {
    const until = new Date(f.untilMs).toISOString();
    out.push({ bool: { should: [{ range: { created_at: { lt: until } } }, { range: { published_at: { lt: until } } }], minimum_should_match: 1 } });
  }
  if (f.sentiment) out.push({ term: { 'sentiment.label': f.sentiment } });
  if (f.author) out.push({ term: { 'author.name': f.author } });
  if (f.platform) out.push({ term: { platform: f.platform } });
  return out;
}

/** The full-text part of every search: the words over text, title and author name. */
export function textQuery(query: string): estypes.QueryDslQueryContainer {
  return { multi_match: { query, fields: ['text', 'title^2', 'author.name.text'] } };
}

/** Full-text search over posts and pages with highlights; the CLI prints what this returns. */
export async function searchText(client: Client, index: string, query: string, size: number, filters: SearchFilters = {}): Promise<{ total: number; hits: SearchHit[] }> {
  const res = await client.search<Record<string, unknown>>({
    index,
    size,
    query: { bool: { must: [textQuery(query)], filter: filterClauses(filters) } },
    highlight: { fields: { text: { fragment_size: 120, number_of_fragments: 2 }, title: {} }, pre_tags: ['«'], post_tags: ['»'] },
    ignore_unavailable: true,
    allow_no_indices: true,
  });
  const total = typeof res.hits.total === 'number' ? res.hits.total : (res.hits.total?.value ?? 0);
  return {
    total,
    hits: res.hits.hits.map((h) => ({
      id: h._id ?? '',
      score: h._score ?? 0,
      fields: h._source ?? {},
      highlight: Object.values(h.highlight ?? {}).flat(),
    })),
  };
}
