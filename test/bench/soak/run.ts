import { fork } from 'node:child_process';
import { join } from 'node:path';
import { ManualClock } from '../../../src/core/clock';
import { createMetrics } from '../../../src/core/metrics';
import { startSimsite } from '../../../src/simsite';
import { median, peakRssMiB, round3 } from '../lib/measure';
import { goal, projectRoot, writeReport } from '../lib/results';

/**
 * The soak: freshet's full pipeline (Redis frontier, fetch, weibo_api parse, null sink) over
 * SOAK_PAGES simsite pages (default 1,000,000; e.g. SOAK_PAGES=100000 npm run bench soak for a
 * short run) in one process, sampling its RSS and heap as pages go by, to show memory stays flat.
 * simsite serves in the parent; freshet runs in a child so the samples are freshet's alone.
 */
const PAGES = Number(process.env['SOAK_PAGES'] ?? 1_000_000);
// seed 3, 20 days of history: 7.01 requests per user measured (profile, timeline pages, long
// texts); 7.0 so the run reaches at least SOAK_PAGES.
const USERS = Math.ceil(PAGES / 7.0);
const CONCURRENCY = 64;
const SAMPLE_MS = 2000;

interface Sample { s: number; pages: number; rssMiB: number; heapMiB: number; liveHeapMiB?: number }
interface SoakResult { requests: number; elapsedMs: number; cpuMs: number; rssPeakMiB: number; samples: Sample[] }

async function child(): Promise<void> {
  const { freshetRun } = await import('../throughput/variants.js');
  const base = process.env['SIMSITE_URL']!;
  // 140k uids overflow an environment variable (E2BIG): they come as the first IPC message.
  const uids = await new Promise<string[]>((resolve) => process.once('message', (m) => resolve(m as string[])));
  const metrics = createMetrics();
  const samples: Sample[] = [];
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  let n = 0;
  const sample = async (forceGc = false) => {
    // Every tenth sample (and the last) also after a full GC: heapUsed then is live memory only,
    // the leak signal; RSS and plain heapUsed also move with how lazily V8 collects.
    let liveHeapMiB: number | undefined;
    if (forceGc || n++ % 10 === 0) {
      (globalThis as { gc?: () => void }).gc?.();
      liveHeapMiB = Math.round(process.memoryUsage().heapUsed / 2 ** 20);
    }
    const m = process.memoryUsage();
    const fetched = (await metrics.fetches.get()).values.reduce((a, v) => a + v.value, 0);
    samples.push({ s: Math.round((performance.now() - t0) / 100) / 10, pages: fetched, rssMiB: Math.round(m.rss / 2 ** 20), heapMiB: Math.round(m.heapUsed / 2 ** 20), ...(liveHeapMiB === undefined ? {} : { liveHeapMiB }) });
  };
  const timer = setInterval(() => void sample(), SAMPLE_MS);
  const requests = await freshetRun(base, uids, 'blackhole', CONCURRENCY, {
    redisUrl: process.env['FRESHET_REDIS_URL'] ?? 'redis://127.0.0.1:6390',
    esUrl: process.env['FRESHET_ES_URL'] ?? 'http://127.0.0.1:9250',
    prefix: `bench-soak-${process.pid}-`,
    mappings: join(projectRoot(), 'mappings'),
    metrics,
  });
  clearInterval(timer);
  await sample(true);
  const cpu = process.cpuUsage(cpu0);
  const result: SoakResult = { requests, elapsedMs: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000, rssPeakMiB: peakRssMiB(), samples };
  process.send!(result);
}

