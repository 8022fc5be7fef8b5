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
import { DEFAULT_PRIOR, type GammaRate, fitPopulationPrior } from './gamma-posterior';
import { type ChangeOptions, DEFAULT_CHANGE, type RatePrior, fitRatePrior, flatRatePrior, gammaRatePrior, priorMoments, compareDelayScores, twoScaleRatePerHour } from './rate-model';
import type { ObserveOptions, SubjectState } from './subject-state';
import { type AmplitudePrior, fitAmplitudePrior } from './rhythm-prior';
import { type Forgetting, type Memory, type SubjectEvidence, chooseMemory, subjectEvidence } from './evidence-memory';
import { type ChangeWindowEvidence, beforeLastVisit, chooseChangeProbability } from './change-probability';

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
  /**
   * Whether estimates read the forgetting evidence (`always`), all of it with first windows extended
   * to the population's typical history (`never`), or (`auto`, default) whichever predicts the
   * subjects' last visits better, re-chosen at every prior refit (evidence-memory.ts).
   */
  forgetting: Forgetting;
  /** Half-life, in visits, of the recent evidence the change test compares with the older evidence. */
  recentHalfLifeVisits: number;
  /**
   * Prior probability that a subject's rate changed within the recent window (0: no change test),
   * or `auto` (default): at every prior refit, the one of 0.01–0.3 whose estimates would have
   * served the subjects' last visits best (change-probability.ts).
   */
  changeProbability: number | 'auto';
  /**
   * The population prior: one Gamma by (noise-corrected) moments, a mixture over a log grid of
   * rates fitted by EM (rate-model.ts, the default), or `auto`: both fitted at every refit, and the
   * one whose estimates would have allocated the subjects' last visits better is used (`choosePrior`).
   */
  prior: 'gamma' | 'mixture' | 'auto';
  /** How far a changed rate is expected to move (σ of its log): regimes change rates by a factor of a few. */
  changeSigma: number;
  /**
   * Retirement (0: off). A subject watched this many hours without a change, since it was first
   * seen or last changed, is allocated as if it never changes: it drops to the exploration floor
   * (one visit per `maxVisitIntervalHours`) and leaves its share of the budget to the others. For
   * news sites: old articles rarely change, but each keeps a share of the budget under the
   * population prior, so as they pile up the feed that brings new ones is polled less and less
   * often. A sitemap or feed that says a page changed still makes it due at once.
   */
  retireAfterQuietHours: number;
}

export const DEFAULT_POISSON_CONFIG: PoissonScheduleConfig = {
  objective: 'delay',
  budgetPerHour: 1000,
  maxVisitIntervalHours: 30 * 24,
  minVisitIntervalMinutes: 5,
  pageSize: 20,
  pageLimit: 10,
  timeOfDay: false,
  halfLifeHours: 14 * 24,
  forgetting: 'auto',
  recentHalfLifeVisits: 1,
  changeProbability: 'auto',
  prior: 'mixture',
  changeSigma: DEFAULT_CHANGE.changeSigma,
  retireAfterQuietHours: 0,
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
  /** Evidence half-life (omit for the default; a very large value keeps all evidence). */
  half_life_hours: z.number().positive().default(DEFAULT_POISSON_CONFIG.halfLifeHours),
  forgetting: z.enum(['auto', 'always', 'never']).default(DEFAULT_POISSON_CONFIG.forgetting),
  recent_half_life_visits: z.number().positive().default(DEFAULT_POISSON_CONFIG.recentHalfLifeVisits),
  change_probability: z.union([z.literal('auto'), z.number().min(0).max(0.9)]).default(DEFAULT_POISSON_CONFIG.changeProbability),
  prior: z.enum(['gamma', 'mixture', 'auto']).default(DEFAULT_POISSON_CONFIG.prior),
  change_sigma: z.number().positive().default(DEFAULT_POISSON_CONFIG.changeSigma),
  retire_after_quiet_hours: z.number().min(0).default(DEFAULT_POISSON_CONFIG.retireAfterQuietHours),
});

export function configFromStage(options: z.input<typeof poissonStageSchema>): PoissonScheduleConfig {
  const o = poissonStageSchema.parse(options);
  return {
    objective: o.objective, budgetPerHour: o.budget_per_hour, maxVisitIntervalHours: o.max_visit_interval_hours,
    minVisitIntervalMinutes: o.min_visit_interval_minutes, pageSize: o.page_size, pageLimit: o.page_limit, timeOfDay: o.time_of_day,
    halfLifeHours: o.half_life_hours, forgetting: o.forgetting, recentHalfLifeVisits: o.recent_half_life_visits, changeProbability: o.change_probability, prior: o.prior,
    changeSigma: o.change_sigma, retireAfterQuietHours: o.retire_after_quiet_hours,
  };
}

