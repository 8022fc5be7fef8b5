import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@elastic/elasticsearch';
import type { Redis } from 'ioredis';
import { ManualClock, systemClock } from '../../src/core/clock';
import { silentLogger, type Logger } from '../../src/core/logger';
import { createMetrics } from '../../src/core/metrics';
import { seededRng } from '../../src/core/rng';
import { parsePipeline } from '../../src/pipeline/load';
import type { PipelineConfig } from '../../src/pipeline/schema';
import { buildPipeline, type BuildDeps, type BuiltPipeline } from '../../src/runner/build';
import type { RunSummary } from '../../src/runner/types';
import { startSimsite, truthAllPosts, truthPostsOf, type SimsiteHandle } from '../../src/simsite';
import type { RedisFrontier } from '../../src/sources/frontier/frontier';
import { trackNamespace } from './services';

export const MAPPINGS = join(__dirname, '..', '..', 'mappings');
/** The shipped pipeline files. */
export const PIPELINES = join(__dirname, '..', '..', 'pipelines');
/** The built CLI. */
export const FRESHET_BIN = join(__dirname, '..', '..', 'bin', 'freshet.js');

/** simsite on a frozen clock: the ground truth is exactly the posts published before "now". */
export async function frozenSimsite(users: number, seed = 7, extra: Parameters<typeof startSimsite>[0] = {}): Promise<SimsiteHandle & { frozen: ManualClock }> {
  const probe = await startSimsite({ worldOptions: { seed, users, historyDays: 20 }, port: 0 });
  const startMs = probe.world.startMs;
  await probe.close();
  const frozen = new ManualClock(startMs);
  const site = await startSimsite({ worldOptions: { seed, users, historyDays: 20 }, clock: frozen, port: 0, ...extra });
  return Object.assign(site, { frozen });
}

export function truthIds(site: SimsiteHandle): Map<string, number> {
  const now = site.clock.nowMs();
  const ids = new Map<string, number>();
  for (const p of truthAllPosts(site.world, site.world.historyStartMs, now)) ids.set(p.id, p.createdMs);
  return ids;
}

export function seedsOf(site: SimsiteHandle, n = site.world.users.length): string[] {
  return site.world.users.slice(0, n).map((u) => `weibo:user:${u.uid}`);
}

export function pipelineFor(site: SimsiteHandle, name: string, seeds: string[], overrides = ''): PipelineConfig {
  return parsePipeline(`name: ${name}
seeds: ${JSON.stringify(seeds)}
source:
  type: redis_frontier
  shards: 4
  max_in_flight: 32
  poll_interval_ms: 50
  lease_secs: 30
fetch:
  type: http_fetch
  allow_private_networks: true
  respect_robots: false
  connections_per_origin: 32
parse:
  type: weibo_api
  base_url: ${site.url}
  first_visit_page_limit: 1000
sink:
  type: elasticsearch
  flush_interval_ms: 100
  replicas: 0
schedule:
  type: fixed_interval
  interval_secs: 86400
${overrides}`, `${name}.yaml`);
}

export async function build(config: PipelineConfig, redis: Redis, search: Client, prefix: string, logger: Logger = silentLogger): Promise<BuiltPipeline> {
  trackNamespace(redis, `${prefix}frontier`);
  return buildPipeline(config, {
    redis, search, indexPrefix: prefix, mappingsDir: MAPPINGS, clock: systemClock, rng: seededRng(1),
    logger, metrics: createMetrics(), sleep: (ms) => sleep(ms), namespace: `${prefix}frontier`,
  });
}

/** Every post document in the index: id → {created_at, version}. */
export async function indexedPosts(search: Client, index: string): Promise<Map<string, { createdAt: string; version: number }>> {
  await search.indices.refresh({ index });
  const out = new Map<string, { createdAt: string; version: number }>();
  let res = await search.search<{ id: string; created_at: string }>({ index, size: 5000, version: true, scroll: '1m', _source: ['id', 'created_at'], sort: ['_doc'] });
  while (res.hits.hits.length > 0) {
    for (const h of res.hits.hits) out.set(h._source!.id, { createdAt: h._source!.created_at, version: h._version ?? 0 });
    res = await search.scroll<{ id: string; created_at: string }>({ scroll_id: res._scroll_id!, scroll: '1m' });
  }
  return out;
}

