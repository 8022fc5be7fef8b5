/**
 * The what-if planner: what a different budget would buy, from the current population's rate
 * estimates, before anyone spends a request.
 *
 * For each budget the allocation is solved again (allocation.ts). A subject visited every 1/f hours
 * catches each of its posts after a delay uniform on [0, 1/f], so the population's delay is a
 * mixture of uniforms weighted by the rates: mean Σ λ_i/(2 f_i) / Σ λ_i, the share indexed within a
 * day Σ λ_i min(1, 24 f_i) / Σ λ_i, and the p90 the delay d where Σ λ_i min(1, d f_i) = 0.9 Σ λ_i
 * (found by bisection on d). Time-of-day shaping and the page limit's gaps are left out.
 *
 * Bursts. The visits f_i follow the scheduler's own estimates (that is what it will do), but the
 * weights λ_i are the posts to come, and where posts cluster the Poisson estimates are not
 * calibrated: a quiet subject whose few posts came as one burst reads as more certain than it is,
 * and the estimates of the quiet, seldom-visited subjects come out low (3× on the bursty world),
 * so the forecast was optimistic by 15–35 %. The weights are therefore re-estimated with the
 * evidence read as clusters' (posts/φ over hours/φ, the prior refitted to it), φ the posts per
 * cluster measured from the visits' windows (`burstDispersion`). Note that the posterior's spread alone
 * would not help: the mean delay is linear in each λ_i, so at fixed visits a calibrated posterior
 * mean already gives its expectation.
 *
 * The crawl's own record. The model leaves out what it cannot see: how late it notices a change of
 * rate (drift, a quiet or busy week), visits that run late, the page limit's gaps. The crawl
 * measures what they cost: the delays its visits found (`delayPosts`, `delayHours` in the subject
 * state, fading over a few days). Where enough posts were seen, the forecast at the budget the crawl
 * runs on is set against that realized delay, and every budget's forecast is scaled by the ratio
 * (`calibration`; the delays are stretched by it for the p90 and the share within a day too). The
 * cost of lag is a share of the delay at every budget, so one ratio serves them all (least so at
 * the lowest budgets, where a change waits longer to be noticed). The realized delay is read by
 * Little's law over the same faded window (planner-calibration.ts), counting the posts still
 * waiting for a visit with their wait so far: the found posts alone miss the longest delays, still
 * running, in a crawl not yet settled. Where a few subjects post most, a few days' delays are
 * noisy (±10 % from day to day on the bursty world).
 * A horizon. All of this is the steady state. A crawl a week or two from its cold start is not
 * there yet (the quiet subjects' first revisits still to come, a swept group due together), nor is
 * the benchmark's measured week: given `horizonHours`, the model's mean is taken over that horizon
 * with the first visits as they fell (planner-transient.ts), and the calibration against it.
 * Matching each realized post with the model's delay for its subject instead was tried: it drops
 * the cost of rates estimated low, which is most of the error (the planned visits with the true
 * rates as weights give the simulated delay to 0.1 % on the bursty world), and reads its own
 * estimates' noise as lateness.
 */
import { allocationOptions, changeOptions, subjectRatePerHour, type ScheduleModel } from './poisson';
import { planAllocation, visitRatePerHour } from './allocation';
import { burstDispersion, subjectEvidence } from './evidence-memory';
import { fitRatePrior, flatRatePrior, twoScaleRatePerHour } from './rate-model';
import { windowDelay } from './planner-calibration';
import { transientContext, transientMeanDelay } from './planner-transient';
import { type SubjectState, delayFade } from './subject-state';

export { burstDispersion };

export interface BudgetForecast {
  budgetPerHour: number;
  meanDelayHours: number;
  p90DelayHours: number;
  /** Share of posts indexed within 24 hours of publication. */
  withinDayShare: number;
  plannedPagesPerHour: number;
  /** Posts per independent event the forecast read the evidence with (1: no bursts seen; `burstDispersion`). */
  dispersion: number;
  /** The model's mean delay before the calibration. */
  modelMeanDelayHours: number;
  /** Realized / model mean delay at the running budget (1 when too few delays were seen to say). */
  calibration: number;
}

/** Fewer posts than this found by later visits: too few realized delays to calibrate against. */
export const MIN_CALIBRATION_POSTS = 200;
/** The calibration ratio is kept within these bounds: beyond them the model, not the lag, is wrong. */
const CALIBRATION_BOUNDS = [0.5, 2] as const;

/** The realized delays the subjects' visits found, faded to `nowMs`: posts and their mean delay. */
export function realizedDelay(states: readonly SubjectState[], nowMs: number): { posts: number; meanDelayHours: number } {
  let posts = 0;
  let hours = 0;
  for (const s of states) {
    if (s.lastVisitMs === null || !(s.delayPosts > 0)) continue;
    const keep = delayFade(nowMs - s.lastVisitMs);
    posts += s.delayPosts * keep;
    hours += s.delayHours * keep;
  }
  return { posts, meanDelayHours: posts > 0 ? hours / posts : Number.NaN };
}

