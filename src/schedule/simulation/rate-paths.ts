/**
 * Non-stationary posting for the simulated worlds: each subject's rate is its base rate times a
 * piecewise-constant multiplier path, on a fixed grid of steps, made of
 * - regime switches: the subject moves between quiet, normal and very active periods (a Markov
 *   chain in continuous time with exponential dwell times, e.g. a week on average), and
 * - drift: log(rate) follows an Ornstein–Uhlenbeck walk (a random walk pulled back to 0, so that
 *   a long-run rate exists) with stationary spread `driftSigma` and reversion time `driftDays`.
 * Bursts (self-exciting posting) are drawn on top in world.ts; they are not part of the path, as
 * a "current-rate oracle" knows regimes and drift but not individual bursts.
 */
import type { Rng } from '../../core/rng';

const DAY_MS = 86_400_000;

export interface RegimeOptions {
  /** Rate multipliers of the regimes (e.g. quiet 0.2, normal 1, active 5). */
  multipliers: number[];
  /** Long-run share of time in each regime (the chain jumps to a regime with this probability). */
  weights: number[];
  /** Mean time spent in a regime before the next switch. */
  meanDwellDays: number;
}

export interface DriftOptions {
  /** Stationary standard deviation of the log-rate walk. */
  sigma: number;
  /** Mean-reversion time of the walk. */
  reversionDays: number;
}

export interface RatePathOptions {
  regimes?: RegimeOptions;
  drift?: DriftOptions;
  /** Grid step of the path. */
  stepMs: number;
}

/** Multipliers of every subject on the grid: multiplier(i, k) for step k starting at startMs + k·stepMs. */
export interface RatePaths {
  readonly startMs: number;
  readonly stepMs: number;
  readonly steps: number;
  /** subjects × steps, row-major. */
  readonly multiplier: Float32Array;
  /** The long-run mean of the multiplier (the same for every subject): regimes' weighted mean × drift's log-normal mean. */
  readonly meanMultiplier: number;
}

export function standardNormal(rng: Rng): number {
  const u1 = 1 - rng.next();
  const u2 = rng.next();
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

function pickWeighted(weights: readonly number[], u: number): number {
  let total = 0;
  for (const w of weights) total += w;
  let acc = 0;
  for (let i = 0; i < weights.length; i++) {
    acc += weights[i]! / total;
    if (u < acc) return i;
  }
  return weights.length - 1;
}

export function generateRatePaths(subjects: number, startMs: number, endMs: number, opts: RatePathOptions, rng: Rng): RatePaths {
  const stepMs = opts.stepMs;
  const steps = Math.max(1, Math.ceil((endMs - startMs) / stepMs));
  const multiplier = new Float32Array(subjects * steps);
  const reg = opts.regimes;
  const drift = opts.drift;
  const stepDays = stepMs / DAY_MS;
  // OU on a grid: x' = ρ x + sqrt(1 − ρ²) σ ε keeps the stationary spread σ.
  const rho = drift ? Math.exp(-stepDays / drift.reversionDays) : 0;
  const noise = drift ? drift.sigma * Math.sqrt(1 - rho * rho) : 0;
  for (let i = 0; i < subjects; i++) {
    let regime = reg ? pickWeighted(reg.weights, rng.next()) : 0;
    let x = drift ? drift.sigma * standardNormal(rng) : 0;
    // Time left in the current regime, in steps; the chain is memoryless, so starting mid-dwell is exact.
    let dwell = reg ? (-Math.log(1 - rng.next()) * reg.meanDwellDays) / stepDays : Number.POSITIVE_INFINITY;
    const row = i * steps;
    for (let k = 0; k < steps; k++) {
      while (reg && dwell <= 0) {
        // Jump to another regime, drawn by weight among the others.
        const others = reg.weights.map((w, j) => (j === regime ? 0 : w));
        regime = pickWeighted(others, rng.next());
        dwell += (-Math.log(1 - rng.next()) * reg.meanDwellDays) / stepDays;
      }
      const m = (reg ? reg.multipliers[regime]! : 1) * Math.exp(x - (drift ? (drift.sigma * drift.sigma) / 2 : 0));
      multiplier[row + k] = m;
      dwell -= 1;
      if (drift) x = rho * x + noise * standardNormal(rng);
    }
  }
  // The chain jumps only to *other* regimes (drawn by weight), so with equal mean dwell its share of
  // time in regime j is not w_j but ∝ w_j(1 − w_j): that solves π_b = Σ_{a≠b} π_a w_b / (1 − w_a).
  let meanRegime = 1;
  if (reg) {
    const total = reg.weights.reduce((s, w) => s + w, 0);
    const pi = reg.weights.map((w) => (w / total) * (1 - w / total));
    const z = pi.reduce((s, p) => s + p, 0);
    meanRegime = pi.reduce((s, p, j) => s + (p / z) * reg.multipliers[j]!, 0);
  }
  return { startMs, stepMs, steps, multiplier, meanMultiplier: meanRegime };
}

export function pathMultiplier(paths: RatePaths, id: number, tMs: number): number {
  const k = Math.min(paths.steps - 1, Math.max(0, Math.floor((tMs - paths.startMs) / paths.stepMs)));
  return paths.multiplier[id * paths.steps + k]!;
}
