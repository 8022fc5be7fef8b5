/**
 * The freshness meter: from the rate posteriors, how many posts are published but not yet indexed
 * right now, how old they are, and what delay the plan predicts, with a credible interval.
 *
 * A subject last visited t hours ago with rate posterior mean m and variance v holds N waiting posts
 * with E[N] = m·t and Var[N] = m·t + v·t² (Poisson noise plus the uncertainty of the rate; the
 * noise φ²·m·t where posts come in bursts of φ, `burstDispersion`), and the
 * waiting posts are on average t/2 old. Summed over subjects (independent), the total is close to
 * normal: the interval is the mean ± 1.645 standard deviations (90 %). The variance is the
 * long-evidence posterior's; after a detected change of rate the mean follows the recent evidence
 * (rate-model.ts) while the spread stays that of the long one, an approximation the meter accepts.
 */
import { burstDispersion, subjectEvidence } from './evidence-memory';
import { predictedMeanDelayHours } from './allocation';
import { posteriorVariancePerHour2 } from './rate-model';
import { type ScheduleModel, subjectRatePerHour } from './poisson';
import type { SubjectState } from './subject-state';

const HOUR_MS = 3_600_000;
const Z90 = 1.6448536269514722;

export interface FreshnessEstimate {
  /** Posts published but not yet indexed: posterior mean and 90 % interval. */
  unindexedPosts: number;
  unindexedLow: number;
  unindexedHigh: number;
  /** Mean age of those posts, in hours (how late the index is now). */
  unindexedMeanAgeHours: number;
  /** The plan's predicted mean publication-to-index delay of posts from now on. */
  predictedMeanDelayHours: number;
  /** Subjects never visited: what they hold is unknown (not counted above). */
  unvisitedSubjects: number;
}

export function freshnessMeter(states: readonly SubjectState[], model: ScheduleModel, nowMs: number): FreshnessEstimate {
  let mean = 0;
  let variance = 0;
  let ageWeighted = 0;
  let unvisited = 0;
  const rates = new Float64Array(states.length);
  // Posts that come in clusters of φ (as independent events) vary φ² times as much as Poisson counts.
  const clustered = burstDispersion(states) ** 2;
  for (let i = 0; i < states.length; i++) {
    const s = states[i]!;
    const m = subjectRatePerHour(s, model);
    rates[i] = m;
    if (s.lastVisitMs === null) {
      unvisited += 1;
      continue;
    }
    const t = Math.max(0, nowMs - s.lastVisitMs) / HOUR_MS;
    const e = subjectEvidence(s, model.rates.memory);
    const v = posteriorVariancePerHour2(model.rates, e.posts, e.hours);
    mean += m * t;
    variance += clustered * m * t + v * t * t;
    ageWeighted += (m * t * t) / 2;
  }
  const sd = Math.sqrt(variance);
  return {
    unindexedPosts: mean, unindexedLow: Math.max(0, mean - Z90 * sd), unindexedHigh: mean + Z90 * sd,
    unindexedMeanAgeHours: mean > 0 ? ageWeighted / mean : 0, predictedMeanDelayHours: predictedMeanDelayHours(model.plan, rates),
    unvisitedSubjects: unvisited,
  };
}
