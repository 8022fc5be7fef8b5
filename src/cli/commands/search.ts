import type { Client } from '@elastic/elasticsearch';

export interface SearchHit {
  id: string;
  score: number;
  fields: Record<string, unknown>;
  highlight: string[];
}

/** Full-text search over posts and pages with highlights; the CLI prints what this returns. */
export async function searchText(client: Client, index: string, query: string, size: number): Promise<{ total: number; hits: SearchHit[] }> {
  const res = await client.search<Record<string, unknown>>({
    index,
    size,
    query: { multi_match: { query, fields: ['text', 'title^2', 'author.name.text'] } },
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
