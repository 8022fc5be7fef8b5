/**
 * The rate model of issue 21: a heavy-tailed population prior, and a posterior that notices a
 * change of regime within a visit or two.
 *
 * Prior. Posting rates span six orders of magnitude (log-normal with σ ≈ 2); one Gamma fitted by
 * moments to such a population has shape ~0.02, so a subject whose first visits saw nothing is
 * estimated near zero and the quiet half gets too few visits. Instead the prior is a mixture of
 * Gammas with one shape s and means on a fixed log grid (a discretised log-normal hierarchy, or any
 * other shape the data say): only the weights are fitted, by EM on the subjects' evidence
 * (Kiefer–Wolfowitz's nonparametric maximum likelihood, smoothed by the Gamma kernels). With a
 * common shape the posterior given k posts over T hours is again such a mixture, with component j
 * weighted ∝ w_j b_j^s / (b_j + T)^{s+k} (b_j = s/m_j; the Γ terms are the same for every j), so a
 * posterior mean costs a few logarithms per component.
 *
 * Change. Each subject keeps two sets of evidence: long (posts, hours, forgotten slowly) and
 * recent (halved at every visit: mostly the last visit's window or two). Either the rate has
 * not changed, and the recent evidence is predicted by the posterior from the older evidence; or
 * it changed within the recent window, and the recent evidence comes from a fresh rate, drawn from
 * the prior tilted towards the subject's own level (regimes move a rate by a factor of a few, not
 * across the population). The posterior odds of the two are the prior odds times the ratio of their
 * marginal likelihoods (closed form for Gamma–Poisson), and the estimate averages the two
 * posterior means by those weights: one visit with a count far out of line moves the estimate at
 * once, while Poisson noise does not.
 */

import type { Memory } from './evidence-memory';

/** Mixture-of-Gammas prior over a rate in posts per hour: component j is Gamma(shape, shape/meansPerHour[j]). */
export interface RatePrior {
  shape: number;
  meansPerHour: Float64Array;
  weights: Float64Array;
  /** Precomputed per component (b_j = shape/mean_j, log w_j, shape·log b_j, log mean_j) and working space, so that estimates allocate nothing. */
  scratch: { b: Float64Array; logW: Float64Array; sLogB: Float64Array; logMean: Float64Array; a: Float64Array; c: Float64Array; tilt: Float64Array };
  /** The mixture fitted beside this prior when another family was chosen over it: the next fit starts from it. */
  mixture?: RatePrior;
  /** Which evidence the estimates under this prior read (chosen with it at each refit; evidence-memory.ts). */
  memory?: Memory;
  /** The change test's prior probability, learned with this prior when the config says `auto` (change-probability.ts). */
  changeProbability?: number;
}

function scratchFor(shape: number, meansPerHour: Float64Array, weights: Float64Array): RatePrior['scratch'] {
  const n = meansPerHour.length;
  const b = meansPerHour.map((m) => shape / m);
  return {
    b, logW: weights.map((w) => (w > 0 ? Math.log(w) : Number.NEGATIVE_INFINITY)), sLogB: b.map((x) => shape * Math.log(x)),
    logMean: meansPerHour.map((m) => Math.log(m)), a: new Float64Array(n), c: new Float64Array(n), tilt: new Float64Array(n),
  };
}

export function priorFrom(shape: number, meansPerHour: Float64Array, weights: Float64Array): RatePrior {
  return makePrior(shape, meansPerHour, weights);
}

function makePrior(shape: number, meansPerHour: Float64Array, weights: Float64Array): RatePrior {
  return { shape, meansPerHour, weights, scratch: scratchFor(shape, meansPerHour, weights) };
}

export interface ChangeOptions {
  /** Prior probability that the rate changed within the recent window. */
  changeProbability: number;
  /** Spread (σ of log rate) of a changed rate around the subject's own level. */
  changeSigma: number;
}

export const DEFAULT_CHANGE: ChangeOptions = { changeProbability: 0.3, changeSigma: 1.5 };

const GRID_MIN_PER_DAY = 1e-4;
const GRID_MAX_PER_DAY = 3e3;
const GRID_POINTS = 28;
/** Kernel shape: a coefficient of variation of 1/√3 per component, about the grid's spacing. */
const KERNEL_SHAPE = 3;

