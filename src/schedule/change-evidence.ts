import { type ChangeHistory, changeHistoryRatePerHour, recordCheck } from './change-estimator';

/**
 * What one revisit of a page tells the change estimator (Cho & Garcia-Molina): a 304 or an
 * unchanged text signature is "not changed", a new signature is "changed", and anything else
 * (an error, a first visit) is no observation — a transient failure is never taken for "no change".
 */
export type ChangeObservation = 'not_modified' | 'unchanged' | 'changed' | 'none';

export function changeObservation(status: number | undefined, textChange: 'new' | 'unchanged' | 'changed' | undefined): ChangeObservation {
  if (status === 304) return 'not_modified';
  if (status === undefined || status < 200 || status >= 300) return 'none';
  if (textChange === 'unchanged') return 'unchanged';
  if (textChange === 'changed') return 'changed';
  return 'none';
}

/** Folds one observation into the history; the interval is the time since the previous visit. */
export function recordObservation(h: ChangeHistory, obs: ChangeObservation, intervalHours: number): ChangeHistory {
  if (obs === 'none' || !(intervalHours > 0)) return h;
  return recordCheck(h, obs === 'changed', intervalHours);
}

export const EMPTY_CHANGE_HISTORY: ChangeHistory = { visits: 0, changes: 0, observedHours: 0 };

/**
 * The change rate per hour with a prior of `priorVisits` visits at `priorRatePerHour` blended in
 * (a page checked twice says little); the estimator alone once the history is long.
 */
export function pageChangeRatePerHour(h: ChangeHistory, priorRatePerHour: number, priorVisits = 2): number {
  if (h.visits === 0) return priorRatePerHour;
  const w = h.visits / (h.visits + priorVisits);
  return w * changeHistoryRatePerHour(h) + (1 - w) * priorRatePerHour;
}

/**
 * The change times a revisit adds to the Poisson evidence when the page gave none itself (no
 * modified time newer than the last visit, hence `timedMs` empty) but its text signature changed
 * (the search node kept a new version): one change, at the midpoint of the window between the
 * visits. Without this, a page without timestamps never shows a change, and the estimates cannot
 * tell one that changes daily from one that never does. One per changed visit undercounts pages
 * that change several times between visits; the schedule then visits them more often, which
 * shrinks that. A 304, an unchanged signature or a first visit adds nothing.
 */
export function untimedChangeTimesMs(obs: ChangeObservation, previousVisitMs: number | undefined, visitMs: number, timedMs: readonly number[]): number[] {
  if (obs !== 'changed' || timedMs.length > 0 || previousVisitMs === undefined || !(visitMs > previousVisitMs)) return [];
  // Whole seconds, as page and feed times are (and as the frontier packs them shortest).
  return [Math.round((previousVisitMs + visitMs) / 2000) * 1000];
}
