/**
 * Where freshet's delay comes from, by true-rate group: visits, estimated rates and summed delay
 * against the long-run oracle's, on one realistic world (dev seeds only). Exploration tool:
 * `node .state/build/test/bench/schedule/diagnose.js [world] [budget] [subjects] [seed] [key=value,...]`.
 */
import { type PolicyName, createPolicy } from '../../../src/schedule/simulation/policies';
import { FreshetPolicy } from '../../../src/schedule/simulation/policies/freshet';
import type { SchedulingPolicy } from '../../../src/schedule/simulation/policies/policy';
import { subjectRatePerHour } from '../../../src/schedule/poisson';
import { simulate, simulationEndMs } from '../../../src/schedule/simulation/simulate';
import type { VisitResult } from '../../../src/schedule/subject-state';
import { currentRatePerHour, generateWorld, trueProfile } from '../../../src/schedule/simulation/world';
import { priorFrom } from '../../../src/schedule/rate-model';
import { REALISTIC_SIMULATION } from './realistic';
import { type RealisticWorld, realisticWorldOptions } from './worlds';

const DAY_MS = 86_400_000;
const EDGES = [0, 0.01, 0.03, 0.1, 0.3, 1, 3, 10, Number.POSITIVE_INFINITY];

class Recording implements SchedulingPolicy {
  readonly visits: number[][];
  estimates: Float64Array | null = null;
  constructor(readonly inner: SchedulingPolicy, n: number, private readonly snapshotMs: number) {
    this.visits = Array.from({ length: n }, () => []);
  }
  get name(): string {
    return this.inner.name;
  }
  pick(nowMs: number, max: number, out: number[]): void {
    this.inner.pick(nowMs, max, out);
  }
  observe(id: number, visit: VisitResult): void {
    this.visits[id]!.push(visit.atMs);
    this.inner.observe(id, visit);
  }
  replan(nowMs: number): void {
    this.inner.replan(nowMs);
    if (this.estimates === null && nowMs >= this.snapshotMs && this.inner instanceof FreshetPolicy) {
      const p = this.inner;
      this.estimates = Float64Array.from({ length: this.visits.length }, (_, id) => subjectRatePerHour(p.state(id), p.currentModel) * 24);
    }
  }
  overdueShare(nowMs: number): number {
    return this.inner.overdueShare?.(nowMs) ?? 0;
  }
}

