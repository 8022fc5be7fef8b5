import type { Client } from '@elastic/elasticsearch';
import type { Cluster, Redis } from 'ioredis';
import { AlertMonitor } from '../alerts/monitor';
import { notifier } from '../alerts/notify';
import type { Clock } from '../core/clock';
import type { Logger } from '../core/logger';
import { meteredStage, type Metrics } from '../core/metrics';
import type { Rng } from '../core/rng';
import type { Fetcher } from '../fetchers/contract';
import { buildFetcher, fetchMetricsOf, withIdentities, withSelfTuning } from '../fetchers/factory';
import { aimdOptionsOf, SelfTuning } from '../limits/self-tuning';
import { OriginGate } from '../limits/origin-gate';
import { OriginPoliteness } from '../limits/origin-politeness';
import { buildAdapter } from '../parsers/factory';
import type { PipelineConfig } from '../pipeline/schema';
import { stageDefinition } from '../pipeline/stages';
import { buildSchedule } from '../schedule/factory';
import { postStatesReader } from '../search/post-states';
import { subjectCounts } from '../search/ledger-query';
import { readLedger, startLedgerGauge } from './ledger';
import { indexName } from '../search/templates';
import { buildSink } from '../sinks/factory';
import type { FrontierCounts } from '../sources/frontier/counts';
import type { DeadLetterStream } from '../sources/frontier/dead-letters';
import type { RedisFrontier } from '../sources/frontier/frontier';
import { openFrontier } from '../sources/redis-frontier';
import { CrawlControl } from '../sources/control';
import { startGaugePoller } from './gauges';
import { PagePool } from './page-pool';
import { leadingStatelessStages } from './page-work';
import { PipelineRunner } from './run';
import { SubjectStatusWriter } from './subject-status';

export interface BuildDeps {
  redis: Redis | Cluster;
  /** Required unless the sink is `blackhole`. */
  search?: Client;
  indexPrefix: string;
  mappingsDir: string;
  clock: Clock;
  rng: Rng;
  logger: Logger;
  metrics: Metrics;
  sleep(ms: number): Promise<void>;
  /** How often the frontier and schedule gauges are polled (default 5 s). */
  gaugeIntervalMs?: number;
  /** Key namespace; defaults to `freshet:<pipeline name>`. */
  namespace?: string;
  /** Replaces the HTTP fetcher (tests of the runner itself). */
  fetcher?: Fetcher;
  /** The secrets of `identities.pool` (read from the environment by the CLI). */
  identityTokens?: readonly string[];
  /** Proxy URLs of `proxies.pool` from the environment (may carry credentials), added to `proxies.urls`. */
  proxyUrls?: readonly string[];
}

export interface BuiltPipeline {
  runner: PipelineRunner;
  frontier: RedisFrontier;
  counts: FrontierCounts;
  deadLetters: DeadLetterStream;
  /** The pipeline file's `alerts:`; the caller starts it with the run and stops it after. */
  alerts?: AlertMonitor;
  close(): Promise<void>;
}

/**
 * Share of a social crawl's requests that are timeline pages (the schedule's budget unit); the rest
 * are profiles, long texts and single-post checks.
 */
const PAGE_SHARE_OF_REQUESTS = 0.8;

/** Deletion monitoring (a weibo_api parser with `monitor`, into a search node) merges posts into the stored ones and reads their states back. */
function isMonitored(config: PipelineConfig, hasSearch: boolean): boolean {
  return config.parse.type === 'weibo_api' && config.parse.monitor !== undefined && config.sink.type === 'elasticsearch' && hasSearch;
}

/** The sink as it runs: a monitored crawl merges `posts` (also what `freshet serve` writes a requeued document with). */
export function sinkConfigOf(config: PipelineConfig, hasSearch = true): PipelineConfig['sink'] {
  return isMonitored(config, hasSearch) && config.sink.type === 'elasticsearch' && !config.sink.merged_indices.includes('posts')
    ? { ...config.sink, merged_indices: [...config.sink.merged_indices, 'posts'] } : config.sink;
}

/** The frontier's key namespace of a pipeline. */
export function pipelineNamespace(config: Pick<PipelineConfig, 'name'>, namespace?: string): string {
  return namespace ?? `freshet:${config.name}`;
}

/** The key namespace of identity and proxy quotas: tokens and proxies belong to accounts and operators, not to crawls. */
export function quotaNamespace(namespace?: string): string {
  return namespace ?? 'freshet';
}

