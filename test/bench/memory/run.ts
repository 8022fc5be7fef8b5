import { fork } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { systemClock } from '../../../src/core/clock';
import { silentLogger } from '../../../src/core/logger';
import { createMetrics } from '../../../src/core/metrics';
import { seededRng } from '../../../src/core/rng';
import { webPageSubject } from '../../../src/parsers/web-pages';
import { parsePipeline } from '../../../src/pipeline/load';
import { buildPipeline } from '../../../src/runner/build';
import { connectSearch } from '../../../src/search/client';
import { indexName } from '../../../src/search/templates';
import { ManualClock } from '../../../src/core/clock';
import { startSimsite, truthAllPosts } from '../../../src/simsite';
import { median, peakRssMiB, round3 } from '../lib/measure';
import { goal, projectRoot, writeReport, type GoalRow, type ResultRow } from '../lib/results';
import { BIG_PAGE_NODE_FLAGS, missingFlags } from '../../../src/cli/node-flags';
import { bigPageSite, faultyProxy } from './origin';

/**
 * Memory bounded by bytes (issue 24): freshet's RSS, in a child process of its own, in the two
 * cases a field probe took past a gigabyte and 640 MiB:
 *
 * - `pages`: 60 (MEMORY_PAGES) article pages of 9.5 MB each (half sent chunked), 32 connections, the news
 *   pipeline's parser and stages (web_pages on a page thread, text_density, language,
 *   sentiment), elasticsearch sink;
 * - `outage`: the microblog crawl (simsite, weibo_api, elasticsearch sink) with the search node
 *   away for 60 s in the middle (refusing connections), then back.
 *
 * Each case runs once per variant, in the same run: the byte budget off (max_bytes_in_flight: 0,
 * count credits only, as before), at its default (32 MiB), and at its default with the crawler on
 * V8's default young generation instead of the Node flags `bin/freshet.js` runs it with
 * (src/cli/node-flags.ts; FRESHET_NODE_FLAGS replaces them here too); MEMORY_VARIANTS adds 12 MiB
 * (one body at a time, pages only). Nothing may be lost: every page and every post of the ground truth is counted in the
 * index afterwards.
 */
// 60 pages keep the run to minutes on a shared 2-core machine; RSS is steady well before that
// (MEMORY_PAGES=200 for the issue's size).
const PAGES = Number(process.env['MEMORY_PAGES'] ?? 60);
const PAGE_BYTES = Math.round(9.5 * 2 ** 20);
const USERS = Number(process.env['MEMORY_USERS'] ?? 1500);
// The crawl without an outage takes ~8-15 s here: the outage must begin well inside it.
const OUTAGE_AFTER_MS = 3000;
const OUTAGE_MS = Number(process.env['MEMORY_OUTAGE_SECS'] ?? 60) * 1000;
const SAMPLE_MS = 250;
/** `semiSpaceCap`: the crawler child with the opt-in BIG_PAGE_NODE_FLAGS (FRESHET_NODE_FLAGS) instead of what bin/freshet.js gives it by default. */
const ALL_VARIANTS: { name: string; source: string; semiSpaceCap?: boolean }[] = [
  { name: 'count-credits-only', source: 'max_bytes_in_flight: 0' },
  { name: 'byte-budget-default', source: '' },
  { name: 'byte-budget-default-semi-space-2', source: '', semiSpaceCap: true },
  // One 9.5 MB body in flight at a time: what is left is the cost of parsing a page.
  { name: 'byte-budget-12MiB', source: 'max_bytes_in_flight: 12582912' },
];
/** The outage case's documents are small: the budget's lower setting tells nothing more there. */
const OUTAGE_VARIANTS = new Set(['count-credits-only', 'byte-budget-default', 'byte-budget-default-semi-space-2']);
// MEMORY_VARIANTS=a,b picks; by default the budget off and at its default (12 MiB reads one body
// at a time, slowly: four times as long).
const VARIANT_NAMES = (process.env['MEMORY_VARIANTS'] ?? 'count-credits-only,byte-budget-default,byte-budget-default-semi-space-2').split(',');
const VARIANTS = ALL_VARIANTS.filter((v) => VARIANT_NAMES.includes(v.name));

