/**
 * Time-of-day profile: a non-homogeneous Poisson model λ(t) = λ̄ · m(t) with
 * m(t) = 1 + a·cos(2π(t − peak)/24 h).
 *
 * Why one Fourier harmonic rather than 24 hourly counts: a typical subject posts a few dozen times
 * a month, far too few to fill 24 bins, whereas the first harmonic needs only the two sums
 * Σcos θ and Σsin θ over post times (θ = time of day as an angle) and its noise is easy to remove.
 * For posts drawn from m, E[cos θ] = (a/2)·cos θp and E[sin θ] = (a/2)·sin θp, so the mean
 * resultant R̄ estimates (a/2)·e^{iθp}; its squared length carries noise 1/n, which the shrinkage
 * below subtracts.
 *
 * Why visits follow √m where they can: minimising the waiting posts ∫ λ(t)/(2 f(t)) dt under a
 * fixed number of visits ∫ f(t) dt gives f(t) ∝ √λ(t) (the same Lagrange argument as across
 * subjects, applied across hours); for a = 0.8 this saves about 9.5 % of a frequently visited
 * subject's mean delay. A subject visited about once a day cannot follow a density, but it can
 * choose the time of day of its visit, which matters even more: see `nextVisitAfterMs`.
 */

export const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const TWO_PI = 2 * Math.PI;

export interface DiurnalSums {
  /** Posts counted (possibly discounted by forgetting). */
  n: number;
  cos: number;
  sin: number;
}

export interface DiurnalProfile {
  amplitude: number;
  /** Time of day of the peak, in ms after midnight UTC. */
  peakMs: number;
  /** E[√m] over a day: the plan allots λ̄·E[√m]², the daily mean of the optimal density √(λ̄ m(t)). */
  meanSqrt: number;
}

export const FLAT_PROFILE: DiurnalProfile = { amplitude: 0, peakMs: 0, meanSqrt: 1 };

export function emptyDiurnal(): DiurnalSums {
  return { n: 0, cos: 0, sin: 0 };
}

function angleOf(tMs: number): number {
  const dayMs = ((tMs % DAY_MS) + DAY_MS) % DAY_MS;
  return (TWO_PI * dayMs) / DAY_MS;
}

export function addPostTimes(d: DiurnalSums, postTimesMs: ArrayLike<number>, keep = 1): DiurnalSums {
  let c = d.cos * keep;
  let s = d.sin * keep;
  for (let i = 0; i < postTimesMs.length; i++) {
    const th = angleOf(postTimesMs[i]!);
    c += Math.cos(th);
    s += Math.sin(th);
  }
  return { n: d.n * keep + postTimesMs.length, cos: c, sin: s };
}

/** E[√(1 + a cos θ)] over a uniform θ (midpoint rule; the integrand is smooth and periodic). */
export function meanSqrtMultiplier(amplitude: number): number {
  if (amplitude === 0) return 1;
  const k = 48;
  let sum = 0;
  for (let i = 0; i < k; i++) sum += Math.sqrt(Math.max(0, 1 + amplitude * Math.cos((TWO_PI * (i + 0.5)) / k)));
  return sum / k;
}

export function makeProfile(amplitude: number, peakMs: number): DiurnalProfile {
  if (!(amplitude >= 0 && amplitude < 1)) throw new RangeError(`amplitude must be in [0, 1), got ${amplitude}`);
  return { amplitude, peakMs: ((peakMs % DAY_MS) + DAY_MS) % DAY_MS, meanSqrt: meanSqrtMultiplier(amplitude) };
}

/** The profile of a world written as 1 + a·sin(2π(t − φ)/24 h): its peak is a quarter day after φ. */
export function profileFromSine(amplitude: number, phaseMs: number): DiurnalProfile {
  return makeProfile(amplitude, phaseMs + DAY_MS / 4);
}