export interface ForecastOptions {
  /** Now, for fading the realized delays; without it the forecast is the model's alone. */
  nowMs?: number;
  /**
   * Forecast the mean over the next `horizonHours` of a crawl still settling (planner-transient.ts)
   * instead of the steady state; needs `nowMs`. The p90 and the share within a day are the steady
   * model's, stretched by the same ratio.
   */
  horizonHours?: number;
}

/** The posts to come per subject (per hour): the estimates, re-read as over-dispersed when φ > 1. */
export function expectedPostRates(states: readonly SubjectState[], model: ScheduleModel, dispersion: number): Float64Array {
  if (!(dispersion > 1)) return Float64Array.from(states, (s) => subjectRatePerHour(s, model));
  const memory = { full: false, historyHours: 0, ...model.rates.memory, dispersion };
  const evidence = states.map((s) => subjectEvidence(s, memory));
  // Refitted from the current grid (a one-Gamma prior has no weights to refit: from a flat grid).
  const start = model.rates.weights.length > 1 ? model.rates : (model.rates.mixture ?? flatRatePrior());
  const prior = fitRatePrior(evidence, start, 30);
  const opts = changeOptions(model);
  return Float64Array.from(evidence, (e) => twoScaleRatePerHour(prior, e, opts));
}

export function forecastBudgets(states: readonly SubjectState[], model: ScheduleModel, budgetsPerHour: readonly number[], opts: ForecastOptions = {}): BudgetForecast[] {
  const rates = Float64Array.from(states, (s) => subjectRatePerHour(s, model));
  const dispersion = burstDispersion(states);
  const weights = dispersion > 1 ? expectedPostRates(states, model, dispersion) : rates;
  const steady = (budgetPerHour: number): ModelForecast => modelForecast(rates, weights, model, budgetPerHour);
  const horizon = opts.nowMs !== undefined && opts.horizonHours !== undefined && opts.horizonHours > 0
    ? transientContext({ states, model, rates, weights, nowMs: opts.nowMs, horizonHours: opts.horizonHours }) : null;
  const forecast = horizon ? (b: number): ModelForecast => overHorizon(steady(b), transientMeanDelay(horizon, b).meanDelayHours) : steady;
  let calibration = 1;
  if (opts.nowMs !== undefined) {
    const seen = windowDelay(states, weights, opts.nowMs);
    const running = forecast(model.config.budgetPerHour).meanDelayHours;
    if (seen.foundPosts >= MIN_CALIBRATION_POSTS && running > 0 && seen.meanDelayHours > 0) {
      calibration = Math.min(CALIBRATION_BOUNDS[1], Math.max(CALIBRATION_BOUNDS[0], seen.meanDelayHours / running));
    }
  }
  return budgetsPerHour.map((budgetPerHour) => {
    const f = forecast(budgetPerHour);
    return {
      budgetPerHour, meanDelayHours: calibration * f.meanDelayHours, p90DelayHours: calibration * f.p90DelayHours,
      withinDayShare: f.caughtBy(24 / calibration), plannedPagesPerHour: f.plannedPagesPerHour, dispersion,
      modelMeanDelayHours: f.meanDelayHours, calibration,
    };
  });
}

/** The steady figures with the mean over the horizon: the delays stretched by the same ratio. */
function overHorizon(f: ModelForecast, meanDelayHours: number): ModelForecast {
  const k = f.meanDelayHours > 0 ? meanDelayHours / f.meanDelayHours : 1;
  return { ...f, meanDelayHours, p90DelayHours: k * f.p90DelayHours, caughtBy: (d) => f.caughtBy(d / k) };
}

interface ModelForecast {
  meanDelayHours: number;
  p90DelayHours: number;
  plannedPagesPerHour: number;
  /** Share of the posts indexed within `hours`. */
  caughtBy: (hours: number) => number;
}

/** The model's figures at one budget: visits by the allocation of `rates`, posts weighed by `weights`. */
function modelForecast(rates: Float64Array, weights: Float64Array, model: ScheduleModel, budgetPerHour: number): ModelForecast {
  let total = 0;
  for (const w of weights) total += w;
  const plan = planAllocation(rates, allocationOptions({ ...model.config, budgetPerHour }));
  const f = rates.map((r) => visitRatePerHour(plan, r));
  const caughtBy = (d: number): number => {
    let c = 0;
    for (let i = 0; i < weights.length; i++) c += weights[i]! * Math.min(1, d * f[i]!);
    return total > 0 ? c / total : 1;
  };
  let waiting = 0;
  for (let i = 0; i < weights.length; i++) if (weights[i]! > 0 && f[i]! > 0) waiting += weights[i]! / (2 * f[i]!);
  let lo = 0;
  let hi = 1;
  while (caughtBy(hi) < 0.9 && hi < 1e7) hi *= 2;
  for (let k = 0; k < 60; k++) {
    const mid = (lo + hi) / 2;
    if (caughtBy(mid) < 0.9) lo = mid;
    else hi = mid;
  }
  return { meanDelayHours: total > 0 ? waiting / total : 0, p90DelayHours: hi, plannedPagesPerHour: plan.spentPerHour, caughtBy };
}