async function main(): Promise<void> {
  const probe = await startSimsite({ worldOptions: { seed: 3, users: USERS, historyDays: 20 }, port: 0 });
  const startMs = probe.world.startMs;
  await probe.close();
  const site = await startSimsite({ worldOptions: { seed: 3, users: USERS, historyDays: 20 }, clock: new ManualClock(startMs), port: 0, requestLogMaxEntries: 1000 });
  const uids = site.world.users.map((u) => String(u.uid));
  console.error(`[soak] ${USERS} users for ~${PAGES} pages`);
  let r: SoakResult;
  try {
    r = await new Promise<SoakResult>((resolve, reject) => {
      const c = fork(__filename, ['--child'], { execArgv: [...process.execArgv, '--expose-gc'], env: { ...process.env, SIMSITE_URL: site.url } });
      c.send(uids);
      let result: SoakResult | undefined;
      c.on('message', (m) => (result = m as SoakResult));
      c.once('exit', (code) => (code === 0 && result ? resolve(result) : reject(new Error(`soak child exited with ${code}`))));
    });
  } finally {
    await site.close();
  }
  // Flat: the median RSS over the last fifth of the pages against that over the second fifth
  // (the first fifth is warm-up: JIT, pools, connection buffers reaching their working size).
  const window = (lo: number, hi: number) => r.samples.filter((s) => s.pages >= lo * r.requests && s.pages < hi * r.requests);
  const early = window(0.2, 0.4);
  const late = window(0.8, 1.01);
  const rssEarly = median(early.map((s) => s.rssMiB));
  const rssLate = median(late.map((s) => s.rssMiB));
  const heapEarly = median(early.map((s) => s.heapMiB));
  const heapLate = median(late.map((s) => s.heapMiB));
  const live = (xs: Sample[]) => median(xs.flatMap((s) => (s.liveHeapMiB === undefined ? [] : [s.liveHeapMiB])));
  const liveEarly = live(early);
  const liveLate = live(late);
  const growthPct = ((rssLate - rssEarly) / rssEarly) * 100;
  const step = Math.max(1, Math.floor(r.samples.length / 25));
  writeReport('soak', {
    pages_target: PAGES, users: USERS, concurrency: CONCURRENCY, sample_ms: SAMPLE_MS,
    pages: 'microblog JSON timelines (profile + timeline pages + long text), simsite on loopback, frozen clock',
    pipeline: 'redis_frontier (claim_batch 64), http_fetch, weibo_api, blackhole sink',
    curve_pages_rss_heap_mib: r.samples.filter((_, i) => i % step === 0 || i === r.samples.length - 1).map((s) => [s.pages, s.rssMiB, s.heapMiB]),
    curve_pages_live_heap_after_gc_mib: r.samples.filter((s) => s.liveHeapMiB !== undefined).map((s) => [s.pages, s.liveHeapMiB]),
  }, [
    { system: 'freshet', variant: 'null-sink', metric: 'pages', value: r.requests },
    { system: 'freshet', variant: 'null-sink', metric: 'pages_per_sec', value: round3(r.requests / (r.elapsedMs / 1000)) },
    { system: 'freshet', variant: 'null-sink', metric: 'cpu_sec_per_1000_pages', value: round3(r.cpuMs / r.requests) },
    { system: 'freshet', variant: 'null-sink', metric: 'rss_mib_peak', value: round3(r.rssPeakMiB) },
    { system: 'freshet', variant: 'null-sink', metric: 'rss_mib_median_20_40pct', value: rssEarly },
    { system: 'freshet', variant: 'null-sink', metric: 'rss_mib_median_80_100pct', value: rssLate },
    { system: 'freshet', variant: 'null-sink', metric: 'heap_mib_median_20_40pct', value: heapEarly },
    { system: 'freshet', variant: 'null-sink', metric: 'heap_mib_median_80_100pct', value: heapLate },
    { system: 'freshet', variant: 'null-sink', metric: 'live_heap_mib_after_gc_median_20_40pct', value: liveEarly },
    { system: 'freshet', variant: 'null-sink', metric: 'live_heap_mib_after_gc_median_80_100pct', value: liveLate },
    { system: 'freshet', variant: 'null-sink', metric: 'rss_growth_pct_late_vs_early', value: round3(growthPct) },
  ], [
    goal('freshet null-sink rss_mib_peak over the soak', '<', 400, r.rssPeakMiB),
    goal('freshet null-sink rss growth % (last fifth vs second fifth of pages)', '<=', 10, growthPct),
    goal('freshet null-sink live heap growth % after GC (last fifth vs second fifth)', '<=', 10, ((liveLate - liveEarly) / liveEarly) * 100),
    goal('soak pages (1 M target; SOAK_PAGES shortens it)', '>=', 1_000_000, r.requests),
  ], { note: '2 cores shared with other work; simsite in the parent process; freshet alone in a child process' });
}

if (process.argv[2] === '--child') void child().catch((e) => { console.error(e); process.exit(1); });
else void main().catch((e) => { console.error(e); process.exit(1); });
