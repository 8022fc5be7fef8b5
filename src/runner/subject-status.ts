import type { Client } from '@elastic/elasticsearch';
import type { SubjectState } from '../core/envelope';
import { ErrorCodes } from '../core/errors';
import type { Logger } from '../core/logger';
import type { Metrics } from '../core/metrics';
import { bulkItemKind, sendBulk } from '../sinks/bulk';

export interface SubjectDocRef {
  /** Logical index (`users`) and document id, as the parser emitted the subject's profile. */
  index: string;
  id: string;
}

export interface SubjectStatusDeps {
  client: Client;
  indexPrefix: string;
  logger: Logger;
  metrics: Metrics;
  /** The schedule's estimate of the subject's posts per hour (poisson only). */
  rateOf?: (state: SubjectState) => number | undefined;
  flushIntervalMs?: number;
  maxBatch?: number;
  /** One bulk request's time limit (default 60 s); a request that fails is sent again with the next flush. */
  requestTimeoutMs?: number;
}

const STAGE = 'subject_status';

/** The crawl fields of a profile document (mappings/users.json) once the schedule has decided. */
export function subjectStatusFields(state: SubjectState, nextDueMs: number, rate: number | undefined): Record<string, unknown> {
  const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
  return {
    status: state.status,
    first_seen: iso(state.firstSeenMs),
    last_visit: iso(state.lastVisitMs),
    last_post_at: iso(state.lastPostMs),
    // Negative: never again (gone, dead).
    next_visit: nextDueMs < 0 ? null : iso(nextDueMs),
    rate_per_hour: rate === undefined || !Number.isFinite(rate) ? null : Math.round(rate * 1e4) / 1e4,
  };
}

/**
 * Writes each visited subject's schedule (status, last and next visit, estimated post rate) onto
 * its profile document, so the Crawl dashboard shows them. The profile is emitted by the parser
 * before the schedule decides, so these are partial updates sent after the ack, batched, latest
 * per document wins. A profile that was never indexed (dropped) is skipped; a failed request keeps
 * its updates for the next flush.
 */
export class SubjectStatusWriter {
  private pending = new Map<string, { ref: SubjectDocRef; fields: Record<string, unknown> }>();
  private flushing: Promise<void> | undefined;
  private readonly timer: NodeJS.Timeout;
  private warned = false;

  constructor(private readonly deps: SubjectStatusDeps) {
    this.timer = setInterval(() => void this.flush(), deps.flushIntervalMs ?? 1000);
    this.timer.unref();
  }

  scheduled(ref: SubjectDocRef, state: SubjectState, nextDueMs: number): void {
    this.pending.set(`${ref.index}\u0000${ref.id}`, { ref, fields: subjectStatusFields(state, nextDueMs, this.deps.rateOf?.(state)) });
    if (this.pending.size >= (this.deps.maxBatch ?? 500)) void this.flush();
  }

  /** Sends what is pending (one request at a time). */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    this.flushing = this.send(batch).finally(() => {
      this.flushing = undefined;
    });
    await this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private async send(batch: Map<string, { ref: SubjectDocRef; fields: Record<string, unknown> }>): Promise<void> {
    const entries = [...batch.entries()];
    const ndjson = entries.map(([, { ref, fields }]) => `${JSON.stringify({ update: { _index: `${this.deps.indexPrefix}${ref.index}`, _id: ref.id, retry_on_conflict: 3 } })}\n${JSON.stringify({ doc: fields })}\n`).join('');
    try {
      const items = await sendBulk(this.deps.client, Buffer.from(ndjson, 'utf8'), this.deps.requestTimeoutMs ?? 60_000);
      entries.forEach(([key, value], i) => {
        const status = items[i]?.status ?? 500;
        const kind = bulkItemKind(status);
        // 404: the profile never reached the index (dropped by a filter, or dead-lettered).
        if (kind === 'ok' || status === 404) return;
        if (kind !== 'non_retryable') {
          if (!this.pending.has(key)) this.pending.set(key, value);
          return;
        }
        this.deps.metrics.errors.inc({ stage: STAGE, code: ErrorCodes.searchItemRejected });
        if (!this.warned) this.deps.logger.warn({ code: ErrorCodes.searchItemRejected, status, reason: items[i]?.error?.reason }, 'profile schedule update rejected');
        this.warned = true;
      });
    } catch (err) {
      this.deps.metrics.errors.inc({ stage: STAGE, code: ErrorCodes.searchUnreachable });
      this.deps.logger.warn({ code: ErrorCodes.searchUnreachable, err: (err as Error).message, updates: entries.length }, 'profile schedule updates failed; retrying with the next flush');
      // Newer updates that arrived meanwhile win.
      for (const [key, value] of entries) if (!this.pending.has(key)) this.pending.set(key, value);
    }
  }
}
