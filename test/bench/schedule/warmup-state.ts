/**
 * What the planner's exploration tools read: freshet's reference run (1x budget, 10,000 subjects)
 * stopped at the end of the warm-up, as `--forecast-only` takes it, with the committed report's
 * Little delays of that world and seed. Shared by calibration-diagnose.ts and transient-diagnose.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../lib/results';
import { createPolicy } from '../../../src/schedule/simulation/policies';
import { FreshetPolicy } from '../../../src/schedule/simulation/policies/freshet';
import { simulate, simulationEndMs } from '../../../src/schedule/simulation/simulate';
import { generateWorld } from '../../../src/schedule/simulation/world';
import { subjectRatePerHour, type ScheduleModel } from '../../../src/schedule/poisson';
import { burstDispersion, expectedPostRates, forecastBudgets, type BudgetForecast } from '../../../src/schedule/planner';
import type { SubjectState } from '../../../src/schedule/subject-state';
import { parseArgs } from './args';
import { policyOptions, simulationOf, whenWarmedUp } from './realistic';
import { type RealisticWorld, realisticWorldOptions } from './worlds';

/** The budgets of the committed report, in multiples of one page per subject per day. */
export const BUDGETS = [0.25, 0.5, 1, 2];

export interface WarmupState {
  n: number;
  world: ReturnType<typeof generateWorld>;
  sim: ReturnType<typeof simulationOf>;
  /** The reference run's budget (1x). */
  budgetPerHour: number;
  nowMs: number;
  states: SubjectState[];
  model: ScheduleModel;
  /** The planner's forecasts at BUDGETS. */
  rows: BudgetForecast[];
  /** Each subject's estimated rate, and the posts to come the forecast weighs it by (burst-adjusted). */
  rates: Float64Array;
  weights: Float64Array;
  /** The committed report's Little delays (hours) at BUDGETS. */
  little: number[];
}

const STOP = 'warm-up read';

/** Freshet's reference run of world `worldName`, seed `seed`, at `budgetMultiple` × one page per subject per day (10,000 subjects), not yet run. */
export function referenceRun(worldName: string, budgetMultiple: number, seed: number): {
  all: ReturnType<typeof parseArgs>;
  n: number;
  sim: ReturnType<typeof simulationOf>;
  world: ReturnType<typeof generateWorld>;
  budgetPerHour: number;
  policy: FreshetPolicy;
} {
  const all = parseArgs(['--rn', '10000']);
  const n = all.realistic.subjects;
  const sim = simulationOf(all);
  const world = generateWorld(realisticWorldOptions(worldName as RealisticWorld, n, simulationEndMs(sim), seed));
  const budgetPerHour = (budgetMultiple * n) / 24;
  const policy = createPolicy('freshet', policyOptions(world, budgetPerHour, sim, all));
  if (!(policy instanceof FreshetPolicy)) throw new Error('freshet is not a FreshetPolicy');
  return { all, n, sim, world, budgetPerHour, policy };
}

/** Runs `read` on the state at the end of the warm-up of world `worldName`, seed `seed`. */
export function atWarmupEnd(worldName: string, seed: number, read: (s: WarmupState) => void): void {
  const { n, sim, world, budgetPerHour, policy } = referenceRun(worldName, 1, seed);
  const report = JSON.parse(readFileSync(join(projectRoot(), 'test', 'bench', 'results', 'schedule.json'), 'utf8')) as { results: { system: string; variant: string; metric: string; value: number }[] };
  const little = BUDGETS.map((b) => report.results.find((r) => r.system === 'freshet' && r.metric === 'little_mean_delay_hours' && r.variant.startsWith(`${worldName}/${b}x/seed${seed}`))!.value);
  whenWarmedUp(policy, sim.warmupMs, (t) => {
    const states = Array.from({ length: n }, (_, id) => policy.state(id));
    const model = policy.currentModel;
    // The steady state: the tools built on this compare their own horizon models with it.
    const rows = forecastBudgets(states, model, BUDGETS.map((b) => (b * n) / 24), { nowMs: t });
    const rates = Float64Array.from(states, (s) => subjectRatePerHour(s, model));
    const d = burstDispersion(states);
    const weights = d > 1 ? expectedPostRates(states, model, d) : rates;
    read({ n, world, sim, budgetPerHour, nowMs: t, states, model, rows, rates, weights, little });
    throw new Error(STOP);
  });
  try {
    simulate(world, policy, { ...sim, budgetPerHour });
  } catch (e) {
    if (!(e instanceof Error) || e.message !== STOP) throw e;
  }
}
