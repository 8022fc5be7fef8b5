import type { Clock } from '../core/clock';
import { ErrorCodes } from '../core/errors';
import type { Logger } from '../core/logger';
import { redisOutageDelayMs } from '../core/retry';
import type { AckItem, JobLeases, ThroughputCounter } from '../sources/contract';

/**
 * Batches acknowledgements into one Redis round trip (pipelined Lua calls) instead of one per
 * job, and keeps retrying while Redis is away: an ack is never dropped, credits are released only
 * once the frontier has it. A batch is what came in during one turn of the event loop (a bulk
 * response settles its jobs in one turn) and, while a batch is being stored, everything that
 * comes meanwhile (group commit): an ack waits for no timer, because every job waiting on it
 * holds a credit, and a fixed 20 ms wait was ~10 % of a job's life in the throughput benchmark
 * (JSON timelines into the search node, credits all spent). The per-minute throughput counters are
 * a status gauge, not state: they are added up here and written at most once per `countEveryMs`
 * (and on drain), because a write per ack batch cost as much CPU as the acks themselves (profile
 * of the throughput benchmark).
 */
export class Acker {
  private queue: { item: AckItem; resolve: (owned: boolean) => void }[] = [];
  private scheduled: NodeJS.Immediate | NodeJS.Timeout | undefined;
  /** The batch being stored, if any: the next one waits for it (acks stay in order). */
  private storing: Promise<void> | undefined;
  private pendingVisits = 0;
  private pendingDocs = 0;
  private lastCountMs = -Infinity;

  /**
   * `maxBatch`: a batch is stored as soon as it holds that many; `maxWaitMs`: how long a batch
   * waits for more (0: until the end of the current turn of the event loop).
   */
  constructor(
    private readonly frontier: Pick<JobLeases, 'ack'> & ThroughputCounter,
    private readonly deps: { clock: Clock; logger: Logger; sleep(ms: number): Promise<void> },
    private readonly maxBatch = 128,
    private readonly maxWaitMs = 0,
    private readonly countEveryMs = 1000,
  ) {}

  /** Resolves once the ack is stored; true if the lease was still ours. */
  ack(item: AckItem): Promise<boolean> {
    return new Promise((resolve) => {
      this.queue.push({ item, resolve });
      if (this.queue.length >= this.maxBatch) this.kick();
      else if (!this.scheduled) this.scheduled = this.maxWaitMs > 0 ? setTimeout(() => this.kick(), this.maxWaitMs) : setImmediate(() => this.kick());
    });
  }

  private kick(): void {
    this.unschedule();
    // A store in flight: this batch goes when it ends, with whatever else came meanwhile.
    if (this.storing || this.queue.length === 0) return;
    const batch = this.queue.splice(0, this.maxBatch);
    this.storing = this.store(batch).finally(() => {
      this.storing = undefined;
      if (this.queue.length > 0) this.kick();
    });
  }

  private unschedule(): void {
    if (this.scheduled === undefined) return;
    clearTimeout(this.scheduled as NodeJS.Timeout);
    clearImmediate(this.scheduled as NodeJS.Immediate);
    this.scheduled = undefined;
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

  /** Stores every ack given so far, then the throughput counts. */
  async drain(): Promise<void> {
    this.kick();
    while (this.storing) await this.storing;
    await this.writeCounts();
  }
}
