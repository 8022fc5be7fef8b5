import { z } from 'zod';
import type { SubjectState } from '../core/envelope';
import type { VisitOutcome } from '../parsers/contract';

/** The simplest schedule: every subject again after a fixed interval. A baseline and a fallback. */
export const fixedIntervalConfigSchema = z.strictObject({
  type: z.literal('fixed_interval'),
  interval_secs: z.number().min(1).default(3600),
});

export type FixedIntervalConfig = z.infer<typeof fixedIntervalConfigSchema>;

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

export function fixedInterval(config: FixedIntervalConfig): NextVisitPolicy {
  return {
    nextVisit: (_before, outcome, nowMs) => ({
      nextDueMs: outcome.state.status === 'gone' ? -1 : nowMs + config.interval_secs * 1000,
      state: outcome.state,
    }),
  };
}