/** A flat prior on the grid (before any subject is observed): weights uniform in log rate. */
export function flatRatePrior(): RatePrior {
  const meansPerHour = new Float64Array(GRID_POINTS);
  const lo = Math.log(GRID_MIN_PER_DAY / 24);
  const step = (Math.log(GRID_MAX_PER_DAY / 24) - lo) / (GRID_POINTS - 1);
  for (let j = 0; j < GRID_POINTS; j++) meansPerHour[j] = Math.exp(lo + j * step);
  return makePrior(KERNEL_SHAPE, meansPerHour, new Float64Array(GRID_POINTS).fill(1 / GRID_POINTS));
}

/** One Gamma(α, β) as a one-component prior: the same estimates as the conjugate posterior. */
export function gammaRatePrior(alpha: number, betaHours: number): RatePrior {
  return makePrior(alpha, Float64Array.of(alpha / betaHours), Float64Array.of(1));
}

/** log Γ(x) for x > 0 (Lanczos, g = 7, n = 9: ~1e-15 relative). */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  const c = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  const z = x - 1;
  let a = c[0]!;
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += c[i]! / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/**
 * Component log-weights of the posterior given `posts` over `hours` (unnormalised), into `out`,
 * with the prior's weights optionally tilted by `tilt` (log-space, per component). Returns the log
 * of the normaliser, i.e. the log marginal likelihood up to terms common to every component.
 */
function posteriorLogWeights(prior: RatePrior, posts: number, hours: number, out: Float64Array, tilt?: Float64Array): number {
  const { b, logW, sLogB } = prior.scratch;
  const e = prior.shape + posts;
  let max = Number.NEGATIVE_INFINITY;
  for (let j = 0; j < out.length; j++) {
    const v = logW[j]! + (tilt ? tilt[j]! : 0) + sLogB[j]! - e * Math.log(b[j]! + hours);
    out[j] = v;
    if (v > max) max = v;
  }
  let sum = 0;
  for (let j = 0; j < out.length; j++) sum += Math.exp(out[j]! - max);
  return max + Math.log(sum);
}

/** Posterior mean rate (per hour) given `posts` over `hours`, under the prior tilted by `tilt`. */
export function posteriorMeanPerHour(prior: RatePrior, posts: number, hours: number, tilt?: Float64Array): number {
  const lw = prior.scratch.a;
  const b = prior.scratch.b;
  const logZ = posteriorLogWeights(prior, posts, hours, lw, tilt);
  const e = prior.shape + posts;
  let mean = 0;
  for (let j = 0; j < lw.length; j++) mean += Math.exp(lw[j]! - logZ) / (b[j]! + hours);
  return mean * e;
}

/** Posterior variance of the rate (per hour²) given `posts` over `hours`: a Gamma mixture's law of total variance. */
export function posteriorVariancePerHour2(prior: RatePrior, posts: number, hours: number): number {
  const lw = prior.scratch.a;
  const b = prior.scratch.b;
  const logZ = posteriorLogWeights(prior, posts, hours, lw);
  const e = prior.shape + posts;
  let m1 = 0;
  let m2 = 0;
  for (let j = 0; j < lw.length; j++) {
    const w = Math.exp(lw[j]! - logZ);
    const rate = b[j]! + hours;
    m1 += (w * e) / rate;
    m2 += (w * e * (e + 1)) / (rate * rate);
  }
  return Math.max(0, m2 - m1 * m1);
}

/**
 * log of the predictive probability of `k` posts over `t` hours after `posts` over `hours`
 * (a Gamma-mixture posterior's negative binomial), up to the k!·t^k terms that do not depend on the
 * hypothesis; `tilt` tilts the prior first.
 */
export function logPredictive(prior: RatePrior, posts: number, hours: number, k: number, t: number, tilt?: Float64Array): number {
  const lw = prior.scratch.c;
  const bj = prior.scratch.b;
  const logZ = posteriorLogWeights(prior, posts, hours, lw, tilt);
  const s = prior.shape + posts;
  const gammaRatio = logGamma(s + k) - logGamma(s);
  let max = Number.NEGATIVE_INFINITY;
  for (let j = 0; j < lw.length; j++) {
    const b = bj[j]! + hours;
    const v = lw[j]! - logZ + s * Math.log(b) - (s + k) * Math.log(b + t);
    lw[j] = v;
    if (v > max) max = v;
  }
  let sum = 0;
  for (let j = 0; j < lw.length; j++) sum += Math.exp(lw[j]! - max);
  return gammaRatio + max + Math.log(sum);
}

export interface TwoScaleEvidence {
  /** Long memory: posts and hours, forgotten slowly. */
  posts: number;
  hours: number;
  /** Recent memory (a part of the long one, forgotten within about a day). */
  recentPosts: number;
  recentHours: number;
}

