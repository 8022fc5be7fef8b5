/**
 * The forecast over a horizon of a crawl still settling after its cold start, not its steady state.
 *
 * The steady model (planner.ts) weighs each subject's wait by half its interval. A crawl a week or
 * two old is not there yet: at a low budget many silent subjects' first revisit after the opening
 * sweep falls past the horizon, and the pages they leave go to everyone else; at a middle budget a
 * group swept together comes due together inside it (stationary σ = 2: the steady forecast read up
 * to 1.12× the simulated delay at 0.25x). So a subject whose next visit after its first one is not
 * yet behind it is followed visit by visit from its first visit (moved for the budget's slower or
 * faster opening sweep), every τ = 1/(f·pace), and its posts' mean age over the horizon is exact for
 * that schedule; the others are in steady state (τ/2). The pace is solved so that the horizon's
 * pages are the plan's, as the scheduler's pace controller and spare-budget fill hand out the pages
 * the subjects not yet due leave.
 *
 * Lag. The steady model matched the regime-switching worlds only because the lag of noticing a
 * change (longer at a lower budget) cancelled the transient; with the transient modelled the lag
 * must be too. A subject's rate that changed within half an interval is still read at its old
 * level, so its posts to come are weighed towards its long-run rate by the share 1 − e^(−p·τ/(2τ_run))
 * (p the change probability per window at the running budget's interval τ_run). p is the one the
 * visits measure (`measuredChangeProbability`), not the change test's prior, which is scored on the
 * objective and sits at its cap (0.3) on both drifting worlds: with it the lag overshot 2–3×.
 */
import { expectedPagesPerVisit, planAllocation, visitRatePerHour } from './allocation';
import { burstDispersion, subjectEvidence } from './evidence-memory';
import { allocationOptions, changeOptions, type ScheduleModel } from './poisson';
import { changeLikelihoods, changeWeightFromLogOdds, fitRatePrior, flatRatePrior, posteriorMeanPerHour } from './rate-model';
import type { SubjectState } from './subject-state';

const HOUR_MS = 3_600_000;
/** The pace is searched within these bounds (the pace controller's own range is narrower). */
const PACE_BOUNDS = [0.5, 1.5] as const;

/** ∫₀^x (u mod τ) du: the posts' age integrated over x hours for visits at 0, τ, 2τ, … */
export function sawtoothAgeHours2(xHours: number, tauHours: number): number {
  if (xHours <= 0) return 0;
  if (!Number.isFinite(tauHours)) return (xHours * xHours) / 2;
  const k = Math.floor(xHours / tauHours);
  const r = xHours - k * tauHours;
  return (k * tauHours * tauHours) / 2 + (r * r) / 2;
}

/** Visits at τ, 2τ, … up to x hours. */
export function visitsBy(xHours: number, tauHours: number): number {
  return xHours < 0 ? 0 : Math.floor(xHours / tauHours);
}

/** The evidence read as clusters of `dispersion` posts where posts burst (as `expectedPostRates` reads it). */
function clusterMemory(model: ScheduleModel, dispersion: number): ScheduleModel['rates']['memory'] {
  return dispersion > 1 ? { full: false, historyHours: 0, ...model.rates.memory, dispersion } : model.rates.memory;
}

/**
 * The share of windows in which a subject's rate changed, by maximum likelihood of the change
 * test's two hypotheses over the subjects (EM). Read as clusters: a burst is not a new rate (on the
 * combined world bursts alone would read 0.31 against 0.10–0.12).
 */
export function measuredChangeProbability(states: readonly SubjectState[], model: ScheduleModel, dispersion = burstDispersion(states)): number {
  const sigma = changeOptions(model).changeSigma;
  const memory = clusterMemory(model, dispersion);
  const logRatio: number[] = [];
  for (const s of states) {
    const l = changeLikelihoods(model.rates, subjectEvidence(s, memory), sigma);
    if (l && Number.isFinite(l.changed - l.same)) logRatio.push(l.changed - l.same);
  }
  if (logRatio.length === 0) return 0;
  let p = 0.1;
  for (let k = 0; k < 200; k++) {
    let sum = 0;
    for (const r of logRatio) sum += changeWeightFromLogOdds(Math.log(p / (1 - p)) + r);
    const next = Math.min(0.99, Math.max(1e-4, sum / logRatio.length));
    if (Math.abs(next - p) < 1e-7) return next;
    p = next;
  }
  return p;
}

/** Each subject's long-run rate, its evidence read as the posts to come are (clusters, the prior refitted). */
export function longRunPostRates(states: readonly SubjectState[], model: ScheduleModel, dispersion = burstDispersion(states)): Float64Array {
  const evidence = states.map((s) => subjectEvidence(s, clusterMemory(model, dispersion)));
  const start = model.rates.weights.length > 1 ? model.rates : (model.rates.mixture ?? flatRatePrior());
  const prior = dispersion > 1 ? fitRatePrior(evidence, start, 30) : model.rates;
  return Float64Array.from(evidence, (e) => posteriorMeanPerHour(prior, Math.max(0, e.posts), Math.max(0, e.hours)));
}

