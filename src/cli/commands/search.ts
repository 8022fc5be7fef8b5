import type { Client } from '@elastic/elasticsearch';
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

export const register: RegisterCommand = (program, ctx) => {
  program.command('search')
    .description('full-text search over indexed posts and pages, with highlights')
    .argument('<query...>', 'words to search for (Chinese and English)')
    .option('--size <n>', 'number of hits', nonNegativeInt, 10)
    .option('--index <names>', 'comma-separated logical indices', 'posts,pages')
    .option('--json', 'print hits as JSON lines')
    .action(async (words: string[], opts: { size: number; index: string; json?: boolean }) => {
      const s = ctx.settings();
      const conn = await createSearch(s);
      try {
        const index = opts.index.split(',').map((n) => indexName(s.indexPrefix, n.trim())).join(',');
        const res = await searchText(conn.client, index, words.join(' '), opts.size);
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
