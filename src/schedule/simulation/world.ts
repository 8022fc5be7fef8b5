/**
 * The simulated world of the scheduling benchmark: subjects that publish as (possibly time-of-day
 * modulated) Poisson processes, with every post's publication time known, so that delays,
 * losses and freshness can be measured exactly.
 */
import { type Rng, seededRng } from '../../core/rng';
import { DAY_MS, type DiurnalProfile, FLAT_PROFILE, profileFromSine } from '../diurnal';

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
  /** Posts exist from this long before time 0 (the history a first visit can page back through). */
  historyDays: number;
  /** Posts are generated up to here. */
  endMs: number;
  seed: number;
}

export interface World {
  readonly options: WorldOptions;
  readonly subjects: number;
  readonly ratePerHour: Float64Array;
  readonly phaseMs: Float64Array;
  readonly historyStartMs: number;
  /** Posts of subject i are postTimesMs[offsets[i] .. offsets[i + 1]), in time order. */
  readonly offsets: Int32Array;
  readonly postTimesMs: Float64Array;
}

export const DEFAULT_WORLD: Omit<WorldOptions, 'endMs' | 'seed'> = {
  subjects: 10_000, medianPerDay: 1, sigma: 1.5, inactiveShare: 0.2, inactivePerDay: 0.001, diurnalAmplitude: 0, historyDays: 30,
};

function standardNormal(rng: Rng): number {
  const u1 = 1 - rng.next();
  const u2 = rng.next();
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

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
    ratePerHour[i] = perDay / 24;
    phaseMs[i] = rateRng.next() * DAY_MS;
  }
  const historyStartMs = -opts.historyDays * DAY_MS;
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
  return { options: opts, subjects: n, ratePerHour, phaseMs, historyStartMs, offsets, postTimesMs: Float64Array.from(times) };
}

export function trueProfile(world: World, id: number): DiurnalProfile {
  const a = world.options.diurnalAmplitude;
  return a > 0 ? profileFromSine(a, world.phaseMs[id]!) : FLAT_PROFILE;
}
