import { wordHash } from '../../src/enrichers/sentiment/feature-hash';
import type { EnFeatureSet } from '../../src/enrichers/sentiment/features';
import type { LinearModel, SentimentLabel } from '../../src/enrichers/sentiment/model-file';
import { calibrated, scoreOof, type OofScores } from './oof';
import { writeFileSync } from 'node:fs';
import { foldOf, memoisedOutOfFoldLogits, type CvExample } from './cv';
import { readAfinnLexicon, readPosts, readVaderLexicon } from './data';
import { coordinateSearch, type Config, type Grid } from './search';
import { featurize, trainBagged, type Example, type Featurized } from './sgd';
import { topicGroups } from './topic-groups';
import { fitTopLabelMap, mapConfidence, type TopLabelMap } from '../../src/enrichers/sentiment/top-label';
import { softmaxInto } from '../../src/enrichers/sentiment/calibration';
import { reliability } from '../../src/eval/calibration';
import { fitCalibration } from './calibrate';

export interface EnTrainOptions {
  root: string;
  trainDir: string;
  seed: number;
  folds: number;
  bucketsLog2: number;
  grid: Grid;
  log: (msg: string) => void;
  /** Rounds of the coordinate search. */
  passes: number;
  /** `topic`: a guessed topic's tweets share a fold (scores as on unseen topics); `post`: folds by tweet id. */
  foldsBy: 'topic' | 'post';
  /** The class mix the calibration is fitted for: `even`, `train` or `test` (the evaluation splits' mix the README gives). */
  calibrateFor: 'even' | 'train' | 'test';
  /** Writes the out-of-fold logits, gold labels and folds of the chosen configuration here (for comparing calibrators). */
  dumpOof?: string;
}

const CLASSES: SentimentLabel[] = ['negative', 'neutral', 'positive'];

/**
 * The class mix of the TweetEval test split, as sentiment-train's README gives it (32.3 / 48.3 /
 * 19.3 %). Not used to fit anything: the cross-validated reliability is also reported re-weighted
 * to it, to show what the class-mix shift does to the calibration.
 */
export const TWEETEVAL_TEST_MIX = [0.323, 0.483, 0.193];

/** VADER valences as starting weights: words the training tweets never show still count. */
export function vaderPrior(root: string, bucketsLog2: number, strength: number): Float32Array | undefined {
  if (strength === 0) return undefined;
  const k = 3;
  const prior = new Float32Array((1 << bucketsLog2) * k);
  const mask = (1 << bucketsLog2) - 1;
  for (const [word, valence] of readVaderLexicon(root)) {
    const s = (valence / 4) * strength;
    for (const [negated, sign] of [[false, 1], [true, -0.5]] as const) {
      const h = wordHash(word, negated);
      const base = ((h >>> 1) & mask) * k;
      const v = h & 1 ? -1 : 1;
      prior[base] = -s * sign * v;
      prior[base + 1] = -Math.abs(s) * 0.5 * v;
      prior[base + 2] = s * sign * v;
    }
  }
  return prior;
}

/** The valence lexicon: VADER, then AFINN-165 and emoji scores (×0.8, about VADER's scale) for words VADER lacks. */
export function enLexicon(root: string): Map<number, number> {
  const words = new Map(readVaderLexicon(root));
  for (const [w, v] of readAfinnLexicon(root)) if (!words.has(w)) words.set(w, v * 0.8);
  return new Map([...words].map(([w, v]) => [wordHash(w, false), v]));
}

/** Decision biases (negative, positive; neutral fixed at 0) that maximise macro recall of these logits. */
export function bestBiases(zs: Float64Array[], gold: number[]): { neg: number; pos: number; recall: number } {
  let best = { neg: 0, pos: 0, recall: -1 };
  for (let neg = -1; neg <= 1.001; neg += 0.05) {
    for (let pos = -1; pos <= 1.001; pos += 0.05) {
      const hit = [0, 0, 0];
      const tot = [0, 0, 0];
      for (let i = 0; i < zs.length; i++) {
        const z = zs[i]!;
        const a = z[0]! + neg;
        const c = z[2]! + pos;
        const pred = a >= z[1]! && a >= c ? 0 : z[1]! >= c ? 1 : 2;
        tot[gold[i]!]!++;
        if (pred === gold[i]) hit[gold[i]!]!++;
      }
      const r = (hit[0]! / tot[0]! + hit[1]! / tot[1]! + hit[2]! / tot[2]!) / 3;
      if (r > best.recall + 1e-9) best = { neg: Math.round(neg * 100) / 100, pos: Math.round(pos * 100) / 100, recall: r };
    }
  }
  return best;
}

