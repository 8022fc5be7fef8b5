import type { Client } from '@elastic/elasticsearch';
import type { Cluster, Redis } from 'ioredis';
import { z } from 'zod';
import type { Clock } from '../core/clock';
import type { Logger } from '../core/logger';
import type { Notify } from './notify';
import { registerSavedQueries } from './percolator';
import { savedQuerySchema } from './saved-queries';
import { checkSpikes, spikeSchema } from './spikes';
import { checkTopicAlerts, topicAlertSchema } from './topic-alerts';
import { jiebaDicts, jiebaModule } from '../enrichers/jieba';
import { pollAlertsOnce } from './watcher';
import { setRepeating, timerSecs } from '../core/timers';

/**
 * The `alerts:` section of a pipeline file, checked while the pipeline runs: saved queries over
 * the posts this pipeline indexes, and sentiment spikes over the whole posts index, each
 * notification delivered once. The same entries as an alerts file (`freshet alerts FILE`), plus
 * where the notifications go.
 */
export const pipelineAlertsSchema = z.strictObject({
  /** Saved queries: every newly indexed post of this pipeline that matches one is notified once. */
  queries: z.array(savedQuerySchema).default([]),
  /** Sentiment spikes, notified at most once per window. */
  spikes: z.array(spikeSchema).default([]),
  /** Emerging topics over the whole posts index (`freshet topics`' detector), each notified once. */
  topics: z.array(topicAlertSchema).default([]),
  /** Seconds between two passes while the pipeline runs (one more pass when it stops). */
  interval_secs: timerSecs(1).default(10),
  /** Append notifications as JSON lines to this file. */
  ndjson: z.string().min(1).optional(),
  /** POST each notification as JSON to this URL. */
  webhook: z.url({ protocol: /^https?$/ }).optional(),
})
  .refine((a) => a.queries.length + a.spikes.length + a.topics.length > 0, { message: 'alerts: no queries, spikes or topics' })
  .refine((a) => a.ndjson !== undefined || a.webhook !== undefined, { message: 'alerts: give ndjson (a file) or webhook (a URL), or both' })
  .refine((a) => new Set([...a.queries, ...a.spikes, ...a.topics].map((q) => q.name)).size === a.queries.length + a.spikes.length + a.topics.length, { message: 'alerts: names must be unique' });

export type PipelineAlertsConfig = z.infer<typeof pipelineAlertsSchema>;

export interface AlertMonitorDeps {
  client: Client;
  redis: Redis | Cluster;
  /** The posts index (or pattern) to watch, and this monitor's own percolator index. */
  postsIndex: string;
  alertsIndex: string;
  mappingsDir: string;
  /** Redis key prefix for the checkpoint and the sent-once markers (one per pipeline). */
  keyPrefix: string;
  /** Watch only the posts this pipeline indexed (its name in the `pipeline` field). */
  pipeline: string;
  notify: Notify;
  clock: Clock;
  logger: Logger;
}

/**
 * Runs a pipeline's alerts: registers its saved queries as percolator queries in its own index
 * (so pipelines and alerts files never remove each other's), then one pass every `interval_secs`
 * and a last one on stop. A failed pass is logged and retried at the next tick; the Redis markers
 * keep every notification once across passes, restarts and workers.
 */
export class AlertMonitor {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** jieba for the topic alerts' terms, loaded on the first pass that needs it. */
  private segment: ((text: string) => string[]) | undefined;

  constructor(readonly config: PipelineAlertsConfig, private readonly deps: AlertMonitorDeps) {}

  async start(): Promise<void> {
    // Spikes and topics read the posts index only: a node without the percolator still runs them.
    if (this.config.queries.length > 0) await registerSavedQueries(this.deps.client, this.deps.alertsIndex, this.deps.mappingsDir, this.config.queries);
    this.timer = setRepeating(() => void this.pass(), this.config.interval_secs * 1000);
    this.timer.unref();
  }

  /** One pass (or the one already under way): saved queries over new posts, then spikes. */
  private pass(): Promise<void> {
    this.running ??= this.passOnce().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Stops the timer and makes a last pass over everything indexed so far. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
    // Posts indexed in the last second are not searchable before a refresh.
    await this.deps.client.indices.refresh({ index: this.deps.postsIndex, ignore_unavailable: true, allow_no_indices: true }).catch(() => undefined);
    await this.pass();
  }

  private segmenter(): (text: string) => string[] {
    if (!this.segment) {
      const jieba = jiebaModule().Jieba.withDict(jiebaDicts().dict);
      this.segment = (t) => jieba.cut(t, true);
    }
    return this.segment;
  }

  private async passOnce(): Promise<void> {
    const d = this.deps;
    try {
      const r = this.config.queries.length === 0 ? { scanned: 0, notified: 0 } : await pollAlertsOnce({
        client: d.client, redis: d.redis, postsIndex: d.postsIndex, alertsIndex: d.alertsIndex, keyPrefix: d.keyPrefix,
        notify: d.notify, filter: { term: { pipeline: d.pipeline } },
      });
      const spikes = this.config.spikes.length === 0 ? 0 : await checkSpikes({
        client: d.client, redis: d.redis, postsIndex: d.postsIndex, keyPrefix: d.keyPrefix, spikes: this.config.spikes, nowMs: d.clock.nowMs(), notify: d.notify,
      });
      const topics = this.config.topics.length === 0 ? 0 : await checkTopicAlerts({
        client: d.client, redis: d.redis, postsIndex: d.postsIndex, keyPrefix: d.keyPrefix, alerts: this.config.topics, nowMs: d.clock.nowMs(), notify: d.notify,
        segment: this.segmenter(),
      });
      if (r.notified + spikes + topics > 0) d.logger.info({ scanned: r.scanned, notified: r.notified, spikes, topics }, 'alerts notified');
    } catch (err) {
      d.logger.warn({ err: (err as Error).message }, 'alerts pass failed; retrying at the next one');
    }
  }
}