type Case = 'pages' | 'outage';
interface Sample { atMs: number; rssMiB: number; heapMiB: number; externalMiB: number }
interface ChildResult { elapsedMs: number; rssPeakMiB: number; samples: Sample[]; summary: { jobs: number; jobsFailed: number; documents: Record<string, number> } }
interface ChildArgs { kase: Case; variant: string; source: string; siteUrl: string; esUrl: string; prefix: string; subjects: string[]; semiSpaceCap?: boolean }

async function child(): Promise<void> {
  const args = await new Promise<ChildArgs>((resolve) => process.once('message', (m) => resolve(m as ChildArgs)));
  const samples: Sample[] = [];
  const sample = () => {
    const m = process.memoryUsage();
    samples.push({ atMs: Date.now(), rssMiB: Math.round(m.rss / 2 ** 20), heapMiB: Math.round(m.heapUsed / 2 ** 20), externalMiB: Math.round(m.external / 2 ** 20) });
  };
  const timer = setInterval(sample, SAMPLE_MS);
  const parse = args.kase === 'pages'
    ? `parse:
  type: web_pages
  worker_threads: 1
  worker_stages: 1
  rules: [{ name: article, match: { regex: ['/p/\\d+\\.html$'] }, page_document: true }]
stages: [{ type: text_density, min_chars: 20 }, { type: language }, { type: sentiment }]`
    : `parse: { type: weibo_api, base_url: "${args.siteUrl}", first_visit_page_limit: 1000, post_metrics: false }`;
  const config = parsePipeline(`name: bench-memory
source: { type: redis_frontier, max_in_flight: 64, claim_batch: 64, poll_interval_ms: 20${args.source ? `, ${args.source}` : ''} }
fetch: { type: http_fetch, allowed_cidrs: [127.0.0.0/8], respect_robots: false, connections_per_origin: 32 }
${parse}
sink: { type: elasticsearch, replicas: 0 }
schedule: { type: fixed_interval, interval_secs: 86400 }
`, 'bench-memory.yaml');
  const redis = new Redis(process.env['FRESHET_REDIS_URL'] ?? 'redis://127.0.0.1:6390');
  const search = (await connectSearch({ url: args.esUrl })).client;
  const namespace = `freshet-bench:memory-${process.pid}`;
  const built = await buildPipeline(config, {
    redis, search, indexPrefix: args.prefix, mappingsDir: join(projectRoot(), 'mappings'), clock: systemClock, rng: seededRng(1),
    logger: silentLogger, metrics: createMetrics(), sleep: (ms) => sleep(ms), namespace,
  });
  const now = Date.now();
  await built.frontier.offer(args.subjects.map((subject) => ({ subject, state: { firstSeenMs: now, postsSeen: 0, visits: 0, failures: 0, status: 'active' as const } })));
  sample();
  process.send!({ started: true });
  // MEMORY_HEAP_PROFILE=<file>: where the heap is allocated over the first 40 s of the crawl
  // (garbage included), for finding what an outage churns through.
  const profile = process.env['MEMORY_HEAP_PROFILE'];
  if (profile) {
    const { Session } = await import('node:inspector/promises');
    const session = new Session();
    session.connect();
    await session.post('HeapProfiler.startSampling', { samplingInterval: 32768, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    setTimeout(() => void session.post('HeapProfiler.stopSampling').then(async (r) => (await import('node:fs')).writeFileSync(profile, JSON.stringify(r.profile))), 40_000);
  }
  // MEMORY_TRACE=1: the byte budget's use beside RSS, the main thread's heap by space and RSS split
  // into anonymous and file-backed, once a second (MEMORY_TRACE_MS) on stderr (for finding what holds memory).
  const trace = process.env['MEMORY_TRACE'] ? setInterval(() => {
    const m = process.memoryUsage();
    const h = getHeapStatistics();
    const st = existsSync('/proc/self/status') ? readFileSync('/proc/self/status', 'utf8') : '';
    const kb = (k: string) => Math.round(Number(new RegExp(`${k}:\\s+(\\d+)`).exec(st)?.[1] ?? 0) / 1024);
    const sp = getHeapSpaceStatistics().filter((x) => x.space_size > 2 ** 20).map((x) => `${x.space_name.replace('_space', '')}:${Math.round(x.space_size / 2 ** 20)}/${Math.round(x.space_used_size / 2 ** 20)}`).join(' ');
    console.error(`[memory] rss ${Math.round(m.rss / 2 ** 20)} anon ${kb('RssAnon')} file ${kb('RssFile')} heap ${Math.round(m.heapUsed / 2 ** 20)} heapTotal ${Math.round(h.total_heap_size / 2 ** 20)} ext ${Math.round(m.external / 2 ** 20)} ab ${Math.round(m.arrayBuffers / 2 ** 20)} malloced ${Math.round(h.malloced_memory / 2 ** 20)} budget ${Math.round(built.runner.bytes.inUse / 2 ** 20)} | ${sp}`);
  }, Number(process.env['MEMORY_TRACE_MS'] ?? 1000)) : undefined;
  const t0 = performance.now();
  const summary = await built.runner.run({ untilIdle: true });
  clearInterval(trace);
  const elapsedMs = performance.now() - t0;
  clearInterval(timer);
  sample();
  await built.close();
  for (let cursor = '0'; ;) {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${namespace}*`, 'COUNT', 1000);
    if (keys.length) await redis.del(...keys);
    if ((cursor = next) === '0') break;
  }
  redis.disconnect();
  await search.close();
  const result: ChildResult = { elapsedMs, rssPeakMiB: peakRssMiB(), samples, summary };
  process.send!(result);
}

/** Runs one case × variant in a child; `onStarted` runs in the parent once the crawl began. */
function runChild(args: ChildArgs, onStarted: () => void): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    // The Node flags `bin/freshet.js` runs the crawler with (FRESHET_NODE_FLAGS replaces them here too).
    const c = fork(__filename, ['--child'], { execArgv: [...(args.semiSpaceCap ? BIG_PAGE_NODE_FLAGS : CHILD_FLAGS), ...process.execArgv] });
    c.send(args);
    let result: ChildResult | undefined;
    c.on('message', (m) => {
      if ((m as { started?: boolean }).started) onStarted();
      else result = m as ChildResult;
    });
    c.once('exit', (code) => (code === 0 && result ? resolve(result) : reject(new Error(`memory child exited with ${code}`))));
  });
}

async function countIds(esUrl: string, index: string): Promise<Set<string>> {
  const { client } = await connectSearch({ url: esUrl });
  await client.indices.refresh({ index });
  const ids = new Set<string>();
  let res = await client.search({ index, size: 5000, scroll: '1m', _source: false, sort: ['_doc'] });
  while (res.hits.hits.length > 0) {
    for (const h of res.hits.hits) ids.add(h._id!);
    res = await client.scroll({ scroll_id: res._scroll_id!, scroll: '1m' });
  }
  await client.close();
  return ids;
}

async function dropIndices(esUrl: string, prefix: string): Promise<void> {
  const { client } = await connectSearch({ url: esUrl });
  const idx = await client.cat.indices({ index: `${prefix}*`, format: 'json', h: 'index' });
  const names = idx.map((i) => i.index).filter((n): n is string => !!n);
  if (names.length) await client.indices.delete({ index: names.join(',') });
  await client.close();
}

const LOAD_AT_START = round3(loadavg()[0]!);
/** The flags bin/freshet.js would give the crawler (none unless FRESHET_NODE_FLAGS names some). */
const CHILD_FLAGS = missingFlags(process.env, process.execArgv);

async function main(): Promise<void> {
  const esUrl = process.env['FRESHET_ES_URL'] ?? 'http://127.0.0.1:9250';
  const only = (process.env['MEMORY_CASES'] ?? 'pages,outage').split(',') as Case[];
  const results: ResultRow[] = [];
  const goals: GoalRow[] = [];
  const curves: Record<string, [number, number, number, number][]> = {};
  const row = (variant: string, metric: string, value: number) => results.push({ system: 'freshet', variant, metric, value });

  if (only.includes('pages')) {
    const site = await bigPageSite(PAGES, PAGE_BYTES);
    try {
      for (const v of VARIANTS) {
        const prefix = `bench-mem-${process.pid}-`;
        console.error(`[memory] pages ${v.name}: ${PAGES} pages of ${(PAGE_BYTES / 2 ** 20).toFixed(1)} MiB`);
        const r = await runChild({ kase: 'pages', variant: v.name, source: v.source, ...(v.semiSpaceCap ? { semiSpaceCap: true } : {}), siteUrl: site.url, esUrl, prefix, subjects: site.urls.map(webPageSubject) }, () => undefined);
        const indexed = (await countIds(esUrl, indexName(prefix, 'pages'))).size;
        await dropIndices(esUrl, prefix);
        const name = `pages/${v.name}`;
        curves[name] = thin(r.samples, r.samples[0]!.atMs);
        row(name, 'rss_mib_peak', round3(r.rssPeakMiB));
        row(name, 'rss_mib_median', median(r.samples.map((s) => s.rssMiB)));
        row(name, 'pages_expected', PAGES);
        row(name, 'pages_indexed', indexed);
        row(name, 'pages_per_sec', round3(PAGES / (r.elapsedMs / 1000)));
        row(name, 'visits_failed', r.summary.jobsFailed);
        if (v.source === '' && !v.semiSpaceCap) {
          goals.push(goal(`pages: RSS peak MiB, ${PAGES} pages of 9.5 MB, 32 connections, byte budget at its default`, '<', 400, r.rssPeakMiB));
          goals.push(goal('pages: pages lost (expected − indexed), byte budget at its default', '==', 0, PAGES - indexed));
        }
      }
    } finally {
      await site.close();
    }
  }

  if (only.includes('outage')) {
    const probe = await startSimsite({ worldOptions: { seed: 3, users: USERS, historyDays: 20 }, port: 0 });
    const startMs = probe.world.startMs;
    await probe.close();
    const site = await startSimsite({ worldOptions: { seed: 3, users: USERS, historyDays: 20 }, clock: new ManualClock(startMs), port: 0, requestLogMaxEntries: 1000 });
    const truth = new Set<string>();
    for (const p of truthAllPosts(site.world, site.world.historyStartMs, startMs)) truth.add(`weibo:${p.id}`);
    const proxy = await faultyProxy(esUrl);
    try {
      for (const v of VARIANTS.filter((x) => OUTAGE_VARIANTS.has(x.name))) {
        const prefix = `bench-mem-${process.pid}-`;
        console.error(`[memory] outage ${v.name}: ${USERS} users, ${truth.size} posts, search away ${OUTAGE_MS / 1000} s`);
        let outage: { fromMs: number; toMs: number } | undefined;
        let timers: NodeJS.Timeout[] = [];
        const r = await runChild({ kase: 'outage', variant: v.name, source: v.source, ...(v.semiSpaceCap ? { semiSpaceCap: true } : {}), siteUrl: site.url, esUrl: proxy.url, prefix, subjects: site.world.users.map((u) => `weibo:user:${u.uid}`) }, () => {
          timers = [
            setTimeout(() => {
              proxy.set('down');
              outage = { fromMs: Date.now(), toMs: Date.now() + OUTAGE_MS };
            }, OUTAGE_AFTER_MS),
            setTimeout(() => proxy.set('up'), OUTAGE_AFTER_MS + OUTAGE_MS),
          ];
        });
        timers.forEach(clearTimeout);
        proxy.set('up');
        const ids = await countIds(esUrl, indexName(prefix, 'posts'));
        await dropIndices(esUrl, prefix);
        const lost = [...truth].filter((id) => !ids.has(id)).length;
        const name = `outage/${v.name}`;
        const t0 = r.samples[0]!.atMs;
        curves[name] = thin(r.samples, t0);
        const before = r.samples.filter((s) => outage && s.atMs < outage.fromMs && s.atMs >= outage.fromMs - 2000);
        const during = r.samples.filter((s) => outage && s.atMs >= outage.fromMs && s.atMs < outage.toMs);
        row(name, 'rss_mib_peak', round3(r.rssPeakMiB));
        row(name, 'rss_mib_median_2s_before_outage', median(before.map((s) => s.rssMiB)));
        row(name, 'rss_mib_max_during_outage', during.length ? Math.max(...during.map((s) => s.rssMiB)) : NaN);
        row(name, 'outage_started_after_secs', outage ? round3((outage.fromMs - t0) / 1000) : NaN);
        row(name, 'crawl_secs', round3(r.elapsedMs / 1000));
        row(name, 'posts_expected', truth.size);
        row(name, 'posts_indexed', ids.size);
        row(name, 'posts_lost', lost);
        row(name, 'visits_failed', r.summary.jobsFailed);
        if (v.source === '' && !v.semiSpaceCap) {
          goals.push(goal(`outage: RSS peak MiB through a ${OUTAGE_MS / 1000} s search outage, byte budget at its default`, '<', 400, r.rssPeakMiB));
          goals.push(goal('outage: posts lost (truth − indexed), byte budget at its default', '==', 0, lost));
          goals.push(goal('outage: the outage happened while the crawl ran (seconds of crawl after it began)', '>', OUTAGE_MS / 1000, (r.elapsedMs - (outage ? outage.fromMs - t0 : r.elapsedMs)) / 1000));
        }
      }
    } finally {
      await proxy.close();
      await site.close();
    }
  }

  writeReport('memory', {
    pages: PAGES, page_bytes: PAGE_BYTES, users: USERS, outage_secs: OUTAGE_MS / 1000, outage_after_secs: OUTAGE_AFTER_MS / 1000, sample_ms: SAMPLE_MS,
    pipeline_pages: 'redis_frontier (max_in_flight 64), http_fetch (32 connections), web_pages on 1 page thread (text_density there; markup emptied above strip_heavy_markup_above_bytes, default 1 MiB), language, sentiment, elasticsearch sink',
    pipeline_outage: 'redis_frontier (max_in_flight 64), http_fetch (32 connections), weibo_api on simsite (seed 3, frozen clock), elasticsearch sink through a proxy that refuses connections for the outage',
    variants: VARIANTS,
    crawler_node_flags: CHILD_FLAGS.join(' '), semi_space_cap_flags: BIG_PAGE_NODE_FLAGS.join(' '),
    loadavg_1m_at_start: LOAD_AT_START,
    loadavg_1m_at_end: round3(loadavg()[0]!),
    curves_secs_rss_heap_external_mib: curves,
  }, results, goals, { note: '2 cores shared with other agents (RSS is not CPU-sensitive; times are); the sites and the proxy in the parent process, freshet alone in a child process' });
}

function thin(samples: Sample[], t0: number): [number, number, number, number][] {
  const step = Math.max(1, Math.floor(samples.length / 60));
  return samples.filter((_, i) => i % step === 0 || i === samples.length - 1).map((s) => [round3((s.atMs - t0) / 1000), s.rssMiB, s.heapMiB, s.externalMiB]);
}

if (process.argv[2] === '--child') void child().catch((e) => { console.error(e); process.exit(1); });
else void main().catch((e) => { console.error(e); process.exit(1); });
