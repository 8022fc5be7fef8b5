import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import type { Client } from '@elastic/elasticsearch';
import { ManualClock, type Clock } from '../../../src/core/clock';
import { silentLogger } from '../../../src/core/logger';
import { createMetrics } from '../../../src/core/metrics';
import { seededRng } from '../../../src/core/rng';
import { parsePipeline } from '../../../src/pipeline/load';
import type { PipelineConfig } from '../../../src/pipeline/schema';
import { buildPipeline, type BuildDeps, type BuiltPipeline } from '../../../src/runner/build';
import { connectSearch } from '../../../src/search/client';
import { indexName } from '../../../src/search/templates';
import { createWorld, startSimsite, type SimsiteHandle, type SimsiteOptions } from '../../../src/simsite';
import { projectRoot } from '../lib/results';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** Everything under /news/ but the author and tag links of the article template, which simsite does not serve. */
export const NEWS_LINKS = '/news/(?!author/|tag/)';

export interface Services {
  redis: Redis;
  search: Client;
  close(): Promise<void>;
}

export async function services(): Promise<Services> {
  const redis = new Redis(process.env['FRESHET_REDIS_URL'] ?? 'redis://127.0.0.1:6390');
  const search = (await connectSearch({ url: process.env['FRESHET_ES_URL'] ?? 'http://127.0.0.1:9250' })).client;
  return { redis, search, close: async () => { redis.disconnect(); await search.close(); } };
}

/** simsite on a manual clock (frozen between rounds), with the news site's options. */
export async function manualSite(seed: number, opts: Omit<SimsiteOptions, 'world' | 'clock'>, historyDays = 20): Promise<SimsiteHandle & { frozen: ManualClock }> {
  const world = createWorld({ seed, users: 200, historyDays });
  const frozen = new ManualClock(world.startMs);
  const site = await startSimsite({ world, clock: frozen, port: 0, requestLogMaxEntries: 2_000_000, ...opts });
  return Object.assign(site, { frozen });
}

/** A broad crawl of the news site: every link under /news/ followed, articles read by text_density. */
export function newsPipeline(url: string, name: string, seeds: string[], o: { parse?: string; stages?: string; sink?: string; fetch?: string; schedule?: string } = {}): PipelineConfig {
  return parsePipeline(`name: ${name}
seeds: ${JSON.stringify(seeds)}
source: { type: redis_frontier, max_in_flight: 32, poll_interval_ms: 20 }
fetch: { type: http_fetch, allow_private_networks: true, respect_robots: false, connections_per_origin: 16${o.fetch ?? ''} }
parse:
  type: web_pages
  max_depth: 50
  max_pages_per_visit: 1
  rules:
    - name: article
      match: { regex: ['/news/(amp/)?(\\d{4}/\\d{2}/)?\\d+\\.html'] }
      page_document: true
      links: { selector: 'a[href]', regex: '${NEWS_LINKS}' }
    - name: listing
      match: { prefix: ['${url}/news/'] }
      links: { selector: 'a[href]', regex: '${NEWS_LINKS}' }
${o.parse ?? ''}
stages:
  - { type: text_density, min_chars: 20 }
${o.stages ?? ''}
sink: { type: elasticsearch, replicas: 0, flush_interval_ms: 100${o.sink ?? ''} }
schedule: ${o.schedule ?? '{ type: fixed_interval, interval_secs: 86400 }'}
`, `${name}.yaml`);
}

export interface Crawl {
  deps: BuildDeps;
  prefix: string;
  namespace: string;
  /** One run until idle (seeds offered in the first). */
  round(config: PipelineConfig, first: boolean): Promise<void>;
  docs<T>(index: string): Promise<{ source: T; version: number }[]>;
  cleanup(): Promise<void>;
}

export function crawl(svc: Services, label: string, clock: Clock): Crawl {
  const prefix = `bench-web-${label}-${process.pid}-`;
  const namespace = `freshet-bench:web-${label}-${process.pid}`;
  const deps: BuildDeps = {
    redis: svc.redis, search: svc.search, indexPrefix: prefix, mappingsDir: join(projectRoot(), 'mappings'), clock, rng: seededRng(1),
    logger: silentLogger, metrics: createMetrics(), sleep: (ms) => sleep(ms), namespace,
  };
  return {
    deps, prefix, namespace,
    async round(config, first) {
      const built = await buildPipeline({ ...config, seeds: first ? config.seeds : [] }, deps);
      await built.runner.run({ untilIdle: true });
      await built.close();
    },
    async docs<T>(index: string) {
      const name = indexName(prefix, index);
      await svc.search.indices.refresh({ index: name });
      const res = await svc.search.search<T>({ index: name, size: 10_000, version: true });
      return res.hits.hits.map((h) => ({ source: h._source!, version: h._version ?? 0 }));
    },
    async cleanup() {
      for (let cursor = '0'; ;) {
        const [next, keys] = await svc.redis.scan(cursor, 'MATCH', `${namespace}*`, 'COUNT', 1000);
        if (keys.length) await svc.redis.del(...keys);
        if ((cursor = next) === '0') break;
      }
      await svc.search.indices.delete({ index: `${prefix}*`, ignore_unavailable: true, allow_no_indices: true });
    },
  };
}

export const pathOf = (u: string): string => {
  const x = new URL(u);
  return x.pathname + x.search;
};

export const words = (t: string): string => t.replace(/\s+/g, ' ').trim();

export interface ArticleRow {
  id: number; url: string | null; originalUrl: string; status: 'live' | 'moved' | 'deleted'; publishedMs: number; deletedMs?: number; movedMs?: number;
  versions: { version: number; modifiedMs: number; text: string }[];
}

export async function truthRows<T>(site: SimsiteHandle, path: string): Promise<T[]> {
  return (await (await fetch(`${site.url}${path}`)).json()) as T[];
}

/**
 * Runs a built pipeline on a manual clock that stands still while freshet works and moves
 * `stepSecs` at a time once nothing is due or in flight (twice in a row: a visit's discoveries
 * are due at once), until `endMs`. The delays measured are the schedule's, not the crawl's own
 * latency magnified by an accelerated clock.
 */
export async function steppedRun(built: BuiltPipeline, clock: ManualClock, endMs: number, stepSecs: number): Promise<void> {
  const running = built.runner.run({});
  while (clock.nowMs() < endMs) {
    let quiet = 0;
    while (quiet < 2) {
      await sleep(10);
      quiet = built.runner.inFlightJobs === 0 && (await built.counts.countDue(clock.nowMs())) === 0 ? quiet + 1 : 0;
    }
    clock.advanceMs(stepSecs * 1000);
  }
  built.runner.stop();
  await running;
}
