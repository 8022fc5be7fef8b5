/**
 * freshet's policy: per-subject Gamma posteriors with an empirical-Bayes prior, the budgeted
 * allocation of allocation.ts, optionally a time-of-day profile, realised as due times.
 */
import { sqrtRuleConstant } from '../../allocation';
import { INITIAL_PACE, type PaceState, updatePace } from '../../pace';
import { DEFAULT_POISSON_CONFIG, type PoissonScheduleConfig, type ScheduleModel, buildModel, nextVisitAtMs, observeOptions } from '../../poisson';
import { type ObserveOptions, type SubjectState, type VisitResult, newSubjectState, observe } from '../../subject-state';
import { DueQueue } from './due-queue';
import type { PolicyContext, SchedulingPolicy } from './policy';

/** Rewrite every due time when the intervals (c / pace) have moved by more than this since they were written. */
const REKEY_DRIFT = 0.02;

export class FreshetPolicy implements SchedulingPolicy {
  readonly name: string;
  readonly config: PoissonScheduleConfig;
  private readonly states: SubjectState[];
  private readonly queue: DueQueue;
  private readonly observeOpts: ObserveOptions;
  private model: ScheduleModel;
  private keyedConstant = Number.NaN;
  private paceState: PaceState = INITIAL_PACE;
  private lastReplanMs = Number.NaN;
  private unvisited: number;
  /** Spend budget left over in a quiet tick on the nearest due subjects. */
  private readonly fill: boolean;

  constructor(ctx: PolicyContext, name = 'freshet', fill = true) {
    this.name = name;
    this.fill = fill;
    this.config = { ...DEFAULT_POISSON_CONFIG, ...ctx.config, budgetPerHour: ctx.budgetPerHour, pageSize: ctx.pageSize };
    this.observeOpts = observeOptions(this.config);
    this.states = Array.from({ length: ctx.subjects }, () => newSubjectState(ctx.startMs, this.observeOpts));
    this.queue = new DueQueue(ctx.subjects);
    this.unvisited = ctx.subjects;
    this.model = buildModel(this.states, this.config);
    for (let id = 0; id < ctx.subjects; id++) this.queue.schedule(id, ctx.startMs);
  }

  get currentModel(): ScheduleModel {
    return this.model;
  }

  state(id: number): SubjectState {
    return this.states[id]!;
  }

  pick(nowMs: number, max: number, out: number[]): void {
    this.queue.take(nowMs, max, this.fill, out);
  }

  observe(id: number, visit: VisitResult): void {
    if (this.states[id]!.lastVisitMs === null) this.unvisited -= 1;
    const next = observe(this.states[id]!, visit, this.observeOpts);
    this.states[id] = next;
    this.queue.schedule(id, nextVisitAtMs(next, this.model));
  }

  replan(nowMs: number): void {
    const latenessHours = this.queue.drainMeanLatenessHours();
    if (!Number.isNaN(this.lastReplanMs) && this.unvisited === 0) {
      this.paceState = updatePace(this.paceState, latenessHours, (nowMs - this.lastReplanMs) / 3_600_000);
    }
    this.lastReplanMs = nowMs;
    this.model = buildModel(this.states, this.config, this.paceState.pace);
    const c = sqrtRuleConstant(this.model.plan) / this.model.pace;
    if (Number.isNaN(this.keyedConstant) || Math.abs(c / this.keyedConstant - 1) > REKEY_DRIFT) {
      this.keyedConstant = c;
      for (let id = 0; id < this.states.length; id++) {
        const s = this.states[id]!;
        // Subjects being visited right now are rescheduled by their own observe.
        if (Number.isNaN(this.queue.dueOf(id))) continue;
        this.queue.schedule(id, nextVisitAtMs(s, this.model));
      }
    }
  }
}
