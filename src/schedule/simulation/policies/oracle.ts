/**
 * The oracles: the same allocation and due-time machinery as freshet, fed the truth. `oracle` knows
 * each subject's long-run rate; `oracle-diurnal` also its time-of-day profile; `oracle-current`
 * knows the rate now (regime and drift, not individual bursts) and the profile, and re-plans as
 * rates move. Only a simulation can run them; they are the bars freshet's estimation is measured
 * against.
 */
import { type AllocationPlan, planAllocation, visitRatePerHour } from '../../allocation';
import { FLAT_PROFILE, type DiurnalProfile } from '../../diurnal';
import { INITIAL_PACE, type PaceState, updatePace } from '../../pace';
import { DEFAULT_POISSON_CONFIG, type PoissonScheduleConfig, allocationOptions, spreadProfiles, visitDueMs } from '../../poisson';
import type { VisitResult } from '../../subject-state';
import { VisitQueue } from './visit-queue';
import type { PolicyContext, SchedulingPolicy } from './policy';

export interface OracleOptions {
  useProfiles: boolean;
  /** Re-plan every replan from the current rates (needs truth.currentRatePerHour). */
  current?: boolean;
  name?: string;
}

export class OraclePolicy implements SchedulingPolicy {
  readonly name: string;
  plan: AllocationPlan;
  private readonly queue: VisitQueue;
  private readonly trueProfiles: DiurnalProfile[];
  private profiles: DiurnalProfile[];
  private readonly rates: Float64Array;
  private visitsPerHour: Float64Array;
  private paceState: PaceState = INITIAL_PACE;
  private keyedPace = 1;
  private lastReplanMs = Number.NaN;
  private readonly lastVisitMs: Float64Array;
  private readonly config: PoissonScheduleConfig;
  private readonly currentRate: ((id: number, tMs: number) => number) | undefined;

  constructor(ctx: PolicyContext, opts: OracleOptions) {
    const truth = ctx.truth;
    if (!truth) throw new Error('the oracle policy needs the ground truth');
    this.name = opts.name ?? (opts.current ? 'oracle-current' : opts.useProfiles ? 'oracle-diurnal' : 'oracle');
    if (opts.current && !truth.currentRatePerHour) throw new Error('oracle-current needs the current rates');
    this.currentRate = opts.current ? truth.currentRatePerHour : undefined;
    const profileOf = truth.profile;
    this.trueProfiles = Array.from({ length: ctx.subjects }, (_, id) => (opts.useProfiles && profileOf ? profileOf(id) : FLAT_PROFILE));
    this.config = { ...DEFAULT_POISSON_CONFIG, ...ctx.config, budgetPerHour: ctx.budgetPerHour, pageSize: ctx.pageSize };
    this.rates = new Float64Array(ctx.subjects);
    for (let id = 0; id < ctx.subjects; id++) this.rates[id] = this.currentRate ? this.currentRate(id, ctx.startMs) : truth.ratePerHour[id]!;
    this.profiles = this.trueProfiles;
    this.plan = this.solve();
    this.visitsPerHour = this.rates.map((r, id) => visitRatePerHour(this.plan, this.allocRate(id, r)));
    this.lastVisitMs = new Float64Array(ctx.subjects).fill(Number.NaN);
    this.queue = new VisitQueue(ctx.subjects);
  }

  private allocRate(id: number, rate: number): number {
    const p = this.profiles[id]!;
    return rate * p.meanSqrt * p.meanSqrt;
  }

  private solve(): AllocationPlan {
    // Profiles relative to the population's (no herding), weighted as the visits will be.
    this.profiles = spreadProfiles(this.trueProfiles, this.rates);
    const alloc = this.rates.map((r, id) => this.allocRate(id, r));
    // The oracle needs no exploration floor: it knows every rate.
    return planAllocation(alloc, { ...allocationOptions(this.config), floorPerHour: 0 });
  }

  private dueAfter(id: number, fromMs: number): number {
    return visitDueMs(this.profiles[id]!, fromMs, this.visitsPerHour[id]! * this.paceState.pace, this.plan, this.config);
  }

  /** As freshet's: a spare-budget fill may pull a visit forward by at most half its interval. */
  private scheduleFrom(id: number, fromMs: number): void {
    const due = this.dueAfter(id, fromMs);
    this.queue.due.schedule(id, due, fromMs + 0.5 * (due - fromMs), fromMs);
  }

  overdueShare(nowMs: number): number {
    return this.queue.due.overdueShare(nowMs - 3_600_000);
  }

  pick(nowMs: number, max: number, out: number[]): void {
    this.queue.take(nowMs, max, true, out);
  }

  observe(id: number, visit: VisitResult): void {
    this.queue.visited(id);
    this.lastVisitMs[id] = visit.atMs;
    this.scheduleFrom(id, visit.atMs);
  }

  /** The same backlog control as freshet's (pace.ts): the oracle knows the rates, not the queue's luck. */
  replan(nowMs: number): void {
    const { latenessInIntervals, intervalHours } = this.queue.due.drainLateness();
    if (!Number.isNaN(this.lastReplanMs) && this.queue.unvisitedCount === 0) {
      this.paceState = updatePace(this.paceState, latenessInIntervals, (nowMs - this.lastReplanMs) / 3_600_000, intervalHours);
    }
    this.lastReplanMs = nowMs;
    let rekey = Math.abs(this.paceState.pace / this.keyedPace - 1) > 0.02;
    if (this.currentRate) {
      for (let id = 0; id < this.rates.length; id++) this.rates[id] = this.currentRate(id, nowMs);
      this.plan = this.solve();
      this.visitsPerHour = this.rates.map((r, id) => visitRatePerHour(this.plan, this.allocRate(id, r)));
      rekey = true;
    }
    if (rekey) {
      this.keyedPace = this.paceState.pace;
      for (let id = 0; id < this.lastVisitMs.length; id++) {
        if (Number.isNaN(this.queue.due.dueOf(id)) || Number.isNaN(this.lastVisitMs[id]!)) continue;
        this.scheduleFrom(id, this.lastVisitMs[id]!);
      }
    }
  }
}