/**
 * Crawls `seeds` in rounds on the frozen clock until every one was visited and no visit paused by a
 * quota left a gap to read (`gap_since`); between rounds the clock jumps to the next open subject's
 * due time. Seeds are offered in the first round only.
 */
export async function crawlUntilVisited(
  site: SimsiteHandle & { frozen: ManualClock }, config: PipelineConfig, seeds: string[], depsOf: (round: number) => BuildDeps,
  afterRound: (summary: RunSummary) => void = () => undefined, maxRounds = 24,
): Promise<{ visitedAll: boolean; frontier: RedisFrontier | undefined }> {
  let visitedAll = false;
  let frontier: RedisFrontier | undefined;
  for (let round = 0; round < maxRounds && !visitedAll; round++) {
    const built = await buildPipeline({ ...config, seeds: round === 0 ? seeds : [] }, depsOf(round));
    const summary = await built.runner.run({ untilIdle: true });
    await built.close();
    frontier = built.frontier;
    afterRound(summary);
    const states = await Promise.all(seeds.map((x) => built.frontier.getState(x)));
    const open = states.map((st) => st!.visits === 0 || st!.meta?.['gap_since'] !== undefined);
    visitedAll = !open.includes(true);
    if (!visitedAll) {
      const due = await Promise.all(seeds.map((x) => built.frontier.nextDue(x)));
      const pending = due.filter((d, i) => open[i] && d !== undefined) as number[];
      site.frozen.advanceMs(Math.max(1, Math.min(...pending) - site.frozen.nowMs()));
    }
  }
  return { visitedAll, frontier };
}

/** Ids of the posts each simsite user published before its last visit: what a complete crawl indexed. */
export async function postsBeforeLastVisit(site: SimsiteHandle, frontier: RedisFrontier): Promise<string[]> {
  const ids: string[] = [];
  for (const u of site.world.users) {
    const st = await frontier.getState(`weibo:user:${u.uid}`);
    for (const t of truthPostsOf(site.world, u.index, site.world.historyStartMs, st!.lastVisitMs!)) ids.push(t.id);
  }
  return ids;
}

/**
 * A pipeline file for the built CLI, in the temp folder: `source` (the redis_frontier flow-map
 * entries), a plain fetch and weibo_api parse of simsite at `${SIMSITE_URL}`, the elasticsearch
 * sink, then `extra` YAML lines.
 */
export function writeCliPipeline(name: string, seeds: string[], source: string, extra = ''): string {
  const file = join(tmpdir(), `${name}.yaml`);
  writeFileSync(file, `name: ${name}
seeds: ${JSON.stringify(seeds)}
source: { type: redis_frontier, ${source} }
fetch: { type: http_fetch, allowed_cidrs: [127.0.0.0/8], respect_robots: false }
parse: { type: weibo_api, base_url: "\${SIMSITE_URL}", first_visit_page_limit: 1000 }
sink: { type: elasticsearch, flush_interval_ms: 100, replicas: 0 }
${extra}`);
  return file;
}

export interface CliWorker {
  child: ChildProcess;
  /** The exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** The last stdout line, parsed: `freshet run` ends with its JSON summary. */
  summary<T>(): T;
  /** Everything the child printed on stdout so far. */
  stdout(): string;
}

/** `freshet run FILE ...args` (the built CLI) as a separate worker process, its stdout collected. */
export function spawnRun(file: string, args: string[], env: NodeJS.ProcessEnv, nodeArgs: string[] = []): CliWorker {
  const child = spawn('node', [...nodeArgs, FRESHET_BIN, 'run', file, ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
  return { child, exited, summary: <T>() => JSON.parse(out.trim().split('\n').filter((l) => l.startsWith('{')).pop()!) as T, stdout: () => out };
}
