import type { Client, estypes } from '@elastic/elasticsearch';
import { InvalidArgumentError } from 'commander';
import type { RegisterCommand } from '../context';
import { nonNegativeInt } from '../options';
import { createSearch } from '../clients';
import { indexName } from '../../search/templates';

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
}

/** `24h`, `7d`, `30m` before `nowMs`, or an ISO date/time; the instant in ms. */
export function parseSince(value: string, nowMs: number): number {
  const rel = /^(\d+(?:\.\d+)?)\s*(m|h|d|w)$/.exec(value.trim());
  if (rel) return nowMs - Number(rel[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[rel[2] as 'm' | 'h' | 'd' | 'w'];
  const abs = Date.parse(value);
  if (Number.isNaN(abs)) throw new InvalidArgumentError('expected 30m, 24h, 7d, 2w or an ISO date');
  return abs;
}

function filterClauses(f: SearchFilters): estypes.QueryDslQueryContainer[] {
  const out: estypes.QueryDslQueryContainer[] = [];
  if (f.sinceMs !== undefined) {
    const since = new Date(f.sinceMs).toISOString();
    out.push({ bool: { should: [{ range: { created_at: { gte: since } } }, { range: { published_at: { gte: since } } }], minimum_should_match: 1 } });
  }
  if (f.sentiment) out.push({ term: { 'sentiment.label': f.sentiment } });
  if (f.platform) out.push({ term: { platform: f.platform } });
  return out;
}

/** Full-text search over posts and pages with highlights; the CLI prints what this returns. */
export async function searchText(client: Client, index: string, query: string, size: number, filters: SearchFilters = {}): Promise<{ total: number; hits: SearchHit[] }> {
  const res = await client.search<Record<string, unknown>>({
    index,
    size,
    query: { bool: { must: [{ multi_match: { query, fields: ['text', 'title^2', 'author.name.text'] } }], filter: filterClauses(filters) } },
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

export const register: RegisterCommand = (program, ctx) => {
  program.command('search')
    .description('full-text search over indexed posts and pages, with highlights')
    .argument('<query...>', 'words to search for (Chinese and English)')
    .option('--size <n>', 'number of hits', nonNegativeInt, 10)
    .option('--index <names>', 'comma-separated logical indices', 'posts,pages')
    .option('--since <when>', 'only posts/pages from this recent: 30m, 24h, 7d, 2w, or an ISO date')
    .option('--sentiment <label>', 'only this sentiment label: positive, neutral or negative')
    .option('--platform <name>', 'only this platform (e.g. weibo)')
    .option('--json', 'print hits as JSON lines')
    .action(async (words: string[], opts: { size: number; index: string; json?: boolean; since?: string; sentiment?: string; platform?: string }) => {
      if (opts.sentiment !== undefined && !['positive', 'neutral', 'negative'].includes(opts.sentiment)) {
        throw new InvalidArgumentError('--sentiment expects positive, neutral or negative');
      }
      const filters: SearchFilters = {
        ...(opts.since !== undefined ? { sinceMs: parseSince(opts.since, Date.now()) } : {}),
        ...(opts.sentiment !== undefined ? { sentiment: opts.sentiment as SearchFilters['sentiment'] } : {}),
        ...(opts.platform !== undefined ? { platform: opts.platform } : {}),
      };
      const s = ctx.settings();
      const conn = await createSearch(s);
      try {
        const index = opts.index.split(',').map((n) => indexName(s.indexPrefix, n.trim())).join(',');
        const res = await searchText(conn.client, index, words.join(' '), opts.size, filters);
        if (opts.json) {
          for (const h of res.hits) console.log(JSON.stringify(h));
          return;
        }
        console.log(`${res.total} hits for "${words.join(' ')}"`);
        for (const h of res.hits) {
          const fallback = String(h.fields['title'] ?? h.fields['text'] ?? '').slice(0, 120);
          console.log(`- [${h.score.toFixed(2)}] ${h.id}: ${h.highlight.join(' … ') || fallback}`);
        }
      } finally {
        await conn.client.close();
      }
    });
};
