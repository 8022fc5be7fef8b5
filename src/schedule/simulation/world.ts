/**
 * The simulated world of the scheduling benchmark: subjects that publish as (possibly time-of-day
 * modulated) Poisson processes, with every post's publication time known, so that delays,
 * losses and freshness can be measured exactly. Optionally closer to real posting: rates that
 * switch regimes and drift (rate-paths.ts), self-exciting bursts (every post may trigger more
 * posts soon after, a Hawkes process), and daily peaks that the whole population shares.
 */
import { type Rng, seededRng } from '../../core/rng';
import { DAY_MS, type DiurnalProfile, FLAT_PROFILE, profileFromSine } from '../diurnal';
import { type RatePathOptions, type RatePaths, generateRatePaths, pathMultiplier, standardNormal } from './rate-paths';

const HOUR_MS = 3_600_000;

export interface WorldOptions {
  subjects: number;
  /** Median posting rate of active subjects (log-normal). */
  medianPerDay: number;
  /** σ of log(rate) of active subjects. */
  sigma: number;
  /** Share of near-inactive subjects, which post at `inactivePerDay`. */
  inactiveShare: number;
  inactivePerDay: number;
  /** 0: homogeneous. Otherwise rate × (1 + a·sin(2π(t − φ_i)/24 h)), φ_i uniform over the day. */
  diurnalAmplitude: number;
  /**
   * Unset: each subject's daily peak is uniform over the day. Set: peaks gather around
   * `diurnalPeakHour` (UTC) with this standard deviation, as when a population shares its evenings.
   */
  diurnalPeakSpreadHours?: number;
  diurnalPeakHour?: number;
  /** Regime switches and drift of each subject's rate; unset: stationary. */
  paths?: RatePathOptions;
  /**
   * Self-exciting bursts: every post triggers Poisson(`branching`) more posts, each after an
   * exponential delay of mean `decayHours`. The long-run rate stays the subject's rate: the
   * spontaneous posts come at rate × (1 − branching).
   */
  bursts?: { branching: number; decayHours: number };
  /** Rates above this are clipped (a heavy tail still has a busiest human). */
  maxPerDay?: number;
  /** Posts exist from this long before time 0 (the history a first visit can page back through). */
  historyDays: number;
  /** Posts are generated up to here. */
  endMs: number;
  seed: number;
}

export interface World {
  readonly options: WorldOptions;
  readonly subjects: number;
  /** Long-run mean rate (what a stationary model could learn at best). */
  readonly ratePerHour: Float64Array;
  /** Regime and drift multipliers over time (null: stationary). */
  readonly paths?: RatePaths | null;
  readonly phaseMs: Float64Array;
  readonly historyStartMs: number;
  /** Posts of subject i are postTimesMs[offsets[i] .. offsets[i + 1]), in time order. */
  readonly offsets: Int32Array;
  readonly postTimesMs: Float64Array;
}

export const DEFAULT_WORLD: Omit<WorldOptions, 'endMs' | 'seed'> = {
  subjects: 10_000, medianPerDay: 1, sigma: 1.5, inactiveShare: 0.2, inactivePerDay: 0.001, diurnalAmplitude: 0, historyDays: 30,
};

export function generateWorld(opts: WorldOptions): World {
  // Separate streams, so that the same seed gives the same rates with or without a diurnal rhythm.
  const rateRng = seededRng(opts.seed);
  const postRng = seededRng((opts.seed ^ 0x5bd1e995) >>> 0);
  const n = opts.subjects;
  const ratePerHour = new Float64Array(n);
  const phaseMs = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const inactive = rateRng.next() < opts.inactiveShare;
    const perDay = inactive ? opts.inactivePerDay : opts.medianPerDay * Math.exp(opts.sigma * standardNormal(rateRng));
    ratePerHour[i] = Math.min(perDay, opts.maxPerDay ?? Number.POSITIVE_INFINITY) / 24;
    phaseMs[i] = rateRng.next() * DAY_MS;
  }
  const historyStartMs = -opts.historyDays * DAY_MS;
  if (opts.diurnalPeakSpreadHours !== undefined) {
    // The world's rhythm is 1 + a·sin(2π(t − φ)/24 h), whose peak is at φ + 6 h.
    const peakH = opts.diurnalPeakHour ?? 20;
    for (let i = 0; i < n; i++) phaseMs[i] = ((peakH - 6 + opts.diurnalPeakSpreadHours * standardNormal(rateRng)) * 3_600_000 + 10 * DAY_MS) % DAY_MS;
  }
  if (opts.paths || opts.bursts) return generateRealistic(opts, ratePerHour, phaseMs, historyStartMs, postRng);
  const a = opts.diurnalAmplitude;
  const offsets = new Int32Array(n + 1);
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    offsets[i] = times.length;
    // Thinning (Lewis & Shedler): draw at the peak rate, keep each point with probability m(t)/max m.
    const peakPerMs = (ratePerHour[i]! * (1 + a)) / HOUR_MS;
    if (peakPerMs <= 0) continue;
    let t = historyStartMs;
    for (;;) {
      t += -Math.log(1 - postRng.next()) / peakPerMs;
      if (t >= opts.endMs) break;
      if (a > 0) {
        const m = 1 + a * Math.sin((2 * Math.PI * (t - phaseMs[i]!)) / DAY_MS);
        if (postRng.next() * (1 + a) >= m) continue;
      }
      times.push(t);
    }
  }
  offsets[n] = times.length;
  return { options: opts, subjects: n, ratePerHour, paths: null, phaseMs, historyStartMs, offsets, postTimesMs: Float64Array.from(times) };
}

