import type { Clock } from '../core/clock';
import { ErrorCodes } from '../core/errors';
import type { Logger } from '../core/logger';
import { redisOutageDelayMs } from '../core/retry';
import type { AckItem, JobLeases, ThroughputCounter } from '../sources/contract';

/**
 * Batches acknowledgements into one Redis round trip (pipelined Lua calls) instead of one per
 * job, and keeps retrying while Redis is away: an ack is never dropped, credits are released only
 * once the frontier has it. The per-minute throughput counters are a status gauge, not state: they
 * are added up here and written at most once per `countEveryMs` (and on drain), because a write
 * per ack batch cost as much CPU as the acks themselves (profile of the throughput benchmark).
 */
export class Acker {
  private queue: { item: AckItem; resolve: (owned: boolean) => void }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private pendingVisits = 0;
  private pendingDocs = 0;
  private lastCountMs = -Infinity;

  constructor(
    private readonly frontier: Pick<JobLeases, 'ack'> & ThroughputCounter,
    private readonly deps: { clock: Clock; logger: Logger; sleep(ms: number): Promise<void> },
    private readonly maxBatch = 128,
    private readonly maxWaitMs = 20,
    private readonly countEveryMs = 1000,
  ) {}

  /** Resolves once the ack is stored; true if the lease was still ours. */
  ack(item: AckItem): Promise<boolean> {
    return new Promise((resolve) => {
      this.queue.push({ item, resolve });
      if (this.queue.length >= this.maxBatch) this.kick();
      else if (!this.timer) this.timer = setTimeout(() => this.kick(), this.maxWaitMs);
    });
  }

  private kick(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    this.flushing = this.flushing.then(() => this.store(batch));
  }

  private async store(batch: { item: AckItem; resolve: (owned: boolean) => void }[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        const owned = await this.frontier.ack(batch.map((b) => b.item));
        if (attempt > 1) this.deps.logger.info({ attempts: attempt }, 'Redis reachable again; acknowledgements stored');
        batch.forEach((b, i) => b.resolve(owned[i] ?? false));
        this.pendingVisits += batch.length;
        this.pendingDocs += batch.reduce((n, b) => n + (b.item.docs ?? 0), 0);
        if (this.deps.clock.nowMs() - this.lastCountMs >= this.countEveryMs) await this.writeCounts();
        return;
      } catch (err) {
        if (attempt === 1) this.deps.logger.warn({ code: ErrorCodes.redisUnavailable, err: (err as Error).message, jobs: batch.length }, 'ack failed; retrying until Redis answers');
        await this.deps.sleep(redisOutageDelayMs(attempt));
      }
    }
  }

  /** A failed counter write keeps its counts for the next one; it never holds acks or credits. */
  private async writeCounts(): Promise<void> {
    const visits = this.pendingVisits;
    const docs = this.pendingDocs;
    if (visits === 0 && docs === 0) return;
    this.pendingVisits = 0;
    this.pendingDocs = 0;
    this.lastCountMs = this.deps.clock.nowMs();
    try {
      await this.frontier.countThroughput(visits, docs);
    } catch (err) {
      this.pendingVisits += visits;
      this.pendingDocs += docs;
      this.deps.logger.debug({ err: (err as Error).message }, 'throughput counters not written; kept for the next write');
    }
  }

  async drain(): Promise<void> {
    this.kick();
    this.flushing = this.flushing.then(() => this.writeCounts());
    await this.flushing;
  }
}
