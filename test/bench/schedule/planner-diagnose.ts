/**
 * Where the planner's error comes from, on one realistic world: freshet's run at one budget, its
 * simulated delay (Little's law) set against
 *  - the delay Poisson posts at the true rates would wait on the visits freshet actually made (the
 *    posts' clustering and its correlation with the visits apart; intervals cut by the measured
 *    window's ends are left out, so at 0.25x, where quiet subjects wait days, it reads low), and
 *  - the planner's visits (the allocation of the estimates at the end of the warm-up) with the true
 *    rates as weights (the estimates' error apart).
 * A page limit given (`maxPages`, e.g. 1000) replaces the suite's 10: how much the limit's gaps cost.
 * Exploration tool, dev seeds only:
 * `node .state/build/test/bench/schedule/planner-diagnose.js [world] [budget] [seed] [maxPages]`.
 */
import { allocationOptions, subjectRatePerHour } from '../../../src/schedule/poisson';
import { planAllocation, visitRatePerHour } from '../../../src/schedule/allocation';
import { simulate } from '../../../src/schedule/simulation/simulate';
import { currentRatePerHour } from '../../../src/schedule/simulation/world';
import { referenceRun } from './warmup-state';

const HOUR_MS = 3_600_000;
/** Samples of the true rate over the measured window (its regimes and drift move over days). */
const RATE_SAMPLES = 28;

function main(): void {
  const [worldName = 'bursty', budgetArg = '0.5', seedArg = '11', pagesArg] = process.argv.slice(2);
  const { n: subjects, sim, world, budgetPerHour, policy } = referenceRun(worldName, Number(budgetArg), Number(seedArg));
  const fromMs = sim.warmupMs;
  const toMs = sim.warmupMs + sim.measureMs;
  const lastVisitMs = new Float64Array(subjects).fill(Number.NaN);
  // Per subject: ∫ wait dt over the measured window (hours²), from the visits' intervals.
  const waitingHours2 = new Float64Array(subjects);
  const observe = policy.observe.bind(policy);
  policy.observe = (id, visit): void => {
    const before = lastVisitMs[id]!;
    const t = visit.atMs;
    if (!Number.isNaN(before) && t > fromMs && before < toMs) {
      const lo = Math.max(before, fromMs);
      const hi = Math.min(t, toMs);
      waitingHours2[id] = waitingHours2[id]! + ((t - lo) ** 2 - (t - hi) ** 2) / 2 / HOUR_MS ** 2;
    }
    lastVisitMs[id] = t;
    observe(id, visit);
  };
  let planned: Float64Array | null = null;
  const replan = policy.replan.bind(policy);
  policy.replan = (t: number): void => {
    replan(t);
    if (planned || t < fromMs) return;
    const model = policy.currentModel;
    const rates = Float64Array.from({ length: subjects }, (_, id) => subjectRatePerHour(policy.state(id), model));
    const plan = planAllocation(rates, allocationOptions({ ...model.config, budgetPerHour }));
    planned = rates.map((r) => visitRatePerHour(plan, r));
  };
  const maxPagesPerVisit = pagesArg === undefined ? sim.maxPagesPerVisit : Number(pagesArg);
  const m = simulate(world, policy, { ...sim, budgetPerHour, maxPagesPerVisit });
  const windowHours = (toMs - fromMs) / HOUR_MS;
  let posts = 0;
  let onVisitsMade = 0;
  let onPlan = 0;
  for (let id = 0; id < subjects; id++) {
    let rate = 0;
    for (let k = 0; k < RATE_SAMPLES; k++) rate += currentRatePerHour(world, id, fromMs + ((k + 0.5) * (toMs - fromMs)) / RATE_SAMPLES) / RATE_SAMPLES;
    posts += rate;
    onVisitsMade += (rate * waitingHours2[id]!) / windowHours;
    const f = (planned as Float64Array | null)?.[id] ?? 0;
    if (f > 0) onPlan += rate / (2 * f);
  }
  console.log(`${worldName} ${budgetArg}x seed ${seedArg}, ${maxPagesPerVisit} pages a visit: Little ${m.littleMeanDelayHours.toFixed(3)} h; `
    + `Poisson posts on the visits made ${(onVisitsMade / posts).toFixed(3)} h; planned visits, true weights ${(onPlan / posts).toFixed(3)} h`);
}

main();
