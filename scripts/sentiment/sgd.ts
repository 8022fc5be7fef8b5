import { seededRng } from '../../src/core/rng';
import { FeatureExtractor, type EnFeatureSet, type SentimentLang, type ZhFeatureSet } from '../../src/enrichers/sentiment/features';
import type { LinearModel, SentimentLabel } from '../../src/enrichers/sentiment/model-file';

export interface Example {
  text: string;
  label: SentimentLabel;
  weight: number;
  stripEmoticons?: boolean;
}

export interface TrainParams {
  lang: SentimentLang;
  classes: SentimentLabel[];
  bucketsLog2: number;
  epochs: number;
  learningRate: number;
  l2: number;
  seed: number;
  /** Prior weights the model is pulled towards (and keeps where training never touches a bucket). */
  prior?: Float32Array;
  /** n-gram features are scaled by n^-normPower (0.5: unit L2 norm for distinct features). */
  normPower?: number;
  /** Per-bucket feature scale (NB-style informativeness); folded into the weights after training. */
  scale?: Float32Array;
  /**
   * L2 on every weight at every step (applied lazily: a bucket's decay since it was last touched
   * is applied when it is next touched, and to all buckets at the end), instead of on the touched
   * buckets only: a rare n-gram is then pulled back while the posts without it are read too.
   */
  denseL2?: boolean;
}

/**
 * NB-SVM-style scale per bucket for a binary task: 1 + β·|log-count ratio| of the bucket's presence
 * in positive vs negative examples, so that discriminative n-grams start with a larger say.
 */
export function logCountRatioScale(bucketsLog2: number, examples: Example[], feats: Featurized[], beta: number, alpha = 1): Float32Array {
  const mask = (1 << bucketsLog2) - 1;
  const pos = new Float32Array(mask + 1).fill(alpha);
  const neg = new Float32Array(mask + 1).fill(alpha);
  examples.forEach((e, i) => {
    const target = e.label === 'positive' ? pos : neg;
    for (const h of feats[i]!.feats) target[(h >>> 1) & mask]! += e.weight;
  });
  let sp = 0;
  let sn = 0;
  for (let b = 0; b <= mask; b++) { sp += pos[b]!; sn += neg[b]!; }
  const scale = new Float32Array(mask + 1);
  for (let b = 0; b <= mask; b++) scale[b] = 1 + beta * Math.abs(Math.log((pos[b]! / sp) / (neg[b]! / sn)));
  return scale;
}

/**
 * IDF-style scale per bucket, (1 + ln((N + 1) / (df + 1)))^power over the (weighted) examples a
 * model is trained on: rare n-grams get a larger say than the ones most posts share, as in TF-IDF
 * (the post's own length normalisation stays the model's `normPower`). Folded into the weights.
 */
export function idfScale(bucketsLog2: number, examples: Example[], feats: Featurized[], power: number): Float32Array {
  const mask = (1 << bucketsLog2) - 1;
  const df = new Float32Array(mask + 1);
  let n = 0;
  examples.forEach((e, i) => {
    n += e.weight;
    for (const h of feats[i]!.feats.subarray(feats[i]!.strong)) df[(h >>> 1) & mask]! += e.weight;
  });
  const scale = new Float32Array(mask + 1);
  for (let b = 0; b <= mask; b++) scale[b] = Math.pow(1 + Math.log((n + 1) / (df[b]! + 1)), power);
  return scale;
}

/** Element-wise product of two optional scales. */
export function productScale(a: Float32Array | undefined, b: Float32Array | undefined): Float32Array | undefined {
  if (!a || !b) return a ?? b;
  const out = new Float32Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i]! * b[i]!;
  return out;
}

/** Features once per example, reused by every epoch. */
export interface Featurized {
  feats: Int32Array;
  strong: number;
  /** Values of the strong features. */
  vals: Float32Array;
  /** Emoticon codes read (the calibration group). */
  emoticons: number;
}

export function featurize(
  lang: SentimentLang, examples: Example[], segment?: (t: string) => string[], lexicon?: ReadonlyMap<number, number>, zh?: ZhFeatureSet, en?: EnFeatureSet,
): Featurized[] {
  const fx = new FeatureExtractor(segment, zh, en);
  return examples.map((e) => ({
    feats: fx.extract(e.text, lang, { stripEmoticons: e.stripEmoticons, lexicon }).slice(), strong: fx.strong, vals: fx.vals.slice(0, fx.strong), emoticons: fx.emoticons,
  }));
}

/**
 * Multinomial logistic regression by AdaGrad over shuffled examples, L2 towards the prior applied
 * to the buckets an example touches (the usual sparse approximation). Deterministic for a seed.
 */
