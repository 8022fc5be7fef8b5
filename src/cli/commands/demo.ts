import { join } from 'node:path';
import type { RegisterCommand } from '../context';
import { nonNegativeInt, pipelineVars } from '../options';

interface DemoOptions {
  users: number;
  seed: number;
  query: string;
}

export const register: RegisterCommand = (program, ctx) => {
  program.command('demo')
    .description('the quick-start job: start the simulated site, crawl its users into the local search node, search it')
    .option('--users <n>', 'users in the simulated world (all are seeded)', nonNegativeInt, 300)
    .option('--seed <n>', 'seed of the simulated world', nonNegativeInt, 42)
    .option('--query <words>', 'the full-text search printed at the end', '天气')
    .action(async (opts: DemoOptions) => {
      const { startSimsite } = require('../../simsite') as typeof import('../../simsite');
      const { indexName } = require('../../search/templates') as typeof import('../../search/templates');
      const { createSearch } = require('../clients') as typeof import('../clients');
      const { openPipeline } = require('../runtime') as typeof import('../runtime');
      const { checkServices, formatHealth } = require('../services') as typeof import('../services');
      const { searchText } = require('./search') as typeof import('./search');
      const settings = ctx.settings();
      const rows = await checkServices(settings);
      console.log(formatHealth(rows));
      const down = rows.filter((r) => !r.ok);
      if (down.length > 0) throw new Error(`the demo needs Redis and the search node: ${down.map((r) => r.detail).join('; ')}`);
      const site = await startSimsite({ worldOptions: { seed: opts.seed, users: opts.users }, port: 0 });
      console.log(`simsite: ${opts.users} users (seed ${opts.seed}) at ${site.url}`);
      try {
        const p = await openPipeline(ctx, join(ctx.root, 'pipelines', 'demo.yaml'), { ...pipelineVars(), SIMSITE_URL: site.url });
        try {
          const seeds = site.world.users.map((u) => ({
            subject: `weibo:user:${u.uid}`,
            state: { firstSeenMs: Date.now(), postsSeen: 0, visits: 0, failures: 0, status: 'active' as const },
          }));
          const added = await p.built.frontier.offer(seeds);
          console.log(`seeded ${seeds.length} users (${added} new; known ones are revisited when due)`);
          const summary = await p.built.runner.run({ untilIdle: true });
          console.log(`crawled ${summary.jobs} users with ${summary.requests} requests in ${(summary.elapsedMs / 1000).toFixed(1)} s: `
            + `${summary.documents.indexed} documents indexed, ${summary.documents.dead_lettered} dead-lettered, ${summary.jobsFailed} failed visits`);
        } finally {
          await p.close();
        }
      } finally {
        await site.close();
      }
      const conn = await createSearch(settings);
      try {
        const index = indexName(settings.indexPrefix, 'posts');
        await conn.client.indices.refresh({ index });
        const posts = await conn.client.count({ index });
        const res = await searchText(conn.client, index, opts.query, 5);
        console.log(`\nindex ${index}: ${posts.count} posts. Search "${opts.query}": ${res.total} hits`);
        for (const h of res.hits) {
          const author = (h.fields['author'] as { name?: string } | undefined)?.name ?? '?';
          const sentiment = h.fields['sentiment'] as { label?: string; score?: number } | undefined;
          const mood = sentiment?.label ? ` [${sentiment.label} ${(sentiment.score ?? 0).toFixed(2)}]` : '';
          console.log(`  @${author} ${String(h.fields['created_at'] ?? '')}${mood}: ${h.highlight.join(' … ')}`);
        }
        const moods = await conn.client.search({
          index, size: 0, query: { match: { text: opts.query } }, aggs: { label: { terms: { field: 'sentiment.label' } } },
        });
        const buckets = (moods.aggregations as { label?: { buckets: { key: string; doc_count: number }[] } } | undefined)?.label?.buckets ?? [];
        if (buckets.length > 0) console.log(`  sentiment of the matching posts: ${buckets.map((b) => `${b.key} ${b.doc_count}`).join(', ')}`);
        console.log(`\nmore: node bin/freshet.js search <words>   (FRESHET_INDEX_PREFIX=${settings.indexPrefix})`);
      } finally {
        await conn.client.close();
      }
    });
};
