import { execFileSync, fork, spawn } from 'node:child_process';
import { join } from 'node:path';
import { ManualClock } from '../../../src/core/clock';
import { startSimsite } from '../../../src/simsite';
import { median, peakRssMiB, round3 } from '../lib/measure';
import { goal, projectRoot, writeReport, type ResultRow } from '../lib/results';

export interface VariantResult {
  requests: number;
  elapsedMs: number;
  cpuMs: number;
  rssPeakMiB: number;
}

/**
 * Throughput of freshet's full pipeline against simsite's microblog JSON timelines, side by side
 * with a bare undici loop, Crawlee's CheerioCrawler and Scrapy making the same requests and the
 * same JSON parse, in one run. Each contender runs in its own child process (simsite stays in the
 * parent) so its CPU time and peak RSS are its own. The machine is shared, so contenders run in
 * BENCH_ROUNDS rounds, each round in a rotated order; figures are medians over rounds and every
 * ratio is taken within a round before its median.
 */
const USERS = Number(process.env['BENCH_USERS'] ?? 1500);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const CONCURRENCY = 64;
const VARIANTS = ['bare', 'crawlee', 'scrapy', 'blackhole', 'elasticsearch'] as const;
type Variant = (typeof VARIANTS)[number];
const LABEL: Record<Variant, { system: string; variant: string }> = {
  bare: { system: 'bare-undici-loop', variant: '' },
  crawlee: { system: 'crawlee-cheerio', variant: '' },
  scrapy: { system: 'scrapy', variant: '' },
  blackhole: { system: 'freshet', variant: 'null-sink' },
  elasticsearch: { system: 'freshet', variant: 'search-sink' },
};

async function child(variant: Exclude<Variant, 'scrapy'>): Promise<void> {
  const base = process.env['SIMSITE_URL']!;
  const uids = JSON.parse(process.env['BENCH_UIDS']!) as string[];
  // Each child loads only its own contender's code, so no contender pays for another's modules.
  const run: (base: string, uids: string[], concurrency: number) => Promise<number> = variant === 'bare' ? (await import('./bare.js')).bareLoop
    : variant === 'crawlee' ? (await import('./crawlee.js')).crawleeRun
      : await (async (sink) => {
        const { freshetRun } = await import('./variants.js');
        return (base: string, uids: string[], concurrency: number) => freshetRun(base, uids, sink, concurrency, {
          redisUrl: process.env['FRESHET_REDIS_URL'] ?? 'redis://127.0.0.1:6390',
          esUrl: process.env['FRESHET_ES_URL'] ?? 'http://127.0.0.1:9250',
          prefix: `bench-throughput-${process.pid}-`,
          mappings: join(projectRoot(), 'mappings'),
        });
      })(variant);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const requests = await run(base, uids, CONCURRENCY);
  const elapsedMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const result: VariantResult = { requests, elapsedMs, cpuMs: (cpu.user + cpu.system) / 1000, rssPeakMiB: peakRssMiB() };
  process.send!(result);
}

function runNodeChild(variant: Variant, env: NodeJS.ProcessEnv): Promise<VariantResult> {
  return new Promise((resolve, reject) => {
    const c = fork(__filename, ['--child', variant], { env });
    let result: VariantResult | undefined;
    c.once('message', (m) => (result = m as VariantResult));
    c.once('exit', (code) => (code === 0 && result ? resolve(result) : reject(new Error(`${variant} exited with ${code}`))));
  });
}

