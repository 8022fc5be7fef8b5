/**
 * Compares calibrators of the en model by nested cross-validation on its out-of-fold logits
 * (`npm run train:sentiment -- --lang en --en-dump-oof FILE`): each calibrator is fitted on four
 * folds' logits and scored (ECE, re-weighted to the evaluation splits' class mix) on the fifth.
 * Usage: node .state/build/scripts/sentiment/compare-calibrators.js FILE
 */
import { readFileSync } from 'node:fs';
import { reliability } from '../../src/eval/calibration';
import { fitCalibration } from './calibrate';
import { fitTopLabelMap, mapConfidence } from '../../src/enrichers/sentiment/top-label';

const TEST_MIX = [0.323, 0.483, 0.193];
const DB = [0.6, 0, 0.9];
type Cal = (z: number[]) => number[];

function softmax(u: number[]): number[] {
  const m = Math.max(...u);
  const e = u.map((v) => Math.exp(v - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / s);
}

function labelConf(u: number[]): { pred: number; conf: number } {
  const p = softmax(u);
  let best = 0;
  for (let j = 1; j < 3; j++) if (Math.log(p[j]!) + DB[j]! > Math.log(p[best]!) + DB[best]!) best = j;
  return { pred: best, conf: p[best]! };
}

/** Per-class slope and bias (vector scaling) by full-batch Adam on the weighted log loss. */
function fitVector(zs: number[][], ys: number[], ws: number[]): Cal {
  const t = [1, 1, 1, 0, 0, 0];
  const m = new Array(6).fill(0);
  const v = new Array(6).fill(0);
  const W = ws.reduce((a, b) => a + b, 0);
  for (let it = 1; it <= 400; it++) {
    const g = new Array(6).fill(0);
    for (let i = 0; i < zs.length; i++) {
      const z = zs[i]!;
      const p = softmax(z.map((x, j) => t[j]! * x + t[3 + j]!));
      for (let j = 0; j < 3; j++) {
        const d = (p[j]! - (ys[i] === j ? 1 : 0)) * ws[i]! / W;
        g[j] += d * z[j]!;
        g[3 + j] += d;
      }
    }
    g[3] = 0;
    for (let a = 0; a < 6; a++) {
      m[a] = 0.9 * m[a] + 0.1 * g[a];
      v[a] = 0.999 * v[a] + 0.001 * g[a] * g[a];
      t[a]! -= 0.02 * (m[a] / (1 - 0.9 ** it)) / (Math.sqrt(v[a] / (1 - 0.999 ** it)) + 1e-8);
    }
  }
  return (z) => z.map((x, j) => t[j]! * x + t[3 + j]!);
}

function main(): void {
  const d = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as { gold: number[]; fold: number[]; oof: number[][] };
  const n = d.gold.length;
  const counts = [0, 0, 0];
  for (const y of d.gold) counts[y]!++;
  const w = d.gold.map((y) => TEST_MIX[y]! / (counts[y]! / n));
  const folds = Math.max(...d.fold) + 1;
  const bases: Record<string, (zs: number[][], ys: number[], ws: number[]) => Cal> = {
    none: () => (z) => z,
    tb: (zs, ys, ws) => {
      const g = fitCalibration(zs.map((z) => Float64Array.from(z)), ys, ws, 3);
      return (z) => z.map((x, j) => x / g.temperature + g.bias[j]!);
    },
    vec: fitVector,
  };
  const tops = ['none', 'hist10', 'hist20', 'hist40', 'pl10', 'pl20', 'pl40'];
  for (const [bn, fit] of Object.entries(bases)) {
    for (const top of tops) {
      const conf = new Array<number>(n);
      const correct = new Array<boolean>(n);
      const perFold: number[] = [];
      for (let f = 0; f < folds; f++) {
        const tr = d.gold.map((_, i) => i).filter((i) => d.fold[i] !== f);
        const te = d.gold.map((_, i) => i).filter((i) => d.fold[i] === f);
        const cal = fit(tr.map((i) => d.oof[i]!), tr.map((i) => d.gold[i]!), tr.map((i) => w[i]!));
        const lcTr = tr.map((i) => labelConf(cal(d.oof[i]!)));
        const map = top === 'none' ? undefined : fitTopLabelMap(lcTr.map((x) => x.conf), lcTr.map((x, k) => x.pred === d.gold[tr[k]!]), tr.map((i) => w[i]!), Number(top.slice(top.startsWith('pl') ? 2 : 4)), top.startsWith('pl') ? 'linear' : 'step');
        for (const i of te) {
          const lc = labelConf(cal(d.oof[i]!));
          conf[i] = map ? mapConfidence(map, lc.conf) : lc.conf;
          correct[i] = lc.pred === d.gold[i];
        }
        perFold.push(reliability(te.map((i) => conf[i]!), te.map((i) => correct[i]!), 10, te.map((i) => w[i]!)).ece);
      }
      const pooled = reliability(conf, correct, 10, w).ece;
      const rec = [0, 1, 2].map((k) => d.gold.filter((y, i) => y === k && correct[i]).length / counts[k]!);
      process.stdout.write(`${bn.padEnd(5)} ${top.padEnd(7)} ECE per-fold mean ${(perFold.reduce((a, b) => a + b, 0) / folds).toFixed(4)} max ${Math.max(...perFold).toFixed(4)} pooled ${pooled.toFixed(4)} macroR ${((rec[0]! + rec[1]! + rec[2]!) / 3).toFixed(4)}\n`);
    }
  }
}

main();
