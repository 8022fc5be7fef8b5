/**
 * Self-tuning politeness for one key (an origin, or an identity at an origin): learns the request
 * rate a site sustains when it never says so (418/429/503 without Retry-After, soft blocks).
 *
 * - Refused: the rate drops multiplicatively, the key pauses with an escalating, jittered backoff
 *   (base × 2^(n−1), capped), and the rate it was refused at becomes the ceiling estimate. A
 *   Retry-After, when given, is the pause instead. Refusals of requests sent before the pause
 *   began (in flight) neither lower the rate again nor escalate.
 * - Quiet: every `increaseIntervalMs` without refusal the rate grows — by half the distance to the
 *   ceiling while far below it, by a small probe step close to it (so a capacity is approached fast
 *   and overrun rarely), multiplicatively before the first refusal (slow start). After a long quiet
 *   time at the ceiling the ceiling itself is probed upwards (capacities change). The backoff level
 *   resets after `resetAfterQuietMs` without refusal.
 * - Latency: when the smoothed latency climbs above `latencyFactor` × its best value (and above
 *   `latencyFloorMs`), the rate backs off gently (the site is struggling before it refuses).
 *
 * Pure: time comes from the `nowMs` arguments, randomness from the injected `random`.
 */
export interface AimdOptions {
  initialRatePerSec: number;
  minRatePerSec: number;
  maxRatePerSec: number;
  /** Rate factor on a refusal (0.85: a gentle cut keeps the rate near a found ceiling). */
  decreaseFactor: number;
  /** Rate factor per interval before the first refusal. */
  slowStartFactor: number;
  increaseIntervalMs: number;
  /** Probe step near the ceiling, as a share of it. */
  probeShare: number;
  /** Below the ceiling by more than this share: jump half the distance instead of probing. */
  nearCeilingShare: number;
  baseBackoffMs: number;
  maxBackoffMs: number;
  /** ±share of jitter on each backoff pause. */
  jitterShare: number;
  resetAfterQuietMs: number;
  /** Successes in a row that end a run of refusals: the next refusal is a probe overshoot, not a block. */
  resetAfterSuccesses: number;
  /** Rate factor on a refusal that follows another without enough successes between (still above capacity). */
  repeatDecreaseFactor: number;
  /** Quiet time at the ceiling after which the ceiling is raised by `probeShare` × 5. */
  ceilingReprobeMs: number;
  /** Smoothed latency above this × the best seen slows the rate. */
  latencyFactor: number;
  /**
   * ...and above this: a few ms growing to tens is the client's own load (a busy machine, its own
   * indexing), not a site struggling, and slowing down cannot cure it: the rate would sink to the
   * minimum with no refusal at all.
   */
  latencyFloorMs: number;
  /** EWMA weight of a new latency sample. */
  latencyAlpha: number;
}

export const DEFAULT_AIMD: AimdOptions = {
  initialRatePerSec: 1,
  minRatePerSec: 0.05,
  maxRatePerSec: 50,
  decreaseFactor: 0.85,
  slowStartFactor: 1.5,
  increaseIntervalMs: 2_000,
  probeShare: 0.01,
  nearCeilingShare: 0.05,
  baseBackoffMs: 2_000,
  maxBackoffMs: 10 * 60_000,
  jitterShare: 0.2,
  resetAfterQuietMs: 5 * 60_000,
  resetAfterSuccesses: 3,
  repeatDecreaseFactor: 0.5,
  ceilingReprobeMs: 5 * 60_000,
  latencyFactor: 2,
  latencyFloorMs: 200,
  latencyAlpha: 0.2,
};

export interface AimdSnapshot {
  ratePerSec: number;
  /** The rate refusals began at (the learned capacity estimate), null before the first refusal. */
  ceilingPerSec: number | null;
  backoffLevel: number;
  pausedUntilMs: number;
  refusals: number;
}

export class AimdController {
  private readonly o: AimdOptions;
  private rate: number;
  private ceiling: number | null = null;
  private level = 0;
  private pausedUntil = 0;
  private nextSlot = 0;
  private lastChange: number;
  private lastRefusal = -Infinity;
  private refusalCount = 0;
  private successesSinceRefusal = Infinity;
  private lastReprobe = -Infinity;
  private latency: number | null = null;
  private bestLatency = Infinity;

  constructor(opts: Partial<AimdOptions>, private readonly random: () => number, startMs: number) {
    this.o = { ...DEFAULT_AIMD, ...opts };
    if (!(this.o.minRatePerSec > 0 && this.o.minRatePerSec <= this.o.maxRatePerSec)) throw new RangeError('AIMD: need 0 < minRatePerSec <= maxRatePerSec');
    if (!(this.o.decreaseFactor > 0 && this.o.decreaseFactor < 1)) throw new RangeError('AIMD: decreaseFactor must lie in (0, 1)');
    this.rate = clamp(this.o.initialRatePerSec, this.o.minRatePerSec, this.o.maxRatePerSec);
    this.lastChange = startMs;
  }

