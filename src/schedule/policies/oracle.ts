/**
 * The oracle: the same allocation and due-time machinery as freshet, fed the true rates (and, for
 * `oracle-diurnal`, the true time-of-day profiles). Only a simulation can run it; it is the bar
 * freshet's estimation is measured against.
 */
import { type AllocationPlan, planAllocation, visitRatePerHour } from '../allocation';
import { FLAT_PROFILE, type DiurnalProfile, nextVisitAfterMs } from '../diurnal';
import { DEFAULT_POISSON_CONFIG, allocationOptions } from '../poisson';
import type { VisitResult } from '../subject-state';
import { DueQueue } from './due-queue';
import type { PolicyContext, SchedulingPolicy } from './policy';

export class OraclePolicy implements SchedulingPolicy {
  readonly name: string;
  readonly plan: AllocationPlan;
  private readonly queue: DueQueue;
  private readonly profiles: DiurnalProfile[];
  private readonly visitsPerHour: Float64Array;

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
    this.queue = new DueQueue(ctx.subjects);
    for (let id = 0; id < ctx.subjects; id++) this.queue.schedule(id, ctx.startMs);
  }

  pick(nowMs: number, max: number, out: number[]): void {
    this.queue.take(nowMs, max, true, out);
  }

  observe(id: number, visit: VisitResult): void {
    this.queue.schedule(id, nextVisitAfterMs(this.profiles[id]!, visit.atMs, this.visitsPerHour[id]!));
  }

  replan(): void {}
}
