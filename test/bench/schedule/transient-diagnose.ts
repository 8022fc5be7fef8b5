/**
 * A prototype of the forecast over the measured window of a crawl as young as the one forecast
 * from, not its steady state, against the committed runs (freshet at 1x, taken at the warm-up's
 * end as `--forecast-only` does). Each subject's first visit is read from its state (last visit −
 * (all hours − the open first window)), moved for the budget's slower or faster sweep, and it is
 * then visited every τ = 1/(f·pace) in lockstep; the mean wait over the window is exact for that
 * schedule (`G`). The pace is solved so that the window's pages are the plan's, as the scheduler's
 * pace controller and fill hand out what subjects not yet due leave. Modes:
 *  - v0: the steady state (today's planner); v1: lockstep only until the first revisit after the
 *    sweep, steady after; v2: lockstep throughout;
 *  - a `lag` suffix weighs each subject's posts to come towards its long-run rate, by the share
 *    1 − e^(−p·τ/(2τ_run)) (p the learned change probability per visit window); `lagrel` by only
 *    the share beyond the running budget's, e^(−p/2) − e^(−p·τ/(2τ_run)), which the 1x calibration
 *    already holds (negative above 1x: weights pushed from the long-run rate, floored at 0).
 * Findings (dev seeds 11–13, recalibrated at 1x): v2 puts stationary-s2 at 0.996–1.045 and
 * stationary-s1.5 at 0.962–0.992 on every budget, bursty at 0.902–1.035, but takes drifting seed 13
 * to 0.897 and combined seed 13 to 0.839 at 0.25x (combined seed 11 to 1.128 at 2x): there the
 * steady model matched only because the lag of noticing a regime change (longer intervals at low
 * budgets) cancelled the transient. The
 * lag weights fix drifting (0.969–1.096) and overshoot combined (1.23–1.27 at 0.25x).
 * Second pass (RECAL lines, dev seeds 11–13, budgets 0.25/0.5/1/2x):
 *  - v1 (the window model only for subjects whose first revisit after the sweep is at or after the
 *    window's start): stationary-s1.5 0.975–1.009, stationary-s2 0.996–1.066 (the unmet goal row
 *    met), bursty 0.925–1.047, drifting 0.889–1.095 (s13 0.25x 0.889), combined 0.852–1.084
 *    (s13 0.25x 0.852, s12 0.932): only the two 0.25x cells on the regime-switching worlds fail.
 *  - v1lag: drifting 0.944–1.115 (s12 1.100 / 1.115 at 0.25x / 0.5x), combined 0.986–1.283 (s12
 *    1.283 / 1.141, s13 1.101 / 1.107). v1lagrel is worse still: drifting s12 1.103 / 1.116,
 *    combined s12 1.331 / 1.155. The lag's cost at 0.25x is real (+5–15 % over v1) but this share
 *    overshoots it 2–3× and adds too much at 0.5x already; with p = 0.3 (the top of the change
 *    grid, where drifting and combined both sit) the share is not the world's hourly hazard.
 *  - Any variant recalibrated at 1x keeps the 1x cell of today's planner (drifting s12 1.095,
 *    combined s11 1.074): the calibration's own noise leaves drifting s12 no margin at 1x.
 *  - `ml`: the lag's change probability measured by the visits (maximum likelihood of the change
 *    test's mixture, on the evidence read as clusters where posts burst) instead of the test's
 *    prior: 0.07–0.09 on drifting, 0.10–0.12 on combined (0.31 without the cluster reading: bursts
 *    read as changes), ≤ 0.003 on bursty. `lrd`: the long-run rate read as the posts to come are
 *    (clusters, refitted prior) rather than scaled by their ratio. v1lagmllrd: stationary-s1.5
 *    0.975–1.009, stationary-s2 0.996–1.066, bursty 0.925–1.047, drifting 0.916–1.095, combined
 *    0.916–1.075: every world in bounds (planner-transient.ts).
 * Exploration tool, dev seeds only:
 * `node .state/build/test/bench/schedule/transient-diagnose.js WORLD SEED[,SEED] [v0|v1|v2][lag|lagrel][ml][lrd]`.
 */
import { allocationOptions, changeOptions } from '../../../src/schedule/poisson';
import { expectedPagesPerVisit, planAllocation, visitRatePerHour } from '../../../src/schedule/allocation';
import { posteriorMeanPerHour } from '../../../src/schedule/rate-model';
import { subjectEvidence } from '../../../src/schedule/evidence-memory';
import { longRunPostRates, measuredChangeProbability, paceSpending, sawtoothAgeHours2 as G, visitsBy as count } from '../../../src/schedule/planner-transient';
import { atWarmupEnd, BUDGETS } from './warmup-state';