/** Page worker threads for a web_pages parser that asks for them, with the leading stateless stages moved onto them. */
function buildPagePool(config: PipelineConfig, deps: BuildDeps): { pool?: PagePool; offThread: number } {
  if (config.parse.type !== 'web_pages' || config.parse.worker_threads === 0) return { offThread: 0 };
  const stages = leadingStatelessStages(config.stages).slice(0, config.parse.worker_stages ?? config.stages.length);
  const pool = new PagePool({
    threads: config.parse.worker_threads, logger: deps.logger, metrics: deps.metrics,
    init: { pipeline: config.name, parse: config.parse, stages, seed: Math.floor(deps.rng.next() * 2 ** 31) },
  });
  return { pool, offThread: stages.length };
}

function buildAlerts(config: PipelineConfig, deps: BuildDeps, namespace: string): AlertMonitor | undefined {
  if (!config.alerts || !deps.search) return undefined;
  return new AlertMonitor(config.alerts, {
    client: deps.search, redis: deps.redis, postsIndex: indexName(deps.indexPrefix, 'posts'), alertsIndex: indexName(deps.indexPrefix, `alerts-${config.name}`),
    mappingsDir: deps.mappingsDir, keyPrefix: `${namespace}:`, pipeline: config.name,
    notify: notifier({ ...(config.alerts.ndjson ? { ndjson: config.alerts.ndjson } : {}), ...(config.alerts.webhook ? { webhook: config.alerts.webhook } : {}) }),
    clock: deps.clock, logger: deps.logger,
  });
}

/**
 * Assembles a runnable pipeline from each kind's factory: frontier (sources), politeness (limits),
 * fetcher, parser (with its page threads), document stages, sink (applies the index templates),
 * schedule (fits its model), alerts and gauges. `freshet status` and `seed` need only the frontier
 * and open it with `openFrontier`.
 */
