/**
 * The oracle: the same allocation and due-time machinery as freshet, fed the true rates (and, for
 * `oracle-diurnal`, the true time-of-day profiles). Only a simulation can run it; it is the bar
 * freshet's estimation is measured against.
 */
import { type AllocationPlan, planAllocation, visitRatePerHour } from '../../allocation';
import { FLAT_PROFILE, type DiurnalProfile, nextVisitAfterMs } from '../../diurnal';
import { INITIAL_PACE, type PaceState, updatePace } from '../../pace';
import { DEFAULT_POISSON_CONFIG, allocationOptions } from '../../poisson';
import type { VisitResult } from '../../subject-state';
import { DueQueue } from './due-queue';
import type { PolicyContext, SchedulingPolicy } from './policy';

export class OraclePolicy implements SchedulingPolicy {
  readonly name: string;
  readonly plan: AllocationPlan;
  private readonly queue: DueQueue;
  private readonly profiles: DiurnalProfile[];
  private readonly visitsPerHour: Float64Array;
  private unvisited: number;
  private paceState: PaceState = INITIAL_PACE;
  private keyedPace = 1;
  private lastReplanMs = Number.NaN;
  private readonly lastVisitMs: Float64Array;

  constructor(ctx: PolicyContext, opts: { useProfiles: boolean; name?: string }) {
    const truth = ctx.truth;
    if (!truth) throw new Error('the oracle policy needs the ground truth');
    this.name = opts.name ?? (opts.useProfiles ? 'oracle-diurnal' : 'oracle');
    const profileOf = truth.profile;
    this.profiles = Array.from({ length: ctx.subjects }, (_, id) => (opts.useProfiles && profileOf ? profileOf(id) : FLAT_PROFILE));
    const rates = new Float64Array(ctx.subjects);
    for (let id = 0; id < ctx.subjects; id++) {
      const p = this.profiles[id]!;
      rates[id] = truth.ratePerHour[id]! * p.meanSqrt * p.meanSqrt;
    }
    // The oracle needs no exploration floor: it knows every rate.
    const config = { ...DEFAULT_POISSON_CONFIG, ...ctx.config, budgetPerHour: ctx.budgetPerHour, pageSize: ctx.pageSize };
    this.plan = planAllocation(rates, { ...allocationOptions(config), floorPerHour: 0 });
    this.visitsPerHour = rates.map((r) => visitRatePerHour(this.plan, r));
    this.unvisited = ctx.subjects;
    this.lastVisitMs = new Float64Array(ctx.subjects).fill(Number.NaN);
    this.queue = new DueQueue(ctx.subjects);
    for (let id = 0; id < ctx.subjects; id++) this.queue.schedule(id, ctx.startMs);
  }

  private dueAfter(id: number, fromMs: number): number {
    return nextVisitAfterMs(this.profiles[id]!, fromMs, this.visitsPerHour[id]! * this.paceState.pace);
  }

  pick(nowMs: number, max: number, out: number[]): void {
    this.queue.take(nowMs, max, true, out);
  }

  observe(id: number, visit: VisitResult): void {
    if (Number.isNaN(this.lastVisitMs[id]!)) this.unvisited -= 1;
    this.lastVisitMs[id] = visit.atMs;
    this.queue.schedule(id, this.dueAfter(id, visit.atMs));
  }

  /** The same backlog control as freshet's (pace.ts): the oracle knows the rates, not the queue's luck. */
  replan(nowMs: number): void {
    const latenessHours = this.queue.drainMeanLatenessHours();
    if (!Number.isNaN(this.lastReplanMs) && this.unvisited === 0) {
      this.paceState = updatePace(this.paceState, latenessHours, (nowMs - this.lastReplanMs) / 3_600_000);
    }
    this.lastReplanMs = nowMs;
    if (Math.abs(this.paceState.pace / this.keyedPace - 1) > 0.02) {
      this.keyedPace = this.paceState.pace;
      for (let id = 0; id < this.lastVisitMs.length; id++) {
        if (Number.isNaN(this.queue.dueOf(id)) || Number.isNaN(this.lastVisitMs[id]!)) continue;
        this.queue.schedule(id, this.dueAfter(id, this.lastVisitMs[id]!));
      }
    }
  }
}
