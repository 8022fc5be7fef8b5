import type { Registry } from 'prom-client';
import { ProxyAgent, type Dispatcher } from 'undici';
import type { Clock } from '../core/clock';
import { ErrorCodes, FreshetError } from '../core/errors';
import type { Logger } from '../core/logger';
import type { Rng } from '../core/rng';
import type { TokenQuota } from '../limits/token-quota';
import type { FetchRequest, FetchResponse } from './contract';
import { dispatcherLimits, type HttpFetchConfig } from './http-fetch-config';
import { counterOn, gaugeOn } from './registry-metric';
import { takePoolSlot, type PoolSlotOptions } from '../limits/pool-slot';
import { PROXY_REFUSAL_STATUSES } from '../limits/refusals';
import { redactProxyUrl } from './proxy-config';
import { benchBackoffMs, ProxyHealth } from './proxy-health';

/** A fetcher that can send one request through a given dispatcher (the HTTP fetcher). */
export interface ViaFetcher {
  fetch(req: FetchRequest, signal?: AbortSignal, via?: Dispatcher): Promise<FetchResponse>;
  robotsCrawlDelayMs?(origin: string): number | undefined;
  robotsSitemaps?(origin: string): Promise<string[]> | undefined;
}

export interface ProxyPoolOptions {
  /** Proxy URLs, possibly with `user:pass@`: kept here only, logged as index and redacted URL. */
  urls: readonly string[];
  /** One dispatcher per URL, same order (`proxyAgents` in production). */
  dispatchers: readonly Dispatcher[];
  quota: TokenQuota;
  benchMs: number;
  maxBenchMs: number;
  maxConsecutiveFailures: number;
  failureBenchMs: number;
  slowMs: number;
  maxWaitMs: number;
  clock: Clock;
  rng: Rng;
  logger: Logger;
  /** Where the per-proxy metrics go (labels: proxy index, never its URL). */
  registry?: Registry;
  sleep(ms: number): Promise<void>;
}

/** A proxy's own failures to reach the target. */
const PROXY_FAILURE_STATUSES = new Set([502, 504]);

/** One ProxyAgent per URL with the fetch config's limits; http targets forwarded, not tunnelled. */
export function proxyAgents(urls: readonly string[], c: HttpFetchConfig): ProxyAgent[] {
  return urls.map((uri) => new ProxyAgent({
    uri,
    proxyTunnel: false,
    ...dispatcherLimits(c),
    proxyTls: { timeout: c.connect_timeout_ms },
    connect: { timeout: c.connect_timeout_ms },
  }));
}

function metricsOn(registry: Registry | undefined) {
  if (!registry) return undefined;
  const requests = counterOn(registry, 'freshet_proxy_requests_total', 'Requests sent through each proxy, by outcome', ['proxy', 'outcome']);
  const health = gaugeOn(registry, 'freshet_proxy_health', 'Health score of each proxy (0..1: success rate and latency)', ['proxy']);
  return { requests, health };
}

/**
 * Sends every request through one proxy of a pool, within each proxy's quota per window (in
 * Redis, so across workers). The proxy is picked by health (latency, failures) among those with
 * quota left; a refused proxy is benched with backoff, one failing in a row sits out a while, and
 * the subject is deferred so the crawl goes on through the others. One quota unit per call: the
 * inner fetcher must not retry on its own (`max_attempts: 1`; the runner reschedules).
 */
export class ProxyPoolFetcher {
  private readonly health: ProxyHealth;
  private readonly labels: string[];
  /** Every credential string of the pool (errors are scrubbed of all of them, whichever proxy answered). */
  private readonly secrets: string[];
  private readonly metrics: ReturnType<typeof metricsOn>;
  private readonly slot: PoolSlotOptions;

  constructor(private readonly inner: ViaFetcher, private readonly opts: ProxyPoolOptions) {
    if (opts.urls.length === 0) throw new FreshetError(ErrorCodes.configInvalid, 'critical', 'the proxy pool is empty');
    if (opts.dispatchers.length !== opts.urls.length) throw new RangeError('one dispatcher per proxy URL');
    this.health = new ProxyHealth({ size: opts.urls.length, slowMs: opts.slowMs });
    this.labels = opts.urls.map(redactProxyUrl);
    this.secrets = [...new Set(opts.urls.flatMap(secretsOf))].sort((a, b) => b.length - a.length);
    this.metrics = metricsOn(opts.registry);
    this.slot = {
      quota: opts.quota,
      maxWaitMs: opts.maxWaitMs,
      sleep: (ms) => opts.sleep(ms),
      order: () => this.health.order(opts.rng),
      exhausted: { message: 'every proxy is at its quota or benched', fields: { proxies: opts.urls.length } },
    };
  }