export async function buildPipeline(config: PipelineConfig, deps: BuildDeps): Promise<BuiltPipeline> {
  const namespace = pipelineNamespace(config, deps.namespace);
  const { frontier, counts, deadLetters } = openFrontier(deps.redis, config.source, namespace, deps.clock);
  const p = config.politeness;
  // The gate asks the fetcher for robots.txt's Crawl-delay; the fetcher is built next.
  const robots: { fetcher?: Fetcher } = {};
  const gate = new OriginGate(new OriginPoliteness(deps.redis, namespace, deps.clock), {
    minDelayMs: p.min_delay_ms, maxWaitMs: p.max_wait_ms, maxConcurrency: p.max_concurrency_per_origin,
    holdMs: config.fetch.total_timeout_ms * config.fetch.retry.max_attempts + 60_000,
    crawlDelayMs: (origin) => robots.fetcher?.robotsCrawlDelayMs?.(origin), sleep: deps.sleep,
  });
  // Self-tuning politeness: the rates this worker learns per origin and identity (limits/self-tuning.ts).
  const tuning = p.self_tuning ? new SelfTuning(aimdOptionsOf(p.self_tuning), () => deps.rng.next()) : undefined;
  // Tokens and proxies belong to accounts and operators, not to crawls: pipelines sharing a pool share its quotas.
  const fetchDeps = {
    redis: deps.redis, clock: deps.clock, rng: deps.rng, logger: deps.logger, registry: deps.metrics.registry, sleep: deps.sleep,
    quotaNamespace: quotaNamespace(deps.namespace), identityTokens: deps.identityTokens ?? [], proxyUrls: deps.proxyUrls ?? [],
    // Redirect hops to another origin take that origin's slot too.
    politeness: gate,
    metrics: fetchMetricsOf(deps.metrics),
    selfTuning: { ...(tuning ? { tuning } : {}), maxWaitMs: p.max_wait_ms },
  };
  const built = deps.fetcher ? undefined : buildFetcher(config, fetchDeps);
  const fetcher = built?.fetcher ?? withIdentities(config, fetchDeps, withSelfTuning(fetchDeps, deps.fetcher!));
  robots.fetcher = fetcher;
  const monitored = isMonitored(config, deps.search !== undefined);
  const sinkConfig = sinkConfigOf(config, deps.search !== undefined);
  const indexIx = { posts: indexName(deps.indexPrefix, 'posts'), users: indexName(deps.indexPrefix, 'users') };
  // The budget follows what the sites allow: once every origin and identity in use has been refused,
  // the learned rate (less a share for requests that are no timeline pages) caps the configured budget.
  const allowedPagesPerHour = tuning
    ? (): number | undefined => {
      const s = tuning.sustainable(deps.clock.nowMs());
      return s.learned ? s.requestsPerSec * 3600 * PAGE_SHARE_OF_REQUESTS : undefined;
    }
    : undefined;
  let sink: Awaited<ReturnType<typeof buildSink>>;
  let schedule: Awaited<ReturnType<typeof buildSchedule>>;
  try {
    sink = await buildSink(sinkConfig, {
      search: deps.search, indexPrefix: deps.indexPrefix, mappingsDir: deps.mappingsDir, deadLetters,
      clock: deps.clock, rng: deps.rng, logger: deps.logger, metrics: deps.metrics, sleep: deps.sleep,
    });
    schedule = await buildSchedule(config.schedule, {
      allStates: () => frontier.allStates(), countSubjects: () => counts.countSubjects(), logger: deps.logger, ...(allowedPagesPerHour ? { allowedPagesPerHour } : {}),
    });
  } catch (err) {
    // A refused template or an unreadable frontier: nothing built so far may keep the process alive.
    await built?.close();
    throw err;
  }
  // Profiles carry their subject's schedule (status, next visit, rate) for the Crawl dashboard.
  const subjectStatus = config.sink.type === 'elasticsearch' && deps.search
    ? new SubjectStatusWriter({ client: deps.search, indexPrefix: deps.indexPrefix, logger: deps.logger, metrics: deps.metrics, ...(schedule.rateOf ? { rateOf: schedule.rateOf } : {}) })
    : undefined;
  const pages = buildPagePool(config, deps);
  const adapter = buildAdapter(config.parse, pages.pool, {
    nowMs: () => deps.clock.nowMs(),
    counters: {
      refused: (reason) => deps.metrics.drops.inc({ stage: 'trap_guard', reason }),
      notModified: (bytes) => {
        deps.metrics.notModified.inc();
        deps.metrics.notModifiedBytes.inc(bytes);
      },
    },
  });
  const runner = new PipelineRunner(config, {
    frontier, readings: counts, throughput: counts, deadLetters, gate, fetcher, adapter, sink: sink.sink, schedule: schedule.policy,
    ...(adapter.softBlockOf ? { softBlockOf: adapter.softBlockOf.bind(adapter) } : {}),
    stages: (drop) => config.stages.slice(pages.offThread).map((stage) => meteredStage(deps.metrics, stage.type, stageDefinition(stage.type).build(stage, {
      pipeline: config.name, clock: deps.clock, rng: deps.rng, logger: deps.logger, metrics: deps.metrics, drop,
    }))),
    clock: deps.clock, rng: deps.rng, logger: deps.logger, metrics: deps.metrics, sleep: deps.sleep, ...(subjectStatus ? { subjectStatus } : {}),
    flushSink: sink.flush, control: new CrawlControl(deps.redis, namespace, deps.clock).signal(deps.clock.nowMs()),
    ...(monitored ? {
      indexedPosts: postStatesReader(deps.search!, { index: indexIx.posts }),
      ledgerCounts: async (subject: string) => (await subjectCounts(deps.search!, indexIx, [subject]))[0],
    } : {}),
  });
  // The completeness gauges (monitored crawls): the whole ledger every few minutes.
  const ledgerGauge = monitored && config.parse.type === 'weibo_api' && config.parse.monitor
    ? startLedgerGauge(() => readLedger(frontier, deps.search!, indexIx), deps.metrics, {
      intervalMs: config.parse.monitor.ledger_gauge_secs * 1000, logger: deps.logger,
      beforeLastPoll: async () => { await deps.search!.indices.refresh({ index: [indexIx.posts, indexIx.users], ignore_unavailable: true }); },
    })
    : undefined;
  const alerts = buildAlerts(config, deps, namespace);
  const gauges = startGaugePoller({
    frontier: counts, ...(schedule.gauges ? { schedule: schedule.gauges } : {}),
    ...(tuning ? { sustainableRequestsPerSec: () => tuning.sustainable(deps.clock.nowMs()).requestsPerSec } : {}),
  }, deps.metrics, { intervalMs: deps.gaugeIntervalMs ?? 5000, logger: deps.logger });
  return {
    runner, frontier, counts, deadLetters, ...(alerts ? { alerts } : {}),
    close: async () => {
      await gauges.stop();
      await ledgerGauge?.stop();
      await subjectStatus?.close();
      schedule.stop();
      await built?.close();
      await pages.pool?.close();
    },
  };
}
