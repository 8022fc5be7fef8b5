/**
 * The scheduler as the live crawler uses it (the `poisson` pipeline stage): fit a model from the
 * population's states now and then (`buildModel`), fold each visit into its subject's state on ack
 * (`observe` in subject-state.ts), and write `nextVisitAtMs` as the subject's score in the due ZSET.
 *
 * Why a due time rather than "visit the largest √λ̂·(now − last visit)": with f_i = √λ_i/c the
 * subjects whose score √λ_i·(now − t_i) has reached c are exactly those with t_i + c/√λ_i ≤ now,
 * so a ZSET scored by t_i + c/√λ_i hands out the same subjects in the same order without scanning
 * the population, and c (from the plan) is what makes Σ f_i equal the budget.
 */
import { z } from 'zod';
import { type AllocationPlan, type Objective, maxIntervalHours, planAllocation, predictedMeanDelayHours, visitRatePerHour } from './allocation';
import { DAY_MS, FLAT_PROFILE, type DiurnalProfile, estimateProfile, makeProfile, nextVisitAfterMs } from './diurnal';
import { DEFAULT_PRIOR, type GammaRate, type RateEvidence, fitPopulationPrior } from './gamma-posterior';
import { type ObserveOptions, type SubjectState, estimatedRatePerHour } from './subject-state';

const HOUR_MS = 3_600_000;

export interface PoissonScheduleConfig {
  objective: Objective;
  /** Pages per hour this pipeline may fetch. */
  budgetPerHour: number;
  /** Exploration floor: every active subject is visited at least this often. */
  maxVisitIntervalHours: number;
  /** Politeness cap: no subject is visited more often than this. */
  minVisitIntervalMinutes: number;
  /** Posts per timeline page. */
  pageSize: number;
  /** Pages a visit reads at most (the adapter's page limit): no visit costs more. */
  pageLimit: number;
  /** Learn each subject's time-of-day profile and shift its visits towards its busy hours. */
  timeOfDay: boolean;
  /** Evidence half-life, so that drifting rates are followed; Infinity keeps all evidence. */
  halfLifeHours: number;
}

export const DEFAULT_POISSON_CONFIG: PoissonScheduleConfig = {
  objective: 'delay',
  budgetPerHour: 1000,
  maxVisitIntervalHours: 30 * 24,
  minVisitIntervalMinutes: 5,
  pageSize: 20,
  pageLimit: 10,
  timeOfDay: false,
  halfLifeHours: Number.POSITIVE_INFINITY,
};

/**
 * The `schedule: { type: poisson, … }` block of a pipeline file (snake_case, units in names, unknown
 * keys rejected); it joins `fixed_interval` in the pipeline schema's discriminated union.
 */
export const poissonStageSchema = z.strictObject({
  type: z.literal('poisson'),
  objective: z.enum(['delay', 'freshness']).default('delay'),
  budget_per_hour: z.number().positive(),
  max_visit_interval_hours: z.number().positive().default(DEFAULT_POISSON_CONFIG.maxVisitIntervalHours),
  min_visit_interval_minutes: z.number().positive().default(DEFAULT_POISSON_CONFIG.minVisitIntervalMinutes),
  page_size: z.number().int().positive().default(DEFAULT_POISSON_CONFIG.pageSize),
  page_limit: z.number().int().positive().default(DEFAULT_POISSON_CONFIG.pageLimit),
  time_of_day: z.boolean().default(false),
  half_life_hours: z.number().positive().optional(),
});

export function configFromStage(options: z.input<typeof poissonStageSchema>): PoissonScheduleConfig {
  const o = poissonStageSchema.parse(options);
  return {
    objective: o.objective, budgetPerHour: o.budget_per_hour, maxVisitIntervalHours: o.max_visit_interval_hours,
    minVisitIntervalMinutes: o.min_visit_interval_minutes, pageSize: o.page_size, pageLimit: o.page_limit, timeOfDay: o.time_of_day,
    halfLifeHours: o.half_life_hours ?? Number.POSITIVE_INFINITY,
  };
}

export function observeOptions(config: PoissonScheduleConfig): ObserveOptions {
  return { halfLifeHours: config.halfLifeHours, timeOfDay: config.timeOfDay };
}

export interface ScheduleModel {
  config: PoissonScheduleConfig;
  prior: GammaRate;
  plan: AllocationPlan;
  /** Visit-rate multiplier from the backlog controller (pace.ts); 1 when the queue keeps up. */
  pace: number;
}

export function subjectProfile(state: SubjectState, config: PoissonScheduleConfig): DiurnalProfile {
  return config.timeOfDay && state.diurnal ? estimateProfile(state.diurnal) : FLAT_PROFILE;
}

/**
 * The rate the allocation sees. With a time-of-day profile m the optimal visit density is
 * √(λ m(t))/c, whose daily mean is √λ·E[√m]/c: so the plan is solved for λ·E[√m]², and the visits
 * are then spread over the day by `nextVisitAfterMs`.
 */
export function allocationRatePerHour(state: SubjectState, model: Pick<ScheduleModel, 'prior' | 'config'>): number {
  const rate = estimatedRatePerHour(state, model.prior);
  if (!model.config.timeOfDay || !state.diurnal) return rate;
  const p = estimateProfile(state.diurnal);
  return rate * p.meanSqrt * p.meanSqrt;
}

