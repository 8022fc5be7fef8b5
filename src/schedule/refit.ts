import type { SubjectState as FrontierState } from '../core/envelope';
import type { Logger } from '../core/logger';
import { buildModelFromFrontier, poissonNextVisitPolicy, scheduledPagesPerHour } from './core-bridge';
import type { NextVisitPolicy } from './contract';
import { INITIAL_PACE, type PaceState, updateSpendPace } from './pace';
import { configFromStage, poissonStageSchema, type ScheduleModel } from './poisson';
import { z } from 'zod';
import { setRepeating, timerSecs } from '../core/timers';

/** The `poisson` schedule in a pipeline file: the scheduler's own options plus how often to refit. */
export const poissonScheduleSchema = poissonStageSchema.extend({
  /** How often the population prior and the allocation are refitted from the frontier (O(N)). */
  refit_interval_secs: timerSecs(1).default(300),
});

export type PoissonScheduleStage = z.infer<typeof poissonScheduleSchema>;

/** A population that grew or shrank by more than this share since the last fit is refitted at once. */
const DRIFT_SHARE = 0.1;
const DRIFT_CHECK_MS = 2000;
/** The pace is held while more than this share of the active subjects has no written interval (a discovery sweep). */
const SWEEP_SHARE = 0.05;

/**
 * Keeps a fitted model current: fits at start and when a run starts (after its seeds are in),
 * every `refit_interval_secs`, and as soon as the number of subjects drifts by more than 10 % — the
 * allocation's constant depends on the whole population, so a model fitted on a much smaller one
 * schedules everybody far too late. A failed refit keeps the last model.
 *
 * Each refit also moves the pace (pace.ts, `updateSpendPace`) so that the due queue holds the
 * plan's spend: intervals written by earlier models are not rewritten (the frontier keeps only
 * the due score), so without it the crawl under-spends its budget for as long as they last.
 */
export class ModelRefresher {
  private model: ScheduleModel | undefined;
  private fittedSubjects = 0;
  private timers: NodeJS.Timeout[] = [];
  private refitting: Promise<void> | undefined;
  private paceState: PaceState = INITIAL_PACE;
  private lastPaceMs: number | undefined;

  constructor(
    private readonly stage: PoissonScheduleStage,
    private readonly loadStates: () => Promise<FrontierState[]>,
    private readonly countSubjects: () => Promise<number>,
    private readonly logger: Logger,
    /**
     * The crawl's clock (simulated time on an accelerated one): the pace integrates over it. Without
     * one, the newest visit time in the frontier stands in (crawl time, which stops while idle).
     */
    private readonly nowMs?: () => number,
  ) {}

  async start(): Promise<void> {
    await this.refit();
    this.timers = [
      setRepeating(() => void this.refit(), this.stage.refit_interval_secs * 1000),
      setRepeating(() => void this.refitOnDrift(), DRIFT_CHECK_MS),
    ];
    for (const t of this.timers) t.unref();
  }

  stop(): void {
    for (const t of this.timers) clearInterval(t);
  }

  private async refitOnDrift(): Promise<void> {
    const n = await this.countSubjects().catch(() => this.fittedSubjects);
    if (Math.abs(n - this.fittedSubjects) > DRIFT_SHARE * Math.max(1, this.fittedSubjects)) await this.refit();
  }

  current(): ScheduleModel {
    if (!this.model) throw new Error('the schedule model is used before its first fit');
    return this.model;
  }

  policy(): NextVisitPolicy {
    return { ...poissonNextVisitPolicy(() => this.current()), prepare: () => this.refit() };
  }

  /** One refit at a time; callers during a refit wait for it. */
  refit(): Promise<void> {
    this.refitting ??= this.fit().finally(() => {
      this.refitting = undefined;
    });
    return this.refitting;
  }

  private async fit(): Promise<void> {
    try {
      const { refit_interval_secs: _every, ...options } = this.stage;
      const states = await this.loadStates();
      const base = buildModelFromFrontier(states, configFromStage(options), 1, this.model);
      const now = this.nowMs?.() ?? newestVisitMs(states);
      const scheduled = scheduledPagesPerHour(states, base);
      if (scheduled.uncounted > SWEEP_SHARE * (scheduled.counted + scheduled.uncounted)) {
        this.lastPaceMs = undefined;
      } else {
        const elapsedHours = this.lastPaceMs === undefined || !Number.isFinite(now) ? 0 : Math.max(0, now - this.lastPaceMs) / 3_600_000;
        this.paceState = updateSpendPace(this.paceState, scheduled.pagesPerHour, base.plan.spentPerHour, elapsedHours);
        if (Number.isFinite(now)) this.lastPaceMs = now;
      }
      this.model = { ...base, pace: this.paceState.pace };
      this.fittedSubjects = states.length;
      this.logger.debug({
        subjects: states.length, prior: this.model.prior, planned_per_hour: base.plan.spentPerHour,
        scheduled_per_hour: scheduled.pagesPerHour, pace: this.model.pace,
      }, 'schedule model refitted');
    } catch (err) {
      if (!this.model) throw err;
      this.logger.warn({ err: (err as Error).message }, 'schedule refit failed; keeping the previous model');
    }
  }
}

function newestVisitMs(states: readonly FrontierState[]): number {
  let newest = Number.NEGATIVE_INFINITY;
  for (const s of states) if (s.lastVisitMs !== undefined && s.lastVisitMs > newest) newest = s.lastVisitMs;
  return newest;
}
