/**
 * The planner's calibration at the end of the warm-up (freshet at 1x, as `--forecast-only`), set
 * against what the committed runs ask for (Little 1x / model 1x): read from the posts found
 * (`realizedDelay`), by Little's law over the faded window (`windowDelay`), and the same with the
 * posts the world really holds waiting instead of the expected ones. Exploration, dev seeds:
 * `node .state/build/test/bench/schedule/calibration-diagnose.js WORLD SEED[,SEED]`.
 */
import { realizedDelay } from '../../../src/schedule/planner';
import { windowDelay } from '../../../src/schedule/planner-calibration';
import { DELAY_HALF_LIFE_HOURS } from '../../../src/schedule/subject-state';
import { atWarmupEnd } from './warmup-state';

const H = 3_600_000;

function main(): void {
  const [worldName = 'bursty', seedsArg = '11'] = process.argv.slice(2);
  for (const seed of seedsArg.split(',').map(Number)) {
    atWarmupEnd(worldName, seed, ({ n, world, states, rows, weights, little, nowMs: t }) => {
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
    });
  }
}

main();
