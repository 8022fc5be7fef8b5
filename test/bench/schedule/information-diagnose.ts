/**
 * How much of the stationary gap information could still close, at the end of the warm-up: the
 * square-root rule's excess delay over the oracle's, (Σ λᵢ/√wᵢ)(Σ √wᵢ)/(Σ √λᵢ)², for allocation
 * weights w from freshet's own estimates, and from a learner with the same prior that has read every
 * post up to now and knows each subject's whole exposure since its history start ("lag-free": no
 * visit policy can know more). A Poisson subject's evidence is its exposure, whatever the visits:
 * more frequent visits only make it current, so the lag-free figure bounds what exploration
 * (optimism, information bonuses, Thompson draws) could gain. Also prints the true rate over the
 * estimate by decile of the estimate (a calibrated posterior reads ~1 in every decile).
 * Found with it (wave 13, dev seeds, 10,000 subjects, day 10): stationary-s1.5 0.25x seed 12
 * 1.0616 → 1.0487 lag-free, 0.5x seed 11 1.0588 → 1.0487, 1x seed 12 1.0553 → 1.0482;
 * stationary-s2 0.5x seed 12 1.0471 → 1.0386, 1x seed 11 1.0433 → 1.0377; every decile
 * within 0.95–1.12. Exploration tool, dev seeds only:
 * `node .state/build/test/bench/schedule/information-diagnose.js [world] [budget] [seed]`.
 */
import { subjectRatePerHour } from '../../../src/schedule/poisson';
import { posteriorMeanPerHour } from '../../../src/schedule/rate-model';
import { simulate } from '../../../src/schedule/simulation/simulate';
import type { World } from '../../../src/schedule/simulation/world';
import { whenWarmedUp } from './realistic';
import { referenceRun } from './warmup-state';

const H = 3_600_000;
const STOP = 'warm-up read';

/** The square-root rule's delay with weights w over the oracle's (weights the true rates). */
function sqrtRuleExcess(world: World, weight: (i: number) => number): number {
  let spent = 0;
  let waited = 0;
  let oracle = 0;
  for (let i = 0; i < world.subjects; i++) {
    const w = Math.sqrt(Math.max(1e-12, weight(i)));
    waited += world.ratePerHour[i]! / w;
    spent += w;
    oracle += Math.sqrt(world.ratePerHour[i]!);
  }
  return (waited * spent) / (oracle * oracle);
}

function postsUpTo(world: World, id: number, nowMs: number): number {
  let k = 0;
  for (let j = world.offsets[id]!; j < world.offsets[id + 1]!; j++) if (world.postTimesMs[j]! <= nowMs) k++;
  return k;
}

function main(): void {
  const [worldName = 'stationary-s1.5', budgetArg = '1', seedArg = '12'] = process.argv.slice(2);
  const { n, sim, world, budgetPerHour, policy } = referenceRun(worldName, Number(budgetArg), Number(seedArg));
  whenWarmedUp(policy, sim.warmupMs, (t) => {
    const model = policy.currentModel;
    const estimates = Float64Array.from({ length: n }, (_, id) => subjectRatePerHour(policy.state(id), model));
    const lagFree = Float64Array.from({ length: n }, (_, id) => posteriorMeanPerHour(model.rates, postsUpTo(world, id, t), (t - world.historyStartMs) / H));
    console.log(`${worldName} ${budgetArg}x seed ${seedArg}, day ${(t / 86_400_000).toFixed(2)}: square-root-rule excess over the oracle, `
      + `estimates ${sqrtRuleExcess(world, (i) => estimates[i]!).toFixed(4)}, lag-free ${sqrtRuleExcess(world, (i) => lagFree[i]!).toFixed(4)} `
      + `(visible history learned ${model.rates.memory?.historyHours.toFixed(1)} h; from the world's history start to now ${((t - world.historyStartMs) / H).toFixed(1)} h)`);
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => estimates[a]! - estimates[b]!);
    const deciles: string[] = [];
    for (let g = 0; g < 10; g++) {
      let est = 0;
      let truth = 0;
      for (const i of order.slice(Math.floor((g * n) / 10), Math.floor(((g + 1) * n) / 10))) {
        est += estimates[i]!;
        truth += world.ratePerHour[i]!;
      }
      deciles.push((truth / est).toFixed(3));
    }
    console.log(`true rate / estimate by decile of the estimate: ${deciles.join(' ')}`);
    throw new Error(STOP);
  });
  try {
    simulate(world, policy, { ...sim, budgetPerHour });
  } catch (e) {
    if (!(e instanceof Error) || e.message !== STOP) throw e;
  }
}

main();
