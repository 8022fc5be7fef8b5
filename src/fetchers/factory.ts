import type { Cluster, Redis } from 'ioredis';
import type { Registry } from 'prom-client';
import type { Clock } from '../core/clock';
import { ErrorCodes, FreshetError } from '../core/errors';
import type { Logger } from '../core/logger';
import type { Metrics } from '../core/metrics';
import type { Rng } from '../core/rng';
import { TokenQuota } from '../limits/token-quota';
import type { Fetcher, FetchMetrics, PolitenessGate } from './contract';
import { HttpFetcher } from './http-fetch';
import type { HttpFetchConfig } from './http-fetch-config';
import { identityHeaders, type IdentitiesConfig } from './identities-config';
import type { ProxiesConfig } from './proxy-config';
import { proxyAgents, ProxyPoolFetcher } from './proxy-pool-fetcher';
import type { RenderConfig } from './render/render-config';
import { RenderFetcher } from './render/render-fetch';
import { oneAttemptPerQuota } from './quota-retry';
import { TokenPoolFetcher } from './token-pool-fetcher';
import { SelfTuningFetcher } from './self-tuning-fetcher';
import type { SelfTuning } from '../limits/self-tuning';

/** The HTTP fetcher's exchanges, bytes, latencies and retries, into the pipeline's Prometheus metrics. */
export function fetchMetricsOf(metrics: Metrics): FetchMetrics {
  return {
    requests: (statusClass, outcome) => metrics.countExchange(statusClass, outcome),
    retries: (code) => metrics.fetchRetries.inc({ code }),
    bytes: (n) => metrics.countReceivedBytes(n),
    latencyMs: (ms) => metrics.httpExchangeSeconds.observe(ms / 1000),
    softBlocks: (reason) => metrics.softBlocks.inc({ reason }),
  };
}

/** The parts of a pipeline that decide how it fetches. */
export interface FetchConfigs {
  /** The pipeline's name, for error messages. */
  name: string;
  fetch: HttpFetchConfig & { type: 'http_fetch'; render?: RenderConfig | undefined };
  identities?: IdentitiesConfig | undefined;
  proxies?: ProxiesConfig | undefined;
}

export interface FetcherFactoryDeps {
  redis: Redis | Cluster;
  clock: Clock;
  rng: Rng;
  logger: Logger;
  registry: Registry;
  sleep(ms: number): Promise<void>;
  /** Retry and request counts of the HTTP fetcher (to Prometheus). */
  metrics?: FetchMetrics;
  /** Gates redirect hops to another origin (the runner gates each request's own origin). */
  politeness?: PolitenessGate;
  /** Key namespace of the quotas; pools are shared by every pipeline using the same namespace. */
  quotaNamespace: string;
  /** The secrets of `identities.pool` (read from the environment by the CLI). */
  identityTokens?: readonly string[];
  /** Proxy URLs of `proxies.pool` from the environment (may carry credentials), added to `proxies.urls`. */
  proxyUrls?: readonly string[];
  /** Self-tuning politeness (learned rates per origin and identity), and how long a request may wait for its slot. */
  selfTuning?: { tuning?: SelfTuning; maxWaitMs: number };
}

export interface BuiltFetcher {
  fetcher: Fetcher;
  close(): Promise<void>;
}

/**
 * The fetcher of a pipeline: HTTP, through a proxy of the pool when `proxies` is set, rendering
 * the pages that match `fetch.render`, every request as one identity of the pool when
 * `identities` is set. Quotas are kept in Redis (src/limits), so they hold across workers.
 */