export function observeOptions(config: PoissonScheduleConfig): ObserveOptions {
  return { halfLifeHours: config.halfLifeHours, recentHalfLifeVisits: config.recentHalfLifeVisits, timeOfDay: config.timeOfDay };
}

export interface ScheduleModel {
  config: PoissonScheduleConfig;
  /** The population prior summarised as one Gamma (its mean and variance), for status and logs. */
  prior: GammaRate;
  /** The population prior the estimates use: a mixture over a log grid of rates (rate-model.ts). */
  rates: RatePrior;
  plan: AllocationPlan;
  /** Visit-rate multiplier from the backlog controller (pace.ts); 1 when the queue keeps up. */
  pace: number;
  /** The rates the plan was solved for, by subject in the order given to `buildModel`. */
  allocationRates?: Float64Array;
  /** The population's daily rhythm (time-of-day option): profiles are followed relative to it. */
  rhythm?: Rhythm;
}

/** The subject's time-of-day profile relative to the population's rhythm (flat without the option). */
export function subjectProfile(state: SubjectState, model: Pick<ScheduleModel, 'config' | 'rhythm'>): DiurnalProfile {
  return model.config.timeOfDay && state.diurnal ? relativeProfile(estimateProfile(state.diurnal, 0.9, model.rhythm?.amplitudes), model.rhythm) : FLAT_PROFILE;
}

/**
 * The rate the allocation sees. With a time-of-day profile m the optimal visit density is
 * √(λ m(t))/c, whose daily mean is √λ·E[√m]/c: so the plan is solved for λ·E[√m]², and the visits
 * are then spread over the day by `nextVisitAfterMs`.
 */
/** The subject's estimated rate now: heavy-tailed prior, long and recent evidence, change test (rate-model.ts). */
export function subjectRatePerHour(state: SubjectState, model: Pick<ScheduleModel, 'rates' | 'config'>): number {
  return twoScaleRatePerHour(model.rates, subjectEvidence(state, model.rates.memory), changeOptions(model));
}

/** The change test's settings: the configured probability, or the one learned with the prior. */
export function changeOptions(model: Pick<ScheduleModel, 'rates' | 'config'>): ChangeOptions {
  const p = model.config.changeProbability;
  return { changeProbability: p === 'auto' ? (model.rates.changeProbability ?? DEFAULT_CHANGE.changeProbability) : p, changeSigma: model.config.changeSigma };
}

/** Watched `retireAfterQuietHours` without a change since first seen or last changed (see the config). */
export function retired(state: SubjectState, config: Pick<PoissonScheduleConfig, 'retireAfterQuietHours'>): boolean {
  if (!(config.retireAfterQuietHours > 0) || state.lastVisitMs === null || state.visits < 2) return false;
  const since = Math.max(state.firstSeenMs, state.lastPostMs ?? Number.NEGATIVE_INFINITY);
  return state.lastVisitMs - since >= config.retireAfterQuietHours * 3_600_000;
}

export function allocationRatePerHour(state: SubjectState, model: Pick<ScheduleModel, 'rates' | 'config' | 'rhythm'>): number {
  if (retired(state, model.config)) return 0;
  const rate = subjectRatePerHour(state, model);
  if (!model.config.timeOfDay || !state.diurnal) return rate;
  const p = subjectProfile(state, model);
  return rate * p.meanSqrt * p.meanSqrt;
}

export function allocationOptions(config: PoissonScheduleConfig): Parameters<typeof planAllocation>[1] {
  return {
    objective: config.objective, budgetPerHour: config.budgetPerHour, floorPerHour: 1 / config.maxVisitIntervalHours,
    capPerHour: 60 / config.minVisitIntervalMinutes, pageSize: config.pageSize, pageLimit: config.pageLimit,
  };
}

/** The Gamma replaces the mixture only when its score is lower by more than this many standard errors. */
const SWITCH_Z = 2;

/**
 * The prior family whose estimates would have allocated the subjects' last visits better
 * (rate-model.ts `compareDelayScores`), for `prior: auto`. Neither family is right everywhere: the
 * mixture fits a heavy tail's shape, but with a few weeks of evidence the mass below one post per
 * observed span is not identified, and its maximum-likelihood fit puts it as high as the data
 * allow, so subjects that posted nothing look busier than they are and take visits from everyone
 * else; the moment-fitted Gamma puts that mass near zero. Not the default: where posts cluster
 * (bursts, regime changes) the score favours the Gamma even where the mixture serves better, since
 * the mixture's higher estimates for silent subjects then act as the exploration they need.
 */
