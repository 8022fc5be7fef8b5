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
 * Measured (bag 1, committed configuration, macro recall with decision biases fitted on the other
 * folds; per-fold spread in brackets): unpurged 0.6827 (folds 0.677–0.684, sd 0.003), topic-purged
 * 0.6696 (0.663–0.676, sd 0.006), random control 0.6783 (0.670–0.681, sd 0.005): leakage is worth
 * ~0.9 points of macro recall (4 of 5 folds). Confidence minus accuracy, calibration fitted on the
 * unpurged run: +0.0007 on it, +0.0057 topic-purged, +0.0021 random: leakage makes the calibration
 * only ~0.4 points over-confident on unseen topics (ECE 0.0099 vs 0.0054); refitted on the purged
 * run, +0.0008. Purged, L2 1e-5 / 3e-5 / 1e-4 give 0.6708 / 0.6710 / 0.6705 (flat). By n-gram
 * coverage quintile the gap runs −0.005 to +0.007 (no lever). 2,000-tweet files of unseen topics:
 * ECE mean 0.027, p95 0.042, max 0.058 (purged 0.028 / 0.045 / 0.065).
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

/**
 * Whether the tweets whose n-grams the fold model saw least are over-confident: the share of a
 * held-out tweet's (non-strong) features whose bucket some training tweet of its fold model held,
 * and per quintile of it, mean calibrated confidence and accuracy (calibration fitted on the other folds).
 */
function coverageGaps(z: Float64Array[]): string {
  const mask = (1 << params.bucketsLog2) - 1;
  const rows: { cov: number; conf: number; right: number; w: number }[] = [];
  for (let f = 0; f < K; f++) {
    const tr = base.map((_, i) => i).filter((i) => fold[i] !== f);
    const te = base.map((_, i) => i).filter((i) => fold[i] === f);
    const seen = new Uint8Array(mask + 1);
    for (const i of tr) { const x = feats[i]!; for (let k = x.strong; k < x.feats.length; k++) seen[(x.feats[k]! >>> 1) & mask] = 1; }
    const cal = fitCalibration(tr.map((i) => z[i]!), tr.map((i) => gold[i]!), tr.map(testW), 3);
    const c = (u: ArrayLike<number>): Float64Array => Float64Array.from(u, (v, j) => v / cal.temperature + cal.bias[j]!);
    const b = bestBiases(tr.map((i) => c(z[i]!)), tr.map((i) => gold[i]!));
    for (const i of te) {
      const x = feats[i]!;
      let hit = 0;
      for (let k = x.strong; k < x.feats.length; k++) hit += seen[(x.feats[k]! >>> 1) & mask]!;
      const pc = predicted(c(z[i]!), [b.neg, 0, b.pos]);
      rows.push({ cov: x.feats.length > x.strong ? hit / (x.feats.length - x.strong) : 1, conf: pc.conf, right: pc.pred === gold[i] ? 1 : 0, w: testW(i) });
    }
  }
  rows.sort((a, b) => a.cov - b.cov);
  return [0, 1, 2, 3, 4].map((q) => {
    const r = rows.slice(Math.floor((q * rows.length) / 5), Math.floor(((q + 1) * rows.length) / 5));
    const sw = r.reduce((a, x) => a + x.w, 0);
    const conf = r.reduce((a, x) => a + x.w * x.conf, 0) / sw;
    const acc = r.reduce((a, x) => a + x.w * x.right, 0) / sw;
    return `coverage ${r[0]!.cov.toFixed(2)}–${r[r.length - 1]!.cov.toFixed(2)}: confidence ${conf.toFixed(3)} accuracy ${acc.toFixed(3)}`;
  }).join('; ');
}

/**
 * What ECE a calibration right on average still shows on a file of 2,000 tweets of unseen topics
 * (the size of a sentiment-dev file): per held-out fold, 100 draws of whole guessed topics until
 * 2,000 tweets, scored at the test-split mix with the calibration, biases and top-label map fitted
 * on the other folds; mean, 90th and 95th percentile and max over the 500 draws.
 */
function sampledEce(z: Float64Array[], size = 2000, draws = 100): string {
  let state = seed >>> 0;
  const rnd = (): number => { state = (Math.imul(state, 1103515245) + 12345) >>> 0; return state / 2 ** 32; };
  const eces: number[] = [];
  for (let f = 0; f < K; f++) {
    const tr = base.map((_, i) => i).filter((i) => fold[i] !== f);
    const te = base.map((_, i) => i).filter((i) => fold[i] === f);
    const cal = fitCalibration(tr.map((i) => z[i]!), tr.map((i) => gold[i]!), tr.map(testW), 3);
    const c = (u: ArrayLike<number>): Float64Array => Float64Array.from(u, (v, j) => v / cal.temperature + cal.bias[j]!);
    const b = bestBiases(tr.map((i) => c(z[i]!)), tr.map((i) => gold[i]!));
    const db = [b.neg, 0, b.pos];
    const map = topLabelOf(tr.map((i) => c(z[i]!)), tr.map((i) => gold[i]!), db, tr.map(testW), 20);
    const scored = new Map(te.map((i) => { const pc = predicted(c(z[i]!), db); return [i, { conf: mapConfidence(map, pc.conf), right: pc.pred === gold[i] }] as const; }));
    const units = new Map<string, number[]>();
    for (const i of te) { const k = base[i]!.group ?? base[i]!.id; units.set(k, [...(units.get(k) ?? []), i]); }
    const keys = [...units.keys()];
    for (let d = 0; d < draws; d++) {
      const order = keys.map((k) => [rnd(), k] as const).sort((a, b) => a[0] - b[0]);
      const pick: number[] = [];
      for (const [, k] of order) { if (pick.length >= size) break; pick.push(...units.get(k)!); }
      eces.push(reliability(pick.map((i) => scored.get(i)!.conf), pick.map((i) => scored.get(i)!.right), 10, pick.map(testW)).ece);
    }
  }
  eces.sort((a, b) => a - b);
  const q = (p: number): string => eces[Math.floor(p * (eces.length - 1))]!.toFixed(4);
  return `mean ${(eces.reduce((a, v) => a + v, 0) / eces.length).toFixed(4)}, p90 ${q(0.9)}, p95 ${q(0.95)}, max ${q(1)}`;
}

const runs = new Map(names.map((n) => [n, oofRun(n)]));
for (const [name, z] of runs) process.stdout.write(`bag ${bag} l2 ${params.l2} ${name}: ECE of ${2000}-tweet files of unseen topics ${sampledEce(z)}\n`);
for (const [name, z] of runs) process.stdout.write(`bag ${bag} l2 ${params.l2} ${name} by n-gram coverage: ${coverageGaps(z)}\n`);
if (dump) for (const [name, z] of runs) writeFileSync(join(dump, `en-oof-${name}-bag${bag}-l2${params.l2}.json`), JSON.stringify({ gold, fold, oof: z.map((u) => Array.from(u)) }));
for (const [fitOn, zf] of runs) {
  for (const [scoreOn, zs] of runs) {
    process.stdout.write(`bag ${bag} l2 ${params.l2} fitted on ${fitOn}, scored on ${scoreOn}: ${crossScore(zf, zs)}\n`);
  }
}
