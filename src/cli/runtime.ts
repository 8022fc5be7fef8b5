import { join } from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import type { Cluster, Redis } from 'ioredis';
import pino from 'pino';
import { systemClock } from '../core/clock';
import { redactUrlsIn } from '../core/redact';
import type { Logger } from '../core/logger';
import { createMetrics, type Metrics } from '../core/metrics';
import { mathRandomRng } from '../core/rng';
import { loadPipeline } from '../pipeline/load';
import type { PipelineConfig } from '../pipeline/schema';
import { buildPipeline, pipelineNamespace, quotaNamespace, type BuiltPipeline } from '../runner/build';
import { readQuotaPool, type PoolMemberStatus } from '../limits/token-quota';
import { RepeatedWarnings } from '../core/repeated-warnings';
import { openFrontier, type OpenFrontier } from '../sources/redis-frontier';
import { connectRedis, createSearch } from './clients';
import { readProxyUrls, readTokens } from './tokens';
import type { CliContext } from './context';
import { sleepMs } from '../core/timers';

export function createLogger(level = process.env['FRESHET_LOG_LEVEL'] ?? 'info'): Logger {
  // Logs go to stderr; stdout carries results. Credentials never reach log fields.
  // streamWrite: a URL with userinfo inside any logged string (an error message from a client
  // library included) is redacted on its way out, whatever field it sits in.
  return pino({
    level,
    base: undefined,
    redact: ['*.password', '*.apiKey', '*.authorization', '*.cookie'],
    hooks: { streamWrite: (line) => (line.includes('@') ? redactUrlsIn(line) : line) },
  }, pino.destination(2)) as unknown as Logger;
}

export interface OpenPipeline {
  config: PipelineConfig;
  built: BuiltPipeline;
  metrics: Metrics;
  logger: Logger;
  /** Folds the pipeline's repeated warnings into counts; the progress reporter flushes it. */
  warnings: RepeatedWarnings;
  redis: Redis | Cluster;
  /** The crawl's key namespace. */
  namespace: string;
  /** The identity pool's quotas and benches now, when the pipeline sends as identities. */
  identities?(): Promise<PoolMemberStatus[]>;
  close(): Promise<void>;
}

/**
 * Loads a pipeline file, creates the clients it needs and builds it. Secrets are read before any
 * connection is made, and whatever was opened is closed again when a later step fails, so a
 * start-up error ends the process instead of leaving a reconnecting client behind.
 */
export async function openPipeline(ctx: CliContext, file: string, vars: Record<string, string | undefined>, logger = createLogger()): Promise<OpenPipeline> {
  const config = loadPipeline(file, vars);
  const settings = ctx.settings();
  const identityTokens = config.identities ? readTokens(config.identities.pool, process.env) : undefined;
  const proxyUrls = config.proxies ? readProxyUrls(config.proxies.pool, process.env) : undefined;
  const redis = await connectRedis(settings);
  let search: Client | undefined;
  try {
    search = config.sink.type === 'elasticsearch' ? (await createSearch(settings)).client : undefined;
    const metrics = createMetrics();
    const warnings = new RepeatedWarnings();
    const built = await buildPipeline(config, {
      redis, ...(search ? { search } : {}), indexPrefix: settings.indexPrefix, mappingsDir: join(ctx.root, 'mappings'),
      clock: systemClock, rng: mathRandomRng, logger: warnings.wrap(logger.child({ pipeline: config.name })), metrics, sleep: (ms) => sleepMs(ms),
      ...(identityTokens ? { identityTokens } : {}),
      ...(proxyUrls ? { proxyUrls } : {}),
    });
    const opened = search;
    const ids = config.identities;
    return {
      config, built, metrics, logger, warnings, redis, namespace: pipelineNamespace(config),
      ...(ids && identityTokens ? {
        identities: () => readQuotaPool(redis, {
          namespace: quotaNamespace(), pool: ids.pool, size: identityTokens.length, limitPerWindow: ids.requests_per_window, windowMs: ids.window_secs * 1000,
        }, systemClock.nowMs()),
      } : {}),
      close: async () => {
        try {
          await built.close();
        } finally {
          await opened?.close().catch(() => undefined);
          redis.disconnect();
        }
      },
    };
  } catch (err) {
    await search?.close().catch(() => undefined);
    redis.disconnect();
    throw err;
  }
}

export interface OpenedFrontier extends OpenFrontier {
  config: PipelineConfig;
  close(): void;
}

/**
 * Loads a pipeline file and opens its frontier only: no index templates, no schedule refit, no
 * fetcher, no page threads (`freshet status`, `freshet seed`).
 */
export async function openPipelineFrontier(ctx: CliContext, file: string, vars: Record<string, string | undefined>): Promise<OpenedFrontier> {
  const config = loadPipeline(file, vars);
  const redis = await connectRedis(ctx.settings());
  return { config, ...openFrontier(redis, config.source, pipelineNamespace(config), systemClock), close: () => redis.disconnect() };
}