export function allocationOptions(config: PoissonScheduleConfig): Parameters<typeof planAllocation>[1] {
  return {
    objective: config.objective, budgetPerHour: config.budgetPerHour, floorPerHour: 1 / config.maxVisitIntervalHours,
    capPerHour: 60 / config.minVisitIntervalMinutes, pageSize: config.pageSize, pageLimit: config.pageLimit,
  };
}

/** Refits the population prior and re-solves the allocation; O(N), run every few minutes or hours. */
export function buildModel(
  states: readonly SubjectState[], config: PoissonScheduleConfig, pace = 1, fallbackPrior = DEFAULT_PRIOR,
): ScheduleModel {
  const evidence = new Array<RateEvidence>(states.length);
  for (let i = 0; i < states.length; i++) evidence[i] = { posts: states[i]!.evidencePosts, exposureHours: states[i]!.evidenceHours };
  const prior = fitPopulationPrior(evidence, { fallback: fallbackPrior });
  const rates = new Float64Array(states.length);
  for (let i = 0; i < states.length; i++) rates[i] = allocationRatePerHour(states[i]!, { prior, config });
  return { config, prior, plan: planAllocation(rates, allocationOptions(config)), pace };
}

/**
 * Time-of-day profiles relative to the population's. The budget is spent at the same pace every
 * hour, so when many subjects peak in the same hours their visits cannot all move there: the
 * optimum has an hourly price ν(t), and each subject follows √(λ_i m_i(t)/ν(t)). To first order in
 * the amplitudes, ν(t) ∝ 1 + A cos(θ − Θ) with A e^{iΘ} the mean of the a_i e^{iθ_i} weighted as
 * the visits are (√λ_i), so subject i follows the vector difference a_i e^{iθ_i} − A e^{iΘ}.
 * When everybody shares one evening the profiles cancel (no herding); when peaks are spread
 * evenly A ≈ 0 and each subject keeps its own.
 */
export function spreadProfiles(profiles: readonly DiurnalProfile[], ratesPerHour: ArrayLike<number>): DiurnalProfile[] {
  let zc = 0;
  let zs = 0;
  let wsum = 0;
  let any = false;
  for (let i = 0; i < profiles.length; i++) {
    const p = profiles[i]!;
    const w = Math.sqrt(Math.max(0, ratesPerHour[i]!));
    wsum += w;
    if (p.amplitude === 0) continue;
    any = true;
    const th = (2 * Math.PI * p.peakMs) / DAY_MS;
    zc += w * p.amplitude * Math.cos(th);
    zs += w * p.amplitude * Math.sin(th);
  }
  if (!any || !(wsum > 0)) return profiles as DiurnalProfile[];
  zc /= wsum;
  zs /= wsum;
  return profiles.map((p) => {
    const th = (2 * Math.PI * p.peakMs) / DAY_MS;
    const c = p.amplitude * Math.cos(th) - zc;
    const s = p.amplitude * Math.sin(th) - zs;
    const a = Math.min(0.9, Math.hypot(c, s));
    return a < 1e-3 ? FLAT_PROFILE : makeProfile(a, (Math.atan2(s, c) / (2 * Math.PI)) * DAY_MS);
  });
}

/**
 * The next visit after `fromMs` for `visitsPerHour`, never sooner than the politeness interval nor
 * later than the plan's floor interval: a due time is always finite, whatever the estimates say.
 */
export function visitDueMs(p: DiurnalProfile, fromMs: number, visitsPerHour: number, plan: AllocationPlan, config: PoissonScheduleConfig): number {
  const floorH = maxIntervalHours(plan);
  const maxMs = (Number.isFinite(floorH) ? floorH : config.maxVisitIntervalHours) * HOUR_MS;
  const minMs = config.minVisitIntervalMinutes * 60_000;
  const due = visitsPerHour > 0 && Number.isFinite(visitsPerHour) ? nextVisitAfterMs(p, fromMs, visitsPerHour) : fromMs + maxMs;
  return Math.min(fromMs + maxMs, Math.max(fromMs + minMs, Number.isFinite(due) ? due : fromMs + maxMs));
}

/** The due-ZSET score: a never-visited subject is due at once, others one allotted interval on. */
export function nextVisitAtMs(state: SubjectState, model: ScheduleModel): number {
  if (state.lastVisitMs === null) return state.firstSeenMs;
  const f = visitRatePerHour(model.plan, allocationRatePerHour(state, model)) * model.pace;
  return visitDueMs(subjectProfile(state, model.config), state.lastVisitMs, f, model.plan, model.config);
}

export interface ScheduleStatus {
  objective: Objective;
  subjects: number;
  budgetPerHour: number;
  plannedPagesPerHour: number;
  binding: AllocationPlan['binding'];
  estimatedPostsPerHour: number;
  predictedMeanDelayHours: number;
  prior: GammaRate;
}

/** What `freshet status` prints about scheduling. */
export function scheduleStatus(states: readonly SubjectState[], model: ScheduleModel): ScheduleStatus {
  const rates = states.map((s) => estimatedRatePerHour(s, model.prior));
  return {
    objective: model.config.objective, subjects: states.length, budgetPerHour: model.config.budgetPerHour,
    plannedPagesPerHour: model.plan.spentPerHour, binding: model.plan.binding,
    estimatedPostsPerHour: rates.reduce((a, b) => a + b, 0),
    predictedMeanDelayHours: predictedMeanDelayHours(model.plan, rates), prior: model.prior,
  };
}
