import { setTimeout as sleep } from 'node:timers/promises';
import { systemClock } from '../../../src/core/clock';
import { silentLogger } from '../../../src/core/logger';
import { createMetrics } from '../../../src/core/metrics';
import { seededRng } from '../../../src/core/rng';
import { parsePipeline } from '../../../src/pipeline/load';
import { buildPipeline } from '../../../src/runner/build';
import { createWorld, startSimsite } from '../../../src/simsite';
import { AcceleratedClock } from '../../../src/simsite/clock';
import type { SoftErrorKind } from '../../../src/simsite/faults';
import type { BenchServices } from './services';

const MINUTE_MS = 60_000;

export interface CapacityOptions {
  worldSeed: number;
  users: number;
  /** The unannounced per-client capacity (simulated requests per second) and its burst. */
  requestsPerSec: number;
  burst: number;
  /** Over capacity: 418 with no Retry-After, or a soft block in a 200 body. */
  refuseWith: 418 | SoftErrorKind;
  /** Simulated ms per real ms (the crawler and simsite's token bucket share the simulated clock). */
  speed: number;
  minutes: number;
}

export interface CapacityResult {
  /** Per simulated minute: answered (not refused) and refused requests. */
  okPerMinute: number[];
  refusedPerMinute: number[];
  requests: number;
  elapsedMs: number;
}

/**
 * The crawler with self-tuning politeness on (defaults) against a per-client capacity it is never
 * told, through runner, Redis and the search node; simsite's token bucket and the crawler run on
 * one accelerated clock, so simulated minutes pass `speed` times faster. Measured from simsite's
 * request log.
 */
export async function runCapacity(svc: BenchServices, o: CapacityOptions): Promise<CapacityResult> {
  const started = Date.now();
  const world = createWorld({ seed: o.worldSeed, users: o.users, historyDays: 3 });
  const clock = new AcceleratedClock(world.startMs, o.speed, systemClock);
  const soft = o.refuseWith !== 418;
  const site = await startSimsite({
    world, clock, realClock: clock, port: 0, weibo: { era: 'modern2022' }, requestLogMaxEntries: 2_000_000,
    faults: {
      pathPrefixes: ['/api/', '/statuses/'],
      rateLimit: { requestsPerSec: o.requestsPerSec, burst: o.burst, status: 418, retryAfterSec: null, ...(soft ? { softKind: o.refuseWith as SoftErrorKind } : {}) },
    },
  });
  const { prefix, namespace } = svc.names(`capacity-${String(o.refuseWith)}`);
  try {
    const seeds = world.users.map((u) => `weibo:user:${u.uid}`);
    // More work than the capacity allows: every user's history, many visits in flight.
    const config = parsePipeline(`name: social-capacity
seeds: ${JSON.stringify(seeds)}
source: { type: redis_frontier, max_in_flight: 16, poll_interval_ms: 20, lease_secs: 600 }
fetch: { type: http_fetch, allow_private_networks: true, respect_robots: false, retry: { max_attempts: 1 } }
politeness: { self_tuning: {} }
parse: { type: weibo_api, base_url: ${site.url}, first_visit_page_limit: 50, long_text: false, post_metrics: false }
sink: { type: elasticsearch, flush_interval_ms: 200, replicas: 0 }
schedule: { type: fixed_interval, interval_secs: 3600 }
`, 'social-capacity.yaml');
    const built = await buildPipeline(config, {
      redis: svc.redis, search: svc.search, indexPrefix: prefix, mappingsDir: svc.mappingsDir, clock, rng: seededRng(o.worldSeed),
      logger: silentLogger, metrics: createMetrics(), sleep: (ms: number) => sleep(ms / o.speed), namespace,
    });
    const t0 = clock.nowMs();
    await built.runner.run({ durationMs: (o.minutes * MINUTE_MS) / o.speed });
    await built.close();
    const okPerMinute = new Array<number>(o.minutes).fill(0);
    const refusedPerMinute = new Array<number>(o.minutes).fill(0);
    const log = site.requestLog.entries();
    for (const e of log) {
      const m = Math.floor((e.simMs - t0) / MINUTE_MS);
      if (m < 0 || m >= o.minutes) continue;
      if (e.fault === 'rateLimit' || e.fault === 'softError') refusedPerMinute[m]! += 1;
      else okPerMinute[m]! += 1;
    }
    if (site.requestLog.stats().dropped > 0) throw new Error('simsite request log overflowed: raise requestLogMaxEntries');
    return { okPerMinute, refusedPerMinute, requests: log.length, elapsedMs: Date.now() - started };
  } finally {
    await site.close();
  }
}