export function buildFetcher(configs: FetchConfigs, deps: FetcherFactoryDeps): BuiltFetcher {
  const config = oneAttemptPerQuota(configs);
  const { type: _type, render: renderConfig, ...fetchConfig } = config.fetch;
  const http = new HttpFetcher(fetchConfig, {
    clock: deps.clock, rng: deps.rng, logger: deps.logger,
    ...(deps.metrics ? { metrics: deps.metrics } : {}), ...(deps.politeness ? { politeness: deps.politeness } : {}),
  });
  const proxied = withProxies(config, deps, http);
  // Rendering is opt-in per URL pattern; every request of a rendered page goes through the plain fetcher.
  const render = renderConfig
    ? new RenderFetcher(renderConfig, { http: proxied ?? http, retry: fetchConfig.retry, clock: deps.clock, rng: deps.rng, logger: deps.logger, registry: deps.registry })
    : undefined;
  return {
    fetcher: withIdentities(config, deps, withSelfTuning(deps, render ?? proxied ?? http)),
    close: async () => {
      await render?.close();
      await http.close();
      await proxied?.close();
    },
  };
}

/** Under the identity pool (which names the identity of each request): learned rates, and soft blocks recognised and counted. */
export function withSelfTuning(deps: Pick<FetcherFactoryDeps, 'clock' | 'sleep' | 'metrics' | 'selfTuning'>, inner: Fetcher): Fetcher {
  return new SelfTuningFetcher(inner, {
    clock: deps.clock, sleep: deps.sleep, maxWaitMs: deps.selfTuning?.maxWaitMs ?? 2_000,
    ...(deps.selfTuning?.tuning ? { tuning: deps.selfTuning.tuning } : {}), ...(deps.metrics ? { metrics: deps.metrics } : {}),
  });
}

/** Wraps the fetcher so that every request goes out as an identity of the pool, within its quota. */
export function withIdentities(config: Pick<FetchConfigs, 'name' | 'identities'>, deps: Pick<FetcherFactoryDeps, 'redis' | 'clock' | 'sleep' | 'quotaNamespace' | 'identityTokens'>, inner: Fetcher): Fetcher {
  const ids = config.identities;
  if (!ids) return inner;
  const tokens = deps.identityTokens ?? [];
  if (tokens.length === 0) throw new FreshetError(ErrorCodes.configInvalid, 'critical', `pipeline ${config.name}: no tokens for identity pool "${ids.pool}"`);
  // Tokens belong to accounts, not to crawls: pipelines sharing a pool share its quotas.
  const quota = new TokenQuota(deps.redis, { namespace: deps.quotaNamespace, pool: ids.pool, size: tokens.length, limitPerWindow: ids.requests_per_window, windowMs: ids.window_secs * 1000 }, deps.clock);
  return new TokenPoolFetcher(inner, {
    tokens, headersFor: identityHeaders(ids.send_as), quota, benchMs: ids.bench_secs * 1000, maxWaitMs: ids.max_wait_ms, sleep: deps.sleep,
    ...(ids.min_bench_secs !== undefined ? { minBenchMs: ids.min_bench_secs * 1000 } : {}),
  });
}

/** Sends every request through a proxy of the pool, within its quota; undefined without `proxies`. */
function withProxies(config: FetchConfigs, deps: FetcherFactoryDeps, http: HttpFetcher): ProxyPoolFetcher | undefined {
  const p = config.proxies;
  if (!p) return undefined;
  const urls = [...new Set([...p.urls, ...(deps.proxyUrls ?? [])])];
  if (urls.length === 0) throw new FreshetError(ErrorCodes.configInvalid, 'critical', `pipeline ${config.name}: no proxies for pool "${p.pool}"`);
  // Proxies (IPs) belong to the operator, not to a crawl: pipelines sharing a pool share its quotas.
  const quota = new TokenQuota(deps.redis, { namespace: deps.quotaNamespace, pool: `proxy:${p.pool}`, size: urls.length, limitPerWindow: p.requests_per_window, windowMs: p.window_secs * 1000 }, deps.clock);
  return new ProxyPoolFetcher(http, {
    urls, dispatchers: proxyAgents(urls, http.config), quota, benchMs: p.bench_secs * 1000, maxBenchMs: p.max_bench_secs * 1000,
    maxConsecutiveFailures: p.max_consecutive_failures, failureBenchMs: p.failure_bench_secs * 1000, slowMs: p.slow_ms, maxWaitMs: p.max_wait_ms,
    clock: deps.clock, rng: deps.rng, logger: deps.logger, registry: deps.registry, sleep: deps.sleep,
  });
}
