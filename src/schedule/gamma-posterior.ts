/**
 * Rate estimation for a subject that publishes as a Poisson process with unknown rate λ.
 *
 * With a Gamma(α, β) prior and k posts seen over an exposure of T hours, the posterior is
 * Gamma(α + k, β + T): the Gamma is conjugate to the Poisson likelihood λ^k e^(−λT), so the whole
 * history of a subject compresses to two numbers (posts counted, hours observed). The prior comes
 * from the population (empirical Bayes), so a new or quiet subject borrows the crowd's rate until
 * its own evidence outweighs it.
 */

/** Gamma(α, β) over a rate in posts per hour; β is in hours, so α/β is posts per hour. */
export interface GammaRate {
  alpha: number;
  betaHours: number;
}

/** Sufficient statistics of the evidence about one subject's rate. */
export interface RateEvidence {
  posts: number;
  exposureHours: number;
}

export function gammaPosterior(prior: GammaRate, evidence: RateEvidence): GammaRate {
  return { alpha: prior.alpha + evidence.posts, betaHours: prior.betaHours + evidence.exposureHours };
}

export function gammaMeanPerHour(g: GammaRate): number {
  return g.alpha / g.betaHours;
}

export function gammaVariancePerHour2(g: GammaRate): number {
  return g.alpha / (g.betaHours * g.betaHours);
}

/** A prior with the given mean whose weight equals `equivalentHours` of observation. */
export function gammaFromMean(meanPerHour: number, equivalentHours: number): GammaRate {
  return { alpha: meanPerHour * equivalentHours, betaHours: equivalentHours };
}

/** Used before any subject has been observed: about one post a day, worth half a day of evidence. */
export const DEFAULT_PRIOR: GammaRate = gammaFromMean(1 / 24, 12);

export interface PriorFitOptions {
  /** Subjects observed for less than this are too noisy to say anything about the population. */
  minExposureHours?: number;
  /** Returned when fewer than `minSubjects` subjects qualify. */
  fallback?: GammaRate;
  minSubjects?: number;
}

/**
 * Empirical-Bayes population prior by the method of moments, corrected for Poisson noise.
 *
 * Each subject's raw rate r_i = k_i / T_i has mean m and variance v + m / T_i, where v is the
 * spread of the true rates across subjects and m / T_i the counting noise of its own exposure.
 * So v = Var(r) − m · mean(1/T); the Gamma with mean m and variance v has α = m²/v, β = m/v.
 * Without the correction, short-exposure subjects would inflate v and make the prior too weak.
 */
export function fitPopulationPrior(evidence: Iterable<RateEvidence>, opts: PriorFitOptions = {}): GammaRate {
  const minExposureHours = opts.minExposureHours ?? 1;
  const fallback = opts.fallback ?? DEFAULT_PRIOR;
  const minSubjects = opts.minSubjects ?? 10;
  let n = 0;
  let sumRate = 0;
  let sumRate2 = 0;
  let sumInvExposure = 0;
  for (const e of evidence) {
    if (!(e.exposureHours >= minExposureHours)) continue;
    const r = e.posts / e.exposureHours;
    n += 1;
    sumRate += r;
    sumRate2 += r * r;
    sumInvExposure += 1 / e.exposureHours;
  }
  if (n < minSubjects) return fallback;
  const m = sumRate / n;
  if (!(m > 0)) return fallback;
  const varRate = n > 1 ? (sumRate2 - n * m * m) / (n - 1) : 0;
  // A population that looks homogeneous still gets a finite prior: at most 1000 posts' weight.
  const v = Math.max(varRate - m * (sumInvExposure / n), (m * m) / 1000);
  return { alpha: (m * m) / v, betaHours: m / v };
}

/**
 * Forgetting: scales the evidence down so that evidence `ageHours` old weighs 2^(−age/halfLife).
 * Keeps estimates honest when a subject's rate drifts; Infinity disables it.
 */
export function discountEvidence(e: RateEvidence, ageHours: number, halfLifeHours: number): RateEvidence {
  if (!Number.isFinite(halfLifeHours) || ageHours <= 0) return e;
  const f = Math.pow(2, -ageHours / halfLifeHours);
  return { posts: e.posts * f, exposureHours: e.exposureHours * f };
}
