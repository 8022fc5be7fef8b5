import { ErrorCodes, FreshetError } from '../core/errors';
import type { TokenQuota } from './token-quota';

export interface PoolSlotOptions {
  quota: TokenQuota;
  /** A wait for a free member longer than this reschedules the subject instead of holding its slot. */
  maxWaitMs: number;
  sleep(ms: number): Promise<void>;
  /** Which member to try first, asked again before each take; none: the quota's round robin. */
  order?: () => readonly number[];
  /** The throttled error's message and fields once the wait would pass `maxWaitMs`. */
  exhausted: { message: string; fields: Record<string, unknown> };
}

/** The index of a pool member (identity or proxy) with quota left, waiting for one within `maxWaitMs`. */
export async function takePoolSlot(o: PoolSlotOptions): Promise<number> {
  for (let waitedMs = 0; ;) {
    const slot = await o.quota.take(o.order?.());
    if (slot.kind === 'taken') return slot.index;
    if (waitedMs + slot.waitMs > o.maxWaitMs) {
      throw new FreshetError(ErrorCodes.quotaExhausted, 'throttled', o.exhausted.message, { ...o.exhausted.fields }, undefined, slot.waitMs);
    }
    await o.sleep(slot.waitMs);
    waitedMs += slot.waitMs;
  }
}
