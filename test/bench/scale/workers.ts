import { fork } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { systemClock, ManualClock } from '../../../src/core/clock';
import { silentLogger } from '../../../src/core/logger';
import { createMetrics } from '../../../src/core/metrics';
import { seededRng } from '../../../src/core/rng';
import { parsePipeline } from '../../../src/pipeline/load';
import { buildPipeline } from '../../../src/runner/build';
import { startSimsite } from '../../../src/simsite';
import { RedisFrontier } from '../../../src/sources/frontier/frontier';

/**
 * Throughput with W workers (separate processes) sharing one frontier, blackhole sink, against
 * simsite in the parent process. Each worker reports its requests and CPU time; the parent adds
 * its own (simsite) and Redis's CPU, so the report says where the cores went.
 */
export interface WorkersResult {
  workers: number;
  requests: number;
  elapsedMs: number;
  workerCpuSec: number;
  simsiteCpuSec: number;
  redisCpuSec: number;
  jobsPerWorker: number[];
}

interface ChildReport {
  requests: number;
  jobs: number;
  cpuMs: number;
}

const CONCURRENCY = 64;

export async function workerChild(): Promise<void> {
  const { SIMSITE_URL: base, BENCH_REDIS: redisUrl, BENCH_NS: namespace } = process.env as Record<string, string>;
  const config = parsePipeline(`name: bench-workers
source: { type: redis_frontier, shards: 16, max_in_flight: ${CONCURRENCY}, claim_batch: 16, poll_interval_ms: 20 }
fetch: { type: http_fetch, allowed_cidrs: [127.0.0.0/8], respect_robots: false, connections_per_origin: ${CONCURRENCY} }
parse: { type: weibo_api, base_url: "${base}", first_visit_page_limit: 1000, post_metrics: false }
sink: { type: blackhole }
schedule: { type: fixed_interval, interval_secs: 86400 }
`, 'bench-workers.yaml');
  const redis = new Redis(redisUrl!);
  const built = await buildPipeline(config, {
    redis, indexPrefix: 'bench-', mappingsDir: '', clock: systemClock, rng: seededRng(process.pid),
    logger: silentLogger, metrics: createMetrics(), sleep: (ms) => sleep(ms), namespace: namespace!,
  });
  process.send!('ready');
  await new Promise((r) => process.once('message', r));
  const cpu0 = process.cpuUsage();
  const summary = await built.runner.run({ untilIdle: true });
  const cpu = process.cpuUsage(cpu0);
  await built.close();
  redis.disconnect();
  const report: ChildReport = { requests: summary.requests, jobs: summary.jobs, cpuMs: (cpu.user + cpu.system) / 1000 };
  process.send!(report, () => process.exit(0));
}

async function redisCpuSec(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  return Number(/used_cpu_user:([\d.]+)/.exec(info)![1]) + Number(/used_cpu_sys:([\d.]+)/.exec(info)![1]);
}

export async function measureWorkers(script: string, redisUrl: string, users: number, counts: number[]): Promise<WorkersResult[]> {
  const probe = await startSimsite({ worldOptions: { seed: 3, users, historyDays: 20 }, port: 0 });
  const startMs = probe.world.startMs;
  await probe.close();
  const site = await startSimsite({ worldOptions: { seed: 3, users, historyDays: 20 }, clock: new ManualClock(startMs), port: 0, requestLogMaxEntries: 1000 });
  const redis = new Redis(redisUrl);
  const out: WorkersResult[] = [];
  try {
    for (const [i, w] of counts.entries()) {
      const namespace = `bench-workers-${i}-${w}`;
      const env = { ...process.env, SIMSITE_URL: site.url, BENCH_REDIS: redisUrl, BENCH_NS: namespace };
      const children = Array.from({ length: w }, () => fork(script, ['--worker'], { env }));
      await Promise.all(children.map((c) => new Promise((r) => c.once('message', r))));
      // Seeds go in once all workers are ready, so none gets a head start.
      const seedCfg = { firstSeenMs: Date.now(), postsSeen: 0, visits: 0, failures: 0, status: 'active' as const };
      const frontier = new RedisFrontier(redis, { namespace, shards: 16, leaseMs: 120_000, bloomCapacity: 1_000_000, bloomFalsePositiveRate: 0.01, deadLetterMaxLen: 1000 }, systemClock);
      await frontier.offer(site.world.users.map((u) => ({ subject: `weibo:user:${u.uid}`, state: seedCfg })));
      const redisCpu0 = await redisCpuSec(redis);
      const parentCpu0 = process.cpuUsage();
      const t0 = performance.now();
      const reports = await Promise.all(children.map((c) => {
        const done = new Promise<ChildReport>((r) => c.once('message', (m) => r(m as ChildReport)));
        c.send('go');
        return done;
      }));
      const elapsedMs = performance.now() - t0;
      const parentCpu = process.cpuUsage(parentCpu0);
      out.push({
        workers: w,
        requests: reports.reduce((n, r) => n + r.requests, 0),
        elapsedMs,
        workerCpuSec: reports.reduce((n, r) => n + r.cpuMs, 0) / 1000,
        simsiteCpuSec: (parentCpu.user + parentCpu.system) / 1e6,
        redisCpuSec: (await redisCpuSec(redis)) - redisCpu0,
        jobsPerWorker: reports.map((r) => r.jobs),
      });
    }
  } finally {
    redis.disconnect();
    await site.close();
  }
  return out;
}
