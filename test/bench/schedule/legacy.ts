/**
 * Issue 6's suite: stationary Poisson posters (log-normal rates, σ = 1.5), warm or cold starts with
 * the history start known, pages of 20. Its goal rows are kept so that the fixes of issue 21 are
 * seen not to cost anything where the old scheduler was already good.
 */
import { type GoalRow, type ResultRow, goal } from '../lib/results';
import { type PolicyName, createPolicy } from '../../../src/schedule/simulation/policies';
import type { SimulationMetrics } from '../../../src/schedule/simulation/metrics';
import { type SimulationOptions, simulate, simulationEndMs } from '../../../src/schedule/simulation/simulate';
import { DEFAULT_WORLD, type World, generateWorld, trueProfile } from '../../../src/schedule/simulation/world';
import type { BenchArgs } from './args';

export interface Suite {
  params: Record<string, unknown>;
  results: ResultRow[];
  goals: GoalRow[];
}

type Scenario = 'homogeneous' | 'cold' | 'diurnal';

const POLICIES: Record<Scenario, PolicyName[]> = {
  homogeneous: ['oracle', 'freshet', 'freshet-freshness', 'uniform', 'seed-heuristic'],
  cold: ['freshet', 'seed-heuristic'],
  diurnal: ['oracle', 'oracle-diurnal', 'freshet', 'freshet-diurnal'],
};

interface Run {
  scenario: Scenario;
  budget: number;
  seed: number;
  m: SimulationMetrics;
}

