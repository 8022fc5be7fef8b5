import type { Cluster, Redis } from 'ioredis';
import type { Clock } from '../core/clock';

/** One hash per crawl: worker id → its last report (JSON). */
export function workersKey(namespace: string): string {
  return `${namespace}:workers`;
}

/** What a running worker says about itself every second or so. */
export interface WorkerReport {
  worker: string;
  host: string;
  pid: number;
  startedAtMs: number;
  atMs: number;
  /** The run's counts so far (the runner's progress: requests sent and refused, documents, failures, claims). */
  progress: Record<string, unknown>;
}

type RedisLike = Pick<Redis, 'hset' | 'hdel' | 'hgetall' | 'pexpire'> | Pick<Cluster, 'hset' | 'hdel' | 'hgetall' | 'pexpire'>;

/** A report older than this is a worker that died without saying so: left out and removed. */
const FORGET_MS = 3_600_000;

/**
 * The live workers of a crawl as they report themselves, so that one place (`freshet serve`) shows
 * the counts of every worker: requests, documents, failures, whether it is paused.
 */
export class WorkerReports {
  constructor(private readonly redis: RedisLike, private readonly namespace: string, private readonly clock: Clock) {}

  async write(report: WorkerReport): Promise<void> {
    const key = workersKey(this.namespace);
    await this.redis.hset(key, report.worker, JSON.stringify(report));
    await this.redis.pexpire(key, FORGET_MS);
  }

  async remove(worker: string): Promise<void> {
    await this.redis.hdel(workersKey(this.namespace), worker);
  }

  /** Reports newer than `maxAgeMs` (live workers); much older ones are removed. */
  async read(maxAgeMs: number): Promise<WorkerReport[]> {
    const now = this.clock.nowMs();
    const h = await this.redis.hgetall(workersKey(this.namespace));
    const out: WorkerReport[] = [];
    const stale: string[] = [];
    for (const [worker, json] of Object.entries(h)) {
      let r: WorkerReport | undefined;
      try {
        r = JSON.parse(json) as WorkerReport;
      } catch {
        r = undefined;
      }
      if (!r || now - r.atMs > FORGET_MS) stale.push(worker);
      else if (now - r.atMs <= maxAgeMs) out.push(r);
    }
    if (stale.length > 0) await this.redis.hdel(workersKey(this.namespace), ...stale);
    return out.sort((a, b) => a.startedAtMs - b.startedAtMs);
  }
}
