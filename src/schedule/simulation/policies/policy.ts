/**
 * What a scheduling policy looks like to the simulation (and, through the same calls, to a crawler
 * that keeps its population in memory): subjects are numbered 0..n−1; each tick the caller asks for
 * up to `max` subjects to visit, visits them, and reports each visit back.
 */
import type { DiurnalProfile } from '../../diurnal';
import type { PoissonScheduleConfig } from '../../poisson';
import type { VisitResult } from '../../subject-state';

export interface SchedulingPolicy {
  readonly name: string;
  /** Fills `out` (cleared first) with up to `max` distinct subjects to visit at `nowMs`. */
  pick(nowMs: number, max: number, out: number[]): void;
  observe(id: number, visit: VisitResult): void;
  /** Refit whatever the policy learns from the population; called periodically. */
  replan(nowMs: number): void;
  /** Share of subjects whose due time passed more than an hour ago (policies with due times). */
  overdueShare?(nowMs: number): number;
}

export interface PolicyContext {
  subjects: number;
  startMs: number;
  budgetPerHour: number;
  pageSize: number;
  /** Scheduler settings for the freshet policies (budget and page size above win). */
  config?: Partial<PoissonScheduleConfig>;
  /** Ground truth, which only the oracle policies may read. */
  truth?: {
    /** Long-run mean rates. */
    ratePerHour: ArrayLike<number>;
    /** The rate now, regime and drift included but bursts averaged out (non-stationary worlds). */
    currentRatePerHour?: (id: number, tMs: number) => number;
    profile?: (id: number) => DiurnalProfile;
  };
}
