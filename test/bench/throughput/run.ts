import { fork } from 'node:child_process';
import { join } from 'node:path';
import { ManualClock } from '../../../src/core/clock';
import { startSimsite } from '../../../src/simsite';
import { goal, projectRoot, writeReport, type ResultRow } from '../lib/results';
import { bareLoop, freshetRun, type VariantResult } from './variants';

/**
 * Throughput of the full pipeline against simsite's microblog JSON timelines, side by side with a
 * bare undici loop doing the same paging, in one run. Each variant runs in its own child process
 * (simsite stays in the parent) so its CPU time and peak RSS are its own.
 */
const USERS = Number(process.env['BENCH_USERS'] ?? 1500);
const CONCURRENCY = 64;
const VARIANTS = ['bare', 'blackhole', 'elasticsearch'] as const;
type Variant = (typeof VARIANTS)[number];

async function child(variant: Variant): Promise<void> {
  const base = process.env['SIMSITE_URL']!;
  const uids = JSON.parse(process.env['BENCH_UIDS']!) as string[];
  let rssPeak = process.memoryUsage().rss;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 50);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const requests = variant === 'bare'
    ? await bareLoop(base, uids, CONCURRENCY)
    : await freshetRun(base, uids, variant, CONCURRENCY, {
      redisUrl: process.env['FRESHET_REDIS_URL'] ?? 'redis://127.0.0.1:6390',
      esUrl: process.env['FRESHET_ES_URL'] ?? 'http://127.0.0.1:9250',
      prefix: `bench-throughput-${process.pid}-`,
      mappings: join(projectRoot(), 'mappings'),
    });
  const elapsedMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  clearInterval(sampler);
  const result: VariantResult = { requests, elapsedMs, cpuMs: (cpu.user + cpu.system) / 1000, rssPeakMiB: Math.max(rssPeak, process.memoryUsage().rss) / 2 ** 20 };
  process.send!(result);
}

function runChild(variant: Variant, env: NodeJS.ProcessEnv): Promise<VariantResult> {
  return new Promise((resolve, reject) => {
    const c = fork(__filename, ['--child', variant], { env });
    c.once('message', (m) => resolve(m as VariantResult));
    c.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`${variant} exited with ${code}`))));
  });
}

async function main(): Promise<void> {
  const probe = await startSimsite({ worldOptions: { seed: 3, users: USERS, historyDays: 20 }, port: 0 });
  const startMs = probe.world.startMs;
  await probe.close();
  const site = await startSimsite({ worldOptions: { seed: 3, users: USERS, historyDays: 20 }, clock: new ManualClock(startMs), port: 0, requestLogMaxEntries: 1000 });
  const uids = site.world.users.map((u) => String(u.uid));
  const env = { ...process.env, SIMSITE_URL: site.url, BENCH_UIDS: JSON.stringify(uids) };
  const results: ResultRow[] = [];
  const by: Partial<Record<Variant, VariantResult>> = {};
  try {
    for (const v of VARIANTS) {
      const r = await runChild(v, env);
      by[v] = r;
      const system = v === 'bare' ? 'bare-undici-loop' : 'freshet';
      const variant = v === 'bare' ? '' : v === 'blackhole' ? 'null-sink' : 'search-sink';
      results.push(
        { system, variant, metric: 'pages_per_sec', value: round(r.requests / (r.elapsedMs / 1000)) },
        { system, variant, metric: 'cpu_sec_per_1000_pages', value: round(r.cpuMs / r.requests) },
        { system, variant, metric: 'rss_mib_peak', value: round(r.rssPeakMiB) },
        { system, variant, metric: 'pages', value: r.requests },
      );
    }
  } finally {
    await site.close();
  }
  const pps = (v: Variant) => by[v]!.requests / (by[v]!.elapsedMs / 1000);
  results.push(
    { system: 'freshet', variant: 'null-sink', metric: 'ratio_pages_per_sec_vs_bare', value: round(pps('blackhole') / pps('bare')) },
    { system: 'freshet', variant: 'search-sink', metric: 'ratio_pages_per_sec_vs_bare', value: round(pps('elasticsearch') / pps('bare')) },
  );
  writeReport('throughput', { users: USERS, concurrency: CONCURRENCY, pages: 'microblog JSON timelines (profile + pages + long text), simsite on loopback, frozen clock' }, results, [
    // Issue 4 sets no target; these are issue 10's, reported now so progress is visible.
    goal('freshet null-sink / bare pages_per_sec', '>=', 0.6, pps('blackhole') / pps('bare')),
    goal('freshet search-sink / bare pages_per_sec', '>=', 0.35, pps('elasticsearch') / pps('bare')),
    goal('freshet null-sink / crawlee pages_per_sec', '>=', 5, null),
    goal('freshet null-sink rss_mib_peak', '<=', 400, by.blackhole!.rssPeakMiB),
  ], { note: 'simsite runs in the parent process on the same 2 cores; each variant in its own child process' });
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

if (process.argv[2] === '--child') void child(process.argv[3] as Variant).catch((e) => { console.error(e); process.exit(1); });
else void main().catch((e) => { console.error(e); process.exit(1); });