export function runLegacy(all: BenchArgs, sim: Omit<SimulationOptions, 'budgetPerHour'>, keep: (p: string) => boolean): Suite {
  const args = { ...all.legacy, warmupDays: all.warmupDays, measureDays: all.measureDays };
  const endMs = simulationEndMs(sim);
  const runs: Run[] = [];
  const theory: { scenario: Scenario; budget: number; seed: number; hours: number }[] = [];
  for (const seed of args.seeds) {
    const worlds: Partial<Record<Scenario, World>> = {};
    const flat = generateWorld({ ...DEFAULT_WORLD, subjects: args.subjects, sigma: args.sigma, endMs, seed });
    worlds.homogeneous = flat;
    worlds.cold = flat;
    if (args.diurnal > 0) worlds.diurnal = generateWorld({ ...flat.options, diurnalAmplitude: args.diurnal });
    for (const scenario of ['homogeneous', 'cold', 'diurnal'] as const) {
      const world = worlds[scenario];
      if (!args.scenarios.has(scenario) || !world) continue;
      for (const budget of args.budgets) {
        // A budget of 1× pays for one single-page visit per subject per day.
        const budgetPerHour = (budget * args.subjects) / 24;
        if (scenario !== 'cold') {
          // The square-root rule's expected delay, (Σ√λ)² / (2 B Σλ), for this world: an anchor for the
          // oracle (which adds only page costs and Poisson noise) and for the reference numbers.
          let sumSqrt = 0;
          let sum = 0;
          for (const r of world.ratePerHour) {
            sumSqrt += Math.sqrt(r);
            sum += r;
          }
          theory.push({ scenario, budget, seed, hours: (sumSqrt * sumSqrt) / (2 * budgetPerHour * sum) });
        }
        for (const name of POLICIES[scenario]) {
          if (!keep(name)) continue;
          const t0 = Date.now();
          const policy = createPolicy(name, {
            subjects: world.subjects, startMs: 0, budgetPerHour, pageSize: sim.pageSize,
            truth: { ratePerHour: world.ratePerHour, profile: (id) => trueProfile(world, id) },
          });
          const m = simulate(world, policy, { ...sim, budgetPerHour, warmStart: scenario !== 'cold' });
          runs.push({ scenario, budget, seed, m });
          console.error(`[schedule] legacy ${scenario} ${budget}x seed ${seed} ${name}: mean ${m.meanDelayHours.toFixed(3)} h, `
            + `p90 ${m.p90DelayHours.toFixed(2)} h, ≤1h ${(100 * m.within1hShare).toFixed(1)} %, lost ${m.lost}, `
            + `waiting ${m.uncaptured}, fresh ${m.freshness.toFixed(4)}, captured from start ${(100 * m.capturedShareFromStart).toFixed(2)} %, `
            + `pages/h ${m.pagesPerHour.toFixed(1)} of ${budgetPerHour.toFixed(1)} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
        }
      }
    }
  }

  const results: ResultRow[] = [];
  const metricsOf = (m: SimulationMetrics): [string, number][] => [
    ['mean_delay_hours', m.meanDelayHours], ['p90_delay_hours', m.p90DelayHours], ['within_1h_share', m.within1hShare],
    ['posts_lost', m.lost], ['posts_waiting_at_end', m.uncaptured], ['avg_freshness', m.freshness],
    ['captured_share_from_start', m.capturedShareFromStart], ['pages_per_hour', m.pagesPerHour],
  ];
  const round = (x: number): number => (Number.isFinite(x) ? Math.round(x * 10_000) / 10_000 : x);
  for (const r of runs) {
    for (const [metric, value] of metricsOf(r.m)) {
      results.push({ system: r.m.policy, variant: `${r.scenario}/${r.budget}x/seed${r.seed}`, metric, value: round(value) });
    }
  }
  for (const t of theory) {
    results.push({ system: 'sqrt-rule-theory', variant: `${t.scenario}/${t.budget}x/seed${t.seed}`, metric: 'mean_delay_hours', value: round(t.hours) });
  }
  // Means over seeds, the figures to compare with the reference simulation.
  const keyOf = (r: Run): string => `${r.scenario}|${r.budget}|${r.m.policy}`;
  const groups = new Map<string, Run[]>();
  for (const r of runs) groups.set(keyOf(r), [...(groups.get(keyOf(r)) ?? []), r]);
  for (const group of groups.values()) {
    const first = group[0]!;
    const names = metricsOf(first.m).map(([k]) => k);
    names.forEach((metric, i) => {
      const mean = group.reduce((s, r) => s + metricsOf(r.m)[i]![1], 0) / group.length;
      results.push({ system: first.m.policy, variant: `${first.scenario}/${first.budget}x/mean-of-${group.length}-seeds`, metric, value: round(mean) });
    });
  }

  const find = (scenario: Scenario, budget: number, seed: number, policy: string): SimulationMetrics | undefined =>
    runs.find((r) => r.scenario === scenario && r.budget === budget && r.seed === seed && r.m.policy === policy)?.m;
  /** The worst seed's ratio: "for any seed". */
  const worst = (scenario: Scenario, budget: number, a: string, b: string, larger: boolean): number | null => {
    let w: number | null = null;
    for (const seed of args.seeds) {
      const x = find(scenario, budget, seed, a);
      const y = find(scenario, budget, seed, b);
      if (!x || !y) return null;
      const v = x.meanDelayHours / y.meanDelayHours;
      if (w === null || (larger ? v > w : v < w)) w = v;
    }
    return w === null ? null : round(w);
  };
  const goals: GoalRow[] = [];
  for (const budget of args.budgets) {
    goals.push(goal(`${budget}x: freshet / oracle mean delay (worst seed)`, '<=', 1.04, worst('homogeneous', budget, 'freshet', 'oracle', true)));
    goals.push(goal(`${budget}x: freshet / seed-heuristic mean delay (worst seed)`, '<=', 0.4, worst('homogeneous', budget, 'freshet', 'seed-heuristic', true)));
    let cold: number | null = null;
    for (const seed of args.seeds) {
      const m = find('cold', budget, seed, 'freshet');
      cold = m && (cold === null || m.capturedShareFromStart < cold) ? m.capturedShareFromStart : m ? cold : null;
    }
    goals.push(goal(`${budget}x: cold-start freshet captured share of posts (worst seed)`, '>=', 0.99, cold === null ? null : round(cold)));
    goals.push(goal(`${budget}x: diurnal world, freshet-diurnal / homogeneous oracle mean delay (worst seed)`, '<=', 0.95,
      worst('diurnal', budget, 'freshet-diurnal', 'oracle', true)));
  }
  const params = {
    subjects: args.subjects, rate_median_per_day: DEFAULT_WORLD.medianPerDay, rate_sigma: args.sigma,
    inactive_share: DEFAULT_WORLD.inactiveShare, inactive_per_day: DEFAULT_WORLD.inactivePerDay,
    budget_multiples_of_daily_uniform: args.budgets, seeds: args.seeds, diurnal_amplitude: args.diurnal,
    page_size: sim.pageSize, max_pages_per_visit: sim.maxPagesPerVisit, history_pages: sim.historyPages, history_days: DEFAULT_WORLD.historyDays,
  };
  return { params, results, goals };
}
