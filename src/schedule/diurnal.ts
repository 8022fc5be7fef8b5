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
 * Why visits follow √m: minimising the waiting posts ∫ λ(t)/(2 f(t)) dt under a fixed number of
 * visits ∫ f(t) dt gives f(t) ∝ √λ(t) (the same Lagrange argument as across subjects, applied
 * across hours). For a = 0.8 this saves about 9.5 % of a subject's mean delay.
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
  /** E[√m] over a day: used to normalise visit weights so that a day still holds the same visits. */
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

/** Relative visit density at t: √m(t)/E[√m], which averages 1 over a day. */
export function visitWeight(p: DiurnalProfile, tMs: number): number {
  if (p.amplitude === 0) return 1;
  return Math.sqrt(rateMultiplier(p, tMs)) / p.meanSqrt;
}

const STEP_MS = 15 * 60_000;

/**
 * The time of the next visit for a subject allotted `visitsPerHour` on average: the t at which
 * ∫ visitsPerHour · visitWeight(s) ds from `fromMs` reaches one visit. Whole days are skipped at
 * once (a day of weight holds exactly 24 h), the rest is walked in 15-minute steps.
 */
export function nextVisitAfterMs(p: DiurnalProfile, fromMs: number, visitsPerHour: number): number {
  if (!(visitsPerHour > 0)) return Number.POSITIVE_INFINITY;
  const needHours = 1 / visitsPerHour;
  if (p.amplitude === 0) return fromMs + needHours * HOUR_MS;
  const days = Math.floor(needHours / 24);
  let t = fromMs + days * DAY_MS;
  let remainingHours = needHours - days * 24;
  for (let guard = 0; guard < 200; guard++) {
    const stepEnd = (Math.floor(t / STEP_MS) + 1) * STEP_MS;
    const w = visitWeight(p, (t + stepEnd) / 2);
    const spanHours = ((stepEnd - t) / HOUR_MS) * w;
    if (spanHours >= remainingHours) return t + (remainingHours / w) * HOUR_MS;
    remainingHours -= spanHours;
    t = stepEnd;
  }
  return t + remainingHours * HOUR_MS;
}
