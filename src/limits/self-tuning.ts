import { z } from 'zod';
import { timerMs } from '../core/timers';
import { AimdController, type AimdOptions } from './aimd';

/**
 * `politeness.self_tuning`: learn the request rate a site sustains for each origin and identity
 * (token, or the worker's own address) when it never announces one: one AimdController per pair,
 * escalating jittered backoff on refusals (418/429/503 without Retry-After, 432, soft blocks),
 * additive increase while quiet, slowing down when latency climbs (limits/aimd.ts).
 */
export const selfTuningConfigSchema = z.strictObject({
  /** Where every pair starts (requests per second). */
  initial_rate_per_sec: z.number().positive().default(1),
  min_rate_per_sec: z.number().positive().default(0.05),
  max_rate_per_sec: z.number().positive().default(50),
  /** First pause after a refusal; doubles with each refusal in a row, to max_backoff_ms. */
  base_backoff_ms: timerMs(1).default(2_000),
  max_backoff_ms: timerMs(1).default(600_000),
  /** Quiet time after which the backoff starts from base_backoff_ms again. */
  reset_after_quiet_ms: timerMs(1).default(300_000),
});

export type SelfTuningConfig = z.infer<typeof selfTuningConfigSchema>;

/** A pair unused for this long no longer counts towards the learned rate. */
const ACTIVE_MS = 10 * 60_000;

interface Pair {
  aimd: AimdController;
  lastUsedMs: number;
}

export function aimdOptionsOf(c: SelfTuningConfig): Partial<AimdOptions> {
  return {
    initialRatePerSec: c.initial_rate_per_sec, minRatePerSec: c.min_rate_per_sec, maxRatePerSec: c.max_rate_per_sec,
    baseBackoffMs: c.base_backoff_ms, maxBackoffMs: c.max_backoff_ms, resetAfterQuietMs: c.reset_after_quiet_ms,
  };
}

/**
 * The AIMD controllers of one worker, by origin and identity. Each worker learns on its own (the
 * refusals it receives are its own); what it learned is exported as a metric and caps the
 * schedule's budget.
 */
export class SelfTuning {
  private readonly pairs = new Map<string, Pair>();

  constructor(private readonly opts: Partial<AimdOptions>, private readonly random: () => number) {}

  private pair(origin: string, identity: string, nowMs: number): Pair {
    const key = `${origin}\u0000${identity}`;
    let p = this.pairs.get(key);
    if (!p) this.pairs.set(key, (p = { aimd: new AimdController(this.opts, this.random, nowMs), lastUsedMs: nowMs }));
    p.lastUsedMs = nowMs;
    return p;
  }

  /** How long until a request of this pair may go (0: now); nothing is booked. */
  waitMs(origin: string, identity: string, nowMs: number): number {
    return this.pair(origin, identity, nowMs).aimd.nextSendAtMs(nowMs, false) - nowMs;
  }

  /** Books the pair's next slot; returns how long to wait for it. */
  book(origin: string, identity: string, nowMs: number): number {
    return this.pair(origin, identity, nowMs).aimd.nextSendAtMs(nowMs, true) - nowMs;
  }

  success(origin: string, identity: string, nowMs: number, latencyMs?: number): void {
    this.pair(origin, identity, nowMs).aimd.onSuccess(nowMs, latencyMs);
  }

  /** Whether a refusal counted after `sinceMs` (a slot booked before it was booked at a rate the site refused). */
  refusedSince(origin: string, identity: string, sinceMs: number): boolean {
    return this.pair(origin, identity, sinceMs).aimd.lastRefusalMs > sinceMs;
  }

  /** A refusal of a request sent at `sentAtMs`; `retryAfterMs` only when the site announced it. */
  refusal(origin: string, identity: string, nowMs: number, sentAtMs: number, retryAfterMs?: number): void {
    this.pair(origin, identity, nowMs).aimd.onRefusal(nowMs, sentAtMs, retryAfterMs);
  }

  /**
   * What the site allows this worker now, requests per second, summed over the pairs used lately;
   * `learned` only once every one of them has met a refusal (before that the site said nothing).
   */
  sustainable(nowMs: number): { requestsPerSec: number; learned: boolean } {
    let sum = 0;
    let learned = true;
    let any = false;
    for (const p of this.pairs.values()) {
      if (nowMs - p.lastUsedMs > ACTIVE_MS) continue;
      any = true;
      sum += p.aimd.sustainableRatePerSec;
      if (p.aimd.snapshot().ceilingPerSec === null) learned = false;
    }
    return { requestsPerSec: sum, learned: any && learned };
  }
}
