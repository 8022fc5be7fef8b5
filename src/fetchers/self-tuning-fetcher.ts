import type { Clock } from '../core/clock';
import { ErrorCodes, FreshetError } from '../core/errors';
import type { SelfTuning } from '../limits/self-tuning';
import type { Fetcher, FetchMetrics, FetchRequest, FetchResponse } from './contract';

/** Statuses by which a site refuses a client's rate (432: the microblog's rejected client). */
const REFUSED = new Set([418, 429, 432, 503]);
/** Slots given up to refusals that came while waiting, before the subject is rescheduled instead. */
const MAX_REBOOKINGS = 3;

export interface SelfTuningFetcherOptions {
  /** Learned rates per origin and identity; none: soft blocks are only recognised and counted. */
  tuning?: SelfTuning;
  /** A slot further away than this is not waited for: the subject is rescheduled. */
  maxWaitMs: number;
  clock: Clock;
  sleep(ms: number): Promise<void>;
  metrics?: FetchMetrics;
}

const originOf = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
};

/**
 * The fetch layer's view of refusals: each request waits for its (origin, identity) pair's
 * self-tuned slot; an answer that refuses the client (418/429/432/503, or a soft block the parser
 * recognises in a 200 body) slows that pair down and, for a soft block, is counted by reason and
 * thrown as the throttled error the parser gave (the identity pool around this benches the identity).
 */
export class SelfTuningFetcher implements Fetcher {
  constructor(private readonly inner: Fetcher, private readonly o: SelfTuningFetcherOptions) {}

  robotsCrawlDelayMs(origin: string): number | undefined {
    return this.inner.robotsCrawlDelayMs?.(origin);
  }

  robotsSitemaps(origin: string): Promise<string[]> | undefined {
    return this.inner.robotsSitemaps?.(origin);
  }

  /**
   * Books the pair's next slot and waits for it. A refusal that arrives while this request waits
   * (another request of the pair was refused) paused the pair and cut its rate: the slot was booked
   * at a rate the site refuses, so a new one is taken. Sent anyway, the request would be refused
   * too, and each such refusal would escalate the backoff (minutes of silence after one burst).
   */
  private async waitForSlot(tuning: SelfTuning, origin: string, identity: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const now = this.o.clock.nowMs();
      const wait = tuning.waitMs(origin, identity, now);
      if (wait > this.o.maxWaitMs || attempt >= MAX_REBOOKINGS) {
        throw new FreshetError(ErrorCodes.fetchThrottled, 'throttled', 'self-tuned rate: the next slot is too far', { identity }, undefined, wait);
      }
      const booked = tuning.book(origin, identity, now);
      if (booked > 0) await this.o.sleep(booked);
      if (!tuning.refusedSince(origin, identity, now)) return;
    }
  }

  async fetch(req: FetchRequest, signal?: AbortSignal): Promise<FetchResponse> {
    const { tuning, clock } = this.o;
    const origin = originOf(req.url);
    const identity = req.identity ?? '-';
    if (tuning) await this.waitForSlot(tuning, origin, identity);
    const sentAtMs = clock.nowMs();
    let res: FetchResponse;
    try {
      res = await this.inner.fetch(req, signal);
    } catch (err) {
      const status = err instanceof FreshetError ? err.fields['status'] : undefined;
      if (typeof status === 'number' && REFUSED.has(status)) {
        if (status === 432) this.o.metrics?.softBlocks?.('client_rejected');
        const announced = (err as FreshetError).fields['retry_after_ms'];
        tuning?.refusal(origin, identity, clock.nowMs(), sentAtMs, typeof announced === 'number' ? announced : undefined);
      }
      throw err;
    }
    const soft = req.softBlockOf?.({ url: res.url, status: res.status, text: res.text });
    if (soft) {
      this.o.metrics?.softBlocks?.(soft.reason);
      tuning?.refusal(origin, identity, clock.nowMs(), sentAtMs);
      throw soft.error;
    }
    tuning?.success(origin, identity, clock.nowMs(), res.elapsedMs);
    return res;
  }
}