/**
 * The en model: 3-class logistic regression over words, negation scopes, bigrams, emoji and VADER
 * valence sums, on TweetEval's train and validation tweets. The class mix of those (15.6 / 45.2 /
 * 39.2 %) is not that of the test tweets, and the goal, macro recall, does not depend on the mix:
 * examples are weighted towards an even mix (exponent chosen by cross-validation), the calibration
 * is fitted for an even mix, and the decision biases maximise cross-validated macro recall.
 */
export function trainEn(o: EnTrainOptions): { model: LinearModel; cv: Record<string, OofScores>; config: Config } {
  const posts = readPosts(o.trainDir, 'tweeteval');
  const counts = CLASSES.map((c) => posts.filter((p) => p.label === c).length);
  const mix = counts.map((n) => n / posts.length);
  const groups = o.foldsBy === 'topic' ? topicGroups(posts.map((p) => p.text)) : [];
  const base: CvExample[] = posts.map((p, i) => ({ id: p.id, kind: 'tweeteval', text: p.text, label: p.label, weight: 1, ...(groups[i] ? { group: groups[i] } : {}) }));
  if (o.foldsBy === 'topic') o.log(`en: folds by guessed topic: ${new Set(groups.filter(Boolean)).size} topics hold ${groups.filter(Boolean).length} tweets`);
  const lexicon = enLexicon(o.root);
  o.log(`en: ${base.length} tweets (mix ${mix.map((m) => m.toFixed(3)).join(' / ')})`);
  const featureSet = (c: Config): EnFeatureSet => (c['char'] ? { charNgrams: true } : {});
  const cache = new Map<string, Featurized[]>();
  const featsFor = (c: Config): Featurized[] => {
    const key = JSON.stringify(featureSet(c));
    let f = cache.get(key);
    if (!f) {
      o.log(`en: featurizing with ${key}`);
      f = featurize('en', base, undefined, lexicon, undefined, featureSet(c));
      cache.set(key, f);
    }
    return f;
  };
  const gold = base.map((e) => CLASSES.indexOf(e.label));
  const priors = new Map<number, Float32Array | undefined>();
  const priorOf = (s: number): Float32Array | undefined => {
    if (!priors.has(s)) priors.set(s, vaderPrior(o.root, o.bucketsLog2, s));
    return priors.get(s);
  };
  const weighted = (c: Config): CvExample[] => base.map((e, i) => ({ ...e, weight: Math.pow(1 / (3 * mix[gold[i]!]!), c['balance']!) }));
  const train = (c: Config) => (ex: Example[], f: Featurized[]): LinearModel => {
    const prior = priorOf(c['prior']!);
    const m = trainBagged({
      lang: 'en', classes: CLASSES, bucketsLog2: o.bucketsLog2, epochs: c['epochs']!, learningRate: c['lr']!, l2: c['l2']!, seed: o.seed,
      normPower: c['norm']!, ...(prior ? { prior } : {}),
    }, c['bag'] ?? 1, ex, f);
    m.lexicon = lexicon;
    return m;
  };
  const oofFor = memoisedOutOfFoldLogits<Config>(weighted, featsFor, o.folds, o.seed, train);
  const search = coordinateSearch(o.grid, (c) => {
    const r = bestBiases(oofFor(c), gold).recall;
    o.log(`  en ${JSON.stringify(c)}: macro recall ${r.toFixed(4)} (with its best decision biases)`);
    return r;
  }, o.log, o.passes);
  const config = search.config;
  const oof = oofFor(config);
  if (o.dumpOof) {
    const fold = base.map((e) => foldOf(e.group ?? e.id, o.folds, o.seed));
    writeFileSync(o.dumpOof, JSON.stringify({ gold, fold, oof: oof.map((z) => Array.from(z)) }));
    o.log(`en: wrote out-of-fold logits to ${o.dumpOof}`);
  }
  const feats = featsFor(config);
  const even = (e: CvExample): number => 1 / (3 * mix[CLASSES.indexOf(e.label)]!);
  const testMix = (e: CvExample): number => TWEETEVAL_TEST_MIX[CLASSES.indexOf(e.label)]! / mix[CLASSES.indexOf(e.label)]!;
  const calibration = calibrated(base, oof, CLASSES, () => 0, 1, feats, o.calibrateFor === 'even' ? even : o.calibrateFor === 'test' ? testMix : () => 1);
  // The mix the probabilities hold for: what the runtime's label-shift adaptation re-weighs from.
  calibration.mix = (o.calibrateFor === 'even' ? CLASSES.map(() => 1 / 3) : o.calibrateFor === 'test' ? TWEETEVAL_TEST_MIX : mix).map((v) => Math.round(v * 1e5) / 1e5);
  const calibratedLogits = oof.map((z) => {
    const g = calibration.groups[0]!;
    return z.map((v, j) => v / g.temperature + g.bias[j]!);
  });
  const b = bestBiases(calibratedLogits, gold);
  const decisionBias = [b.neg, 0, b.pos];
  const calWeight = o.calibrateFor === 'even' ? even : o.calibrateFor === 'test' ? testMix : () => 1;
  const nested = nestedTopLabelEce(base, oof, gold, o.folds, o.seed, decisionBias, calWeight, TOP_LABEL_BINS);
  o.log(`en: nested ${o.folds}-fold ECE of the confidence, temperature + class bias ${nested.without.toFixed(4)}, with the top-label map ${nested.with.toFixed(4)}`);
  calibration.groups[0]!.topLabel = topLabelOf(calibratedLogits, gold, decisionBias, base.map(calWeight), TOP_LABEL_BINS);
  const cv = {
    trainMix: scoreOof(base, oof, CLASSES, calibration, feats, decisionBias),
    evenMix: scoreOof(base, oof, CLASSES, calibration, feats, decisionBias, even),
    testSplitMix: scoreOof(base, oof, CLASSES, calibration, feats, decisionBias, testMix),
  };
  o.log(`en cross-validated (${o.folds} folds): decision bias ${JSON.stringify(decisionBias)}, ${JSON.stringify(cv)}`);
  const all = weighted(config);
  const model = train(config)(all, feats);
  model.calibration = calibration;
  model.decisionBias = decisionBias;
  if (config['char']) model.enFeatures = featureSet(config);
  model.meta = { ...model.meta, config, folds: o.folds, nestedEce: nested, foldsBy: o.foldsBy, calibratedFor: o.calibrateFor, cvSearch: search.tried.length, trainMix: mix };
  return { model, cv, config };
}