/**
 * The prior of a changed rate: a Gamma around the subject's older level whose spread matches a
 * log-normal factor of σ (coefficient of variation² = e^{σ²} − 1): regimes move a rate by a factor
 * of a few, so a fresh draw from the whole population would be far too diffuse to ever win.
 */
function changedShape(sigma: number): number {
  return 1 / Math.expm1(sigma * sigma);
}

function logGammaPredictive(a: number, b: number, k: number, t: number): number {
  return logGamma(a + k) - logGamma(a) + a * Math.log(b) - (a + k) * Math.log(b + t);
}

interface ChangeSplit {
  weight: number;
  /** Posterior mean under "changed": the recent evidence on the changed-rate prior. */
  recentPerHour: number;
}

/**
 * The log marginal likelihoods of a subject's recent evidence under "no change" (predicted from its
 * older evidence) and "changed within the recent window" (a fresh rate around its older level), and
 * the posterior mean under the second; null when the evidence cannot tell them apart.
 */
export function changeLikelihoods(prior: RatePrior, e: TwoScaleEvidence, sigma: number): { same: number; changed: number; recentPerHour: number } | null {
  const k = Math.max(0, e.recentPosts);
  const t = Math.max(0, e.recentHours);
  if (!(t > 0)) return null;
  const olderPosts = Math.max(0, e.posts - k);
  const olderHours = Math.max(0, e.hours - t);
  if (!(olderHours > 0)) return null;
  const level = posteriorMeanPerHour(prior, olderPosts, olderHours);
  if (!(level > 0)) return null;
  const a = changedShape(sigma);
  const b = a / level;
  return { same: logPredictive(prior, olderPosts, olderHours, k, t), changed: logGammaPredictive(a, b, k, t), recentPerHour: (a + k) / (b + t) };
}

/** The posterior weight of "changed" from its log odds (clamped where exp would over- or underflow). */
export function changeWeightFromLogOdds(logOdds: number): number {
  return logOdds > 40 ? 1 : logOdds < -40 ? 0 : 1 / (1 + Math.exp(-logOdds));
}

function changeSplit(prior: RatePrior, e: TwoScaleEvidence, opts: ChangeOptions): ChangeSplit {
  const none = { weight: 0, recentPerHour: 0 };
  if (!(opts.changeProbability > 0)) return none;
  const l = changeLikelihoods(prior, e, opts.changeSigma);
  if (!l) return none;
  const logOdds = Math.log(opts.changeProbability / (1 - opts.changeProbability)) + l.changed - l.same;
  const weight = changeWeightFromLogOdds(logOdds);
  return { weight, recentPerHour: l.recentPerHour };
}

/** Posterior weight of "the rate changed within the recent window". */
export function changeWeight(prior: RatePrior, e: TwoScaleEvidence, opts: ChangeOptions = DEFAULT_CHANGE): number {
  return changeSplit(prior, e, opts).weight;
}

/**
 * The rate estimate: the posterior means under "no change" (all evidence) and "changed within the
 * recent window" (recent evidence only, on a prior around the subject's older level), averaged by
 * their posterior weights.
 */
export function twoScaleRatePerHour(prior: RatePrior, e: TwoScaleEvidence, opts: ChangeOptions = DEFAULT_CHANGE): number {
  const all = posteriorMeanPerHour(prior, Math.max(0, e.posts), Math.max(0, e.hours));
  const { weight, recentPerHour } = changeSplit(prior, e, opts);
  return weight < 1e-9 ? all : (1 - weight) * all + weight * recentPerHour;
}

/** A subject's evidence with its last visit's window apart (part of posts and hours). */
export interface LastWindowEvidence {
  posts: number;
  hours: number;
  lastPosts: number;
  lastHours: number;
}

/**
 * Which of two priors' square-root allocations would have served the subjects at their last
 * visits better, out of sample: each subject's rate is estimated from the evidence before its last
 * visit, and that visit's own window (k posts over t hours, disjoint from it) stands in for the
 * rate. Visits ∝ √λ̂ give a delay ∝ Σ (k/t)/√λ̂ · Σ √λ̂ (allocation.ts): scored on the objective
 * itself rather than on the likelihood, since a prior can predict counts better on the whole and
 * still mis-rank the quiet subjects that decide where visits go. Returns the ratio of the two
 * delays (a over b) and the z-value of their subject-by-subject difference (negative when a is
 * better). One post in a quiet subject's last window weighs 1/√λ̂, so the score is noisy, and a
 * choice should wait for a difference the noise cannot explain. k/t is unbiased for the rate only
 * when posts do not cluster across the window's start: bursts and regime changes favour the prior
 * whose estimates follow the latest posts more closely.
 */