export function trainSoftmax(p: TrainParams, examples: Example[], feats: Featurized[]): LinearModel {
  const k = p.classes.length;
  const buckets = 1 << p.bucketsLog2;
  const mask = buckets - 1;
  const w = p.prior ? Float32Array.from(p.prior) : new Float32Array(buckets * k);
  const w0 = p.prior ?? new Float32Array(buckets * k);
  const g2 = new Float32Array(buckets * k).fill(1e-6);
  const rng = seededRng(p.seed);
  const order = examples.map((_, i) => i);
  const z = new Float64Array(k);
  const grad = new Float64Array(k);
  // Dense L2: the step at which each bucket's decay was last brought up to date.
  const lastStep = p.denseL2 ? new Int32Array(buckets) : undefined;
  let step = 0;
  const catchUp = (b: number): void => {
    const gap = step - lastStep![b]!;
    if (gap <= 0) return;
    lastStep![b] = step;
    for (let c = 0; c < k; c++) {
      const at = b * k + c;
      const d = Math.pow(Math.max(0, 1 - (p.learningRate * p.l2) / Math.sqrt(g2[at]!)), gap);
      w[at] = w0[at]! + (w[at]! - w0[at]!) * d;
    }
  };
  for (let epoch = 0; epoch < p.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rng.next() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const idx of order) {
      const { feats: f, strong, vals } = feats[idx]!;
      const ex = examples[idx]!;
      step++;
      if (lastStep) for (let i = 0; i < f.length; i++) catchUp((f[i]! >>> 1) & mask);
      const norm = Math.pow(Math.max(1, f.length - strong), -(p.normPower ?? 0.5));
      z.fill(0);
      for (let i = 0; i < f.length; i++) {
        const h = f[i]!;
        const base = ((h >>> 1) & mask) * k;
        const x = (i < strong ? vals[i]! : norm) * (p.scale ? p.scale[base / k]! : 1);
        const v = h & 1 ? -x : x;
        for (let c = 0; c < k; c++) z[c]! += v * w[base + c]!;
      }
      let max = -Infinity;
      for (let c = 0; c < k; c++) max = Math.max(max, z[c]!);
      let sum = 0;
      for (let c = 0; c < k; c++) { z[c] = Math.exp(z[c]! - max); sum += z[c]!; }
      const y = p.classes.indexOf(ex.label);
      for (let c = 0; c < k; c++) grad[c] = ((z[c]! / sum) - (c === y ? 1 : 0)) * ex.weight;
      for (let i = 0; i < f.length; i++) {
        const h = f[i]!;
        const base = ((h >>> 1) & mask) * k;
        const x = (i < strong ? vals[i]! : norm) * (p.scale ? p.scale[base / k]! : 1);
        const v = h & 1 ? -x : x;
        for (let c = 0; c < k; c++) {
          const at = base + c;
          const g = grad[c]! * v + (lastStep ? 0 : p.l2 * (w[at]! - w0[at]!));
          g2[at]! += g * g;
          w[at]! -= (p.learningRate * g) / Math.sqrt(g2[at]!);
        }
      }
    }
  }
  if (lastStep) for (let b = 0; b < buckets; b++) catchUp(b);
  if (p.scale) for (let b = 0; b < buckets; b++) for (let c = 0; c < k; c++) w[b * k + c]! *= p.scale[b]!;
  return {
    lang: p.lang, classes: p.classes, bucketsLog2: p.bucketsLog2, weights: w,
    decisionBias: p.classes.map(() => 0), neutralBand: 0,
    ...(p.normPower !== undefined ? { normPower: p.normPower } : {}),
    meta: { epochs: p.epochs, learningRate: p.learningRate, l2: p.l2, seed: p.seed },
  };
}

/**
 * The mean of `bag` models trained with different shuffling seeds: SGD's last iterate depends on
 * the order of the examples, and the mean of linear models is one linear model, so the average
 * costs nothing at inference.
 */
export function trainBagged(p: TrainParams, bag: number, examples: Example[], feats: Featurized[]): LinearModel {
  const first = trainSoftmax(p, examples, feats);
  if (bag <= 1) return first;
  const w = first.weights;
  for (let b = 1; b < bag; b++) {
    const next = trainSoftmax({ ...p, seed: p.seed + b * 7919 }, examples, feats).weights;
    for (let i = 0; i < w.length; i++) w[i]! += next[i]!;
  }
  for (let i = 0; i < w.length; i++) w[i]! /= bag;
  first.meta = { ...first.meta, bag };
  return first;
}
