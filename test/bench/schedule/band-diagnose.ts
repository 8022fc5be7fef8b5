/**
 * Where the steady-state forecast parts from a run, by band of planned interval: the plan at the
 * warm-up's end (the run's own estimates) with the true rates as weights, against the waiting the
 * measured window really held (every interval, the open ones at its ends too), the visits and pages
 * planned against those made, and the time since each band's last visit at the window's start.
 * Lists a sample of subjects with planned intervals in [minHours, maxHours] and their visit times.
 * Found with it (stationary-s2, seed 11): at 0.25x the subjects planned beyond 336 h (40 %, most
 * never posting) made 242 of 1,020 planned visits, since their first revisit after the cold sweep
 * lies past the window, and the pages they leave go to everyone else (pace 1.11); at 0.5x the same
 * cohort, swept at hour 0–2 and due together at ~305 h, is revisited inside the window (3,137
 * visits against 2,266 planned) and the busy subjects wait 14 % longer than planned.
 * Exploration tool, dev seeds only:
 * `node .state/build/test/bench/schedule/band-diagnose.js [world] [budget] [seed] [minHours] [maxHours]`.
 */
import { allocationOptions, subjectRatePerHour } from '../../../src/schedule/poisson';
import { pagesPerHour, planAllocation, visitRatePerHour } from '../../../src/schedule/allocation';
import { simulate } from '../../../src/schedule/simulation/simulate';
import { currentRatePerHour } from '../../../src/schedule/simulation/world';
import { referenceRun } from './warmup-state';

const H = 3_600_000;
const BANDS = [6, 24, 72, 168, 336, Infinity];

/** E[pages] of a visit finding Poisson(m) posts (pages of 10, at most 10), for the cost model's check. */
function poissonPages(m: number): number {
  let p = Math.exp(-m);
  let e = 0;
  let cdf = 0;
  for (let k = 0; k < 2000 && (cdf < 1 - 1e-12 || k < m); k++) {
    if (k > 0) p *= m / k;
    cdf += p;
    e += p * Math.min(10, Math.max(1, Math.ceil(k / 10)));
  }
  return e + (1 - cdf) * 10;
}

function main(): void {
  const [worldName = 'stationary-s2', budgetArg = '0.25', seedArg = '11', minArg = '168', maxArg = '336'] = process.argv.slice(2);
  const { n, sim, world, budgetPerHour, policy } = referenceRun(worldName, Number(budgetArg), Number(seedArg));
  const fromMs = sim.warmupMs;
  const toMs = sim.warmupMs + sim.measureMs;
  const visits: number[][] = Array.from({ length: n }, () => []);
  const pagesIn = new Float64Array(n);
  const observe = policy.observe.bind(policy);
  policy.observe = (id, v): void => {
    visits[id]!.push(v.atMs);
    if (v.atMs > fromMs && v.atMs < toMs) pagesIn[id] = pagesIn[id]! + Math.min(10, Math.max(1, Math.ceil(v.postTimesMs.length / 10)));
    observe(id, v);
  };
  let planned: Float64Array | null = null;
  let est: Float64Array | null = null;
  let lastAt: Float64Array | null = null;
  let pace = 1;
  const replan = policy.replan.bind(policy);
  policy.replan = (t: number): void => {
    replan(t);
    if (planned || t < fromMs) return;
    const model = policy.currentModel;
    pace = model.pace;
    est = Float64Array.from({ length: n }, (_, id) => subjectRatePerHour(policy.state(id), model));
    const plan = planAllocation(est, allocationOptions({ ...model.config, budgetPerHour }));
    planned = est.map((r) => visitRatePerHour(plan, r));
    lastAt = Float64Array.from({ length: n }, (_, id) => policy.state(id).lastVisitMs ?? Number.NaN);
    console.log(`plan binding ${plan.binding} floorScale ${plan.floorScale} lossScale ${plan.lossScale} pace ${pace}`);
  };
  const m = simulate(world, policy, { ...sim, budgetPerHour });
  const W = (toMs - fromMs) / H;
  const b = BANDS.map(() => ({ subjects: 0, lam: 0, model: 0, real: 0, visitsPlanned: 0, visitsMade: 0, ageAt: 0, pages: 0, pagesModelEst: 0, pagesModelTrue: 0, pagesPoisTrue: 0, estLam: 0 }));
  let lamTot = 0;
  for (let id = 0; id < n; id++) {
    const lam = currentRatePerHour(world, id, fromMs);
    lamTot += lam;
    const f = planned![id]!;
    const T = 1 / f;
    const k = BANDS.findIndex((x) => T < x);
    const band = b[k]!;
    band.subjects++;
    band.lam += lam;
    band.model += lam * T / 2;
    // realized mean age over the window
    const vs = visits[id]!;
    let last = Number.NaN;
    let integ = 0;
    let made = 0;
    let t = fromMs;
    for (const v of vs) {
      if (v <= fromMs) { last = v; continue; }
      if (v >= toMs) break;
      made++;
      const a0 = Number.isNaN(last) ? 0 : t - last;
      integ += (a0 + (v - last) ) / 2 * (v - t);
      t = v; last = v;
    }
    if (!Number.isNaN(last)) integ += ((t - last) + (toMs - last)) / 2 * (toMs - t);
    band.real += lam * integ / (toMs - fromMs) / H;
    band.visitsPlanned += f * W;
    band.visitsMade += made;
    band.pages += pagesIn[id]!;
    band.pagesModelEst += pagesPerHour(f, est![id]!, 10, 10) * W;
    band.pagesModelTrue += pagesPerHour(f, lam, 10, 10) * W;
    band.pagesPoisTrue += poissonPages(lam / f) * f * W;
    band.estLam += est![id]!;
    band.ageAt += Number.isNaN(lastAt![id]!) ? 0 : (fromMs - lastAt![id]!) / H;
  }
  console.log(`${worldName} ${budgetArg}x s${seedArg} Little ${m.littleMeanDelayHours.toFixed(3)} W=${W}h`);
  let mt = 0; let rt = 0;
  BANDS.forEach((x, i) => {
    const q = b[i]!;
    mt += q.model; rt += q.real;
    console.log(`T<${x}: subj ${q.subjects} lamShare ${(q.lam / lamTot).toFixed(3)} model ${(q.model / lamTot).toFixed(3)} real ${(q.real / lamTot).toFixed(3)} visits planned ${q.visitsPlanned.toFixed(0)} made ${q.visitsMade} meanAgeAtStart ${(q.ageAt / Math.max(1, q.subjects)).toFixed(1)} pages ${q.pages} model(est) ${q.pagesModelEst.toFixed(0)} model(true) ${q.pagesModelTrue.toFixed(0)} poisson(true) ${q.pagesPoisTrue.toFixed(0)} estLam/lam ${(q.estLam / q.lam).toFixed(3)}`);
  });
  let shown = 0;
  for (let id = 0; id < n && shown < 25; id++) {
    const T = 1 / planned![id]!;
    if (T < Number(minArg) || T > Number(maxArg)) continue;
    if (id % 7 !== 0) continue;
    shown++;
    console.log(`id ${id} lam/day ${(currentRatePerHour(world, id, fromMs) * 24).toFixed(4)} est/day ${(est![id]! * 24).toFixed(4)} T ${T.toFixed(0)} visits ${visits[id]!.map((v) => (v / H).toFixed(0)).join(' ')}`);
  }
  console.log(`total model ${(mt / lamTot).toFixed(3)} real ${(rt / lamTot).toFixed(3)}`);
}
main();
