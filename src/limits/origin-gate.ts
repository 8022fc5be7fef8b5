import { randomBytes } from 'node:crypto';
import { ErrorCodes, FreshetError } from '../core/errors';
import type { OriginRelease, PolitenessGate } from '../fetchers/contract';
import type { PoliteSlot, SlotRequest } from './origin-politeness';

/** How often a request waiting for a busy origin asks again. */
const POLITE_POLL_MS = 25;

/** What the gate asks of the shared per-origin state (OriginPoliteness in Redis). */
export interface OriginSlots {
  reserve(origin: string, p: SlotRequest): Promise<PoliteSlot>;
  release(origin: string, holder: string): Promise<void>;
}

export interface OriginGateOptions {
  /** Minimum gap between two requests to one origin, across every worker. */
  minDelayMs: number;
  /** A slot further away than this is not waited for: a throttled error reschedules the subject. */
  maxWaitMs: number;
  /** Requests in flight to one origin at once across every worker (0: no cap). */
  maxConcurrency: number;
  /** A concurrency slot expires after this long whatever happens to this worker. */
  holdMs: number;
  /** robots.txt's Crawl-delay for an origin, when known: it raises the minimum gap. */
  crawlDelayMs?: (origin: string) => number | undefined;
  sleep(ms: number): Promise<void>;
}

/**
 * Waits for an origin's slot (minimum delay, robots Crawl-delay, concurrency), all kept in Redis
 * so they hold across workers. A slot too far away throws a throttled error: the subject is
 * rescheduled, not waited for.
 */
export class OriginGate implements PolitenessGate {
  private readonly holderPrefix = randomBytes(6).toString('hex');
  private holderSeq = 0;

  constructor(private readonly slots: OriginSlots, private readonly opts: OriginGateOptions) {}

  acquire(origin: string): Promise<OriginRelease | undefined> | undefined {
    const o = this.opts;
    const minDelayMs = Math.max(o.minDelayMs, o.crawlDelayMs?.(origin) ?? 0);
    // No delay and no concurrency cap (the common case): no slot to wait for, and no promise for it.
    if (minDelayMs === 0 && o.maxConcurrency === 0) return undefined;
    return this.slot(origin, minDelayMs);
  }

  private async slot(origin: string, minDelayMs: number): Promise<OriginRelease | undefined> {
    const o = this.opts;
    const holder = o.maxConcurrency > 0 ? `${this.holderPrefix}:${this.holderSeq++}` : '';
    for (let waitedMs = 0; ;) {
      const slot = await this.slots.reserve(origin, { minDelayMs, maxWaitMs: o.maxWaitMs - waitedMs, maxConcurrency: o.maxConcurrency, holder, holdMs: o.holdMs });
      if (slot.kind === 'taken') return holder === '' ? undefined : () => this.slots.release(origin, holder).catch(() => undefined);
      if (slot.kind === 'too_far' || waitedMs >= o.maxWaitMs) {
        const retryAfterMs = slot.kind === 'too_far' ? slot.waitMs : 1000;
        throw new FreshetError(ErrorCodes.fetchThrottled, 'throttled', 'origin busy (politeness)', { origin }, undefined, retryAfterMs);
      }
      const pauseMs = slot.kind === 'wait' ? slot.waitMs : POLITE_POLL_MS;
      await o.sleep(pauseMs);
      waitedMs += pauseMs;
    }
  }
}
