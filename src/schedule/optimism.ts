/**
 * Optimism in the allocation weight (`optimismSd`, default 0: off). The plug-in posterior mean is
 * the best static allocation given the evidence (the delay Σ λᵢ/(2fᵢ) is linear in each rate), but
 * the allocation also decides what is learned: an over-estimated subject is visited soon and
 * corrected at that visit, an under-estimated one waits a long interval before its estimate can
 * move. Weighing each subject by its posterior mean plus k posterior standard deviations visits
 * the uncertain ones (short exposure, few posts) sooner, a bonus that fades as evidence
 * accumulates (an upper-confidence rule); a negative k does the opposite. Only the weight the
 * allocation sees moves: the estimates, the meter and the planner keep the posterior mean.
 */
import type { SubjectEvidence } from './evidence-memory';
import { type RatePrior, posteriorVariancePerHour2 } from './rate-model';

/** The allocation weight of a subject estimated at `meanPerHour`: mean + k·sd of its posterior (never below zero). */
export function optimisticRatePerHour(meanPerHour: number, prior: RatePrior, evidence: SubjectEvidence, sdWeight: number): number {
  if (sdWeight === 0 || !(meanPerHour >= 0)) return meanPerHour;
  const sd = Math.sqrt(posteriorVariancePerHour2(prior, Math.max(0, evidence.posts), Math.max(0, evidence.hours)));
  return Math.max(0, meanPerHour + sdWeight * sd);
}
