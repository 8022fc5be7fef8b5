/**
 * How often subjects' rates change, chosen from the crawl's own visits instead of assumed. The
 * change test (rate-model.ts) weighs "the rate changed within the recent window" by a prior
 * probability. A fixed 0.3 serves a world of weekly regimes, but where rates hold still every false
 * alarm moves an estimate on Poisson noise alone, and the allocation pays for it (on a stationary
 * world 0.3 costs ~2 % of mean delay against 0.02).
 *
 * The maximum-likelihood probability is no answer: it fits the counts, and on a world of drifting
 * regimes it settles near 0.09, where estimates follow a change too slowly and the delay grows by
 * ~3 %. So each candidate is scored as the prior family is (`compareDelayScores`), on the objective
 * itself and out of sample: every subject's rate is estimated from its evidence before its last
 * visit, and that visit's window (k posts over t hours) stands in for the rate; visits ∝ √λ̂ give a
 * delay ∝ Σ (k/t)/√λ̂ · Σ √λ̂.
 *
 * Measured on the benchmark's dev seed 12 (1×, against the fixed 0.3): stationary σ = 1.5 −1.0 %
 * (0.03 chosen), bursty −2.8 % (0.01), drifting and combined unchanged (0.3).
 */
import { changeLikelihoods, changeWeightFromLogOdds, DEFAULT_CHANGE, posteriorMeanPerHour, type RatePrior, type TwoScaleEvidence } from './rate-model';

/**
 * Never above the default: where posts cluster (bursts, regimes) k/t over-weights the latest posts
 * and the score favours whatever follows them closest. On the combined world it picked 0.6 over
 * 0.3 and the delay grew by 1-3 %, so it is trusted to lower the probability only.
 */
export const CHANGE_PROBABILITY_CANDIDATES: readonly number[] = [0.01, 0.03, 0.1, DEFAULT_CHANGE.changeProbability];
/** Subjects with a scored last window before the visits say anything. */
export const MIN_CHANGE_SUBJECTS = 50;

/** A subject's evidence before its last visit, and that visit's own window. */
export interface ChangeWindowEvidence extends TwoScaleEvidence {
  lastPosts: number;
  lastHours: number;
}

/**
 * The candidate whose estimates would have served the subjects' last visits best, or `fallback`
 * when fewer than MIN_CHANGE_SUBJECTS subjects have a last window to score.
 */
export function chooseChangeProbability(
  prior: RatePrior, evidence: ArrayLike<ChangeWindowEvidence>, sigma: number, fallback: number,
  candidates: readonly number[] = CHANGE_PROBABILITY_CANDIDATES,
): number {
  // The two estimates and the evidence's log odds for a change do not depend on the probability.
  const all: number[] = [];
  const recent: number[] = [];
  const logRatio: number[] = [];
  const rates: number[] = [];
  for (let i = 0; i < evidence.length; i++) {
    const e = evidence[i]!;
    if (!(e.lastHours > 0) || !(e.hours > 0)) continue;
    const l = changeLikelihoods(prior, e, sigma);
    all.push(posteriorMeanPerHour(prior, Math.max(0, e.posts), e.hours));
    recent.push(l ? l.recentPerHour : 0);
    logRatio.push(l ? l.changed - l.same : Number.NEGATIVE_INFINITY);
    rates.push(Math.max(0, e.lastPosts) / e.lastHours);
  }
  if (rates.length < MIN_CHANGE_SUBJECTS) return fallback;
  let best = fallback;
  let bestScore = Number.POSITIVE_INFINITY;
  const roots = new Float64Array(rates.length);
  for (const p of candidates) {
    const logOdds = Math.log(p / (1 - p));
    let sumRoots = 0;
    for (let i = 0; i < rates.length; i++) {
      const w = changeWeightFromLogOdds(logOdds + logRatio[i]!);
      roots[i] = Math.sqrt((1 - w) * all[i]! + w * recent[i]!);
      sumRoots += roots[i]!;
    }
    let weighted = 0;
    for (let i = 0; i < rates.length; i++) if (roots[i]! > 0) weighted += rates[i]! / roots[i]!;
    const score = weighted * sumRoots;
    if (score < bestScore) {
      bestScore = score;
      best = p;
    }
  }
  return best;
}

/** The evidence `chooseChangeProbability` scores: the last visit's window taken out of the long and recent sums. */
export function beforeLastVisit(e: TwoScaleEvidence, lastPosts: number, lastHours: number, keepRecent: number): ChangeWindowEvidence {
  const recentPosts = Math.max(0, (e.recentPosts - lastPosts) / keepRecent);
  const recentHours = Math.max(0, (e.recentHours - lastHours) / keepRecent);
  return { posts: Math.max(0, e.posts - lastPosts), hours: Math.max(0, e.hours - lastHours), recentPosts, recentHours, lastPosts, lastHours };
}