function main(): void {
  const [worldName = 'stationary-s1.5', budgetArg = '1', nArg = '4000', seedArg = '11', cfg = ''] = process.argv.slice(2);
  const config: Record<string, number | string | boolean> = {};
  for (const kv of cfg.split(',').filter(Boolean)) {
    const [k, v] = kv.split('=');
    config[k!] = v === 'true' ? true : v === 'false' ? false : Number.isFinite(Number(v)) ? Number(v) : v!;
  }
  const n = Number(nArg);
  const truePrior = config['truePrior'] === 1;
  delete config['truePrior'];
  const ref = (config['ref'] as PolicyName | undefined) ?? 'oracle';
  delete config['ref'];
  const sim = { ...REALISTIC_SIMULATION, warmupMs: 10 * DAY_MS, measureMs: 7 * DAY_MS, tailMs: 3 * DAY_MS };
  for (const k of Object.keys(config)) {
    if (!k.startsWith('sim.')) continue;
    (sim as Record<string, unknown>)[k.slice(4)] = config[k];
    delete config[k];
  }
  const world = generateWorld(realisticWorldOptions(worldName as RealisticWorld, n, simulationEndMs(sim), Number(seedArg)));
  const budgetPerHour = (Number(budgetArg) * n) / 24;
  const lo = sim.warmupMs;
  const hi = sim.warmupMs + sim.measureMs;
  const groups = EDGES.slice(0, -1).map((_, g) => ({ g, ids: [] as number[] }));
  for (let id = 0; id < n; id++) {
    const perDay = world.ratePerHour[id]! * 24;
    const g = EDGES.findIndex((e, i) => perDay >= e && perDay < EDGES[i + 1]!);
    groups[g]!.ids.push(id);
  }
  const out: Record<string, { visits: number[]; delay: number[]; posts: number[]; est: number[]; even: number[]; cv2: number[]; mean: number }> = {};
  for (const name of ['freshet', ref] as PolicyName[]) {
    const inner = createPolicy(name, {
      subjects: n, startMs: 0, budgetPerHour, pageSize: sim.pageSize, config: { ...config, pageLimit: sim.maxPagesPerVisit },
      truth: { ratePerHour: world.ratePerHour, profile: (id) => trueProfile(world, id), currentRatePerHour: (id, t) => currentRatePerHour(world, id, t) },
    });
    if (truePrior && inner instanceof FreshetPolicy) {
      // The ideal prior: the world's own rates (quantiles), as near-point masses.
      const sorted = Float64Array.from(world.ratePerHour).sort();
      const q = 200;
      const means = Float64Array.from({ length: q }, (_, i) => Math.max(1e-9, sorted[Math.floor(((i + 0.5) / q) * n)]!));
      const prior = priorFrom(1000, means, new Float64Array(q).fill(1 / q));
      const p = inner as unknown as { model: { rates: unknown }; priorFittedMs: number };
      p.model = { ...p.model, rates: prior };
      p.priorFittedMs = Number.POSITIVE_INFINITY;
    }
    const rec = new Recording(inner, n, lo);
    const m = simulate(world, rec, { ...sim, budgetPerHour });
    const visits: number[] = [];
    const delay: number[] = [];
    const posts: number[] = [];
    const est: number[] = [];
    const even: number[] = [];
    const cv2: number[] = [];
    const windowHours = (hi - lo) / 3_600_000;
    for (const { ids } of groups) {
      let v = 0;
      let d = 0;
      let k = 0;
      let e = 0;
      let ev = 0;
      let cvSum = 0;
      let cvN = 0;
      for (const id of ids) {
        const vs = rec.visits[id]!;
        let vi = 0;
        for (const t of vs) if (t >= lo && t < hi) vi++;
        // How uneven the subject's intervals were (CV² of the intervals ending in the window): a
        // post waits E[I²]/(2E[I]), so unevenness costs 1 + CV² over evenly spaced visits.
        let s1 = 0;
        let s2 = 0;
        let ni = 0;
        for (let q = 1; q < vs.length; q++) {
          if (vs[q]! < lo || vs[q]! >= hi) continue;
          const len = vs[q]! - vs[q - 1]!;
          s1 += len;
          s2 += len * len;
          ni++;
        }
        if (ni >= 3) {
          cvSum += (ni * s2) / (s1 * s1) - 1;
          cvN++;
        }
        v += vi;
        // The delay the same number of visits would give, evenly spaced, at the true rate: the
        // allocation's share of the delay, apart from the timing of the visits and Poisson luck.
        ev += (world.ratePerHour[id]! * windowHours * windowHours) / (2 * Math.max(1, vi));
        let j = 0;
        for (let p = world.offsets[id]!; p < world.offsets[id + 1]!; p++) {
          const t = world.postTimesMs[p]!;
          if (t < lo || t >= hi) continue;
          while (j < vs.length && vs[j]! < t) j++;
          k++;
          d += ((j < vs.length ? vs[j]! : simulationEndMs(sim)) - t) / 3_600_000;
        }
        if (rec.estimates) e += rec.estimates[id]!;
      }
      visits.push(v);
      delay.push(d);
      posts.push(k);
      est.push(ids.length ? e / ids.length : 0);
      even.push(ev);
      cv2.push(cvN ? cvSum / cvN : Number.NaN);
    }
    out[name] = { visits, delay, posts, est, even, cv2, mean: m.meanDelayHours };
    if (inner instanceof FreshetPolicy) console.error(`memory at the end: ${JSON.stringify(inner.currentModel.rates.memory)}`);
  }
  const f = out['freshet']!;
  const o = out[ref]!;
  const totalPosts = f.posts.reduce((a, b) => a + b, 0);
  console.log(`${worldName} ${budgetArg}x n=${n} seed=${seedArg} ${cfg}: freshet ${f.mean.toFixed(3)} h, oracle ${o.mean.toFixed(3)} h, ratio ${(f.mean / o.mean).toFixed(4)}`);
  console.log('group(/day)      n   true/d  est/d   visits f/o          posts   delay-sum f/o (share of excess)   even-visits delay f/o   interval CV² f/o');
  const excess = f.delay.reduce((a, b) => a + b, 0) - o.delay.reduce((a, b) => a + b, 0);
  groups.forEach(({ g, ids }) => {
    const trueMean = ids.reduce((s, id) => s + world.ratePerHour[id]! * 24, 0) / Math.max(1, ids.length);
    console.log(`${`[${EDGES[g]},${EDGES[g + 1]})`.padEnd(13)} ${String(ids.length).padStart(5)} ${trueMean.toFixed(3).padStart(7)} ${f.est[g]!.toFixed(3).padStart(7)} `
      + `${String(f.visits[g]).padStart(6)}/${String(o.visits[g]).padStart(6)} (${(f.visits[g]! / Math.max(1, o.visits[g]!)).toFixed(2)}) ${String(f.posts[g]).padStart(6)} `
      + `${f.delay[g]!.toFixed(0).padStart(7)}/${o.delay[g]!.toFixed(0).padStart(7)} (${((f.delay[g]! - o.delay[g]!) / excess * 100).toFixed(0)} %)`
      + `   ${f.even[g]!.toFixed(0).padStart(7)}/${o.even[g]!.toFixed(0).padStart(7)}   ${f.cv2[g]!.toFixed(3)}/${o.cv2[g]!.toFixed(3)}`);
  });
  const sum = (x: number[]): number => x.reduce((a, b) => a + b, 0);
  console.log(`posts ${totalPosts}, excess delay ${excess.toFixed(0)} h; even-visits delay f/o ${(sum(f.even) / sum(o.even)).toFixed(4)}, realised/even f ${(sum(f.delay) / sum(f.even)).toFixed(4)} o ${(sum(o.delay) / sum(o.even)).toFixed(4)}`);
}

main();