export function choosePrior(states: readonly SubjectState[], mixture: RatePrior, gamma: RatePrior, memory?: Memory): RatePrior {
  const evidence = states.map((s) => {
    const e = subjectEvidence(s, memory);
    const d = memory?.dispersion ?? 1;
    return { posts: e.posts, hours: e.hours, lastPosts: s.lastPosts / d, lastHours: s.lastHours / d };
  });
  const { z } = compareDelayScores(gamma, mixture, evidence);
  return z < -SWITCH_Z ? { ...gamma, mixture } : mixture;
}

function fitGammaPrior(evidence: readonly { posts: number; hours: number }[]): RatePrior {
  const g = fitPopulationPrior(evidence.map((e) => ({ posts: e.posts, exposureHours: e.hours })));
  return gammaRatePrior(g.alpha, g.betaHours);
}

/** Each subject's evidence before its last visit, and that window, on the evidence's dispersion scale. */
function changeWindows(states: readonly SubjectState[], evidence: readonly SubjectEvidence[], config: PoissonScheduleConfig, memory: Memory): ChangeWindowEvidence[] {
  const d = memory.dispersion ?? 1;
  const keepRecent = Math.pow(2, -1 / config.recentHalfLifeVisits);
  return states.map((s, i) => beforeLastVisit(evidence[i]!, s.lastPosts / d, s.lastHours / d, keepRecent));
}

/**
 * Refits the population prior and re-solves the allocation; O(N), run every few minutes or hours.
 * `previous` (the last model's prior) warm-starts the prior's fit.
 */
/** Allocation rates kept between refits by a caller that knows which subjects changed (`dirty`). */
export interface RateCache {
  rates: Float64Array;
  dirty: Uint8Array;
}

export function buildModel(
  states: readonly SubjectState[], config: PoissonScheduleConfig, pace = 1, previous?: RatePrior, refitPrior = true, cache?: RateCache,
): ScheduleModel {
  let ratePrior = previous ?? flatRatePrior();
  if (refitPrior || !previous) {
    // Which evidence to read is judged under the last prior; the new prior is then fitted to it.
    const memory = chooseMemory(states, ratePrior, config.forgetting, config.halfLifeHours);
    const evidence = new Array<SubjectEvidence>(states.length);
    for (let i = 0; i < states.length; i++) evidence[i] = subjectEvidence(states[i]!, memory);
    // Until ten subjects have been watched for an hour there is no population to fit: about a post
    // a day, worth half a day of evidence (a flat grid would put its mean at hundreds a day).
    let watched = 0;
    for (const e of evidence) if (e.hours >= 1) watched++;
    if (watched < 10) ratePrior = gammaRatePrior(DEFAULT_PRIOR.alpha, DEFAULT_PRIOR.betaHours);
    else if (config.prior === 'gamma') ratePrior = fitGammaPrior(evidence);
    else {
      const warm = previous?.mixture ?? (previous && previous.weights.length > 1 ? previous : undefined);
      const mixture = fitRatePrior(evidence, warm ?? flatRatePrior(), warm ? 4 : 30);
      ratePrior = config.prior === 'mixture' ? mixture : choosePrior(states, mixture, fitGammaPrior(evidence), memory);
    }
    const changeProbability = config.changeProbability === 'auto' && watched >= 10
      ? chooseChangeProbability(ratePrior, changeWindows(states, evidence, config, memory), config.changeSigma, previous?.changeProbability ?? DEFAULT_CHANGE.changeProbability)
      : previous?.changeProbability;
    ratePrior = { ...ratePrior, memory, ...(changeProbability !== undefined ? { changeProbability } : {}) };
  }
  const { meanPerHour, variancePerHour2 } = priorMoments(ratePrior);
  const prior: GammaRate = { alpha: (meanPerHour * meanPerHour) / variancePerHour2, betaHours: meanPerHour / variancePerHour2 };
  let rhythm: Rhythm | undefined;
  if (config.timeOfDay) {
    const amplitudes = fitAmplitudePrior(states.flatMap((st) => (st.diurnal ? [st.diurnal] : []))) ?? undefined;
    const profiles = states.map((st) => (st.diurnal ? estimateProfile(st.diurnal, 0.9, amplitudes) : FLAT_PROFILE));
    rhythm = { ...populationRhythm(profiles, states.map((st) => subjectRatePerHour(st, { rates: ratePrior, config }))), ...(amplitudes ? { amplitudes } : {}) };
  }
  // Cached rates are reused only under the same prior and rhythm (the rhythm moves every refit, so the time-of-day option re-estimates all).
  const reuse = cache !== undefined && cache.rates.length === states.length && ratePrior === previous && !config.timeOfDay;
  const rates = reuse ? cache.rates : new Float64Array(states.length);
  for (let i = 0; i < states.length; i++) {
    if (reuse && !cache.dirty[i]) continue;
    rates[i] = allocationRatePerHour(states[i]!, { rates: ratePrior, config, rhythm });
  }
  if (cache) {
    cache.rates = rates;
    cache.dirty.fill(0);
  }
  return { config, prior, rates: ratePrior, plan: planAllocation(rates, allocationOptions(config)), pace, allocationRates: rates, ...(rhythm ? { rhythm } : {}) };
}

