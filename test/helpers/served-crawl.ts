import { startWorkerReport } from '../../src/cli/progress';
import { serve } from '../../src/cli/serve';
import type { RunningServer } from '../../src/cli/serve/server';
import { systemClock } from '../../src/core/clock';
import { silentLogger } from '../../src/core/logger';
import { createMetrics } from '../../src/core/metrics';
import { seededRng } from '../../src/core/rng';
import { sleepMs as sleep } from '../../src/core/timers';
import { buildPipeline, pipelineNamespace, type BuiltPipeline } from '../../src/runner/build';
import type { RunSummary } from '../../src/runner/types';
import { startSimsite, type SimsiteHandle } from '../../src/simsite';
import { WorkerReports } from '../../src/sources/worker-reports';
import { MAPPINGS, pipelineFor, seedsOf } from './crawl';
import { trackNamespace, useRedis, useSearch, type TestRedis, type TestSearch } from './services';

export interface ServedCrawl {
  r: TestRedis;
  s: TestSearch;
  site: SimsiteHandle;
  built: BuiltPipeline;
  server: RunningServer;
  /** The crawl's run, started at once and ended by `close` (or by a drain). */
  running: Promise<RunSummary>;
  /** Stops the crawl, then closes the server, the pipeline, the site and the services, in that order. */
  close(): Promise<void>;
}

/**
 * A live simsite crawl with `freshet serve` over it (real Redis and search node), the worker
 * reporting its counts like `freshet run` does. Politeness (one request per origin every
 * `minDelayMs`) keeps the crawl going well beyond a test's pauses.
 */
export async function startServedCrawl(o: {
  label: string; name: string; seed: number; users: number; minDelayMs: number; rngSeed: number; reportMs: number; durationMs: number;
}): Promise<ServedCrawl> {
  const r = await useRedis(o.label);
  const s = await useSearch(o.label);
  trackNamespace(r.redis, pipelineNamespace({ name: o.name }));
  const site = await startSimsite({ worldOptions: { seed: o.seed, users: o.users }, port: 0 });
  const config = pipelineFor(site, o.name, seedsOf(site, o.users), `politeness:\n  min_delay_ms: ${o.minDelayMs}\n  max_concurrency_per_origin: 1`);
  const built = await buildPipeline(config, {
    redis: r.redis, search: s.client, indexPrefix: s.prefix, mappingsDir: MAPPINGS, clock: systemClock, rng: seededRng(o.rngSeed),
    logger: silentLogger, metrics: createMetrics(), sleep: (ms) => sleep(ms),
  });
  const report = startWorkerReport(new WorkerReports(r.redis, pipelineNamespace(config), systemClock), () => built.runner.progress(), o.reportMs);
  const server = await serve({
    redis: r.redis, search: s.client, indexPrefix: s.prefix, pipelines: [{ config }], clock: systemClock, logger: silentLogger,
    host: '127.0.0.1', port: 0, version: 'test',
  });
  const running = built.runner.run({ durationMs: o.durationMs });
  return {
    r, s, site, built, server, running,
    close: async () => {
      built.runner.stop('signal');
      await running.catch(() => undefined);
      await report.stop();
      await server.close();
      await built.close();
      await site.close();
      await s.cleanup();
      await r.cleanup();
    },
  };
}
