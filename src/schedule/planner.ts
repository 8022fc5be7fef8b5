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
 */
import { allocationOptions, subjectRatePerHour, type ScheduleModel } from './poisson';
import { planAllocation, visitRatePerHour } from './allocation';
import { burstDispersion, subjectEvidence } from './evidence-memory';
import { fitRatePrior, flatRatePrior, twoScaleRatePerHour } from './rate-model';
import type { SubjectState } from './subject-state';

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
}

/** The posts to come per subject (per hour): the estimates, re-read as over-dispersed when φ > 1. */
export function expectedPostRates(states: readonly SubjectState[], model: ScheduleModel, dispersion: number): Float64Array {
  if (!(dispersion > 1)) return Float64Array.from(states, (s) => subjectRatePerHour(s, model));
  const memory = { full: false, historyHours: 0, ...model.rates.memory, dispersion };
  const evidence = states.map((s) => subjectEvidence(s, memory));
  // Refitted from the current grid (a one-Gamma prior has no weights to refit: from a flat grid).
  const start = model.rates.weights.length > 1 ? model.rates : (model.rates.mixture ?? flatRatePrior());
  const prior = fitRatePrior(evidence, start, 30);
  const opts = { changeProbability: model.config.changeProbability, changeSigma: model.config.changeSigma };
  return Float64Array.from(evidence, (e) => twoScaleRatePerHour(prior, e, opts));
}

export function forecastBudgets(states: readonly SubjectState[], model: ScheduleModel, budgetsPerHour: readonly number[]): BudgetForecast[] {
  const rates = Float64Array.from(states, (s) => subjectRatePerHour(s, model));
  const dispersion = burstDispersion(states);
  const weights = dispersion > 1 ? expectedPostRates(states, model, dispersion) : rates;
  let total = 0;
  for (const w of weights) total += w;
  return budgetsPerHour.map((budgetPerHour) => {
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
    return {
      budgetPerHour, meanDelayHours: total > 0 ? waiting / total : 0, p90DelayHours: hi, withinDayShare: caughtBy(24), plannedPagesPerHour: plan.spentPerHour, dispersion,
    };
  });
}
