/**
 * Change-rate estimation when a visit only tells "changed or not" (a page without post
 * timestamps), after Cho & Garcia-Molina, "Estimating frequency of change" (2003).
 *
 * With n visits at a fixed interval I and X of them finding a change, the naive X / (n·I)
 * saturates at 1/I because several changes between two visits look like one. The estimator
 *   λ̂ = −log((n − X + 0.5) / (n + 0.5)) / I
 * inverts P(no change in I) = e^(−λI) and the 0.5 terms keep it finite when X = n and nearly
 * unbiased for small n.
 */
export function choGarciaMolinaRatePerHour(visits: number, changes: number, intervalHours: number): number {
  if (!Number.isInteger(visits) || visits < 0) throw new RangeError(`visits must be a non-negative integer, got ${visits}`);
  if (!Number.isInteger(changes) || changes < 0 || changes > visits) {
    throw new RangeError(`changes must be an integer in [0, visits], got ${changes}`);
  }
  if (!(intervalHours > 0)) throw new RangeError(`intervalHours must be positive, got ${intervalHours}`);
  return (0 - Math.log((visits - changes + 0.5) / (visits + 0.5))) / intervalHours;
}

/** The naive ratio, kept to show (and test) why the estimator above is needed. */
export function naiveChangeRatePerHour(visits: number, changes: number, intervalHours: number): number {
  return visits === 0 ? 0 : changes / (visits * intervalHours);
}

/** Running counts for a page visited at (roughly) regular intervals; serialisable as is. */
export interface ChangeHistory {
  visits: number;
  changes: number;
  observedHours: number;
}

export function recordCheck(h: ChangeHistory, changed: boolean, intervalHours: number): ChangeHistory {
  return { visits: h.visits + 1, changes: h.changes + (changed ? 1 : 0), observedHours: h.observedHours + intervalHours };
}

/** The estimator with I taken as the mean interval, the usual approximation for near-regular visits. */
export function changeHistoryRatePerHour(h: ChangeHistory): number {
  if (h.visits === 0) return 0;
  return choGarciaMolinaRatePerHour(h.visits, h.changes, h.observedHours / h.visits);
}
