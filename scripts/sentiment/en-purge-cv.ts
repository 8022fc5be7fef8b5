/**
 * How much the en calibration's out-of-fold logits still know of the held-out topics. Folds are by
 * guessed topic (topic-groups.ts: one capitalised word per tweet), but a held-out topic's word also
 * occurs in tweets of other folds keyed by another word ("Kendrick" in a tweet keyed t:david), so
 * the fold models have seen some of every held-out topic. Purged CV: for each held-out fold, the
 * training tweets holding any of its topic words (capitalised) are dropped; a control drops as many
 * random training tweets, so what differs is topic leakage, not data size. For each study the
 * calibration (temperature + class bias, decision biases, top-label map) is fitted on one run's
 * out-of-fold logits and scored on another's, per fold (nested), test-split mix.
 * sentiment-train only. `node .state/build/scripts/sentiment/en-purge-cv.js [--train DIR] [--bag 1] [--dump DIR] [--runs none,topic,random] [--l2 X]`
 * (`--l2`: another L2 than the committed model's, to ask whether unseen topics want more of it).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { logits } from '../../src/enrichers/sentiment/model';
import { reliability } from '../../src/eval/calibration';
import { mapConfidence } from '../../src/enrichers/sentiment/top-label';
import { foldOf } from './cv';
import { argValue } from './data';
import { fitCalibration } from './calibrate';
import { featurize, trainBagged, type Featurized } from './sgd';
import { bestBiases, predicted, topLabelOf, TWEETEVAL_TEST_MIX } from './train-en';
import { capitalised } from './topic-groups';
import { EN_SEED as seed, enCvSetup } from './en-cv-setup';

const argv = process.argv.slice(2);
const bag = Number(argValue(argv, 'bag', '1'));
const dump = argValue(argv, 'dump', '');
const log = (m: string): void => { process.stderr.write(`[en-purge-cv ${new Date().toISOString().slice(11, 19)}] ${m}\n`); };
const K = 5;

const { base, gold, mix, lexicon, params: committed, charNgrams } = enCvSetup(argv);
const params = { ...committed, l2: Number(argValue(argv, 'l2', String(committed.l2))) };
const names = argValue(argv, 'runs', 'none,topic,random').split(',') as ('none' | 'topic' | 'random')[];
const feats: Featurized[] = featurize('en', base, undefined, lexicon, undefined, charNgrams ? { charNgrams: true } : {});
const fold = base.map((e) => foldOf(e.group ?? e.id, K, seed));
const words = base.map((e) => capitalised(e.text));
const testW = (i: number): number => TWEETEVAL_TEST_MIX[gold[i]!]! / mix[gold[i]!]!;

/** A deterministic pseudo-random number in [0, 1) per tweet and fold (the random control's draw). */
const draw = (i: number, f: number): number => foldOf(`${base[i]!.id}#${f}`, 1 << 20, seed + 7) / (1 << 20);

function oofRun(purge: 'none' | 'topic' | 'random'): Float64Array[] {
  const out = new Array<Float64Array>(base.length);
  for (let f = 0; f < K; f++) {
    const keys = new Set(base.filter((e, i) => fold[i] === f && e.group).map((e) => e.group!.slice(2)));
    const rest = base.map((_, i) => i).filter((i) => fold[i] !== f);
    const leaks = new Set(rest.filter((i) => [...words[i]!].some((w) => keys.has(w))));
    const share = leaks.size / rest.length;
    const tr = purge === 'none' ? rest : purge === 'topic' ? rest.filter((i) => !leaks.has(i)) : rest.filter((i) => draw(i, f) >= share);
    const m = trainBagged(params, bag, tr.map((i) => base[i]!), tr.map((i) => feats[i]!));
    const z = new Float64Array(3);
    for (let i = 0; i < base.length; i++) {
      if (fold[i] !== f) continue;
      logits(m, feats[i]!.feats, feats[i]!.strong, z, feats[i]!.vals);
      out[i] = Float64Array.from(z);
    }
    log(`${purge} fold ${f}: trained on ${tr.length} of ${rest.length} (${(100 * share).toFixed(1)} % hold a held-out topic word)`);
  }
  return out;
}

/** Calibration fitted on `fitOn`'s other folds, scored on `scoreOn`'s held-out fold: ECE, signed gap (confidence − accuracy), macro recall; per fold and pooled. */
function crossScore(fitOn: Float64Array[], scoreOn: Float64Array[]): string {
  const conf: number[] = [];
  const right: boolean[] = [];
  const w: number[] = [];
  const pred: number[] = [];
  const idx: number[] = [];
  const perFold: string[] = [];
  for (let f = 0; f < K; f++) {
    const tr = base.map((_, i) => i).filter((i) => fold[i] !== f);
    const te = base.map((_, i) => i).filter((i) => fold[i] === f);
    const cal = fitCalibration(tr.map((i) => fitOn[i]!), tr.map((i) => gold[i]!), tr.map(testW), 3);
    const c = (u: ArrayLike<number>): Float64Array => Float64Array.from(u, (v, j) => v / cal.temperature + cal.bias[j]!);
    const b = bestBiases(tr.map((i) => c(fitOn[i]!)), tr.map((i) => gold[i]!));
    const db = [b.neg, 0, b.pos];
    const map = topLabelOf(tr.map((i) => c(fitOn[i]!)), tr.map((i) => gold[i]!), db, tr.map(testW), 20);
    const fc: number[] = [];
    const fr: boolean[] = [];
    for (const i of te) {
      const pc = predicted(c(scoreOn[i]!), db);
      const k = mapConfidence(map, pc.conf);
      conf.push(k); fc.push(k);
      right.push(pc.pred === gold[i]); fr.push(pc.pred === gold[i]);
      w.push(testW(i)); pred.push(pc.pred); idx.push(i);
    }
    const fw = te.map(testW);
    perFold.push(reliability(fc, fr, 10, fw).ece.toFixed(3));
  }
  const sw = w.reduce((a, v) => a + v, 0);
  const gap = w.reduce((a, v, k) => a + v * (conf[k]! - (right[k] ? 1 : 0)), 0) / sw;
  const rec = [0, 1, 2].map((j) => { const q = idx.map((i, k) => [i, k] as const).filter(([i]) => gold[i] === j); return q.filter(([, k]) => pred[k] === j).length / q.length; });
  return `ECE ${reliability(conf, right, 10, w).ece.toFixed(4)} (folds ${perFold.join(' ')}) gap ${gap >= 0 ? '+' : ''}${gap.toFixed(4)} macro recall ${((rec[0]! + rec[1]! + rec[2]!) / 3).toFixed(4)}`;
}

const runs = new Map(names.map((n) => [n, oofRun(n)]));
if (dump) for (const [name, z] of runs) writeFileSync(join(dump, `en-oof-${name}-bag${bag}-l2${params.l2}.json`), JSON.stringify({ gold, fold, oof: z.map((u) => Array.from(u)) }));
for (const [fitOn, zf] of runs) {
  for (const [scoreOn, zs] of runs) {
    process.stdout.write(`bag ${bag} l2 ${params.l2} fitted on ${fitOn}, scored on ${scoreOn}: ${crossScore(zf, zs)}\n`);
  }
}
