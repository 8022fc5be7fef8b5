/**
 * The planner's calibration at the end of the warm-up (freshet at 1x, as `--forecast-only`), set
 * against what the committed runs ask for (Little 1x / model 1x): read from the posts found
 * (`realizedDelay`), by Little's law over the faded window (`windowDelay`), and the same with the
 * posts the world really holds waiting instead of the expected ones. Exploration, dev seeds:
 * `node .state/build/test/bench/schedule/calibration-diagnose.js WORLD SEED[,SEED]`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../lib/results';
import { createPolicy } from '../../../src/schedule/simulation/policies';
import { FreshetPolicy } from '../../../src/schedule/simulation/policies/freshet';
import { simulate, simulationEndMs } from '../../../src/schedule/simulation/simulate';
import { generateWorld } from '../../../src/schedule/simulation/world';
import { subjectRatePerHour } from '../../../src/schedule/poisson';
import { burstDispersion, expectedPostRates, forecastBudgets, realizedDelay } from '../../../src/schedule/planner';
import { windowDelay } from '../../../src/schedule/planner-calibration';
import { DELAY_HALF_LIFE_HOURS } from '../../../src/schedule/subject-state';
import { parseArgs } from './args';
import { policyOptions, simulationOf } from './realistic';
import { type RealisticWorld, realisticWorldOptions } from './worlds';

const H = 3_600_000;
const BUDGETS = [0.25, 0.5, 1, 2];

function main(): void {
  const [worldName = 'bursty', seedsArg = '11'] = process.argv.slice(2);
  const all = parseArgs(['--rn', '10000']);
  const n = all.realistic.subjects;
  const report = JSON.parse(readFileSync(join(projectRoot(), 'test', 'bench', 'results', 'schedule.json'), 'utf8')) as { results: { system: string; variant: string; metric: string; value: number }[] };
  for (const seed of seedsArg.split(',').map(Number)) {
    const little = BUDGETS.map((b) => report.results.find((r) => r.system === 'freshet' && r.metric === 'little_mean_delay_hours' && r.variant.startsWith(`${worldName}/${b}x/seed${seed}`))!.value);
    const sim = simulationOf(all);
    const world = generateWorld(realisticWorldOptions(worldName as RealisticWorld, n, simulationEndMs(sim), seed));
    const budgetPerHour = n / 24;
    const policy = createPolicy('freshet', policyOptions(world, budgetPerHour, sim, all));
    if (!(policy instanceof FreshetPolicy)) throw new Error('not freshet');
    const replan = policy.replan.bind(policy);
    let done = false;
    policy.replan = (t: number): void => {
      replan(t);
      if (done || t < sim.warmupMs) return;
      done = true;
      const states = Array.from({ length: n }, (_, id) => policy.state(id));
      const model = policy.currentModel;
      const rows = forecastBudgets(states, model, BUDGETS.map((b) => (b * n) / 24), { nowMs: t });
      const rates = Float64Array.from(states, (s) => subjectRatePerHour(s, model));
      const d = burstDispersion(states);
      const weights = d > 1 ? expectedPostRates(states, model, d) : rates;
      const running = rows[2]!.modelMeanDelayHours;
      const show = (name: string, mean: number): void => {
        const c = Math.min(2, Math.max(0.5, mean / running));
        console.log(`${worldName} s${seed} ${name.padEnd(22)} cal ${c.toFixed(3)} ratios ${rows.map((r, i) => (c * r.modelMeanDelayHours / little[i]!).toFixed(3)).join(' ')}`);
      };
      console.log(`${worldName} s${seed} ideal cal ${(little[2]! / running).toFixed(3)}; model/Little ${rows.map((r, i) => (r.modelMeanDelayHours / little[i]!).toFixed(3)).join(' ')}`);
      show('found (before)', realizedDelay(states, t).meanDelayHours);
      show('window (Little)', windowDelay(states, weights, t).meanDelayHours);
      // The same with the posts the world really holds waiting, instead of the expected ones.
      const found = windowDelay(states, new Float64Array(n), t);
      const k = Math.LN2 / DELAY_HALF_LIFE_HOURS;
      let wp = 0;
      let wh = 0;
      let ep = 0;
      for (let id = 0; id < n; id++) {
        const s = states[id]!;
        if (s.lastVisitMs === null) continue;
        ep += (weights[id]! * (t - s.lastVisitMs)) / H;
        for (let j = world.offsets[id]!; j < world.offsets[id + 1]!; j++) {
          const p = world.postTimesMs[j]!;
          if (p > s.lastVisitMs && p <= t) {
            const age = (t - p) / H;
            wp += Math.exp(-k * age);
            wh += -Math.expm1(-k * age) / k;
          }
        }
      }
      show('window, true waiting', (found.waitingHours + wh) / (found.posts + wp));
      console.log(`${worldName} s${seed} posts waiting now: expected ${ep.toFixed(0)}`);
      throw new Error('done');
    };
    try {
      simulate(world, policy, { ...sim, budgetPerHour });
    } catch (e) {
      if (!(e instanceof Error) || e.message !== 'done') throw e;
    }
  }
}

main();
