/**
 * The what-if planner: what a different budget would buy, from the current population's rate
 * estimates, before anyone spends a request.
 *
 * For each budget the allocation is solved again (allocation.ts). A subject visited every 1/f hours
 * catches each of its posts after a delay uniform on [0, 1/f], so the population's delay is a
 * mixture of uniforms weighted by the rates: mean Σ λ_i/(2 f_i) / Σ λ_i, the share indexed within a
 * day Σ λ_i min(1, 24 f_i) / Σ λ_i, and the p90 the delay d where Σ λ_i min(1, d f_i) = 0.9 Σ λ_i
 * (found by bisection on d). Time-of-day shaping and the page limit's gaps are left out.
 */
import { allocationOptions, subjectRatePerHour, type ScheduleModel } from './poisson';
import { planAllocation, visitRatePerHour } from './allocation';
import type { SubjectState } from './subject-state';

export interface BudgetForecast {
  budgetPerHour: number;
  meanDelayHours: number;
  p90DelayHours: number;
  /** Share of posts indexed within 24 hours of publication. */
  withinDayShare: number;
  plannedPagesPerHour: number;
}

export function forecastBudgets(states: readonly SubjectState[], model: ScheduleModel, budgetsPerHour: readonly number[]): BudgetForecast[] {
  const rates = Float64Array.from(states, (s) => subjectRatePerHour(s, model));
  let total = 0;
  for (const r of rates) total += r;
  return budgetsPerHour.map((budgetPerHour) => {
    const plan = planAllocation(rates, allocationOptions({ ...model.config, budgetPerHour }));
    const f = rates.map((r) => visitRatePerHour(plan, r));
    const caughtBy = (d: number): number => {
      let c = 0;
      for (let i = 0; i < rates.length; i++) c += rates[i]! * Math.min(1, d * f[i]!);
      return total > 0 ? c / total : 1;
    };
    let waiting = 0;
    for (let i = 0; i < rates.length; i++) if (rates[i]! > 0) waiting += rates[i]! / (2 * f[i]!);
    let lo = 0;
    let hi = 1;
    while (caughtBy(hi) < 0.9 && hi < 1e7) hi *= 2;
    for (let k = 0; k < 60; k++) {
      const mid = (lo + hi) / 2;
      if (caughtBy(mid) < 0.9) lo = mid;
      else hi = mid;
    }
    return {
      budgetPerHour, meanDelayHours: total > 0 ? waiting / total : 0, p90DelayHours: hi, withinDayShare: caughtBy(24), plannedPagesPerHour: plan.spentPerHour,
    };
  });
}
