import { InvalidArgumentError } from 'commander';
import type { RegisterCommand } from '../context';
import { parseSince } from '../../search/full-text';
import { collect, nonNegativeInt, pipelineVars } from '../options';

function durationMs(flag: string, value: string, nowMs: number): number {
  try {
    return nowMs - parseSince(value, nowMs);
  } catch (err) {
    throw new InvalidArgumentError(`${flag}: ${(err as Error).message}`);
  }
}
export const register: RegisterCommand = (program, ctx) => {
  program.command('topics')
    .description('emerging topics: terms, hashtags and phrases of indexed posts far above their background; written to the topics index')
    .option('--since <when>', 'report topics that emerged this recently: 30m, 2h, 1d, or an ISO date', '2h')
    .option('--background <span>', 'history before --since that sets each term\'s usual volume', '24h')
    .option('--limit <n>', 'at most this many topics', nonNegativeInt, 10)
    .option('--max-posts <n>', 'read at most this many posts (the background is shortened first)', nonNegativeInt, 500_000)
    .option('--no-write', 'only print; do not write topic documents')
    .option('--json', 'print topic documents as JSON lines')
    .option('--pipeline <file>', "read the posts' labels as this pipeline's sentiment stage gated them (its model_dir, zh_no_opinion_below)")
    .option('--var <NAME=VALUE>', 'value for ${NAME} in --pipeline (repeatable)', collect)
    .action(async (opts: { since: string; background: string; limit: number; maxPosts: number; write: boolean; json?: boolean; pipeline?: string; var?: string[] }) => {
      const { scanTopics, topicDocument, writeTopics } = require('../../alerts/topics') as typeof import('../../alerts/topics');
      const { jiebaDicts, jiebaModule } = require('../../enrichers/jieba') as typeof import('../../enrichers/jieba');
      const { indexName } = require('../../search/templates') as typeof import('../../search/templates');
      const { createSearch } = require('../clients') as typeof import('../clients');
      const { topicGateOf } = require('../topic-gate') as typeof import('../topic-gate');
      const nowMs = Date.now();
      const sinceMs = nowMs - durationMs('--since', opts.since, nowMs);
      const backgroundMs = durationMs('--background', opts.background, nowMs);
      const opinion = topicGateOf(opts.pipeline, pipelineVars(opts.var));
      const s = ctx.settings();
      const conn = await createSearch(s);
      try {
        const jieba = jiebaModule().Jieba.withDict(jiebaDicts().dict);
        const scan = await scanTopics(conn.client, {
          index: indexName(s.indexPrefix, 'posts'), sinceMs, nowMs, backgroundMs, maxPosts: opts.maxPosts, limit: opts.limit, opinion,
          segment: (t) => jieba.cut(t, true),
        });
        if (opts.write) await writeTopics(conn.client, indexName(s.indexPrefix, 'topics'), scan.topics, nowMs);
        if (opts.json) {
          for (const t of scan.topics) console.log(JSON.stringify(topicDocument(t, nowMs)));
          return;
        }
        console.log(`${scan.topics.length} emerging topics since ${new Date(sinceMs).toISOString()} (${scan.postsRead} posts read${scan.truncated ? ', background shortened to --max-posts' : ''})`);
        for (const t of scan.topics) {
          const mix = t.sentiment;
          const labelled = mix.positive + mix.neutral + mix.negative || 1;
          const pct = (n: number): string => `${Math.round((100 * n) / labelled)}%`;
          console.log(`- ${t.label}  first seen ${new Date(t.firstSeenMs).toISOString()}, ${t.posts} posts, z ${t.score.toFixed(1)}; +${pct(mix.positive)} =${pct(mix.neutral)} -${pct(mix.negative)}; terms: ${t.terms.slice(0, 6).join(', ')}`);
        }
      } finally {
        await conn.client.close();
      }
    });
};
