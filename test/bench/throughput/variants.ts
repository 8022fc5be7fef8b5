import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { systemClock } from '../../../src/core/clock';
import { silentLogger } from '../../../src/core/logger';
import { createMetrics, type Metrics } from '../../../src/core/metrics';
import { seededRng } from '../../../src/core/rng';
import { loadPipeline, parsePipeline } from '../../../src/pipeline/load';
import { buildPipeline } from '../../../src/runner/build';
import { Redis } from 'ioredis';
import { webPageSubject } from '../../../src/parsers/web-pages';
import { projectRoot } from '../lib/results';
import { articleUrls } from './html';

export interface FreshetEnv {
  redisUrl: string;
  esUrl: string;
  prefix: string;
  mappings: string;
  metrics?: Metrics;
}

/** freshet's full pipeline over the microblog JSON timelines: Redis frontier, fetch, weibo_api parse, sink (blackhole or the search node). */
export function freshetRun(base: string, uids: string[], sink: 'blackhole' | 'elasticsearch', concurrency: number, env: FreshetEnv): Promise<number> {
  const parse = `parse: { type: weibo_api, base_url: "${base}", first_visit_page_limit: 1000, post_metrics: false }`;
  return freshetCrawl(parse, '', uids.map((uid) => `weibo:user:${uid}`), sink, concurrency, env, uids.length);
}

/**
 * freshet's full pipeline over the HTML article pages: Redis frontier, fetch, then the article
 * rule set and the stages of pipelines/news.yaml (web_pages with article links followed,
 * text_density, language, sentiment), sink.
 */
export function freshetHtml(base: string, count: number, sink: 'blackhole' | 'elasticsearch', concurrency: number, env: FreshetEnv): Promise<number> {
  const news = loadPipeline(join(projectRoot(), 'pipelines', 'news.yaml'), { SIMSITE_URL: base });
  if (news.parse.type !== 'web_pages') throw new Error('pipelines/news.yaml: expected a web_pages parser');
  // Articles only: the bench starts from the article list, not the index pages.
  const rules = news.parse.rules.filter((r) => r.page_document);
  // JSON is YAML: the parsed sections go back in as they are.
  // BENCH_WORKER_THREADS overrides the file's page worker threads (to compare 0, 1, 2 on one machine).
  const threads = process.env['BENCH_WORKER_THREADS'] ?? news.parse.worker_threads;
  const workerStages = process.env['BENCH_WORKER_STAGES'] ?? news.parse.worker_stages;
  const parse = `parse: { type: web_pages, worker_threads: ${threads}, ${workerStages === undefined ? '' : `worker_stages: ${workerStages}, `}rules: ${JSON.stringify(rules)} }`;
  const stages = `stages: ${JSON.stringify(news.stages)}`;
  return freshetCrawl(parse, stages, articleUrls(base, count).map(webPageSubject), sink, concurrency, env, count);
}