/** Hours (from the epoch) of each subject's first visit, or NaN where the state cannot say. */
export function firstVisitHours(states: readonly SubjectState[]): Float64Array {
  return Float64Array.from(states, (s) => (s.lastVisitMs !== null && s.openHours >= 0 ? s.lastVisitMs / HOUR_MS - (s.allHours - s.openHours) : Number.NaN));
}

export interface TransientInputs {
  states: readonly SubjectState[];
  model: ScheduleModel;
  /** The allocation's rate estimates and the posts to come (burst-adjusted) per subject, per hour. */
  rates: Float64Array;
  weights: Float64Array;
  nowMs: number;
  horizonHours: number;
}

/** What the transient forecast reads once for every budget. */
export interface TransientContext extends TransientInputs {
  firstHours: Float64Array;
  longRun: Float64Array;
  changeProbability: number;
  runVisitsPerHour: Float64Array;
}

export function transientContext(inputs: TransientInputs): TransientContext {
  const { states, model, rates } = inputs;
  const dispersion = burstDispersion(states);
  const runPlan = planAllocation(rates, allocationOptions({ ...model.config }));
  return {
    ...inputs, firstHours: firstVisitHours(states), longRun: longRunPostRates(states, model, dispersion),
    changeProbability: measuredChangeProbability(states, model, dispersion), runVisitsPerHour: rates.map((r) => visitRatePerHour(runPlan, r)),
  };
}

/** The posts to come at a budget whose visits are `f`: towards the long-run rate by the lag's share. */
export function laggedWeights(c: TransientContext, f: ArrayLike<number>): Float64Array {
  return Float64Array.from(c.weights, (w, i) => {
    if (!(f[i]! > 0) || !(c.runVisitsPerHour[i]! > 0)) return w;
    const share = -Math.expm1(-(c.changeProbability * c.runVisitsPerHour[i]!) / f[i]! / 2);
    return Math.max(0, w + (c.longRun[i]! - w) * share);
  });
}

/** The mean delay (hours) over the horizon at `budgetPerHour`, and the pace that spends its pages. */
export function transientMeanDelay(c: TransientContext, budgetPerHour: number): { meanDelayHours: number; pace: number } {
  const plan = planAllocation(c.rates, allocationOptions({ ...c.model.config, budgetPerHour }));
  const f = c.rates.map((r) => visitRatePerHour(plan, r));
  const w = laggedWeights(c, f);
  let total = 0;
  for (const x of w) total += x;
  const t0 = c.nowMs / HOUR_MS;
  const span = c.horizonHours;
  const t1 = t0 + span;
  // A slower sweep reaches each subject later, in proportion from its discovery.
  const stretch = c.model.config.budgetPerHour / budgetPerHour;
  const at = (pace: number): { pages: number; waiting: number } => {
    let pages = 0;
    let waiting = 0;
    for (let i = 0; i < f.length; i++) {
      if (!(f[i]! > 0)) continue;
      const tau = 1 / (f[i]! * pace);
      const ppv = expectedPagesPerVisit(c.rates[i]! * tau, plan.pageSize, plan.pageLimit);
      const seenHours = c.states[i]!.firstSeenMs / HOUR_MS;
      const first = Number.isNaN(c.firstHours[i]!) ? Number.NaN : seenHours + (c.firstHours[i]! - seenHours) * stretch;
      if (Number.isNaN(first) || first + tau <= t0) {
        pages += (ppv * span) / tau;
        waiting += (w[i]! * tau) / 2;
        continue;
      }
      const a = Math.max(t0, first);
      pages += (visitsBy(t1 - first, tau) - visitsBy(a - first, tau)) * ppv;
      const ageHours2 = sawtoothAgeHours2(t1 - first, tau) - sawtoothAgeHours2(a - first, tau) + ((a - t0) * (a - t0)) / 2;
      waiting += (w[i]! * ageHours2) / span;
    }
    return { pages, waiting };
  };
  const pace = paceSpending((p) => at(p).pages, plan.spentPerHour * span);
  return { meanDelayHours: total > 0 ? at(pace).waiting / total : 0, pace };
}

/**
 * The pace within PACE_BOUNDS at which `pagesAt` spends `targetPages` (pages grow with the pace),
 * by bisection; a bound where even it over- or under-spends.
 */
export function paceSpending(pagesAt: (pace: number) => number, targetPages: number): number {
  let lo: number = PACE_BOUNDS[0];
  let hi: number = PACE_BOUNDS[1];
  if (pagesAt(hi) <= targetPages) return hi;
  if (pagesAt(lo) >= targetPages) return lo;
  for (let k = 0; k < 40; k++) {
    const mid = (lo + hi) / 2;
    if (pagesAt(mid) < targetPages) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
