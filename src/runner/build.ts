import { Subject } from 'rxjs';
import type { Client } from '@elastic/elasticsearch';
import type { Cluster, Redis } from 'ioredis';
import type { Clock } from '../core/clock';
import type { Logger } from '../core/logger';
import { meteredStage, type Metrics } from '../core/metrics';
import type { Rng } from '../core/rng';
import { HttpFetcher } from '../fetchers/http-fetch';
import { identityHeaders } from '../fetchers/identities-config';
import { TokenPoolFetcher } from '../fetchers/token-pool-fetcher';
import { RenderFetcher } from '../fetchers/render/render-fetch';
import { proxyAgents, ProxyPoolFetcher } from '../fetchers/proxy-pool-fetcher';
import { ErrorCodes, FreshetError } from '../core/errors';
import type { Adapter } from '../parsers/adapter';
import { WeiboApiAdapter } from '../parsers/weibo-api';
import { ZhihuApiAdapter } from '../parsers/zhihu-api';
import { WebPagesAdapter } from '../parsers/web-pages';
import type { PipelineConfig } from '../pipeline/schema';
import { fixedInterval, type NextVisitPolicy } from '../schedule/fixed-interval';
import { ModelRefresher } from '../schedule/refit';
import { schedulerState } from '../schedule/core-bridge';
import { scheduleStatus } from '../schedule/poisson';
import { applyTemplates, indexName, loadTemplates } from '../search/templates';
import { AlertMonitor } from '../alerts/monitor';
import { notifier } from '../alerts/notify';
import { elasticsearchSink } from '../sinks/elasticsearch';
import { blackholeSink } from '../sinks/blackhole';
import { RedisFrontier } from '../sources/frontier/frontier';
import { TokenQuota } from '../sources/frontier/token-quota';
import { stageDefinition } from '../pipeline/stages';
import { PipelineRunner } from './run';
import type { Fetcher } from './types';
import { startGaugePoller, type ScheduleGaugeValues } from './gauges';
import { SubjectStatusWriter } from './subject-status';
import { PagePool } from './page-pool';
import { leadingStatelessStages } from './page-work';
import { estimatedRatePerHour } from '../schedule/subject-state';
import type { SubjectState } from '../core/envelope';

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
  /** The pipeline file's `alerts:`; the caller starts it with the run and stops it after. */
  alerts?: AlertMonitor;
  close(): Promise<void>;
}