/** `minDocuments`: fewer documents indexed means the crawl did not do the work (a rule that matched nothing). */
async function freshetCrawl(parse: string, stages: string, subjects: string[], sink: 'blackhole' | 'elasticsearch', concurrency: number, env: FreshetEnv, minDocuments: number): Promise<number> {
  const name = `bench-${sink}-${process.pid}`;
  // BENCH_MAX_SETTLING sets source.max_settling (default 0) to compare settling credits on one machine.
  const settling = process.env['BENCH_MAX_SETTLING'] ? `, max_settling: ${Number(process.env['BENCH_MAX_SETTLING'])}` : '';
  const config = parsePipeline(`name: ${name}
source: { type: redis_frontier, max_in_flight: ${concurrency}, claim_batch: 64, poll_interval_ms: 20${settling} }
fetch: { type: http_fetch, allowed_cidrs: [127.0.0.0/8], respect_robots: false, connections_per_origin: ${concurrency} }
${parse}
${stages}
sink: ${sink === 'blackhole' ? '{ type: blackhole }' : `{ ${Object.entries({ type: 'elasticsearch', replicas: '0', concurrency: '2', flush_bytes: '5000000', ...sinkOverrides() }).map(([k, v]) => `${k}: ${v}`).join(', ')} }`}
schedule: { type: fixed_interval, interval_secs: 86400 }
`, 'bench.yaml');
  const redis = new Redis(env.redisUrl);
  // The search client's modules (@elastic, ~0.1 s of CPU to load) only in the child that indexes: the null-sink child never uses them.
  const search = sink === 'elasticsearch' ? (await (await import('../../../src/search/client.js')).connectSearch({ url: env.esUrl })).client : undefined;
  const namespace = `freshet-bench:${name}`;
  const built = await buildPipeline(config, {
    redis, ...(search ? { search } : {}), indexPrefix: env.prefix, mappingsDir: env.mappings, clock: systemClock, rng: seededRng(1),
    logger: silentLogger, metrics: env.metrics ?? createMetrics(), sleep: (ms) => sleep(ms), namespace,
  });
  const nodeCpuMs = async () => search ? Object.values((await search.nodes.stats({ metric: 'process' })).nodes)[0]?.process?.cpu?.total_in_millis ?? 0 : 0;
  const cpu0 = process.env['BENCH_TRACE'] ? await nodeCpuMs() : 0;
  const trace = process.env['BENCH_TRACE'] ? startTrace(built.runner, search) : undefined;
  const now = Date.now();
  for (let i = 0; i < subjects.length; i += 10_000) {
    await built.frontier.offer(subjects.slice(i, i + 10_000).map((subject) => ({ subject, state: { firstSeenMs: now, postsSeen: 0, visits: 0, failures: 0, status: 'active' as const } })));
  }
  const summary = await built.runner.run({ untilIdle: true });
  if (trace) console.error(`[trace] search node CPU ${((await nodeCpuMs() - cpu0) / 1000).toFixed(2)} s; ${trace()}`);
  await built.close();
  for (let cursor = '0'; ;) {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${namespace}*`, 'COUNT', 1000);
    if (keys.length) await redis.del(...keys);
    if ((cursor = next) === '0') break;
  }
  redis.disconnect();
  if (search) {
    const idx = await search.cat.indices({ index: `${env.prefix}*`, format: 'json', h: 'index' });
    const names = idx.map((i) => i.index).filter((n): n is string => !!n);
    if (names.length) await search.indices.delete({ index: names.join(',') });
    await search.close();
  }
  if (summary.jobsFailed > 0 || summary.documents.dead_lettered > 0 || summary.documents.dropped > 0 || summary.documents.indexed < minDocuments) throw new Error(`bench crawl was not clean: ${JSON.stringify(summary)}`);
  return summary.requests;
}

/**
 * BENCH_TRACE=1: where a freshet run waits, printed to stderr at its end: the event loop's
 * utilisation, the mean jobs in flight (sampled), the bulk requests (count, mean documents
 * lines and latency, mean in flight while any is), sampled every 2 ms.
 */
function startTrace(runner: { inFlightJobs: number }, search: { transport: { request: (...a: never[]) => Promise<unknown> } } | undefined): () => string {
  const elu0 = performance.eventLoopUtilization();
  let samples = 0;
  let jobs = 0;
  let bulkBusy = 0;
  let bulkDepth = 0;
  let inFlight = 0;
  let bulks = 0;
  let bulkMs = 0;
  let bulkLines = 0;
  if (search) {
    const orig = search.transport.request.bind(search.transport);
    search.transport.request = (async (...args: never[]) => {
      const p = args[0] as unknown as { path?: string; bulkBody?: Buffer };
      if (p.path !== '/_bulk') return orig(...args);
      inFlight += 1;
      const t0 = performance.now();
      try {
        return await orig(...args);
      } finally {
        inFlight -= 1;
        bulks += 1;
        bulkMs += performance.now() - t0;
        const b = p.bulkBody;
        if (b) for (let i = 0; i < b.length; i++) if (b[i] === 10) bulkLines += 1;
      }
    }) as never;
  }
  const t0 = performance.now();
  const timer = setInterval(() => {
    samples += 1;
    jobs += runner.inFlightJobs;
    if (inFlight > 0) {
      bulkBusy += 1;
      bulkDepth += inFlight;
    }
  }, 2);
  return () => {
    clearInterval(timer);
    const elu = performance.eventLoopUtilization(elu0);
    return (`${((performance.now() - t0) / 1000).toFixed(2)} s, event loop busy ${(elu.utilization * 100).toFixed(0)} %, jobs in flight ${(jobs / samples).toFixed(1)}, `
      + `bulks ${bulks} (${(bulkLines / 2 / Math.max(1, bulks)).toFixed(0)} docs, ${(bulkMs / Math.max(1, bulks)).toFixed(1)} ms each), a bulk in flight ${(bulkBusy / samples * 100).toFixed(0)} % of the time, ${(bulkDepth / Math.max(1, bulkBusy)).toFixed(2)} at once`);
  };
}

/** BENCH_SINK="concurrency: 4, flush_docs: 2000" overrides the search sink's settings (to compare them on one machine). */
function sinkOverrides(): Record<string, string> {
  const raw = process.env['BENCH_SINK'];
  if (!raw) return {};
  return Object.fromEntries(raw.split(',').map((kv) => kv.split(':').map((x) => x.trim()) as [string, string]));
}