export function compareDelayScores(a: RatePrior, b: RatePrior, evidence: ArrayLike<LastWindowEvidence>): { ratio: number; z: number } {
  const rootsA: number[] = [];
  const rootsB: number[] = [];
  const rates: number[] = [];
  let sumA = 0;
  let sumB = 0;
  for (let i = 0; i < evidence.length; i++) {
    const e = evidence[i]!;
    const k = Math.max(0, e.lastPosts);
    const t = Math.max(0, e.lastHours);
    const olderHours = e.hours - t;
    if (!(t > 0) || !(olderHours > 0)) continue;
    const older = Math.max(0, e.posts - k);
    const ra = Math.sqrt(posteriorMeanPerHour(a, older, olderHours));
    const rb = Math.sqrt(posteriorMeanPerHour(b, older, olderHours));
    if (!(ra > 0) || !(rb > 0)) continue;
    rootsA.push(ra);
    rootsB.push(rb);
    rates.push(k / t);
    sumA += ra;
    sumB += rb;
  }
  const n = rates.length;
  if (n < 2) return { ratio: 1, z: 0 };
  let total = 0;
  let totalB = 0;
  const d = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const x = (rates[i]! / rootsA[i]!) * sumA;
    const y = (rates[i]! / rootsB[i]!) * sumB;
    d[i] = x - y;
    total += d[i]!;
    totalB += y;
  }
  const mean = total / n;
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (d[i]! - mean) ** 2;
  const se = Math.sqrt((ss / (n - 1)) * n);
  return { ratio: totalB > 0 ? (totalB + total) / totalB : 1, z: se > 0 ? total / se : 0 };
}

/**
 * Refits the prior's weights by EM on the subjects' (long) evidence, warm-started from `start`.
 * Subjects observed for less than `minHours` are left out: they say little about the population.
 */
export function fitRatePrior(evidence: ArrayLike<{ posts: number; hours: number }>, start: RatePrior = flatRatePrior(), iterations = 8, minHours = 1): RatePrior {
  const J = start.weights.length;
  const used: number[] = [];
  for (let i = 0; i < evidence.length; i++) if (evidence[i]!.hours >= minHours) used.push(i);
  if (used.length < 10) return start;
  // Per-subject component log-likelihoods (without the weights), computed once.
  const s = start.shape;
  const ll = new Float64Array(used.length * J);
  const logB = new Float64Array(J);
  for (let j = 0; j < J; j++) logB[j] = Math.log(s / start.meansPerHour[j]!);
  for (let u = 0; u < used.length; u++) {
    const e = evidence[used[u]!]!;
    for (let j = 0; j < J; j++) ll[u * J + j] = s * logB[j]! - (s + e.posts) * Math.log(s / start.meansPerHour[j]! + e.hours);
  }
  // A small floor on every weight keeps rare rates possible (and EM able to find them later).
  let w = Float64Array.from(start.weights, (x) => Math.max(x, 1e-6));
  const resp = new Float64Array(J);
  for (let it = 0; it < iterations; it++) {
    const next = new Float64Array(J);
    const logW = w.map((x) => Math.log(x));
    for (let u = 0; u < used.length; u++) {
      let max = Number.NEGATIVE_INFINITY;
      for (let j = 0; j < J; j++) {
        resp[j] = logW[j]! + ll[u * J + j]!;
        if (resp[j]! > max) max = resp[j]!;
      }
      let sum = 0;
      for (let j = 0; j < J; j++) {
        resp[j] = Math.exp(resp[j]! - max);
        sum += resp[j]!;
      }
      for (let j = 0; j < J; j++) next[j] = next[j]! + resp[j]! / sum;
    }
    let total = 0;
    for (let j = 0; j < J; j++) {
      next[j] = next[j]! / used.length + 1e-6;
      total += next[j]!;
    }
    w = next.map((x) => x / total);
  }
  return makePrior(s, start.meansPerHour, w);
}

/** The prior's mean and variance, as one Gamma (what `freshet status` shows). */
export function priorMoments(prior: RatePrior): { meanPerHour: number; variancePerHour2: number } {
  let m = 0;
  let m2 = 0;
  for (let j = 0; j < prior.weights.length; j++) {
    const mu = prior.meansPerHour[j]!;
    m += prior.weights[j]! * mu;
    m2 += prior.weights[j]! * (mu * mu * (1 + 1 / prior.shape));
  }
  return { meanPerHour: m, variancePerHour2: m2 - m * m };
}