  robotsCrawlDelayMs(origin: string): number | undefined {
    return this.inner.robotsCrawlDelayMs?.(origin);
  }

  robotsSitemaps(origin: string): Promise<string[]> | undefined {
    return this.inner.robotsSitemaps?.(origin);
  }

  /** The health score of proxy `i` as this worker sees it (for status and tests). */
  healthOf(i: number): number {
    return this.health.score(i);
  }

  async fetch(req: FetchRequest, signal?: AbortSignal): Promise<FetchResponse> {
    const o = this.opts;
    const index = await takePoolSlot(this.slot);
    const proxy = String(index);
    const startedMs = o.clock.nowMs();
    try {
      const res = await this.inner.fetch(req, signal, o.dispatchers[index]);
      this.health.succeeded(index, o.clock.nowMs() - startedMs);
      this.observe(proxy, index, 'ok');
      return res;
    } catch (thrown) {
      const err = this.scrub(thrown);
      const status = err.fields['status'];
      if ((typeof status === 'number' && PROXY_REFUSAL_STATUSES.has(status)) || /\(407\)/.test(err.message)) {
        const strikes = this.health.refused(index);
        const forMs = benchBackoffMs(strikes, o.benchMs, o.maxBenchMs);
        await o.quota.bench(index, forMs);
        this.observe(proxy, index, 'refused');
        o.logger.warn({ proxy: index, proxy_url: this.labels[index], status: typeof status === 'number' ? status : 407, bench_ms: forMs }, 'proxy refused; benched');
        // Deferred, not failed: another proxy can take the subject at once.
        throw new FreshetError(ErrorCodes.identityBenched, 'throttled', `proxy ${index} refused with HTTP ${typeof status === 'number' ? status : 407}; benched`, { proxy: index, status }, err, 0);
      }
      const unreachable = typeof status !== 'number' && (err.code === ErrorCodes.fetchConnection || err.code === ErrorCodes.fetchTimeout);
      if (unreachable || (typeof status === 'number' && PROXY_FAILURE_STATUSES.has(status))) {
        if (signal?.aborted) throw err;
        const run = this.health.failed(index);
        this.observe(proxy, index, 'failed');
        if (run >= o.maxConsecutiveFailures) {
          this.health.resetRun(index);
          await o.quota.bench(index, o.failureBenchMs);
          o.logger.warn({ proxy: index, proxy_url: this.labels[index], code: err.code, failures: run, bench_ms: o.failureBenchMs }, 'proxy failing; benched');
        }
        throw err;
      }
      // The target's own answer (404, 500, a bad URL, ...): says nothing about the proxy.
      this.health.succeeded(index, o.clock.nowMs() - startedMs);
      this.observe(proxy, index, 'ok');
      throw err;
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.opts.dispatchers.map((d) => d.close()));
  }

  private observe(proxy: string, index: number, outcome: 'ok' | 'failed' | 'refused'): void {
    this.metrics?.requests.inc({ proxy, outcome });
    this.metrics?.health.set({ proxy }, this.health.score(index));
  }

  /**
   * Errors from undici can quote what a proxy was asked with; one that carries a credential of
   * the pool anywhere (message, fields, cause) is replaced by a clean copy without the cause.
   */
  private scrub(thrown: unknown): FreshetError {
    const err = thrown instanceof FreshetError ? thrown : new FreshetError(ErrorCodes.fetchConnection, 'retryable', 'proxy request failed', {}, thrown);
    const secrets = this.secrets;
    if (secrets.length === 0) return err;
    const text = `${err.message} ${JSON.stringify(err.fields)} ${describe(err.cause)}`;
    if (!secrets.some((s) => text.includes(s))) return err;
    const clean = (s: string): string => secrets.reduce((acc, x) => acc.split(x).join('[redacted]'), s);
    const fields = JSON.parse(clean(JSON.stringify(err.fields))) as Record<string, unknown>;
    return new FreshetError(err.code, err.kind, clean(err.message), fields, undefined, err.retryAfterMs);
  }
}

function describe(cause: unknown): string {
  if (cause === undefined) return '';
  if (cause instanceof Error) return `${cause.message} ${cause.stack ?? ''} ${describe(cause.cause)}`;
  return String(cause);
}

/** The strings that give a proxy's credentials away: user, password, and their Basic token. */
function secretsOf(raw: string): string[] {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return [];
  }
  if (!url.username && !url.password) return [];
  const user = decodeURIComponent(url.username);
  const pass = decodeURIComponent(url.password);
  const out = [Buffer.from(`${user}:${pass}`).toString('base64'), `${url.username}:${url.password}`];
  // A very short user name would match everywhere; the password is the secret that matters.
  if (pass.length >= 4) out.push(pass, url.password);
  return [...new Set(out.filter((s) => s.length > 0))];
}
