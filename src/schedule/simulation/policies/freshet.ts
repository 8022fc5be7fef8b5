/**
 * freshet's policy: per-subject Gamma posteriors with an empirical-Bayes prior, the budgeted
 * allocation of allocation.ts, optionally a time-of-day profile, realised as due times.
 */
import { sqrtRuleConstant } from '../../allocation';
import { INITIAL_PACE, type PaceState, updatePace } from '../../pace';
import { DEFAULT_POISSON_CONFIG, type PoissonScheduleConfig, type RateCache, type ScheduleModel, buildModel, nextVisitAtMs, observeOptions } from '../../poisson';
import { type ObserveOptions, type SubjectState, type VisitResult, newSubjectState, observe } from '../../subject-state';
import { VisitQueue } from './visit-queue';
import type { PolicyContext, SchedulingPolicy } from './policy';

/** Rewrite every due time when the intervals (c / pace) have moved by more than this since they were written. */
const REKEY_DRIFT = 0.02;
/** The population prior moves slowly once the sweep is done: refitted this often (the plan every replan). */
const PRIOR_REFIT_MS = 6 * 3_600_000;
/** A fill takes a subject no earlier than this share of its interval after its last visit. */
const FILL_PULL = 0.5;

export class FreshetPolicy implements SchedulingPolicy {
  readonly name: string;
  readonly config: PoissonScheduleConfig;
  private readonly states: SubjectState[];
  private readonly queue: VisitQueue;
  private readonly observeOpts: ObserveOptions;
  private model: ScheduleModel;
  private keyedConstant = Number.NaN;
  private paceState: PaceState = INITIAL_PACE;
  private lastReplanMs = Number.NaN;
  private priorFittedMs = Number.NaN;
  /** Estimates between prior refits: only subjects visited since the last replan are re-estimated. */
  private readonly cache: RateCache;
  /** Spend budget left over in a quiet tick on the nearest due subjects. */
  private readonly fill: boolean;

  constructor(ctx: PolicyContext, name = 'freshet', fill = true) {
    this.name = name;
    this.fill = fill;
    this.config = { ...DEFAULT_POISSON_CONFIG, ...ctx.config, budgetPerHour: ctx.budgetPerHour, pageSize: ctx.pageSize };
    this.observeOpts = observeOptions(this.config);
    this.states = Array.from({ length: ctx.subjects }, () => newSubjectState(ctx.startMs, this.observeOpts));
    this.queue = new VisitQueue(ctx.subjects);
    this.cache = { rates: new Float64Array(0), dirty: new Uint8Array(ctx.subjects) };
    this.model = buildModel(this.states, this.config, 1, undefined, true, this.cache);
  }

  get currentModel(): ScheduleModel {
    return this.model;
  }

  state(id: number): SubjectState {
    return this.states[id]!;
  }

  overdueShare(nowMs: number): number {
    return this.queue.due.overdueShare(nowMs - 3_600_000);
  }

  pick(nowMs: number, max: number, out: number[]): void {
    this.queue.take(nowMs, max, this.fill, out);
  }

  observe(id: number, visit: VisitResult): void {
    this.queue.visited(id);
    const next = observe(this.states[id]!, visit, this.observeOpts);
    this.states[id] = next;
    this.cache.dirty[id] = 1;
    this.reschedule(id, next);
  }

  /** Due per the model; a spare-budget fill may pull it forward by at most half its interval. */
  private reschedule(id: number, s: SubjectState, allocationRate?: number): void {
    const due = allocationRate === undefined ? nextVisitAtMs(s, this.model) : nextVisitAtMs(s, this.model, allocationRate);
    const last = s.lastVisitMs ?? due;
    this.queue.due.schedule(id, due, last + FILL_PULL * (due - last), last);
  }

  replan(nowMs: number): void {
    const { latenessInIntervals, intervalHours } = this.queue.due.drainLateness();
    if (!Number.isNaN(this.lastReplanMs) && this.queue.unvisitedCount === 0) {
      this.paceState = updatePace(this.paceState, latenessInIntervals, (nowMs - this.lastReplanMs) / 3_600_000, intervalHours);
    }
    this.lastReplanMs = nowMs;
    const refit = Number.isNaN(this.priorFittedMs) || nowMs - this.priorFittedMs >= PRIOR_REFIT_MS;
    if (refit) this.priorFittedMs = nowMs;
    this.model = buildModel(this.states, this.config, this.paceState.pace, this.model.rates, refit, this.cache);
    // Compared in logs, and any non-finite value forces a rewrite: ∞ against ∞ must not read as "unchanged".
    const c = sqrtRuleConstant(this.model.plan) / this.model.pace;
    const moved = !(Number.isFinite(c) && Number.isFinite(this.keyedConstant)) || Math.abs(Math.log(c / this.keyedConstant)) > REKEY_DRIFT;
    if (moved) {
      this.keyedConstant = c;
      for (let id = 0; id < this.states.length; id++) {
        const s = this.states[id]!;
        // Subjects being visited right now are rescheduled by their own observe; never-visited ones stay due.
        if (Number.isNaN(this.queue.due.dueOf(id)) || s.lastVisitMs === null) continue;
        this.reschedule(id, s, this.model.allocationRates?.[id]);
      }
    }
  }
}
