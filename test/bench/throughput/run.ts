import { execFileSync, fork, spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../../src/core/clock';
import { startSimsite } from '../../../src/simsite';
import { median, peakRssMiB, round3 } from '../lib/measure';
import { goal, projectRoot, writeReport, type ResultRow } from '../lib/results';
import { missingFlags } from '../../../src/cli/node-flags';

export interface VariantResult {
  requests: number;
  elapsedMs: number;
  cpuMs: number;
  rssPeakMiB: number;
}

/**
 * Throughput of freshet's full pipeline side by side with a bare undici loop, Crawlee's
 * CheerioCrawler and Scrapy, in one run, over two workloads served by simsite: HTML article pages
 * of ~17 KB with links (html.ts: every contender parses each page and follows its article links
 * through its own de-duplication; freshet also extracts the main text and adds language and
 * sentiment) and microblog JSON timelines (paging.ts: the same requests and JSON parse as the
 * weibo adapter). Each contender runs in its own child process (simsite stays in the parent) so
 * its CPU time and peak RSS are its own. The machine is shared, so contenders run in BENCH_ROUNDS
 * rounds, each round in a rotated order; figures are medians over rounds and every ratio is taken
 * within a round before its median.
 */
const USERS = Number(process.env['BENCH_USERS'] ?? 3000);
/** Articles per simulated day over the 20 days of history: about 10,000 article pages. */
const ARTICLES_PER_DAY = Number(process.env['BENCH_ARTICLES_PER_DAY'] ?? 500);
const ALL_WORKLOADS = ['html', 'json'] as const;
type Workload = (typeof ALL_WORKLOADS)[number];
/** BENCH_WORKLOADS=html (or json) runs one workload only, for profiling; the committed run has both. */
const WORKLOADS: readonly Workload[] = process.env['BENCH_WORKLOADS'] ? ALL_WORKLOADS.filter((w) => process.env['BENCH_WORKLOADS']!.split(',').includes(w)) : ALL_WORKLOADS;
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const CONCURRENCY = 64;
const ALL_VARIANTS = ['bare', 'crawlee', 'scrapy', 'blackhole', 'elasticsearch'] as const;
type Variant = (typeof ALL_VARIANTS)[number];
/**
 * BENCH_VARIANTS=bare,elasticsearch runs those contenders only (the bare loop always, every ratio
 * is to it), alternated and repeated over BENCH_ROUNDS, to compare a change on one workload; such a
 * partial run writes .state/bench/throughput.json, never the committed report.
 */
const VARIANTS: readonly Variant[] = process.env['BENCH_VARIANTS']
  ? ALL_VARIANTS.filter((v) => v === 'bare' || process.env['BENCH_VARIANTS']!.split(',').includes(v))
  : ALL_VARIANTS;
const PARTIAL = VARIANTS.length < ALL_VARIANTS.length || WORKLOADS.length < ALL_WORKLOADS.length;
const LABEL: Record<Variant, { system: string; variant: string }> = {
  bare: { system: 'bare-undici-loop', variant: '' },
  crawlee: { system: 'crawlee-cheerio', variant: '' },
  scrapy: { system: 'scrapy', variant: '' },
  blackhole: { system: 'freshet', variant: 'null-sink' },
  elasticsearch: { system: 'freshet', variant: 'search-sink' },
};

async function child(variant: Exclude<Variant, 'scrapy'>, workload: Workload): Promise<void> {
  const base = process.env['SIMSITE_URL']!;
  const env = {
    redisUrl: process.env['FRESHET_REDIS_URL'] ?? 'redis://127.0.0.1:6390',
    esUrl: process.env['FRESHET_ES_URL'] ?? 'http://127.0.0.1:9250',
    prefix: `bench-throughput-${process.pid}-`,
    mappings: join(projectRoot(), 'mappings'),
  };
  // Each child loads only its own contender's code, so no contender pays for another's modules.
  let run: () => Promise<number>;
  if (workload === 'html') {
    const count = Number(process.env['BENCH_ARTICLES']);
    run = variant === 'bare' ? async () => (await import('./bare.js')).bareHtml(base, count, CONCURRENCY)
      : variant === 'crawlee' ? async () => (await import('./crawlee.js')).crawleeHtml(base, count, CONCURRENCY)
        : async () => (await import('./variants.js')).freshetHtml(base, count, variant, CONCURRENCY, env);
  } else {
    const uids = JSON.parse(process.env['BENCH_UIDS']!) as string[];
    run = variant === 'bare' ? async () => (await import('./bare.js')).bareLoop(base, uids, CONCURRENCY)
      : variant === 'crawlee' ? async () => (await import('./crawlee.js')).crawleeRun(base, uids, CONCURRENCY)
        : async () => (await import('./variants.js')).freshetRun(base, uids, variant, CONCURRENCY, env);
  }
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const requests = await run();
  const elapsedMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const result: VariantResult = { requests, elapsedMs, cpuMs: (cpu.user + cpu.system) / 1000, rssPeakMiB: peakRssMiB() };
  process.send!(result);
}

function runNodeChild(variant: Variant, workload: Workload, env: NodeJS.ProcessEnv): Promise<VariantResult> {
  return new Promise((resolve, reject) => {
    // freshet's contenders run with the Node flags bin/freshet.js gives the CLI; the others with Node's defaults.
    const execArgv = variant === 'blackhole' || variant === 'elasticsearch' ? [...missingFlags(env, process.execArgv), ...process.execArgv] : process.execArgv;
    const c = fork(__filename, ['--child', variant, workload], { env, execArgv });
    let result: VariantResult | undefined;
    c.once('message', (m) => (result = m as VariantResult));
    c.once('exit', (code) => (code === 0 && result ? resolve(result) : reject(new Error(`${variant} exited with ${code}`))));
  });
}

function runScrapy(python: string, workload: Workload, env: NodeJS.ProcessEnv): Promise<VariantResult> {
  return new Promise((resolve, reject) => {
    const c = spawn(python, [join(projectRoot(), 'test', 'bench', 'throughput', 'scrapy_spider.py')], { env: { ...env, BENCH_WORKLOAD: workload }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    c.stdout.on('data', (d: Buffer) => (out += d.toString()));
    c.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`scrapy exited with ${code}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()!) as VariantResult);
      } catch (e) {
        reject(e as Error);
      }
    });
  });
}

async function main(): Promise<void> {
  const python = !VARIANTS.includes('scrapy') ? '' : execFileSync('bash', [join(projectRoot(), 'scripts', 'bench-scrapy-venv.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  const worldOptions = { seed: 3, users: USERS, historyDays: 20 };
  const probe = await startSimsite({ worldOptions, port: 0 });
  const startMs = probe.world.startMs;
  await probe.close();
  const site = await startSimsite({ worldOptions, sites: { articlesPerDay: ARTICLES_PER_DAY }, clock: new ManualClock(startMs), port: 0, requestLogMaxEntries: 1000 });
  const uids = site.world.users.map((u) => String(u.uid));
  const articles = ((await (await fetch(`${site.url}/_truth/articles`)).json()) as unknown[]).length;
  const env = { ...process.env, SIMSITE_URL: site.url, BENCH_UIDS: JSON.stringify(uids), BENCH_ARTICLES: String(articles), BENCH_CONCURRENCY: String(CONCURRENCY) };
  const rounds: Record<Workload, Record<Variant, VariantResult>>[] = [];
  const loadAtStart = loadavg()[0]!;
  try {
    // The simsite generates an article (and warms its own JIT) on the first request and keeps it:
    // a discarded bare-loop pass per workload does that once, so the first contender timed does
    // not wait on work the simsite spares the others.
    for (const w of WORKLOADS) {
      const x = await runNodeChild('bare', w, env);
      console.error(`[throughput] warm-up ${w} (discarded): ${x.requests} pages, ${pps(x).toFixed(0)} pages/s`);
    }
    for (let r = 0; r < ROUNDS; r++) {
      const round: Partial<Record<Workload, Record<Variant, VariantResult>>> = {};
      for (const w of WORKLOADS) {
        const order = VARIANTS.map((_, i) => VARIANTS[(i + r) % VARIANTS.length]!);
        const byVariant: Partial<Record<Variant, VariantResult>> = {};
        for (const v of order) {
          const x = v === 'scrapy' ? await runScrapy(python, w, env) : await runNodeChild(v, w, env);
          byVariant[v] = x;
          console.error(`[throughput] round ${r + 1}/${ROUNDS} ${w} ${v}: ${x.requests} pages, ${pps(x).toFixed(0)} pages/s, ${cpuPer1000(x).toFixed(3)} cpu s/1000, ${x.rssPeakMiB.toFixed(0)} MiB`);
        }
        round[w] = byVariant as Record<Variant, VariantResult>;
      }
      rounds.push(round as Record<Workload, Record<Variant, VariantResult>>);
    }
  } finally {
    await site.close();
  }
  for (const round of rounds) {
    for (const w of WORKLOADS) {
      for (const v of VARIANTS) {
        if (round[w][v].requests !== round[w].bare.requests) throw new Error(`${w}: ${v} made ${round[w][v].requests} requests, the bare loop ${round[w].bare.requests}: not the same work`);
      }
    }
  }
  const results: ResultRow[] = [];
  const goals: ReturnType<typeof goal>[] = [];
  const perCore = (x: VariantResult) => 1 / cpuPer1000(x);
  for (const w of WORKLOADS) {
    const of = (v: Variant) => rounds.map((r) => r[w][v]);
    for (const v of VARIANTS) {
      const { system, variant } = LABEL[v];
      const label = variant ? `${variant}/${w}` : w;
      results.push(
        { system, variant: label, metric: 'pages_per_sec', value: round3(median(of(v).map(pps))) },
        { system, variant: label, metric: 'cpu_sec_per_1000_pages', value: round3(median(of(v).map(cpuPer1000))) },
        { system, variant: label, metric: 'rss_mib_peak', value: round3(Math.max(...of(v).map((x) => x.rssPeakMiB))) },
        { system, variant: label, metric: 'pages', value: rounds[0]![w].bare.requests },
      );
    }
    // Ratios within each round (contenders ran minutes apart at most), then the median over rounds.
    const ratio = (a: Variant, b: Variant, f: (x: VariantResult) => number) => median(rounds.map((r) => f(r[w][a]) / f(r[w][b])));
    const ratios: [Variant, Variant][] = [['blackhole', 'bare'], ['blackhole', 'crawlee'], ['blackhole', 'scrapy'], ['elasticsearch', 'bare'], ['elasticsearch', 'crawlee'], ['elasticsearch', 'scrapy']];
    for (const [a, b] of ratios.filter(([a, b]) => VARIANTS.includes(a) && VARIANTS.includes(b))) {
      results.push(
        { system: 'freshet', variant: `${LABEL[a].variant}/${w}`, metric: `ratio_pages_per_sec_vs_${b}`, value: round3(ratio(a, b, pps)) },
        { system: 'freshet', variant: `${LABEL[a].variant}/${w}`, metric: `ratio_pages_per_cpu_sec_vs_${b}`, value: round3(ratio(a, b, perCore)) },
      );
    }
    const pages = w === 'html' ? 'HTML pages' : 'JSON timelines';
    const has = (...v: Variant[]) => v.every((x) => VARIANTS.includes(x));
    if (has('blackhole', 'crawlee')) goals.push(goal(`freshet null-sink / crawlee pages_per_sec (${pages})`, '>=', 5, ratio('blackhole', 'crawlee', pps)));
    if (has('blackhole')) goals.push(goal(`freshet null-sink / bare pages_per_sec (${pages})`, '>=', 0.6, ratio('blackhole', 'bare', pps)));
    if (has('elasticsearch')) {
      goals.push(goal(`freshet search-sink / bare pages_per_sec (${pages})`, '>=', 0.35, ratio('elasticsearch', 'bare', pps)));
      // The spread over rounds of the ratio the goal takes the median of.
      const each = rounds.map((r) => pps(r[w].elasticsearch) / pps(r[w].bare));
      console.error(`[throughput] ${w} search-sink/bare per round: ${each.map((x) => x.toFixed(3)).join(' ')} (min ${Math.min(...each).toFixed(3)}, max ${Math.max(...each).toFixed(3)})`);
    }
  }
  const freshet = VARIANTS.filter((v) => v === 'blackhole' || v === 'elasticsearch');
  const rssMax = Math.max(...rounds.flatMap((r) => WORKLOADS.flatMap((w) => freshet.map((v) => r[w][v].rssPeakMiB))));
  if (freshet.length === 2 && !PARTIAL) goals.push(goal('freshet rss_mib_peak (null and search sink, both workloads)', '<', 400, rssMax));
  writeReport('throughput', {
    users: USERS, articles, rounds: ROUNDS, concurrency: CONCURRENCY,
    pages: `html: ${articles} simsite news article pages (~17 KB: nav, sidebars, recommended articles, comments, style, script), article links followed through each contender's de-duplication; json: microblog JSON timelines of ${USERS} users (profile + timeline pages + long text); simsite on loopback, frozen clock`,
    contenders: 'bare: undici Agent(64) + cheerio/htmlparser2 and link check (html) or JSON.parse (json); crawlee: @crawlee/cheerio 3.18.1 CheerioCrawler, in-memory storage, maxConcurrency 64, enqueueLinks (html) or JSON mime type (json); scrapy: 2.19.0 from PyPI, CONCURRENT_REQUESTS 64, no throttle/retry/robots, lxml link extraction through its dupefilter (html); freshet: Redis frontier, http_fetch, web_pages + text_density + language + sentiment as pipelines/news.yaml sets them (pages parsed and text_density on one page worker thread, language and sentiment on the main thread) (html) or weibo_api (json), blackhole or elasticsearch sink',
  }, results, goals, { ...(PARTIAL ? { dir: join(projectRoot(), '.state', 'bench') } : {}), note: `${PARTIAL ? `partial run (${WORKLOADS.join(',')}: ${VARIANTS.join(',')}); ` : ''}2 cores shared with other work (noisy wall clock; cpu_sec_per_1000_pages is the steadier figure); simsite in the parent process on the same cores; each contender in its own child process; a discarded bare-loop pass per workload first (the simsite generates each article once and keeps it); medians over ${ROUNDS} rounds in rotated order; CPU counts the contender's process only (not Redis or the search node); load average (1 min) ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end` });
}

function pps(x: VariantResult): number {
  return x.requests / (x.elapsedMs / 1000);
}

function cpuPer1000(x: VariantResult): number {
  return x.cpuMs / x.requests;
}

if (process.argv[2] === '--child') void child(process.argv[3] as Exclude<Variant, 'scrapy'>, process.argv[4] as Workload).catch((e) => { console.error(e); process.exit(1); });
else void main().catch((e) => { console.error(e); process.exit(1); });
