import type { Client } from '@elastic/elasticsearch';
import type { Cluster, Redis } from 'ioredis';
import type { Clock } from '../../core/clock';
import type { Logger } from '../../core/logger';
import type { PipelineConfig } from '../../pipeline/schema';
import { pipelineNamespace } from '../../runner/build';
import { CrawlControl } from '../../sources/control';
import { openFrontier } from '../../sources/redis-frontier';
import { WorkerReports } from '../../sources/worker-reports';
import { CrawlViews, type ServedPipeline } from './crawl-views';
import { ThreadFreshness } from './freshness-thread';
import { openApiDocument } from './openapi';
import { apiRoutes, type ServeDeps } from './routes';
import { startServe, type RunningServer } from './server';

export interface ServeSetup {
  redis: Redis | Cluster;
  search?: Client;
  indexPrefix: string;
  pipelines: { config: PipelineConfig; identitySize?: number; proxySize?: number }[];
  clock: Clock;
  logger: Logger;
  host: string;
  port: number;
  token?: string;
  version: string;
}

/** The pipelines as `freshet serve` reads them: frontier, control and worker reports under each one's namespace. */
export function servedPipelines(redis: Redis | Cluster, list: ServeSetup['pipelines'], clock: Clock): Map<string, ServedPipeline> {
  const out = new Map<string, ServedPipeline>();
  for (const { config, identitySize, proxySize } of list) {
    if (out.has(config.name)) throw new Error(`two pipelines are named "${config.name}"`);
    const namespace = pipelineNamespace(config);
    out.set(config.name, {
      config, namespace, frontier: openFrontier(redis, config.source, namespace, clock), control: new CrawlControl(redis, namespace, clock),
      reports: new WorkerReports(redis, namespace, clock),
      ...(identitySize ? { identitySize } : {}), ...(proxySize ? { proxySize } : {}),
    });
  }
  return out;
}

/** Starts the server: API, pages, OpenAPI file. */
export async function serve(s: ServeSetup): Promise<RunningServer> {
  const freshness = new ThreadFreshness();
  const deps: ServeDeps = {
    pipelines: servedPipelines(s.redis, s.pipelines, s.clock), views: new CrawlViews(s.redis, s.clock, freshness), ...(s.search ? { search: s.search } : {}),
    indexPrefix: s.indexPrefix, clock: s.clock,
    health: async () => ({
      redis: await s.redis.ping().then(() => true, () => false),
      search: s.search ? await s.search.ping().then(() => true, () => false) : false,
    }),
  };
  const routes = apiRoutes(deps);
  const running = await startServe({ host: s.host, port: s.port, ...(s.token ? { token: s.token } : {}), routes, deps, openApi: openApiDocument(routes, s.version), logger: s.logger })
    .catch(async (err: unknown) => {
      await freshness.close();
      throw err;
    });
  return { ...running, close: () => running.close().finally(() => freshness.close()) };
}

/** The OpenAPI document alone (`freshet serve --write-openapi`, the test that compares it): no service is touched. */
export function openApiOnly(version: string): Record<string, unknown> {
  const none: ServeDeps = {
    pipelines: new Map(), views: undefined as unknown as CrawlViews, indexPrefix: '', clock: { nowMs: () => 0 },
    health: () => Promise.reject(new Error('no services: documentation only')),
  };
  return openApiDocument(apiRoutes(none), version);
}
