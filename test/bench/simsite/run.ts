/**
 * simsite throughput: the site must never be the bottleneck of crawl benchmarks (≥ 5,000 JSON
 * responses/s). The site runs in a child process so the load generator does not share its event loop.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { Pool } from 'undici';
import { goal, writeReport } from '../lib/results';
import { createWorld, startSimsite } from '../../../src/simsite';

const USERS = 10_000;
const SEED = 42;
const CONNECTIONS = 64;
const DURATION_MS = 15_000;
const WARMUP_MS = 2_000;

interface Ready {
  url: string;
  uids: number[];
}

async function child(): Promise<void> {
  const world = createWorld({ seed: SEED, users: USERS });
  const cacheArg = process.argv.find((a) => a.startsWith('--cache-ms='));
  const responseCacheMs = cacheArg ? Number(cacheArg.split('=')[1]) : 10_000;
  const h = await startSimsite({ world, speed: 60, weibo: { responseCacheMs } });
  const uids = world.users.filter((u) => !u.zombie).slice(0, 2000).map((u) => u.uid);
  process.send?.({ url: h.url, uids } satisfies Ready);
  process.on('message', (m) => {
    // Leave by draining the event loop (not process.exit) so --cpu-prof can write its profile.
    if (m === 'stop') void h.close().then(() => process.disconnect());
  });
}

function paths(uids: number[]): string[] {
  const out: string[] = [];
  for (const uid of uids) {
    out.push(`/api/container/getIndex?type=uid&value=${uid}`);
    out.push(`/api/container/getIndex?type=uid&value=${uid}&containerid=107603${uid}&page=1`);
    out.push(`/api/container/getIndex?type=uid&value=${uid}&containerid=107603${uid}&page=2`);
    out.push(`/api/container/getIndex?containerid=231051_-_fans_-_${uid}&since_id=1`);
  }
  return out;
}

async function hammer(url: string, list: string[], durationMs: number): Promise<{ ok: number; failed: number; bytes: number; byKind: Record<string, number> }> {
  const pool = new Pool(url, { connections: CONNECTIONS, pipelining: 1 });
  const stopAt = Date.now() + durationMs;
  let ok = 0;
  let failed = 0;
  let bytes = 0;
  let i = 0;
  let n = 0;
  const byKind: Record<string, number> = {};
  const worker = async (): Promise<void> => {
    while (Date.now() < stopAt) {
      const path = list[i++ % list.length]!;
      try {
        const res = await pool.request({ path, method: 'GET', headers: { 'x-client-id': 'bench' } });
        const body = await res.body.text();
        // Parsing every body would make the load generator the bottleneck on a 2-core machine; every
        // 16th body is parsed, every body must at least look like a JSON object.
        if (n++ % 16 === 0) JSON.parse(body);
        else if (body.charCodeAt(0) !== 123 || body.charCodeAt(body.length - 1) !== 125) throw new Error('not JSON');
        bytes += body.length;
        if (res.statusCode === 200) ok++;
        else failed++;
        const kind = path.includes('fans') ? 'fans' : path.includes('107603') ? 'timeline' : 'profile';
        byKind[kind] = (byKind[kind] ?? 0) + 1;
      } catch {
        failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  await pool.close();
  return { ok, failed, bytes, byKind };
}

interface Measured {
  rps: number;
  failed: number;
  meanBodyKib: number;
}

/** One site process per variant, so caches and JIT state do not carry over between variants. */
async function measure(responseCacheMs: number): Promise<Measured> {
  // SIMSITE_CHILD_NODE_ARGS (e.g. "--cpu-prof") profiles the site process.
  const execArgv = process.env.SIMSITE_CHILD_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const proc: ChildProcess = fork(__filename, ['--child', `--cache-ms=${responseCacheMs}`], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv });
  const ready = await new Promise<Ready>((resolve, reject) => {
    proc.once('message', (m) => resolve(m as Ready));
    proc.once('exit', (code) => reject(new Error(`simsite child exited with ${code}`)));
  });
  const list = paths(ready.uids);
  await hammer(ready.url, list, WARMUP_MS);
  const t0 = Date.now();
  const r = await hammer(ready.url, list, DURATION_MS);
  const elapsedSec = (Date.now() - t0) / 1000;
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  proc.send('stop');
  await exited;
  return { rps: r.ok / elapsedSec, failed: r.failed, meanBodyKib: Math.round((r.bytes / Math.max(1, r.ok + r.failed) / 1024) * 10) / 10 };
}

async function main(): Promise<void> {
  // Other jobs share this machine; the load average says how much of it the run really had.
  const loadAtStart = Math.round(loadavg()[0]! * 100) / 100;
  const uncached = await measure(0);
  const cached = await measure(10_000);
  const rows = (variant: string, m: Measured) => [
    { system: 'simsite', variant, metric: 'json_responses_per_sec', value: Math.round(m.rps) },
    { system: 'simsite', variant, metric: 'failed_responses', value: m.failed },
    { system: 'simsite', variant, metric: 'mean_body_kib', value: m.meanBodyKib },
  ];
  writeReport(
    'simsite',
    {
      loadavg_1m_at_start: loadAtStart, loadavg_1m_at_end: Math.round(loadavg()[0]! * 100) / 100,
      users: USERS, seed: SEED, connections: CONNECTIONS, duration_ms: DURATION_MS, warmup_ms: WARMUP_MS, speed: 60,
      mix: 'profile, timeline p1, timeline p2, fans p1 of 2,000 active users (8,000 distinct URLs, equal shares, round robin)',
      variants: 'default = response cache 10 s (pages re-rendered when their user posts); no-response-cache = every response rendered',
    },
    [...rows('default', cached), ...rows('no-response-cache', uncached)],
    [goal('simsite json responses_per_sec', '>=', 5000, cached.rps)],
    { note: 'site in a child process, undici Pool load generator in the parent, both on this 2-core machine (loopback), shared with other jobs' },
  );
}

if (process.argv.includes('--child')) void child();
else void main().catch((err) => {
  console.error(err);
  process.exit(1);
});