/** Knots of the top-label map: chosen by nested cross-validation (scripts/sentiment/compare-calibrators.ts). */
const TOP_LABEL_BINS = 20;

/** The predicted label (with decision biases) and its probability, from calibrated logits. */
export function predicted(u: ArrayLike<number>, decisionBias: number[]): { pred: number; conf: number } {
  const p = new Float64Array(3);
  softmaxInto(u, 3, p);
  let best = 0;
  for (let j = 1; j < 3; j++) if (u[j]! + decisionBias[j]! > u[best]! + decisionBias[best]!) best = j;
  return { pred: best, conf: p[best]! };
}

export function topLabelOf(us: ArrayLike<number>[], gold: number[], decisionBias: number[], weights: number[], bins: number): TopLabelMap {
  const pc = us.map((u) => predicted(u, decisionBias));
  const m = fitTopLabelMap(pc.map((x) => x.conf), pc.map((x, i) => x.pred === gold[i]), weights, bins, 'linear');
  return { kind: m.kind, x: m.x.map((v) => Math.round(v * 1e5) / 1e5), y: m.y.map((v) => Math.round(v * 1e5) / 1e5) };
}

/**
 * Mean per-fold ECE (re-weighted) of the confidence when temperature, class bias and top-label map
 * are fitted on the other folds' out-of-fold logits: what the map adds on posts it was not fitted on.
 */
function nestedTopLabelEce(
  base: CvExample[], oof: Float64Array[], gold: number[], folds: number, seed: number, decisionBias: number[],
  weightOf: (e: CvExample) => number, bins: number,
): { without: number; with: number } {
  const fold = base.map((e) => foldOf(e.group ?? e.id, folds, seed));
  let without = 0;
  let withMap = 0;
  for (let f = 0; f < folds; f++) {
    const tr = base.map((_, i) => i).filter((i) => fold[i] !== f);
    const te = base.map((_, i) => i).filter((i) => fold[i] === f);
    const g = fitCalibration(tr.map((i) => oof[i]!), tr.map((i) => gold[i]!), tr.map((i) => weightOf(base[i]!)), 3);
    const cal = (i: number): Float64Array => oof[i]!.map((v, j) => v / g.temperature + g.bias[j]!);
    const map = topLabelOf(tr.map(cal), tr.map((i) => gold[i]!), decisionBias, tr.map((i) => weightOf(base[i]!)), bins);
    const pc = te.map((i) => predicted(cal(i), decisionBias));
    const w = te.map((i) => weightOf(base[i]!));
    const right = pc.map((x, k) => x.pred === gold[te[k]!]);
    without += reliability(pc.map((x) => x.conf), right, 10, w).ece / folds;
    withMap += reliability(pc.map((x) => mapConfidence(map, x.conf)), right, 10, w).ece / folds;
  }
  return { without: Math.round(without * 1e4) / 1e4, with: Math.round(withMap * 1e4) / 1e4 };
}
