import { join } from 'node:path';
import type { RegisterCommand } from '../context';
import { firstStop } from '../signals';
import { sleepMs } from '../../core/timers';
import { positiveNumber, collect, pipelineVars } from '../options';

export const register: RegisterCommand = (program, ctx) => {
  program.command('alerts')
    .description('register saved queries (alerts file) as percolator queries and notify once per newly indexed matching post')
    .argument('<file>', 'YAML file: alerts: [{ name, keywords?, authors?, sentiment?, platform? }], spikes: [{ name, sentiment, keywords?, window_minutes, min_posts, min_share? }], topics: [{ name, keywords?, min_posts?, sentiment?, min_share?, window_minutes?, background_hours? }]')
    .option('--follow', 'keep polling (default: one pass)')
    .option('--interval-secs <s>', 'seconds between passes with --follow', positiveNumber, 10)
    .option('--ndjson <path>', 'append notifications to this file (default: stdout)')
    .option('--webhook <url>', 'POST each notification as JSON to this URL')
    .option('--pipeline <file>', "topic alerts read the posts' labels as this pipeline's sentiment stage gated them (its model_dir, zh_no_opinion_below)")
    .option('--var <NAME=VALUE>', 'value for ${NAME} in --pipeline (repeatable)', collect)
    .action(async (file: string, opts: { follow?: boolean; intervalSecs: number; ndjson?: string; webhook?: string; pipeline?: string; var?: string[] }) => {
      const { connectRedis, createSearch } = require('../clients') as typeof import('../clients');
      const { indexName } = require('../../search/templates') as typeof import('../../search/templates');
      const { registerSavedQueries } = require('../../alerts/percolator') as typeof import('../../alerts/percolator');
      const { loadAlertsFile } = require('../../alerts/saved-queries') as typeof import('../../alerts/saved-queries');
      const { notifier } = require('../../alerts/notify') as typeof import('../../alerts/notify');
      const { checkSpikes } = require('../../alerts/spikes') as typeof import('../../alerts/spikes');
      const { checkTopicAlerts } = require('../../alerts/topic-alerts') as typeof import('../../alerts/topic-alerts');
      const { jiebaDicts, jiebaModule } = require('../../enrichers/jieba') as typeof import('../../enrichers/jieba');
      const { pollAlertsOnce } = require('../../alerts/watcher') as typeof import('../../alerts/watcher');
      const { topicGateOf } = require('../topic-gate') as typeof import('../topic-gate');
      const opinion = topicGateOf(opts.pipeline, pipelineVars(opts.var));
      const s = ctx.settings();
      const { alerts: queries, spikes, topics } = loadAlertsFile(file);
      const jieba = topics.length > 0 ? jiebaModule().Jieba.withDict(jiebaDicts().dict) : undefined;
      const notify = notifier({ ...opts, fallback: (line) => process.stdout.write(line) });
      const conn = await createSearch(s);
      const redis = await connectRedis(s).catch(async (err: unknown) => {
        await conn.client.close();
        throw err;
      });
      let stop = false;
      void firstStop().then(() => { stop = true; });
      try {
        const alertsIndex = indexName(s.indexPrefix, 'alerts');
        await registerSavedQueries(conn.client, alertsIndex, join(ctx.root, 'mappings'), queries);
        do {
          const r = await pollAlertsOnce({
            client: conn.client, redis, postsIndex: indexName(s.indexPrefix, 'posts'), alertsIndex,
            keyPrefix: `${s.indexPrefix}`, notify,
          });
          const spiked = await checkSpikes({
            client: conn.client, redis, postsIndex: indexName(s.indexPrefix, 'posts'), keyPrefix: `${s.indexPrefix}`, spikes, nowMs: Date.now(), notify,
          });
          const topical = jieba ? await checkTopicAlerts({
            client: conn.client, redis, postsIndex: indexName(s.indexPrefix, 'posts'), keyPrefix: `${s.indexPrefix}`, alerts: topics, nowMs: Date.now(), notify, opinion,
            segment: (t) => jieba.cut(t, true),
          }) : 0;
          process.stderr.write(`[alerts] scanned ${r.scanned} posts, ${r.notified} notifications, ${spiked} spikes, ${topical} topics\n`);
          if (opts.follow && !stop) await sleepMs(opts.intervalSecs * 1000);
        } while (opts.follow && !stop);
      } finally {
        redis.disconnect();
        await conn.client.close();
      }
    });
};