/**
 * Time-of-day profiles relative to the population's. The budget is spent at the same pace every
 * hour, so when many subjects peak in the same hours their visits cannot all move there: the
 * optimum has an hourly price ν(t), and each subject follows √(λ_i m_i(t)/ν(t)). To first order in
 * the amplitudes, ν(t) ∝ 1 + A cos(θ − Θ) with A e^{iΘ} the mean of the a_i e^{iθ_i} weighted as
 * the visits are (√λ_i), so subject i follows the vector difference a_i e^{iθ_i} − A e^{iΘ}.
 * When everybody shares one evening the profiles cancel (no herding: due times stay spread over
 * the day); when peaks are spread evenly A ≈ 0 and each subject keeps its own.
 */
export interface Rhythm {
  cos: number;
  sin: number;
  /** How strong the subjects' own rhythms are (rhythm-prior.ts): their amplitudes are estimated under it. */
  amplitudes?: AmplitudePrior;
}

export function populationRhythm(profiles: ArrayLike<DiurnalProfile>, ratesPerHour: ArrayLike<number>): Rhythm {
  let zc = 0;
  let zs = 0;
  let wsum = 0;
  for (let i = 0; i < profiles.length; i++) {
    const p = profiles[i]!;
    const w = Math.sqrt(Math.max(0, ratesPerHour[i]!));
    wsum += w;
    if (p.amplitude === 0) continue;
    const th = (2 * Math.PI * p.peakMs) / DAY_MS;
    zc += w * p.amplitude * Math.cos(th);
    zs += w * p.amplitude * Math.sin(th);
  }
  return wsum > 0 ? { cos: zc / wsum, sin: zs / wsum } : { cos: 0, sin: 0 };
}

export function relativeProfile(p: DiurnalProfile, rhythm: Rhythm | undefined): DiurnalProfile {
  if (!rhythm || (rhythm.cos === 0 && rhythm.sin === 0)) return p;
  const th = (2 * Math.PI * p.peakMs) / DAY_MS;
  const c = p.amplitude * Math.cos(th) - rhythm.cos;
  const s = p.amplitude * Math.sin(th) - rhythm.sin;
  const a = Math.min(0.9, Math.hypot(c, s));
  return a < 1e-3 ? FLAT_PROFILE : makeProfile(a, (Math.atan2(s, c) / (2 * Math.PI)) * DAY_MS);
}

export function spreadProfiles(profiles: readonly DiurnalProfile[], ratesPerHour: ArrayLike<number>): DiurnalProfile[] {
  if (profiles.every((p) => p.amplitude === 0)) return profiles as DiurnalProfile[];
  const rhythm = populationRhythm(profiles, ratesPerHour);
  return profiles.map((p) => relativeProfile(p, rhythm));
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
export function nextVisitAtMs(state: SubjectState, model: ScheduleModel, allocationRate = allocationRatePerHour(state, model)): number {
  if (state.lastVisitMs === null) return state.firstSeenMs;
  const f = visitRatePerHour(model.plan, allocationRate) * model.pace;
  return visitDueMs(subjectProfile(state, model), state.lastVisitMs, f, model.plan, model.config);
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
  const rates = states.map((s) => subjectRatePerHour(s, model));
  return {
    objective: model.config.objective, subjects: states.length, budgetPerHour: model.config.budgetPerHour,
    plannedPagesPerHour: model.plan.spentPerHour, binding: model.plan.binding,
    estimatedPostsPerHour: rates.reduce((a, b) => a + b, 0),
    predictedMeanDelayHours: predictedMeanDelayHours(model.plan, rates), prior: model.prior,
  };
}