/** Poisson(mean) by inversion (means here are below 1). */
function poisson(mean: number, rng: Rng): number {
  let k = 0;
  let p = Math.exp(-mean);
  let cdf = p;
  const u = rng.next();
  while (u > cdf && k < 100) {
    k += 1;
    p *= mean / k;
    cdf += p;
  }
  return k;
}

function generateRealistic(opts: WorldOptions, base: Float64Array, phaseMs: Float64Array, historyStartMs: number, rng: Rng): World {
  const n = opts.subjects;
  const paths = opts.paths ? generateRatePaths(n, historyStartMs, opts.endMs, opts.paths, seededRng((opts.seed ^ 0x27d4eb2f) >>> 0)) : null;
  const a = opts.diurnalAmplitude;
  const branching = opts.bursts?.branching ?? 0;
  const decayMs = (opts.bursts?.decayHours ?? 1) * 3_600_000;
  const stepMs = paths?.stepMs ?? opts.endMs - historyStartMs;
  const offsets = new Int32Array(n + 1);
  const times: number[] = [];
  const own: number[] = [];
  for (let i = 0; i < n; i++) {
    offsets[i] = times.length;
    own.length = 0;
    for (let s = historyStartMs; s < opts.endMs; s += stepMs) {
      const e = Math.min(opts.endMs, s + stepMs);
      const rate = base[i]! * (1 - branching) * (paths ? paths.multiplier[i * paths.steps + Math.round((s - historyStartMs) / stepMs)]! / paths.meanMultiplier : 1);
      const peakPerMs = (rate * (1 + a)) / 3_600_000;
      if (!(peakPerMs > 0)) continue;
      // Exponential gaps are memoryless, so each step of the path starts afresh at its own rate.
      for (let t = s; ;) {
        t += -Math.log(1 - rng.next()) / peakPerMs;
        if (t >= e) break;
        if (a > 0 && rng.next() * (1 + a) >= 1 + a * Math.sin((2 * Math.PI * (t - phaseMs[i]!)) / DAY_MS)) continue;
        own.push(t);
      }
    }
    // Every post, spontaneous or triggered, triggers its own children (a cluster process).
    for (let k = 0; k < own.length && branching > 0; k++) {
      const children = poisson(branching, rng);
      for (let c = 0; c < children; c++) {
        const t = own[k]! - Math.log(1 - rng.next()) * decayMs;
        if (t < opts.endMs) own.push(t);
      }
    }
    own.sort((x, y) => x - y);
    for (const t of own) times.push(t);
  }
  offsets[n] = times.length;
  return { options: opts, subjects: n, ratePerHour: base, paths, phaseMs, historyStartMs, offsets, postTimesMs: Float64Array.from(times) };
}

/**
 * The rate a subject posts at now, bursts averaged out: long-run rate × its regime and drift (the
 * path is normalised so that its long-run mean is 1). What a current-rate oracle knows (with the
 * time-of-day profile from `trueProfile`).
 */
export function currentRatePerHour(world: World, id: number, tMs: number): number {
  if (!world.paths) return world.ratePerHour[id]!;
  return (world.ratePerHour[id]! / world.paths.meanMultiplier) * pathMultiplier(world.paths, id, tMs);
}

export function trueProfile(world: World, id: number): DiurnalProfile {
  const a = world.options.diurnalAmplitude;
  return a > 0 ? profileFromSine(a, world.phaseMs[id]!) : FLAT_PROFILE;
}