const H = 3_600_000;

function main(): void {
  const [worldName = 'stationary-s2', seedsArg = '11', mode = 'v2'] = process.argv.slice(2);
  for (const seed of seedsArg.split(',').map(Number)) {
    atWarmupEnd(worldName, seed, ({ n, sim, budgetPerHour, states, model, rows, rates, weights, little, nowMs: t }) => {
      const cal = rows[0]!.calibration;
      const longRun = mode.includes('lrd') ? longRunPostRates(states, model) : Float64Array.from(states, (s, i) => {
        const e = subjectEvidence(s, model.rates.memory);
        const lr = posteriorMeanPerHour(model.rates, Math.max(0, e.posts), Math.max(0, e.hours));
        return rates[i]! > 0 ? lr * (weights[i]! / rates[i]!) : lr;
      });
      const pc = mode.includes('ml') ? measuredChangeProbability(states, model) : changeOptions(model).changeProbability;
      const runPlan = planAllocation(rates, allocationOptions({ ...model.config }));
      const fRun = rates.map((r) => visitRatePerHour(runPlan, r));
      const t0 = t / H;
      const W = sim.measureMs / H;
      const t1 = t0 + W;
      const firstRun = states.map((s) => {
        if (s.lastVisitMs === null) return Number.NaN;
        if (s.openHours >= 0) return s.lastVisitMs / H - (s.allHours - s.openHours);
        return Number.NaN;
      });
      let known = 0;
      for (const f of firstRun) if (!Number.isNaN(f)) known++;
      const out: string[] = [];
      const res: number[] = [];
      BUDGETS.forEach((b, bi) => {
        const B = (b * n) / 24;
        const plan = planAllocation(rates, allocationOptions({ ...model.config, budgetPerHour: B }));
        const f = rates.map((r) => visitRatePerHour(plan, r));
        const wB = Float64Array.from(weights, (w, i) => {
          if (!mode.includes('lag') || !(f[i]! > 0)) return w;
          // rel: only the lag beyond the running budget's, which the calibration already holds.
          const k = mode.includes('rel') ? Math.exp(-pc / 2) - Math.exp(-pc * fRun[i]! / f[i]! / 2) : 1 - Math.exp(-pc * fRun[i]! / f[i]! / 2);
          return Math.max(0, w + (longRun[i]! - w) * k);
        });
        let wsum = 0;
        for (const w of wB) wsum += w;
        const F = firstRun.map((x, i) => (Number.isNaN(x) ? Number.NaN : states[i]!.firstSeenMs / H + (x - states[i]!.firstSeenMs / H) * (budgetPerHour / B)));
        const evalAt = (p: number): { pages: number; delay: number } => {
          let pages = 0;
          let wait = 0;
          for (let i = 0; i < n; i++) {
            if (!(f[i]! > 0)) continue;
            const tau = 1 / (f[i]! * p);
            const ppv = expectedPagesPerVisit(rates[i]! * tau, plan.pageSize, plan.pageLimit);
            const Fi = F[i]!;
            const lockstep = !Number.isNaN(Fi) && (mode.startsWith('v2') || Fi + tau > t0);
            if (!lockstep || mode.startsWith('v0')) {
              pages += (ppv * W) / tau;
              wait += (wB[i]! * tau) / 2;
              continue;
            }
            const a = Math.max(t0, Fi);
            const visits = count(t1 - Fi, tau) - count(a - Fi, tau);
            pages += visits * ppv;
            const age = (G(t1 - Fi, tau) - G(a - Fi, tau) + (a - t0) * (a - t0) / 2) / W;
            wait += wB[i]! * age;
          }
          return { pages, delay: wait / wsum };
        };
        const p = !mode.startsWith('v0') && mode !== 'nopace' ? paceSpending((x) => evalAt(x).pages, plan.spentPerHour * W) : 1;
        const r = evalAt(p);
        res.push(r.delay);
        out.push(`${b}x pace ${p.toFixed(3)} model ${(r.delay / little[bi]!).toFixed(3)} cal ${(cal * r.delay / little[bi]!).toFixed(3)} (steady ${(rows[bi]!.meanDelayHours / little[bi]!).toFixed(3)})`);
      });
      const ri = BUDGETS.indexOf(1);
      const calNew = cal * rows[ri]!.modelMeanDelayHours / res[ri]!;
      console.log(`RECAL ${worldName} s${seed} ${mode} ` + res.map((x, i) => (calNew * x / little[i]!).toFixed(3)).join(' '));
      console.log(`${worldName} s${seed} ${mode} pc ${pc} known F ${known}/${n} cal ${cal.toFixed(3)}: ${out.join(' | ')}`);
    });
  }
}

main();
