/**
 * Nested cross-validation of what the en training ships: the calibration, decision biases and
 * top-label map are fitted on out-of-fold logits of models trained on (k−1)/k of the posts, but the
 * shipped model was trained on all of them, and more data means larger weights (more confident
 * logits) than the calibration saw. For each outer fold, the inner folds' out-of-fold logits give
 * the calibration, then the outer fold is scored by (a) a model trained on all inner posts, as
 * shipped so far, and (b) the mean of the inner fold models (whose logits the calibration was
 * fitted on). sentiment-train only.
 * `node .state/build/scripts/sentiment/en-ship-cv.js [--train DIR] [--bag 1] [--outer 5]`
 */
import type { LinearModel } from '../../src/enrichers/sentiment/model-file';
import { logits } from '../../src/enrichers/sentiment/model';
import { reliability } from '../../src/eval/calibration';
import { mapConfidence } from '../../src/enrichers/sentiment/top-label';
import { foldOf } from './cv';
import { argValue } from './data';
import { fitCalibration } from './calibrate';
import { featurize, trainBagged, type Featurized } from './sgd';
import { bestBiases, predicted, topLabelOf, TWEETEVAL_TEST_MIX } from './train-en';
import { meanModel } from './mean-model';
import { EN_SEED as seed, enCvSetup } from './en-cv-setup';

const argv = process.argv.slice(2);
const bag = Number(argValue(argv, 'bag', '1'));
const outer = Number(argValue(argv, 'outer', '5'));
const log = (m: string): void => { process.stderr.write(`[en-ship-cv ${new Date().toISOString().slice(11, 19)}] ${m}\n`); };

const { base, gold, mix, lexicon, params, charNgrams } = enCvSetup(argv);
log(`featurizing ${base.length} tweets`);
const feats: Featurized[] = featurize('en', base, undefined, lexicon, undefined, charNgrams ? { charNgrams: true } : {});
const testW = (i: number): number => TWEETEVAL_TEST_MIX[gold[i]!]! / mix[gold[i]!]!;
const train = (idx: number[]): LinearModel => trainBagged(params, bag, idx.map((i) => base[i]!), idx.map((i) => feats[i]!));
const z = new Float64Array(3);
const score = (m: LinearModel, i: number): Float64Array => { logits(m, feats[i]!.feats, feats[i]!.strong, z, feats[i]!.vals); return Float64Array.from(z); };

const key = (i: number): string => base[i]!.group ?? base[i]!.id;
const outerFold = base.map((_, i) => foldOf(key(i), 5, seed));
type Out = { pred: number; conf: number; i: number };
const results: Record<string, Out[]> = { full: [], mean: [] };
for (let f = 0; f < outer; f++) {
  const tr = base.map((_, i) => i).filter((i) => outerFold[i] !== f);
  const te = base.map((_, i) => i).filter((i) => outerFold[i] === f);
  const inner = tr.map((i) => foldOf(key(i), 4, seed + 1));
  const oof = new Map<number, Float64Array>();
  const models: LinearModel[] = [];
  for (let g = 0; g < 4; g++) {
    const m = train(tr.filter((_, k) => inner[k] !== g));
    models.push(m);
    tr.forEach((i, k) => { if (inner[k] === g) oof.set(i, score(m, i)); });
    log(`outer ${f} inner ${g} trained`);
  }
  const zs = tr.map((i) => oof.get(i)!);
  const cal = fitCalibration(zs, tr.map((i) => gold[i]!), tr.map(testW), 3);
  const c = (u: ArrayLike<number>): Float64Array => Float64Array.from(u, (v, j) => v / cal.temperature + cal.bias[j]!);
  const b = bestBiases(zs.map(c), tr.map((i) => gold[i]!));
  const db = [b.neg, 0, b.pos];
  const map = topLabelOf(zs.map(c), tr.map((i) => gold[i]!), db, tr.map(testW), 20);
  const shipped: Record<string, LinearModel> = { mean: meanModel(models), full: train(tr) };
  for (const [name, m] of Object.entries(shipped)) {
    for (const i of te) {
      const pc = predicted(c(score(m, i)), db);
      results[name]!.push({ pred: pc.pred, conf: mapConfidence(map, pc.conf), i });
    }
  }
  log(`outer ${f}: T ${cal.temperature.toFixed(3)} biases ${JSON.stringify(db)}; ${summary()}`);
}

function summary(): string {
  return Object.entries(results).map(([name, r]) => {
    const rec = [0, 1, 2].map((j) => { const q = r.filter((x) => gold[x.i] === j); return q.filter((x) => x.pred === j).length / q.length; });
    const w = r.map((x) => testW(x.i));
    const ece = reliability(r.map((x) => x.conf), r.map((x) => x.pred === gold[x.i]), 10, w).ece;
    const meanConf = r.reduce((s, x, k) => s + x.conf * w[k]!, 0) / w.reduce((a, v) => a + v, 0);
    const acc = r.reduce((s, x, k) => s + (x.pred === gold[x.i] ? w[k]! : 0), 0) / w.reduce((a, v) => a + v, 0);
    return `${name}: macro recall ${((rec[0]! + rec[1]! + rec[2]!) / 3).toFixed(4)} ECE(test mix) ${ece.toFixed(4)} mean conf ${meanConf.toFixed(4)} acc ${acc.toFixed(4)}`;
  }).join(' | ');
}
process.stdout.write(summary() + '\n');