/** Estimates the profile from the sums; shrinks towards flat so that noise never passes for a rhythm. */
export function estimateProfile(d: DiurnalSums, maxAmplitude = 0.9): DiurnalProfile {
  if (d.n < 2) return FLAT_PROFILE;
  const rc = d.cos / d.n;
  const rs = d.sin / d.n;
  const r2 = rc * rc + rs * rs;
  if (r2 === 0) return FLAT_PROFILE;
  const shrink = Math.max(0, 1 - 1 / (d.n * r2));
  const amplitude = Math.min(maxAmplitude, 2 * Math.sqrt(r2) * shrink);
  if (amplitude === 0) return FLAT_PROFILE;
  const peakAngle = Math.atan2(rs, rc);
  return makeProfile(amplitude, (peakAngle / TWO_PI) * DAY_MS);
}

export function rateMultiplier(p: DiurnalProfile, tMs: number): number {
  if (p.amplitude === 0) return 1;
  return 1 + p.amplitude * Math.cos(angleOf(tMs - p.peakMs));
}

const STEP_MS = 15 * 60_000;

/**
 * The time of the next visit for a subject allotted `visitsPerHour` on average.
 *
 * Rule: visit when the waiting time the subject's unseen posts have accumulated since `fromMs`,
 * W(t) = ∫ λ(s)(t − s) ds, reaches the price of a visit. For a constant rate that is λT²/2 = ν,
 * i.e. T = √(2ν/λ): exactly the square-root rule, so the plan's visit rate f fixes the threshold
 * as λ̄/(2f²) and λ̄ cancels: ∫ m(s)(t − s) ds = 1/(2f²) hours². With a rhythm, W grows fastest while
 * many posts wait, so visits come sooner in busy hours (locally f ∝ √λ(t), the continuous optimum)
 * and, for subjects visited about once a day, they lock on to the end of the busy hours instead
 * of an arbitrary time of day.
 *
 * Whole days are skipped in closed form: from a given time of day, a day adds 24 h to M = ∫ m and
 * 24·M + Q to W, with Q = ∫₀²⁴ m(t0 + u)(24 − u) du; the rest is walked in 15-minute steps with m
 * constant on each (W then grows quadratically inside a step and the crossing is solved exactly).
 */
export function nextVisitAfterMs(p: DiurnalProfile, fromMs: number, visitsPerHour: number): number {
  if (!(visitsPerHour > 0)) return Number.POSITIVE_INFINITY;
  if (p.amplitude === 0) return fromMs + HOUR_MS / visitsPerHour;
  const targetH2 = 1 / (2 * visitsPerHour * visitsPerHour);
  const stepH = STEP_MS / HOUR_MS;
  // Q for a day starting at fromMs's time of day, with m piecewise constant on aligned steps.
  let q = 0;
  let u = 0;
  let t = fromMs;
  while (u < 24 - 1e-9) {
    const stepEnd = Math.min((Math.floor(t / STEP_MS) + 1) * STEP_MS, fromMs + DAY_MS);
    const d = (stepEnd - t) / HOUR_MS;
    const m = rateMultiplier(p, (t + stepEnd) / 2);
    q += m * (d * (24 - u) - (d * d) / 2);
    u += d;
    t = stepEnd;
  }
  // W after k whole days: 288·k(k − 1) + k·Q; take the largest k that stays below the target.
  const a = 288;
  const b = q - 288;
  const k = Math.max(0, Math.floor((-b + Math.sqrt(b * b + 4 * a * targetH2)) / (2 * a)));
  let w = a * k * k + b * k;
  if (w > targetH2 && k > 0) return fromMs + k * DAY_MS;
  let mass = 24 * k;
  t = fromMs + k * DAY_MS;
  for (let guard = 0; guard < 4 * 24 * 4; guard++) {
    const stepEnd = (Math.floor(t / STEP_MS) + 1) * STEP_MS;
    const d = (stepEnd - t) / HOUR_MS;
    const m = rateMultiplier(p, (t + stepEnd) / 2);
    const grown = w + mass * d + (m * d * d) / 2;
    if (grown >= targetH2) {
      const rem = targetH2 - w;
      const dx = m > 0 ? (-mass + Math.sqrt(mass * mass + 2 * m * rem)) / m : rem / mass;
      return t + dx * HOUR_MS;
    }
    w = grown;
    mass += m * d;
    t = stepEnd;
  }
  return t + stepH * HOUR_MS;
}