/** `pool`: web pages are read on its threads, with the stages it was started with. */
function buildAdapter(config: PipelineConfig, pool: PagePool | undefined): Adapter {
  switch (config.parse.type) {
    case 'weibo_api':
      return new WeiboApiAdapter(config.parse);
    case 'zhihu_api':
      return new ZhihuApiAdapter(config.parse);
    case 'web_pages':
      return new WebPagesAdapter(config.parse, pool);
  }
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

async function buildSchedule(config: PipelineConfig, frontier: RedisFrontier, logger: Logger): Promise<{ policy: NextVisitPolicy; stop(): void; gauges?: () => ScheduleGaugeValues; rateOf?: (state: SubjectState) => number }> {
  switch (config.schedule.type) {
    case 'fixed_interval':
      return { policy: fixedInterval(config.schedule), stop: () => undefined };
    case 'poisson': {
      // The gauges reuse the states of the last refit: the predicted delay costs O(N) once per refit, no extra Redis scan.
      let fittedStates: Awaited<ReturnType<RedisFrontier['allStates']>> = [];
      const refresher = new ModelRefresher(config.schedule, async () => (fittedStates = await frontier.allStates()), () => frontier.countSubjects(), logger);
      await refresher.start();
      let cached: { model: unknown; values: ScheduleGaugeValues } | undefined;
      const gauges = (): ScheduleGaugeValues => {
        const model = refresher.current();
        if (cached?.model !== model) {
          const st = scheduleStatus(fittedStates.map(schedulerState), model);
          cached = { model, values: { budgetPagesPerHour: st.budgetPerHour, plannedPagesPerHour: st.plannedPagesPerHour, predictedMeanDelayHours: st.predictedMeanDelayHours } };
        }
        return cached.values;
      };
      const rateOf = (state: SubjectState): number => estimatedRatePerHour(schedulerState(state), refresher.current().prior);
      return { policy: refresher.policy(), stop: () => refresher.stop(), gauges, rateOf };
    }
  }
}

/** Wraps the fetcher so that every request goes out as an identity of the pool, within its quota. */
function withIdentities(config: PipelineConfig, deps: BuildDeps, inner: Fetcher): Fetcher {
  const ids = config.identities;
  // Tokens belong to accounts, not to crawls: pipelines sharing a pool share its quotas.
  const namespace = deps.namespace ?? 'freshet';
  if (!ids) return inner;
  const tokens = deps.identityTokens ?? [];
  if (tokens.length === 0) throw new FreshetError(ErrorCodes.configInvalid, 'critical', `pipeline ${config.name}: no tokens for identity pool "${ids.pool}"`);
  const quota = new TokenQuota(deps.redis, { namespace, pool: ids.pool, size: tokens.length, limitPerWindow: ids.requests_per_window, windowMs: ids.window_secs * 1000 }, deps.clock);
  return new TokenPoolFetcher(inner, { tokens, headersFor: identityHeaders(ids.send_as), quota, benchMs: ids.bench_secs * 1000, maxWaitMs: ids.max_wait_ms, sleep: deps.sleep });
}

/** Sends every request through a proxy of the pool, within its quota; undefined without `proxies`. */
function withProxies(config: PipelineConfig, deps: BuildDeps, http: HttpFetcher): ProxyPoolFetcher | undefined {
  const p = config.proxies;
  if (!p) return undefined;
  // Proxies (IPs) belong to the operator, not to a crawl: pipelines sharing a pool share its quotas.
  const namespace = deps.namespace ?? 'freshet';
  const urls = [...new Set([...p.urls, ...(deps.proxyUrls ?? [])])];
  if (urls.length === 0) throw new FreshetError(ErrorCodes.configInvalid, 'critical', `pipeline ${config.name}: no proxies for pool "${p.pool}"`);
  const quota = new TokenQuota(deps.redis, { namespace, pool: `proxy:${p.pool}`, size: urls.length, limitPerWindow: p.requests_per_window, windowMs: p.window_secs * 1000 }, deps.clock);
  return new ProxyPoolFetcher(http, {
    urls, dispatchers: proxyAgents(urls, http.config), quota, benchMs: p.bench_secs * 1000, maxBenchMs: p.max_bench_secs * 1000,
    maxConsecutiveFailures: p.max_consecutive_failures, failureBenchMs: p.failure_bench_secs * 1000, slowMs: p.slow_ms, maxWaitMs: p.max_wait_ms,
    clock: deps.clock, rng: deps.rng, logger: deps.logger, registry: deps.metrics.registry, sleep: deps.sleep,
  });
}

/** Assembles a runnable pipeline; applies the index templates first when the sink indexes. */
export async function buildPipeline(config: PipelineConfig, deps: BuildDeps): Promise<BuiltPipeline> {
  const frontier = new RedisFrontier(deps.redis, {
    namespace: deps.namespace ?? `freshet:${config.name}`,
    shards: config.source.shards,
    leaseMs: config.source.lease_secs * 1000,
    bloomCapacity: config.source.bloom_capacity,
    bloomFalsePositiveRate: config.source.bloom_false_positive_rate,
    deadLetterMaxLen: config.source.dead_letter_max_len,
  }, deps.clock);
  const { type: _type, render: renderConfig, ...fetchConfig } = config.fetch;
  // Every attempt must be charged to an identity's (or a proxy's) quota, so the runner reschedules instead of the fetcher retrying.
  if (config.identities || config.proxies) fetchConfig.retry = { ...fetchConfig.retry, max_attempts: 1 };
  const http = deps.fetcher ? undefined : new HttpFetcher(fetchConfig, { clock: deps.clock, rng: deps.rng, logger: deps.logger });
  const proxied = http ? withProxies(config, deps, http) : undefined;
  // Rendering is opt-in per URL pattern; every request of a rendered page goes through the plain fetcher.
  const render = http && renderConfig
    ? new RenderFetcher(renderConfig, { http: proxied ?? http, retry: fetchConfig.retry, clock: deps.clock, rng: deps.rng, logger: deps.logger, registry: deps.metrics.registry })
    : undefined;
  const fetcher: Fetcher = withIdentities(config, deps, deps.fetcher ?? render ?? proxied ?? http!);
  let sink;
  // The runner asks the sink to flush when the jobs in flight all wait on it.
  const flushRequests = new Subject<void>();
  if (config.sink.type === 'elasticsearch') {
    if (!deps.search) throw new Error('the elasticsearch sink needs a search client');
    const settings = config.sink.replicas === undefined ? {} : { number_of_replicas: config.sink.replicas };
    await applyTemplates(deps.search, loadTemplates(deps.mappingsDir), { prefix: deps.indexPrefix, settings, logger: deps.logger, registry: deps.metrics.registry });
    sink = meteredStage(deps.metrics, 'elasticsearch', elasticsearchSink(config.sink, {
      client: deps.search, indexPrefix: deps.indexPrefix, clock: deps.clock, rng: deps.rng, logger: deps.logger,
      metrics: deps.metrics, sleep: deps.sleep, deadLetter: (e) => frontier.deadLetter(e), flushRequests,
    }), (settled) => settled.env);
  } else {
    sink = blackholeSink();
  }
  const schedule = await buildSchedule(config, frontier, deps.logger);
  // Profiles carry their subject's schedule (status, next visit, rate) for the Crawl dashboard.
  const subjectStatus = config.sink.type === 'elasticsearch' && deps.search
    ? new SubjectStatusWriter({ client: deps.search, indexPrefix: deps.indexPrefix, logger: deps.logger, metrics: deps.metrics, ...(schedule.rateOf ? { rateOf: schedule.rateOf } : {}) })
    : undefined;
  const pages = buildPagePool(config, deps);
  const runner = new PipelineRunner(config, {
    frontier, fetcher, adapter: buildAdapter(config, pages.pool), sink, schedule: schedule.policy,
    stages: (drop) => config.stages.slice(pages.offThread).map((stage) => meteredStage(deps.metrics, stage.type, stageDefinition(stage.type).build(stage, {
      pipeline: config.name, clock: deps.clock, rng: deps.rng, logger: deps.logger, metrics: deps.metrics, drop,
    }))),
    clock: deps.clock, rng: deps.rng, logger: deps.logger, metrics: deps.metrics, sleep: deps.sleep, ...(subjectStatus ? { subjectStatus } : {}),
    flushSink: () => flushRequests.next(),
  });
  let alerts: AlertMonitor | undefined;
  if (config.alerts) {
    if (config.sink.type !== 'elasticsearch' || !deps.search) throw new FreshetError(ErrorCodes.configInvalid, 'critical', `pipeline ${config.name}: alerts need the elasticsearch sink`);
    const namespace = deps.namespace ?? `freshet:${config.name}`;
    alerts = new AlertMonitor(config.alerts, {
      client: deps.search, redis: deps.redis, postsIndex: indexName(deps.indexPrefix, 'posts'), alertsIndex: indexName(deps.indexPrefix, `alerts-${config.name}`),
      mappingsDir: deps.mappingsDir, keyPrefix: `${namespace}:`, pipeline: config.name,
      notify: notifier({ ...(config.alerts.ndjson ? { ndjson: config.alerts.ndjson } : {}), ...(config.alerts.webhook ? { webhook: config.alerts.webhook } : {}) }),
      clock: deps.clock, logger: deps.logger,
    });
  }
  const gauges = startGaugePoller({ frontier, ...(schedule.gauges ? { schedule: schedule.gauges } : {}) }, deps.metrics, { intervalMs: deps.gaugeIntervalMs ?? 5000, logger: deps.logger });
  return {
    runner, frontier, ...(alerts ? { alerts } : {}),
    close: async () => {
      await gauges.stop();
      await subjectStatus?.close();
      schedule.stop();
      await render?.close();
      await http?.close();
      await proxied?.close();
      await pages.pool?.close();
    },
  };
}