function runScrapy(python: string, env: NodeJS.ProcessEnv): Promise<VariantResult> {
  return new Promise((resolve, reject) => {
    const c = spawn(python, [join(projectRoot(), 'test', 'bench', 'throughput', 'scrapy_spider.py')], { env, stdio: ['ignore', 'pipe', 'inherit'] });
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
  const python = execFileSync('bash', [join(projectRoot(), 'scripts', 'bench-scrapy-venv.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  const probe = await startSimsite({ worldOptions: { seed: 3, users: USERS, historyDays: 20 }, port: 0 });
  const startMs = probe.world.startMs;
  await probe.close();
  const site = await startSimsite({ worldOptions: { seed: 3, users: USERS, historyDays: 20 }, clock: new ManualClock(startMs), port: 0, requestLogMaxEntries: 1000 });
  const uids = site.world.users.map((u) => String(u.uid));
  const env = { ...process.env, SIMSITE_URL: site.url, BENCH_UIDS: JSON.stringify(uids), BENCH_CONCURRENCY: String(CONCURRENCY) };
  const rounds: Record<Variant, VariantResult>[] = [];
  try {
    for (let r = 0; r < ROUNDS; r++) {
      const order = VARIANTS.map((_, i) => VARIANTS[(i + r) % VARIANTS.length]!);
      const round: Partial<Record<Variant, VariantResult>> = {};
      for (const v of order) {
        round[v] = v === 'scrapy' ? await runScrapy(python, env) : await runNodeChild(v, env);
        console.error(`[throughput] round ${r + 1}/${ROUNDS} ${v}: ${round[v]!.requests} pages, ${pps(round[v]!).toFixed(0)} pages/s, ${cpuPer1000(round[v]!).toFixed(3)} cpu s/1000, ${round[v]!.rssPeakMiB.toFixed(0)} MiB`);
      }
      rounds.push(round as Record<Variant, VariantResult>);
    }
  } finally {
    await site.close();
  }
  for (const round of rounds) {
    for (const v of VARIANTS) {
      if (round[v].requests !== round.bare.requests) throw new Error(`${v} made ${round[v].requests} requests, the bare loop ${round.bare.requests}: not the same work`);
    }
  }
  const results: ResultRow[] = [];
  for (const v of VARIANTS) {
    const { system, variant } = LABEL[v];
    results.push(
      { system, variant, metric: 'pages_per_sec', value: round3(median(rounds.map((r) => pps(r[v])))) },
      { system, variant, metric: 'cpu_sec_per_1000_pages', value: round3(median(rounds.map((r) => cpuPer1000(r[v])))) },
      { system, variant, metric: 'rss_mib_peak', value: round3(Math.max(...rounds.map((r) => r[v].rssPeakMiB))) },
      { system, variant, metric: 'pages', value: rounds[0]!.bare.requests },
    );
  }
  // Ratios within each round (contenders ran minutes apart at most), then the median over rounds.
  const ratio = (a: Variant, b: Variant, f: (x: VariantResult) => number) => median(rounds.map((r) => f(r[a]) / f(r[b])));
  const perCore = (x: VariantResult) => 1 / cpuPer1000(x);
  const ratios: [Variant, Variant, string][] = [['blackhole', 'bare', 'bare'], ['blackhole', 'crawlee', 'crawlee'], ['blackhole', 'scrapy', 'scrapy'],
    ['elasticsearch', 'bare', 'bare'], ['elasticsearch', 'crawlee', 'crawlee'], ['elasticsearch', 'scrapy', 'scrapy']];
  for (const [a, b, name] of ratios) {
    results.push(
      { system: 'freshet', variant: LABEL[a].variant, metric: `ratio_pages_per_sec_vs_${name}`, value: round3(ratio(a, b, pps)) },
      { system: 'freshet', variant: LABEL[a].variant, metric: `ratio_pages_per_cpu_sec_vs_${name}`, value: round3(ratio(a, b, perCore)) },
    );
  }
  const rssMax = Math.max(...rounds.flatMap((r) => [r.blackhole.rssPeakMiB, r.elasticsearch.rssPeakMiB]));
  writeReport('throughput', {
    users: USERS, rounds: ROUNDS, concurrency: CONCURRENCY,
    pages: 'microblog JSON timelines (profile + timeline pages + long text), simsite on loopback, frozen clock',
    contenders: 'bare: undici Agent(64) + JSON.parse; crawlee: @crawlee/cheerio 3.18.1 CheerioCrawler, in-memory storage, maxConcurrency 64, JSON mime type; scrapy: 2.19.0 from PyPI, CONCURRENT_REQUESTS 64, no throttle/retry/robots; freshet: Redis frontier, http_fetch, weibo_api parse, blackhole or elasticsearch sink',
  }, results, [
    goal('freshet null-sink / crawlee pages_per_sec', '>=', 5, ratio('blackhole', 'crawlee', pps)),
    goal('freshet null-sink / bare pages_per_sec', '>=', 0.6, ratio('blackhole', 'bare', pps)),
    goal('freshet search-sink / bare pages_per_sec', '>=', 0.35, ratio('elasticsearch', 'bare', pps)),
    goal('freshet rss_mib_peak (null and search sink)', '<', 400, rssMax),
  ], { note: `2 cores shared with other work (noisy wall clock; cpu_sec_per_1000_pages is the steadier figure); simsite in the parent process on the same cores; each contender in its own child process; medians over ${ROUNDS} rounds in rotated order; CPU counts the contender's process only (not Redis or the search node)` });
}

function pps(x: VariantResult): number {
  return x.requests / (x.elapsedMs / 1000);
}

function cpuPer1000(x: VariantResult): number {
  return x.cpuMs / x.requests;
}

if (process.argv[2] === '--child') void child(process.argv[3] as Exclude<Variant, 'scrapy'>).catch((e) => { console.error(e); process.exit(1); });
else void main().catch((e) => { console.error(e); process.exit(1); });
