import type { Rng } from '../core/rng';
import { expSample, streamRng } from './random';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const CHINA_OFFSET_MS = 8 * HOUR_MS;

/** Time-of-day modulation of posting rates: 1 + amplitude·cos(2π(h − peakHour)/24), China time. */
export interface DiurnalOptions {
  amplitude: number;
  peakHourChina: number;
}

export const DEFAULT_DIURNAL: DiurnalOptions = { amplitude: 0.8, peakHourChina: 21 };

export function diurnalFactor(ms: number, d: DiurnalOptions): number {
  const hour = (((ms + CHINA_OFFSET_MS) % DAY_MS) + DAY_MS) % DAY_MS / HOUR_MS;
  return 1 + d.amplitude * Math.cos((2 * Math.PI * (hour - d.peakHourChina)) / 24);
}

/**
 * One user's posting process: a (possibly diurnal) Poisson process from the history start, extended
 * lazily. Its own RNG stream makes the event times independent of how far or in what steps it is extended.
 */
export class PostingProcess {
  readonly times: number[] = [];
  private readonly rng: Rng;
  private candidateMs: number;
  private readonly ratePerMs: number;

  constructor(
    seed: number,
    userIndex: number,
    historyStartMs: number,
    postsPerDay: number,
    private readonly diurnal: DiurnalOptions | null,
  ) {
    this.rng = streamRng(seed, 0x9057, userIndex);
    this.ratePerMs = (postsPerDay / DAY_MS) * (diurnal ? 1 + diurnal.amplitude : 1);
    this.candidateMs = historyStartMs;
  }

  /** Generates events up to and including `untilMs`; events fall on whole seconds. */
  extendTo(untilMs: number): void {
    while (this.candidateMs <= untilMs) {
      this.candidateMs += expSample(this.rng, this.ratePerMs);
      // Whole seconds: the site prints seconds at best, so truth and a parsed created_at can agree exactly.
      const t = Math.floor(this.candidateMs / 1000) * 1000;
      // Thinning: the candidate is kept with probability rate(t)/maxRate.
      const accept = this.diurnal ? this.rng.next() * (1 + this.diurnal.amplitude) < diurnalFactor(t, this.diurnal) : true;
      if (accept) this.times.push(t);
    }
  }

  /** Number of posts published at or before `atMs`. */
  countAt(atMs: number): number {
    this.extendTo(atMs);
    let lo = 0;
    let hi = this.times.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.times[mid]! <= atMs) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
