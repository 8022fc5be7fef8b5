import type { SubjectState } from '../core/envelope';
import type { VisitOutcome } from '../core/visit';

/** The schedule contract: when a subject is visited again. Implemented by `fixed_interval` and `poisson`. */
export interface NextVisit {
  /** The due-queue score; negative: never again. */
  nextDueMs: number;
  /** The state to store: the visit's outcome state with the schedule's own fields updated. */
  state: SubjectState;
}

/** Decides when a subject is visited again, after a successful visit. */
export interface NextVisitPolicy {
  nextVisit(before: SubjectState, outcome: VisitOutcome, nowMs: number): NextVisit;
  /** Called when a run starts, after its seeds are in the frontier (a model fits the population). */
  prepare?(): Promise<void>;
  /**
   * Asked when a subject is claimed, before any fetch: a schedule whose model has moved since the
   * due time was written returns the due time (and state) to store instead of a visit; undefined
   * means visit now. This is how due times written by an older model are rewritten without a scan.
   */
  recheck?(state: SubjectState, nowMs: number): NextVisit | undefined;
}

/** What a schedule reports about its current plan, for the gauges (the poisson schedule; fixed intervals have none). */
export interface ScheduleGaugeValues {
  budgetPagesPerHour: number;
  plannedPagesPerHour: number;
  predictedMeanDelayHours: number;
}