  /** The earliest time the next request may be sent; `take` books that slot. */
  nextSendAtMs(nowMs: number, take = true): number {
    const at = Math.max(nowMs, this.pausedUntil, this.nextSlot);
    if (take) this.nextSlot = at + 1000 / this.rate;
    return at;
  }

  /** An answer that was no refusal; `latencyMs` when measured. */
  onSuccess(nowMs: number, latencyMs?: number): void {
    if (latencyMs !== undefined && latencyMs >= 0) {
      this.latency = this.latency === null ? latencyMs : this.latency + this.o.latencyAlpha * (latencyMs - this.latency);
      this.bestLatency = Math.min(this.bestLatency, this.latency);
    }
    this.successesSinceRefusal += 1;
    if (nowMs - this.lastRefusal >= this.o.resetAfterQuietMs) this.level = 0;
    if (nowMs - this.lastChange < this.o.increaseIntervalMs) return;
    this.lastChange = nowMs;
    if (this.latency !== null && this.bestLatency > 0 && this.latency > this.o.latencyFactor * this.bestLatency && this.latency > this.o.latencyFloorMs) {
      this.setRate(this.rate * 0.9);
      return;
    }
    const c = this.ceiling;
    if (c === null) {
      this.setRate(this.rate * this.o.slowStartFactor);
      return;
    }
    if (this.rate >= c) {
      // At the ceiling: hold, and only after a long quiet time try a little higher (capacities change).
      if (nowMs - this.lastRefusal < this.o.ceilingReprobeMs || nowMs - this.lastReprobe < this.o.ceilingReprobeMs) return;
      this.lastReprobe = nowMs;
      this.ceiling = c * (1 + 5 * this.o.probeShare);
      return;
    }
    const gap = c - this.rate;
    this.setRate(Math.min(c, this.rate + (gap > this.o.nearCeilingShare * c ? gap / 2 : this.o.probeShare * c)));
  }

  /**
   * A refusal (418/429/503, or a soft block). `sentAtMs`: when the refused request was sent, so a
   * refusal of a request already in flight when the pause began is not counted twice.
   */
  onRefusal(nowMs: number, sentAtMs: number, retryAfterMs?: number): void {
    this.refusalCount += 1;
    if (sentAtMs < this.lastRefusal) return;
    // A refusal right after another (too few successes between) means the rate is still above what
    // the site allows: cut hard and escalate. One after a good run is a probe that went a little too
    // far: cut gently and start the backoff over. Either way the refused rate bounds the capacity.
    const repeated = this.successesSinceRefusal < this.o.resetAfterSuccesses;
    // A refusal at the ceiling lowers it a little each time, so it settles just under the capacity.
    const bound = this.ceiling === null ? this.rate : Math.min(this.ceiling, this.rate);
    this.ceiling = repeated ? bound : bound * (1 - 2 * this.o.probeShare);
    this.setRate(this.rate * (repeated ? this.o.repeatDecreaseFactor : this.o.decreaseFactor));
    this.level = repeated ? this.level + 1 : 1;
    this.successesSinceRefusal = 0;
    const backoff = Math.min(this.o.maxBackoffMs, this.o.baseBackoffMs * 2 ** (this.level - 1));
    const jittered = backoff * (1 + this.o.jitterShare * (2 * this.random() - 1));
    this.pausedUntil = Math.max(this.pausedUntil, nowMs + (retryAfterMs !== undefined && retryAfterMs >= 0 ? retryAfterMs : jittered));
    this.nextSlot = Math.max(this.nextSlot, this.pausedUntil);
    this.lastRefusal = nowMs;
    this.lastChange = nowMs;
  }

  /** When the last refusal that counted arrived (-Infinity before any). */
  get lastRefusalMs(): number {
    return this.lastRefusal;
  }

  /** The learned sustainable rate (what the scheduler's budget should follow). */
  get sustainableRatePerSec(): number {
    return this.ceiling === null ? this.rate : Math.min(this.rate, this.ceiling);
  }

  snapshot(): AimdSnapshot {
    return { ratePerSec: this.rate, ceilingPerSec: this.ceiling, backoffLevel: this.level, pausedUntilMs: this.pausedUntil, refusals: this.refusalCount };
  }

  private setRate(r: number): void {
    this.rate = clamp(r, this.o.minRatePerSec, this.o.maxRatePerSec);
  }
}

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}
