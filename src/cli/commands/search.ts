import { InvalidArgumentError } from 'commander';
import { parseSince, searchText, type SearchFilters } from '../../search/full-text';
import type { RegisterCommand } from '../context';
import { nonNegativeInt } from '../options';

export { parseSince, searchText, type SearchFilters, type SearchHit } from '../../search/full-text';

function sinceArg(value: string): number {
  try {
    return parseSince(value, Date.now());
  } catch (err) {
    throw new InvalidArgumentError(`--since: ${(err as Error).message}`);
  }
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
      const { createSearch } = require('../clients') as typeof import('../clients');
      const { indexName } = require('../../search/templates') as typeof import('../../search/templates');
      if (opts.sentiment !== undefined && !['positive', 'neutral', 'negative'].includes(opts.sentiment)) {
        throw new InvalidArgumentError('--sentiment expects positive, neutral or negative');
      }
      const filters: SearchFilters = {
        ...(opts.since !== undefined ? { sinceMs: sinceArg(opts.since) } : {}),
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
