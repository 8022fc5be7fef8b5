/**
 * The worlds of issue 21, closer to real social media than issue 6's stationary one: a heavy tail
 * (log-normal rates, σ = 2), cold starts where the platform does not say where a history starts,
 * pages of 10, and rates that burst, switch regimes and drift, with a shared evening peak.
 */
import type { WorldOptions } from '../../../src/schedule/simulation/world';

export const REALISTIC_WORLDS = ['stationary-s1.5', 'stationary-s2', 'bursty', 'drifting', 'combined'] as const;
export type RealisticWorld = (typeof REALISTIC_WORLDS)[number];

/** Worlds whose rates move: freshet is compared with the current-rate oracle there. */
export const NON_STATIONARY: readonly RealisticWorld[] = ['bursty', 'drifting', 'combined'];

const HOUR_MS = 3_600_000;

/**
 * Median posts per day of the active subjects. With σ = 2 the mean is e² ≈ 7.4 times the median; at
 * a median of 1 a day the posts alone would need 0.59 full pages per subject per day, more than a
 * 0.25× or 0.5× budget can read, and no scheduler could capture 95 % of them. At 0.2 a day (mean
 * ~0.95 posts per subject per day with the inactive fifth) every budget here can read them all.
 */
const MEDIAN_PER_DAY = 0.2;

/** Quiet, normal and very active weeks (a week on average in each), and a slow log-rate walk. */
const PATHS: NonNullable<WorldOptions['paths']> = {
  stepMs: 6 * HOUR_MS,
  regimes: { multipliers: [0.2, 1, 5], weights: [0.3, 0.5, 0.2], meanDwellDays: 7 },
  drift: { sigma: 0.5, reversionDays: 14 },
};

/** Each post triggers on average 0.5 more within about an hour: clusters of two on average. */
const BURSTS: NonNullable<WorldOptions['bursts']> = { branching: 0.5, decayHours: 1 };

export function realisticWorldOptions(world: RealisticWorld, subjects: number, endMs: number, seed: number): WorldOptions {
  const base: WorldOptions = {
    subjects, medianPerDay: MEDIAN_PER_DAY, sigma: 2, inactiveShare: 0.2, inactivePerDay: 0.001, diurnalAmplitude: 0,
    historyDays: 30, maxPerDay: 2000, endMs, seed,
  };
  switch (world) {
    case 'stationary-s1.5': return { ...base, sigma: 1.5 };
    case 'stationary-s2': return base;
    case 'bursty': return { ...base, bursts: BURSTS };
    case 'drifting': return { ...base, paths: PATHS };
    // Everybody's busiest hours in the same evening (20:00 ± 1.5 h), as on a real platform.
    case 'combined': return { ...base, bursts: BURSTS, paths: PATHS, diurnalAmplitude: 0.8, diurnalPeakHour: 20, diurnalPeakSpreadHours: 1.5 };
  }
}
